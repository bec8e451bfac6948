// The article's "predict, then watch your guess" moments: the reader picks an answer; the
// reveal says what they guessed, and the figure that follows the box plays the answer (a box
// with data-play="watch" runs that figure's refill and drain; with data-measure="drain-young" the
// reveal then names the count the drain produced, beside the guess).
import { fmt } from "./util.js";

/** Binds every [data-predict] box of the page; `apps()` gives the widgets started so far. */
export function bindPredict(apps) {
  for (const box of document.querySelectorAll("[data-predict]")) {
    const answer = box.querySelector(".predict-a");
    const you = document.createElement("p");
    you.className = "predict-you";
    you.setAttribute("role", "status");
    answer.prepend(you);
    for (const b of box.querySelectorAll("button[data-guess]")) {
      b.addEventListener("click", () => {
        for (const o of box.querySelectorAll("button[data-guess]")) o.setAttribute("aria-pressed", String(o === b));
        answer.hidden = false;
        box.classList.add("predict-done");
        const said = b.textContent.trim();
        box.dataset.guess = b.dataset.guess;
        you.textContent = `You said ${said}.${verdict(box, b)}`;
        const root = box.parentElement.querySelector("[data-midpoint]");
        if (box.dataset.play === "watch" && root) playAnswer(box, root, said, you, apps);
      });
    }
  }
}

/** " Right." or " Not quite." when the box names its answer (data-answer), else nothing. */
function verdict(box, b) {
  if (!box.dataset.answer) return "";
  return b.dataset.guess === box.dataset.answer ? " Right." : " Not quite.";
}

/** Runs the figure's refill and drain (once it has reached its opening moment), then, if the box
 *  measures it, says how many pages the drain turned young next to the guess. */
function playAnswer(box, root, said, you, apps) {
  const token = {};
  box.predictToken = token;
  const reduce = matchMedia("(prefers-reduced-motion: reduce)").matches;
  root.closest("figure")?.scrollIntoView({ block: "nearest", behavior: reduce ? "auto" : "smooth" });
  const v = verdict(box, box.querySelector("button[data-guess][aria-pressed=true]") ?? {});
  // Each box says what its own figure shows (data-watching, data-played), not another box's.
  you.textContent = `You said ${said}.${v} ${box.dataset.watching ?? "The figure below plays the answer: the refill, then its drain."}`;
  let started = false;
  const tick = () => {
    if (box.predictToken !== token) return;
    const app = apps().find((a) => a.root === root);
    const st = app?.status;
    if (!app || app.dead) return void requestAnimationFrame(tick);
    if (!started) {
      // Its opening moment first (at=batch: just after the batch).
      if (st?.mode !== "paused") return void requestAnimationFrame(tick);
      started = true;
      app.act("watch");
      return void requestAnimationFrame(tick);
    }
    if (st.mode !== "paused") return void requestAnimationFrame(tick);
    if (box.dataset.measure === "drain-young" && st.free === 0) {
      const young = st.drain_young;
      you.textContent = `You said ${said}; this drain turned ${fmt.format(young)} page${young === 1 ? "" : "s"} young (${fmt.format(Math.round((100 * young) / Math.max(1, app.view.lru_scan_depth)))} % of the ${fmt.format(app.view.lru_scan_depth)} frames the refill freed), none of them by passing the time test.`;
    } else {
      you.textContent = `You said ${said}.${v} ${box.dataset.playedText ?? "The figure below has played the answer."}`;
    }
    box.dataset.played = "1";
  };
  requestAnimationFrame(tick);
}

// Entry point of the full page: load the WASM module once, then start one widget per
// [data-midpoint] element.
import { boot } from "./boot.js";
import { MidpointApp } from "./app.js";
import { startBeyond } from "./beyond.js";
import { bindPredict } from "./predict.js";

// On ?embed=1 the page shows only the widget that reads the address: the article's figures
// and prose go.
const flag = new URLSearchParams(location.search).get("embed");
if (flag !== null && !["0", "false", "no", "off"].includes(flag.trim().toLowerCase())) {
  for (const r of document.querySelectorAll("[data-midpoint][data-query]")) (r.closest("figure") ?? r).remove();
  for (const a of document.querySelectorAll(".explain")) a.remove();
  // In an iframe, tell the host page the figure's height whenever it changes, so a host that
  // listens (embed.js, or the one-line listener in docs/embedding.md) fits the iframe to it:
  // on a phone the close-up is shorter than the 520 px the snippet reserves.
  if (window.parent !== window) {
    let last = 0;
    new ResizeObserver(() => {
      const height = Math.ceil(document.body.getBoundingClientRect().bottom);
      if (height === last) return;
      last = height;
      window.parent.postMessage({ type: "midpoint-height", height }, "*");
    }).observe(document.body);
  }
}

// ?view=present: the classroom's presentation, the close-up and the story's beats scaled to the
// screen; only the widget that reads the address stays.
if ((new URLSearchParams(location.search).get("view") ?? "").trim().toLowerCase() === "present") {
  document.documentElement.classList.add("mp-present-page");
  for (const r of document.querySelectorAll("[data-midpoint][data-query]")) (r.closest("figure") ?? r).remove();
  for (const a of document.querySelectorAll(".explain")) a.remove();
}

// Long figure captions fold to their first lines on a phone, with a button for the rest (CSS
// decides when: .mp-clamp only clamps on a narrow screen).
for (const cap of document.querySelectorAll(".explain figure > figcaption")) {
  cap.classList.add("mp-clamp");
  const more = document.createElement("button");
  more.type = "button";
  more.className = "mp-more";
  more.textContent = "More of the caption";
  more.setAttribute("aria-expanded", "false");
  more.addEventListener("click", () => {
    const open = cap.classList.toggle("mp-open");
    more.setAttribute("aria-expanded", String(open));
    more.textContent = open ? "Less" : "More of the caption";
  });
  cap.after(more);
}

// The widget that reads the address (the lab) comes first in window.__midpoint.apps.
const roots = [...document.querySelectorAll("[data-midpoint]")].sort((a, b) => (a.dataset.query === undefined ? 0 : 1) - (b.dataset.query === undefined ? 0 : 1));

function fail(msg) {
  for (const r of roots) {
    r.innerHTML = "";
    const p = document.createElement("p");
    p.className = "mp-alert";
    p.setAttribute("role", "alert");
    p.textContent = msg;
    r.append(p);
  }
}

// The widgets started so far; the article's "predict, then watch your guess" moments play the
// answer in the figure that follows them.
const apps = [];
bindPredict(() => apps);

try {
  const env = await boot();
  // The lab starts at once; the article's figures when they come near the screen, so that a
  // phone runs only the simulations it shows.
  const lazy = new IntersectionObserver(
    (entries) => {
      for (const en of entries) {
        if (!en.isIntersecting) continue;
        lazy.unobserve(en.target);
        apps.push(new MidpointApp(en.target, env));
      }
    },
    { rootMargin: "400px 0px" },
  );
  for (const root of roots) {
    if (root.dataset.query === undefined) apps.push(new MidpointApp(root, env));
    else lazy.observe(root);
  }
  // The "Beyond" figures; a heat-map click runs its cell in the lab (the widget of the address).
  startBeyond(env, apps.find((a) => a.syncUrl) ?? null);
  // A read-only hook for tests and the curious.
  window.__midpoint = { apps, debug: (i = 0) => apps[i]?.debug() };
  document.documentElement.dataset.midpointReady = "1";
} catch (e) {
  console.error(e);
  fail(`The simulator could not start: ${e?.message ?? e}. It needs a browser with WebAssembly and ES modules.`);
}

// The guided tour (the lab's "Tell me the story", and the classroom's presentation,
// view=present): six beats of the story, each a preset and a moment (src/ui/tour.rs).
//
// A beat is a preset and a moment; the explorer seeks there at full speed (a run of the core,
// then the view rebuilt from the pool), so nothing is prepared ahead. The widget carries
// `data-tour` (the beat) and, from the key to the first frame drawn at the beat's moment,
// `data-seeking="1"`.
import * as mp from "../../pkg/midpoint.js";
import { el, fmt, setText } from "../util.js";
import { stripColours } from "./paint-strip.js";

// Names for the colours the close-up draws, so that the key's words follow the palette in
// force (light, dark, projector): the nearest of these by RGB distance.
const NAMES = [["black", 0x111111], ["white", 0xffffff], ["grey", 0x888888], ["yellow", 0xf0e442], ["orange", 0xd95f02],
  ["blue", 0x1b6fb5], ["pink", 0xcc79a7], ["red", 0xd00000], ["green", 0x009e73], ["purple", 0x7b3294]];

/** The name of a CSS colour (#rgb, #rrggbb or rgb()), as the key says it. */
export function colourName(c) {
  const probe = document.createElement("canvas").getContext("2d");
  probe.fillStyle = "#000";
  probe.fillStyle = c;
  const hex = probe.fillStyle;
  const m = /^#([0-9a-f]{6})$/i.exec(hex);
  if (!m) return "grey";
  const v = parseInt(m[1], 16);
  const rgb = (x) => [(x >> 16) & 255, (x >> 8) & 255, x & 255];
  const [r, g, b] = rgb(v);
  let best = "grey";
  let bd = Infinity;
  for (const [name, x] of NAMES) {
    const [r2, g2, b2] = rgb(x);
    const d = (r - r2) ** 2 + (g - g2) ** 2 + (b - b2) ** 2;
    if (d < bd) {
      bd = d;
      best = name;
    }
  }
  return best;
}

// The first beat that shows the hot set's share cached as a large figure (1-based).
const KEPT_FROM_BEAT = 5;

// The beat before the watched one (the figure paused just before the LRU batch) asks the class
// the guide's question; the answer (the refill, its drain and its count) comes with the next
// key, the watched beat.
const PREDICT = "Predict first: the LRU batch is about to free 1,024 frames, and the scan will read 1,024 pages into them. How many scan pages will be young once the free list is empty: none, about 60, about 600, or all 1,024? Press → to watch.";

export class Tour {
  constructor(w) {
    this.w = w;
    this.kind = "tour";
    const id = w.id;
    this.steps = mp.tour_steps();
    this.present = w.viewName === "present";
    this.index = null;
    this.el = el("section", { class: "mp-tour", "aria-labelledby": `${id}-tourh`, hidden: true });
    this.el.innerHTML = `
      <p class="mp-tour-count"></p>
      <h3 class="mp-tour-h" id="${id}-tourh" tabindex="-1"></h3>
      <p class="mp-tour-text"></p>
      <p class="mp-tour-look"></p>
      <p class="mp-tour-counts" hidden></p>
      <div class="mp-tour-nav">
        <button type="button" data-act="tour-back"${this.present ? ` title="The previous beat (← or PageUp)" aria-keyshortcuts="ArrowLeft PageUp"` : ""}><span aria-hidden="true">←</span> Back</button>
        <button type="button" data-act="tour-next" class="mp-primary"${this.present ? ` title="The next beat (→ or PageDown)" aria-keyshortcuts="ArrowRight PageDown"` : ""}>Next <span aria-hidden="true">→</span></button>
        <button type="button" class="mp-small" data-act="tour-end">Leave the tour</button>
      </div>`;
    this.button = el("button", { type: "button", class: "mp-small", "data-act": "tour", text: "Tell me the story" });
    const $ = (s) => this.el.querySelector(s);
    this.count = $(".mp-tour-count");
    this.h = $(".mp-tour-h");
    this.text = $(".mp-tour-text");
    this.look = $(".mp-tour-look");
    this.counts = $(".mp-tour-counts");
    this.nav = $(".mp-tour-nav");
    this.back = $('[data-act="tour-back"]');
    this.next = $('[data-act="tour-next"]');
    if (this.present) {
      this.counts.hidden = false;
      // From beat 5 on, the share of the hot set cached as a large figure: beats 5 and 6 (26 %
      // and 95 %) differ at a glance, not only in a counter.
      this.kept = el("p", { class: "mp-pres-kept", "data-testid": "present-kept", hidden: true });
      // Below the smallest screen the presentation is laid out for, a message instead of a
      // close-up squeezed to nothing (page.css shows it).
      this.room = el("p", { class: "mp-pres-room", "data-testid": "present-room", role: "status",
        text: "The presentation needs more room: a window at least 1,000 × 560 px (full screen, F, or zoom out with Ctrl −)." });
      // The close-up's colour key, its swatches and words from the painter's colours.
      this.key = el("ul", { class: "mp-legend mp-key mp-pres-key", "data-testid": "present-key", "aria-label": "Colour key" });
      // Projector mode: a high-contrast light palette (page.css), P or the button, projector=1.
      this.proj = el("button", { type: "button", class: "mp-small", "data-act": "projector", "aria-pressed": "false",
        title: "Projector mode: high contrast for a washed-out projector (P)", "aria-keyshortcuts": "P", text: "Projector" });
      this.proj.addEventListener("click", () => this.setProjector(!this.projector));
      document.addEventListener("keydown", (e) => {
        if (e.altKey || e.ctrlKey || e.metaKey || e.defaultPrevented || (e.key !== "p" && e.key !== "P")) return;
        if (e.target?.closest?.("input, select, textarea, dialog")) return;
        e.preventDefault();
        this.setProjector(!this.projector);
      }, true);
      this.projector = new URLSearchParams(location.search).get("projector") === "1";
    }
  }

  /** Switches projector mode on or off: the palette, the close-up, the key and the address. */
  setProjector(on) {
    this.projector = on;
    if (on) this.w.root.dataset.projector = "1";
    else delete this.w.root.dataset.projector;
    this.proj.setAttribute("aria-pressed", String(on));
    this.w.emit("recolour", this.w.darkQuery?.matches ?? false);
    this.paintKey();
    this.w.wake?.();
    this.keepProjectorInUrl();
  }

  // The widget's events (widget.js, emit): the address rewritten, the colour scheme changed.
  addressChanged() {
    if (this.present) queueMicrotask(() => this.keepProjectorInUrl());
  }
  recolour() {
    if (!this.present) return;
    this.paintKey();
    const step = this.steps[this.index ?? -1];
    if (step && !this.asking) this.text.textContent = this.words(step.short);
  }

  keepProjectorInUrl() {
    const q = new URLSearchParams(location.search);
    if ((q.get("projector") === "1") === this.projector) return;
    if (this.projector) q.set("projector", "1");
    else q.delete("projector");
    history.replaceState(history.state, "", `${location.pathname}?${q}${location.hash}`);
  }

  /** The key, from the colours the close-up paints with now (paint-strip.js, stripColours). */
  paintKey() {
    if (!this.key) return;
    const sc = stripColours(this.w.root);
    const n = colourName;
    const sw = (role, style) => `<span class="mp-sw" data-role="${role}" style="${style}"></span>`;
    const hatch = (k, t) => `background: linear-gradient(135deg, ${t} 0 45%, ${k} 45% 55%, ${t} 55%)`;
    const items = [
      [sw("hot", `background: ${sc.dots ? `radial-gradient(circle, ${sc.text} 0 18%, transparent 22%), ` : ""}${sc.k[1]}`), `${n(sc.k[1])}${sc.dots ? ", dotted" : ""}: hot set`],
      [sw("scan", `background: ${sc.k[3]}`), `${n(sc.k[3])}: scan`],
      [sw("old", hatch(sc.k[3], sc.t[3])), "pale: old"],
      [sw("free", `background: ${sc.k[0]}`), "free"],
      [sw("ring-young", `background: ${sc.k[3]}; box-shadow: inset 0 0 0 3px ${sc.ringYoung}`), `${n(sc.ringYoung)} ring: made young`],
      [sw("ring-old", `background: ${sc.t[1]}; box-shadow: inset 0 0 0 3px ${sc.ringOld}`), `${n(sc.ringOld)} ring: made old (×: evicted)`],
      [sw("flash", `background: linear-gradient(to top, ${sc.flash} 0 30%, ${sc.k[3]} 30%)`), `${n(sc.flash)} bar: just read`],
    ];
    this.key.innerHTML = items.map(([a, b]) => `<li>${a}<span data-words>${b}</span></li>`).join("");
    this.key.dataset.mode = this.projector ? "projector" : this.w.darkQuery?.matches ? "dark" : "light";
  }

  /** The presentation's right-hand column: the beat's text, counters and narration always
   *  whole; the code that ran below them only if it fits whole (never under the narration, never
   *  cut mid-line). Called after each status update and when the column's size changes. */
  fitSide() {
    const code = this.w.root.querySelector(".mp-pres-side > .mp-code");
    const side = code?.parentElement;
    if (!side) return;
    const room = side.getBoundingClientRect().bottom - code.getBoundingClientRect().top;
    const cut = code.scrollHeight > room + 1;
    if (cut !== code.classList.contains("mp-cut")) code.classList.toggle("mp-cut", cut);
  }

  act(name) {
    if (name === "tour") this.go(0, true);
    else if (name === "tour-next") {
      if (this.index !== null && this.index + 1 < this.steps.length) this.go(this.index + 1, true, true);
    } else if (name === "tour-back") {
      if (this.index) this.go(this.index - 1, true);
    } else if (name === "tour-end") this.end();
  }

  /** Sets the simulation up for step `i` (0-based) and shows its text. Reached forward by the beat
   *  keys (`byKey`), the presentation's beat before the watched one (paused just before the LRU
   *  batch) also asks the class for its prediction (`data-predict`); the next → is the watched
   *  beat, the answer. */
  go(i, focus, byKey = false) {
    const w = this.w;
    const step = this.steps[i];
    if (!step || w.dead) return;
    this.index = i;
    const after = this.steps[i + 1];
    const ask = this.present && byKey && step.action === "batch" && after?.action === "watch" && after.preset === step.preset;
    this.asking = ask;
    if (ask) w.root.dataset.predict = "1";
    else delete w.root.dataset.predict;
    // Set in the same task as data-tour; the widget removes it once the beat's moment is drawn.
    w.root.dataset.tour = String(i + 1);
    w.root.dataset.seeking = "1";
    w.page.set_tour(i + 1);
    const before = JSON.stringify(w.params);
    if (!w.page.pick_preset(step.preset)) w.page.apply_query(`preset=${step.preset}`);
    const same = this.present && w.ex && JSON.stringify(w.page.params()) === before;
    // The same preset: the explorer stays (a new one would start from the warm-up).
    if (same) w.viewChanged();
    else w.refresh(false);
    w.ex.pause();
    // Each beat at its own speed: the watched beat's slow motion does not carry into the next.
    if (this.present) {
      this.baseSpeed ??= w.ex.status().speed_index;
      if (step.action !== "watch") w.ex.set_speed(this.baseSpeed);
    }
    if (step.action === "time") w.ex.seek_time(step.t_s);
    else if (step.action === "batch") w.ex.next_batch();
    else if (step.action === "watch") w.ex.watch();
    this.el.hidden = false;
    this.button.hidden = true;
    const n = this.steps.length;
    this.count.textContent = this.present ? `Beat ${i + 1} of ${n}` : `The story, step ${i + 1} of ${n}`;
    this.h.textContent = step.title;
    this.text.textContent = ask ? `${this.words(step.short)} ${PREDICT}` : this.present ? this.words(step.short) : step.text;
    this.look.textContent = this.present ? "" : `Look: ${step.look}`;
    this.look.hidden = this.present;
    this.back.disabled = i === 0;
    this.next.disabled = i + 1 === n;
    w.updateStatus();
    w.writeUrl();
    if (focus && !this.present) this.h.focus();
  }

  /** A beat's words with the colours as drawn (the rings the boundary turned young are yellow
   *  in dark mode). */
  words(t) {
    if (!this.present) return t;
    const ring = colourName(stripColours(this.w.root).ringYoung);
    return t.replace(/\bblack ring/g, `${ring} ring`);
  }

  end() {
    const w = this.w;
    this.index = null;
    this.asking = false;
    delete w.root.dataset.predict;
    w.page.set_tour(0);
    delete w.root.dataset.tour;
    delete w.root.dataset.seeking;
    this.el.hidden = true;
    this.button.hidden = false;
    this.button.focus();
    w.writeUrl();
  }

  /** The counters a beat points at, on one line (the presentation). */
  status(s) {
    if (!this.present) return;
    // After every listener of this update has written its text.
    queueMicrotask(() => this.fitSide());
    const pct = s.hot_pages ? Math.round((100 * s.hot_resident) / s.hot_pages) : 0;
    if (this.kept) {
      const show = this.index !== null && this.index + 1 >= KEPT_FROM_BEAT;
      if (this.kept.hidden === show) this.kept.hidden = !show;
      if (show) {
        const t = `${pct} %`;
        if (this.kept.dataset.pct !== String(pct)) {
          this.kept.dataset.pct = String(pct);
          this.kept.innerHTML = `<strong>${t}</strong> <span>of the hot set cached</span>`;
          this.kept.style.setProperty("--kept", String(pct));
        }
      }
    }
    setText(this.counts, `Pages made young ${fmt.format(s.made_young)} · not made young ${fmt.format(s.not_made_young)} · hot set cached ${fmt.format(s.hot_resident)} of ${fmt.format(s.hot_pages)} (${pct} %)`);
  }

  // The presentation's keys are the widget's (widget.js, keyAct: →/PageDown and ←/PageUp reach
  // act("tour-next"/"tour-back") here, whatever has focus); a beat is a seek (go).
}

// The guided tour (the lab's "Tell me the story", and the classroom's presentation,
// view=present): six beats of the story, each a preset and a moment (src/ui/tour.rs).
//
// In the presentation every beat arrives at once: after load, in the page's spare time, a
// second explorer that nobody sees runs each beat's preset to its moment and keeps it
// (`Explorer::moment`, a few MB each); a beat then restores its moment instead of replaying
// the run. Until its moment is ready a beat seeks as the lab's tour does. The widget carries
// `data-tour` (the beat) and, from the key to the first frame drawn at the beat's moment,
// `data-seeking="1"`.
import * as mp from "../../pkg/midpoint.js";
import { el, fmt, setText } from "../util.js";

// Wall time one slice of the beats' preparation may take, ms, and the pause between slices
// while the figure animates (the animation keeps its frames).
const PREP_SLICE_MS = 12;
const PREP_BUSY_WAIT_MS = 200;

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
    // The beats' moments (null until prepared; beats 3 and 4 share one).
    this.moments = this.steps.map(() => null);
    if (this.present) {
      this.counts.hidden = false;
      // Below the smallest screen the presentation is laid out for, a message instead of a
      // close-up squeezed to nothing (page.css shows it).
      this.room = el("p", { class: "mp-pres-room", "data-testid": "present-room", role: "status",
        text: "The presentation needs more room: a window at least 1,000 × 560 px (full screen, F, or zoom out with Ctrl −)." });
      this.bindPresent();
    }
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
      if (this.index !== null && this.index + 1 < this.steps.length) this.go(this.index + 1, true);
    } else if (name === "tour-back") {
      if (this.index) this.go(this.index - 1, true);
    } else if (name === "tour-end") this.end();
  }

  /** Sets the simulation up for step `i` (0-based) and shows its text. */
  go(i, focus) {
    const w = this.w;
    const step = this.steps[i];
    if (!step || w.dead) return;
    this.index = i;
    // Set in the same task as data-tour; the widget removes it once the beat's moment is drawn.
    w.root.dataset.tour = String(i + 1);
    w.root.dataset.seeking = "1";
    w.page.set_tour(i + 1);
    w.takeOver();
    const before = JSON.stringify(w.params);
    if (!w.page.pick_preset(step.preset)) w.page.apply_query(`preset=${step.preset}`);
    const same = this.present && w.ex && JSON.stringify(w.page.params()) === before;
    // The same preset: the explorer stays (a new one would start from the warm-up).
    if (same) w.viewChanged();
    else w.refresh(false);
    w.ex.pause();
    const m = this.moments[i];
    if (m && w.ex.restore_moment(m)) {
      if (step.action === "watch") w.ex.watch();
    } else if (step.action === "time") w.ex.seek_time(step.t_s);
    else if (step.action === "batch") w.ex.next_batch();
    else if (step.action === "watch") w.ex.watch();
    this.el.hidden = false;
    this.button.hidden = true;
    const n = this.steps.length;
    this.count.textContent = this.present ? `Beat ${i + 1} of ${n}` : `The story, step ${i + 1} of ${n}`;
    this.h.textContent = step.title;
    this.text.textContent = this.present ? step.short : step.text;
    this.look.textContent = this.present ? "" : `Look: ${step.look}`;
    this.look.hidden = this.present;
    this.back.disabled = i === 0;
    this.next.disabled = i + 1 === n;
    w.updateStatus();
    w.writeUrl();
    if (focus && !this.present) this.h.focus();
  }

  end() {
    const w = this.w;
    this.index = null;
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
    setText(this.counts, `Pages made young ${fmt.format(s.made_young)} · not made young ${fmt.format(s.not_made_young)} · hot set cached ${fmt.format(s.hot_resident)} of ${fmt.format(s.hot_pages)} (${pct} %)`);
  }

  // ---- the presentation ---------------------------------------------------------------------

  /** The presentation's keys are the widget's (widget.js, keyAct: →/PageDown and ←/PageUp
   *  reach act("tour-next"/"tour-back") here, whatever has focus); the beats' moments are
   *  prepared from load. */
  bindPresent() {
    this.prepare();
  }

  /**
   * Prepares every beat's moment in the page's spare time: a hidden explorer per preset runs
   * to each beat's moment in slices of PREP_SLICE_MS, yielding between them (and waiting
   * while the figure animates). Beats of one preset are prepared in one pass when nothing
   * between them changes what a fresh run would reach (a "next batch" beat is reached from the
   * start only if no refill ran before it).
   */
  prepare() {
    const w = this.w;
    let i = 0;
    let hx = null;
    let preset = null;
    let started = false;
    const done = () => {
      hx?.free();
      hx = null;
      w.root.dataset.beatsReady = String(this.moments.filter(Boolean).length);
    };
    const slice = () => {
      if (w.dead) return done();
      if (i >= this.steps.length) return done();
      const busy = w.status && (w.status.mode === "playing" || w.status.mode === "watching" || w.status.mode === "seeking");
      if (busy && !document.hidden) return setTimeout(slice, PREP_BUSY_WAIT_MS);
      const t0 = performance.now();
      try {
        while (performance.now() - t0 < PREP_SLICE_MS && i < this.steps.length) {
          const step = this.steps[i];
          // Beat 4 watches the batch beat 3 waits at: the same moment.
          if (step.action === "watch" && i > 0 && this.steps[i - 1].action === "batch" && this.steps[i - 1].preset === step.preset && this.moments[i - 1]) {
            this.moments[i] = this.moments[i - 1];
            i++;
            continue;
          }
          if (!hx || preset !== step.preset || (step.action !== "time" && hx.status().refills > 0) || (step.action === "time" && hx.t_s() > step.t_s)) {
            hx?.free();
            const page = new mp.Page(`preset=${step.preset}`);
            hx = new mp.Explorer(page.params());
            page.free();
            hx.set_view_budget("present");
            preset = step.preset;
            started = false;
          }
          if (!started) {
            if (step.action === "time") hx.seek_time(step.t_s);
            else hx.next_batch();
            started = true;
          }
          hx.frame(performance.now());
          if (hx.status().mode === "paused") {
            this.moments[i] = hx.moment() ?? null;
            w.root.dataset.beatsReady = String(this.moments.filter(Boolean).length);
            i++;
            started = false;
          }
        }
      } catch (e) {
        // A beat that cannot be prepared seeks when it is shown, as the lab's tour does.
        console.warn(`midpoint: could not prepare beat ${i + 1}: ${e?.message ?? e}`);
        i++;
        started = false;
      }
      setTimeout(slice, 0);
    };
    setTimeout(slice, 0);
  }
}

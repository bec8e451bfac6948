// The guided tour (the lab's "Tell me the story", and the classroom's presentation,
// view=present): six beats of the story, each a preset and a moment (src/ui/tour.rs).
//
// A beat is a preset and a moment; the explorer seeks there at full speed (a run of the core,
// then the view rebuilt from the pool), so nothing is prepared ahead. The widget carries
// `data-tour` (the beat) and, from the key to the first frame drawn at the beat's moment,
// `data-seeking="1"`.
import * as mp from "../../pkg/midpoint.js";
import { el, fmt, setText } from "../util.js";

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
    if (this.present) this.counts.hidden = false;
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
    const before = JSON.stringify(w.params);
    if (!w.page.pick_preset(step.preset)) w.page.apply_query(`preset=${step.preset}`);
    const same = this.present && w.ex && JSON.stringify(w.page.params()) === before;
    // The same preset: the explorer stays (a new one would start from the warm-up).
    if (same) w.viewChanged();
    else w.refresh(false);
    w.ex.pause();
    if (step.action === "time") w.ex.seek_time(step.t_s);
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
    const pct = s.hot_pages ? Math.round((100 * s.hot_resident) / s.hot_pages) : 0;
    setText(this.counts, `Pages made young ${fmt.format(s.made_young)} · not made young ${fmt.format(s.not_made_young)} · hot set cached ${fmt.format(s.hot_resident)} of ${fmt.format(s.hot_pages)} (${pct} %)`);
  }

  // The presentation's keys are the widget's (widget.js, keyAct: →/PageDown and ←/PageUp reach
  // act("tour-next"/"tour-back") here, whatever has focus); a beat is a seek (go).
}

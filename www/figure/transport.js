// The transport of a widget's run: Play, Back, Step, the boundary and drain-end steps, Next
// LRU batch, Watch a refill & drain, the speed, Reset; the clock and the narration. Its
// buttons call the widget's act(); what they show comes from the explorer's status.
import * as mp from "../../pkg/midpoint.js";
import { el, setText } from "../util.js";

export class Transport {
  /**
   * `compact`: a figure's transport (the lab's extra buttons left out); `extra`: elements put
   * at the end of the toolbar (a figure's Embed button).
   */
  constructor(w, { compact = false } = {}) {
    this.w = w;
    const id = w.id;
    // Each button names its key in this view (widget.js, keyAct).
    const arrows = w.arrowsStep();
    const key = (k, shortcut) => (arrows ? [` (${k})`, ` aria-keyshortcuts="${shortcut}"`] : ["", ""]);
    const [backKey, backAttr] = key("←", "ArrowLeft");
    const [stepKey, stepAttr] = key("→", "ArrowRight");
    const [, resetAttr] = key("Home", "Home");
    this.el = el("div", { class: "mp-transport" });
    this.el.innerHTML = `
      <div class="mp-toolbar" role="toolbar" aria-label="Simulation controls" id="${id}-controls" tabindex="-1">
        <div class="mp-group">
          <button type="button" data-act="play" aria-keyshortcuts="Space" title="Play or pause (Space)"><span aria-hidden="true" class="mp-ico">▶</span> <span class="mp-lbl">Play</span></button>
          <button type="button" data-act="back"${backAttr} title="Step back one event${backKey}"><span aria-hidden="true">◀</span> Back</button>
          <button type="button" data-act="step"${stepAttr} title="Process one event${stepKey}">Step <span aria-hidden="true">▶</span></button>
          <button type="button" data-act="step-boundary" data-testid="step-boundary" aria-keyshortcuts="B" title="Run until the boundary has moved by a twentieth of the refill, or to the drain's next beat (B)">Boundary<span class="mp-long"> step</span> <span aria-hidden="true">▸|</span></button>
          <button type="button" data-act="step-drain-end" data-testid="step-drain-end" aria-keyshortcuts="E" title="Run to the end of the drain: the free list empty (E)">Drain<span class="mp-long">'s</span> end <span aria-hidden="true">▸▸|</span></button>
          ${compact ? "" : `<button type="button" data-act="batch" aria-keyshortcuts="N" title="Run at full speed to just before the next LRU batch (N)">Next LRU batch <span aria-hidden="true">»</span></button>`}
          <button type="button" data-act="watch" data-testid="watch-refill" aria-keyshortcuts="W" class="mp-primary" title="Run to the next LRU batch, then show the refill and the drain in slow motion (W)">Watch<span class="mp-long"> a refill &amp; drain</span></button>
        </div>
        <div class="mp-group mp-group-end">
          <label class="mp-speed">Speed <select data-ctl="speed" aria-keyshortcuts="+ -" title="The speed (+ −)"></select></label>
          <button type="button" data-act="reset"${resetAttr}${compact ? " hidden" : ""}>Reset</button>
          <span class="mp-figacts">${document.fullscreenEnabled && !compact ? `<button type="button" class="mp-small" data-act="fullscreen" title="Full screen (F)">Full screen</button>` : ""}</span>
        </div>
      </div>
      <div class="mp-clock"><span class="mp-t">t = 0 s</span><span class="mp-phase"></span><span class="mp-busy"></span></div>
      <p class="mp-narration" data-testid="narration" tabindex="0" aria-live="polite"></p>`;
    const $ = (s) => this.el.querySelector(s);
    this.b = {
      play: $('[data-act="play"]'),
      back: $('[data-act="back"]'),
      step: $('[data-act="step"]'),
      batch: $('[data-act="batch"]'),
      boundary: $('[data-act="step-boundary"]'),
      drainEnd: $('[data-act="step-drain-end"]'),
      watch: $('[data-act="watch"]'),
      reset: $('[data-act="reset"]'),
    };
    this.compact = compact;
    this.speed = $('[data-ctl="speed"]');
    this.figacts = $(".mp-figacts");
    this.clock = $(".mp-clock");
    this.t = $(".mp-t");
    this.phase = $(".mp-phase");
    this.busy = $(".mp-busy");
    this.narration = $(".mp-narration");
    for (const [i, label] of mp.Explorer.speed_labels().entries()) this.speed.append(el("option", { value: i, text: label }));
    this.speed.addEventListener("change", () => {
      w.ex.set_speed(Number(this.speed.value));
      w.updateStatus();
    });
  }

  /** Puts an element (a figure's Embed button) at the end of the toolbar. */
  addAction(node) {
    this.figacts.append(node);
  }

  status(s) {
    const w = this.w;
    setText(this.t, `t = ${s.t_s.toFixed(s.mode === "playing" && s.speed_index >= 4 ? 1 : 4)} s`);
    setText(
      this.phase,
      s.phase === "warm-up" ? ` · warm-up: lookups only; the scan starts at ${s.scan_start_s} s` : s.phase === "scan" ? ` · scan phase (ends at ${s.end_s} s)` : " · the run is over",
    );
    const limit = s.speed_limited ? ` · running at about ${s.achieved_speed >= 1 ? Math.round(s.achieved_speed) : s.achieved_speed.toPrecision(1)}×, this pool's limit here` : "";
    setText(this.busy, s.busy ? ` · ${s.busy}` : limit);
    // A figure on a phone, and a compact embed, shows the narration's first sentences: the
    // figure then fits one screen, or its iframe, at every moment.
    // The presentation too: it is read from the back of a room.
    const compact = w.viewName === "present" || (w.viewName !== "lab" && (window.innerWidth < 760 || w.embedView));
    // Where → does not step (the presentation's next beat, an embed's host page), the
    // narration's "(→)" for a step would mislead.
    const narration = compact ? s.narration_short : s.narration;
    setText(this.narration, w.arrowsStep() ? narration : narration.replaceAll(" (→)", ""));
    // Announced when it stops: while playing the narration changes every frame.
    const live = s.mode === "paused" ? "polite" : "off";
    if (this.narration.getAttribute("aria-live") !== live) this.narration.setAttribute("aria-live", live);
    const playing = s.mode === "playing";
    const busy = s.mode === "seeking" || s.mode === "watching";
    setText(this.b.play.querySelector(".mp-lbl"), playing || busy ? "Pause" : "Play");
    setText(this.b.play.querySelector(".mp-ico"), playing || busy ? "❚❚" : "▶");
    this.b.play.disabled = s.ended && !busy;
    this.b.step.disabled = s.ended;
    this.b.back.disabled = !s.can_back;
    if (this.b.batch) this.b.batch.disabled = s.ended;
    this.b.boundary.disabled = s.ended;
    this.b.drainEnd.disabled = s.ended;
    this.b.watch.disabled = s.ended;
    // A figure's toolbar has no room for Reset until the run is over, when it is the one way on
    // (the narration says so): shown then, and Play, which cannot run, hidden.
    if (this.compact) {
      this.b.reset.hidden = !s.ended;
      this.b.play.hidden = s.ended;
    }
    if (Number(this.speed.value) !== s.speed_index) this.speed.value = s.speed_index;
  }
}

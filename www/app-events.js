// What the user does: buttons, keys, the copy-link action, visibility (pausing off screen)
// and the guided tour.
import * as mp from "../pkg/midpoint.js";

/** Methods of MidpointApp (mixed into its prototype by app.js). */
export class EventMethods {
  // ---- events ----------------------------------------------------------------------------

  act(name) {
    const ex = this.ex;
    if (this.dead) return;
    this.wake();
    switch (name) {
      case "play": {
        const m = this.status?.mode;
        if (m === "paused") ex.play();
        else ex.pause();
        break;
      }
      case "step":
        ex.step();
        break;
      case "back":
        ex.step_back();
        break;
      case "batch":
        ex.next_batch();
        break;
      case "step-boundary":
        ex.step_boundary();
        break;
      case "step-drain-end":
        ex.step_drain_end();
        break;
      case "fullscreen":
        this.toggleFullscreen();
        return;
      case "watch":
        ex.watch();
        break;
      case "reset":
        ex.reset();
        break;
      case "faster":
        ex.change_speed(1);
        break;
      case "slower":
        ex.change_speed(-1);
        break;
      case "dismiss":
        this.el.notes.hidden = true;
        this.el.notesList.textContent = "";
        return;
      case "sweep":
        this.startSweep();
        return;
      case "policies":
        this.startPolicies();
        return;
      case "copy":
        this.copyLink();
        return;
      case "cancel":
        this.stopSweep();
        return;
      case "tour":
        this.tourGo(0, true);
        return;
      case "tour-next":
        if (this.tourIndex !== null && this.tourIndex + 1 < this.tourSteps.length) this.tourGo(this.tourIndex + 1, true);
        return;
      case "tour-back":
        if (this.tourIndex) this.tourGo(this.tourIndex - 1, true);
        return;
      case "tour-end":
        this.tourEnd();
        return;
      case "embed":
        this.openEmbed();
        return;
      case "embed-close":
        this.el.dialog.close();
        return;
      case "copy-iframe":
        this.copyText(this.el.snipIframe.value, ".mp-copied-iframe");
        return;
      case "copy-element":
        this.copyText(this.el.snipEl.value, ".mp-copied-element");
        return;
      case "csv-run":
        if (this.runCsv) this.download(`${this.fileStem()}-run.csv`, new Blob([this.runCsv], { type: "text/csv" }));
        return;
      case "csv-sweep":
        this.download(`${this.fileStem()}-sweep.csv`, new Blob([this.sweepView.to_csv(this.params)], { type: "text/csv" }));
        return;
      case "png-run":
        this.downloadCanvas(this.el.residency, `${this.fileStem()}-residency.png`);
        return;
      case "png-sweep":
        this.downloadCanvas(this.el.sweep, `${this.fileStem()}-sweep.png`);
        return;
      default:
        return;
    }
    this.updateStatus();
  }

  bindEvents() {
    this.root.addEventListener("click", (e) => {
      const b = e.target.closest("button[data-act]");
      if (b && this.root.contains(b)) this.act(b.dataset.act);
    });
    this.el.speed.addEventListener("change", () => {
      this.ex.set_speed(Number(this.el.speed.value));
      this.updateStatus();
    });
    this.el.preset.addEventListener("change", () => {
      const name = this.el.preset.value;
      const p = this.presets.find((x) => x.name === name);
      if (!p) return;
      this.presetName = p.name;
      this.presetKey = null;
      this.params = p.params;
      this.applyParams(false);
      this.renderControls(true);
    });
    // Whatever the reader does in the widget brings an idle loop's frames back at once.
    for (const type of ["pointerdown", "pointermove", "keydown", "input", "change", "click", "wheel", "focusin"]) {
      this.root.addEventListener(type, () => this.wake(), { capture: true, passive: true });
    }
    // Keyboard shortcuts: only while focus is inside this widget (not in a slider or a
    // select), so that Space and the arrows still scroll the page around it.
    this.root.addEventListener("keydown", (e) => this.onKey(e));
    // Tooltip over the grid.
    this.el.pool.addEventListener("pointermove", (e) => {
      const r = this.el.pool.getBoundingClientRect();
      const x = (e.clientX - r.left) * this.dpr;
      const y = (e.clientY - r.top) * this.dpr;
      const text = this.ex.describe_cell(x, y);
      const tip = this.el.tip;
      if (!text) {
        tip.hidden = true;
        return;
      }
      tip.textContent = text;
      tip.hidden = false;
      const sr = this.el.stage.getBoundingClientRect();
      const left = Math.min(e.clientX - sr.left + 12, sr.width - tip.offsetWidth - 4);
      tip.style.left = `${Math.max(0, left)}px`;
      tip.style.top = `${e.clientY - sr.top + 14}px`;
    });
    this.el.pool.addEventListener("pointerleave", () => (this.el.tip.hidden = true));
    // Theme, motion, size, visibility.
    this.darkQuery.addEventListener("change", () => {
      this.wake();
      this.ex.set_dark(this.darkQuery.matches);
      // The close-up's colours are the theme's CSS properties: read them again.
      this.stripColours();
      this.dirtyResidency = true;
      this.drawSweep();
      this.write?.drawAll();
    });
    this.motionQuery.addEventListener("change", () => {
      this.wake();
      this.ex.set_reduced_motion(this.motionQuery.matches);
    });
    let lastW = this.el.stage.clientWidth;
    new ResizeObserver(() => {
      const w = this.el.stage.clientWidth;
      if (w !== lastW) {
        lastW = w;
        this.layout();
      }
    }).observe(this.el.stage);
    new IntersectionObserver((entries) => {
      for (const en of entries) this.setVisible(en.isIntersecting || document.fullscreenElement != null);
    }).observe(this.root);
    for (const d of [this.el.runTable, this.el.sweepTable]) d.addEventListener("toggle", () => d.open && this.fillTables());
    this.el.dialog.addEventListener("close", () => this.el.embedBtn.focus());
    window.addEventListener("midpoint-panic", (e) => this.fatal(String(e.detail)));
  }

  /** The presentation's keys, anywhere on the page: Space, →, PageDown the next beat; ←,
   *  PageUp the previous one; F full screen. The step buttons keep working with the mouse. */
  bindPresent() {
    document.addEventListener("keydown", (e) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
      const tag = e.target?.tagName;
      if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
      if (this.el.dialog.open) return;
      let act = null;
      if ([" ", "Spacebar", "ArrowRight", "PageDown"].includes(e.key) && !(tag === "BUTTON" && e.key === " ")) act = "tour-next";
      else if (["ArrowLeft", "PageUp"].includes(e.key)) act = "tour-back";
      else if (e.key === "f" || e.key === "F") act = "fullscreen";
      if (!act) return;
      e.preventDefault();
      e.stopPropagation();
      this.act(act);
    }, true);
  }

  /** Enters or leaves full screen (the Fullscreen API) with this widget. */
  toggleFullscreen() {
    if (document.fullscreenElement) document.exitFullscreen?.();
    else this.root.requestFullscreen?.().catch(() => {});
  }

  onKey(e) {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    const t = e.target;
    const tag = t?.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    const onButton = tag === "BUTTON";
    let act = null;
    switch (e.key) {
      case " ":
      case "Spacebar":
        if (!onButton) act = "play";
        break;
      case "ArrowRight":
        act = e.shiftKey ? "batch" : "step";
        break;
      case "ArrowLeft":
        act = "back";
        break;
      case "n":
      case "N":
        act = "batch";
        break;
      case "w":
      case "W":
        act = "watch";
        break;
      case "b":
      case "B":
        act = "step-boundary";
        break;
      case "e":
      case "E":
        act = "step-drain-end";
        break;
      case "f":
      case "F":
        act = "fullscreen";
        break;
      case "+":
      case "=":
        act = "faster";
        break;
      case "-":
      case "_":
        act = "slower";
        break;
      case "Home":
        act = "reset";
        break;
    }
    if (act) {
      e.preventDefault();
      e.stopPropagation();
      this.act(act);
    }
  }

  async copyLink() {
    this.writeUrl();
    let url = location.href;
    if (!this.syncUrl) {
      const u = new URL(location.href);
      u.search = mp.params_query(this.params);
      url = u.href;
    }
    const out = this.root.querySelector(".mp-copied");
    try {
      await navigator.clipboard.writeText(url);
      out.textContent = this.status?.mode === "paused" && this.status.events > 0 ? "Copied: the link opens at this moment." : "Copied.";
    } catch {
      out.textContent = url;
    }
  }

  // ---- visibility ------------------------------------------------------------------------

  /** On screen or not: off screen, playback pauses and nothing is drawn or computed. */
  setVisible(v) {
    if (v === this.visible) return;
    this.visible = v;
    if (this.dead || !this.ex) return;
    if (!v) {
      if (this.status?.mode === "playing") {
        this.ex.pause();
        this.offscreenPaused = true;
      }
      return;
    }
    if (this.offscreenPaused) {
      this.offscreenPaused = false;
      this.ex.play();
    }
    if (this.pendingRun) this.startRun();
    this.dirtyResidency = true;
    if (!this.looping) requestAnimationFrame(this.loop);
    else this.wake();
  }

  // ---- the guided tour -------------------------------------------------------------------

  /** Sets the simulation up for tour step `i` (0-based) and shows its text. */
  tourGo(i, focus) {
    const step = this.tourSteps[i];
    if (!step || this.dead) return;
    this.tourIndex = i;
    const p = this.presets.find((x) => x.name === step.preset);
    this.presetName = step.preset;
    this.presetKey = null;
    this.params = p ? p.params : mp.parse_query(`preset=${step.preset}`).params;
    this.applyParams(false);
    this.renderControls(true);
    this.ex.pause();
    if (step.action === "time") this.ex.seek_time(step.t_s);
    else if (step.action === "batch") this.ex.next_batch();
    else if (step.action === "watch") this.ex.watch();
    const e = this.el;
    e.tour.hidden = false;
    e.tourBtn.hidden = true;
    e.tourCount.textContent = `The story, step ${i + 1} of ${this.tourSteps.length}`;
    e.tourH.textContent = step.title;
    e.tourText.textContent = step.text;
    e.tourLook.textContent = `Look: ${step.look}`;
    e.tourBack.disabled = i === 0;
    e.tourNext.disabled = i + 1 === this.tourSteps.length;
    this.root.dataset.tour = String(i + 1);
    this.updateStatus();
    this.writeUrl();
    if (focus) e.tourH.focus();
  }

  tourEnd() {
    this.tourIndex = null;
    delete this.root.dataset.tour;
    this.el.tour.hidden = true;
    this.el.tourBtn.hidden = false;
    this.el.tourBtn.focus();
    this.writeUrl();
  }
}

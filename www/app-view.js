// Layout and drawing: canvas sizes, the animation frame loop, the grid and plots, and the
// status (counters, narration, mode) read from the Explorer once per frame.
import { fmt, pct } from "./util.js";

// After this many frames in a row with nothing to do, the loop polls every IDLE_POLL_MS (a
// test sets `app.idleAfter` lower, to be idle whenever a message or an input arrives).
const IDLE_FRAMES = 30;
const IDLE_POLL_MS = 250;

/** Methods of MidpointApp (mixed into its prototype by app.js). */
export class ViewMethods {
  // ---- layout and drawing ----------------------------------------------------------------

  layout() {
    this.wake();
    this.layoutExplorer();
    // The plots lay out at their container's width (text at 12 CSS px), and only below 300
    // CSS px scale down (text still at least 11 px on a 280 px screen).
    const dpr = this.dpr;
    const inner = (e) => {
      const cs = getComputedStyle(e);
      return Math.floor(e.clientWidth - (parseFloat(cs.paddingLeft) || 0) - (parseFloat(cs.paddingRight) || 0));
    };
    const w = Math.max(inner(this.el.residency.parentElement), inner(this.el.sweep.parentElement)) || 500;
    const logical = Math.max(w, 300);
    this.plotScale = (dpr * w) / logical;
    for (const cv of [this.el.residency, this.el.sweep]) {
      let hh = Math.round(Math.min(360, Math.max(w < 500 ? 270 : 230, logical * 0.56)) * (w / logical));
      // The lab's dashboard: the residency plot within the first screen beside the sliders.
      if (this.viewName === "lab" && window.innerWidth >= 1000) hh = Math.min(hh, Math.max(240, Math.round(window.innerHeight * 0.4)));
      cv.width = Math.round(w * dpr);
      cv.height = Math.round(hh * dpr);
      cv.style.width = `${w}px`;
      cv.style.height = `${hh}px`;
    }
    this.dirtyResidency = true;
    this.drawSweep();
    this.layoutPolicies();
    this.write?.drawAll();
  }

  /** Lays out what belongs to the explorer: the pool grid and the close-up. */
  layoutExplorer() {
    const dpr = Math.min(window.devicePixelRatio || 1, 3);
    const css = this.el.stage.clientWidth || 800;
    const figure = this.viewName && this.viewName !== "lab";
    const narrow = window.innerWidth < 760;
    const maxCss = figure && this.embedView ? (narrow ? 150 : 210) : figure ? Math.max(200, Math.min(window.innerHeight * (narrow ? 0.34 : 0.5), 420)) : Math.max(220, Math.min(window.innerHeight * (narrow ? 0.45 : 0.62), 560));
    const h = this.ex.resize(Math.round(css * dpr), Math.round(maxCss * dpr), dpr);
    const c = this.el.pool;
    c.width = Math.round(css * dpr);
    c.height = h;
    c.style.width = `${css}px`;
    c.style.height = `${h / dpr}px`;
    this.dpr = dpr;
    this.layoutStrip();
    this.dirtyResidency = true;
  }

  drawResidency() {
    if (this.el.residency.offsetParent === null) return;
    try {
      this.ex.draw_residency(this.el.residency, this.plotScale, this.darkQuery.matches);
      const [partial, samples] = this.ex.residency_info();
      // The band is drawn over two or more runs, once the first is there: how many it spans.
      const s = this.ex.run_set_summary();
      const band = partial === 1 || s.done < 2 ? 0 : s.done;
      this.el.residency.dataset.bandRuns = band;
      this.root.dispatchEvent(new CustomEvent("midpoint-residency", { bubbles: true, composed: true, detail: { partial: partial === 1, samples, runs: s.runs, band } }));
    } catch (e) {
      this.fatal(`drawing the residency plot failed: ${e?.message ?? e}`);
    }
  }

  drawSweep() {
    if (!this.sweepView) return;
    this.el.csvSweep.disabled = this.sweepView.done() === 0;
    if (this.el.sweepTable.open) this.fillTables();
    try {
      this.sweepView.draw(this.el.sweep, this.plotScale, this.params.lru_scan_depth, this.params.old_blocks_time, this.darkQuery.matches, this.sweepHighlight ?? -1);
      const same = this.sweepView.coincidence();
      if (this.el.sweepSame.textContent !== same) this.el.sweepSame.textContent = same;
    } catch (e) {
      this.fatal(`drawing the sweep failed: ${e?.message ?? e}`);
    }
  }

  tick(t) {
    if (this.dead) return;
    if (!this.visible) {
      // Off screen: no frames at all until the IntersectionObserver sees it again.
      this.looping = false;
      return;
    }
    this.looping = true;
    const polled = this.polling;
    this.polling = false;
    let quiet = false;
    try {
      // The scout (snapshots for scrubbing) waits while workers compute the runs the reader
      // is waiting for: on two cores it would take a third of one from them.
      const held = this.workers?.busy() ?? false;
      if (held !== this.scoutHeld) {
        this.scoutHeld = held;
        this.ex.hold_scout(held);
      }
      const flags = this.ex.frame(t);
      // A hidden grid (the close-up's view) is drawn only while paused: that clears the
      // explorer's dirty flag, which would otherwise keep a paused page from ever resting.
      if (flags & 1 && (this.el.pool.offsetParent !== null || this.status?.mode === "paused")) {
        this.ex.draw(this.ctx);
        this.drawGridSelection();
      }
      const painted = this.drawStrip(t);
      if (flags & 2 || !this.status) this.updateStatus();
      // The moment drawn, for tests and the curious: simulated seconds, event, free list.
      const ds = this.root.dataset;
      const st = this.status;
      const tt = st.t_s.toFixed(4);
      if (ds.t !== tt) ds.t = tt;
      if (ds.event !== String(st.events)) ds.event = String(st.events);
      if (ds.freeLen !== String(st.free)) ds.freeLen = String(st.free);
      // How the last scrub got there: "snapshot" (restored, then a short replay) or "forward".
      if (st.seek && ds.seek !== st.seek) ds.seek = st.seek;
      const now = performance.now();
      const cursor = this.status.t_s;
      const moved = Math.abs(cursor - this.lastResidency.t) > (this.status.end_s || 1) / 400;
      const plotted = this.dirtyResidency || (moved && now - this.lastResidency.at > 120);
      if (plotted) {
        this.drawResidency();
        this.lastResidency = { t: cursor, at: now };
        this.dirtyResidency = false;
      }
      // Nothing moved or was drawn, and nothing will until the reader or a worker acts: paused
      // (no refill being watched, no opening moment pending), the scout done or waiting for the
      // workers.
      quiet = flags === 0 && !painted && !plotted && st.mode === "paused" && !this.pendingAt && (held || this.ex.scouted());
    } catch (e) {
      this.fatal(e?.message ?? String(e));
    }
    if (this.dead) return;
    // A poll that found work means a change that did not call wake(): counted, for the tests.
    if (polled && !quiet) this.idleMisses++;
    this.quietFrames = quiet ? this.quietFrames + 1 : 0;
    if (this.quietFrames < (this.idleAfter ?? IDLE_FRAMES)) {
      requestAnimationFrame(this.loop);
      return;
    }
    // Idle: the loop slows from every display frame to a poll (a paused page took 5 % of a
    // core for frames that drew nothing). Input, a worker's message, a resize, a theme change
    // or coming into view call wake(), which brings the frames back at once.
    this.idleTimer = setTimeout(() => {
      this.idleTimer = 0;
      this.polling = true;
      requestAnimationFrame(this.loop);
    }, IDLE_POLL_MS);
  }

  /** Back to a frame every display refresh if the loop had slowed to its idle poll. */
  wake() {
    this.quietFrames = 0;
    // A poll's frame already asked for does the woken work: not a miss.
    this.polling = false;
    if (!this.idleTimer) return;
    clearTimeout(this.idleTimer);
    this.idleTimer = 0;
    requestAnimationFrame(this.loop);
  }

  /** Opens a figure at its moment: the scan's start, just after its first LRU batch, or
   *  watching it. */
  startAt(at) {
    this.ex.seek_time(this.params.warmup_s + 0.001);
    if (at === "scan") return;
    this.pendingAt = at;
    this.pendingAtStage = "time";
    this.pendingAtFresh = false;
  }

  updateStatus() {
    const prev = this.status;
    const s = this.ex.status();
    this.status = s;
    const e = this.el;
    const set = (node, text) => {
      if (node.textContent !== text) node.textContent = text;
    };
    set(e.t, `t = ${s.t_s.toFixed(s.mode === "playing" && s.speed_index >= 4 ? 1 : 4)} s`);
    set(
      e.phase,
      s.phase === "warm-up"
        ? ` · warm-up: lookups only; the scan starts at ${s.scan_start_s} s`
        : s.phase === "scan"
          ? ` · scan phase (ends at ${s.end_s} s)`
          : " · the run is over",
    );
    const limit = s.speed_limited ? ` · running at about ${s.achieved_speed >= 1 ? Math.round(s.achieved_speed) : s.achieved_speed.toPrecision(1)}×, this pool's limit here` : "";
    set(e.busy, s.busy ? ` · ${s.busy}` : limit);
    // A figure on a phone, and a compact embed, shows the narration's first sentences (the whole
    // one is announced to screen readers and shown in the lab): the figure then fits one screen,
    // or its iframe, at every moment.
    const compact = this.viewName !== "lab" && this.viewName !== "present" && (window.innerWidth < 760 || this.embedView);
    set(e.narration, compact ? s.narration_short : s.narration);
    if (s.seq !== this.lastSeq) {
      this.lastSeq = s.seq;
      set(e.live, s.narration);
    }
    const c = e.counters;
    set(c.hot, `${fmt.format(s.hot_resident)} / ${fmt.format(s.hot_pages)} · ${pct(s.hot_resident / Math.max(1, s.hot_pages))}`);
    set(c.free, fmt.format(s.free));
    set(c.lru, `${fmt.format(s.lru)} / ${fmt.format(s.old)}`);
    set(c.scany, fmt.format(s.scan_young));
    set(c.my, fmt.format(s.made_young));
    set(c.nmy, fmt.format(s.not_made_young));
    set(c.slid, `${fmt.format(s.slid_young)} · ${fmt.format(s.marked_young)} ringed`);
    set(c.refills, fmt.format(s.refills));
    set(c.ymh, fmt.format(s.young_moved_to_head));
    const playing = s.mode === "playing";
    const busy = s.mode === "seeking" || s.mode === "watching";
    set(e.play.querySelector(".mp-lbl"), playing || busy ? "Pause" : "Play");
    set(e.play.querySelector(".mp-ico"), playing || busy ? "❚❚" : "▶");
    e.play.disabled = s.ended && !busy;
    e.step.disabled = s.ended;
    e.back.disabled = !s.can_back;
    e.batch.disabled = s.ended;
    e.stepBoundary.disabled = s.ended;
    e.stepDrainEnd.disabled = s.ended;
    e.watch.disabled = s.ended;
    if (Number(e.speed.value) !== s.speed_index) e.speed.value = s.speed_index;
    this.root.dataset.mode = s.mode;
    if (s.mode !== "playing" && this.notPlaying?.length) for (const r of this.notPlaying.splice(0)) r();
    this.updateCode();
    // A figure's start moment, in two steps: the scan's start, then its first LRU batch.
    if (this.pendingAt && s.mode === "paused" && (!prev || prev.mode !== "paused" || this.pendingAtFresh)) {
      this.pendingAtFresh = false;
      const at = this.pendingAt;
      if (this.pendingAtStage === "time") {
        this.pendingAtStage = "batch";
        this.ex.next_batch();
      } else {
        this.pendingAt = null;
        if (at === "watch") this.ex.watch();
        // at=batch opens just after the batch: the free list full, the boundary moved.
        else if (at === "batch" && s.at_batch) this.ex.step();
      }
    }
    if (prev && prev.mode !== s.mode && prev.mode === "seeking" && s.mode === "paused" && this.resumeAfterSeek) {
      this.resumeAfterSeek = false;
      this.ex.play();
    }
    // The URL records the moment while paused (debounced: holding → steps quickly).
    if (prev && (prev.mode !== s.mode || (s.mode === "paused" && prev.events !== s.events))) {
      clearTimeout(this.urlTimer);
      this.urlTimer = setTimeout(() => this.writeUrl(), 200);
    }
  }
}

// The widget's parameters and URL: presets, the command line shown, the page's address, the
// embed snippets, notes about clamped values, and a new Explorer when parameters change.
import * as mp from "../pkg/midpoint.js";
import { el } from "./util.js";

/** Methods of MidpointApp (mixed into its prototype by app.js). */
export class UrlMethods {
  // ---- parameters, URL -------------------------------------------------------------------

  /** The preset these parameters are, if any (the one named in the URL first), whatever the
   *  RNG seed: any seed set is a run of the preset's cell (its figure and marks still apply). */
  samePreset() {
    const q = mp.params_query(this.params);
    if (this.presetKey === q) return this.presetHit;
    const same = (x) => mp.params_query({ ...this.params, seed: x.params.seed }) === mp.params_query(x.params);
    const named = this.presets.find((x) => x.name === this.presetName);
    const hit =
      (named && same(named) ? named : null) ??
      this.presets.find((x) => x.main && same(x)) ??
      this.presets.find((x) => same(x)) ??
      null;
    this.presetKey = q;
    this.presetHit = hit;
    return hit;
  }

  updatePresetUi() {
    const p = this.samePreset();
    this.el.preset.value = p ? p.name : "";
    if (p) {
      this.el.presetDesc.textContent = `${p.description}.${p.seed ? ` Seed 000 measured: ${p.seed} of the hot set kept.` : ""}`;
    } else {
      this.el.presetDesc.textContent =
        "Custom settings: no seed-000 figure to compare with. Pick a preset to reproduce one of the seed's cells.";
    }
    this.el.legendRest.hidden = this.params.hot_pages >= this.params.hot_table_pages;
    this.el.legendFiller.hidden = this.params.start !== "cold";
    this.showEnsembleControls();
  }

  updateCli() {
    const def = mp.parse_query("").params;
    const defPairs = new URLSearchParams(mp.params_query(def));
    const pairs = new URLSearchParams(mp.params_query(this.params));
    const p = this.samePreset();
    let base = def;
    let cmd = "midpoint run";
    if (p) {
      cmd += ` --preset ${p.name}`;
      base = p.params;
    }
    const basePairs = new URLSearchParams(mp.params_query(base));
    for (const [k, v] of pairs) {
      if (basePairs.get(k) !== v) cmd += ` --${k.replaceAll("_", "-")} ${v}`;
    }
    void defPairs;
    if (this.runs > 1) cmd += ` --runs ${this.runs}`;
    this.el.cli.textContent = cmd;
  }

  /** View options of the current state: the paused moment and a custom sweep. */
  viewQuery() {
    const q = new URLSearchParams();
    if (this.viewName && this.viewName !== "lab") q.set("view", this.viewName);
    if (this.view.at && !(this.status && this.status.mode === "paused" && this.status.events > 0 && !this.pendingAt)) q.set("at", this.view.at);
    if (this.tourIndex === null && this.status && this.status.mode === "paused" && this.status.events > 0) q.set("ev", this.status.events);
    if (this.runs !== 5) q.set("runs", this.runs);
    if (this.view.sweep_custom) {
      q.set("sweep_depths", this.view.sweep_depths.join(","));
      q.set("sweep_times", this.view.sweep_times.join(","));
    }
    return q.toString();
  }

  /** The embed snippets and the full page's URL for the current state (null without a base). */
  snippets(view = null) {
    if (!this.base) return null;
    const q = new URLSearchParams(this.viewQuery());
    if (view) q.set("view", view);
    return mp.embed_snippets(
      this.params,
      this.samePreset()?.name ?? "",
      q.toString(),
      new URL("index.html", this.base).href,
      new URL("embed.js", this.base).href,
    );
  }

  writeUrl() {
    if (this.embedView && this.base) this.el.full.href = this.snippets().page;
    if (!this.syncUrl) return;
    const p = this.samePreset();
    const q = new URLSearchParams(p ? [["preset", p.name]] : []);
    for (const [k, v] of new URLSearchParams(mp.params_query(this.params))) q.append(k, v);
    if (this.view.embed) q.set("embed", "1");
    if (this.tourIndex !== null) q.set("tour", this.tourIndex + 1);
    for (const [k, v] of new URLSearchParams(this.viewQuery())) q.set(k, v);
    const url = `${location.pathname}?${q}${location.hash}`;
    if (url !== `${location.pathname}${location.search}${location.hash}`) {
      history.replaceState(history.state, "", url);
    }
  }

  setParam(key, value) {
    const r = mp.set_param(this.params, key, value);
    this.params = r.params;
    if (r.messages.length) this.showNotes(r.messages);
    this.applyParams(true);
  }

  /**
   * Runs the setting of a URL query (a figure elsewhere on the page, the phase heat map, asks
   * the lab to): its parameters, a fresh run from the start, playing, the address updated.
   */
  applyQuery(query) {
    const parsed = mp.parse_query(query);
    this.params = parsed.params;
    this.presetName = parsed.preset ?? null;
    this.showNotes(parsed.messages);
    this.applyParams(false);
    if (!this.motionQuery.matches) this.ex.play();
  }

  applyParams(keepTime) {
    const t = keepTime && this.ex ? this.ex.t_s() : 0;
    const playing = this.status?.mode === "playing";
    this.newExplorer(t);
    this.resumeAfterSeek = playing && t > 0;
    if (playing && t <= 0) this.ex.play();
    this.renderControls(false);
    this.updatePresetUi();
    this.updateCli();
    this.resetSweep();
    this.resetPolicies();
    this.writeUrl();
    this.scheduleRun(0);
  }

  newExplorer(t) {
    try {
      const old = this.ex;
      this.ex = new mp.Explorer(this.params);
      if (old) {
        this.ex.keep_curve_of(old);
        old.free();
      }
    } catch (e) {
      this.fatal(`could not start the simulation: ${e?.message ?? e}`);
      return;
    }
    this.ex.set_view_budget(this.viewName);
    // A view with a residency plot to scrub keeps snapshots over the whole run.
    this.ex.set_scouting(this.viewName === "lab" || this.viewName === "residency");
    // A new explorer's scout is not held; the next frame holds it if workers are busy.
    this.scoutHeld = undefined;
    this.ex.set_dark(this.darkQuery.matches);
    this.ex.set_reduced_motion(this.motionQuery.matches);
    this.run = null;
    this.showRunRates();
    this.runCsv = null;
    if (this.el.csvRun) this.el.csvRun.disabled = true;
    // The first explorer lays the whole widget out; a later one only its own part.
    if (this.plotScale === undefined) this.layout();
    else this.layoutExplorer();
    if (t > 0) this.ex.seek_time(t);
    this.lastSeq = -1;
    this.dirtyResidency = true;
  }

  showNotes(messages) {
    if (!messages?.length) return;
    for (const m of messages) this.el.notesList.append(el("li", { text: m }));
    this.el.notes.hidden = false;
  }

  fatal(msg) {
    if (this.dead) return;
    this.dead = true;
    this.el.alert.hidden = false;
    this.el.alert.textContent = `Something went wrong inside the simulator: ${msg}. It has stopped; reload the page to start again.`;
    this.root.classList.add("mp-dead");
    this.stopSweep();
    this.runWorker?.terminate();
    this.write?.stop();
  }
}

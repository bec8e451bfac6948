// Embedding and export: the embed dialog, copying, downloads (CSV, PNG), the tables, and the
// debug hook the tests read.
import { el, fmt, pct } from "./util.js";

/** Methods of MidpointApp (mixed into its prototype by app.js). */
export class ExportMethods {
  // ---- embedding and export --------------------------------------------------------------

  openEmbed() {
    // One figure: this widget's own view, or (from the lab) the one picked, the close-up first.
    const sel = this.el.embedView;
    if (!this.embedBound) {
      this.embedBound = true;
      sel.addEventListener("change", () => this.fillEmbed());
    }
    const own = this.viewName === "lab" || this.viewName === "present" ? "strip" : this.viewName;
    if ([...sel.options].some((o) => o.value === own)) sel.value = own;
    this.fillEmbed();
    for (const c of [".mp-copied-iframe", ".mp-copied-element"]) this.root.querySelector(c).textContent = "";
    this.el.dialog.showModal();
  }

  fillEmbed() {
    const s = this.snippets(this.el.embedView.value);
    if (!s) return;
    this.el.snipIframe.value = s.iframe;
    this.el.snipEl.value = s.element;
  }

  async copyText(text, outSel) {
    const out = this.root.querySelector(outSel);
    try {
      await navigator.clipboard.writeText(text);
      out.textContent = "Copied.";
    } catch {
      out.textContent = "Select the text above and copy it (the clipboard is not available here).";
    }
  }

  fileStem() {
    const p = this.samePreset();
    return `midpoint-${p ? p.name : "custom"}`;
  }

  download(name, blob) {
    const url = URL.createObjectURL(blob);
    const a = el("a", { href: url, download: name, hidden: true });
    this.root.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }

  downloadCanvas(canvas, name) {
    canvas.toBlob((b) => b && this.download(name, b), "image/png");
  }

  /** The plots' text alternative: tables of the residency samples and of the sweep points. */
  fillTables() {
    const hot = this.params.hot_pages;
    const runBox = this.el.runTable.querySelector(".mp-tablebox");
    if (this.el.runTable.open || !runBox.firstChild) {
      runBox.textContent = "";
      if (!this.run) runBox.append(el("p", { text: "The full run is still being computed." }));
      else {
        const pts = this.run.points;
        const every = Math.max(1, Math.ceil(pts.length / 60));
        const rows = pts.filter((_, i) => i % every === 0 || i === pts.length - 1);
        const t = el("table", { class: "mp-table" });
        t.append(
          el("caption", { text: `Hot-set residency over the run (${fmt.format(hot)} hot pages), every ${rows.length > 1 ? Math.round((rows[1].t - rows[0].t) * 10) / 10 : 0} s` }),
          el("thead", {}, el("tr", {}, ...["Time (s)", "Hot pages resident", "Share of the hot set", "Scanned-table pages young"].map((h) => el("th", { scope: "col", text: h })))),
        );
        const body = el("tbody");
        for (const q of rows) {
          body.append(el("tr", {}, el("td", { text: q.t.toFixed(1) }), el("td", { text: fmt.format(q.hot) }), el("td", { text: pct(q.hot / Math.max(1, hot)) }), el("td", { text: fmt.format(q.scan_young) })));
        }
        t.append(body);
        runBox.append(t);
      }
    }
    const sweepBox = this.el.sweepTable.querySelector(".mp-tablebox");
    if ((this.el.sweepTable.open || !sweepBox.firstChild) && this.sweepView) {
      sweepBox.textContent = "";
      const kept = this.sweepView.kept();
      const depths = this.view.sweep_depths;
      const times = this.view.sweep_times;
      const t = el("table", { class: "mp-table" });
      t.append(
        el("caption", { text: "Share of the hot set kept, by innodb_lru_scan_depth (rows) and innodb_old_blocks_time (columns); – not computed yet" }),
        el("thead", {}, el("tr", {}, el("th", { scope: "col", text: "lru_scan_depth" }), ...times.map((x) => el("th", { scope: "col", text: `old_blocks_time ${fmt.format(x)} ms` })))),
      );
      const body = el("tbody");
      depths.forEach((d, di) => {
        body.append(el("tr", {}, el("th", { scope: "row", text: fmt.format(d) }), ...times.map((_, ti) => el("td", { text: pct(kept[ti * depths.length + di]) }))));
      });
      t.append(body);
      sweepBox.append(t);
    }
  }

  /** Counts and state for tests and curious readers: `window.__midpoint.apps[0].debug()`. */
  debug() {
    const s = this.ex.status();
    const cells = new Uint8Array(this.wasm.memory.buffer, this.ex.cells_ptr(), this.ex.cells_len());
    let young = 0;
    let old = 0;
    let ringedYoung = 0;
    for (const b of cells) {
      if ((b & 7) === 0) continue;
      if (b & 8) old++;
      else young++;
      if ((b & 0x30) === 0x10) ringedYoung++;
    }
    return { ...s, cells: cells.length, young, oldCells: old, ringedYoung, hasRun: !!this.run, sweepMs: this.lastSweepMs ?? null, ensembleMs: this.ens?.ms || null, runs: this.runs, idle: this.idleTimer !== 0, idleMisses: this.idleMisses };
  }
}

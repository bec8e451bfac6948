// The residency plot: the hot set resident and the scanned table's young pages over the run,
// drawn by Rust (src/web/charts.rs over crates/lab's chart code) from the runs in the explorer,
// with its key, its caption (src/ui/page.rs: whose each figure is), a cursor at the animation's
// time (click or drag to seek), CSV and PNG downloads and the data as a table.
import { PlotFigure } from "./plot-figure.js";
import { download, downloadCanvas } from "./export.js";
import { el, fmt, markFont, pct, sizeCanvas } from "../util.js";
import { PlotKey } from "./keys.js";
import * as mp from "../../pkg/midpoint.js";
import { data } from "./data.js";

export class Residency extends PlotFigure {
  /** `cursor`: the plot shows the simulation's moment and a click or drag moves it there; only
   *  where a close-up or the pool shows that moment too (the lab), since a cursor over a figure
   *  that shows no moment would move nothing the reader can see. */
  constructor(w, { exports = true, table = true, cursor = true } = {}) {
    super();
    this.w = w;
    this.kind = "residency";
    // Whether the plot must be drawn again (new runs, a new explorer, a new size or colours).
    this.dirty = true;
    this.cursor = cursor;
    this.el = el("figure", { class: "mp-plot mp-plot-residency" });
    this.el.innerHTML = `
      <div class="mp-plotbox"><canvas class="mp-residency" data-testid="residency-plot" role="img" aria-label="Plot: hot-set residency and the scanned table's young pages over the run, with a cursor at the current time"></canvas></div>
      <figcaption><p class="mp-runcap" data-testid="run-caption">Computing the full run…</p>
        ${exports ? `<p class="mp-export"><button type="button" class="mp-small" data-act="csv-run" disabled>Download CSV</button> <button type="button" class="mp-small" data-act="png-run">Download PNG</button></p>` : ""}
        ${table ? `<details class="mp-data" data-table="run"><summary>The plot's data as a table</summary><div class="mp-tablebox"></div></details>` : ""}
      </figcaption>`;
    this.canvas = this.el.querySelector(".mp-residency");
    this.box = this.el.querySelector(".mp-plotbox");
    this.cap = this.el.querySelector(".mp-runcap");
    this.figcap = this.el.querySelector("figcaption");
    this.csv = this.el.querySelector('[data-act="csv-run"]');
    this.table = this.el.querySelector('[data-table="run"]');
    this.key = new PlotKey();
    this.box.after(this.key.el);
    this.last = { t: -1, at: 0 };
    this.fillBox = this.box;
    this.table?.addEventListener("toggle", () => this.table.open && this.fillTable());
    if (cursor) this.bindSeek();
    else this.canvas.setAttribute("aria-label", "Plot: hot-set residency and the scanned table's young pages over the run");
  }

  layout() {
    const w = this.w;
    const dpr = w.dpr;
    const cs = getComputedStyle(this.box);
    const width = Math.floor(this.box.clientWidth - (parseFloat(cs.paddingLeft) || 0) - (parseFloat(cs.paddingRight) || 0)) || 500;
    // The plot lays out at its container's width (text at 12 CSS px), and only below 300 CSS px
    // scales down.
    const logical = Math.max(width, 300);
    this.scale = (dpr * width) / logical;
    let hh = Math.round(Math.min(360, Math.max(width < 500 ? 270 : 230, logical * 0.56)) * (width / logical));
    // The lab's dashboard: the residency plot within the first screen beside the sliders.
    if (w.viewName === "lab" && window.innerWidth >= 1000) hh = Math.min(hh, Math.max(240, Math.round(window.innerHeight * 0.4)));
    this.natural = hh;
    if (w.fill) hh = Math.max(120, this.box.clientHeight);
    else if (this.flexH !== null) hh = this.flexH;
    sizeCanvas(this.canvas, width, hh, dpr);
    this.dirty = true;
  }


  frame() {
    const w = this.w;
    const s = w.status;
    if (!s) return false;
    const now = performance.now();
    const cursor = this.cursor ? s.t_s : 0;
    const moved = Math.abs(cursor - this.last.t) > (s.end_s || 1) / 400;
    if (!(this.dirty || (moved && now - this.last.at > 120))) return false;
    this.draw();
    this.last = { t: cursor, at: now };
    this.dirty = false;
    return true;
  }

  draw() {
    const w = this.w;
    if (this.canvas.offsetParent === null) return;
    try {
      w.ex.draw_residency(this.canvas, this.scale, w.darkQuery.matches, this.cursor);
      markFont(this.canvas, mp.last_font_px() / w.dpr);
      this.key.show(w.ex.residency_key(w.darkQuery.matches));
      const [partial, samples] = w.ex.residency_info();
      // The band is drawn over two or more runs, once the first is there: how many it spans.
      const s = w.ex.run_set_summary();
      const band = partial === 1 || s.done < 2 ? 0 : s.done;
      this.canvas.dataset.bandRuns = band;
      w.root.dispatchEvent(new CustomEvent("midpoint-residency", { bubbles: true, composed: true, detail: { partial: partial === 1, samples, runs: s.runs, band } }));
    } catch (e) {
      w.fatal(`drawing the residency plot failed: ${e?.message ?? e}`);
    }
  }

  recolour() {
    this.dirty = true;
  }

  /** The runs drawn changed (runs.js), or the explorer that holds them, or the plot comes back
   *  on screen: drawn again at the next frame. */
  curvesChanged() {
    this.dirty = true;
  }
  explorer() {
    this.dirty = true;
  }
  visible(v) {
    if (v) this.dirty = true;
  }

  paramsChanged() {
    if (this.csv) this.csv.disabled = true;
  }

  /** The runs changed: the caption from the Page's words, the CSV, the table. */
  runs(info) {
    const w = this.w;
    if (info.error) {
      this.cap.textContent = info.error;
      return;
    }
    const first = w.runs.first;
    if (!first) {
      this.cap.textContent = `Computing the full run…${info.frac ? ` ${Math.round(info.frac * 100)} %` : ""}`;
      delete this.cap.dataset.runsDone;
      return;
    }
    if (this.csv) this.csv.disabled = !first.csv;
    const c = w.page.run_caption(w.ex, w.runs.cost());
    if (!c) return;
    const s = w.ex.run_set_summary();
    this.cap.dataset.runs = s.runs;
    this.cap.dataset.runsDone = s.done;
    const kept = el("strong", { text: c.kept });
    this.cap.replaceChildren(kept, c.text, el("span", { class: "mp-rundetail", text: c.detail }), el("span", { class: "mp-runtime", text: c.cost }));
    // Every run in, on a declared cell's settings (ui::cells): the line quotes that cell.
    if (s.done === s.runs) this.markCell(kept);
    if (this.table && (this.table.open || !this.table.querySelector(".mp-tablebox").firstChild)) this.fillTable();
  }

  /** Marks the kept line `strong` as a quote of the cell the settings are (`data-cell`), if
   *  they are one the site declares (www/data/sweep.json's base and runs). */
  async markCell(strong) {
    try {
      const q = mp.declared_cell(await data("sweep"), this.w.page);
      if (q && strong.isConnected) strong.dataset.cell = q.cell;
    } catch {
      // No committed sweep (a page without www/data): nothing to mark.
    }
  }

  act(name) {
    const w = this.w;
    const stem = `midpoint-${w.view.preset ?? "custom"}`;
    if (name === "csv-run" && w.runs.first?.csv) download(w.root, `${stem}-run.csv`, new Blob([w.runs.first.csv], { type: "text/csv" }));
    else if (name === "png-run") downloadCanvas(w.root, this.canvas, `${stem}-residency.png`);
  }

  /** The plot's text alternative: a table of the residency samples. */
  fillTable() {
    const box = this.table.querySelector(".mp-tablebox");
    box.textContent = "";
    const run = this.w.runs.first?.result;
    const hot = this.w.view.hot_pages;
    if (!run) {
      box.append(el("p", { text: "The full run is still being computed." }));
      return;
    }
    const pts = run.points;
    const every = Math.max(1, Math.ceil(pts.length / 60));
    const rows = pts.filter((_, i) => i % every === 0 || i === pts.length - 1);
    const t = el("table", { class: "mp-table" });
    t.append(
      el("caption", { text: `Hot-set residency over the run (${fmt.format(hot)} hot pages), every ${rows.length > 1 ? Math.round((rows[1].t - rows[0].t) * 10) / 10 : 0} s` }),
      el("thead", {}, el("tr", {}, ...["Time (s)", "Hot pages resident", "Share of the hot set", "Scanned-table pages young"].map((h) => el("th", { scope: "col", text: h })))),
    );
    const body = el("tbody");
    for (const q of rows) body.append(el("tr", {}, el("td", { text: q.t.toFixed(1) }), el("td", { text: fmt.format(q.hot) }), el("td", { text: pct(q.hot / Math.max(1, hot)) }), el("td", { text: fmt.format(q.scan_young) })));
    t.append(body);
    box.append(t);
  }

  /** Click or drag on the plot: the animation seeks to that time. */
  bindSeek() {
    const c = this.canvas;
    let dragging = false;
    let last = 0;
    const seek = (e) => {
      const w = this.w;
      const r = c.getBoundingClientRect();
      const t = w.ex.residency_time_at(e.clientX - r.left, r.width, c.width, this.scale || 1);
      const now = performance.now();
      if (now - last < 120 && e.type === "pointermove") return;
      last = now;
      w.ex.pause();
      w.ex.seek_time(Math.max(t, 0.001));
      // The time the pointer asked for, published for tests (docs/page.md).
      c.dataset.seekTo = String(Math.max(t, 0.001));
      this.dirty = true;
    };
    c.addEventListener("pointerdown", (e) => {
      dragging = true;
      c.setPointerCapture?.(e.pointerId);
      seek(e);
    });
    c.addEventListener("pointermove", (e) => dragging && seek(e));
    const end = () => (dragging = false);
    c.addEventListener("pointerup", end);
    c.addEventListener("pointercancel", end);
    c.style.cursor = "ew-resize";
    c.title = "Click or drag to move the animation to that time";
  }
}

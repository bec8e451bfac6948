// The policies figure: every replacement policy of `midpoint policies` (crates/policies' policy/
// compare) on the lab's current parameters, computed on request in a Web Worker, one policy at a
// time with progress, drawn by plotters (chart::draw_policies) with a table as its text
// alternative and one sentence per policy on why it keeps or loses the hot set under a looping
// scan.
import * as mp from "../../pkg/midpoint.js";
import { el, fmt, markFont, pct, sizeCanvas } from "../util.js";
import { data } from "./data.js";

const LABEL = {
  innodb: "InnoDB (MySQL 8.4, this simulation)",
  lru: "LRU",
  fifo: "FIFO",
  clock: "CLOCK",
  "2q": "2Q",
  arc: "ARC",
  sieve: "SIEVE",
  s3fifo: "S3-FIFO",
  lirs: "LIRS",
  belady: "Belady's OPT (open loop)",
};

export class Policies {
  constructor(w) {
    this.w = w;
    const id = w.id;
    this.el = el("section", { class: "mp-card mp-policies", "data-testid": "policy-figure", "aria-labelledby": `${id}-polh` });
    this.el.innerHTML = `
        <div class="mp-head"><h2 class="mp-h" id="${id}-polh">Other replacement policies on this scenario</h2><span class="mp-headacts mp-polacts"></span></div>
        <p class="mp-polintro">The same clients and the same looping scan against LRU, FIFO, CLOCK, 2Q, ARC, SIEVE, S3-FIFO, LIRS and
          Belady's optimum, beside InnoDB (the outlined bar: ${w.viewName === "policies" ? "InnoDB's own run of these settings" : "the run animated above"}). The others run closed loop (a miss
          costs what it costs in the InnoDB run); Belady needs the future, so it replays the InnoDB run's recorded requests.
          Figures over the scan phase, as <code>midpoint policies</code> prints them.</p>
        <div class="mp-sweepbar">
          <button type="button" data-act="policies">Compare with other policies</button>
          <progress class="mp-polprogress" max="1" value="0" hidden></progress>
          <span class="mp-polmsg" role="status"></span>
        </div>
        <figure class="mp-plot">
          <canvas class="mp-polcanvas" data-testid="policy-canvas" role="img" aria-label="Bar chart: for each replacement policy, the share of the hot set kept and the miss ratio over the scan phase; InnoDB's bars are outlined" hidden></canvas>
          <figcaption>
            <p class="mp-polnote" hidden>Click InnoDB's bars (or its row below) to go to the pool it summarises.</p>
            <details class="mp-data" data-table="policies"${w.viewName === "policies" ? "" : " open"}><summary>The figure's data as a table</summary><div class="mp-tablebox"><p>Not computed yet: press <em>Compare with other policies</em> (about ten full runs, in a background worker).</p></div></details>
          </figcaption>
        </figure>`;
    const $ = (s) => this.el.querySelector(s);
    this.pol = {
      btn: $('[data-act="policies"]'),
      progress: $(".mp-polprogress"),
      msg: $(".mp-polmsg"),
      canvas: $(".mp-polcanvas"),
      note: $(".mp-polnote"),
      table: $('[data-table="policies"] .mp-tablebox'),
      rows: null,
      key: null,
      worker: null,
      token: 0,
    };
    this.pol.canvas.addEventListener("click", (e) => {
      const rows = this.pol.rows;
      if (!rows) return;
      // chart::draw_policies lays out at max(width, 640) logical pixels: 8 margin + 44 y labels
      // on the left, 8 margin on the right; one group per policy in between.
      const r = this.pol.canvas.getBoundingClientRect();
      const k = r.width / Math.max(r.width, 640);
      const x0 = 52 * k;
      const x1 = r.width - 8 * k;
      const i = Math.floor(((e.clientX - r.left - x0) / (x1 - x0)) * rows.length);
      if (rows[i]?.policy === "innodb") this.focusPool();
    });
  }

  /** Puts an element (the figure's Embed button, its link to the full page) beside its title. */
  addAction(node) {
    this.el.querySelector(".mp-polacts").append(node);
  }

  act(name) {
    if (name === "policies") this.start();
  }

  /** Scrolls to the lab's pool view and focuses it: the InnoDB bar is that run. */
  focusPool() {
    const pool = this.w.root.querySelector(".mp-pool");
    if (!pool) return;
    pool.scrollIntoView({ behavior: this.w.motionQuery.matches ? "auto" : "smooth", block: "center" });
    pool.focus({ preventScroll: true });
  }

  /** The parameters changed: an old comparison no longer describes them. */
  paramsChanged(v) {
    const p = this.pol;
    if (v.key === p.key) return;
    if (p.worker) {
      p.worker.terminate();
      p.worker = null;
      p.token++;
      p.btn.disabled = false;
      p.progress.hidden = true;
    }
    if (p.rows) {
      p.msg.textContent = "The settings changed: the figure below is for the previous ones.";
      p.btn.textContent = "Compare again with these settings";
    }
  }

  async start() {
    const p = this.pol;
    const w = this.w;
    if (p.worker) return;
    const token = ++p.token;
    const params = w.params;
    const key = w.view.key;
    p.worker = w.workers.spawn();
    p.btn.disabled = true;
    p.progress.hidden = false;
    p.progress.value = 0;
    p.msg.textContent = "Running InnoDB (the simulation, recorded)…";
    try {
      const m = await w.workers.run(p.worker, { kind: "policies", params }, (frac, detail) => {
        if (token !== p.token) return;
        p.progress.value = frac;
        p.msg.textContent = `${Math.round(frac * 10)} of 10 policies${detail ? ` · ${detail}` : ""}…`;
      });
      if (token !== p.token || w.dead) return;
      p.rows = m.result;
      p.key = key;
      p.seed = params.seed;
      try {
        p.cell = mp.declared_cell(await data("sweep"), w.page);
      } catch {
        p.cell = undefined;
      }
      p.msg.textContent = `${m.result.length} policies in ${(m.ms / 1000).toFixed(1)} s (one background worker).`;
      p.btn.textContent = "Compare again";
      this.draw();
      this.fillTable();
    } catch (err) {
      if (token === p.token && !w.dead) p.msg.textContent = `The comparison failed: ${err.message}`;
    } finally {
      if (token === p.token) {
        p.worker?.terminate();
        p.worker = null;
        p.btn.disabled = false;
        p.progress.hidden = true;
      }
    }
  }

  layout() {
    const cv = this.pol.canvas;
    const dpr = this.w.dpr;
    const width = cv.parentElement.clientWidth || 600;
    const logical = Math.max(width, 640);
    this.scale = (dpr * width) / logical;
    const hh = Math.round(Math.min(380, Math.max(260, logical * 0.45)) * (width / logical));
    sizeCanvas(cv, width, hh, dpr);
    this.draw();
  }

  recolour() {
    this.draw();
  }

  draw() {
    const p = this.pol;
    if (!p.rows) return;
    if (p.canvas.hidden) {
      p.canvas.hidden = false;
      p.note.hidden = false;
      this.layout();
      return;
    }
    try {
      mp.draw_policies(p.canvas, this.scale ?? 1, p.rows, this.w.darkQuery.matches);
      markFont(p.canvas, mp.last_font_px() / this.w.dpr);
      p.canvas.dataset.drawn = String(p.rows.length);
    } catch (e) {
      this.w.fatal(`drawing the policies figure failed: ${e?.message ?? e}`);
    }
  }
  /** InnoDB's kept cell: the one run the comparison ran (every policy runs once), named, and on
   *  a declared cell's settings (ui::cells) that cell's number beside it, marked as its quote. */
  innodbKept(kept) {
    const td = el("td", { text: `${pct(kept)} in run ${this.pol.seed}` });
    const q = this.pol.cell;
    if (q) td.append(el("br"), "The setting: ", el("span", { "data-cell": q.cell, text: `${q.pct} (${q.range})` }));
    return td;
  }

  fillTable() {
    const p = this.pol;
    p.table.textContent = "";
    const t = el("table", { class: "mp-table", "data-testid": "policy-table" });
    t.append(
      el("caption", { text: `Every policy on these settings (${fmt.format(this.w.view.hot_pages)}-page hot set), over the scan phase` }),
      el("thead", {}, el("tr", {}, ...["Policy", "Hot set kept", "Miss ratio", "Lookups/s", "Scan's share of the cache", "Why, under a looping scan"].map((h) => el("th", { scope: "col", text: h })))),
    );
    const body = el("tbody");
    for (const r of p.rows) {
      const name = LABEL[r.policy] ?? r.policy;
      const head = el("th", { scope: "row" });
      if (r.policy === "innodb") {
        const b = el("button", { type: "button", class: "mp-link", title: "Go to the pool this row summarises", text: name });
        b.addEventListener("click", () => this.focusPool());
        head.append(b);
      } else head.textContent = name;
      body.append(
        el(
          "tr",
          { "data-policy": r.policy, class: r.policy === "innodb" ? "mp-polinnodb" : "" },
          head,
          r.policy === "innodb" ? this.innodbKept(r.kept) : el("td", { text: pct(r.kept) }),
          el("td", { text: r.miss_ratio.toFixed(3) }),
          el("td", { text: r.lookups_per_s == null ? "— (open loop)" : fmt.format(Math.round(r.lookups_per_s)) }),
          el("td", { text: pct(r.scan_share) }),
          el("td", { text: r.why }),
        ),
      );
    }
    t.append(body);
    p.table.append(t);
  }
}

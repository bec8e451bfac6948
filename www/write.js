// The "Write path" section of the full page.
import * as mp from "../pkg/midpoint.js";
import { el, fmt, markFont } from "./util.js";
import { cores } from "./figure/runs.js";

const DEPTH_STOPS = [100, 128, 256, 312, 512, 1024, 2048, 4096, 8192];
const PAGES_STOPS = [4, 8, 16, 32, 64, 128, 256, 512];

const nearest = (stops, v) => stops.reduce((b, s, i) => (Math.abs(s - v) < Math.abs(stops[b] - v) ? i : b), 0);

/** The "Write path" section: a write preset run in a worker, instance 0's dirty pages at a few
 *  moments, the doublewrite buffers' writes, and the lru_scan_depth trade-off. */
export class WritePath {
  constructor(app) {
    this.app = app;
    this.workers = app.workers;
    this.presets = mp.write_presets();
    this.view = new mp.WriteView();
    this.token = 0;
    this.worker = null;
    this.depthJob = null;
    this.moment = 0;
    this.kind = "write";
    this.build();
    // Its settings from the address (write_preset, write_depth, write_pages), else the first
    // preset's own.
    const opts = app.view?.view?.write ?? {};
    this.pick(opts.preset ?? this.presets[0].name);
    if (opts.depth) this.depthCtl.set(opts.depth);
    if (opts.pages) this.pagesCtl.set(opts.pages);
    // The write figure alone (view=write) keeps its settings in its snippets from the start.
    if (app.viewName === "write") this.keep();
    this.drawAll();
  }

  /** The figure's settings into the widget's page state: its address and Embed snippets
   *  (write_preset, write_depth, write_pages) carry them. */
  keep() {
    const preset = this.el.preset.value;
    this.app.page?.set_write?.(preset, this.depthCtl.value, this.pagesCtl.value);
    Object.assign(this.el.sec.dataset, { writePreset: preset, writeDepth: String(this.depthCtl.value), writePages: String(this.pagesCtl.value) });
  }

  /** Puts an element (the figure's Embed button, its link to the full page) beside its title. */
  addAction(node) {
    this.el.acts.append(node);
  }

  build() {
    const id = `${this.app.id}-w`;
    const sec = el("section", { class: "mp-card mp-write", "data-testid": "write-figure", "aria-labelledby": `${id}-h` });
    sec.innerHTML = `
      <div class="mp-head"><h2 class="mp-h" id="${id}-h">Write path: dirty pages, the doublewrite buffer, and the scan depth</h2><span class="mp-headacts mp-wacts"></span></div>
      <p class="mp-write-intro">The same core also models InnoDB's write path: sysbench write clients dirty pages,
        the page cleaner's LRU batch writes dirty tail pages through the doublewrite buffer before evicting them,
        the flush list is written by adaptive flushing, and a reader that finds no clean victim flushes a page itself
        and waits (<code>wait_free</code>). Pick a write preset and run it (in a background worker).</p>
      <div class="mp-presetrow">
        <label for="${id}-preset">Write preset</label>
        <select id="${id}-preset" data-wctl="preset"></select>
        <p class="mp-wpreset-desc"></p>
      </div>
      <div class="mp-sliders mp-wsliders"></div>
      <div class="mp-sweepbar">
        <button type="button" class="mp-primary" data-wact="run">Run</button>
        <progress class="mp-wprogress" max="1" value="0" hidden></progress>
        <span class="mp-wmsg" role="status"></span>
      </div>
      <dl class="mp-counters mp-wcounters">
        <div><dt>Doublewrite writes/s</dt><dd data-w="dblwr">–</dd></div>
        <div><dt>Mean doublewrite write latency</dt><dd data-w="lat">–</dd></div>
        <div><dt>Pages per doublewrite write</dt><dd data-w="ppw">–</dd></div>
        <div><dt><code>wait_free</code>/s</dt><dd data-w="wf">–</dd></div>
        <div><dt>Transactions/s</dt><dd data-w="tps">–</dd></div>
        <div><dt>Queries/s</dt><dd data-w="qps">–</dd></div>
      </dl>
      <div class="mp-wpool">
        <h3 class="mp-h3">Instance 0, frame by frame</h3>
        <div class="mp-wstage"><canvas class="mp-wcanvas" role="img" aria-label="Instance 0 of the buffer pool: frames in LRU order, clean, dirty or being written, old pages faded and hatched, then the free frames"></canvas></div>
        <div class="mp-ctl mp-wmoment">
          <div class="mp-ctl-head"><label for="${id}-moment">Moment of the run</label><output for="${id}-moment" class="mp-wmout">–</output></div>
          <input type="range" id="${id}-moment" min="0" max="0" step="1" value="0" disabled>
        </div>
        <ul class="mp-legend" aria-label="Legend of the write-path pool">
          <li><span class="mp-sw mp-wk1"></span>clean page</li>
          <li><span class="mp-sw mp-wk2"></span>dirty page (on the flush list)</li>
          <li><span class="mp-sw mp-wk3"></span>being written (io-fixed)</li>
          <li><span class="mp-sw mp-k0"></span>free frame</li>
          <li><span class="mp-sw mp-wk1 mp-old"></span>faded, hatched: old sublist</li>
        </ul>
      </div>
      <div class="mp-plots mp-wplots">
        <figure class="mp-plot">
          <canvas class="mp-wdblwr" role="img" aria-label="Plot: pages in each write of instance 0's LRU and flush-list doublewrite buffers over the run"></canvas>
          <figcaption class="mp-wdcap">Each marker is one write of a doublewrite buffer of instance 0 and how many pages it carried: a buffer is written when it is full, and once more, partly filled, at the end of each batch.</figcaption>
        </figure>
        <figure class="mp-plot">
          <canvas class="mp-wdepth" role="img" aria-label="Plot: transactions per second with and without a scan, and free-list waits per second, against innodb_lru_scan_depth"></canvas>
          <figcaption>
            <div class="mp-sweepbar">
              <button type="button" data-wact="depth">Compute the trade-off</button>
              <progress class="mp-dprogress" max="1" value="0" hidden></progress>
              <span class="mp-dmsg" role="status"></span>
            </div>
            <p>The write-heavy server of <code>writeheavy-depth-*</code> (oltp_read_write, 32 threads, a cloud volume, one 256 MiB instance) with a concurrent looping scan, one full run per depth, as <code>midpoint depth-sweep</code>.</p>
            <details class="mp-data"><summary>The plot's data as a table</summary><div class="mp-tablebox mp-dtable"></div></details>
          </figcaption>
        </figure>
      </div>
      <p class="mp-honest"><strong>What this reproduces, and what not.</strong> Seed 001 (MySQL bug #115328) compared
        <code>innodb_doublewrite_pages</code> 128 with 16: the simulator reproduces the doublewrite counters
        (bigger buffers, about 7.5× fewer doublewrite writes, each about 7× longer; the bug measured 8.3× and 9.7×),
        but not the throughput: the bug lost 6–13 % of its throughput with the larger buffer, the simulator gains a few
        per cent, most likely because its device serves requests strictly in order. The runs are scaled down
        (a 1 GiB pool in 8 instances, 20 virtual seconds), and the trade-off plot is a prediction no measurement backs yet.</p>`;
    this.el = sec;
    const $ = (s) => sec.querySelector(s);
    this.el = {
      sec,
      acts: $(".mp-wacts"),
      preset: $('[data-wctl="preset"]'),
      desc: $(".mp-wpreset-desc"),
      sliders: $(".mp-wsliders"),
      run: $('[data-wact="run"]'),
      progress: $(".mp-wprogress"),
      msg: $(".mp-wmsg"),
      counters: Object.fromEntries([...sec.querySelectorAll("[data-w]")].map((d) => [d.dataset.w, d])),
      stage: $(".mp-wstage"),
      canvas: $(".mp-wcanvas"),
      moment: $(`#${id}-moment`),
      momentOut: $(".mp-wmout"),
      dblwr: $(".mp-wdblwr"),
      depth: $(".mp-wdepth"),
      depthBtn: $('[data-wact="depth"]'),
      dprogress: $(".mp-dprogress"),
      dmsg: $(".mp-dmsg"),
      dtable: $(".mp-dtable"),
    };
    this.ctx = this.el.canvas.getContext("2d");
    for (const p of this.presets) this.el.preset.append(el("option", { value: p.name, text: p.name }));
    this.depthCtl = this.slider(`${id}-depth`, "innodb_lru_scan_depth", DEPTH_STOPS, "pages",
      "Free frames the page cleaner's LRU batch keeps per instance; it writes dirty tail pages to get them. MySQL's default 1,024, range 100 and up.");
    this.pagesCtl = this.slider(`${id}-pages`, "innodb_doublewrite_pages", PAGES_STOPS, "pages",
      "Pages a doublewrite buffer holds before it is written as one write. MySQL's default 128 (8.4), range up to 512.");
    this.el.preset.addEventListener("change", () => {
      this.pick(this.el.preset.value);
      this.keep();
    });
    sec.addEventListener("click", (e) => {
      const b = e.target.closest("button[data-wact]");
      if (!b) return;
      if (b.dataset.wact === "run") this.start();
      else if (b.dataset.wact === "depth") this.startDepth();
    });
    this.el.moment.addEventListener("input", () => {
      this.moment = Number(this.el.moment.value);
      this.drawPool();
      this.drawDblwr();
    });
  }

  slider(iid, name, stops, unit, help) {
    const input = el("input", { type: "range", id: iid, min: 0, max: stops.length - 1, step: 1, value: 0, "aria-describedby": `${iid}-help` });
    const out = el("output", { for: iid });
    const row = el(
      "div",
      { class: "mp-ctl" },
      el("div", { class: "mp-ctl-head" }, el("label", { for: iid }, el("code", { text: name })), out),
      input,
      el("p", { class: "mp-help", id: `${iid}-help` }, help),
    );
    this.el.sliders.append(row);
    const ctl = {
      input,
      get value() {
        return stops[Number(input.value)];
      },
      set(v) {
        input.value = nearest(stops, v);
        this.show();
      },
      show() {
        const label = `${fmt.format(stops[Number(input.value)])} ${unit}`;
        out.textContent = label;
        input.setAttribute("aria-valuetext", label);
      },
    };
    input.addEventListener("input", () => {
      ctl.show();
      this.keep();
      this.drawDepth();
    });
    return ctl;
  }

  pick(name) {
    const p = this.presets.find((x) => x.name === name) ?? this.presets[0];
    this.el.preset.value = p.name;
    this.el.desc.textContent = `${p.description}. Instance 0 has ${fmt.format(p.frames_per_instance)} frames (of ${p.instances}).`;
    this.depthCtl.set(p.lru_scan_depth);
    this.pagesCtl.set(p.doublewrite_pages);
    this.drawDepth();
  }

  layout() {
    this.drawAll();
  }

  sizeCanvases() {
    const dpr = Math.min(window.devicePixelRatio || 1, 3);
    const w = this.el.dblwr.parentElement.clientWidth || 500;
    // The charts lay out at the container's width down to 320 CSS px (their 12 px labels stay
    // 12 px on a phone).
    const logical = Math.max(w, 320);
    this.scale = (dpr * w) / logical;
    this.dpr = dpr;
    for (const cv of [this.el.dblwr, this.el.depth]) {
      const hh = Math.round(Math.min(340, Math.max(250, logical * 0.56)) * (w / logical));
      cv.width = Math.round(w * dpr);
      cv.height = Math.round(hh * dpr);
      cv.style.width = `${w}px`;
      cv.style.height = `${hh}px`;
    }
  }

  // The widget's component hooks.
  recolour() {
    this.drawAll();
  }

  drawAll() {
    this.sizeCanvases();
    this.drawPool();
    this.drawDblwr();
    this.drawDepth();
  }

  guard(what, f) {
    try {
      f();
    } catch (e) {
      this.app.fatal(`drawing ${what} failed: ${e?.message ?? e}`);
    }
  }

  drawPool() {
    const dark = this.app.darkQuery.matches;
    const css = this.el.stage.clientWidth || 800;
    const dpr = this.dpr ?? 1;
    this.guard("the write-path pool", () => {
      const h = this.view.draw_pool(this.el.canvas, this.ctx, this.moment, Math.round(css * dpr), Math.round(320 * dpr), dpr, dark);
      this.el.canvas.style.width = `${css}px`;
      this.el.canvas.style.height = `${h / dpr}px`;
    });
    // Its label (src/web/write.rs: 12 CSS px), or the placeholder's 15 px before a run.
    markFont(this.el.canvas, this.view.moments() ? 12 : 15);
    const n = this.view.moments();
    if (!n) {
      // Before the first run the frames' area is blank: say what will fill it.
      const c = this.el.canvas;
      const running = !this.el.progress.hidden;
      this.ctx.save();
      this.ctx.fillStyle = getComputedStyle(c).getPropertyValue("color") || "#555";
      this.ctx.font = `${Math.round(15 * dpr)}px sans-serif`;
      this.ctx.textAlign = "center";
      this.ctx.textBaseline = "middle";
      this.ctx.fillText(
        running ? "Running in a background worker…" : "Press Run: instance 0's frames appear here, one cell each, moment by moment",
        c.width / 2,
        c.height / 2,
        c.width - 24 * dpr,
      );
      this.ctx.restore();
    }
    if (n) {
      const m = this.view.moment(this.moment);
      this.el.momentOut.textContent =
        `t = ${m.t_s.toFixed(1)} s · ${fmt.format(m.dirty)} dirty · ${fmt.format(m.writing)} being written · ${fmt.format(m.free)} free`;
      this.el.moment.setAttribute("aria-valuetext", this.el.momentOut.textContent);
    }
  }

  drawDblwr() {
    this.guard("the doublewrite chart", () => this.view.draw_dblwr(this.el.dblwr, this.scale, this.moment, this.app.darkQuery.matches));
    markFont(this.el.dblwr, mp.last_font_px() / (this.dpr ?? 1));
  }

  drawDepth() {
    this.guard("the trade-off", () => this.view.draw_depth(this.el.depth, this.scale, this.depthCtl.value, this.app.darkQuery.matches));
    markFont(this.el.depth, mp.last_font_px() / (this.dpr ?? 1));
    const rows = this.view.depth_rows();
    const t = el("table", {}, el("tr", {}, el("th", { text: "innodb_lru_scan_depth" }), el("th", { text: "tps with a scan" }), el("th", { text: "tps without" }), el("th", { text: "wait_free/s" })));
    for (let i = 0; i < rows.length; i += 4) {
      const f = (x, d) => (Number.isFinite(x) ? x.toFixed(d) : "–");
      t.append(el("tr", {}, el("td", { text: String(rows[i]) }), el("td", { text: f(rows[i + 1], 0) }), el("td", { text: f(rows[i + 2], 0) }), el("td", { text: f(rows[i + 3], 1) })));
    }
    this.el.dtable.replaceChildren(t);
  }

  async start() {
    const token = ++this.token;
    this.worker?.terminate();
    this.worker = this.workers.spawn();
    const job = { kind: "write", preset: this.el.preset.value, depth: this.depthCtl.value, pages: this.pagesCtl.value };
    this.el.progress.hidden = false;
    this.el.progress.value = 0;
    this.el.msg.textContent = "Running…";
    this.drawPool();
    try {
      const m = await this.workers.run(this.worker, job, (frac) => {
        if (token !== this.token) return;
        this.el.progress.value = frac;
        this.el.msg.textContent = `Running… ${Math.round(frac * 100)} %`;
      });
      if (token !== this.token || this.app.dead) return;
      this.worker.terminate();
      this.worker = null;
      this.view.set_run(m.result, m.cells);
      const r = m.result;
      const c = this.el.counters;
      c.dblwr.textContent = r.doublewrite ? fmt.format(Math.round(r.dblwr_writes_per_s)) : "off";
      c.lat.textContent = r.doublewrite ? `${r.dblwr_avg_write_ms.toFixed(2)} ms` : "–";
      c.ppw.textContent = r.doublewrite ? r.dblwr_pages_per_write.toFixed(1) : "–";
      c.wf.textContent = r.wait_free_per_s.toFixed(1);
      c.tps.textContent = r.has_scan
        ? `${fmt.format(Math.round(r.tps))} without a scan, ${fmt.format(Math.round(r.tps_with_scan))} with`
        : fmt.format(Math.round(r.tps));
      c.qps.textContent = fmt.format(Math.round(r.qps));
      const n = this.view.moments();
      this.el.moment.max = Math.max(0, n - 1);
      this.el.moment.disabled = n === 0;
      this.moment = Math.max(0, n - 1);
      this.el.moment.value = this.moment;
      this.el.progress.hidden = true;
      this.el.msg.textContent =
        `${r.preset}, innodb_lru_scan_depth ${r.lru_scan_depth}, innodb_doublewrite_pages ${r.doublewrite_pages}: ` +
        `counters over the last ${r.measured_s} s; ${fmt.format(r.events)} events in ${(m.ms / 1000).toFixed(1)} s in a worker.`;
      this.el.sec.dataset.ran = "1";
      this.drawPool();
      this.drawDblwr();
    } catch (err) {
      if (token === this.token) {
        this.el.progress.hidden = true;
        this.el.msg.textContent = `The run failed: ${err.message}`;
        this.drawPool();
      }
    }
  }

  startDepth() {
    if (this.depthJob) return;
    const depths = mp.WriteView.depths();
    const todo = [...depths];
    const n = Math.min(cores(), todo.length);
    const job = { workers: [], left: todo.length, t0: performance.now() };
    this.depthJob = job;
    this.el.depthBtn.disabled = true;
    this.el.dprogress.hidden = false;
    this.el.dprogress.max = depths.length;
    this.el.dprogress.value = 0;
    this.el.dmsg.textContent = `Starting ${n} worker${n > 1 ? "s" : ""}…`;
    const next = async (w) => {
      while (todo.length && this.depthJob === job) {
        const depth = todo.shift();
        try {
          const m = await this.workers.run(w, { kind: "write-depth", depth });
          if (this.depthJob !== job) return;
          this.view.set_depth_point(m.result);
          job.left -= 1;
          const done = depths.length - job.left;
          this.el.dprogress.value = done;
          this.el.dmsg.textContent = `${done} of ${depths.length} depths`;
          this.el.sec.dataset.depthPoints = String(this.view.depth_done());
          this.drawDepth();
          if (!job.left) {
            for (const x of job.workers) x.terminate();
            this.depthJob = null;
            this.el.depthBtn.disabled = false;
            this.el.depthBtn.textContent = "Compute again";
            this.el.dprogress.hidden = true;
            this.el.dmsg.textContent = `${depths.length} depths in ${((performance.now() - job.t0) / 1000).toFixed(1)} s`;
          }
        } catch (err) {
          for (const x of job.workers) x.terminate();
          this.depthJob = null;
          this.el.depthBtn.disabled = false;
          this.el.dprogress.hidden = true;
          this.el.dmsg.textContent = `The trade-off failed: ${err.message}`;
          return;
        }
      }
    };
    for (let i = 0; i < n; i++) {
      const w = this.workers.spawn();
      job.workers.push(w);
      next(w);
    }
  }

  stop() {
    this.worker?.terminate();
    this.worker = null;
    if (this.depthJob) for (const x of this.depthJob.workers) x.terminate();
    this.depthJob = null;
  }
}

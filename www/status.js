// The lab's "Your server" panel: the paste goes to the reader in WebAssembly (status_report in
// src/web/status.rs); the table shows each value with its line, the values assumed, the
// warnings and the scenario; "Run it" opens the lab at the scenario's address (the settings
// only: the paste is not in it). "Leak risk" runs the scenario and the changes tried in a
// worker (www/status-worker.js): first the fit to the paste's own counters (its table,
// crates/status/src/fit/mod.rs), then the scenario and the changes tried at the pool's real size, a
// few seeds each, and shows the table, the advice and the model's youngs/s beside the pasted
// ones, all formatted in Rust (crates/status/src/risk.rs); the estimate comes first, Cancel or
// a change to the paste stops it, and a pool past what the page runs gets the reason and the
// command line instead of a forecast. Nothing is sent anywhere.
import { boot } from "./boot.js";
import * as mp from "../pkg/midpoint.js";

function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "text") e.textContent = v;
    else e.setAttribute(k, v);
  }
  for (const k of kids) e.append(k);
  return e;
}

function fmt(v) {
  if (typeof v === "number") return Number.isInteger(v) ? v.toLocaleString("en-US") : String(v);
  return String(v);
}

function render(out, rep) {
  out.replaceChildren();
  const table = el("table", { class: "mp-table mp-status-table", "data-testid": "status-table" });
  table.append(el("caption", { text: "What was read, and what was assumed" }));
  const head = el("tr");
  for (const h of ["Value", "Read", "Line", "As printed"]) head.append(el("th", { scope: "col", text: h }));
  table.append(el("thead", {}, head));
  const body = el("tbody");
  // The buffer pool's values first, in the order printed, then the variables.
  const rank = { status: 0, instance_sums: 0, pool_stats: 1, variables: 2, global_status: 3 };
  const names = Object.keys(rep.read).sort(
    (a, b) => (rank[rep.sources[a]] ?? 4) - (rank[rep.sources[b]] ?? 4) || (rep.lines[a]?.line ?? 0) - (rep.lines[b]?.line ?? 0) || a.localeCompare(b),
  );
  for (const name of names) {
    const value = rep.read[name];
    const from = rep.lines[name] ?? {};
    const flagged = rep.warnings.some((w) => w.includes(name)) ? " (flagged)" : "";
    const tr = el("tr", { "data-name": name });
    tr.append(el("th", { scope: "row" }, el("code", { text: name })));
    tr.append(el("td", { text: fmt(value) + flagged }));
    tr.append(el("td", { text: from.line ?? "" }));
    tr.append(el("td", {}, el("code", { text: from.text ?? "" })));
    body.append(tr);
  }
  for (const a of rep.assumed_values) {
    const tr = el("tr", { class: "mp-assumed", "data-name": a.name, "data-assumed": "1" });
    tr.append(el("th", { scope: "row" }, el("code", { text: a.name })));
    tr.append(el("td", { text: `${a.value} (assumed)` }));
    tr.append(el("td", { text: "—" }));
    tr.append(el("td", { text: a.why }));
    body.append(tr);
  }
  table.append(body);
  out.append(el("div", { class: "mp-status-scroll", tabindex: "0", role: "region", "aria-label": "What was read" }, table));
  if (rep.warnings.length) {
    const ul = el("ul", { class: "mp-status-warnings", "data-testid": "status-warnings" });
    for (const w of rep.warnings) ul.append(el("li", { text: w }));
    out.append(el("h3", { text: "Values that contradict each other (read, flagged)" }), ul);
  }
  if (rep.notes.length) {
    const ul = el("ul", { class: "mp-status-notes" });
    for (const n of rep.notes) ul.append(el("li", { text: n }));
    out.append(el("h3", { text: "Notes" }), ul);
  }
  const s = rep.scenario;
  out.append(
    el("p", {
      "data-testid": "status-scenario",
      text: `The lab will run: ${s.engine ?? "mysql-8.4"}, a ${s.pool_mb} MiB pool in ${s.buffer_pool_instances} instance(s), innodb_old_blocks_pct ${s.old_blocks_pct}, innodb_old_blocks_time ${s.old_blocks_time} ms, innodb_lru_scan_depth ${s.lru_scan_depth}, a hot set of ${s.hot_pages} pages (suggested: ${rep.suggested.hot_pages}), a scan of a ${s.scan_table_mb} MiB table${s.idle_scan_pages_per_s ? ` at ${s.idle_scan_pages_per_s} pages/s` : ""}. Your youngs/s and non-youngs/s, as pasted: ${rep.read.youngs_per_s ?? "—"} and ${rep.read.non_youngs_per_s ?? "—"}; the leak the lab shows is not in them.`,
    }),
  );
}

// The fit: the server's figures beside the model's (cells from fit::table), and its sentences.
function renderFit(out, res) {
  const t = res.fit_table;
  if (!t) return;
  // data-hot-pinned: the hot set came from the tables marked hot (the per-table residency).
  const pinned = res.fit?.hot_set_from ? { "data-hot-pinned": "1", "data-hot-pages": String(res.fit.hot_pages) } : {};
  const table = el("table", { class: "mp-table mp-status-table mp-risk-table", "data-testid": "status-fit", ...pinned });
  table.append(el("caption", { text: "Fitted to your counters: yours beside the model's" }));
  const head = el("tr");
  for (const h of t.head) head.append(el("th", { scope: "col", text: h }));
  table.append(el("thead", {}, head));
  const body = el("tbody");
  for (const cells of t.rows) {
    const tr = el("tr", { "data-figure": cells[0] });
    cells.forEach((c, i) => tr.append(i === 0 ? el("th", { scope: "row", text: c }) : el("td", { text: c })));
    body.append(tr);
  }
  table.append(body);
  out.append(el("div", { class: "mp-status-scroll", tabindex: "0", role: "region", "aria-label": "Fit to your counters" }, table));
  const ul = el("ul", { class: "mp-status-notes", "data-testid": "status-fit-notes" });
  for (const n of t.lines) ul.append(el("li", { text: n }));
  out.append(ul);
}

// The leak risk's table (cells from risk::table), the advice and the notes.
function renderRisk(out, res, running) {
  out.replaceChildren();
  renderFit(out, res);
  if (!res.rows.length) return;
  const t = res.table;
  const table = el("table", { class: "mp-table mp-status-table mp-risk-table", "data-testid": "status-risk-table" });
  table.append(el("caption", { text: "Leak risk: the scenario as read and the changes tried" }));
  const head = el("tr");
  for (const h of t.head) head.append(el("th", { scope: "col", text: h }));
  table.append(el("thead", {}, head));
  const body = el("tbody");
  const line = (cells, attrs) => {
    const tr = el("tr", attrs);
    cells.forEach((c, i) => tr.append(i === 0 ? el("th", { scope: "row", text: c }) : el("td", { text: c })));
    body.append(tr);
  };
  t.rows.forEach((cells, i) => line(cells, { "data-row": res.rows[i].label }));
  line(t.yours, { class: "mp-yours", "data-row": "yours" });
  table.append(body);
  out.append(el("div", { class: "mp-status-scroll", tabindex: "0", role: "region", "aria-label": "Leak risk" }, table));
  if (!running && res.done) out.append(el("p", { class: "mp-status-advice", "data-testid": "status-advice", text: res.advice }));
  // Without a measured hot set: the forecast's range over the hot sets the counters allow.
  if (res.kept_range) out.append(el("p", { class: "mp-status-advice", "data-testid": "status-kept-range", text: res.kept_range.words }));
  // A hot set that flips: both outcomes, with how often each came up.
  if (res.outcomes?.bistable) out.append(el("p", { class: "mp-status-advice", "data-testid": "status-outcomes", text: res.outcomes.words }));
  const notes = [
    res.runs_note,
    "Kept: the hot set's mean residency over the scan; leak: scan pages turned young. The leak is not in youngs/s: a page the boundary's slide turns young counts nowhere, so your youngs/s can stay low while the scan takes the pool.",
    ...res.notes,
  ];
  const ul = el("ul", { class: "mp-status-notes", "data-testid": "status-risk-notes" });
  for (const n of notes) ul.append(el("li", { text: n }));
  out.append(ul);
}

/** Mounts the panel (the lab's `[data-testid=status-panel]` section; main.js calls it). */
export async function mountStatusPanel(panel) {
  if (!panel) return;
  const paste = panel.querySelector("[data-testid=status-paste]");
  const hot = panel.querySelector("[data-testid=status-hot]");
  const readBtn = panel.querySelector("[data-testid=status-read]");
  const runBtn = panel.querySelector("[data-testid=status-run]");
  const msg = panel.querySelector("[data-testid=status-message]");
  const out = panel.querySelector("[data-testid=status-result]");
  const riskBtn = panel.querySelector("[data-testid=status-risk-run]");
  const riskOut = panel.querySelector("[data-testid=status-risk]");
  const riskMsg = panel.querySelector("[data-testid=status-risk-message]");
  const riskCancel = panel.querySelector("[data-testid=status-risk-cancel]");
  const headline = panel.querySelector("[data-testid=status-risk-headline]");
  const tablesBox = panel.querySelector("[data-testid=status-tables]");
  const tablesList = panel.querySelector("[data-testid=status-tables-list]");
  // The tables the user marked hot (db.table), sent with each read and run.
  const marked = new Set();
  const markedText = () => [...marked].join("\n");
  const mib = (b) => `${Math.round(b / 1048576)} MiB`;
  let module;
  try {
    ({ workerModule: module } = await boot());
  } catch (e) {
    msg.textContent = `The reader could not start: ${e.message}`;
    return;
  }
  let query = null;
  // The leak risk's worker: one job at a time; stopping it terminates the worker.
  let worker = null;
  let job = 0;
  let pasted = null;
  const stopRisk = (why) => {
    worker?.terminate();
    worker = null;
    riskMsg.textContent = why;
    riskOut.replaceChildren();
    headline.textContent = "";
    riskCancel.hidden = true;
    delete panel.dataset.risk;
  };
  riskCancel.addEventListener("click", () => {
    if (worker) stopRisk("Cancelled: the runs were stopped. Press Leak risk to run them again.");
  });
  const startRisk = () => {
    stopRisk("");
    if (!pasted) return;
    riskMsg.textContent = "Running the leak risk in the background…";
    const id = ++job;
    const w = new Worker(new URL("./status-worker.js", import.meta.url), { type: "module" });
    worker = w;
    w.postMessage({ type: "init", module });
    const bar = el("progress", { max: "1", value: "0", "aria-label": "Leak risk runs done", "data-testid": "status-risk-progress" });
    const now = el("span", { text: "Starting the runs…" });
    const progress = el("p", { class: "mp-status-progress" }, bar, " ", now);
    riskOut.replaceChildren(progress);
    panel.dataset.risk = "running";
    riskCancel.hidden = false;
    let rows = -1;
    let fitted = false;
    let estimated = false;
    const table = el("div");
    riskOut.append(table);
    w.onmessage = (e) => {
      const m = e.data;
      if (m.type === "ready" || worker !== w) return;
      if (m.type === "panic" || m.type === "error") {
        stopRisk(`The leak risk could not run: ${m.message}`);
        return;
      }
      if (m.id !== id) return;
      const res = JSON.parse(m.result);
      const pool = `${res.pool_pages.toLocaleString("en-US")} pages${res.instances > 1 ? ` in ${res.instances} instances` : ""}`;
      // A pool of several instances is forecast from one instance's share (the fit's rule).
      const simulated = res.instances > 1 ? `, simulated as one instance's share of ${res.simulated_pages.toLocaleString("en-US")} pages` : "";
      if (res.refused) {
        // Past what this page runs: no forecast, the reason and the command line instead.
        w.terminate();
        worker = null;
        progress.remove();
        riskCancel.hidden = true;
        headline.replaceChildren(
          `This page cannot forecast your pool (${pool}): ${res.refused}. Run it on the command line, which simulates any size: `,
          el("code", { "data-testid": "status-risk-cli", text: res.cli }),
        );
        riskMsg.textContent = "No forecast: see above.";
        panel.dataset.risk = "refused";
        return;
      }
      if (!estimated) {
        estimated = true;
        headline.textContent = `Fitting, then forecasting your pool at its real size (${pool}${simulated}): about ${Math.max(1, Math.round(res.estimate_s))} s of work by the simulator's estimate (a native core's; this page runs a few times slower). Cancel stops it.`;
      }
      if (m.type === "progress") {
        bar.value = m.frac;
        now.textContent = `${Math.floor(m.frac * 100)} %: ${m.now}`;
        if ((res.rows.length !== rows && res.rows.length > 0) || (!fitted && res.fit_table)) {
          rows = res.rows.length;
          fitted = !!res.fit_table;
          renderRisk(table, res, true);
        }
        return;
      }
      w.terminate();
      worker = null;
      progress.remove();
      riskCancel.hidden = true;
      renderRisk(table, res, false);
      headline.textContent = `Your pool as read, ${pool}${simulated}, fitted to your counters: ${res.kept_range ? `${res.kept_range.words} ` : ""}${res.advice}`;
      riskMsg.textContent = `Leak risk: ${res.rows.length} rows, ${res.runs} run${res.runs === 1 ? "" : "s"} each, in ${(m.ms / 1000).toFixed(1)} s (WebAssembly memory ${mib(m.mem)}).`;
      panel.dataset.risk = "done";
    };
    w.onerror = (e) => {
      e.preventDefault();
      if (worker === w) stopRisk(`The leak risk could not run: ${e.message || "worker error"}`);
    };
    w.postMessage({ id, text: pasted.text, hot: pasted.hot, tables: pasted.tables, runs: 0 });
  };
  // The reader: one worker for the panel's life, so that reading a long paste never holds the
  // tab; the latest Read wins (an older answer is dropped). `panel.dataset.read` is "reading"
  // from the press to the answer on screen, then "done": the page's own signal that it answered.
  const reader = new Worker(new URL("./status-worker.js", import.meta.url), { type: "module" });
  reader.postMessage({ type: "init", module });
  let readId = 0;
  let reading = null;
  reader.onmessage = (e) => {
    const m = e.data;
    if (m.type === "ready" || !reading || m.id !== reading.id) return;
    const { text, h } = reading;
    reading = null;
    if (m.type === "panic" || m.type === "error") {
      msg.textContent = `The reader failed: ${m.message}`;
      out.replaceChildren();
    } else {
      shown(JSON.parse(m.result), text, h);
    }
    panel.dataset.read = "done";
  };
  reader.onerror = (e) => {
    e.preventDefault();
    if (!reading) return;
    reading = null;
    msg.textContent = `The reader failed: ${e.message || "worker error"}`;
    panel.dataset.read = "done";
  };
  // The per-table residency pasted: a checkbox a table, ticked for the tables marked hot.
  const showTables = (rep) => {
    const tables = rep.tables ?? [];
    tablesBox.hidden = tables.length === 0;
    tablesList.replaceChildren();
    for (const t of tables) {
      const box = el("input", { type: "checkbox", "data-testid": "status-hot-table", "data-table": t.table });
      box.checked = marked.has(t.table);
      box.addEventListener("change", () => {
        if (box.checked) marked.add(t.table);
        else marked.delete(t.table);
        read();
      });
      const what = `${t.table}: ${t.pages.toLocaleString("en-US")} pages in the pool${t.leaf_pages != null ? ` of its ${t.leaf_pages.toLocaleString("en-US")} leaf pages` : ""} (line ${t.line})`;
      tablesList.append(el("label", {}, box, " ", what));
    }
  };
  const shown = (rep, text, h) => {
    if (rep.error) {
      msg.textContent = rep.error;
      out.replaceChildren();
      return;
    }
    showTables(rep);
    const n = Object.keys(rep.read).length;
    msg.textContent = `Read ${n} value${n === 1 ? "" : "s"}; ${rep.assumed.length} assumed; ${rep.warnings.length} warning${rep.warnings.length === 1 ? "" : "s"}.`;
    render(out, rep);
    query = rep.query;
    pasted = { text, hot: h, tables: markedText() };
    runBtn.disabled = false;
    riskBtn.disabled = false;
  };
  // A paste too long to show whole (a status with thousands of transactions): the box would take
  // seconds to lay out 5 MB of text, so it shows the first lines and the whole text is kept here.
  const BIG = 256 * 1024;
  const SHOW_LINES = 400;
  const note = panel.querySelector("[data-testid=status-paste-note]");
  let whole = null;
  const keep = (text) => {
    whole = text;
    let cut = 0;
    for (let i = 0; i < SHOW_LINES && cut >= 0; i++) cut = text.indexOf("\n", cut + 1);
    const lines = (text.match(/\n/g)?.length ?? 0) + (text.endsWith("\n") ? 0 : 1);
    paste.value = cut > 0 ? text.slice(0, cut + 1) : text.slice(0, BIG);
    note.textContent = `Pasted ${(text.length / 1048576).toFixed(1)} MB, ${lines.toLocaleString("en-US")} lines: too long to show whole, the box shows the first ${SHOW_LINES} and Read reads all of it. Typing in the box keeps only what it shows.`;
    note.hidden = false;
  };
  const text = () => whole ?? paste.value;
  paste.addEventListener("paste", (e) => {
    const t = e.clipboardData?.getData("text/plain") ?? "";
    if (t.length <= BIG) return;
    e.preventDefault();
    keep(t);
    paste.dispatchEvent(new Event("input"));
  });
  const read = () => {
    query = null;
    pasted = null;
    runBtn.disabled = true;
    riskBtn.disabled = true;
    stopRisk("");
    const h = Number.parseInt(hot.value, 10);
    if (hot.value.trim() !== "" && !(h >= 1 && h <= 4194304)) {
      reading = null;
      msg.textContent = "The hot set is a whole number of pages from 1 to 4,194,304.";
      out.replaceChildren();
      panel.dataset.read = "done";
      return;
    }
    const t = text();
    const hh = Number.isFinite(h) ? h : 0;
    reading = { id: ++readId, text: t, h: hh };
    panel.dataset.read = "reading";
    msg.textContent = t.length > BIG ? `Reading ${(t.length / 1048576).toFixed(1)} MB…` : "Reading…";
    reader.postMessage({ id: readId, type: "read", text: t, hot: hh, tables: markedText() });
  };
  readBtn.addEventListener("click", read);
  riskBtn.addEventListener("click", startRisk);
  // A changed paste or hot set: what was read no longer holds; stop the runs.
  for (const input of [paste, hot]) {
    input.addEventListener("input", (e) => {
      // Text put in the box another way (dropped, or set by a script) that is too long to show.
      // Another paste: the tables marked hot were the last one's.
      if (input === paste) marked.clear();
      if (input === paste && e.isTrusted && paste.value.length > BIG) keep(paste.value);
      else if (input === paste && e.isTrusted && whole !== null) {
        whole = null;
        note.hidden = true;
      }
      if (pasted === null) return;
      pasted = null;
      riskBtn.disabled = true;
      runBtn.disabled = true;
      stopRisk(worker ? "The paste changed: the leak risk runs were stopped. Read it again to run them." : "");
    });
  }
  runBtn.addEventListener("click", () => {
    if (query !== null) location.assign(`${location.pathname}?${query}`);
  });
  panel.dataset.ready = "1";
}


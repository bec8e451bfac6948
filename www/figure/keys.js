// Each figure's colour key (`[data-testid=figure-key]`), and the counters under the pool. The
// close-up's and the grid's keys name the cells' colours and marks; a plot's key is the list of
// entries its chart would draw in its own legend (src/web/charts.rs: residency_key, SweepView's
// key), so the HTML key and the chart cannot differ.
import { el, fmt, pct, setText } from "../util.js";

/** The cells' key: the close-up's marks (`strip`), the grid's (`grid`) or both (`lab`). */
export class CellKey {
  constructor(w, kind) {
    this.w = w;
    const strip = kind !== "grid";
    const grid = kind !== "strip";
    this.el = el("ul", { class: "mp-legend mp-key", "data-testid": "figure-key", "aria-label": "Key" });
    this.el.innerHTML = `
      <li data-g="hot-set"><span class="mp-sw mp-k1"></span><span>hot set</span></li>
      <li class="mp-rest" hidden><span class="mp-sw mp-k2"></span><span>rest of the hot table</span></li>
      <li data-g="scan-pages"><span class="mp-sw mp-k3"></span><span>scanned table</span></li>
      <li class="mp-filler" hidden><span class="mp-sw mp-k4"></span><span>filler table</span></li>
      <li data-g="free-list"><span class="mp-sw mp-k0"></span><span>free<span class="mp-long"> frame</span></span></li>
      <li data-g="old"><span class="mp-sw mp-k3 mp-old"></span><span>hatched: old</span></li>
      <li data-g="slide"><span class="mp-sw mp-k3 mp-ry"></span><span>black ring: turned young<span class="mp-long"> by the boundary since the last LRU batch</span>${strip ? `<span class="mp-long"> (dot: reached the head)</span>` : ""}</span></li>
      <li data-g="demotion"><span class="mp-sw mp-k1 mp-old mp-ro"></span><span>pink ring: hot<span class="mp-long"> page</span> turned old<span class="mp-long"> by the batch</span>${strip ? `<span class="mp-long"> (× once evicted)</span>` : ""}</span></li>
      ${grid ? `<li><span class="mp-sw mp-flash"></span><span>yellow: just now</span></li>` : ""}
      <li data-g="boundary"><span class="mp-line"></span><span><code>LRU_old</code>: boundary</span></li>`;
    this.rest = this.el.querySelector(".mp-rest");
    this.filler = this.el.querySelector(".mp-filler");
    // On the article's own page (index.html, not an embedded figure) each entry's words link to
    // the glossary's entry for what the cell shows.
    if (document.getElementById("glossary") && !document.documentElement.classList.contains("mp-embed-page")) {
      for (const li of this.el.querySelectorAll("li[data-g]")) {
        const words = li.lastElementChild;
        const a = el("a", { class: "term", href: `#glossary-${li.dataset.g}` });
        a.append(...words.childNodes);
        words.append(a);
      }
    }
  }

  paramsChanged(v) {
    this.rest.hidden = !v.rest_of_hot_table;
    this.filler.hidden = !v.filler_table;
  }
}

/** A plot's key from its chart's entries (`[{label, kind, colour}]`). */
export class PlotKey {
  constructor() {
    this.el = el("ul", { class: "mp-legend mp-key mp-plotkey", "data-testid": "figure-key", "aria-label": "Key" });
    this.sig = "";
  }

  show(entries) {
    const sig = entries.map((e) => `${e.kind}:${e.colour}:${e.label}`).join("|");
    if (sig === this.sig) return;
    this.sig = sig;
    // Lines that share their words' start ("old_blocks_time 0 ms", "old_blocks_time 250 ms"):
    // the words once, then each line's value.
    const lines = entries.filter((e) => e.kind === "line");
    const head = lines.length > 2 ? lines[0].label.replace(/ \S+ \S+$/, " ") : "";
    const shared = head && lines.every((e) => e.label.startsWith(head));
    const items = entries.map((e) =>
      el("li", { "data-kind": e.kind }, el("span", { class: `mp-pk mp-pk-${e.kind}`, style: `--c: ${e.colour}` }), shared && e.kind === "line" ? e.label.slice(head.length) : e.label),
    );
    if (shared) items.unshift(el("li", { class: "mp-pkhead" }, el("code", { text: head.trim() })));
    this.el.replaceChildren(...items);
  }
}

/** The counters under the pool: the lists, the last LRU batch and InnoDB's own counters. A
 *  figure shows the first four: the numbers its caption, narration and code panel give. */
export class Counters {
  constructor(w, { compact = false } = {}) {
    this.w = w;
    this.el = el("div", { class: `mp-countbox${compact ? " mp-compact" : ""}` });
    this.el.innerHTML = `
      <dl class="mp-counters" data-testid="counters">
        <div><dt>Free list</dt><dd data-k="free">–</dd></div>
        <div><dt>LRU<span class="mp-long"> list</span> / old</dt><dd data-k="lru">–</dd></div>
        <div><dt title="The pages the last LRU batch's bulk demotion turned old">Last batch: turned old</dt><dd data-k="demoted">–</dd></div>
        <div><dt title="The hot-set pages among them">of them hot pages</dt><dd data-k="demoted-hot">–</dd></div>
        <div><dt title="Pages whose old flag the boundary cleared since the last LRU batch (before the first one: since the start)">Turned young since</dt><dd data-k="young-since">–</dd></div>
        ${compact ? "" : `
        <div><dt>Hot set resident</dt><dd data-k="hot">–</dd></div>
        <div><dt>Scanned table, young</dt><dd data-k="scany">–</dd></div>
        <div><dt title="InnoDB's counter: old pages promoted on access">Pages made young <sup>*</sup></dt><dd data-k="my">–</dd></div>
        <div><dt title="InnoDB's counter: old-page touches that failed the time test">Pages not made young <sup>*</sup></dt><dd data-k="nmy">–</dd></div>
        <div><dt title="Pages whose old flag the boundary cleared, over the whole run">Turned young by the boundary, in all</dt><dd data-k="slid">–</dd></div>
        <div><dt>Refills (LRU batches)</dt><dd data-k="refills">–</dd></div>`}
      </dl>
      ${compact ? "" : `<p class="mp-foot"><sup>*</sup> InnoDB's <code>Pages made young</code> / <code>not young</code> (<code>SHOW ENGINE INNODB STATUS</code>). Neither counts the pages the boundary turns young, nor young pages moved back to the head (<span data-k="ymh">–</span> so far): the leak is invisible in <code>youngs/s</code>.</p>`}`;
    this.c = Object.fromEntries([...this.el.querySelectorAll("[data-k]")].map((d) => [d.dataset.k, d]));
  }

  status(s) {
    const c = this.c;
    setText(c.free, fmt.format(s.free));
    setText(c.lru, `${fmt.format(s.lru)} / ${fmt.format(s.old)}`);
    setText(c.demoted, s.refills ? fmt.format(s.demoted) : "no batch yet");
    setText(c["demoted-hot"], s.refills ? fmt.format(s.demoted_hot) : "–");
    setText(c["young-since"], fmt.format(s.refills ? s.drain_young : s.slid_young));
    if (!c.hot) return;
    setText(c.hot, `${fmt.format(s.hot_resident)} / ${fmt.format(s.hot_pages)} · ${pct(s.hot_resident / Math.max(1, s.hot_pages))}`);
    setText(c.scany, fmt.format(s.scan_young));
    setText(c.my, fmt.format(s.made_young));
    setText(c.nmy, fmt.format(s.not_made_young));
    setText(c.slid, fmt.format(s.slid_young));
    setText(c.refills, fmt.format(s.refills));
    setText(c.ymh, fmt.format(s.young_moved_to_head));
  }
}

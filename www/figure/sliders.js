// Sliders for the widget's parameters (their stops, names and facts from src/ui/controls.rs,
// read from the widget's Page): the lab's settings list all of them, a figure the one to three
// it is about, right under it. Each keeps `data-param` (the parameter's name).
import { el, fmt } from "../util.js";

export class Sliders {
  /**
   * `keys`: the parameters to show (all if null); `help`: show each slider's help line;
   * `label`: the group's accessible name.
   */
  constructor(w, { keys = null, help = true, label = null, className = "" } = {}) {
    this.w = w;
    this.keys = keys;
    this.help = help;
    this.el = el("div", { class: `mp-sliders ${className}`.trim(), role: label ? "group" : null, "aria-label": label });
    this.controls = new Map();
    this.sig = null;
  }

  paramsChanged() {
    this.render(false);
  }

  render(rebuild) {
    const w = this.w;
    let controls = w.page.controls();
    if (this.keys) controls = this.keys.map((k) => controls.find((c) => c.key === k)).filter(Boolean);
    const box = this.el;
    const sig = controls.map((c) => c.key + ":" + c.stops.map((s) => s.value).join(",")).join("|");
    if (rebuild || sig !== this.sig) {
      box.textContent = "";
      this.sig = sig;
      this.controls = new Map();
      let group = controls[0]?.group;
      for (const c of controls) {
        if (c.group !== group && !this.keys) {
          // A new group ("Your server"): its heading, and the rates the last run produced
          // beside the rates the reader enters, so a DBA can compare.
          group = c.group;
          box.append(
            el(
              "div",
              { class: "mp-ctl-group", "data-testid": "your-server" },
              el("h3", { class: "mp-h3", text: group }),
              el("p", { class: "mp-help", text: "What your server does, if you know it: the sliders set the CPU times so that an idle run reaches these rates (0 keeps the experiment's machine)." }),
              el("p", { class: "mp-yourrates", "data-testid": "run-rates" }),
            ),
          );
        }
        const iid = `${w.id}-${this.keys ? "f" : "s"}-${c.key}`;
        const input = el("input", {
          type: "range",
          id: iid,
          min: 0,
          max: c.stops.length - 1,
          step: 1,
          value: c.index,
          "aria-describedby": this.help ? `${iid}-help` : null,
          "data-key": c.key,
          "data-param": c.key,
        });
        const out = el("output", { for: iid });
        const name = c.server_variable ? el("code", { text: c.name }) : document.createTextNode(c.name);
        const row = el("div", { class: "mp-ctl", "data-ctl-row": c.key }, el("div", { class: "mp-ctl-head" }, el("label", { for: iid }, name), out), input);
        if (this.help) row.append(el("p", { class: "mp-help", id: `${iid}-help` }, `${c.help} `, el("span", { class: "mp-facts", text: c.facts })));
        box.append(row);
        input.addEventListener("input", () => {
          const spec = this.controls.get(c.key).spec;
          const stop = spec.stops[Number(input.value)];
          out.textContent = stop.label;
          input.setAttribute("aria-valuetext", stop.label);
          w.setParam(c.key, stop.value);
        });
        this.controls.set(c.key, { input, out, spec: c });
      }
    }
    for (const c of controls) {
      const k = this.controls.get(c.key);
      k.spec = c;
      if (Number(k.input.value) !== c.index) k.input.value = c.index;
      k.out.textContent = c.value_label;
      k.input.setAttribute("aria-valuetext", c.value_label);
    }
    this.showRunRates();
  }

  /** The run's own rates, beside the "your server" sliders, once the full run is in. */
  runs() {
    this.showRunRates();
  }

  showRunRates() {
    const box = this.el.querySelector(".mp-yourrates");
    if (!box) return;
    const r = this.w.runs.first?.result;
    box.textContent = r
      ? `This run, scan phase: ${fmt.format(Math.round(r.lookups_per_s))} lookups/s and ${fmt.format(Math.round(r.scan_pages_per_s))} scan pages/s (warm-up: ${fmt.format(Math.round(r.lookups_per_s_warmup))} lookups/s).`
      : "This run's rates appear when the full run is computed.";
  }
}

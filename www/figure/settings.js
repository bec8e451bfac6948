// The lab's settings: the preset (named in words; the code name stays in the address), every
// slider, the runs per setting, the same run on the command line and a link to this moment.
// What they say comes from the widget's Page (src/ui/page.rs), read as one value.
import * as mp from "../../pkg/midpoint.js";
import { el, setText } from "../util.js";
import { Sliders } from "./sliders.js";

export class Settings {
  constructor(w) {
    this.w = w;
    const id = w.id;
    this.el = el("section", { class: "mp-card mp-settings", "aria-labelledby": `${id}-h2` });
    this.el.innerHTML = `
      <h2 class="mp-h" id="${id}-h2">Settings</h2>
      <div class="mp-presetrow">
        <label for="${id}-preset">Preset</label>
        <select id="${id}-preset" data-ctl="preset"></select>
        <p class="mp-preset-desc"></p>
      </div>
      <div class="mp-slidersbox"></div>
      <div class="mp-ctl mp-ens" data-testid="ensemble">
        <div class="mp-ctl-head"><label for="${id}-runs">Runs per setting</label> <output class="mp-seeds" for="${id}-runs ${id}-seed" data-testid="seed-set"></output></div>
        <div class="mp-ensrow">
          <input type="number" id="${id}-runs" data-ctl="runs" min="1" max="20" step="1" inputmode="numeric" aria-describedby="${id}-ens-help">
          <label for="${id}-seed">numbered from</label>
          <input type="number" id="${id}-seed" data-ctl="seed" min="0" max="1000000000" step="1" inputmode="numeric" aria-describedby="${id}-ens-help">
        </div>
        <p class="mp-help" id="${id}-ens-help">Chance matters here as it did on the server: each setting runs this many times, each run with its own random sequence (its number is the seed of the model's random number generator, so run 4 is the same run every time). The residency plot draws the runs' median curve and band; kept is their median and range, the sweep's points their range.</p>
      </div>
      <p class="mp-cli">The same run on the command line: <code></code></p>
      <p class="mp-share"><button type="button" class="mp-small" data-act="copy">Copy a link to this view</button> <span class="mp-copied" role="status"></span></p>`;
    const $ = (s) => this.el.querySelector(s);
    this.preset = $('[data-ctl="preset"]');
    this.desc = $(".mp-preset-desc");
    this.runsIn = $('[data-ctl="runs"]');
    this.seedIn = $('[data-ctl="seed"]');
    this.seedSet = $(".mp-seeds");
    this.cli = $(".mp-cli code");
    this.copied = $(".mp-copied");
    this.sliders = new Sliders(w);
    $(".mp-slidersbox").replaceWith(this.sliders.el);
    // Presets, named in words and grouped; the main cells first in their group.
    this.preset.append(el("option", { value: "", text: "(custom settings)" }));
    const groups = new Map();
    for (const p of mp.presets()) {
      if (!groups.has(p.group)) {
        const g = el("optgroup", { label: p.group });
        groups.set(p.group, g);
        this.preset.append(g);
      }
      const text = p.seed ? `${p.label} (measured: ${p.seed_short} kept)` : p.label;
      groups.get(p.group).append(el("option", { value: p.name, text, title: p.name }));
    }
    this.preset.addEventListener("change", () => {
      if (this.preset.value) w.pickPreset(this.preset.value);
      this.sliders.render(true);
    });
    this.runsIn.addEventListener("change", () => {
      const n = Number(this.runsIn.value);
      w.setRuns(Number.isFinite(n) ? n : w.view.runs);
      this.runsIn.value = w.view.runs;
    });
    this.seedIn.addEventListener("change", () => {
      const v = Math.round(Number(this.seedIn.value));
      if (!Number.isFinite(v) || v < 0) {
        this.seedIn.value = w.view.seed;
        return;
      }
      if (v !== w.view.seed) w.setSeed(v);
      this.seedIn.value = w.view.seed;
    });
  }

  paramsChanged(v) {
    this.sliders.paramsChanged(v);
    this.preset.value = v.preset ?? "";
    setText(this.desc, v.preset_words);
    setText(this.cli, v.cli);
    if (document.activeElement !== this.runsIn) this.runsIn.value = v.runs;
    if (document.activeElement !== this.seedIn) this.seedIn.value = v.seed;
    setText(this.seedSet, v.runs_words);
  }

  runs() {
    this.sliders.runs();
  }

  act(name) {
    if (name === "copy") this.copyLink();
  }

  async copyLink() {
    const w = this.w;
    w.writeUrl();
    let url = location.href;
    if (!w.syncUrl) {
      const u = new URL(location.href);
      u.search = w.page.address(w.momentEv(), w.keepAt());
      url = u.href;
    }
    try {
      await navigator.clipboard.writeText(url);
      this.copied.textContent = w.status?.mode === "paused" && w.status.events > 0 ? "Copied: the link opens at this moment." : "Copied.";
    } catch {
      this.copied.textContent = url;
    }
  }
}

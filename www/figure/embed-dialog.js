// A figure's Embed dialog: the snippets (an iframe that fits the figure without a script in the
// host page, and the custom element) of that figure at this moment, written by the widget's Page
// (src/ui/page.rs). The dialog belongs to the widget's root, never to a part that can be hidden,
// so it always opens visible; Escape or Close closes it. Loaded when a reader first presses Embed
// (embed-button.js).
import { el } from "../util.js";
import { EMBED_HEIGHT, EMBED_VIEWS } from "./sizes.js";

let nextDialog = 0;

export class EmbedDialog {
  /** `views`: the figures it embeds (a select when several, the first by default); `button`:
   *  the Embed button, focused again on close. */
  constructor(w, views, button) {
    this.w = w;
    this.views = views;
    this.button = button;
    this.build();
  }

  build() {
    const w = this.w;
    const id = `${w.id}-emb${nextDialog++}`;
    const d = el("dialog", { class: "mp-dialog", "data-testid": "embed-dialog", "data-own-acts": "", "aria-labelledby": `${id}-h` });
    const pick =
      this.views.length > 1
        ? `<label for="${id}-view">Figure</label><select id="${id}-view" data-ctl="embed-view">${EMBED_VIEWS.filter(([v]) => this.views.includes(v))
            .map(([v, label]) => `<option value="${v}">${label}</option>`)
            .join("")}</select>`
        : "";
    d.innerHTML = `
      <h2 class="mp-h" id="${id}-h">Embed this figure</h2>
      <p class="mp-dlg-what">This figure, at this moment and with these settings: the snippets carry every parameter that differs from the preset, so the embed keeps showing this run. The iframe is sized to hold the figure at any width up to 800 px, with no script in your page. <a class="mp-howto" target="_blank" rel="noopener">How to paste it into WordPress, Ghost or Hugo</a>.</p>
      ${pick}
      <label for="${id}-iframe">An <code>&lt;iframe&gt;</code> (works anywhere HTML is allowed)</label>
      <textarea id="${id}-iframe" class="mp-snippet" data-testid="embed-snippet" readonly rows="3" spellcheck="false"></textarea>
      <p class="mp-dlgrow"><button type="button" class="mp-small" data-dlg="copy-iframe">Copy the iframe</button> <span class="mp-copied" role="status"></span></p>
      <label for="${id}-el">A custom element (one script per page; several figures can share it)</label>
      <textarea id="${id}-el" class="mp-snippet" data-testid="embed-element" readonly rows="4" spellcheck="false"></textarea>
      <p class="mp-dlg-what" data-testid="embed-element-note" hidden></p>
      <p class="mp-dlgrow"><button type="button" class="mp-small" data-dlg="copy-element">Copy the element</button> <span class="mp-copied" role="status"></span></p>
      <p class="mp-dlgrow mp-dlgclose"><button type="button" data-dlg="close" data-act="embed-close" data-testid="embed-close">Close</button></p>`;
    this.dialog = d;
    this.select = d.querySelector("select");
    this.iframe = d.querySelector(`#${id}-iframe`);
    this.element = d.querySelector(`#${id}-el`);
    d.querySelector(".mp-howto").href = new URL("../docs/embedding.html", w.base).href;
    this.select?.addEventListener("change", () => this.fill());
    d.addEventListener("click", (e) => {
      const b = e.target.closest("button[data-dlg]");
      if (!b) return;
      if (b.dataset.dlg === "close") d.close();
      else if (b.dataset.dlg === "copy-iframe") this.copy(this.iframe, b.nextElementSibling);
      else this.copy(this.element, b.nextElementSibling);
    });
    d.addEventListener("close", () => this.button.focus());
    w.root.append(d);
  }

  open() {
    if (this.select) this.select.value = this.views[0];
    this.fill();
    for (const c of this.dialog.querySelectorAll(".mp-copied")) c.textContent = "";
    this.dialog.showModal();
  }

  fill() {
    const view = this.select?.value ?? this.views[0];
    const s = this.w.snippets(view, EMBED_HEIGHT[view] ?? 520);
    if (!s) return;
    this.iframe.value = s.iframe;
    this.element.value = s.element;
    this.dialog.dataset.view = view;
    this.checkCors();
  }

  /** The element loads its module and WASM from this host: a page on another origin can only
   *  if this host answers with Access-Control-Allow-Origin. Says so when it does not. */
  async checkCors() {
    const note = this.dialog.querySelector("[data-testid=embed-element-note]");
    // A GET read to its end: Chromium reports a HEAD answered without a body as aborted.
    this.cors ??= fetch(new URL("../pkg/source-hash", this.w.base), { cache: "no-store" })
      .then(async (r) => {
        await r.arrayBuffer();
        return r.headers.get("access-control-allow-origin") === "*";
      })
      .catch(() => true);
    const ok = await this.cors;
    this.dialog.dataset.elementCors = ok ? "1" : "0";
    note.hidden = ok;
    note.textContent = ok
      ? ""
      : `This host (${new URL(this.w.base).host}) sends no Access-Control-Allow-Origin header, so the element works only on pages of this same host: a blog elsewhere cannot load its module. Paste the iframe there, or serve these files with that header (see How to paste).`;
  }

  /** Copies textarea `area`'s snippet; where the clipboard is refused (an iframe without the
   *  permission), selects it for the reader's own copy and says so. */
  async copy(area, out) {
    try {
      await navigator.clipboard.writeText(area.value);
      out.textContent = "Copied.";
      out.dataset.copy = "clipboard";
    } catch {
      area.focus();
      area.select();
      let done = false;
      try {
        done = document.execCommand("copy");
      } catch {}
      out.textContent = done ? "Copied." : "The snippet is selected: press Ctrl+C (⌘C on a Mac) to copy it.";
      out.dataset.copy = done ? "command" : "selected";
    }
  }
}

// <midpoint-explainer>: the explainer widget as a custom element, for blogs and course pages.
//
//   <script type="module" src="https://…/www/embed.js"></script>
//   <midpoint-explainer preset="seed000-hot4485-b2b" lru-scan-depth="128"></midpoint-explainer>
//
// Every attribute but HTML's own (class, id, style, aria-*, data-*…) is read as a URL
// parameter of the full page (dashes or underscores, with or without innodb_), with the same
// clamping messages. Each element runs its own simulation in its own shadow root; an element
// off screen pauses its playback and its drawing.
import * as mp from "../pkg/midpoint.js";
import { boot, startFailure } from "./boot.js";
import { mountWidget } from "./figure/mount.js";
import { EMBED_HEIGHT } from "./figure/sizes.js";

// The article's Beyond figures (beyond.js): not widgets; their markup is the article's own.
const BEYOND_VIEWS = ["pair", "scale", "phase"];

// The figures' styles, then the pages' (the element can show the lab or the presentation).
const styleUrls = ["./style.css", "./page.css"].map((f) => new URL(f, import.meta.url).href);

// Embedded pages in iframes (the Embed dialog's other snippet) report their height; the iframe
// that sent it takes it, so a page with this script fits every midpoint iframe to its figure.
addEventListener("message", (e) => {
  const h = e.data?.type === "midpoint-height" ? Number(e.data.height) : NaN;
  if (!(h > 0 && h < 5000)) return;
  for (const f of document.querySelectorAll("iframe")) if (f.contentWindow === e.source) f.style.height = `${h}px`;
});

class MidpointExplainer extends HTMLElement {
  connectedCallback() {
    if (this.started) return;
    this.started = true;
    this.start().catch((e) => {
      console.error(e);
      const p = document.createElement("p");
      p.className = "mp-alert";
      p.setAttribute("role", "alert");
      p.textContent = startFailure(e);
      this.shadowRoot?.append(p);
    });
  }

  async start() {
    const shadow = this.shadowRoot ?? this.attachShadow({ mode: "open" });
    const links = styleUrls.map((href) => {
      const link = document.createElement("link");
      link.rel = "stylesheet";
      link.href = href;
      return link;
    });
    const loaded = links.map(
      (link) =>
        new Promise((resolve) => {
          link.onload = resolve;
          link.onerror = resolve;
        }),
    );
    const root = document.createElement("div");
    shadow.replaceChildren(...links, root);
    const kind = (this.getAttribute("view") ?? "").trim().toLowerCase();
    if (BEYOND_VIEWS.includes(kind)) return this.startBeyond(kind, root, loaded);
    const [env] = await Promise.all([boot(), ...loaded]);
    const names = this.getAttributeNames();
    const query = mp.attributes_query(names, names.map((n) => this.getAttribute(n) ?? ""));
    root.dataset.query = query;
    this.app = await mountWidget(root, env, { query, embedded: true });
    this.dataset.ready = "1";
    this.dispatchEvent(new CustomEvent("midpoint-ready", { bubbles: true }));
  }

  /** A Beyond figure (view="pair|scale|phase"): its markup from the article (index.html, from
   *  this script's host), started alone at its embed height; the pair's patch in `whatif`. */
  async startBeyond(kind, root, loaded) {
    const [env, html] = await Promise.all([
      boot(),
      fetch(new URL("./index.html", import.meta.url)).then((r) => {
        if (!r.ok) throw new Error(`index.html answered ${r.status}`);
        return r.text();
      }),
      ...loaded,
    ]);
    const src = new DOMParser().parseFromString(html, "text/html").querySelector(`[data-beyond="${kind}"]`);
    if (!src) throw new Error(`no figure '${kind}' in the article`);
    const fig = document.importNode(src, true);
    fig.classList.add("bf-alone");
    fig.style.height = `${EMBED_HEIGHT[kind]}px`;
    root.className = "mp mp-embed";
    root.dataset.view = kind;
    root.append(fig);
    const { startBeyondFigure } = await import("./beyond.js");
    const whatif = this.getAttribute("whatif");
    startBeyondFigure(fig, env, null, { embedded: true, query: whatif ? `whatif=${encodeURIComponent(whatif)}` : "" });
    this.beyond = fig;
    this.dataset.ready = "1";
    this.dispatchEvent(new CustomEvent("midpoint-ready", { bubbles: true }));
  }

  disconnectedCallback() {
    this.app?.setVisible(false);
  }

  /** Counts and state, as window.__midpoint.debug() gives for the full page. */
  debug() {
    return this.app?.debug();
  }
}

if (!customElements.get("midpoint-explainer")) customElements.define("midpoint-explainer", MidpointExplainer);

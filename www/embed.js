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

// The figures with a poster (www/posters/, scripts/posters.sh) and the moments (`at=`) they have
// one for; the settings an Embed dialog's element snippet names at their defaults change none.
// The same rule as the head script of index.html and lab.html (an iframe's poster).
const POSTER_AT = { strip: ["", "scan", "batch", "watch"], grid: ["", "scan", "batch", "watch"], residency: [""], sweep: [""], write: [""], policies: [""], pair: [""], scale: [""], phase: [""] };
const POSTER_DEFAULTS = {
  "": { preset: "seed000-hot4485-b2b" },
  write: { preset: "seed000-hot4485-b2b", write_preset: "seed001-16thd-dblwr128", write_depth: "312", write_pages: "128" },
  pair: { preset: "seed000-hot4485-b2b", whatif: "free-frames-count-as-old" },
};
// HTML's own attributes, which the element does not read as settings (src/ui/embed.rs).
const HTML_OWN = /^(id|class|style|title|lang|dir|hidden|tabindex|slot|part|role|is|inert|translate|draggable|spellcheck|contenteditable|autofocus|nonce|exportparts|popover)$|^(aria-|data-|on)/;

/** The poster's address for element `host` showing figure `view` at `width` CSS px, or null:
 *  only a figure as it opens, its settings unchanged. */
function posterUrl(host, view, width) {
  const moments = POSTER_AT[view];
  if (!moments) return null;
  const defaults = POSTER_DEFAULTS[view] ?? POSTER_DEFAULTS[""];
  let at = "";
  for (const n of host.getAttributeNames()) {
    const name = n.trim().toLowerCase();
    if (HTML_OWN.test(name)) continue;
    const k = name.replaceAll("-", "_").replace(/^innodb_/, "");
    const v = (host.getAttribute(n) ?? "").trim();
    if (k === "view") continue;
    if (k === "at") at = v.toLowerCase();
    else if (defaults[k] !== v) return null;
  }
  if (!moments.includes(at)) return null;
  return new URL(`./posters/${view}${at ? `-${at}` : ""}-${width < 600 ? 390 : 800}.webp`, import.meta.url).href;
}

/** Shows the poster `url` over `root` (its box at `height` px) at once, before any style sheet. */
function showPoster(root, url, height) {
  root.style.height = `${height}px`;
  root.style.position = "relative";
  root.style.overflow = "hidden";
  const img = document.createElement("img");
  img.className = "mp-poster";
  img.alt = "";
  img.src = url;
  img.setAttribute("data-testid", "figure-poster");
  img.setAttribute("fetchpriority", "high");
  img.style.cssText = "position:absolute;left:0;top:0;width:100%;height:100%;object-fit:contain;object-position:center top;z-index:5;background:var(--card,transparent)";
  img.onerror = () => dropNow(root);
  root.append(img);
}

function dropNow(root) {
  root.querySelector(":scope > .mp-poster")?.remove();
  root.style.position = "";
  root.style.overflow = "";
}

/** Takes `root`'s poster down once `done()` (the live figure drawn at the poster's moment: its
 *  root's data-at-moment, widget.js or beyond.js), as main.js does in an iframe. */
function dropPoster(root, done) {
  if (!root.querySelector(":scope > .mp-poster")) return;
  if (done()) return dropNow(root);
  const watch = new MutationObserver(() => {
    if (!done()) return;
    watch.disconnect();
    dropNow(root);
  });
  watch.observe(root, { subtree: true, attributes: true, attributeFilter: ["data-min-font-px", "data-at-moment"] });
}

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
    // A block from the start (style.css says so too, once loaded): the poster fits its width.
    const host = document.createElement("style");
    host.textContent = ":host { display: block; }";
    shadow.replaceChildren(host, ...links, root);
    const kind = (this.getAttribute("view") ?? "").trim().toLowerCase();
    // The figure's poster in its box at once, until the live figure has drawn its moment.
    const poster = posterUrl(this, kind, this.getBoundingClientRect().width || innerWidth);
    if (poster) showPoster(root, poster, EMBED_HEIGHT[kind]);
    if (BEYOND_VIEWS.includes(kind)) return this.startBeyond(kind, root, loaded);
    const [env] = await Promise.all([boot(), ...loaded]);
    const names = this.getAttributeNames();
    const query = mp.attributes_query(names, names.map((n) => this.getAttribute(n) ?? ""));
    root.dataset.query = query;
    this.app = await mountWidget(root, env, { query, embedded: true });
    dropPoster(root, () => root.dataset.atMoment === "1" && root.querySelector("canvas[data-min-font-px]") !== null);
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
    dropPoster(root, () => fig.dataset.atMoment === "1");
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

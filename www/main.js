// Entry point of the full page (the article, www/index.html, and the lab, www/lab.html): load
// the WASM module once, then mount one widget per [data-midpoint] element (figure/mount.js),
// the "Beyond" figures, the predict-then-reveal boxes and, on the lab's page, the "Your server"
// panel; the last three's scripts only on a page that has them (an embed has none).
import { boot, startFailure } from "./boot.js";
import { mountWidget } from "./figure/mount.js";
import { controlKeeps, loadSurface } from "./figure/widget.js";

// reveal.js's postMessage API call for a key an embed gives its host (as reveal.js's keys do).
const REVEAL_METHODS = { ArrowRight: "right", ArrowLeft: "left", ArrowDown: "down", ArrowUp: "up", PageDown: "next", PageUp: "prev" };

const search = new URLSearchParams(location.search);
// On ?embed=1 the page shows only the widget that reads the address: the article's figures
// and prose go, and the figure fills the iframe's height.
const flag = search.get("embed");
const embedded = flag !== null && !["0", "false", "no", "off"].includes(flag.trim().toLowerCase());
const view = (search.get("view") ?? "").trim().toLowerCase();
// An embedded Beyond figure (view=pair|scale|phase): that figure alone, which fills the
// iframe's height (figure/sizes.js) and scrolls inside it past that; no widget.
const beyondFig = embedded && ["pair", "scale", "phase"].includes(view) ? document.querySelector(`[data-beyond="${view}"]`) : null;
if (embedded) {
  document.documentElement.classList.add("mp-embed-page");
  if (beyondFig) {
    const { EMBED_HEIGHT } = await import("./figure/sizes.js");
    const own = EMBED_HEIGHT[view];
    beyondFig.classList.add("bf-alone");
    beyondFig.style.height = `${window.parent !== window ? window.innerHeight : Math.min(window.innerHeight, own)}px`;
    if (window.parent !== window) addEventListener("resize", () => (beyondFig.style.height = `${window.innerHeight}px`));
    document.querySelector("main").prepend(beyondFig);
    for (const r of document.querySelectorAll("[data-midpoint]")) r.remove();
  }
  for (const r of document.querySelectorAll("[data-midpoint][data-query]")) (r.closest("figure") ?? r).remove();
  for (const a of document.querySelectorAll(".explain, [data-beyond]")) if (a !== beyondFig) a.remove();
  // In an iframe, tell the host page the figure's height whenever it changes, so a host that
  // listens (embed.js, or the one-line listener in docs/embedding.md) can fit the iframe to it.
  if (window.parent !== window) {
    let last = 0;
    new ResizeObserver(() => {
      const height = Math.ceil(document.body.getBoundingClientRect().bottom);
      if (height === last) return;
      last = height;
      window.parent.postMessage({ type: "midpoint-height", height }, "*");
    }).observe(document.body);
    // The keys the figure and its controls do not use go to the host page (after their
    // listeners: on the window), as a message and reveal.js's call (docs/embedding.md).
    addEventListener("keydown", (e) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || e.isComposing) return;
      if (e.key === "Tab" || e.key === "Enter") return;
      if (controlKeeps(e.target, e.key, false) || document.querySelector("dialog[open]")) return;
      window.parent.postMessage({ type: "midpoint-key", key: e.key, code: e.code, shiftKey: e.shiftKey }, "*");
      const method = REVEAL_METHODS[e.key];
      if (method) window.parent.postMessage(JSON.stringify({ method, args: [] }), "*");
    });
  }
}

// ?view=present: the classroom's presentation, the close-up and the story's beats scaled to the
// screen; only the widget that reads the address stays.
if (view === "present") {
  document.documentElement.classList.add("mp-present-page");
  for (const r of document.querySelectorAll("[data-midpoint][data-query]")) (r.closest("figure") ?? r).remove();
  for (const a of document.querySelectorAll(".explain")) a.remove();
}

// ?view=handout: the classroom's printable handout (handout.js) in place of the page; no
// simulator starts.
if (view === "handout") {
  for (const r of document.querySelectorAll("[data-midpoint], [data-testid=status-panel]")) r.remove();
  (await import("./handout.js")).showHandout(document);
}

// Long figure captions fold to their first lines on a phone, with a button for the rest (CSS
// decides when: .mp-clamp only clamps on a narrow screen).
for (const cap of document.querySelectorAll(".explain figure > figcaption")) {
  cap.classList.add("mp-clamp");
  const more = document.createElement("button");
  more.type = "button";
  more.className = "mp-more";
  more.textContent = "More of the caption";
  more.setAttribute("aria-expanded", "false");
  more.addEventListener("click", () => {
    const open = cap.classList.toggle("mp-open");
    more.setAttribute("aria-expanded", String(open));
    more.textContent = open ? "Less" : "More of the caption";
  });
  cap.after(more);
}

// The widget that reads the address (the lab) comes first in window.__midpoint.apps.
const roots = [...document.querySelectorAll("[data-midpoint]")].sort((a, b) => (a.dataset.query === undefined ? 0 : 1) - (b.dataset.query === undefined ? 0 : 1));

// An embedded figure's poster (lab.html) stays over its box until the live figure has drawn at
// the poster's moment: a canvas of the figure carries data-min-font-px once drawn (util.js,
// markFont), the widget's root data-at-moment once at its opening moment (widget.js; a Beyond
// figure's own root, beyond.js).
function dropPoster(root) {
  const poster = root.querySelector(":scope > .mp-poster");
  if (!poster) return;
  const drawn = () => root.dataset.atMoment === "1" && root.querySelector("canvas[data-min-font-px]") !== null;
  if (drawn()) return poster.remove();
  const watch = new MutationObserver(() => {
    if (!drawn()) return;
    watch.disconnect();
    poster.remove();
  });
  watch.observe(root, { subtree: true, attributes: true, attributeFilter: ["data-min-font-px", "data-at-moment"] });
}

function fail(msg, where = roots) {
  for (const r of where) {
    r.innerHTML = "";
    const p = document.createElement("p");
    p.className = "mp-alert";
    p.setAttribute("role", "alert");
    p.textContent = msg;
    r.append(p);
  }
}

// The widgets started so far; the article's "predict, then watch your guess" moments play the
// answer in the figure that follows them.
const apps = [];
if (document.querySelector("[data-predict]")) import("./predict.js").then((m) => m.bindPredict(() => apps));

try {
  // The committed sweep, fetched with the module: the sweep figures open drawn from it. An
  // embedded figure other than the sweep (or the lab, which holds one) has no use for it.
  const sweep =
    !embedded || view === "sweep" || view === "lab" || view === ""
      ? import("./figure/data.js").then((m) => m.data("sweep")).catch(() => null)
      : null;
  const env = await boot();
  await sweep;
  const mount = async (root) => {
    const own = root.dataset.query === undefined;
    apps.push(await mountWidget(root, env, { query: own ? location.search : root.dataset.query, syncUrl: own }));
    dropPoster(root);
  };
  // The lab starts at once; the article's figures when they come near the screen, so that a
  // phone runs only the simulations it shows.
  const lazy = new IntersectionObserver(
    (entries) => {
      for (const en of entries) {
        if (!en.isIntersecting) continue;
        lazy.unobserve(en.target);
        mount(en.target).catch((e) => {
          console.error(e);
          fail(`The simulator could not start: ${e?.message ?? e}.`, [en.target]);
        });
      }
    },
    { rootMargin: "400px 0px" },
  );
  // The lab first (it is apps[0]), then the figures as they come near.
  for (const root of roots) if (root.dataset.query === undefined) await mount(root);
  for (const root of roots) if (root.dataset.query !== undefined) lazy.observe(root);
  // The "Beyond" figures; a heat-map click runs its cell in the lab (the widget of the address).
  if (document.querySelector("[data-beyond]")) (await import("./beyond.js")).startBeyond(env, apps.find((a) => a.syncUrl) ?? null, { embedded: !!beyondFig, query: location.search });
  // An embedded Beyond figure's poster: until it has drawn at its opening moment (beyond.js).
  if (beyondFig) dropPoster(beyondFig);
  // The lab's "Your server" panel (not in an embed, which hides it).
  const panel = document.querySelector("[data-testid=status-panel]");
  if (panel && !embedded) (await import("./status.js")).mountStatusPanel(panel);
  // A read-only hook for tests and the curious: debug(i) is the i-th widget's debug(), debug(el)
  // that of the widget whose root is or holds the element el (docs/testing.md).
  const widgetOf = (el) => apps.find((a) => a.root === el) ?? apps.find((a) => a.root.contains(el));
  // surface() loads debug()'s reader and resolves once it is there (an embed loads it on demand).
  window.__midpoint = { apps, debug: (i = 0) => (i instanceof Element ? widgetOf(i) : apps[i])?.debug(), surface: loadSurface };
  // The test surface (debug()): the full pages load it before they say ready; an embedded figure
  // loads it when something first asks (a blog post's reader never does).
  if (!embedded) await loadSurface();
  document.documentElement.dataset.midpointReady = "1";
} catch (e) {
  console.error(e);
  fail(startFailure(e));
}

// Small helpers shared by the page's modules.

export const KEYS_HELP =
  "Keyboard: Space play/pause · ← → step back/forward · N next LRU batch · W watch a refill · B boundary step · E drain's end · + − speed · Home reset";

let nextId = 0;

/** A fresh id for a widget ("mp0", "mp1", …), unique on the page. */
export const newId = () => `mp${nextId++}`;

export const fmt = new Intl.NumberFormat("en-US");
export const pct = (x) => (Number.isFinite(x) ? `${Math.round(x * 100)} %` : "–");

export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k === "html") e.innerHTML = v;
    else if (v !== undefined && v !== null && v !== false) e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) e.append(c);
  return e;
}

/** Sets a node's text only when it changed (no layout work for the same words). */
export function setText(node, text) {
  if (node && node.textContent !== text) node.textContent = text;
}

/** Sizes a canvas to `w` × `h` CSS pixels at density `dpr`; returns dpr. */
export function sizeCanvas(canvas, w, h, dpr) {
  const W = Math.round(w * dpr);
  const H = Math.round(h * dpr);
  if (canvas.width !== W) canvas.width = W;
  if (canvas.height !== H) canvas.height = H;
  canvas.style.width = `${w}px`;
  canvas.style.height = `${h}px`;
  return dpr;
}

/** The screen's density, at most 3. */
export const screenDpr = () => Math.min(window.devicePixelRatio || 1, 3);

/** Records on a canvas the smallest font it drew in its last frame, in CSS px, or "none". */
export function markFont(canvas, cssPx) {
  const v = Number.isFinite(cssPx) && cssPx > 0 ? String(Math.round(cssPx * 10) / 10) : "none";
  if (canvas.dataset.minFontPx !== v) canvas.dataset.minFontPx = v;
}

// Small helpers shared by the widget's modules.

export const KEYS_HELP =
  "Keyboard, once the figure has focus (click it or Tab to it): Space play/pause · ← → step back/forward · N next LRU batch · W watch a refill · + − speed · Home reset";

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
    else if (v !== undefined && v !== null && v !== false) e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) e.append(c);
  return e;
}

// The boundary close-up's painter, shared by the close-up (strip.js) and the side-by-side
// what-if figure (../beyond.js). The cells, their eased positions, the follow marks and the
// trails are computed in Rust (src/ui/explorer/strip.rs); this reads them as a Float32Array
// view of WASM memory and draws rectangles. The flags and the view's stride come from Rust
// (strip_constants), not from a copy here.
import * as mp from "../../pkg/midpoint.js";
import { fmt } from "../util.js";

let C = null;
/** The close-up's constants (src/web/page.rs, strip_constants), read once the module is up. */
export function stripConstants() {
  C ??= mp.strip_constants();
  return C;
}

/** The smallest text the close-up draws, CSS px (the page's smallest: 12). */
export const STRIP_FONT_PX = 12;

function css(root, name) {
  return getComputedStyle(root).getPropertyValue(name).trim() || "#888";
}

/** The colours of a close-up, read from the CSS custom properties of `root`. */
export function stripColours(root) {
  return {
    k: [css(root, "--k0"), css(root, "--k1"), css(root, "--k2"), css(root, "--k3"), css(root, "--k4")],
    t: [css(root, "--k0"), css(root, "--t1"), css(root, "--t2"), css(root, "--t3"), css(root, "--t4")],
    text: css(root, "--text"),
    muted: css(root, "--muted"),
    card: css(root, "--card"),
    ringYoung: css(root, "--ring-young"),
    ringOld: css(root, "--ring-old"),
    flash: css(root, "--flash"),
    focus: css(root, "--focus"),
    // A mark that tells the hot set from the scan without colour (projector mode, the handout).
    dots: getComputedStyle(root).getPropertyValue("--hot-dots").trim() === "1",
  };
}

/**
 * Paints one frame of a boundary close-up on `ctx`: `v` holds its `n` cell numbers (a view of
 * WASM memory, `stride` per cell) and `m` its meta (`strip_meta()`), `sc` the colours, `dpr` the
 * device pixel ratio. Returns the smallest font it drew, in CSS px.
 */
export function paintStrip(ctx, v, n, m, sc, dpr) {
  const c = stripConstants();
  const L = m.layout;
  const px = STRIP_FONT_PX;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, ctx.canvas.width / dpr, ctx.canvas.height / dpr);
  ctx.font = `${px}px system-ui, sans-serif`;
  ctx.textBaseline = "middle";
  // The row labels go on top of the cells, each on a card-coloured backing: mid-drain, cells in
  // flight to the head cross the label rows, and drawn under them the text stayed readable.
  const line = (y, left, right) => {
    const put = (text, x, align) => {
      ctx.textAlign = align;
      const w = ctx.measureText(text).width;
      ctx.fillStyle = sc.card;
      ctx.globalAlpha = 0.88;
      ctx.fillRect(align === "left" ? x - 2 : x - w - 2, y - 8, w + 4, 16);
      ctx.globalAlpha = 1;
      ctx.fillStyle = sc.muted;
      ctx.fillText(text, x, y);
    };
    put(left, L.x0, "left");
    if (right) put(right, L.x0 + L.cols * L.pitch - (L.pitch - L.cell), "right");
  };
  const narrow = L.width < 500;
  const labels = () => {
    ctx.font = `${px}px system-ui, sans-serif`;
    line(L.y_head - L.line / 2, "head: young end", narrow ? `young: ${fmt.format(m.young_len)}` : `young sublist: ${fmt.format(m.young_len)} pages`);
    line(L.y_head + L.pitch + L.line / 2, `⋯ ${fmt.format(m.hidden_young)} young pages not drawn ⋯`, narrow ? "" : `list positions ${fmt.format(m.window_from)}–${fmt.format(m.window_to)}`);
    line(L.y_tail - L.line / 2, `⋯ ${fmt.format(m.hidden_old)} old pages not drawn ⋯`, "tail: evicted next");
    line(L.y_free - L.line / 2, `free list: ${fmt.format(m.free_len)} frame${m.free_len === 1 ? "" : "s"}`, m.free_len ? (narrow ? "next read ←" : "the next read takes the leftmost") : "");
  };
  // Trails behind pages the boundary turned young, on their way to the head.
  for (const tr of m.trails) {
    ctx.strokeStyle = sc.ringYoung;
    ctx.globalAlpha = 0.8 * tr.alpha;
    ctx.lineWidth = 2;
    const h = L.cell / 2;
    ctx.beginPath();
    ctx.moveTo(tr.x0 + h, tr.y0 + h);
    const mx = (tr.x0 + tr.x1) / 2 + 30;
    ctx.quadraticCurveTo(mx, (tr.y0 + tr.y1) / 2, tr.x1 + h, tr.y1 + h);
    ctx.stroke();
  }
  ctx.globalAlpha = 1;
  const s = L.cell;
  const stride = c.stride;
  for (let i = 0; i + stride - 1 < n; i += stride) {
    const x = v[i + 1];
    const y = v[i + 2];
    const b = v[i + 3];
    const fl = v[i + 4];
    ctx.globalAlpha = v[i + 5];
    const kind = b & c.kind_mask;
    const old = b & c.old_bit;
    ctx.fillStyle = old ? sc.t[kind] : sc.k[kind];
    ctx.fillRect(x, y, s, s);
    if (old && kind) {
      // Old pages: faded, with a diagonal stroke, as in the grid's hatch.
      ctx.strokeStyle = sc.k[kind];
      ctx.lineWidth = 1;
      ctx.beginPath();
      ctx.moveTo(x + 1, y + s - 1);
      ctx.lineTo(x + s - 1, y + 1);
      ctx.stroke();
    }
    if (sc.dots && kind === 1) {
      ctx.fillStyle = sc.text;
      ctx.beginPath();
      ctx.arc(x + s / 2, y + s / 2, s / 6, 0, 2 * Math.PI);
      ctx.fill();
    }
    if (fl & c.slid) {
      ctx.strokeStyle = sc.ringYoung;
      ctx.lineWidth = 2;
      ctx.strokeRect(x + 1, y + 1, s - 2, s - 2);
      if (fl & c.to_head) {
        ctx.fillStyle = sc.ringYoung;
        ctx.fillRect(x + s / 2 - 2, y + s / 2 - 2, 4, 4);
      }
    }
    if (fl & c.demoted_hot) {
      ctx.strokeStyle = sc.ringOld;
      ctx.lineWidth = 3;
      ctx.strokeRect(x + 1.5, y + 1.5, s - 3, s - 3);
    }
    if (fl & c.lost) {
      ctx.strokeStyle = sc.ringOld;
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.moveTo(x + 3, y + 3);
      ctx.lineTo(x + s - 3, y + s - 3);
      ctx.moveTo(x + s - 3, y + 3);
      ctx.lineTo(x + 3, y + s - 3);
      ctx.stroke();
    }
    if (b & c.flash_bit && kind) {
      ctx.fillStyle = sc.flash;
      ctx.fillRect(x, y + s - 3, s, 3);
    }
    if (fl & c.selected) {
      ctx.strokeStyle = sc.focus;
      ctx.lineWidth = 2;
      ctx.strokeRect(x - 2, y - 2, s + 4, s + 4);
    }
  }
  ctx.globalAlpha = 1;
  labels();
  if (m.boundary) {
    const [bx, by] = m.boundary;
    const gap = L.pitch - L.cell;
    ctx.fillStyle = sc.text;
    ctx.fillRect(bx - gap / 2 - 1.5, by - 4, 3, s + 8);
    const label = "LRU_old ▸ old";
    ctx.font = `600 ${px}px system-ui, sans-serif`;
    const w = ctx.measureText(label).width + 8;
    const lx = Math.min(Math.max(0, bx - gap / 2 - 1.5), L.width - w);
    const ly = by - 4 - 16;
    ctx.fillRect(lx, ly, w, 16);
    ctx.fillStyle = sc.card;
    ctx.textAlign = "left";
    ctx.fillText(label, lx + 4, ly + 8);
  }
  return px;
}

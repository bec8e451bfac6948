// Downloads: a Blob as a file, a canvas as a PNG.
import { el } from "../util.js";

export function download(root, name, blob) {
  const url = URL.createObjectURL(blob);
  const a = el("a", { href: url, download: name, hidden: true });
  root.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function downloadCanvas(root, canvas, name) {
  canvas.toBlob((b) => b && download(root, name, b), "image/png");
}

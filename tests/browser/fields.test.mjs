// Each JS component owns its fields: no module but www/figure/widget.js assigns a field of a
// `Widget` (the components talk through the widget's events and methods, docs/page.md "How the
// page is built"). A static scan, no browser: in www/figure/*.js a widget is `w`, `this.w`,
// `widget` or `app`; in www/*.js (where `w` can be a Worker) `app`, `this.app` or `widget`. An
// assignment (`=`, `+=`, `??=`…, `++`, `--`, `delete`) to `<widget>.<field>` outside
// widget.js fails the test, which names the file, the line and the widget's own fields.
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const www = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../www");

/** The source without its comments (a `//` after `:` is a URL's, kept). */
function stripComments(src) {
  return src.replace(/\/\*[\s\S]*?\*\//g, (m) => m.replace(/[^\n]/g, " ")).replace(/(^|[^:\\])\/\/.*$/gm, "$1");
}

const OP = String.raw`\s*(?:=(?![=>])|\+=|-=|\*=|\/=|%=|\?\?=|\|\|=|&&=|\+\+|--)`;

/** The assignments to a widget's fields in `src`, as [line, receiver, field]. */
export function widgetWrites(src, receivers) {
  const recv = receivers.map((r) => r.replace(".", String.raw`\.`)).join("|");
  const res = [
    new RegExp(String.raw`(?<![\w$.])(${recv})\s*\.\s*([A-Za-z_$][\w$]*)${OP}`, "g"),
    new RegExp(String.raw`(?:\bdelete\s+|(?:\+\+|--)\s*)(?<![\w$.])(${recv})\s*\.\s*([A-Za-z_$][\w$]*)(?![\w$.(\[])`, "g"),
  ];
  const code = stripComments(src);
  const out = [];
  for (const re of res) {
    for (const m of code.matchAll(re)) out.push([code.slice(0, m.index).split("\n").length, m[1], m[2]]);
  }
  return out;
}

test("the scan finds a component's write to a widget's field, and not a read or a deeper write", () => {
  const r = ["w", "this.w"];
  assert.deepEqual(widgetWrites("x;\n  w.pendingAt = null;", r), [[2, "w", "pendingAt"]]);
  assert.deepEqual(widgetWrites("this.w.dirty ||= true; w.n++; delete w.x;", r).map((x) => x[2]).sort(), ["dirty", "n", "x"]);
  assert.deepEqual(widgetWrites("if (w.a === b) w.root.dataset.t = 1; this.w.ex.pause(); c = w.b; // w.z = 1", r), []);
  assert.deepEqual(widgetWrites("const f = (w) => w.x => 1;", r), []);
});

test("no JS module but widget.js assigns a field of a Widget", async () => {
  const own = await readFile(path.join(www, "figure/widget.js"), "utf8");
  const owned = [...new Set([...stripComments(own).matchAll(/\bthis\.([A-Za-z_$][\w$]*)\s*(?:=(?![=>])|\?\?=)/g)].map((m) => m[1]))].sort();
  assert.ok(owned.includes("resumeAfterSeek") && owned.includes("ex"), `widget.js's own fields: ${owned.join(", ")}`);
  const found = [];
  for (const [dir, receivers] of [
    ["figure", ["w", "this.w", "widget", "this.widget", "app", "this.app"]],
    [".", ["app", "this.app", "widget", "this.widget"]],
  ]) {
    for (const f of (await readdir(path.join(www, dir))).filter((f) => f.endsWith(".js"))) {
      const rel = path.join(dir, f);
      if (rel === path.join("figure", "widget.js")) continue;
      const src = await readFile(path.join(www, rel), "utf8");
      for (const [line, recv, field] of widgetWrites(src, receivers)) found.push(`www/${rel}:${line}: ${recv}.${field}`);
    }
  }
  assert.deepEqual(found, [], `fields of Widget written outside widget.js (its own: ${owned.join(", ")}); use a widget method or an event instead`);
});

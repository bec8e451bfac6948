#!/usr/bin/env bash
# Build dist/midpoint.html: the whole explainer in one self-contained HTML file that works
# opened from disk (file://), with no server and no network.
#
#   scripts/build-single.sh [OUT]     (OUT defaults to dist/midpoint.html; dist/ is git-ignored)
#
# It packs the committed pkg/ (run scripts/build-wasm.sh first after changing src/) and www/:
#   - style.css and page.css go into a <style> element; www/data/*.json (the committed figures' data) into
#     globalThis.MIDPOINT_INLINE.data;
#   - the WASM goes in as base64, in globalThis.MIDPOINT_INLINE.wasm; www/boot.js compiles it
#     from there instead of fetching pkg/midpoint_bg.wasm;
#   - the ES modules (pkg/midpoint.js and every module www/main.js imports, www/figure/*.js
#     included) become data: URLs in an import map, their relative imports rewritten to the
#     map's bare names; www/main.js is the inline module that starts the page;
#   - the worker (www/worker.js, with pkg/midpoint.js in front of it as one module) goes in as
#     source text, MIDPOINT_INLINE.worker, as a classic script (Chromium does not start module
#     workers from the blob: URLs of a file:// page): boot.js starts workers from a Blob URL of
#     it, so full runs and sweeps still run off the main thread.
# No JS build tool: this script only concatenates and encodes. The output is deterministic.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
out="${1:-dist/midpoint.html}"
mkdir -p "$(dirname "$out")"

python3 - "$out" <<'PY'
import base64, json, re, sys

out = sys.argv[1]
read = lambda p: open(p, encoding="utf-8").read()
pkg = read("pkg/midpoint.js")
wasm = base64.b64encode(open("pkg/midpoint_bg.wasm", "rb").read()).decode("ascii")

# The page's modules: everything www/main.js reaches through imports (static, or import("./x.js")
# for what only some pages load), each under a bare
# name: "midpoint-pkg" for the bindings, "midpoint-<path>" for www/<path>.js
# ("midpoint-figure/strip" for www/figure/strip.js).
import os.path

IMPORT = re.compile(r'(from|import) "(\.{1,2}/[^"]+\.js)";')
# import("./x.js"): a module loaded when the page needs it, mapped like the static ones.
DYNAMIC = re.compile(r'import\("(\.{1,2}/[^"]+\.js)"\)')

def bare_name(path):
    if path == "pkg/midpoint.js":
        return "midpoint-pkg"
    if not path.startswith("www/"):
        sys.exit(f"build-single: {path} is outside www/: update scripts/build-single.sh")
    return "midpoint-" + path[len("www/"):-len(".js")]

def resolve(importer, target):
    return os.path.normpath(os.path.join(os.path.dirname(importer), target))

def bare_imports(src, path):
    """Rewrites the relative imports of a module to the import map's bare names."""
    src = IMPORT.sub(lambda m: f'{m.group(1)} "{bare_name(resolve(path, m.group(2)))}";', src)
    return DYNAMIC.sub(lambda m: f'import("{bare_name(resolve(path, m.group(1)))}")', src)

modules = {}
todo = ["www/main.js"]
while todo:
    path = todo.pop()
    src = read(path)
    for dep in [resolve(path, m.group(2)) for m in IMPORT.finditer(src)] + [resolve(path, m.group(1)) for m in DYNAMIC.finditer(src)]:
        if dep != "pkg/midpoint.js" and dep not in modules and dep not in todo and dep != "www/main.js":
            todo.append(dep)
    if path != "www/main.js":
        modules[path] = bare_imports(src, path)
main = bare_imports(read("www/main.js"), "www/main.js")
worker_src = read("www/worker.js")
worker_import = 'const bindings = (url) => import(url ?? "../pkg/midpoint.js");'
if worker_import not in worker_src:
    sys.exit("build-single: www/worker.js changed its import line: update scripts/build-single.sh")
# One classic script (Chromium refuses module workers from blob: URLs of a file:// page): the
# bindings without their export keywords, then the worker with the bindings' own names.
classic = re.sub(r"^export (class|function|async function|const|let) ", r"\1 ", pkg, flags=re.M)
classic = re.sub(r"^export \{[^}]*\};?\s*$", "", classic, flags=re.M)
classic = classic.replace("import.meta.url", "self.location.href")
if re.search(r"^\s*(export|import)\b", classic, flags=re.M):
    sys.exit("build-single: pkg/midpoint.js has an import or export this script cannot flatten")
worker_bindings = "const bindings = async () => ({ default: __wbg_init, LiveRunner, Policies, sweep_point, WriteRunner, write_depth_point });"
worker = classic + "\n// ---- www/worker.js ----\n" + worker_src.replace(worker_import, worker_bindings)

def data_url(js):
    return "data:text/javascript;base64," + base64.b64encode(js.encode("utf-8")).decode("ascii")

def script_json(v):
    # JSON inside a <script> element: "</" must not close it.
    return json.dumps(v).replace("</", "<\\/")

importmap = {"imports": {"midpoint-pkg": data_url(pkg), **{bare_name(p): data_url(src) for p, src in sorted(modules.items())}}}
# The "Beyond" figures' committed data (www/beyond.js reads MIDPOINT_INLINE.data before fetching).
inline = {"wasm": wasm, "worker": worker, "data": {n: read(f"www/data/{n}.json") for n in ("scale", "phase", "whatifs", "sweep")}}

html = read("www/index.html")
# Both style sheets, in their order, in one <style> where the page had its <noscript> link; the
# head script's line that writes their links goes.
css = read("www/style.css") + read("www/page.css")
write_links = """document.write('<link rel="stylesheet" href="style.css">' + (alone ? "" : '<link rel="stylesheet" href="page.css">'));"""
if write_links not in html:
    sys.exit("build-single: www/index.html no longer writes its style sheets' links: update scripts/build-single.sh")
html = html.replace(write_links, "")
link = '<noscript><link rel="stylesheet" href="style.css"></noscript>'
entry = '<script type="module" src="main.js"></script>'
for s in (link, entry):
    if s not in html:
        sys.exit(f"build-single: www/index.html no longer has {s}: update scripts/build-single.sh")
html = html.replace(link, "<style>\n" + css.replace("</", "<\\/") + "</style>")
html = html.replace(
    entry,
    "<script>globalThis.MIDPOINT_INLINE = " + script_json(inline) + ";</script>\n"
    + '  <script type="importmap">' + script_json(importmap) + "</script>\n"
    + '  <script type="module">\n' + main.replace("</script", "<\\/script") + "</script>",
)
html = html.replace(
    "Static page, no tracking, works\n      offline once loaded.",
    "This is the single-file build: it works\n      offline, opened straight from disk.",
)
with open(out, "w", encoding="utf-8") as f:
    f.write(html)
print(f"build-single: wrote {out} ({len(html.encode('utf-8')) // 1024} KiB)")
PY

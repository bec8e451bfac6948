#!/usr/bin/env node
// The help pages of the site, generated from their Markdown: docs/classroom.md (the teacher's
// guide), docs/embedding.md (how to paste a figure into a blog) and docs/your-server.md (how to
// paste a server's output into the lab's Your server panel) become docs/*.html, UTF-8 pages with
// `<meta charset="utf-8">` that a browser shows as pages (a raw .md is served without a charset
// and shows "→" as "â†’"). Links between the three go to their .html; the others stay as they are.
//
//   node scripts/docs-html.mjs           writes docs/*.html
//   node scripts/docs-html.mjs --check   exits 1 when a committed page differs from its Markdown
//
// The Markdown these pages use, and no more: headings, paragraphs, lists (nested by indent),
// fenced code, tables, block quotes, inline code, emphasis, links and images. No dependency.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
export const PAGES = ["classroom", "embedding", "your-server"];

const esc = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export function slug(text) {
  return text
    .toLowerCase()
    .replace(/<[^>]*>/g, "")
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .trim()
    .replace(/ /g, "-");
}

function href(u) {
  const m = /^([\w.-]+)\.md(#.*)?$/.exec(u);
  if (m && PAGES.includes(m[1])) return `${m[1]}.html${m[2] ?? ""}`;
  return u;
}

function inline(src) {
  // Code spans first, kept out of the other rules.
  const codes = [];
  let s = src.replace(/(`+)([\s\S]*?[^`])\1(?!`)/g, (_, _t, c) => {
    codes.push(`<code>${esc(c.trim() === "" ? c : c.replace(/^ (.*) $/, "$1"))}</code>`);
    return `\u0000${codes.length - 1}\u0000`;
  });
  s = esc(s);
  s = s.replace(/!\[([^\]]*)\]\(([^)\s]+)\)/g, (_, a, u) => `<img src="${href(u)}" alt="${a}">`);
  s = s.replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_, t, u) => `<a href="${href(u)}">${t}</a>`);
  s = s.replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>");
  s = s.replace(/(^|[^\w*])\*([^*\s][^*]*?)\*(?![\w*])/g, "$1<em>$2</em>");
  s = s.replace(/(^|[^\w])_([^_\s][^_]*?)_(?!\w)/g, "$1<em>$2</em>");
  return s.replace(/\u0000(\d+)\u0000/g, (_, i) => codes[Number(i)]);
}

function table(rows) {
  const cells = (r) =>
    r
      .trim()
      .replace(/^\|/, "")
      .replace(/\|$/, "")
      .split(/(?<!\\)\|/)
      .map((c) => inline(c.trim().replace(/\\\|/g, "|")));
  const head = cells(rows[0]);
  let out = "<table>\n<thead><tr>" + head.map((c) => `<th>${c}</th>`).join("") + "</tr></thead>\n<tbody>\n";
  for (const r of rows.slice(2)) out += "<tr>" + cells(r).map((c) => `<td>${c}</td>`).join("") + "</tr>\n";
  return out + "</tbody>\n</table>\n";
}

/** Markdown (the subset above) to HTML. */
export function render(md) {
  const lines = md.replace(/\r\n/g, "\n").split("\n");
  let out = "";
  let i = 0;
  // The open lists: [{indent, tag}], and whether an item is open at each level.
  const lists = [];
  let para = [];
  const flushPara = () => {
    if (para.length) out += `<p>${inline(para.join("\n"))}</p>\n`;
    para = [];
  };
  const closeLists = (indent = -1) => {
    while (lists.length && lists[lists.length - 1].indent > indent) {
      flushPara();
      out += `</li>\n</${lists.pop().tag}>\n`;
    }
  };
  const ids = new Map();
  while (i < lines.length) {
    const line = lines[i];
    const fence = /^(\s*)(```+|~~~+)\s*(\S*)/.exec(line);
    if (fence) {
      flushPara();
      const ind = fence[1].length;
      if (ind === 0) closeLists();
      const body = [];
      i++;
      while (i < lines.length && !lines[i].trimStart().startsWith(fence[2])) body.push(lines[i++].slice(Math.min(ind, lines[i - 1].length - lines[i - 1].trimStart().length)));
      i++;
      out += `<pre><code${fence[3] ? ` class="language-${esc(fence[3])}"` : ""}>${esc(body.join("\n"))}\n</code></pre>\n`;
      continue;
    }
    if (line.trim() === "") {
      flushPara();
      i++;
      continue;
    }
    const h = /^(#{1,6})\s+(.*?)\s*#*$/.exec(line);
    if (h) {
      flushPara();
      closeLists();
      const text = inline(h[2]);
      let id = slug(h[2].replace(/`/g, ""));
      const n = ids.get(id) ?? 0;
      ids.set(id, n + 1);
      if (n) id = `${id}-${n}`;
      out += `<h${h[1].length} id="${id}">${text}</h${h[1].length}>\n`;
      i++;
      continue;
    }
    if (/^\s*\|/.test(line) && i + 1 < lines.length && /^\s*\|?\s*:?-{3,}/.test(lines[i + 1])) {
      flushPara();
      closeLists();
      const rows = [];
      while (i < lines.length && /^\s*\|/.test(lines[i])) rows.push(lines[i++]);
      out += table(rows);
      continue;
    }
    if (/^>\s?/.test(line)) {
      flushPara();
      closeLists();
      const q = [];
      while (i < lines.length && /^>\s?/.test(lines[i])) q.push(lines[i++].replace(/^>\s?/, ""));
      out += `<blockquote>\n${render(q.join("\n"))}</blockquote>\n`;
      continue;
    }
    const item = /^(\s*)([-*+]|\d+\.)\s+(.*)$/.exec(line);
    if (item) {
      flushPara();
      const indent = item[1].length;
      const tag = /\d/.test(item[2]) ? "ol" : "ul";
      closeLists(indent);
      const top = lists[lists.length - 1];
      if (top && top.indent === indent) {
        out += "</li>\n";
        if (top.tag !== tag) {
          out += `</${lists.pop().tag}>\n<${tag}>\n`;
          lists.push({ indent, tag });
        }
      } else {
        const start = tag === "ol" && item[2] !== "1." ? ` start="${parseInt(item[2], 10)}"` : "";
        out += `<${tag}${start}>\n`;
        lists.push({ indent, tag });
      }
      out += "<li>";
      para.push(item[3]);
      i++;
      // The item's continuation lines (indented, or lazy).
      while (i < lines.length && lines[i].trim() !== "" && !/^\s*([-*+]|\d+\.)\s+/.test(lines[i]) && !/^\s*(```|~~~)/.test(lines[i]) && !/^#/.test(lines[i])) {
        para.push(lines[i++].trim());
      }
      // Inline items: the paragraph is the item's text, without <p>.
      out += inline(para.join("\n"));
      para = [];
      continue;
    }
    // A paragraph line; inside a list, an indented paragraph after a blank line stays in it.
    const ind = line.length - line.trimStart().length;
    if (lists.length && ind <= lists[lists.length - 1].indent) closeLists(ind - 1);
    para.push(line.trim());
    i++;
  }
  flushPara();
  closeLists();
  return out;
}

export function page(name) {
  const md = readFileSync(join(ROOT, "docs", `${name}.md`), "utf8");
  const title = (/^#\s+(.*)$/m.exec(md)?.[1] ?? name).replace(/`/g, "");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${esc(title)} · midpoint</title>
<!-- Generated from docs/${name}.md by scripts/docs-html.mjs: edit the Markdown, then run it. -->
<style>
body { font: 17px/1.55 system-ui, -apple-system, "Segoe UI", sans-serif; max-width: 46rem; margin: 0 auto; padding: 1rem 1.25rem 4rem; color: #1d1d1f; background: #fff; }
@media (prefers-color-scheme: dark) { body { color: #e8e8ea; background: #16171a; } a { color: #8ab4ff; } pre, code { background: #24262b; } th, td { border-color: #444; } }
pre { overflow-x: auto; padding: 0.75rem; background: #f4f4f6; border-radius: 6px; font-size: 0.85em; line-height: 1.4; }
code { font-size: 0.92em; background: #f4f4f6; padding: 0 0.2em; border-radius: 3px; }
pre code { padding: 0; background: none; }
table { border-collapse: collapse; display: block; overflow-x: auto; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.3rem 0.5rem; text-align: left; vertical-align: top; }
img { max-width: 100%; height: auto; }
nav { font-size: 0.9em; margin-bottom: 1.5rem; }
</style>
</head>
<body>
<nav><a href="../www/index.html">midpoint: the article</a> · <a href="../www/lab.html">the lab</a> · <a href="../www/lab.html#your-server">Your server</a> · <a href="classroom.html">the teacher's guide</a> · <a href="embedding.html">embedding a figure</a> · <a href="your-server.html">pasting your server's status</a></nav>
<main>
${render(md)}</main>
</body>
</html>
`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const check = process.argv.includes("--check");
  let stale = [];
  for (const name of PAGES) {
    const file = join(ROOT, "docs", `${name}.html`);
    const html = page(name);
    if (check) {
      let have = "";
      try {
        have = readFileSync(file, "utf8");
      } catch {}
      if (have !== html) stale.push(`docs/${name}.html`);
    } else {
      writeFileSync(file, html);
    }
  }
  if (stale.length) {
    console.error(`docs-html: ${stale.join(", ")} not current with the Markdown: run node scripts/docs-html.mjs`);
    process.exit(1);
  }
}

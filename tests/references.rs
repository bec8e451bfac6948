//! What the documentation and the code's comments point at exists: every repository path they
//! name (`crates/...`, `docs/...`, `scripts/...`), every Markdown link to a local file, every
//! `midpoint SUBCOMMAND` the docs tell a reader to run; every image in `docs/` is shown by some
//! document; and no comment or doc refers to a tracker's issue number (the repository carries no
//! tracker, so such a number points nowhere).
//!
//! A reference may name a placeholder instead of a file (`tests/browser/X.test.mjs`,
//! `crates/<x>/tests/`): a path with `<`, `*`, `{`, `$` or an upper-case `X`/`NAME`/`PATH`/`FILE`
//! segment is a pattern and is not looked up.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

/// Files under `dir` (recursively) whose names end with one of `exts`, skipping build output and
/// installed packages.
fn files(dir: &Path, exts: &[&str], out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        if p.is_dir() {
            if matches!(
                name.as_str(),
                "target" | "node_modules" | "artifacts" | "dist" | ".git" | "pkg" | "corpus"
            ) {
                continue;
            }
            files(&p, exts, out);
        } else if exts.iter().any(|x| name.ends_with(x)) {
            out.push(p);
        }
    }
}

/// The documents: the top-level Markdown (not the CHANGELOG, which is history) and docs/.
fn documents(root: &Path) -> Vec<PathBuf> {
    let mut v = vec![root.join("README.md"), root.join("ARCHITECTURE.md")];
    files(&root.join("docs"), &[".md"], &mut v);
    v
}

/// The code whose comments are read: every source, script and page of the repository.
fn code(root: &Path) -> Vec<PathBuf> {
    let mut v = Vec::new();
    for d in [
        "src", "crates", "www", "tests", "scripts", "fuzz", "examples", ".ci",
    ] {
        files(
            &root.join(d),
            &[
                ".rs", ".js", ".mjs", ".sh", ".py", ".html", ".css", ".toml", "run",
            ],
            &mut v,
        );
    }
    v.push(root.join("Cargo.toml"));
    v
}

fn rel(root: &Path, p: &Path) -> String {
    p.strip_prefix(root).unwrap_or(p).display().to_string()
}

const TOP: [&str; 9] = [
    "crates/",
    "src/",
    "www/",
    "tests/",
    "scripts/",
    "docs/",
    "pkg/",
    "fuzz/",
    "examples/",
];

/// Repository paths named in `text`: tokens starting with a top-level directory, cut at the first
/// character that cannot be part of a path, with trailing punctuation and a `:line` suffix off.
fn paths_in(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (ln, line) in text.lines().enumerate() {
        let b = line.as_bytes();
        let mut i = 0;
        while i < b.len() {
            let at_start = line.is_char_boundary(i)
                && (i == 0
                    || !(b[i - 1].is_ascii_alphanumeric()
                        || matches!(b[i - 1], b'_' | b'.' | b'/' | b'-' | b'@')));
            if at_start {
                if let Some(t) = TOP.iter().find(|t| line[i..].starts_with(**t)) {
                    let mut j = i + t.len();
                    while j < b.len()
                        && (b[j].is_ascii_alphanumeric()
                            || matches!(
                                b[j],
                                b'_' | b'.'
                                    | b'/'
                                    | b'-'
                                    | b'<'
                                    | b'>'
                                    | b'*'
                                    | b'{'
                                    | b'}'
                                    | b'$'
                                    | b','
                            ))
                    {
                        j += 1;
                    }
                    let mut tok = &line[i..j];
                    // A list "a/{b,c}" keeps its braces; a trailing comma or full stop is prose.
                    while tok.ends_with(['.', ',']) {
                        tok = &tok[..tok.len() - 1];
                    }
                    out.push((ln + 1, tok.to_string()));
                    i = j;
                    continue;
                }
            }
            i += 1;
        }
    }
    out
}

fn is_pattern(p: &str) -> bool {
    p.contains(['<', '>', '*', '{', '}', '$', ','])
        || p.split('/').any(|s| {
            let stem = s.split('.').next().unwrap_or("");
            matches!(
                stem,
                "X" | "x" | "NAME" | "PATH" | "FILE" | "DIR" | "OUT" | "N" | "TARGET"
            )
        })
}

/// Whether `p`, named in `file`, exists: from the repository's root, from the crate the file
/// belongs to (a comment in a crate's src/ may name its own tests/ folder), or from the file's
/// folder. What the tests write (tests/browser/artifacts/, ignored by git) is not looked up.
fn exists(root: &Path, file: &Path, p: &str) -> bool {
    let p = p.trim_end_matches('/');
    if p.starts_with("tests/browser/artifacts") {
        return true;
    }
    if root.join(p).exists() {
        return true;
    }
    let mut dir = file.parent();
    while let Some(d) = dir {
        if d.join(p).exists() {
            return true;
        }
        if d.join("Cargo.toml").exists() || d == root {
            break;
        }
        dir = d.parent();
    }
    false
}

#[test]
fn every_path_named_in_docs_and_comments_exists() {
    let root = root();
    let mut missing = Vec::new();
    let mut checked = 0;
    for f in documents(&root).into_iter().chain(code(&root)) {
        let Ok(text) = std::fs::read_to_string(&f) else {
            continue;
        };
        for (ln, p) in paths_in(&text) {
            if is_pattern(&p) {
                continue;
            }
            checked += 1;
            if !exists(&root, &f, &p) {
                missing.push(format!("{}:{ln}: {p}", rel(&root, &f)));
            }
        }
    }
    assert!(
        checked > 200,
        "only {checked} paths found: the scanner is broken"
    );
    assert!(
        missing.is_empty(),
        "{} paths named that do not exist:\n{}",
        missing.len(),
        missing.join("\n")
    );
}

/// Markdown links `[text](target)` to local files, relative to the document.
#[test]
fn every_local_markdown_link_resolves() {
    let root = root();
    let mut missing = Vec::new();
    for f in documents(&root) {
        let text = std::fs::read_to_string(&f).unwrap();
        let dir = f.parent().unwrap();
        let mut rest = text.as_str();
        while let Some(i) = rest.find("](") {
            let after = &rest[i + 2..];
            let end = after.find(')').unwrap_or(after.len());
            let target = after[..end].split_whitespace().next().unwrap_or("");
            rest = &after[end.min(after.len())..];
            let target = target.split('#').next().unwrap_or("");
            if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            if !dir.join(target).exists() {
                missing.push(format!("{}: {target}", rel(&root, &f)));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "links to files that do not exist:\n{}",
        missing.join("\n")
    );
}

#[test]
fn every_image_in_docs_is_shown_by_a_document() {
    let root = root();
    let mut shown_by = String::new();
    for f in documents(&root) {
        shown_by.push_str(&std::fs::read_to_string(f).unwrap());
    }
    // The handout page (www/handout.js) shows docs/handout-*.png; the pages may show others.
    let mut pages = Vec::new();
    files(&root.join("www"), &[".html", ".js"], &mut pages);
    for f in pages {
        shown_by.push_str(&std::fs::read_to_string(f).unwrap());
    }
    let mut unshown = Vec::new();
    let mut images = Vec::new();
    files(
        &root.join("docs"),
        &[".png", ".svg", ".jpg", ".jpeg", ".webp", ".gif"],
        &mut images,
    );
    assert!(!images.is_empty());
    for img in images {
        let name = img.file_name().unwrap().to_string_lossy().into_owned();
        if !shown_by.contains(&name) {
            unshown.push(rel(&root, &img));
        }
    }
    assert!(
        unshown.is_empty(),
        "images in docs/ that no document shows (review screenshots belong in tests/browser/artifacts/shots/):\n{}",
        unshown.join("\n")
    );
}

/// "issue 12", "Issue #39", "issues 36-41": a tracker's number.
fn issue_numbers(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (ln, line) in text.lines().enumerate() {
        let lower = line.to_ascii_lowercase();
        let mut from = 0;
        while let Some(k) = lower[from..].find("issue") {
            let i = from + k;
            from = i + 5;
            if i > 0 && lower.as_bytes()[i - 1].is_ascii_alphanumeric() {
                continue;
            }
            let rest = lower[i + 5..].trim_start_matches('s');
            let rest = rest.trim_start_matches([' ', '#']);
            if rest.starts_with(|c: char| c.is_ascii_digit()) {
                out.push((ln + 1, line.trim().chars().take(100).collect()));
            }
        }
    }
    out
}

#[test]
fn no_issue_numbers_in_code_or_docs() {
    assert_eq!(
        issue_numbers("see issue 12 and Issue #39, issues 36-41").len(),
        3
    );
    assert!(issue_numbers("no issue here, tissue 5").is_empty());
    let root = root();
    let mut found = Vec::new();
    for f in documents(&root).into_iter().chain(code(&root)) {
        if f.ends_with("tests/references.rs") {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&f) else {
            continue;
        };
        for (ln, l) in issue_numbers(&text) {
            found.push(format!("{}:{ln}: {l}", rel(&root, &f)));
        }
    }
    assert!(
        found.is_empty(),
        "issue numbers (the repository has no tracker):\n{}",
        found.join("\n")
    );
}

/// `midpoint SUB` in the docs' code blocks and inline code names a real subcommand.
#[test]
fn every_midpoint_subcommand_in_the_docs_exists() {
    let root = root();
    let help = Command::new(env!("CARGO_BIN_EXE_midpoint"))
        .arg("--help")
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&help.stdout).into_owned();
    // clap lists subcommands as "  name  about" under "Commands:".
    let mut subs = BTreeSet::new();
    let mut in_cmds = false;
    for line in help.lines() {
        if line.starts_with("Commands:") {
            in_cmds = true;
            continue;
        }
        if in_cmds {
            if !line.starts_with("  ") {
                break;
            }
            if let Some(w) = line.split_whitespace().next() {
                subs.insert(w.to_string());
            }
        }
    }
    assert!(
        subs.contains("run") && subs.contains("from-status"),
        "no subcommands read from --help:\n{help}"
    );
    let mut bad = Vec::new();
    for f in documents(&root) {
        let text = std::fs::read_to_string(&f).unwrap();
        let mut fenced = false;
        for (ln, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("```") {
                fenced = !fenced;
                continue;
            }
            for (i, _) in line.match_indices("midpoint ") {
                // Only where a command starts: right after a backtick, after "$ ", or at the
                // start of a line inside a fenced code block.
                let before = &line[..i];
                let starts = before.ends_with('`')
                    || before.ends_with("$ ")
                    || (fenced && before.trim().is_empty());
                if !starts {
                    continue;
                }
                let word = line[i + 9..]
                    .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
                    .next()
                    .unwrap_or("");
                if word.is_empty()
                    || word.starts_with('-')
                    || !word.chars().next().unwrap().is_ascii_lowercase()
                {
                    continue;
                }
                if !subs.contains(word) {
                    bad.push(format!("{}:{}: midpoint {word}", rel(&root, &f), ln + 1));
                }
            }
        }
    }
    assert!(
        bad.is_empty(),
        "commands the docs name that `midpoint --help` does not list ({subs:?}):\n{}",
        bad.join("\n")
    );
}

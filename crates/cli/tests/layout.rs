//! The house's shape, checked over every crate's sources: no file past 800 lines of non-test
//! code, and no circle between modules (no module uses a sibling that uses it back).

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The sources of each crate of the workspace: the explainer's `src/` and each `crates/*/src`.
fn crate_roots() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut roots = vec![root.join("src")];
    let mut crates: Vec<PathBuf> = std::fs::read_dir(root.join("crates"))
        .expect("crates/")
        .map(|e| e.expect("an entry").path().join("src"))
        .filter(|p| p.is_dir())
        .collect();
    crates.sort();
    roots.extend(crates);
    roots
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("a source directory")
        .map(|e| e.expect("an entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// A file's lines without its `#[cfg(test)] mod … { … }` blocks and without comments; a file
/// that is itself a test module (`tests.rs`, `*_tests.rs`) has none.
fn code_lines(path: &Path) -> Vec<String> {
    let name = path.file_name().unwrap().to_string_lossy();
    if name == "tests.rs" || name.ends_with("_tests.rs") {
        return Vec::new();
    }
    let text = std::fs::read_to_string(path).expect("a source file");
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i];
        let next = lines.get(i + 1).map(|s| s.trim_start()).unwrap_or("");
        if l.trim() == "#[cfg(test)]"
            && (next.starts_with("mod ") || next.starts_with("pub mod "))
            && next.ends_with('{')
        {
            // Skip to the line that closes the module at its own indentation.
            let indent = lines[i + 1].len() - next.len();
            let close = format!("{}}}", " ".repeat(indent));
            i += 2;
            while i < lines.len() && lines[i] != close {
                i += 1;
            }
            i += 1;
            continue;
        }
        let t = l.trim_start();
        if !t.starts_with("//") {
            out.push(l.to_string());
        }
        i += 1;
    }
    out
}

/// A file's module path inside its crate (`pool::lru` for `pool/lru.rs` and `pool/lru/mod.rs`).
fn module_path(root: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(root).unwrap().with_extension("");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// The module paths a file's code names: `crate::a::b…`, `crate::{a, b::c}` and `super::…`
/// (relative to the file's parent module).
fn references(module: &[String], code: &[String]) -> BTreeSet<Vec<String>> {
    let mut refs = BTreeSet::new();
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    // `super` of `a::b` (a file `a/b.rs` or `a/b/mod.rs`) is `a`.
    let parent = module[..module.len().saturating_sub(1)].to_vec();
    for line in code {
        for (kw, base) in [("crate::", Vec::new()), ("super::", parent.clone())] {
            let mut rest = line.as_str();
            while let Some(at) = rest.find(kw) {
                let before = rest[..at].chars().last();
                rest = &rest[at + kw.len()..];
                if before.is_some_and(|c| ident(c) || c == ':') {
                    continue;
                }
                if let Some(group) = rest.strip_prefix('{') {
                    let end = group.find('}').unwrap_or(group.len());
                    for item in group[..end].split(',') {
                        let first: String = item.trim().chars().take_while(|&c| ident(c)).collect();
                        if !first.is_empty() {
                            let mut p = base.clone();
                            p.push(first);
                            refs.insert(p);
                        }
                    }
                    continue;
                }
                let mut p = base.clone();
                let mut s = rest;
                loop {
                    let seg: String = s.chars().take_while(|&c| ident(c)).collect();
                    if seg.is_empty() || seg == "self" {
                        break;
                    }
                    p.push(seg.clone());
                    s = &s[seg.len()..];
                    match s.strip_prefix("::") {
                        Some(t) if t.starts_with(|c: char| ident(c)) => s = t,
                        _ => break,
                    }
                }
                refs.insert(p);
            }
        }
    }
    refs
}

#[test]
fn no_file_has_more_than_800_lines_of_code_outside_its_tests() {
    let mut long = Vec::new();
    for root in crate_roots() {
        let mut files = Vec::new();
        rust_files(&root, &mut files);
        for f in files {
            let n = code_lines(&f).len();
            if n > 800 {
                long.push(format!(
                    "{} ({n} lines)",
                    f.strip_prefix(&root).unwrap().display()
                ));
            }
        }
    }
    assert!(long.is_empty(), "past 800 lines of non-test code: {long:?}");
}

#[test]
fn no_module_uses_a_sibling_that_uses_it_back() {
    let mut circles = Vec::new();
    for root in crate_roots() {
        let mut files = Vec::new();
        rust_files(&root, &mut files);
        // Edges between sibling modules: the first level at which two paths part.
        let mut edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
        for f in &files {
            let m = module_path(&root, f);
            for r in references(&m, &code_lines(f)) {
                let k = m.iter().zip(&r).take_while(|(a, b)| a == b).count();
                if k < m.len() && k < r.len() {
                    edges
                        .entry(m[..=k].to_vec())
                        .or_default()
                        .insert(r[..=k].to_vec());
                }
            }
        }
        for (a, bs) in &edges {
            for b in bs {
                if a < b && edges.get(b).is_some_and(|back| back.contains(a)) {
                    circles.push(format!(
                        "{}: {} <-> {}",
                        root.display(),
                        a.join("::"),
                        b.join("::")
                    ));
                }
            }
        }
    }
    assert!(
        circles.is_empty(),
        "modules that use each other: {circles:#?}"
    );
}

/// The checker itself finds a circle and a long file when there is one.
#[test]
fn the_checks_see_what_they_look_for() {
    let m = |s: &str| s.split("::").map(String::from).collect::<Vec<_>>();
    let code = vec![
        "use crate::{fit, report::Table};".to_string(),
        "    let x = super::scenario::apply(y);".to_string(),
        "    mycrate::other::thing();".to_string(),
    ];
    let refs = references(&m("status::fit"), &code);
    assert!(refs.contains(&m("fit")), "{refs:?}");
    assert!(refs.contains(&m("report")), "{refs:?}");
    assert!(refs.contains(&m("status::scenario::apply")), "{refs:?}");
    assert!(
        !refs.iter().any(|r| r.contains(&"other".to_string())),
        "{refs:?}"
    );
    let dir = common::scratch("layout");
    let f = dir.join("a.rs");
    let body: String = (0..900).map(|i| format!("const C{i}: u8 = 0;\n")).collect();
    std::fs::write(
        &f,
        format!("{body}#[cfg(test)]\nmod tests {{\n    fn t() {{}}\n}}\n// a note\n"),
    )
    .unwrap();
    assert_eq!(code_lines(&f).len(), 900);
}

//! The core's floors, checked from its sources (see ARCHITECTURE.md):
//!
//! - `crates/core/src/pool/` refers to nothing in the crate but `clock` and `rng`, in `use` lines, full
//!   `crate::` paths or doc links;
//! - every other module refers only to its own floor or the floors below, and the modules form
//!   no circle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Floors, top first. A module may refer to its own floor and those below. Between crates,
/// Cargo keeps the arrows pointing down (the core depends on no other crate of the workspace);
/// inside the core this test does.
const FLOORS: &[(&str, &[&str])] = &[
    (
        "scenario and simulation",
        &["scenario", "cost", "sim", "engine", "metrics", "cpu", "io"],
    ),
    ("workloads", &["workload"]),
    ("pool", &["pool"]),
    ("base", &["clock", "rng"]),
];

/// Known references that break the rule, each with the reason (none today).
const ALLOWED: &[(&str, &str)] = &[];

fn floor_of(module: &str) -> Option<usize> {
    FLOORS.iter().position(|(_, ms)| ms.contains(&module))
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The top-level module a source file belongs to (`src/pool/lru.rs` → `pool`).
fn module_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap();
    let first = rel
        .components()
        .next()
        .unwrap()
        .as_os_str()
        .to_string_lossy();
    first.trim_end_matches(".rs").to_string()
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Every crate module a text names: `crate::x`, `midpoint::x` (the binary), and the first
/// segment of each path inside `use crate::{...}`.
fn references(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for prefix in ["crate::", "midpoint::"] {
        let mut rest = text;
        while let Some(i) = rest.find(prefix) {
            let before = rest[..i].chars().next_back();
            rest = &rest[i + prefix.len()..];
            if before.is_some_and(is_ident) {
                continue;
            }
            if let Some(group) = rest.strip_prefix('{') {
                // A group: take the first segment after each top-level comma.
                let mut depth = 0;
                let mut seg = String::new();
                let mut at_start = true;
                for c in group.chars() {
                    match c {
                        '{' => depth += 1,
                        '}' if depth == 0 => break,
                        '}' => depth -= 1,
                        ',' if depth == 0 => {
                            at_start = true;
                            continue;
                        }
                        _ => {}
                    }
                    if at_start && depth == 0 {
                        if is_ident(c) {
                            seg.push(c);
                            continue;
                        } else if !seg.is_empty() {
                            out.insert(std::mem::take(&mut seg));
                            at_start = false;
                        }
                    }
                }
                if !seg.is_empty() {
                    out.insert(seg);
                }
            } else {
                let name: String = rest.chars().take_while(|&c| is_ident(c)).collect();
                if !name.is_empty() {
                    out.insert(name);
                }
            }
        }
    }
    out
}

/// Module → modules it refers to, from every file under `src/`.
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in files {
        let m = module_of(&src, &f);
        if m == "lib" {
            continue;
        }
        let text = std::fs::read_to_string(&f).unwrap();
        let refs = references(&text);
        g.entry(m.clone()).or_default().extend(
            refs.into_iter()
                .filter(|r| *r != m && r != "self" && r != "super"),
        );
    }
    g
}

#[test]
fn reference_parser_sees_paths_groups_and_doc_links() {
    let r = references(
        "use crate::clock::{Micros, MS};\nuse crate::{io::Device, scenario::{Params, Start}};\n/// see [`crate::engine`]\nlet x = my_crate::sim::run;",
    );
    let want: BTreeSet<String> = ["clock", "io", "scenario", "engine"]
        .into_iter()
        .map(String::from)
        .collect();
    assert_eq!(r, want);
}

#[test]
fn pool_refers_to_nothing_but_clock_and_rng() {
    let g = graph();
    let pool = &g["pool"];
    let bad: Vec<&String> = pool
        .iter()
        .filter(|m| !["clock", "rng"].contains(&m.as_str()))
        .collect();
    assert!(bad.is_empty(), "src/pool/ refers to {bad:?}");
}

#[test]
fn every_module_has_a_floor_and_refers_only_down() {
    let g = graph();
    let mut bad = Vec::new();
    for (m, refs) in &g {
        let Some(fm) = floor_of(m) else {
            bad.push(format!(
                "module {m} has no floor in FLOORS (and ARCHITECTURE.md)"
            ));
            continue;
        };
        for r in refs {
            if ALLOWED.contains(&(m.as_str(), r.as_str())) {
                continue;
            }
            match floor_of(r) {
                None if g.contains_key(r) => bad.push(format!("{m} → {r}: {r} has no floor")),
                None => {} // not a module of this crate (a field or a crate of the same name)
                Some(fr) if fr < fm => bad.push(format!(
                    "{m} ({}) refers up to {r} ({})",
                    FLOORS[fm].0, FLOORS[fr].0
                )),
                Some(_) => {}
            }
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
}

#[test]
fn modules_form_no_circle() {
    let g = graph();
    // Depth-first search for a back edge, ignoring the allowed references.
    fn visit<'a>(
        m: &'a str,
        g: &'a BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<&'a str, u8>,
        path: &mut Vec<&'a str>,
    ) -> Option<Vec<String>> {
        match state.get(m) {
            Some(2) => return None,
            Some(1) => {
                let i = path.iter().position(|x| *x == m).unwrap();
                let mut c: Vec<String> = path[i..].iter().map(|s| s.to_string()).collect();
                c.push(m.to_string());
                return Some(c);
            }
            _ => {}
        }
        state.insert(m, 1);
        path.push(m);
        if let Some(refs) = g.get(m) {
            for r in refs {
                if ALLOWED.contains(&(m, r.as_str())) || !g.contains_key(r) {
                    continue;
                }
                if let Some(c) = visit(r, g, state, path) {
                    return Some(c);
                }
            }
        }
        path.pop();
        state.insert(m, 2);
        None
    }
    let mut state = BTreeMap::new();
    for m in g.keys() {
        let mut path = Vec::new();
        if let Some(c) = visit(m, &g, &mut state, &mut path) {
            panic!("module circle: {}", c.join(" → "));
        }
    }
}

//! The presets the page offers: every read-only preset (those of MariaDB in their own group),
//! each with what the published experiment measured for its "kept" figure.

use super::query;
use midpoint_core::scenario::{self, Params};
use midpoint_lab::experiments::seed000;
use serde::Serialize;

/// The presets the page lists first, in this order.
pub const MAIN: [&str; 8] = [
    "seed000-hot4485-b2b",
    "seed000-hot4485-b2b-t0",
    "seed000-hot4485-pause2000",
    "seed000-hot4485-b2b-depth128",
    "seed000-hot224-b2b",
    "seed000-cold",
    "seed000-restart-hot4485-b2b",
    "small-demo",
];

/// One preset as the page shows it.
#[derive(Clone, Debug, Serialize)]
pub struct PagePreset {
    pub name: String,
    pub description: String,
    /// What the experiment measured for this cell's "kept", if it published it.
    pub seed: Option<String>,
    /// The same, without its comment ("~100 %").
    pub seed_short: Option<String>,
    /// The same as the caption compares it with the page's runs: "41 % (mean of 3 runs)".
    pub seed_compare: Option<String>,
    /// Whether the page lists it among the main cells.
    pub main: bool,
    /// Its name in words (the code name stays in the URL).
    pub label: String,
    /// Its description, the experiment named by what it measured (not by its code).
    pub page_description: String,
    /// The group the preset list shows it in.
    pub group: &'static str,
    pub params: Params,
}

/// The engine a parameter set follows, as the URL writes it.
pub fn engine_label(p: &Params) -> String {
    p.to_pairs()
        .into_iter()
        .find(|(k, _)| k == "engine")
        .map(|(_, v)| v)
        .unwrap_or_default()
}

/// The page's presets: the main ones first, then the rest in the scenario's order.
pub fn page_presets() -> Vec<PagePreset> {
    let rows = seed000::rows(false);
    let mut v: Vec<PagePreset> = scenario::presets()
        .into_iter()
        // Every read-only preset fits the page's limits and the embeds' (one instance of at
        // most 1 GiB; the test below holds it), so the page and `midpoint presets` list the
        // same ones.
        .filter(|p| query::page_limits(&p.params).1.is_empty())
        .map(|p| {
            let seed = rows
                .iter()
                .find(|r| {
                    r.preset == p.name
                        && r.metric == seed000::Metric::Kept
                        && r.overrides.is_empty()
                })
                .map(|r| r.seed_value.clone())
                .filter(|s| s != "not published");
            let seed_short = seed
                .as_ref()
                .map(|s| s.split(" (").next().unwrap_or(s).to_string());
            let seed_compare = seed.as_ref().map(|s| seed_compare(s));
            PagePreset {
                seed_compare,
                label: label_of(&p.name, &p.description),
                page_description: describe(&p.description),
                group: group_of(&p.name),
                seed_short,
                main: MAIN.contains(&p.name.as_str()),
                name: p.name,
                description: p.description,
                seed,
                params: p.params,
            }
        })
        .collect();
    v.sort_by_key(|p| MAIN.iter().position(|m| *m == p.name).unwrap_or(MAIN.len()));
    v
}

/// The seed's kept figure as the caption compares it: experiment 000 published each cell's
/// kept as the mean of its three runs ("41 %": "41 % (mean of 3 runs)"); a range is its runs'
/// range, and a figure in words stays as it is.
pub fn seed_compare(seed: &str) -> String {
    let plain = seed
        .strip_suffix(" %")
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
    let range = seed.strip_suffix(" %").is_some_and(|n| {
        n.split_once('-').is_some_and(|(a, b)| {
            [a, b]
                .iter()
                .all(|x| !x.is_empty() && x.bytes().all(|b| b.is_ascii_digit()))
        })
    });
    if plain {
        format!("{seed} (mean of 3 runs)")
    } else if range {
        format!("{seed} (the range of its runs)")
    } else {
        seed.to_string()
    }
}

/// The experiments by what they measured, for people (their code names stay in URLs and
/// preset names).
pub const EXPERIMENTS: [(&str, &str); 4] = [
    ("000", "the scan-leak experiment (MySQL 8.4.11)"),
    ("001", "the doublewrite-buffer bug report (#115328)"),
    ("002", "the dump-against-point-selects experiment"),
    ("003", "the full-scan-against-sysbench experiment"),
];

/// A core preset's description with each experiment named by what it measured: "Seed 000: …"
/// reads "The scan-leak experiment (MySQL 8.4.11): …".
pub fn describe(description: &str) -> String {
    let mut s = description.to_string();
    for (code, name) in EXPERIMENTS {
        for (from, to) in [
            (format!("Seed {code}'s "), format!("{}'s ", cap(name))),
            (format!("Seed {code}: "), format!("{}: ", cap(name))),
            (format!("Seed {code}, "), format!("{}, ", cap(name))),
            (format!("seed {code}"), name.to_string()),
        ] {
            s = s.replace(&from, &to);
        }
    }
    s
}

fn cap(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// A preset's name in words.
pub fn label_of(name: &str, description: &str) -> String {
    let fixed = match name {
        "seed000-hot4485-b2b" => Some("The leak: MySQL 8.4's defaults, scans back to back"),
        "seed000-hot4485-b2b-t0" => Some("innodb_old_blocks_time = 0: the time test off"),
        "seed000-hot4485-pause2000" => Some("A 2-second pause between scans"),
        "seed000-hot4485-b2b-depth128" => Some("innodb_lru_scan_depth = 128: small refills"),
        "seed000-hot4485-b2b-depth512" => Some("innodb_lru_scan_depth = 512"),
        "seed000-hot224-b2b" => Some("A small hot set (224 pages)"),
        "seed000-cold" => Some("Cold start: the pool filled by another table"),
        "seed000-restart-hot4485-b2b" => {
            Some("Just after a restart: an empty pool fills up (the growth slide)")
        }
        "small-demo" => Some("A small pool, to watch every page"),
        _ => None,
    };
    if let Some(f) = fixed {
        return f.to_string();
    }
    let d = description
        .strip_prefix("Seed 000: ")
        .map(str::to_string)
        .unwrap_or_else(|| describe(description))
        .replace(", warm start", "");
    let mut c = d.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => name.to_string(),
    }
}

/// The group a preset is listed in.
pub fn group_of(name: &str) -> &'static str {
    if name.starts_with("mariadb-") {
        "MariaDB 10.11 (its own LRU rules)"
    } else if name.starts_with("seed000") {
        "The scan-leak experiment on MySQL 8.4.11: a scan against a hot set"
    } else if name.starts_with("seed00") {
        "Other experiments"
    } else {
        "What-ifs"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn main_presets_come_first_and_all_fit_the_page() {
        let v = page_presets();
        for (i, m) in MAIN.iter().enumerate() {
            assert_eq!(v[i].name, *m);
            assert!(v[i].main);
        }
        assert!(v[MAIN.len()..].iter().all(|p| !p.main));
        for p in &v {
            assert!(query::page_limits(&p.params).1.is_empty(), "{}", p.name);
            assert!(
                midpoint_lab::url::embed_limits(&p.params).1.is_empty(),
                "{}",
                p.name
            );
        }
        // Every read-only preset, in the scenario's order after the main ones.
        let all: Vec<String> = scenario::presets().into_iter().map(|p| p.name).collect();
        let mut names: Vec<String> = v.iter().map(|p| p.name.clone()).collect();
        names.sort();
        let mut want = all.clone();
        want.sort();
        assert_eq!(names, want);
        let maria: Vec<&PagePreset> = v
            .iter()
            .filter(|p| p.name.starts_with("mariadb-"))
            .collect();
        assert_eq!(maria.len(), 4);
        for p in maria {
            assert_ne!(engine_label(&p.params), engine_label(&Params::default()));
            assert_eq!(p.group, group_of("mariadb-seed000-cold"));
            assert_eq!(p.params.lru_scan_depth, 1536);
        }
        let b2b = v.iter().find(|p| p.name == "seed000-hot4485-b2b").unwrap();
        assert!(b2b.seed_short.is_some() && b2b.seed.is_some());
        assert_eq!(b2b.seed_compare.as_deref(), Some("41 % (mean of 3 runs)"));
        assert_eq!(seed_compare("91-93 %"), "91-93 % (the range of its runs)");
        assert_eq!(seed_compare("< 50 % (\"x\")"), "< 50 % (\"x\")");
        assert!(!b2b.seed_short.as_ref().unwrap().contains(" ("));
        // Named in words, grouped; no label or description is a code name.
        for p in &v {
            assert!(
                !p.label.contains("seed0") && !p.label.is_empty(),
                "{}",
                p.label
            );
            assert!(
                !p.page_description.to_lowercase().contains("seed 0")
                    && !p.label.to_lowercase().contains("seed 0")
                    && !p.group.to_lowercase().contains("seed 0"),
                "{}: {} / {} / {}",
                p.name,
                p.label,
                p.page_description,
                p.group
            );
        }
        assert_eq!(group_of("seed000-cold"), group_of(&b2b.name));
        assert_ne!(group_of("small-demo"), group_of(&b2b.name));
    }
}

//! The fit as a table: one row per figure the fit aims at (the server's, the model's, how far
//! apart, whether met) and the sentences under it, for the CLI's text and the page alike.

use super::{Fit, Pair, RATE_FLOOR};
use serde::Serialize;

/// The fit's table, for the CLI's text and the page alike: one row per figure (the server's,
/// the model's, how far apart, whether met), and the sentences under it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Table {
    pub head: Vec<String>,
    pub rows: Vec<Vec<String>>,
    /// What the fit chose and what it could not reach.
    pub lines: Vec<String>,
}

/// The measurement that narrows a forecast over a range of hot sets to one.
pub const NARROW: &str = "The measurement that narrows it to one: the per-table residency (SELECT * FROM sys.innodb_buffer_stats_by_table, or the grouped INNODB_BUFFER_PAGE_LRU query of docs/your-server.md) pasted with the status, and the tables your lookups keep hot marked (--hot-table db.table, or the panel's checkboxes).";

/// The columns of [`Table`].
pub const COLUMNS: [&str; 5] = ["figure", "yours", "model", "apart", "met"];

/// The fit as a [`Table`].
pub fn table(f: &Fit) -> Table {
    let rate = |name: &str, p: &Pair| {
        let apart = match p.server {
            Some(s) if s >= RATE_FLOOR => format!("{:+.0} %", (p.model - s) / s * 100.0),
            Some(s) => format!("{:+.2}/s", p.model - s),
            None => "-".into(),
        };
        let met = match p.server {
            None => "no figure".to_string(),
            Some(_) if f.unmet.iter().any(|u| u == name) => "no".into(),
            Some(_) => "yes".into(),
        };
        vec![
            name.replace("_per_s", "/s").replace('_', "-"),
            p.server.map_or("-".into(), |s| format!("{s:.2}")),
            format!("{:.2}", p.model),
            apart,
            met,
        ]
    };
    let hit = &f.hit_rate;
    let hit_row = vec![
        "hit rate".to_string(),
        hit.server
            .map_or("-".into(), |s| format!("{:.2} %", s * 100.0)),
        format!("{:.2} %", hit.model * 100.0),
        hit.server.map_or("-".into(), |s| {
            format!("{:+.2} points", (hit.model - s) * 100.0)
        }),
        match hit.server {
            None => "no figure".into(),
            Some(_) if f.unmet.iter().any(|u| u == "hit_rate") => "no".into(),
            Some(_) => "yes".into(),
        },
    ];
    let mut lines = Vec::new();
    let chose: Vec<String> = [
        ("hot_pages", format!("a hot set of {} pages", f.hot_pages)),
        (
            "lookups_per_s",
            format!("{:.0} lookups/s (idle)", f.lookups_per_s),
        ),
        (
            "scan_pages_per_s",
            format!("a scan of {:.0} pages/s (idle)", f.scan_pages_per_s),
        ),
    ]
    .into_iter()
    .map(|(k, words)| {
        if f.fitted.iter().any(|x| x == k) {
            format!("{words}, fitted")
        } else if k == "hot_pages" && f.hot_set_from.is_some() {
            format!("{words}, pinned from the per-table residency")
        } else {
            format!("{words}, not fitted")
        }
    })
    .collect();
    let mut chose = chose;
    chose.push(format!(
        "{} page get(s) a scanned page{}",
        f.scan_touches_per_page,
        if f.fitted.iter().any(|x| x == "scan_touches_per_page") {
            ", fitted"
        } else {
            ""
        }
    ));
    if f.lookup_threads > 1 {
        chose.push(format!(
            "{} lookup threads (lookups that wait for reads need more than one)",
            f.lookup_threads
        ));
    }
    lines.push(format!(
        "The scenario as read runs {} ({} simulation(s) of a {}-page pool searched for them).",
        chose.join("; "),
        f.steps,
        f.pool_pages
    ));
    if f.unmet.is_empty() {
        lines.push(
            "Every figure of yours is met: the hit rate within 0.5 points, each rate within 10 %."
                .into(),
        );
    } else {
        lines.push(format!(
            "Not met: {} (the hit rate counts within 0.5 points, a rate within 10 %).",
            f.unmet
                .iter()
                .map(|u| u.replace("_per_s", "/s").replace('_', " "))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if let Some(from) = &f.hot_set_from {
        lines.push(format!("The hot set is pinned: {from}."));
    } else if let Some([lo, hi]) = f.hot_pages_range {
        lines.push(format!(
            "Your counters allow a hot set from {lo} to {hi} pages (the fit's bracket): the forecast is a range over them. {NARROW}"
        ));
    }
    lines.extend(f.notes.iter().cloned());
    Table {
        head: COLUMNS.iter().map(|c| c.to_string()).collect(),
        rows: vec![
            hit_row,
            rate("reads_per_s", &f.reads_per_s),
            rate("youngs_per_s", &f.youngs_per_s),
            rate("non_youngs_per_s", &f.non_youngs_per_s),
        ],
        lines,
    }
}

/// The fit's table as aligned text with its sentences.
pub fn table_text(f: &Fit) -> String {
    let t = table(f);
    let mut w = [0usize; COLUMNS.len()];
    for r in std::iter::once(&t.head).chain(&t.rows) {
        for (i, c) in r.iter().enumerate().take(w.len()) {
            w[i] = w[i].max(c.chars().count());
        }
    }
    let mut out = String::from("fitted to your counters:\n");
    for r in std::iter::once(&t.head).chain(&t.rows) {
        let mut line = String::new();
        for (i, c) in r.iter().enumerate().take(w.len()) {
            if i == 0 {
                line.push_str(&format!("{c:<width$}", width = w[0]));
            } else {
                line.push_str(&format!("  {c:>width$}", width = w[i]));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    for l in &t.lines {
        out.push_str(l);
        out.push('\n');
    }
    out
}

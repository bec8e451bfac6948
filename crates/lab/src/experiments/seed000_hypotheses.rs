//! **Experiment 000's misses under hypotheses from the source.** Each hypothesis is a set of
//! parameter overrides applied to every row of the ledger ([`super::seed000::rows`]); the whole
//! ledger is run again under it, and the table says what it did to every prediction the stock
//! model misses, and to the count in band. `midpoint reproduce --experiment 000 --hypotheses`
//! prints it; docs/reproduction.md ("Open questions") holds it.
//!
//! A hypothesis becomes the default only if the source says InnoDB does it and it breaks no
//! prediction in band; none here does (each row says what the source says).

use super::seed000::{self, Row, RowResult};
use super::table::{Align, Table};
use serde::Serialize;

/// One hypothesis: a name, what the MySQL 8.4 source says of it, and the overrides.
#[derive(Clone, Debug, Serialize)]
pub struct Hypothesis {
    pub name: &'static str,
    /// What the source says (with the function).
    pub source: &'static str,
    /// Overrides applied to every row, after the row's own.
    pub overrides: Vec<(String, String)>,
}

fn h(name: &'static str, source: &'static str, kv: &[(&str, &str)]) -> Hypothesis {
    Hypothesis {
        name,
        source,
        overrides: kv
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
    }
}

/// The hypotheses tried, stock first.
pub fn hypotheses() -> Vec<Hypothesis> {
    vec![
        h("stock (MySQL 8.4 as modelled)", "-", &[]),
        h(
            "(a) a reader that finds the free list empty wakes the page cleaner, which refills at once",
            "not in 8.4: buf_LRU_get_free_block sets buf_flush_event only after its tail scan fails (never in a read-only workload, the tail is clean), and buf_flush_page_coordinator_thread does nothing on a wake without activity (\"no activity, but woken up by event\")",
            &[("what_if", "empty-free-list-wakes-cleaner")],
        ),
        h(
            "(b) 2 % of the frames held outside the LRU (pool 251 MiB instead of 256)",
            "small in 8.4: the adaptive hash index is OFF and change buffering is none by default, and autocommit SELECTs take no lock heap; the LRU rules see only the LRU's length (buf_LRU_old_adjust_len), so frames held outside it act as a smaller pool",
            &[("pool_mb", "251")],
        ),
        h(
            "(b') 5 % of the frames held outside the LRU (pool 243 MiB)",
            "as (b), an upper bound: 800 frames is more than the AHI would hold for these tables if it were on",
            &[("pool_mb", "243")],
        ),
    ]
}

/// The ledger under one hypothesis.
#[derive(Clone, Debug, Serialize)]
pub struct HypothesisResult {
    pub hypothesis: Hypothesis,
    /// Predictions in band, predictions counted.
    pub held: usize,
    pub checked: usize,
    pub results: Vec<RowResult>,
}

/// Runs the ledger's `rows` under every hypothesis, `runs` runs per cell.
pub fn run(
    rows: &[Row],
    runs: u32,
    mut progress: impl FnMut(usize, usize) + Send,
) -> Vec<HypothesisResult> {
    hypotheses()
        .into_iter()
        .map(|hyp| {
            let rows: Vec<Row> = rows
                .iter()
                .map(|r| {
                    let mut r = r.clone();
                    r.overrides.extend(hyp.overrides.iter().cloned());
                    r
                })
                .collect();
            let results = seed000::run_rows(&rows, runs, &mut progress);
            let (held, checked) = seed000::score(&results);
            HypothesisResult {
                hypothesis: hyp,
                held,
                checked,
                results,
            }
        })
        .collect()
}

/// The rows the stock model misses: counted predictions out of band (their indices).
pub fn misses(stock: &[RowResult]) -> Vec<usize> {
    stock
        .iter()
        .enumerate()
        .filter(|(_, r)| r.check.figure.counts() && r.check.holds == Some(false))
        .map(|(i, _)| i)
        .collect()
}

/// The table: one line per hypothesis, one column per stock miss (the simulated mean, and
/// whether it came into band), then the predictions in band; a legend names the misses and
/// what the source says of each hypothesis.
pub fn markdown(all: &[HypothesisResult]) -> String {
    let Some(stock) = all.first() else {
        return String::new();
    };
    let miss = misses(&stock.results);
    let mut head: Vec<(String, Align)> = vec![("hypothesis".into(), Align::Left)];
    for k in 0..miss.len() {
        head.push((format!("M{}", k + 1), Align::Right));
    }
    head.push(("predictions in band".into(), Align::Right));
    let mut t = Table::new(head.iter().map(|(h, a)| (h.as_str(), *a)));
    for hr in all {
        let mut row = vec![hr.hypothesis.name.to_string()];
        for &i in &miss {
            let c = &hr.results[i].check;
            let mark = if c.holds == Some(true) {
                " (in band)"
            } else {
                ""
            };
            let mean = c.simulated.split(" (").next().unwrap_or(&c.simulated);
            row.push(format!("{mean}{mark}"));
        }
        row.push(format!("{} of {}", hr.held, hr.checked));
        t.row(row);
    }
    let mut s = t.markdown();
    s.push('\n');
    for (k, &i) in miss.iter().enumerate() {
        let f = &stock.results[i].check.figure;
        s.push_str(&format!(
            "- M{}: {} (seed {}; band {})\n",
            k + 1,
            f.what,
            f.seed_value,
            f.reason
        ));
    }
    for hr in all.iter().skip(1) {
        s.push_str(&format!(
            "- {}: {}\n",
            hr.hypothesis.name, hr.hypothesis.source
        ));
    }
    s
}

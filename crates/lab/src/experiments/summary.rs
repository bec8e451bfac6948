//! Every experiment in one table: the README's "How close is it?" (`midpoint reproduce --summary
//! --markdown`). Each row's count is [`figure::score`] of the very checks `midpoint reproduce
//! --experiment CODE` prints its score of, computed by the same runs under the same flags (runs
//! per cell, `--quick`), so the README and docs/reproduction.md cannot disagree. The row names
//! the counted misses and the figures shown beside the seed that do not match; the figures an
//! input, the calibration or a capacity sets, and those that do not discriminate, are counted
//! apart.

use super::figure::{self, Check, Expect, Role};
use super::table::{Align, Table};
use super::{mariadb, seed000, seed001, seed002, seed003, seed003_rw, Experiment, ALL};
use serde::Serialize;

/// One experiment's line of the summary.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    pub code: &'static str,
    pub name: &'static str,
    pub measured: &'static str,
    /// Counted predictions in band, and counted predictions ([`figure::score`]).
    pub held: usize,
    pub counted: usize,
    /// The "how close" cell.
    pub how_close: String,
    pub checks: Vec<Check>,
}

/// The checks `midpoint reproduce --experiment CODE` scores, with `runs` runs per cell where the
/// experiment takes them (000, 003) and `quick` as its `--quick`. MariaDB's comparison checks
/// nothing (no measurement exists), so it runs nothing here.
pub fn checks(code: &str, runs: u32, quick: bool) -> Result<Vec<Check>, String> {
    let none = |_: usize, _: usize| {};
    Ok(match code {
        "000" => seed000::checks(&seed000::run_rows(&seed000::rows(!quick), runs, none)),
        "001" => seed001::checks(&seed001::run(none)),
        "002" => {
            // The sweeps' points, each what `seed002::sweep` computes for it (every point is
            // independent of the others), taken at once on every core.
            let threads = seed002::thread_counts(quick);
            let jobs: Vec<(u32, u32)> = [37, 60]
                .iter()
                .flat_map(|&pct| threads.iter().map(move |&n| (pct, n)))
                .collect();
            let points = crate::ensemble::par_map(
                &jobs,
                |&(pct, n)| seed002::sweep(pct, &[n], 1, none).remove(0),
                none,
            );
            let (p37, p60) = points.split_at(threads.len());
            seed002::checks(p37, Some(p60))
        }
        "003" => seed003::checks(&seed003::run(runs, 1, none)),
        "003-rw" => seed003_rw::checks(&seed003_rw::seed003_rw(none)),
        "mariadb" => Vec::new(),
        other => return Err(format!("no summary for experiment {other}")),
    })
}

/// Why an experiment counts no prediction, where that is by design.
fn why_none(code: &str) -> &'static str {
    match code {
        "mariadb" => mariadb::NO_MEASUREMENT,
        _ => "",
    }
}

/// A figure by name, with the seed's value and the simulated one.
fn named(c: &Check) -> String {
    format!(
        "{} (seed {}, simulated {})",
        c.figure.what, c.figure.seed_value, c.simulated
    )
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The "how close" cell: the count of predictions in band, the counted misses, the shown figures
/// that do not match, and what is not counted.
pub fn how_close(checks: &[Check], why_none: &str) -> String {
    let (held, counted) = figure::score(checks);
    let mut s = format!("{held} of {counted} predictions in band");
    if counted == 0 && !why_none.is_empty() {
        s.push_str(&format!(" ({why_none})"));
    }
    let misses: Vec<String> = checks
        .iter()
        .filter(|c| c.figure.counts() && c.holds == Some(false))
        .map(named)
        .collect();
    if !misses.is_empty() {
        s.push_str(&format!("; out: {}", misses.join("; ")));
    }
    let off: Vec<String> = checks
        .iter()
        .filter(|c| {
            c.figure.role == Role::Prediction
                && c.figure.expect == Expect::Shown
                && c.figure.note.starts_with("does not match")
        })
        .map(named)
        .collect();
    if !off.is_empty() {
        s.push_str(&format!(
            "; shown, not checked, and not matching: {}",
            off.join("; ")
        ));
    }
    let mut apart = Vec::new();
    let indiscriminate = checks
        .iter()
        .filter(|c| c.figure.role == Role::Prediction && !c.figure.discriminates())
        .count();
    if indiscriminate > 0 {
        apart.push(plural(
            indiscriminate,
            "that does not discriminate",
            "that do not discriminate",
        ));
    }
    let set: Vec<&Check> = checks
        .iter()
        .filter(|c| c.figure.role != Role::Prediction && c.holds.is_some())
        .collect();
    if !set.is_empty() {
        let n = set.len();
        let noun = if set.iter().all(|c| c.figure.role == Role::Input) {
            plural(n, "input", "inputs")
        } else if set.iter().all(|c| c.figure.role == Role::Calibration) {
            plural(n, "fitted figure", "fitted figures")
        } else if set.iter().all(|c| c.figure.role == Role::Capacity) {
            plural(n, "capacity", "capacities")
        } else {
            format!("{n} inputs, fitted figures and capacities")
        };
        let in_band = set.iter().filter(|c| c.holds == Some(true)).count();
        let held = match (n, in_band) {
            (1, 1) => "in band".to_string(),
            (1, _) => "out of band".to_string(),
            _ => format!("{in_band} in band"),
        };
        apart.push(format!("{noun} ({held})"));
    }
    if !apart.is_empty() {
        s.push_str(&format!("; not counted: {}", apart.join(", ")));
    }
    s
}

fn row(e: &Experiment, checks: Vec<Check>) -> Row {
    let (held, counted) = figure::score(&checks);
    Row {
        code: e.code,
        name: e.name,
        measured: e.measured,
        held,
        counted,
        how_close: how_close(&checks, why_none(e.code)),
        checks,
    }
}

/// Every experiment's row, in [`ALL`]'s order; the experiments run at once (natively on every
/// core; the results do not depend on the thread count). `progress` counts experiments.
pub fn run(
    runs: u32,
    quick: bool,
    progress: impl FnMut(usize, usize) + Send,
) -> Result<Vec<Row>, String> {
    let all = crate::ensemble::par_map(ALL, |e| checks(e.code, runs, quick), progress);
    ALL.iter().zip(all).map(|(e, c)| Ok(row(e, c?))).collect()
}

/// The summary as one Markdown table, each row starting with the experiment's code.
pub fn markdown(rows: &[Row]) -> String {
    let mut t = Table::new([
        ("experiment", Align::Left),
        ("what it measured", Align::Left),
        ("how close", Align::Left),
    ]);
    for r in rows {
        t.row([
            format!("{}: {}", r.code, r.name),
            r.measured.to_string(),
            r.how_close.clone(),
        ]);
    }
    t.markdown()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiments::figure::{check, Figure, Measured};

    #[test]
    fn the_cell_counts_what_the_score_counts() {
        let checks = vec![
            check(
                Figure::within("a", "1", 0.0, 2.0, "r"),
                Measured::Number(1.0),
                "1".into(),
            ),
            check(
                Figure::within("b", "5", 4.0, 6.0, "r"),
                Measured::Number(9.0),
                "9".into(),
            ),
            check(
                Figure::shown("c", "24 %", "does not match: why"),
                Measured::Number(0.79),
                "79 %".into(),
            ),
            check(
                Figure::within("d", "8", 5.0, 11.0, "r").input("a parameter"),
                Measured::Number(7.5),
                "7.5".into(),
            ),
            check(
                Figure::within("e", "100 %", 0.9, 1.0, "r").does_not_discriminate("all do"),
                Measured::Number(1.0),
                "100 %".into(),
            ),
        ];
        assert_eq!(figure::score(&checks), (1, 2));
        assert_eq!(
            how_close(&checks, ""),
            "1 of 2 predictions in band; out: b (seed 5, simulated 9); shown, not checked, and \
             not matching: c (seed 24 %, simulated 79 %); not counted: 1 that does not \
             discriminate, 1 input (in band)"
        );
        assert_eq!(
            how_close(&[], "no measurement"),
            "0 of 0 predictions in band (no measurement)"
        );
    }

    #[test]
    fn every_experiment_has_a_summary() {
        for e in ALL {
            assert!(!e.name.is_empty() && !e.measured.is_empty(), "{}", e.code);
        }
        assert!(checks("mariadb", 1, true).unwrap().is_empty());
        assert!(checks("004", 1, true).is_err());
    }
}

//! The page's leak risk: the runs of [`risk::plan`] for a paste, each row an ensemble of a few
//! seeds ([`risk::page_runs`]), advanced a slice of events at a time so that the page's worker
//! can report progress (and be stopped) between slices; then the table, the advice and the
//! pasted rates as one JSON object. The runs follow the page's limits (`ui::query::page_limits`:
//! at most 1 GiB, one instance), said in `notes`.

use super::risk::{self, Plan, RunRow};
use midpoint_core::clock::Micros;
use midpoint_core::metrics::RunReport;
use midpoint_core::sim::Simulation;
use serde_json::{json, Value as Json};

/// The risk runs of one paste, in progress.
pub struct PageRisk {
    plan: Plan,
    runs: u32,
    runs_note: String,
    notes: Vec<String>,
    pasted: (Option<f64>, Option<f64>),
    /// The row being run and its runs so far.
    job: usize,
    reports: Vec<RunReport>,
    sim: Option<(Simulation, Micros)>,
    rows: Vec<RunRow>,
}

impl PageRisk {
    /// The runs for `text` (`hot_pages` 0: the suggestion), `runs` of each row (0: as many as
    /// [`risk::page_runs`] allows, at most [`midpoint_lab::ensemble::MAX_RUNS`]).
    pub fn new(text: &str, hot_pages: u32, runs: u32) -> Result<PageRisk, String> {
        let (r, s) = super::report::page_scenario(text, hot_pages)?;
        let (p, notes) = crate::ui::query::page_limits(&s.params);
        let plan = risk::plan(&p);
        let (auto, auto_note) = risk::page_runs(&p, plan.len());
        let (runs, runs_note) = match runs {
            0 => (auto, auto_note),
            n => {
                let n = n.min(midpoint_lab::ensemble::MAX_RUNS);
                (
                    n,
                    format!("{n} run(s) of each row, RNG seeds from {}.", p.seed),
                )
            }
        };
        Ok(PageRisk {
            plan,
            runs,
            runs_note,
            notes,
            pasted: risk::pasted_rates(&r),
            job: 0,
            reports: Vec::new(),
            sim: None,
            rows: Vec::new(),
        })
    }

    /// Runs in all.
    pub fn total(&self) -> usize {
        self.plan.len() * self.runs as usize
    }

    /// Runs finished.
    pub fn done(&self) -> usize {
        self.job * self.runs as usize + self.reports.len()
    }

    /// What runs now: "run 3 of 25: innodb_lru_scan_depth 384 (seed 2)"; empty when over.
    pub fn current(&self) -> String {
        match self.plan.get(self.job) {
            Some((label, _, p)) => format!(
                "run {} of {}: {label} (seed {})",
                self.done() + 1,
                self.total(),
                p.seed + self.reports.len() as u64
            ),
            None => String::new(),
        }
    }

    /// Runs up to `max_events` more events (at least one); returns the share done (1 = all).
    pub fn advance(&mut self, max_events: u64) -> Result<f64, String> {
        let Some((_, _, p)) = self.plan.get(self.job) else {
            return Ok(1.0);
        };
        if self.sim.is_none() {
            let q = midpoint_core::scenario::Params {
                seed: p.seed.wrapping_add(self.reports.len() as u64),
                ..p.clone()
            };
            let sim = Simulation::new(&q)?;
            let start = sim.now();
            self.sim = Some((sim, start));
        }
        let (sim, start) = self.sim.as_mut().expect("a run was just started");
        if sim.run_events(max_events.max(1)) {
            self.reports.push(sim.report());
            self.sim = None;
            if self.reports.len() >= self.runs as usize {
                let (label, change, _) = &self.plan[self.job];
                self.rows
                    .push(risk::row(label, change.clone(), &self.reports));
                self.reports.clear();
                self.job += 1;
            }
            return Ok(self.frac(0.0));
        }
        let span = sim.end().saturating_sub(*start).max(1) as f64;
        let part = sim.now().saturating_sub(*start) as f64 / span;
        Ok(self.frac(part.min(0.999)))
    }

    fn frac(&self, part: f64) -> f64 {
        if self.job >= self.plan.len() {
            return 1.0;
        }
        ((self.done() as f64 + part) / self.total().max(1) as f64).min(0.999_999)
    }

    /// The rows so far.
    pub fn rows(&self) -> &[RunRow] {
        &self.rows
    }

    /// `rows` (as `from-status --risk --json`'s `runs`), `table` ([`risk::Table`]), `advice`,
    /// `runs` (per row), `runs_note`, `notes` (the page's limits), `your_youngs_per_s`,
    /// `your_non_youngs_per_s`, and `done` (whether every row is in).
    pub fn result(&self) -> Json {
        json!({
            "rows": self.rows,
            "table": risk::table(&self.rows, self.pasted),
            "advice": risk::advice(&self.rows),
            "runs": self.runs,
            "runs_note": self.runs_note,
            "notes": self.notes,
            "your_youngs_per_s": self.pasted.0,
            "your_non_youngs_per_s": self.pasted.1,
            "done": self.job >= self.plan.len(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use midpoint_core::scenario::Params;

    const STATUS: &str = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/status/mariadb-10.11-status-G.txt"
    ));

    fn short(seed: u64) -> Params {
        Params {
            pool_mb: 8,
            warmup_s: 4,
            scan_s: 10,
            kept_window_s: 8,
            seed,
            ..Params::default()
        }
    }

    fn made(label: &str, runs: usize, kept: [f64; 3]) -> RunRow {
        RunRow {
            label: label.into(),
            change: None,
            kept: Some(kept[0]),
            runs,
            kept_median: Some(kept[0]),
            kept_min: Some(kept[1]),
            kept_max: Some(kept[2]),
            leak_pages_per_s: 12.0,
            leak_per_refill: Some(1.5),
            refills_during_scan: 40,
            youngs_per_s: 3.0,
            non_youngs_per_s: 4.0,
        }
    }

    #[test]
    fn a_row_of_several_runs_has_the_first_runs_kept_and_the_range() {
        let reports: Vec<RunReport> = (0..3)
            .map(|i| midpoint_core::sim::run(&short(7 + i)).unwrap())
            .collect();
        let r = risk::row("as read", None, &reports);
        assert_eq!(r.runs, 3);
        assert_eq!(r.kept, Some(reports[0].kept));
        let (lo, m, hi) = (
            r.kept_min.unwrap(),
            r.kept_median.unwrap(),
            r.kept_max.unwrap(),
        );
        assert!(lo <= m && m <= hi, "{lo} {m} {hi}");
        for x in reports.iter().map(|x| x.kept) {
            assert!((lo..=hi).contains(&x));
        }
        let one = risk::row("as read", None, &reports[..1]);
        assert_eq!(one.kept, one.kept_median);
        assert_eq!(one.kept_min, one.kept_max);
        let none = risk::row("as read", None, &[]);
        assert_eq!((none.runs, none.kept, none.kept_median), (0, None, None));
    }

    #[test]
    fn the_table_shows_the_range_and_the_pasted_rates() {
        let rows = [
            made("as read", 5, [0.25, 0.2, 0.3]),
            made("b", 1, [0.5, 0.5, 0.5]),
        ];
        let t = risk::table(&rows, (Some(0.5), None));
        assert_eq!(t.head.len(), risk::COLUMNS.len());
        assert!(t.rows.iter().all(|r| r.len() == risk::COLUMNS.len()));
        assert_eq!(t.rows[0][1], "25.0 (20.0-30.0)");
        assert_eq!(t.rows[1][1], "50.0");
        assert_eq!(t.rows[0][3], "1.50");
        assert_eq!(t.yours[0], "yours (as pasted)");
        assert_eq!((t.yours[5].as_str(), t.yours[6].as_str()), ("0.50", "-"));
        let text = risk::table_text(&t);
        assert_eq!(text.lines().count(), 4);
        assert!(text.lines().next().unwrap().starts_with("run "));
    }

    #[test]
    fn the_advice_names_the_best_change_and_whether_the_ranges_overlap() {
        let base = made("as read", 5, [0.25, 0.2, 0.3]);
        let apart = made("a 1 s pause", 5, [0.5, 0.45, 0.55]);
        let a = risk::advice(&[base.clone(), apart]);
        assert!(a.contains("25.0 % (20.0-30.0 % over 5 runs)"), "{a}");
        assert!(a.contains("a 1 s pause keeps the most: 50.0 %"), "{a}");
        assert!(a.contains("+25.0 points"), "{a}");
        assert!(!a.contains("overlap"), "{a}");
        let close = made("depth 384", 5, [0.28, 0.22, 0.33]);
        let c = risk::advice(&[base.clone(), close]);
        assert!(c.contains("depth 384 keeps the most"), "{c}");
        assert!(c.contains("ranges overlap"), "{c}");
        let worse = made("depth 6144", 5, [0.2, 0.1, 0.3]);
        assert!(risk::advice(&[base, worse]).contains("none of the changes"));
    }

    #[test]
    fn the_page_makes_fewer_runs_of_a_big_pool_and_says_so() {
        let small = short(1);
        let (n, note) = risk::page_runs(&small, 5);
        assert_eq!(n, 5, "{note}");
        assert!(note.starts_with("5 runs of each row"), "{note}");
        let big = Params {
            pool_mb: 1024,
            hot_pages: 60_000,
            hot_table_pages: 60_000,
            scan_table_mb: 3072,
            // An hour of scanning: too long for five runs a row in the page's budget.
            scan_s: 3600,
            ..Params::default()
        };
        let (m, why) = risk::page_runs(&big, 5);
        assert!(m < 5, "{why}");
        assert!(why.contains("not 5") && why.contains("1024 MiB"), "{why}");
    }

    #[test]
    fn the_page_runs_in_slices_give_the_ensembles_rows() {
        let mut pr = PageRisk::new(STATUS, 300, 2).unwrap();
        let (_, s) = crate::status::report::page_scenario(STATUS, 300).unwrap();
        let plan = risk::plan(&s.params);
        assert_eq!(pr.total(), plan.len() * 2);
        assert!(
            pr.current().starts_with("run 1 of 10: as read"),
            "{}",
            pr.current()
        );
        let mut last = 0.0;
        let mut steps = 0;
        loop {
            let f = pr.advance(50_000).unwrap();
            assert!(f >= last, "progress went back: {last} then {f}");
            last = f;
            steps += 1;
            if f >= 1.0 {
                break;
            }
            assert!(!pr.result()["done"].as_bool().unwrap());
        }
        assert!(steps > 10, "{steps} slices");
        assert_eq!(pr.rows().len(), plan.len());
        // The same row as the CLI's ensemble of the same parameters (the first; the others
        // are the same code on other parameters).
        let (label, change, q) = &plan[0];
        let e = midpoint_lab::ensemble::run(q, 2).unwrap();
        assert_eq!(pr.rows()[0], risk::row(label, change.clone(), &e.runs));
        let j = pr.result();
        assert_eq!(j["done"], true);
        assert_eq!(j["runs"], 2);
        assert_eq!(j["table"]["rows"].as_array().unwrap().len(), plan.len());
        assert_eq!(j["your_youngs_per_s"], 0.0);
        assert!(j["advice"]
            .as_str()
            .unwrap()
            .starts_with("As read, the model keeps"));
        assert_eq!(pr.current(), "");
        assert_eq!(pr.advance(10).unwrap(), 1.0);
        assert!(PageRisk::new("nothing", 0, 0)
            .err()
            .unwrap()
            .contains("no buffer pool section found"));
    }
}

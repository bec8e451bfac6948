//! The page's leak risk: the fit ([`fit::Fitter`]), then the runs of [`risk::plan`] for the
//! fitted scenario, each row an ensemble of a few seeds ([`risk::page_runs`]), advanced a slice
//! of events at a time so that the page's worker can report progress (and be stopped) between
//! slices; then the fit, the table, the advice and the pasted rates as one JSON object. Like
//! the fit, the rows simulate one instance's share of a pool of several
//! ([`midpoint_lab::share::instance_share`], its figures given for the whole pool by
//! [`risk::pool_row`]): a pool of n instances is n such shares side by side, and one of them is
//! an n-th of the work. Past what the page runs ([`page_refusal`]) nothing runs and the result
//! says why, with the command line that runs it.

use super::fit::{self, Fitter, Probe};
use super::risk::{self, Plan, RunRow};
use super::scenario::Scenario;
use midpoint_core::clock::Micros;
use midpoint_core::metrics::RunReport;
use midpoint_core::scenario::Params;
use midpoint_core::sim::Simulation;
use serde_json::{json, Value as Json};

/// The most memory the page's runs may take (bytes of the WebAssembly memory): a run of a pool
/// needs about [`WASM_BYTES_PER_FRAME`] per frame, measured in the page's worker, on top of the
/// module's own. A wasm32 module can address 4 GiB at most, and a phone's browser gives a tab
/// far less; 1 GiB keeps the page to what a laptop's tab holds beside everything else.
pub const PAGE_MEMORY_BYTES: u64 = 1 << 30;
/// The WebAssembly memory a simulated pool takes per frame (bytes), with the tables' page maps:
/// see docs/your-server.md for the measurement.
pub const WASM_BYTES_PER_FRAME: u64 = 96;
/// The most work the page starts (seconds of the core's native estimate, for the fit and every
/// row together). The estimate is an upper bound, several times the work as it runs (the
/// 16 GiB, 8-instance fixture's fit and rows on one instance's share are estimated at under
/// 2 minutes and take well under a minute in the page's worker); half an hour of it lets a
/// big pool of one instance run (an 8 GiB one scanned slowly), and keeps the runs to what a
/// reader waits for, not hours.
pub const PAGE_MAX_WORK_S: f64 = 1800.0;

/// Why the page will not run these rows (`None`: it will): a hot set larger than the pool, the
/// memory of the pool it simulates (one instance's share) past [`PAGE_MEMORY_BYTES`], or the
/// work past [`PAGE_MAX_WORK_S`].
pub fn page_refusal(p: &Params, work_s: f64) -> Option<String> {
    let frames = p.frames_per_instance() as u64 * p.buffer_pool_instances.max(1) as u64;
    if p.hot_pages as u64 > frames {
        // Never a forecast whose hot set the pool cannot hold.
        return Some(format!(
            "a hot set of {} pages cannot be resident in a pool of {} pages, so no forecast of it would mean anything; give a hot set the pool can hold",
            group(p.hot_pages as u64),
            group(frames)
        ));
    }
    let q = midpoint_lab::share::instance_share(p);
    let simulated = q.frames_per_instance() as u64;
    let table_pages = q.hot_table_pages as u64 + q.scan_table_pages() as u64;
    let bytes = simulated * WASM_BYTES_PER_FRAME + table_pages * 4;
    if bytes > PAGE_MEMORY_BYTES {
        return Some(format!(
            "a pool of {} pages{} needs about {} MiB of this page's WebAssembly memory, past the {} MiB it allows itself (a browser tab holds far less than the machine)",
            group(simulated),
            of_instances(p),
            bytes >> 20,
            PAGE_MEMORY_BYTES >> 20
        ));
    }
    if work_s > PAGE_MAX_WORK_S {
        return Some(format!(
            "simulating a pool of {} pages{} takes about {} natively by the core's estimate, past the {} the page takes on",
            group(simulated),
            of_instances(p),
            midpoint_core::cost::human_duration(work_s),
            midpoint_core::cost::human_duration(PAGE_MAX_WORK_S)
        ));
    }
    None
}

/// ", one instance's share of 8" for a pool of several instances.
fn of_instances(p: &Params) -> String {
    if p.buffer_pool_instances > 1 {
        format!(" (one instance's share of {})", p.buffer_pool_instances)
    } else {
        String::new()
    }
}

/// The core's estimate of one run of `q` as the page runs it: one instance's share.
fn share_estimate(q: &Params) -> f64 {
    midpoint_core::cost::estimate(&midpoint_lab::share::instance_share(q)).wall_s
}

fn group(n: u64) -> String {
    midpoint_core::scenario::schema::group(n)
}

/// The command line that runs what the page will not.
pub fn cli_line(hot_pages: u32) -> String {
    let hot = if hot_pages > 0 {
        format!(" --hot-pages {hot_pages}")
    } else {
        String::new()
    };
    format!("midpoint from-status your-status.txt{hot} --risk --runs 1")
}

enum Phase {
    /// The fit's search: the probe under way, when one is.
    Fit(Option<Probe>),
    /// The rows: the run under way and the runs of its row so far.
    Rows(Option<(Simulation, Micros)>),
    Done,
}

/// The fit and the risk runs of one paste, in progress.
pub struct PageRisk {
    scenario: Scenario,
    fitter: Fitter,
    fit: Option<fit::Fit>,
    plan: Plan,
    runs: u32,
    runs_note: String,
    notes: Vec<String>,
    pasted: (Option<f64>, Option<f64>),
    refused: Option<String>,
    hot_given: u32,
    /// Estimated seconds (native): the fit's, one run of each row.
    fit_s: f64,
    row_s: Vec<f64>,
    phase: Phase,
    job: usize,
    reports: Vec<RunReport>,
    rows: Vec<RunRow>,
    /// The share shown so far: the rows' estimate is made again for the fitted scenario, and
    /// progress never goes back.
    shown: f64,
    /// The plan's rows that are the table's (those after it are the as-read row at the ends of
    /// the hot sets the counters allow).
    table_rows: usize,
    /// The as-read row's outcomes (both, when the hot set flips).
    outcomes: Option<crate::outcomes::Outcomes>,
}

impl PageRisk {
    /// The fit and runs for `text` (`hot_pages` 0: fitted), `runs` of each row (0: as many as
    /// [`risk::page_runs`] allows, at most [`midpoint_lab::ensemble::MAX_RUNS`]).
    pub fn new(text: &str, hot_pages: u32, runs: u32) -> Result<PageRisk, String> {
        PageRisk::with_tables(text, hot_pages, "", runs)
    }

    /// [`PageRisk::new`] with the tables marked hot (`report::hot_table_names`): their hot set
    /// is pinned.
    pub fn with_tables(
        text: &str,
        hot_pages: u32,
        hot_tables: &str,
        runs: u32,
    ) -> Result<PageRisk, String> {
        let (r, s, inputs) = super::report::page_scenario_tables(text, hot_pages, hot_tables)?;
        let pins = fit::Pins {
            hot_pages: inputs.hot_pages.map(|_| s.params.hot_pages),
            hot_from: inputs.hot_from.clone(),
            ..fit::Pins::default()
        };
        let hot_pages = inputs.hot_pages.unwrap_or(0);
        let fitter = Fitter::new(&s.params, fit::targets(&r), pins);
        let start = fitter.params();
        let plan = risk::plan(&start);
        let (auto, auto_note) = risk::page_runs(&start, plan.len());
        let (runs, runs_note) = match runs {
            0 => (auto, auto_note),
            n => {
                let n = n.min(midpoint_lab::ensemble::MAX_RUNS);
                (
                    n,
                    format!("{n} run(s) of each row, RNG seeds from {}.", start.seed),
                )
            }
        };
        let fit_s = fitter.estimate().wall_s;
        let mut row_s: Vec<f64> = plan.iter().map(|(_, _, q)| share_estimate(q)).collect();
        if inputs.hot_pages.is_none() {
            // The as-read row at the two ends of the hot sets the counters allow.
            let first = row_s.first().copied().unwrap_or(0.0);
            row_s.extend([first, first]);
        }
        let work = fit_s + row_s.iter().sum::<f64>() * runs as f64;
        let refused = page_refusal(&start, work);
        let mut notes = Vec::new();
        if refused.is_some() {
            notes.push(format!(
                "The command line runs any size: {}",
                cli_line(hot_pages)
            ));
        }
        Ok(PageRisk {
            scenario: s,
            fitter,
            fit: None,
            plan,
            runs,
            runs_note,
            notes,
            pasted: risk::pasted_rates(&r),
            phase: if refused.is_some() {
                Phase::Done
            } else {
                Phase::Fit(None)
            },
            refused,
            hot_given: hot_pages,
            fit_s,
            row_s,
            job: 0,
            reports: Vec::new(),
            rows: Vec::new(),
            shown: 0.0,
            table_rows: usize::MAX,
            outcomes: None,
        })
    }

    /// Runs in all (the rows').
    pub fn total(&self) -> usize {
        self.plan.len() * self.runs as usize
    }

    /// Runs finished.
    pub fn done(&self) -> usize {
        self.job * self.runs as usize + self.reports.len()
    }

    /// The estimate of all the work, seconds (the core's native estimate).
    pub fn estimate_s(&self) -> f64 {
        self.fit_s + self.row_s.iter().sum::<f64>() * self.runs as f64
    }

    /// What runs now: "fit: run 2 of at most 10" or "run 3 of 25: innodb_lru_scan_depth 384
    /// (seed 2)"; empty when over.
    pub fn current(&self) -> String {
        match &self.phase {
            Phase::Fit(_) => format!(
                "fitting to your counters: simulation {} of at most {}",
                self.fitter.steps() + 1,
                fit::MAX_STEPS
            ),
            Phase::Rows(_) => match self.plan.get(self.job) {
                Some((label, _, p)) => format!(
                    "run {} of {}: {label} (seed {})",
                    self.done() + 1,
                    self.total(),
                    p.seed + self.reports.len() as u64
                ),
                None => String::new(),
            },
            Phase::Done => String::new(),
        }
    }

    /// Runs up to `max_events` more events (at least one); returns the share done (1 = all),
    /// which never goes back.
    pub fn advance(&mut self, max_events: u64) -> Result<f64, String> {
        let f = self.step(max_events)?;
        self.shown = self.shown.max(f);
        Ok(self.shown)
    }

    fn step(&mut self, max_events: u64) -> Result<f64, String> {
        let max_events = max_events.max(1);
        match &mut self.phase {
            Phase::Done => return Ok(1.0),
            Phase::Fit(probe) => {
                if probe.is_none() {
                    match self.fitter.next_run() {
                        Some(q) => *probe = Some(Probe::new(&q)?),
                        None => {
                            let f = self.fitter.result();
                            let fitted = self.fitter.fitted();
                            // The fit's share of the work is what it took.
                            self.fit_s *= self.fitter.steps() as f64 / fit::MAX_STEPS as f64;
                            self.scenario.apply_fit(&f, fitted);
                            self.fit = Some(f);
                            self.plan = risk::plan(&self.scenario.params);
                            self.table_rows = self.plan.len();
                            // Without a measured hot set, the as-read row again at the ends of
                            // the hot sets the counters allow: the forecast is their range.
                            if let Some([lo, hi]) =
                                self.fit.as_ref().and_then(|f| f.hot_pages_range)
                            {
                                let base = self.scenario.params.clone();
                                for h in [lo, hi] {
                                    if h != base.hot_pages {
                                        self.plan.push((
                                            format!("a hot set of {h} pages"),
                                            None,
                                            crate::outcomes::with_hot(&base, h),
                                        ));
                                    }
                                }
                            }
                            self.row_s = self
                                .plan
                                .iter()
                                .map(|(_, _, q)| share_estimate(q))
                                .collect();
                            self.phase = Phase::Rows(None);
                            return Ok(self.frac(0.0));
                        }
                    }
                }
                let pr = probe.as_mut().expect("a probe was just started");
                if let Some(figures) = pr.advance_events(max_events) {
                    *probe = None;
                    self.fitter.feed(figures);
                }
                let part = probe.as_ref().map_or(0.0, |p| p.progress());
                return Ok(self.frac(part));
            }
            Phase::Rows(_) => {}
        }
        let Some((_, _, p)) = self.plan.get(self.job) else {
            self.phase = Phase::Done;
            return Ok(1.0);
        };
        let Phase::Rows(sim) = &mut self.phase else {
            return Ok(1.0);
        };
        if sim.is_none() {
            let q = Params {
                seed: p.seed.wrapping_add(self.reports.len() as u64),
                ..p.clone()
            };
            let s = Simulation::new(&midpoint_lab::share::instance_share(&q))?;
            let start = s.now();
            *sim = Some((s, start));
        }
        let (s, start) = sim.as_mut().expect("a run was just started");
        if s.run_events(max_events) {
            self.reports.push(s.report());
            *sim = None;
            if self.reports.len() >= self.runs as usize {
                if self.job == 0 {
                    self.outcomes = crate::outcomes::of(&self.reports);
                }
                let (label, change, q) = &self.plan[self.job];
                self.rows.push(risk::pool_row(
                    risk::row(label, change.clone(), &self.reports),
                    q,
                ));
                self.reports.clear();
                self.job += 1;
                if self.job >= self.plan.len() {
                    self.phase = Phase::Done;
                }
            }
            return Ok(self.frac(0.0));
        }
        let span = s.end().saturating_sub(*start).max(1) as f64;
        let part = s.now().saturating_sub(*start) as f64 / span;
        Ok(self.frac(part.min(0.999)))
    }

    /// The share done: the fit's estimate and the rows' weigh as their estimates do; the fit's
    /// steps count against its most ([`fit::MAX_STEPS`]) until it is over.
    fn frac(&self, part: f64) -> f64 {
        let total = self.estimate_s().max(1e-9);
        let done = match &self.phase {
            Phase::Done => return 1.0,
            Phase::Fit(_) => {
                self.fit_s / fit::MAX_STEPS as f64 * (self.fitter.steps() as f64 + part)
            }
            Phase::Rows(_) => {
                let rows: f64 = self.row_s.iter().take(self.job).sum::<f64>() * self.runs as f64;
                let this = self.row_s.get(self.job).copied().unwrap_or(0.0);
                self.fit_s + rows + this * (self.reports.len() as f64 + part)
            }
        };
        (done / total).clamp(0.0, 0.999_999)
    }

    /// The rows so far.
    pub fn rows(&self) -> &[RunRow] {
        &self.rows
    }

    /// `rows` (as `from-status --risk --json`'s `runs`), `table` ([`risk::Table`]), `advice`,
    /// `fit` and `fit_table` (once the fit is over), `runs` (per row), `runs_note`, `notes`,
    /// `estimate_s`, `pool_pages` and `instances` (the pool forecast), `simulated_pages` (the pool
    /// each run simulates: one instance's share), `refused` (why the page
    /// will not run it, with `cli`, the command line that does), `your_youngs_per_s`,
    /// `your_non_youngs_per_s`, and `done` (whether every row is in).
    pub fn result(&self) -> Json {
        let p = &self.scenario.params;
        let n = self.rows.len().min(self.table_rows);
        let (rows, ends) = self.rows.split_at(n);
        let kept_range = match (
            self.fit.as_ref().and_then(|f| f.hot_pages_range),
            rows.first(),
        ) {
            (Some(b), Some(first)) if matches!(self.phase, Phase::Done) => {
                let k = |r: &RunRow| r.kept_median.or(r.kept).unwrap_or(f64::NAN);
                let mut at = vec![(p.hot_pages, k(first))];
                for (r, (_, _, q)) in ends.iter().zip(self.plan.iter().skip(n)) {
                    at.push((q.hot_pages, k(r)));
                }
                at.sort_by_key(|x| x.0);
                crate::outcomes::range(b, at)
            }
            _ => None,
        };
        json!({
            "rows": rows,
            "table": risk::table(rows, self.pasted),
            "kept_range": kept_range,
            "outcomes": self.outcomes,
            "advice": if self.refused.is_some() { String::new() } else { risk::advice_fitted(rows, self.fit.as_ref()) },
            "fit": self.fit,
            "fit_table": self.fit.as_ref().map(fit::table),
            "runs": self.runs,
            "runs_note": self.runs_note,
            "notes": self.notes,
            "estimate_s": self.estimate_s(),
            "pool_pages": p.frames_per_instance() as u64 * p.buffer_pool_instances as u64,
            "instances": p.buffer_pool_instances,
            "simulated_pages": midpoint_lab::share::instance_share(p).frames_per_instance(),
            "refused": self.refused,
            "cli": self.refused.as_ref().map(|_| cli_line(self.hot_given)),
            "your_youngs_per_s": self.pasted.0,
            "your_non_youngs_per_s": self.pasted.1,
            "done": matches!(self.phase, Phase::Done),
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
            pool_pages: 1014,
            instances: 1,
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
    fn the_page_never_forecasts_a_hot_set_larger_than_its_pool() {
        // 5,000 hot pages given for the fixture's 1,014-page pool.
        let pr = PageRisk::new(STATUS, 5000, 1).unwrap();
        let j = pr.result();
        assert_eq!(j["done"], true);
        assert!(
            j["refused"]
                .as_str()
                .unwrap()
                .contains("cannot be resident"),
            "{}",
            j["refused"]
        );
        assert_eq!(j["rows"].as_array().unwrap().len(), 0);
        assert!(j["cli"].as_str().unwrap().contains("--hot-pages 5000"));
        // One the pool holds is run.
        assert!(PageRisk::new(STATUS, 300, 1).unwrap().result()["refused"].is_null());
    }

    const BIG: &str = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/status/mysql-8.0-16g-8-instances.txt"
    ));

    #[test]
    fn a_16_gib_pool_in_8_instances_is_forecast_from_one_instances_share() {
        let pr = PageRisk::new(BIG, 0, 0).unwrap();
        let j = pr.result();
        assert!(j["refused"].is_null(), "{}", j["refused"]);
        assert_eq!(j["pool_pages"], 1_048_448);
        assert_eq!(j["instances"], 8);
        assert_eq!(j["simulated_pages"], 131_056);
        let est = pr.estimate_s();
        assert!(est > 0.0 && est <= PAGE_MAX_WORK_S, "{est}");
        // The whole pool at its real size would be estimated at several times the share's.
        let (_, s) = crate::report::page_scenario(BIG, 0).unwrap();
        let whole = midpoint_core::cost::estimate(&s.params).wall_s;
        assert!(
            whole > 4.0 * share_estimate(&s.params),
            "{whole} {}",
            share_estimate(&s.params)
        );
        // An 8 GiB pool in 8 instances, and one of 64 GiB, are not refused for their memory.
        for mb in [8192u32, 65536] {
            let p = Params {
                pool_mb: mb,
                buffer_pool_instances: 8,
                hot_pages: 1000,
                hot_table_pages: 1000,
                scan_table_mb: 3 * mb,
                ..Params::default()
            };
            assert_eq!(page_refusal(&p, 60.0), None, "{mb} MiB");
        }
    }

    #[test]
    fn a_row_of_a_share_speaks_for_the_whole_pool() {
        // A 1 GiB pool in two instances, each instance's share run for a short scan.
        let p = Params {
            pool_mb: 1024,
            buffer_pool_instances: 2,
            hot_pages: 2000,
            hot_table_pages: 2000,
            scan_table_mb: 3072,
            warmup_s: 4,
            scan_s: 20,
            kept_window_s: 10,
            ..Params::default()
        };
        p.validate().unwrap();
        let q = midpoint_lab::share::instance_share(&p);
        let reports = vec![midpoint_core::sim::run(&q).unwrap()];
        let one = risk::row("as read", None, &reports);
        let whole = risk::pool_row(one.clone(), &p);
        assert_eq!(one.instances, 1);
        assert_eq!(whole.instances, 2);
        assert_eq!(whole.pool_pages, p.frames_per_instance() as u64 * 2);
        assert_eq!(whole.pool_pages, one.pool_pages * 2);
        // Kept and the leak per refill are the share's; the rates and refills the pool's.
        assert_eq!(whole.kept, one.kept);
        assert_eq!(whole.kept_median, one.kept_median);
        assert_eq!(whole.leak_per_refill, one.leak_per_refill);
        assert!(
            one.refills_during_scan > 0 && one.non_youngs_per_s > 0.0,
            "{one:?}"
        );
        assert_eq!(whole.refills_during_scan, 2 * one.refills_during_scan);
        assert_eq!(whole.non_youngs_per_s, 2.0 * one.non_youngs_per_s);
        assert_eq!(whole.youngs_per_s, 2.0 * one.youngs_per_s);
        assert_eq!(whole.leak_pages_per_s, 2.0 * one.leak_pages_per_s);
        // One instance's row is left as it is.
        assert_eq!(risk::pool_row(one.clone(), &q), one);
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
        // The command line's way: the fit run whole, then the plan of the fitted scenario.
        let (r, mut s) = crate::report::page_scenario(STATUS, 300).unwrap();
        let pins = fit::Pins {
            hot_pages: Some(300),
            ..fit::Pins::default()
        };
        let (f, fitted) = fit::fit(&s.params, fit::targets(&r), pins, |_, _| {}).unwrap();
        s.apply_fit(&f, fitted);
        let plan = risk::plan(&s.params);
        assert_eq!(pr.total(), plan.len() * 2);
        assert!(
            pr.current().starts_with("fitting to your counters"),
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
        assert_eq!(j["fit"], serde_json::to_value(&f).unwrap());
        assert_eq!(j["pool_pages"], 1014);
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

//! Long runs on the command line (native only): the cost check before a run and a progress bar
//! with an ETA on stderr while it runs, from [`midpoint_core::cost`]'s estimate.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use midpoint_core::cost::{self, Estimate};
use midpoint_core::metrics::RunReport;
use midpoint_core::metrics::WriteReport;
use midpoint_core::scenario::write::WriteParams;
use midpoint_core::scenario::Params;
use midpoint_core::sim::Simulation;
use std::io::IsTerminal;

/// Simulated time between progress-bar updates, µs.
const STEP_US: u64 = 1_000_000;

/// Whether to draw progress for work of this estimate: long enough, and stderr a terminal.
pub fn wants_bar(e: &Estimate) -> bool {
    e.wall_s > cost::PROGRESS_THRESHOLD_S && std::io::stderr().is_terminal()
}

/// A "3/40 runs" counter on stderr for work done in pieces (sweeps, ensembles, experiments). On
/// a terminal it rewrites one line (`\r`) at every piece; anywhere else (a pipe, a file, a CI
/// log) it writes a plain line each time another tenth of the work is done, and the last piece,
/// so a log gets at most 11 lines and never a `\r`. Quiet: nothing at all.
pub struct Counter {
    unit: &'static str,
    mode: CounterMode,
    /// The last tenth written (non-terminal mode).
    last_tenth: Option<usize>,
    drawn: bool,
}

/// Where a [`Counter`] writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CounterMode {
    Terminal,
    Lines,
    Quiet,
}

impl Counter {
    /// A counter of `unit` ("runs", "points") on stderr: terminal or lines, as stderr is; quiet
    /// when `quiet`.
    pub fn stderr(unit: &'static str, quiet: bool) -> Counter {
        let mode = if quiet {
            CounterMode::Quiet
        } else if std::io::stderr().is_terminal() {
            CounterMode::Terminal
        } else {
            CounterMode::Lines
        };
        Counter::new(unit, mode)
    }

    pub fn new(unit: &'static str, mode: CounterMode) -> Counter {
        Counter {
            unit,
            mode,
            last_tenth: None,
            drawn: false,
        }
    }

    /// What to write when `done` of `total` pieces are done, if anything.
    pub fn text(&mut self, done: usize, total: usize) -> Option<String> {
        match self.mode {
            CounterMode::Quiet => None,
            CounterMode::Terminal => {
                self.drawn = true;
                Some(format!("\r{done}/{total} {}", self.unit))
            }
            CounterMode::Lines => {
                let tenth = (done.min(total) * 10).checked_div(total).unwrap_or(10);
                if self.last_tenth.is_some_and(|t| t >= tenth) {
                    return None;
                }
                self.last_tenth = Some(tenth);
                Some(format!("{done}/{total} {}\n", self.unit))
            }
        }
    }

    /// Reports progress (the callback the lab's runners take).
    pub fn tick(&mut self, done: usize, total: usize) {
        if let Some(t) = self.text(done, total) {
            eprint!("{t}");
        }
    }

    /// Ends the terminal's line, if one was drawn; the next piece of work counts afresh.
    pub fn finish(&mut self) {
        if self.mode == CounterMode::Terminal && self.drawn {
            eprintln!();
        }
        self.drawn = false;
        self.last_tenth = None;
    }
}

/// Runs one scenario like [`midpoint_core::sim::run`], after refusing it when its estimate is over
/// [`cost::WALL_BUDGET_S`] (unless `no_limit`), with a progress bar on stderr when it is long.
pub fn run(p: &Params, no_limit: bool) -> Result<RunReport, String> {
    let e = cost::estimate(p);
    cost::check_budget(&e, "this run", no_limit)?;
    let target = if wants_bar(&e) {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    run_drawing(p, target)
}

/// Runs a scenario to its end, advancing the bar by simulated seconds. The steps are the same as
/// [`Simulation::run_to_end`]'s: `run_until` only stops between events, before the end.
pub fn run_drawing(p: &Params, target: ProgressDrawTarget) -> Result<RunReport, String> {
    let mut sim = Simulation::new(p)?;
    let start = sim.now();
    let end = sim.end();
    let bar = ProgressBar::with_draw_target(Some(end.saturating_sub(start) / STEP_US), target);
    bar.set_style(bar_style()?);
    while sim.now().saturating_add(STEP_US) < end {
        sim.run_until(sim.now() + STEP_US);
        bar.set_position(sim.now().saturating_sub(start) / STEP_US);
    }
    sim.run_to_end();
    bar.finish_and_clear();
    Ok(sim.report())
}

/// Runs one write-path scenario like [`midpoint_core::sim::run_write`], with the same budget and bar.
pub fn run_write(p: &WriteParams, no_limit: bool) -> Result<WriteReport, String> {
    let e = cost::estimate_write(p);
    cost::check_budget(&e, "this run", no_limit)?;
    let target = if wants_bar(&e) {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let mut sim = Simulation::new_write(p)?;
    let start = sim.now();
    let bar =
        ProgressBar::with_draw_target(Some(sim.end().saturating_sub(start) / STEP_US), target);
    bar.set_style(bar_style()?);
    // The same steps as sim::run_write, with a look at the clock now and then.
    let mut n: u64 = 0;
    while sim.step_write()? {
        n += 1;
        if n % 4096 == 0 {
            bar.set_position(sim.now().saturating_sub(start) / STEP_US);
        }
    }
    bar.finish_and_clear();
    Ok(sim.write_report())
}

fn bar_style() -> Result<ProgressStyle, String> {
    ProgressStyle::with_template(
        "{bar:40} {pos}/{len} simulated s  {elapsed} elapsed, about {eta} left",
    )
    .map_err(|e| e.to_string())
}

/// Refuses a sweep of `runs` runs of `p` when their estimate together is over the budget.
pub fn check_sweep(p: &Params, runs: usize, no_limit: bool) -> Result<Estimate, String> {
    let e = cost::estimate(p).times(runs);
    cost::check_budget(&e, &format!("this sweep of {runs} runs"), no_limit)?;
    Ok(e)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn off_a_terminal_the_counter_writes_a_line_per_tenth_and_no_carriage_return() {
        for total in [1usize, 3, 7, 10, 40, 1000] {
            let mut c = Counter::new("runs", CounterMode::Lines);
            let lines: Vec<String> = (1..=total).filter_map(|d| c.text(d, total)).collect();
            assert!(lines.len() <= 11 && !lines.is_empty(), "{total}: {lines:?}");
            assert!(lines.iter().all(|l| !l.contains('\r') && l.ends_with('\n')));
            assert_eq!(lines.last().unwrap(), &format!("{total}/{total} runs\n"));
            if total >= 10 {
                assert!((10..=11).contains(&lines.len()), "{total}: {lines:?}");
            }
        }
        let mut t = Counter::new("points", CounterMode::Terminal);
        assert_eq!(t.text(2, 40).as_deref(), Some("\r2/40 points"));
        let mut q = Counter::new("runs", CounterMode::Quiet);
        assert!((1..=10).all(|d| q.text(d, 10).is_none()));
    }

    #[test]
    fn stepping_for_the_bar_gives_the_same_run() {
        let p = Params {
            warmup_s: 5,
            scan_s: 12,
            kept_window_s: 10,
            ..Params::default()
        };
        let a = midpoint_core::sim::run(&p).unwrap();
        let b = run_drawing(&p, ProgressDrawTarget::hidden()).unwrap();
        assert_eq!(
            serde_json::to_string(&a).unwrap(),
            serde_json::to_string(&b).unwrap()
        );
    }

    #[test]
    fn the_write_run_with_its_bar_is_the_same_run() {
        let mut p = midpoint_core::scenario::write::preset("seed003-rw-default")
            .unwrap()
            .params;
        p.warmup_s = 1;
        p.base_s = 2;
        p.scan_s = 2;
        let a = midpoint_core::sim::run_write(&p).unwrap();
        let b = run_write(&p, false).unwrap();
        assert_eq!(
            serde_json::to_string(&a).unwrap(),
            serde_json::to_string(&b).unwrap()
        );
    }

    #[test]
    fn over_budget_runs_and_sweeps_are_refused_before_any_work() {
        let p = Params {
            lookup_threads: 256,
            cpus: 256,
            warmup_s: 3600,
            scan_s: 36_000,
            ..Params::default()
        };
        let e = run(&p, false).unwrap_err();
        assert!(e.starts_with("this run would take about"), "{e}");
        let e = check_sweep(&Params::default(), 128 * 64, false).unwrap_err();
        assert!(e.starts_with("this sweep of 8192 runs would take"), "{e}");
        assert!(check_sweep(&Params::default(), 128 * 64, true).is_ok());
    }
}

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

// ---- The budgets: time (the cost model) and memory (the cost model against this process's
// limits). ----

/// Refuses work whose estimate is over the time budget ([`cost::WALL_BUDGET_S`]) or over the
/// memory this process may use ([`memory_limit`]), unless `no_limit`: the one check before every
/// command that runs simulations or replays. `what` names the work ("this run", "this sweep of
/// 64 runs, 2 at once").
pub fn check(e: &Estimate, what: &str, no_limit: bool) -> Result<(), String> {
    check_words(e, what, what, no_limit)
}

/// [`check`] for work that is no simulation (a replay): its memory refusal advises `advice`.
pub fn check_advising(
    e: &Estimate,
    what: &str,
    advice: &str,
    no_limit: bool,
) -> Result<(), String> {
    cost::check_budget(e, what, no_limit)?;
    if no_limit {
        return Ok(());
    }
    match memory_limit() {
        Some(limit) => cost::check_memory_advising(e, what, &limit, false, advice),
        None => Ok(()),
    }
}

/// What makes a replay smaller, for its memory refusal.
pub const REPLAY_ADVICE: &str =
    "a shorter trace, or fewer distinct pages: a smaller --cache-pages or pool line";

/// [`check`] with the work named one way for its time and another for its memory (where how
/// many runs go at once matters).
pub fn check_words(e: &Estimate, time: &str, memory: &str, no_limit: bool) -> Result<(), String> {
    cost::check_budget(e, time, no_limit)?;
    if no_limit {
        return Ok(());
    }
    match memory_limit() {
        Some(limit) => cost::check_memory(e, memory, &limit, false),
        None => Ok(()),
    }
}

/// What this process may still allocate: the least of the machine's available memory
/// (`MemAvailable` in /proc/meminfo), what its address-space limit (`ulimit -v`, RLIMIT_AS)
/// leaves beside what is mapped already, and what its cgroup's limit (v2 `memory.max` at its
/// level or any above, v1 `memory.limit_in_bytes`) leaves beside what the cgroup holds other than
/// its page cache. None where none of them can be read (not Linux).
pub fn memory_limit() -> Option<cost::MemoryLimit> {
    let read = |path: &str| std::fs::read_to_string(path).ok();
    let mut limits: Vec<cost::MemoryLimit> = Vec::new();
    if let Some(avail) = read("/proc/meminfo").and_then(|t| kib_field(&t, "MemAvailable:")) {
        limits.push(cost::MemoryLimit {
            bytes: avail,
            source: "the machine's available memory (MemAvailable in /proc/meminfo)".into(),
        });
    }
    if let Some(limit) = address_space_limit() {
        let mapped = read("/proc/self/status")
            .and_then(|t| kib_field(&t, "VmSize:"))
            .unwrap_or(0);
        limits.push(cost::MemoryLimit {
            bytes: limit.saturating_sub(mapped),
            source: format!(
                "the address-space limit (ulimit -v) of {} MiB, {} MiB of it mapped already",
                mib(limit),
                mib(mapped)
            ),
        });
    }
    if let Some(cgroups) = read("/proc/self/cgroup") {
        limits.extend(cgroup_limits(&cgroups, &read));
    }
    limits.into_iter().min_by_key(|l| l.bytes)
}

fn mib(bytes: u64) -> String {
    midpoint_core::scenario::schema::group(bytes >> 20)
}

/// RLIMIT_AS's soft limit, bytes; None when unlimited.
fn address_space_limit() -> Option<u64> {
    let mut r = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes one rlimit into the struct it is given, which lives here.
    let ok = unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut r) } == 0;
    // rlim_t is 32 bits wide on some targets.
    #[allow(clippy::unnecessary_cast)]
    let cur = r.rlim_cur as u64;
    (ok && r.rlim_cur != libc::RLIM_INFINITY).then_some(cur)
}

/// A `NAME:   1234 kB` field of /proc/meminfo or /proc/self/status, in bytes.
pub fn kib_field(text: &str, name: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with(name))?;
    let kib: u64 = line[name.len()..].split_whitespace().next()?.parse().ok()?;
    kib.checked_mul(1024)
}

/// A `key value` line of a cgroup's memory.stat.
fn stat_field(stat: &str, key: &str) -> u64 {
    stat.lines()
        .find_map(|l| {
            let (k, v) = l.split_once(' ')?;
            (k == key).then(|| v.trim().parse().ok()).flatten()
        })
        .unwrap_or(0)
}

/// A cgroup limit of "unlimited": v2 writes `max`, v1 a number near 2^63.
fn cgroup_bytes(text: &str) -> Option<u64> {
    let n: u64 = text.trim().parse().ok()?;
    (n < 1 << 60).then_some(n)
}

/// The limits of the cgroups in `proc_self_cgroup` (the text of /proc/self/cgroup), their files
/// read with `read`: for v2 the process's cgroup and every one above it under /sys/fs/cgroup,
/// for v1 the memory controller's cgroup (or its mount's root, inside a container). Each is
/// what the limit leaves beside what the cgroup holds except its page cache (which the kernel
/// reclaims before it refuses memory).
pub fn cgroup_limits(
    proc_self_cgroup: &str,
    read: &dyn Fn(&str) -> Option<String>,
) -> Vec<cost::MemoryLimit> {
    let mut out = Vec::new();
    for line in proc_self_cgroup.lines() {
        let mut parts = line.splitn(3, ':');
        let (Some(_), Some(controllers), Some(path)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let path = path.trim_end_matches('/');
        if controllers.is_empty() {
            // v2: this cgroup and every one above it.
            let mut dir = path.to_string();
            loop {
                let base = format!("/sys/fs/cgroup{dir}");
                if let Some(max) =
                    read(&format!("{base}/memory.max")).and_then(|t| cgroup_bytes(&t))
                {
                    let current = read(&format!("{base}/memory.current"))
                        .and_then(|t| t.trim().parse::<u64>().ok())
                        .unwrap_or(0);
                    let stat = read(&format!("{base}/memory.stat")).unwrap_or_default();
                    let cache =
                        stat_field(&stat, "active_file") + stat_field(&stat, "inactive_file");
                    out.push(cgroup_limit(
                        &base,
                        "memory.max",
                        max,
                        current.saturating_sub(cache),
                    ));
                }
                match dir.rfind('/') {
                    Some(i) if !dir.is_empty() => dir.truncate(i),
                    _ => break,
                }
            }
        } else if controllers.split(',').any(|c| c == "memory") {
            // v1: the cgroup's own directory, or the mount's root inside a container (where
            // the path named is the host's).
            for base in [
                format!("/sys/fs/cgroup/memory{path}"),
                "/sys/fs/cgroup/memory".to_string(),
            ] {
                if let Some(max) =
                    read(&format!("{base}/memory.limit_in_bytes")).and_then(|t| cgroup_bytes(&t))
                {
                    let usage = read(&format!("{base}/memory.usage_in_bytes"))
                        .and_then(|t| t.trim().parse::<u64>().ok())
                        .unwrap_or(0);
                    let stat = read(&format!("{base}/memory.stat")).unwrap_or_default();
                    let cache = stat_field(&stat, "total_active_file")
                        + stat_field(&stat, "total_inactive_file");
                    out.push(cgroup_limit(
                        &base,
                        "memory.limit_in_bytes",
                        max,
                        usage.saturating_sub(cache),
                    ));
                    break;
                }
            }
        }
    }
    out
}

fn cgroup_limit(dir: &str, file: &str, max: u64, used: u64) -> cost::MemoryLimit {
    cost::MemoryLimit {
        bytes: max.saturating_sub(used),
        source: format!(
            "the cgroup's limit ({file} in {dir}) of {} MiB, {} MiB of it in use besides the page cache",
            mib(max),
            mib(used)
        ),
    }
}

/// Runs one scenario like [`midpoint_core::sim::run`], after refusing it when its estimate is over
/// the time or the memory budget ([`check`], unless `no_limit`), with a progress bar on stderr
/// when it is long.
pub fn run(p: &Params, no_limit: bool) -> Result<RunReport, String> {
    run_estimated(p, cost::estimate(p), no_limit)
}

/// [`run`] with its estimate given (the cost model's, with what the output adds).
pub fn run_estimated(p: &Params, e: Estimate, no_limit: bool) -> Result<RunReport, String> {
    check(&e, "this run", no_limit)?;
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
    // The parameters' own rules (and their 4 GiB a run) first, then this machine's budget.
    p.validate().map_err(|e| crate::output::flagged(&e))?;
    let e = cost::estimate_write(p);
    check(&e, "this run", no_limit)?;
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

/// Refuses `runs` runs of `p` (a sweep, an ensemble that keeps every run's report), as many at
/// once as rayon has threads, when their estimate together is over the time or the memory
/// budget.
pub fn check_sweep(p: &Params, runs: usize, no_limit: bool) -> Result<Estimate, String> {
    check_runs(cost::estimate(p), runs, runs, "this sweep", no_limit)
}

/// How many runs go at once: rayon's threads, at most `runs`.
pub fn at_once(runs: usize) -> usize {
    rayon::current_num_threads().clamp(1, runs.max(1))
}

/// Refuses `runs` runs each costing at most `one`, as many at once as rayon has threads, with
/// `kept` runs' reports held at the peak, when their estimate together is over the time or the
/// memory budget. `what` names them ("this sweep", "this grid").
pub fn check_runs(
    one: Estimate,
    runs: usize,
    kept: usize,
    what: &str,
    no_limit: bool,
) -> Result<Estimate, String> {
    let n = at_once(runs);
    let e = one.runs(runs, n, kept);
    check_words(
        &e,
        &format!("{what} of {runs} runs"),
        &format!("{what} of {runs} runs, {n} at once,"),
        no_limit,
    )?;
    Ok(e)
}

/// Refuses a command whose runs are fixed presets (an experiment, a comparison): `runs` of
/// them, each at most the largest preset's run, as many at once as rayon has threads (their
/// reports, small, reduced as they come).
pub fn check_presets(what: &str, runs: usize, no_limit: bool) -> Result<(), String> {
    let one = cost::largest_preset();
    let n = at_once(runs);
    let e = Estimate {
        // Their time is the experiment's own, known and announced; the memory is checked.
        wall_s: 0.0,
        ..one.runs(n, n, n)
    };
    check(&e, &format!("{what} ({n} runs at once)"), no_limit)
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
    fn the_limits_are_read_from_proc_and_the_cgroups() {
        let meminfo = "MemTotal:       24683748 kB\nMemFree:        15948412 kB\nMemAvailable:   23642724 kB\n";
        assert_eq!(kib_field(meminfo, "MemAvailable:"), Some(23_642_724 * 1024));
        assert_eq!(kib_field(meminfo, "VmSize:"), None);
        // v2: the process's cgroup and one above it limited, the root not; the page cache is
        // not counted as used.
        let files = |path: &str| -> Option<String> {
            Some(
                match path {
                    "/sys/fs/cgroup/a/b/memory.max" => "1073741824\n",
                    "/sys/fs/cgroup/a/b/memory.current" => "536870912\n",
                    "/sys/fs/cgroup/a/b/memory.stat" => {
                        "anon 100\nactive_file 268435456\ninactive_file 134217728\n"
                    }
                    "/sys/fs/cgroup/a/memory.max" => "4294967296\n",
                    "/sys/fs/cgroup/a/memory.current" => "0\n",
                    "/sys/fs/cgroup/memory.max" => "max\n",
                    _ => return None,
                }
                .to_string(),
            )
        };
        let l = cgroup_limits("0::/a/b\n", &files);
        assert_eq!(l.len(), 2, "{l:?}");
        // 1 GiB less 512 MiB in use, of which 384 MiB page cache.
        assert_eq!(l[0].bytes, (1 << 30) - (128 << 20));
        assert!(
            l[0].source.contains("memory.max in /sys/fs/cgroup/a/b")
                && l[0].source.contains("1,024 MiB, 128 MiB"),
            "{}",
            l[0].source
        );
        assert_eq!(l[1].bytes, 4 << 30);
        // v1, inside a container: the named path does not exist, the mount's root does; an
        // unlimited v1 limit (about 2^63) is no limit.
        let v1 = |limit: &'static str| {
            move |path: &str| -> Option<String> {
                match path {
                    "/sys/fs/cgroup/memory/memory.limit_in_bytes" => Some(limit.into()),
                    "/sys/fs/cgroup/memory/memory.usage_in_bytes" => Some("2097152".into()),
                    "/sys/fs/cgroup/memory/memory.stat" => {
                        Some("total_inactive_file 1048576\n".into())
                    }
                    _ => None,
                }
            }
        };
        let text = "4:memory:/process_api/40e6\n0::/\n";
        let l = cgroup_limits(text, &v1("2147483648"));
        assert_eq!(l.len(), 1, "{l:?}");
        assert_eq!(l[0].bytes, (2 << 30) - (1 << 20));
        assert!(
            l[0].source.contains("memory.limit_in_bytes"),
            "{}",
            l[0].source
        );
        assert!(cgroup_limits(text, &v1("9223372036854771712")).is_empty());
        // This machine's: some limit is always known on Linux.
        let m = memory_limit().expect("MemAvailable at least");
        assert!(m.bytes > 0 && !m.source.is_empty(), "{m:?}");
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

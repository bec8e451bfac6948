//! What a run costs before it runs: the simulated work a scenario's parameters imply, and the
//! wall time that work takes natively. The CLI shows a progress bar above
//! [`PROGRESS_THRESHOLD_S`] and refuses runs above [`WALL_BUDGET_S`] unless told otherwise.
//!
//! [`estimate`] covers the read-path scenarios (`run`, `sweep`), [`estimate_write`] the
//! write-path presets (`run --preset seed001-...`).
//!
//! The estimate is an upper bound from the parameters alone (no simulation): every lookup thread
//! runs back to back at its idle CPU time, the scan reads at its CPU time plus its share of a
//! read-ahead burst. Checked against `midpoint run --json`'s `counters.page_gets`: the default
//! scenario does 45.9 million page accesses, estimated 63.5 million; 256 lookup threads on 256
//! CPUs for 10 s, 14.5 million, estimated 14.9 million.

use crate::scenario::write::WriteParams;
use crate::scenario::Params;
use serde::Serialize;

/// Page accesses per simulated second per lookup thread is `1e6 / lookup_cpu_us`; a scanned
/// page costs at least its CPU time plus its share of a read of this many pages.
const READ_AHEAD_PAGES: f64 = 64.0;

// Every cost below is CPU time on one core, measured as the user + system time of the run
// (`scripts/check-estimates.sh`), with no margin: CPU time is what the run costs whatever else the
// machine does (on a loaded machine it grows a little, cache and frequency: at load 3.4 on 2
// cores 1.1-1.3 times the idle figure), so the estimate sits near the middle of the check's 1/3-3
// band both idle and busy. A ×1.5 margin put idle runs at 0.31 of it. The wall time is the CPU
// time on an idle core, and grows with the machine's load (at load 20 on 2 cores, 4-13 times the
// CPU time), which no model of the run's parameters can know.

/// Time per simulated page access natively, µs, with the fixed interference factor
/// (`cpus` = 0): 0.010 µs measured (`--warmup-s 10 --scan-s 20`: 0.10 s of CPU for about
/// 10 million accesses; `midpoint bench` measures 105-117 million accesses per second on an idle
/// core).
pub const WALL_US_PER_ACCESS: f64 = 0.010;

/// A page access to a hot set too big for the processor's caches also waits for memory: each
/// random lookup reaches the page table and the frame's entries at random. Measured in CPU
/// time (`midpoint run` with 50,000 lookups/s and a 312 pages/s scan for 660 simulated s, 37.5
/// million page accesses, on a loaded 2-core machine): a 4,096-page hot set 0.019 µs an
/// access, 32,768 pages 0.030 µs, 262,144 pages (a 16 GiB pool in 8 instances) 0.23 µs. The
/// estimate adds this much in proportion as the hot set goes from [`CACHED_HOT_PAGES`] (no
/// more: the 0.010 µs holds) to [`UNCACHED_HOT_PAGES`] (all of it).
pub const WALL_US_PER_ACCESS_MEMORY: f64 = 0.25;
/// See [`WALL_US_PER_ACCESS_MEMORY`].
pub const CACHED_HOT_PAGES: f64 = 16_384.0;
/// See [`WALL_US_PER_ACCESS_MEMORY`].
pub const UNCACHED_HOT_PAGES: f64 = 300_000.0;

/// With the processor-sharing CPU model (`cpus` > 0) each access also costs this much per
/// lookup thread, µs (measured: 64 threads on 64 CPUs, 0.26 µs per access: 0.004 µs per thread
/// beyond the 0.010).
pub const WALL_US_PER_ACCESS_PER_THREAD: f64 = 0.004;

/// Above this estimated wall time, seconds, the CLI shows a progress bar (on a terminal).
pub const PROGRESS_THRESHOLD_S: f64 = 2.0;

/// Above this estimated wall time, seconds, the CLI refuses a run or a sweep unless given
/// `--no-limit`: one hour.
pub const WALL_BUDGET_S: f64 = 3600.0;

/// The estimated work of one run.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Estimate {
    /// Simulated seconds (warm-up and scan phase).
    pub simulated_s: f64,
    /// Simulated work, an upper bound: page accesses (lookups and scan touches) for a read-path
    /// run, events (transaction steps and scanned pages) for a write-path run.
    pub work: f64,
    /// What [`Estimate::work`] counts: "page accesses" or "events".
    pub work_unit: &'static str,
    /// Native wall time, seconds.
    pub wall_s: f64,
    /// Peak memory, MiB (the program's own [`BASE_MIB`] included).
    pub mib: f64,
    /// Of [`Estimate::mib`], what the run hands back and is kept until the command ends (its
    /// report's samples), MiB: an ensemble holds it for every run, not only the runs at once.
    pub kept_mib: f64,
}

impl Estimate {
    /// `n` runs of this one (a sweep) one after another: `n` times the work and the time, the
    /// memory of one.
    pub fn times(self, n: usize) -> Estimate {
        self.times_at_once(n, 1)
    }

    /// `n` runs of this one, up to `at_once` of them at a time (an ensemble on `--threads`
    /// threads): `n` times the work and the wall time (an upper bound: on an idle machine with
    /// `at_once` cores up to `at_once` times faster; on a busy one not), and the memory of as
    /// many runs as go at once, plus what every run's report keeps.
    pub fn times_at_once(self, n: usize, at_once: usize) -> Estimate {
        self.runs(n, at_once, n)
    }

    /// `n` runs of this one, up to `at_once` at a time, of which at most `kept` runs' reports
    /// are held at once (an ensemble keeps all `n`; a sweep reduces each point's runs as the
    /// point ends): the time of `n`, the memory of `at_once` runs going and `kept` reports.
    pub fn runs(self, n: usize, at_once: usize, kept: usize) -> Estimate {
        let k = n as f64;
        let together = at_once.clamp(1, n.max(1)) as f64;
        let kept = kept.clamp(together as usize, n.max(1)) as f64;
        let working = (self.mib - BASE_MIB - self.kept_mib).max(0.0);
        Estimate {
            simulated_s: self.simulated_s * k,
            work: self.work * k,
            work_unit: self.work_unit,
            wall_s: self.wall_s * k,
            mib: BASE_MIB + working * together + self.kept_mib * kept,
            kept_mib: self.kept_mib * kept,
        }
    }

    /// This estimate with `mib` more memory at its peak (the output written at the end).
    pub fn plus_mib(self, mib: f64) -> Estimate {
        Estimate {
            mib: self.mib + mib,
            ..self
        }
    }

    /// The larger of two estimates in every figure (runs of a plan that differ: "each at most
    /// this"), with the first's unit of work.
    pub fn larger(self, other: &Estimate) -> Estimate {
        Estimate {
            simulated_s: self.simulated_s.max(other.simulated_s),
            work: self.work.max(other.work),
            work_unit: self.work_unit,
            wall_s: self.wall_s.max(other.wall_s),
            mib: self.mib.max(other.mib),
            kept_mib: self.kept_mib.max(other.kept_mib),
        }
    }

    /// An estimate of memory alone (a replay, whose time the cost model does not know): `mib`
    /// beside the program's own [`BASE_MIB`].
    pub fn memory_only(mib: f64) -> Estimate {
        Estimate {
            simulated_s: 0.0,
            work: 0.0,
            work_unit: "requests",
            wall_s: 0.0,
            mib: BASE_MIB + mib,
            kept_mib: 0.0,
        }
    }
}

/// What a process may still allocate, and which limit says so (the CLI reads the machine's).
#[derive(Clone, Debug, PartialEq)]
pub struct MemoryLimit {
    /// Bytes.
    pub bytes: u64,
    /// The limit in words: "the machine's available memory (MemAvailable in /proc/meminfo)".
    pub source: String,
}

/// Refuses work whose estimated peak memory is over `limit` unless `no_limit`, with the
/// estimate, the limit and where the limit comes from in the message. `what` names the work.
pub fn check_memory(
    e: &Estimate,
    what: &str,
    limit: &MemoryLimit,
    no_limit: bool,
) -> Result<(), String> {
    check_memory_advising(e, what, limit, no_limit, RUN_ADVICE)
}

/// What makes simulations smaller, for [`check_memory`]'s message.
pub const RUN_ADVICE: &str = "fewer runs at once with --threads, a smaller pool or cache";

/// [`check_memory`] with the advice that fits the work (`advice`: how to make it smaller; a
/// replay has no runs to spread and no pool of its own).
pub fn check_memory_advising(
    e: &Estimate,
    what: &str,
    limit: &MemoryLimit,
    no_limit: bool,
    advice: &str,
) -> Result<(), String> {
    let limit_mib = limit.bytes as f64 / (1024.0 * 1024.0);
    if no_limit || e.mib <= limit_mib {
        return Ok(());
    }
    Err(format!(
        "{what} would take about {} MiB of memory at its peak, more than the {} MiB this process may use: {}; make it smaller ({advice}) or give --no-limit",
        crate::scenario::schema::group(e.mib.ceil() as u64),
        crate::scenario::schema::group(limit_mib.floor() as u64),
        limit.source
    ))
}

/// Estimates a run from its parameters. Never panics; values out of range give large (possibly
/// infinite) estimates, which the budget then refuses.
pub fn estimate(p: &Params) -> Estimate {
    let simulated_s = p.warmup_s as f64 + p.scan_s as f64;
    let threads = if p.cpus == 0 {
        p.lookup_threads
    } else {
        p.lookup_threads.min(p.cpus)
    } as f64;
    // A rate given as an input (`idle_lookups_per_s`, `idle_scan_pages_per_s`) sets the CPU
    // time the run uses (`sim::rates`): the same bound from the rate itself.
    let lookups_per_s = if p.idle_lookups_per_s > 0.0 && p.lookup_threads > 0 {
        p.idle_lookups_per_s
    } else {
        threads * 1e6 / p.lookup_cpu_us.max(1.0)
    };
    let scan_page_us =
        p.scan_cpu_us_per_page.max(0.0) + p.read_latency_us as f64 / READ_AHEAD_PAGES;
    let scan_pages_per_s = if p.idle_scan_pages_per_s > 0.0 {
        p.idle_scan_pages_per_s
    } else {
        1e6 / scan_page_us.max(1.0)
    };
    let scan_accesses_per_s = scan_pages_per_s * p.scan_touches_per_page.max(1) as f64;
    let page_accesses = lookups_per_s * simulated_s + scan_accesses_per_s * p.scan_s as f64;
    let memory = WALL_US_PER_ACCESS_MEMORY
        * ((p.hot_pages as f64 - CACHED_HOT_PAGES) / (UNCACHED_HOT_PAGES - CACHED_HOT_PAGES))
            .clamp(0.0, 1.0);
    let us_per_access = if p.cpus == 0 {
        WALL_US_PER_ACCESS + memory
    } else {
        WALL_US_PER_ACCESS + memory + WALL_US_PER_ACCESS_PER_THREAD * p.lookup_threads as f64
    };
    let frames = p.frames_per_instance() as f64 * p.buffer_pool_instances as f64;
    let hot = p.hot_pages as f64;
    let samples = simulated_s * 1000.0 / p.sample_ms.max(1) as f64 + 1.0;
    let setup_us = SETUP_US + SETUP_US_PER_FRAME * frames + SETUP_US_PER_HOT_PAGE * hot;
    let sample_us = samples * (SAMPLE_US_PER_FRAME * frames + SAMPLE_US_PER_HOT_PAGE * hot);
    Estimate {
        simulated_s,
        work: page_accesses,
        work_unit: "page accesses",
        wall_s: (setup_us + sample_us + page_accesses * us_per_access) / 1e6,
        mib: BASE_MIB + THREAD_MIB + p.memory_estimate() as f64 / MIB,
        kept_mib: p.samples() as f64 * BYTES_PER_SAMPLE as f64 / MIB,
    }
}

/// Page requests of a run, an upper bound as [`Estimate::work`] is: its lookups and its scanned
/// pages, each scanned page once however many times it is touched (what a recording of the
/// run's access stream holds: `midpoint policies`, `midpoint export`).
pub fn requests(p: &Params) -> f64 {
    let e = estimate(p);
    let scan_page_us =
        p.scan_cpu_us_per_page.max(0.0) + p.read_latency_us as f64 / READ_AHEAD_PAGES;
    let scan_accesses =
        1e6 / scan_page_us.max(1.0) * p.scan_touches_per_page.max(1) as f64 * p.scan_s as f64;
    let scan_pages = 1e6 / scan_page_us.max(1.0) * p.scan_s as f64;
    (e.work - scan_accesses).max(0.0) + scan_pages
}

/// What `--json` adds to a run's peak, MiB: the report built as a JSON value, then as text,
/// about 4 KiB a sample, and 1 KiB more a sample for the band of an ensemble (`runs` > 1).
/// Measured: 66,001 samples (`--warmup-s 60 --scan-s 600 --sample-ms 10`), RSS 276 MiB with
/// `--json` and 30 MiB with `--csv`; with `--runs 2`, 357 and 47 MiB.
pub fn json_mib(p: &Params, runs: u32) -> f64 {
    let per_sample = JSON_BYTES_PER_SAMPLE
        + if runs > 1 {
            JSON_BAND_BYTES_PER_SAMPLE
        } else {
            0.0
        };
    p.samples() as f64 * per_sample / MIB
}

const MIB: f64 = 1024.0 * 1024.0;

// The costs besides the page accesses, profiled in CPU time on `run --preset
// seed000-hot4485-b2b` with one size changed at a time, 4 simulated seconds: a pool of 1,048,448
// frames 0.37 s with 5 samples (nearly all of it set-up: 0.3 µs per frame), 0.51 s with 81
// (1.7 ns per frame per sample); a hot set of 1,048,576 pages in that pool 0.71 s with 81
// samples (2.6 ns more per hot page per sample); 4,193,792 frames and 4,194,304 hot pages, 21
// samples, 1.77 s. The cost per hot page does not grow with the pool (no cache-miss regime up to
// 4 million frames). RSS 425 MB and 56 MB for the pools of 4,194,304 and 524,288 frames.

/// Fixed set-up of a run, µs.
pub const SETUP_US: f64 = 5_000.0;
/// Set-up per pool frame (the arrays, the warm load that fills the pool), µs.
pub const SETUP_US_PER_FRAME: f64 = 0.3;
/// Set-up per hot page (its preload, beside the frame's own cost), µs.
pub const SETUP_US_PER_HOT_PAGE: f64 = 0.033;
/// Each sample walks the pool's frames: µs per frame.
pub const SAMPLE_US_PER_FRAME: f64 = 0.0017;
/// ... and the hot set (residency, young and old): µs per hot page.
pub const SAMPLE_US_PER_HOT_PAGE: f64 = 0.0026;
// Memory, measured as the peak RSS (`scripts/check-memory.sh` holds the estimates to it): the
// program alone (`midpoint presets`) 13.7 MiB; a pool of 4,193,792 frames with a hot set that
// fills it and 4.2 million table pages 226 MiB, and 417 MiB with a scanned table of 16.7
// million pages more (12 bytes a table page); 1,048,448 frames 61 MiB. Frames the run never
// touches are never resident (the arrays are zeroed by the kernel on first touch), so the
// per-frame figure is the arrays' full size, an upper bound: 41 bytes a frame were measured.

/// Memory of the program itself (the binary, its libraries, the allocator), MiB.
pub const BASE_MIB: f64 = 14.0;
/// Memory of each run that goes at once beside others: its thread's stack and allocator arena,
/// MiB (measured: 50 small runs on 25 threads 39 MiB, on 1 thread 14 MiB).
pub const THREAD_MIB: f64 = 1.0;

// The data's own figures are the scenarios' (their `memory_estimate`, which validation holds to
// its 4 GiB a run): per frame, table page and sample.
pub use crate::scenario::write::{WRITE_BYTES_PER_FRAME, WRITE_BYTES_PER_TABLE_PAGE};
pub use crate::scenario::{BYTES_PER_FRAME, BYTES_PER_SAMPLE, BYTES_PER_TABLE_PAGE};

/// What a sample adds to a report written as JSON, bytes; see [`json_mib`].
pub const JSON_BYTES_PER_SAMPLE: f64 = 4096.0;
/// ... and what the band of an ensemble adds, bytes per sample.
pub const JSON_BAND_BYTES_PER_SAMPLE: f64 = 1024.0;

/// Wall time per simulated event of a write-path run, µs, plus [`WRITE_WALL_US_PER_EVENT_PER_THREAD`]
/// per client thread (its processor-sharing CPU model is linear in the threads). Measured:
/// `seed001-64thd-dblwr128` (64 threads) 2.8 µs per event, `seed003-rw-default` (8 threads)
/// 0.57 µs.
pub const WRITE_WALL_US_PER_EVENT: f64 = 0.25;
/// Wall time per page of a write-path run's warm load, µs (10^8 secondary index pages: 7 s).
pub const WRITE_WALL_US_PER_PRELOAD_PAGE: f64 = 0.07;
/// See [`WRITE_WALL_US_PER_EVENT`].
pub const WRITE_WALL_US_PER_EVENT_PER_THREAD: f64 = 0.04;

/// Estimates a write-path run from its parameters: every CPU busy with transaction steps for the
/// whole run, plus the scan's pages. Checked against `events` in `run --json`:
/// `seed001-64thd-dblwr128` 2.03 million events, estimated 2.4 million; `seed003-rw-default`
/// 1.90 million, estimated 4.6 million.
pub fn estimate_write(p: &WriteParams) -> Estimate {
    let simulated_s = p.warmup_s as f64 + p.base_s as f64 + p.scan_s as f64;
    let busy = p.threads.min(p.cpus).max(1) as f64;
    let steps_per_s = busy * 1e6 / p.cpu_us_per_step.max(1.0);
    let scan_pages = if p.scan_table_pages > 0 {
        1e6 / p.scan_cpu_us_per_page.max(1.0) * p.scan_s as f64
    } else {
        0.0
    };
    let events = steps_per_s * simulated_s + scan_pages;
    let us_per_event =
        WRITE_WALL_US_PER_EVENT + WRITE_WALL_US_PER_EVENT_PER_THREAD * p.threads as f64;
    // The warm load creates every frame's page, or every secondary index page when there are
    // more (100,000,000 of them: 7 s, which the events alone put at 0 s).
    let frames = p.instances as f64 * p.frames_per_instance as f64;
    let preload = frames.max(p.sec_pages as f64);
    Estimate {
        simulated_s,
        work: events,
        work_unit: "events",
        wall_s: (events * us_per_event + preload * WRITE_WALL_US_PER_PRELOAD_PAGE) / 1e6,
        mib: BASE_MIB + THREAD_MIB + p.memory_estimate() as f64 / MIB,
        kept_mib: 0.0,
    }
}

/// The largest run of any preset, read-only or write path (its time and its memory): what a
/// command whose runs are fixed presets (an experiment, a comparison) costs at most per run.
pub fn largest_preset() -> Estimate {
    let mut all = crate::scenario::presets()
        .into_iter()
        .map(|p| estimate(&p.params))
        .chain(
            crate::scenario::write::presets()
                .into_iter()
                .map(|p| estimate_write(&p.params)),
        );
    let first = all.next().unwrap_or_else(|| Estimate::memory_only(0.0));
    all.fold(first, |a, b| a.larger(&b))
}

/// "2 h 5 min", "4 min 10 s", "12 s": a wall time for messages.
pub fn human_duration(s: f64) -> String {
    if !s.is_finite() {
        return "forever".into();
    }
    let s = s.max(0.0).round() as u64;
    match s {
        0..=59 => format!("{s} s"),
        60..=3599 => format!("{} min {} s", s / 60, s % 60),
        _ => format!("{} h {} min", s / 3600, s % 3600 / 60),
    }
}

/// Refuses work above [`WALL_BUDGET_S`] unless `no_limit`, with the estimate in the message.
/// `what` names the work ("this run", "this sweep of 64 runs").
pub fn check_budget(e: &Estimate, what: &str, no_limit: bool) -> Result<(), String> {
    if no_limit || e.wall_s <= WALL_BUDGET_S {
        return Ok(());
    }
    Err(format!(
        "{what} would take about {} ({:.3e} simulated {} over {:.0} simulated s), more than the \
         limit of {}; shorten it (fewer simulated seconds or threads, fewer sweep values) or \
         give --no-limit",
        human_duration(e.wall_s),
        e.work,
        e.work_unit,
        e.simulated_s,
        human_duration(WALL_BUDGET_S)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_run_is_short_and_bounded_from_above() {
        let e = estimate(&Params::default());
        assert_eq!(e.simulated_s, 210.0);
        // Measured: 45.9 million page accesses. The estimate is an upper bound, within 2x.
        assert!(e.work >= 45.9e6 && e.work < 2.0 * 45.9e6, "{e:?}");
        assert!(e.wall_s < PROGRESS_THRESHOLD_S, "{e:?}");
        check_budget(&e, "this run", false).unwrap();
    }

    #[test]
    fn many_threads_on_many_cpus_cost_more_per_access() {
        let p = Params {
            lookup_threads: 256,
            cpus: 256,
            ..Params::default()
        };
        let e = estimate(&p);
        // 256 threads x 5,000 lookups/s x 210 s, plus the scan.
        assert!(e.work > 256.0 * 5000.0 * 210.0, "{e:?}");
        assert!(e.wall_s > 60.0 && e.wall_s < WALL_BUDGET_S, "{e:?}");
    }

    #[test]
    fn hours_long_runs_are_refused_unless_asked_for() {
        let p = Params {
            lookup_threads: 256,
            cpus: 256,
            warmup_s: 3600,
            scan_s: 36_000,
            ..Params::default()
        };
        let e = estimate(&p);
        let msg = check_budget(&e, "this run", false).unwrap_err();
        assert!(msg.contains("--no-limit") && msg.contains(" h "), "{msg}");
        check_budget(&e, "this run", true).unwrap();
        // A sweep of short runs can add up past the budget too (16,384 default runs of about
        // 0.4 s of CPU each: 1.8 h).
        let one = estimate(&Params::default());
        assert!(check_budget(&one.times(4 * 64 * 64), "this sweep", false).is_err());
        assert!(check_budget(&one.times(40), "this sweep", false).is_ok());
    }

    #[test]
    fn write_runs_are_estimated_from_threads_cpus_and_duration() {
        let wp = crate::scenario::write::preset("seed001-64thd-dblwr128")
            .unwrap()
            .params;
        let e = estimate_write(&wp);
        // Measured: 2.03 million events in 5.7 s on this project's machines.
        assert!(e.work >= 2.03e6 && e.work < 3.0 * 2.03e6, "{e:?}");
        assert!(e.wall_s > 2.0 && e.wall_s < 30.0, "{e:?}");
        let long = WriteParams {
            warmup_s: u32::MAX,
            ..wp
        };
        let msg = check_budget(&estimate_write(&long), "this run", false).unwrap_err();
        assert!(msg.contains("simulated events"), "{msg}");
    }

    #[test]
    fn memory_adds_up_by_the_runs_at_once_and_the_reports_kept() {
        let one = estimate(&Params {
            sample_ms: 10,
            ..Params::default()
        });
        let working = one.mib - BASE_MIB - one.kept_mib;
        assert!(working > 0.0 && one.kept_mib > 0.0, "{one:?}");
        // 10 runs, 2 at once, all kept (an ensemble): 2 runs' working memory, 10 reports.
        let e = one.times_at_once(10, 2);
        assert!((e.mib - (BASE_MIB + 2.0 * working + 10.0 * one.kept_mib)).abs() < 1e-9);
        // A sweep that reduces its runs as they end keeps only those at once.
        let s = one.runs(10, 2, 2);
        assert!((s.mib - (BASE_MIB + 2.0 * (working + one.kept_mib))).abs() < 1e-9);
        // One run at a time is the run itself.
        assert!((one.times(1).mib - one.mib).abs() < 1e-9);
        // The JSON report counts its samples.
        let p = Params::default();
        assert!(json_mib(&p, 2) > json_mib(&p, 1) && json_mib(&p, 1) > 0.0);
    }

    #[test]
    fn memory_over_the_limit_is_refused_with_the_estimate_and_the_limit() {
        let e = Estimate::memory_only(2000.0);
        let limit = MemoryLimit {
            bytes: 1 << 30,
            source: "the machine's available memory".into(),
        };
        let msg = check_memory(&e, "this run", &limit, false).unwrap_err();
        assert_eq!(
            msg,
            format!(
                "this run would take about {} MiB of memory at its peak, more than the 1,024 MiB this process may use: the machine's available memory; make it smaller (fewer runs at once with --threads, a smaller pool or cache) or give --no-limit",
                crate::scenario::schema::group((2000.0 + BASE_MIB).ceil() as u64)
            )
        );
        check_memory(&e, "this run", &limit, true).unwrap();
        let roomy = MemoryLimit {
            bytes: 4 << 30,
            ..limit
        };
        check_memory(&e, "this run", &roomy, false).unwrap();
    }

    #[test]
    fn durations_read_well() {
        assert_eq!(human_duration(12.4), "12 s");
        assert_eq!(human_duration(250.0), "4 min 10 s");
        assert_eq!(human_duration(7500.0), "2 h 5 min");
        assert_eq!(human_duration(f64::INFINITY), "forever");
    }
}

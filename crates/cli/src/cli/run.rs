//! `midpoint run`: one scenario (read-only or write path), its table, CSV, JSON or SVG.

use super::*;
use clap::{Arg, ArgAction, ArgMatches, Command};
use midpoint_core::scenario::write::{self as write_scenario, WriteParams};
use midpoint_lab::chart;
use midpoint_lab::ensemble::{self, Ensemble};
use midpoint_lab::experiments::{self};

pub fn command() -> Command {
    Command::new("run")
            .about("Run one scenario and print kept %, leak rate, lookup rate and the time series")
            .arg(preset_arg())
            .arg(json_arg())
            .arg(Arg::new("csv").long("csv").action(ArgAction::SetTrue).help("print the time series as CSV, with every parameter in the header"))
            .arg(Arg::new("svg").long("svg").value_name("FILE").help("also write the residency chart as SVG"))
            .arg(runs_arg("1", "an ensemble of N runs with RNG seeds --seed, --seed + 1, ...: kept and every figure as the median with its range, the time series and the chart as the per-sample median (the chart with the runs' band); --json adds kept_median, kept_min, kept_max, kept_mean and runs; on a read-only scenario --threads N runs N at once (default: one per core) [alias: --seeds]"))
            .arg(no_limit_arg())
            .arg(Arg::new("estimate").long("estimate").action(ArgAction::SetTrue).help("print the run's estimated wall time and memory without running it (with --json: {\"estimated_s\", \"estimated_mib\"})"))
            .arg(Arg::new("set").long("set").value_name("NAME=VALUE").action(ArgAction::Append).help("write-path presets (seed001-*, seed003-rw-*, writeheavy-*): set a parameter, e.g. --set threads=64"))
            .args(param_args(true))
}

/// The estimate of the whole command: `one` run's, times the ensemble's runs (at once on rayon's
/// threads, `--threads`, set before this; every report kept), with what `--json` adds.
fn whole_estimate(
    a: &ArgMatches,
    one: midpoint_core::cost::Estimate,
    p: Option<&Params>,
) -> Result<midpoint_core::cost::Estimate, String> {
    let runs = parse_runs(a)?;
    let json = match p {
        Some(p) if a.get_flag("json") => midpoint_core::cost::json_mib(p, runs),
        _ => 0.0,
    };
    Ok(one
        .times_at_once(runs as usize, crate::progress::at_once(runs as usize))
        .plus_mib(json))
}

/// `--estimate`: the cost model's figures for the whole command (as run with the same flags),
/// nothing run.
fn print_estimate(a: &ArgMatches, e: midpoint_core::cost::Estimate) -> Result<(), String> {
    if a.get_flag("json") {
        println!(
            "{}",
            serde_json::json!({ "estimated_s": e.wall_s, "estimated_mib": e.mib })
        );
    } else {
        println!(
            "estimated {} and {:.0} MiB ({:.3e} {} over {} simulated s)",
            midpoint_core::cost::human_duration(e.wall_s),
            e.mib,
            e.work,
            e.work_unit,
            e.simulated_s
        );
    }
    Ok(())
}

/// A figure of the table: the run's value, or over several runs the median and the range.
fn fig(e: &Ensemble, name: &str, width: usize, prec: usize) -> String {
    let s = e.figure(name).expect("a figure of ensemble::FIGURES");
    if e.runs.len() == 1 {
        format!("{:width$.prec$}", s.median)
    } else {
        format!(
            "{:width$.prec$} ({:.prec$}-{:.prec$})",
            s.median, s.min, s.max
        )
    }
}

fn print_run_table(e: &Ensemble) {
    let r = e.first();
    let p = &r.parameters;
    println!(
        "pool {} MiB ({} frames x {} instance(s)), hot set {} pages, scanned table {} pages, old_blocks_pct {}, old_blocks_time {} ms, lru_scan_depth {}, cleaner {}, {} start",
        p.pool_mb,
        r.frames_per_instance,
        p.buffer_pool_instances,
        r.hot_pages,
        r.scan_table_pages,
        p.old_blocks_pct,
        p.old_blocks_time,
        p.lru_scan_depth,
        p.cleaner.label(),
        match p.start {
            midpoint_core::scenario::Start::Warm => "warm",
            midpoint_core::scenario::Start::Cold => "cold",
            midpoint_core::scenario::Start::Restart => "restart",
        }
    );
    let n = e.runs.len();
    if n > 1 {
        let seeds = e.seeds();
        println!(
            "{n} runs, RNG seeds {}-{}; each figure the median (range) over the runs",
            seeds[0],
            seeds[n - 1]
        );
    }
    println!();
    if n == 1 {
        println!(
            "kept (mean hot-set residency, {:.0}-{:.0} s)   {}",
            r.kept_window_s[0],
            r.kept_window_s[1],
            r.kept_percent(6)
        );
    } else {
        println!(
            "kept (mean hot-set residency, {:.0}-{:.0} s)   {}{}",
            r.kept_window_s[0],
            r.kept_window_s[1],
            e.kept_words(),
            if e.kept.n > 0 {
                format!(", mean {:.1} %", e.kept.mean * 100.0)
            } else {
                String::new()
            }
        );
    }
    println!(
        "scan pages turned young                  {} pages/s  (slide {}, promotion {})",
        fig(e, "young_leak_pages_per_s", 6, 1),
        fig(e, "slid_young_per_s", 0, 1),
        fig(e, "promoted_per_s", 0, 1)
    );
    if n == 1 && r.scan_growth_slid_young > 0 {
        println!(
            "  of the slide, by the pool's growth     {:6} pages  (the LRU list growing past its longest)",
            r.scan_growth_slid_young
        );
    }
    println!(
        "scanned table's young count, net growth  {} pages/s",
        fig(e, "scan_young_growth_per_s", 6, 1)
    );
    println!(
        "lookups during scans                     {} /s  (warm-up {} /s)",
        fig(e, "lookups_per_s", 6, 0),
        fig(e, "lookups_per_s_warmup", 0, 0)
    );
    println!(
        "scan rate                                {} pages/s  ({} passes)",
        fig(e, "scan_pages_per_s", 6, 0),
        fig(e, "scan_passes", 0, 0)
    );
    println!(
        "LRU batches with evictions during scans  {}  (mean {} pages)",
        fig(e, "refills_during_scan", 6, 0),
        fig(e, "mean_refill_pages", 0, 0)
    );
    println!(
        "made young / not made young              {} / {}",
        fig(e, "made_young", 0, 0),
        fig(e, "not_made_young", 0, 0)
    );
    println!();
    println!(
        "{:>7} {:>8} {:>7} {:>7} {:>9} {:>9} {:>7} {:>8} {:>7} {:>9}",
        "t (s)",
        "hot res",
        "hot y",
        "hot o",
        "scan y",
        "scan o",
        "free",
        "old len",
        "hit %",
        "lookups/s"
    );
    let step = (10_000 / p.sample_ms.max(1)).max(1) as usize;
    for s in e.median_samples.iter().step_by(step) {
        println!(
            "{:7.1} {:8} {:7} {:7} {:9} {:9} {:7} {:8} {:7.1} {:9.0}",
            s.t_s,
            s.hot_resident,
            s.hot_young,
            s.hot_old,
            s.scan_young,
            s.scan_old,
            s.free,
            s.old_len,
            s.lookup_hit_ratio * 100.0,
            s.lookups_per_s
        );
    }
}

pub fn run(a: &ArgMatches) -> Result<(), String> {
    if let Some(wp) = a
        .get_one::<String>("preset")
        .and_then(|n| write_scenario::preset(n))
    {
        return cmd_write_run(a, wp);
    }
    set_threads(a)?;
    let p = params_from(a)?;
    let whole = whole_estimate(a, midpoint_core::cost::estimate(&p), Some(&p))?;
    if a.get_flag("estimate") {
        return print_estimate(a, whole);
    }
    let runs = parse_runs(a)?;
    let no_limit = a.get_flag("no-limit");
    let e = if runs == 1 {
        Ensemble::of(vec![crate::progress::run_estimated(&p, whole, no_limit)?])
    } else {
        // The time of every run; the memory of the runs at once and every report.
        crate::progress::check_words(
            &whole,
            &format!("this sweep of {runs} runs"),
            &format!(
                "this ensemble of {runs} runs, {} at once,",
                crate::progress::at_once(runs as usize)
            ),
            no_limit,
        )?;
        let quiet = a.get_flag("json") || a.get_flag("csv");
        let mut counter = crate::progress::Counter::stderr("runs", quiet);
        let e = ensemble::run_with_progress(&p, runs, |d, n| counter.tick(d, n))?;
        counter.finish();
        e
    };
    let r = e.first();
    if let Some(path) = a.get_one::<String>("svg") {
        let refills = midpoint_lab::runs::refill_times(&r.batches, 0.1);
        let marks = midpoint_lab::experiments::seed000::residency_marks(&p);
        let svg = chart::residency_svg(&chart::Residency {
            band: Some(chart::Band {
                points: &e.hot_resident,
                runs: e.runs.len(),
            }),
            refills_s: &refills,
            published: &marks,
            ..chart::Residency::new(
                &e.median_samples,
                r.hot_pages,
                r.frames_per_instance * p.buffer_pool_instances,
                p.warmup_s as f64,
                (p.warmup_s + p.scan_s) as f64,
            )
        })?;
        write_file(path, &svg)?;
    }
    if a.get_flag("json") {
        print_json(&ensemble_json(&e)?)?;
    } else if a.get_flag("csv") {
        if runs > 1 {
            let seeds = e.seeds();
            println!(
                "# the per-sample median of {runs} runs (RNG seeds {}-{})",
                seeds[0],
                seeds[seeds.len() - 1]
            );
        }
        print!(
            "{}",
            midpoint_core::metrics::samples_csv(&p, &e.median_samples)
        );
    } else {
        print_run_table(&e);
    }
    Ok(())
}

/// `run --json`: the first run's report (`kept`, the samples: the run `--seed` gives), with the
/// ensemble's keys: `runs`, `seeds`, `kept_median`, `kept_min`, `kept_max`, `kept_mean` (`null`
/// when no run has a kept figure), every other figure's median, range and mean under
/// `figures`, and with more than one run the hot set's per-sample band, `hot_resident_band`.
fn ensemble_json(e: &Ensemble) -> Result<serde_json::Value, String> {
    let mut v = serde_json::to_value(e.first()).map_err(|x| x.to_string())?;
    let num = |x: f64| {
        if x.is_finite() {
            serde_json::json!(x)
        } else {
            serde_json::Value::Null
        }
    };
    let o = v.as_object_mut().ok_or("a run report is an object")?;
    o.insert("runs".into(), serde_json::json!(e.runs.len()));
    o.insert("seeds".into(), serde_json::json!(e.seeds()));
    o.insert("kept_median".into(), num(e.kept.median));
    o.insert("kept_min".into(), num(e.kept.min));
    o.insert("kept_max".into(), num(e.kept.max));
    o.insert("kept_mean".into(), num(e.kept.mean));
    let figures: serde_json::Map<String, serde_json::Value> = e
        .figures
        .iter()
        .map(|(name, s)| {
            (
                name.to_string(),
                serde_json::json!({"median": num(s.median), "min": num(s.min), "max": num(s.max), "mean": num(s.mean)}),
            )
        })
        .collect();
    o.insert("figures".into(), serde_json::Value::Object(figures));
    if e.runs.len() > 1 {
        o.insert(
            "hot_resident_band".into(),
            serde_json::to_value(&e.hot_resident).map_err(|x| x.to_string())?,
        );
    }
    Ok(v)
}

/// `run --preset <write-path preset>`: one write-path run. Its own flags and the read-only
/// flags that mean the same thing (`--lru-scan-depth`, `--seed`, ...) apply, in command-line
/// order, together with `--set NAME=VALUE`; any other flag is refused with the reason.
fn cmd_write_run(a: &ArgMatches, wp: write_scenario::WritePreset) -> Result<(), String> {
    if parse_runs(a)? != 1 {
        return Err(format!(
            "--runs: the write-path preset '{}' runs once (its results are throughput and counters, not an ensemble of kept figures)",
            wp.name
        ));
    }
    if a.get_flag("csv") {
        return Err(format!(
            "--csv: the write-path preset '{}' has no time series to export (it reports throughput and counters); use --json",
            wp.name
        ));
    }
    if a.get_one::<String>("svg").is_some() {
        return Err(format!(
            "--svg: the write-path preset '{}' draws no residency chart; use --json",
            wp.name
        ));
    }
    let mut p = wp.params;
    let mut names = read_names();
    names.extend(write_only_specs().iter().map(|s| s.name.to_string()));
    let mut given = given_params(a, &names);
    if let (Some(sets), Some(idx)) = (a.get_many::<String>("set"), a.indices_of("set")) {
        for (kv, i) in sets.zip(idx) {
            let (k, v) = kv
                .split_once('=')
                .ok_or_else(|| format!("--set {kv}: expected NAME=VALUE"))?;
            given.push((i, format!("set:{}", k.trim()), v.to_string()));
        }
    }
    given.sort();
    let scan_cpu_given = given
        .iter()
        .any(|(_, n, _)| n.trim_start_matches("set:") == "scan_cpu_us_per_page");
    for (_, name, v) in given {
        if let Some(k) = name.strip_prefix("set:") {
            p.set(k, &v).map_err(|e| format!("--set {k}={v}: {e}"))?;
            continue;
        }
        let flag = name.replace('_', "-");
        if name == "engine" {
            return Err(format!(
                "--engine: the write-path preset '{}' follows MySQL 8.4 only (the write path has no MariaDB profile)",
                wp.name
            ));
        }
        if WriteParams::spec(&name).is_none() {
            return Err(format!(
                "--{flag} does not apply to the write-path preset '{}': its workload is sysbench, not the read-only scenario's; its parameters are: {}",
                wp.name,
                WriteParams::SPECS
                    .iter()
                    .map(|s| format!("--{}", s.name.replace('_', "-")))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        p.set(&name, &v).map_err(|e| format!("--{flag}: {e}"))?;
    }
    if scan_cpu_given && p.scan_s == 0 {
        return Err(
            "--scan-cpu-us-per-page: this run has no concurrent scan (--scan-table-pages 0); set --scan-table-pages and --scan-s for one".into(),
        );
    }
    // The rules between values, also before an estimate (which would price a run that is
    // refused), named by the flags.
    p.validate().map_err(|e| flagged(&e))?;
    if a.get_flag("estimate") {
        return print_estimate(
            a,
            whole_estimate(a, midpoint_core::cost::estimate_write(&p), None)?,
        );
    }
    let r = crate::progress::run_write(&p, a.get_flag("no-limit"))?;
    if a.get_flag("json") {
        print_json(&r)?;
    } else {
        print!("{}", experiments::write_report::report_text(&wp.name, &r));
    }
    Ok(())
}

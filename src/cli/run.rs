//! `midpoint run`: one scenario (read-only or write path), its table, CSV, JSON or SVG.

use super::*;
use clap::{Arg, ArgAction, ArgMatches, Command};
use midpoint_core::metrics::RunReport;
use midpoint_core::scenario::write::{self as write_scenario, WriteParams};
use midpoint_lab::chart;
use midpoint_lab::experiments::{self};

pub fn command() -> Command {
    Command::new("run")
            .about("Run one scenario and print kept %, leak rate, lookup rate and the time series")
            .arg(preset_arg())
            .arg(json_arg())
            .arg(Arg::new("csv").long("csv").action(ArgAction::SetTrue).help("print the time series as CSV, with every parameter in the header"))
            .arg(Arg::new("svg").long("svg").value_name("FILE").help("also write the residency chart as SVG"))
            .arg(no_limit_arg())
            .arg(Arg::new("set").long("set").value_name("NAME=VALUE").action(ArgAction::Append).help("write-path presets (seed001-*, seed003-rw-*, writeheavy-*): set a parameter, e.g. --set threads=64"))
            .args(param_args(true))
}

fn print_run_table(r: &RunReport) {
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
    println!();
    println!(
        "kept (mean hot-set residency, {:.0}-{:.0} s)   {}",
        r.kept_window_s[0],
        r.kept_window_s[1],
        r.kept_percent(6)
    );
    println!(
        "scan pages turned young                  {:6.1} pages/s  (slide {:.1}, promotion {:.1})",
        r.young_leak_pages_per_s, r.slid_young_per_s, r.promoted_per_s
    );
    if r.scan_growth_slid_young > 0 {
        println!(
            "  of the slide, by the pool's growth     {:6} pages  (the LRU list growing past its longest)",
            r.scan_growth_slid_young
        );
    }
    println!(
        "scanned table's young count, net growth  {:6.1} pages/s",
        r.scan_young_growth_per_s
    );
    println!(
        "lookups during scans                     {:6.0} /s  (warm-up {:.0} /s)",
        r.lookups_per_s, r.lookups_per_s_warmup
    );
    println!(
        "scan rate                                {:6.0} pages/s  ({} passes)",
        r.scan_pages_per_s, r.scan_passes
    );
    println!(
        "LRU batches with evictions during scans  {:6}  (mean {:.0} pages)",
        r.refills_during_scan, r.mean_refill_pages
    );
    println!(
        "made young / not made young              {} / {}",
        r.counters.made_young, r.counters.not_made_young
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
    for s in r.samples.iter().step_by(step) {
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
    let p = params_from(a)?;
    let r = crate::cli::progress::run(&p, a.get_flag("no-limit"))?;
    if let Some(path) = a.get_one::<String>("svg") {
        let svg = chart::residency_svg(
            &r.samples,
            &midpoint::ui::charts::refill_times(&r.batches, 0.1),
            &midpoint_lab::experiments::seed000::residency_marks(&p),
            r.hot_pages,
            r.frames_per_instance * p.buffer_pool_instances,
            p.warmup_s as f64,
            (p.warmup_s + p.scan_s) as f64,
        )?;
        write_file(path, &svg)?;
    }
    if a.get_flag("json") {
        print_json(&r)?;
    } else if a.get_flag("csv") {
        print!("{}", midpoint_core::metrics::samples_csv(&p, &r.samples));
    } else {
        print_run_table(&r);
    }
    Ok(())
}

/// `run --preset <write-path preset>`: one write-path run. Its own flags and the read-only
/// flags that mean the same thing (`--lru-scan-depth`, `--seed`, ...) apply, in command-line
/// order, together with `--set NAME=VALUE`; any other flag is refused with the reason.
fn cmd_write_run(a: &ArgMatches, wp: write_scenario::WritePreset) -> Result<(), String> {
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
            "scan_cpu_us_per_page: this run has no concurrent scan (scan_table_pages = 0); set scan_table_pages and scan_s for one".into(),
        );
    }
    let r = crate::cli::progress::run_write(&p, a.get_flag("no-limit"))?;
    if a.get_flag("json") {
        print_json(&r)?;
    } else {
        print!("{}", experiments::write_report::report_text(&wp.name, &r));
    }
    Ok(())
}

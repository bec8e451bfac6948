//! `midpoint`: the simulator on the command line. Every figure on the page can be reproduced here.
// The CLI is native only. `cargo test --target wasm32-unknown-unknown` also builds the binary,
// so on wasm32 it is an empty crate.
#![cfg_attr(target_arch = "wasm32", no_main)]
#![cfg(not(target_arch = "wasm32"))]

use clap::{Arg, ArgAction, ArgMatches, Command};
use midpoint::chart;
use midpoint::experiments::{
    self, depth_sweep, mariadb, seed000, seed001, seed002, seed003, seed003_rw,
};
use midpoint::metrics::RunReport;
use midpoint::replay;
use midpoint::scenario::schema::Spec;
use midpoint::scenario::write::{self as write_scenario, WriteParams};
use midpoint::scenario::{preset, presets, Params};
use midpoint::sim::{self, EPOCH};
use midpoint::sweep;
use std::process::ExitCode;
use std::time::Instant;

/// The parameter names the read-only scenarios take (`Params`), in their declaration order.
fn read_names() -> Vec<String> {
    Params::SPECS.iter().map(|s| s.name.to_string()).collect()
}

/// The write-path parameters that no read-only scenario has.
fn write_only_specs() -> Vec<&'static Spec> {
    WriteParams::SPECS
        .iter()
        .filter(|s| Params::spec(s.name).is_none())
        .collect()
}

/// One flag per parameter, its help from the parameter's declaration: the read-only
/// scenarios' (`Params`), then, with `write`, the write-path presets' own (`WriteParams`). A
/// flag given twice: the last one wins.
fn param_args(write: bool) -> Vec<Arg> {
    let heading = "Parameters (a preset sets defaults; these override)";
    let arg = |s: &Spec, help: String| {
        Arg::new(s.name)
            .long(s.name.replace('_', "-"))
            .value_name("VALUE")
            .help(help)
            .allow_hyphen_values(true)
            .action(ArgAction::Append)
            .help_heading(heading)
    };
    let mut v = Vec::new();
    for s in Params::SPECS {
        let mut help = s.flag_help();
        if write {
            match WriteParams::spec(s.name) {
                Some(ws) if ws == s => help.push_str("; write-path presets too"),
                Some(ws) => help.push_str(&format!("; write-path presets: [{}]", ws.allowed())),
                None => help.push_str("; read-only presets only"),
            }
        }
        v.push(arg(s, help));
    }
    if write {
        for s in write_only_specs() {
            v.push(arg(
                s,
                format!("write-path presets only: {}", s.flag_help()),
            ));
        }
    }
    v
}

/// The parameter flags given, in command-line order: (position, name, value).
fn given_params(m: &ArgMatches, names: &[String]) -> Vec<(usize, String, String)> {
    let mut given: Vec<(usize, String, String)> = Vec::new();
    for name in names {
        // A name this subcommand does not declare is not an error here (`indices_of` would
        // panic on it): `try_get_many` tells first.
        if let Ok(Some(vals)) = m.try_get_many::<String>(name) {
            for (v, i) in vals.zip(m.indices_of(name).into_iter().flatten()) {
                given.push((i, name.clone(), v.clone()));
            }
        }
    }
    given.sort();
    given
}

const WRITE_PRESETS: &str = "seed001-*, seed003-rw-*, writeheavy-*";

fn params_from(m: &ArgMatches) -> Result<Params, String> {
    let mut p = match m.get_one::<String>("preset") {
        Some(name) => preset(name)?.params,
        None => Params::default(),
    };
    if m.try_get_many::<String>("set").ok().flatten().is_some() {
        return Err(format!(
            "--set applies to the write-path presets only ({WRITE_PRESETS}); here give each parameter as its own flag, e.g. --lru-scan-depth 128"
        ));
    }
    let write_only: Vec<String> = write_only_specs()
        .iter()
        .map(|s| s.name.to_string())
        .collect();
    if let Some((_, name, _)) = given_params(m, &write_only).first() {
        return Err(format!(
            "--{} applies to the write-path presets only ({WRITE_PRESETS}); this scenario is read-only",
            name.replace('_', "-")
        ));
    }
    // The engine first: it resets lru_scan_depth and buffer_pool_instances to its defaults, and
    // a flag the user gave must win wherever it stands on the line.
    let mut given = given_params(m, &read_names());
    given.sort_by_key(|(i, n, _)| (n != "engine", *i));
    for (_, name, v) in given {
        p.set(&name, &v)
            .map_err(|e| format!("--{}: {e}", name.replace('_', "-")))?;
    }
    p.validate()?;
    Ok(p)
}

fn cli() -> Command {
    let preset_arg = Arg::new("preset")
        .long("preset")
        .value_name("NAME")
        .help("start from a preset (see `midpoint presets`)");
    let no_limit = Arg::new("no-limit")
        .long("no-limit")
        .action(ArgAction::SetTrue)
        .help("run even when the estimated wall time is over one hour");
    let json = Arg::new("json")
        .long("json")
        .action(ArgAction::SetTrue)
        .help("print JSON");
    Command::new("midpoint")
        .about("Simulates the MySQL 8.4 InnoDB buffer pool LRU list: midpoint insertion, the old/young boundary, and how scans leak into the young sublist")
        .version(env!("CARGO_PKG_VERSION"))
        .subcommand_required(true)
        .arg_required_else_help(true)
        .subcommand(
            Command::new("run")
                .about("Run one scenario and print kept %, leak rate, lookup rate and the time series")
                .arg(preset_arg.clone())
                .arg(json.clone())
                .arg(Arg::new("csv").long("csv").action(ArgAction::SetTrue).help("print the time series as CSV, with every parameter in the header"))
                .arg(Arg::new("svg").long("svg").value_name("FILE").help("also write the residency chart as SVG"))
                .arg(no_limit.clone())
                .arg(Arg::new("set").long("set").value_name("NAME=VALUE").action(ArgAction::Append).help("write-path presets (seed001-*, seed003-rw-*, writeheavy-*): set a parameter, e.g. --set threads=64"))
                .args(param_args(true)),
        )
        .subcommand(
            Command::new("depth-sweep")
                .about("A write-heavy server with a concurrent scan: hot-set kept %, write throughput and free-list waits against innodb_lru_scan_depth")
                .arg(json.clone())
                .arg(Arg::new("depths").long("depths").value_name("LIST").help("comma-separated scan depths (default 128,256,512,1024,2048,4096)")),
        )
        .subcommand(
            Command::new("sweep")
                .about("Kept % against innodb_lru_scan_depth, one line per innodb_old_blocks_time")
                .arg(preset_arg.clone())
                .arg(json.clone())
                .arg(Arg::new("csv").long("csv").action(ArgAction::SetTrue).help("print CSV"))
                .arg(Arg::new("depths").long("depths").value_name("LIST").help("comma-separated scan depths (default 100,128,256,512,1024,2048,4096,8192)"))
                .arg(Arg::new("times").long("times").value_name("LIST").help("comma-separated old_blocks_time values in ms (default 0,250,500,1000,2000)"))
                .arg(Arg::new("svg").long("svg").value_name("FILE").help("also write the chart as SVG"))
                .arg(no_limit.clone())
                .args(param_args(false)),
        )
        .subcommand(
            Command::new("reproduce")
                .about("Run a published experiment (experiment 000 unless --experiment says otherwise) and print each published figure beside the simulated one, with its band and the band's reason")
                .arg(json.clone())
                .arg(Arg::new("runs").long("runs").alias("seeds").value_name("N").default_value("3").help("runs per cell, each with its own RNG seed (experiment 000 ran three) [alias: --seeds]"))
                .arg(Arg::new("quick").long("quick").action(ArgAction::SetTrue).help("skip the 10-minute runs (seed 002: fewer thread counts)"))
                .arg(Arg::new("experiment").long("experiment").alias("seed").value_name("ID").default_value("000").help(experiment_help())),
        )
        .subcommand(
            Command::new("calibrate")
                .about("Show how the page-cleaner cadence for experiment 000 was chosen: the cold start's leak rate per mean activity interval")
                .arg(Arg::new("runs").long("runs").alias("seeds").value_name("N").default_value("8").help("runs per interval, each with its own RNG seed [alias: --seeds]"))
                .arg(Arg::new("intervals").long("intervals").value_name("LIST").default_value("8,10,12,14,16,17,18,20,24").help("mean activity intervals to try, seconds (17 is the one the presets use)")),
        )
        .subcommand(
            Command::new("replay")
                .about("Replay a trace file (see README: trace format) and print the final pool state")
                .arg(Arg::new("file").required(true).value_name("FILE"))
                .arg(json.clone())
                .arg(Arg::new("max-bytes").long("max-bytes").value_name("BYTES").default_value(replay::DEFAULT_MAX_BYTES.to_string()).help("refuse a trace larger than this"))
                .arg(Arg::new("max-line-bytes").long("max-line-bytes").value_name("BYTES").default_value(replay::DEFAULT_MAX_LINE_BYTES.to_string()).help("refuse a trace with a longer line"))
                .args(midpoint::policy_cli::replay_args()),
        )
        .subcommand(midpoint::policy_cli::export_command())
        .subcommand(midpoint::policy_cli::policies_command())
        .subcommand(
            Command::new("bench")
                .about("Measure simulated page accesses per second on experiment 000's workload (median of several runs)")
                .arg(json.clone())
                .arg(Arg::new("runs").long("runs").value_name("N").default_value("5")),
        )
        .subcommand(Command::new("presets").about("List the presets"))
        .subcommand(
            Command::new("scale")
                .about("Seed 000's experiment in big pools: the pool from 256 MiB to 32 GiB with MySQL 8.4's default instance count, the hot set and the scanned table scaled with it")
                .arg(json.clone())
                .arg(Arg::new("preset").long("preset").value_name("NAME").default_value("seed000-hot4485-b2b").help("the seed-000 cell to scale"))
                .arg(Arg::new("sizes").long("sizes").value_name("LIST").help("comma-separated pool sizes in MiB (default 256,1024,4096,16384,32768)"))
                .arg(Arg::new("vcpus").long("vcpus").value_name("N").default_value("16").help("vCPUs MySQL sees: 8.4's default instance count is clamp(min(size / 256 MiB, vCPUs / 4), 1, 64) from 1 GiB up"))
                .arg(Arg::new("seeds").long("seeds").value_name("N").default_value("1").help("runs per size"))
                .arg(Arg::new("scan-s").long("scan-s").value_name("S").help("override the scan phase (seconds; the kept window shrinks to fit)"))
                .arg(Arg::new("warmup-s").long("warmup-s").value_name("S").help("override the warm-up (seconds)"))
                .arg(Arg::new("svg").long("svg").value_name("FILE").help("also write the kept-against-size chart as SVG")),
        )
        .subcommand(
            Command::new("phase")
                .about("The hot set's phase diagram: kept on a grid of two parameters (e.g. --x idle-lookups-per-s --y refill-interval-s), several seeds per cell")
                .arg(json.clone())
                .arg(Arg::new("preset").long("preset").value_name("NAME").default_value("seed000-hot897-b2b").help("the preset each cell starts from"))
                .arg(Arg::new("x").long("x").value_name("PARAM").default_value("idle-lookups-per-s").help("the x axis: a numeric parameter, or refill-interval-s (the cadence after-activity:S)"))
                .arg(Arg::new("y").long("y").value_name("PARAM").default_value("refill-interval-s").help("the y axis"))
                .arg(Arg::new("x-values").long("x-values").value_name("LIST").help("comma-separated x values (defaults exist for idle-lookups-per-s, refill-interval-s, hot-pages, lru-scan-depth)"))
                .arg(Arg::new("y-values").long("y-values").value_name("LIST").help("comma-separated y values"))
                .arg(Arg::new("seeds").long("seeds").value_name("N").default_value("3").help("runs per cell"))
                .arg(Arg::new("scan-s").long("scan-s").value_name("S").help("override the preset's scan phase (short runs for tests)"))
                .arg(Arg::new("warmup-s").long("warmup-s").value_name("S").help("override the preset's warm-up"))
                .arg(Arg::new("bands").long("bands").value_name("X,Y").help("instead of the grid: run seed 000's kept figures that have a band at this one setting and say which stay in band"))
                .arg(Arg::new("svg").long("svg").value_name("FILE").help("also write the heat map as SVG")),
        )
        .subcommand(
            Command::new("what-ifs")
                .about("List the what-if patches (candidate changes to one InnoDB rule each; apply with run --what-if NAME); with --compare, run each against stock 8.4")
                .arg(json.clone())
                .arg(Arg::new("compare").long("compare").action(ArgAction::SetTrue).help("run seed 000's cells and the write-heavy presets of depth-sweep under stock 8.4 and each what-if"))
                .arg(Arg::new("quick").long("quick").action(ArgAction::SetTrue).help("with --compare: the 4,485-page back-to-back cell and writeheavy-depth-1024 only"))
                .arg(Arg::new("seeds").long("seeds").value_name("N").default_value("2").help("with --compare: runs per read-only cell")),
        )
}

fn main() -> ExitCode {
    midpoint::output::install();
    midpoint::output::finish(run_cli())
}

fn run_cli() -> ExitCode {
    let m = match cli().try_get_matches() {
        Ok(m) => m,
        Err(e) => {
            if let Err(w) = e.print() {
                return midpoint::output::write_failed(&w);
            }
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    let result = match m.subcommand() {
        Some(("run", a)) => cmd_run(a),
        Some(("sweep", a)) => cmd_sweep(a),
        Some(("depth-sweep", a)) => cmd_depth_sweep(a),
        Some(("reproduce", a)) => cmd_reproduce(a),
        Some(("calibrate", a)) => cmd_calibrate(a),
        Some(("replay", a)) if midpoint::policy_cli::is_policy_replay(a) => {
            // The size limits guard the midpoint trace format, which is read whole; the standard
            // formats are streamed through the policy with a line limit of their own.
            match ["max-bytes", "max-line-bytes"]
                .into_iter()
                .find(|f| a.value_source(f) == Some(clap::parser::ValueSource::CommandLine))
            {
                Some(flag) => Err(format!(
                    "--{flag} applies to the midpoint trace format only, not with --format"
                )),
                None => midpoint::policy_cli::replay(a),
            }
        }
        Some(("replay", a)) => cmd_replay(a),
        Some(("export", a)) => midpoint::policy_cli::export(a),
        Some(("policies", a)) => midpoint::policy_cli::policies(a),
        Some(("bench", a)) => cmd_bench(a),
        Some(("what-ifs", a)) => cmd_what_ifs(a),
        Some(("scale", a)) => cmd_scale(a),
        Some(("phase", a)) => cmd_phase(a),
        Some(("presets", _)) => {
            for p in presets() {
                println!("{:32} {}", p.name, p.description);
            }
            for p in write_scenario::presets() {
                println!("{:32} {}", p.name, p.description);
            }
            Ok(())
        }
        _ => Err("unknown command".into()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}

fn parse_count(a: &ArgMatches, name: &str, lo: u32, hi: u32) -> Result<u32, String> {
    let v = a.get_one::<String>(name).map(String::as_str).unwrap_or("");
    let n: u32 = v
        .parse()
        .map_err(|_| format!("--{name} = '{v}' is not a whole number (from {lo} to {hi})"))?;
    if !(lo..=hi).contains(&n) {
        return Err(format!(
            "--{name} = {n} is out of range: allowed from {lo} to {hi}"
        ));
    }
    Ok(n)
}

fn parse_list(
    a: &ArgMatches,
    name: &str,
    default: &[u32],
    lo: u32,
    hi: u32,
) -> Result<Vec<u32>, String> {
    let Some(s) = a.get_one::<String>(name) else {
        return Ok(default.to_vec());
    };
    let mut v = Vec::new();
    for w in s.split(',') {
        let n: u32 = w
            .trim()
            .parse()
            .map_err(|_| format!("--{name}: '{w}' is not a whole number (from {lo} to {hi})"))?;
        if !(lo..=hi).contains(&n) {
            return Err(format!(
                "--{name}: {n} is out of range: allowed from {lo} to {hi}"
            ));
        }
        v.push(n);
    }
    if v.is_empty() || v.len() > 64 {
        return Err(format!("--{name}: give 1 to 64 values"));
    }
    Ok(v)
}

fn print_json<T: serde::Serialize>(v: &T) -> Result<(), String> {
    println!(
        "{}",
        serde_json::to_string_pretty(v).map_err(|e| e.to_string())?
    );
    Ok(())
}

fn write_file(path: &str, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("writing {path}: {e}"))
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
            midpoint::scenario::Start::Warm => "warm",
            midpoint::scenario::Start::Cold => "cold",
            midpoint::scenario::Start::Restart => "restart",
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

fn cmd_run(a: &ArgMatches) -> Result<(), String> {
    if let Some(wp) = a
        .get_one::<String>("preset")
        .and_then(|n| write_scenario::preset(n))
    {
        return cmd_write_run(a, wp);
    }
    let p = params_from(a)?;
    let r = midpoint::progress::run(&p, a.get_flag("no-limit"))?;
    if let Some(path) = a.get_one::<String>("svg") {
        let svg = chart::residency_svg(
            &r.samples,
            &midpoint::ui::charts::refill_times(&r.batches, 0.1),
            &midpoint::experiments::seed000::residency_marks(&p),
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
        print!("{}", midpoint::metrics::samples_csv(&p, &r.samples));
    } else {
        print_run_table(&r);
    }
    Ok(())
}

fn cmd_sweep(a: &ArgMatches) -> Result<(), String> {
    let p = params_from(a)?;
    let depths = parse_list(a, "depths", sweep::DEFAULT_DEPTHS, 100, 1_000_000)?;
    let times = parse_list(a, "times", sweep::DEFAULT_TIMES, 0, 3_600_000)?;
    midpoint::progress::check_sweep(&p, depths.len() * times.len(), a.get_flag("no-limit"))?;
    let quiet = a.get_flag("json") || a.get_flag("csv");
    let res = sweep::sweep(&p, &depths, &times, |done, total| {
        if !quiet {
            eprint!("\r{done}/{total} points");
        }
    })?;
    if !quiet {
        eprintln!();
    }
    if let Some(path) = a.get_one::<String>("svg") {
        let svg = chart::sweep_svg(
            &res,
            Some((p.lru_scan_depth, p.old_blocks_time)),
            &midpoint::experiments::seed000::sweep_marks(&p),
        )?;
        write_file(path, &svg)?;
    }
    if a.get_flag("json") {
        print_json(&res)?;
    } else if a.get_flag("csv") {
        print!("{}", res.to_csv());
    } else {
        print!("{:>22}", "old_blocks_time \\ depth");
        for d in &depths {
            print!(" {d:>6}");
        }
        println!();
        for (ti, t) in times.iter().enumerate() {
            print!("{:>19} ms", t);
            for di in 0..depths.len() {
                match res.at(ti, di).kept * 100.0 {
                    k if k.is_finite() => print!(" {k:5.1}%"),
                    _ => print!(" {:>6}", "n/a"),
                }
            }
            println!();
        }
    }
    Ok(())
}

/// `reproduce --experiment CODE`: an experiment's figures beside the simulated ones, as Markdown
/// tables under the experiment's title (or as JSON).
fn cmd_reproduce(a: &ArgMatches) -> Result<(), String> {
    let which = a
        .get_one::<String>("experiment")
        .map(String::as_str)
        .unwrap_or("000");
    let exp = experiments::find(which)?;
    let json = a.get_flag("json");
    let quick = a.get_flag("quick");
    // Checked for every experiment, so that a bad value is refused even where it is not used.
    let runs = parse_count(a, "runs", 1, 50)?;
    let fixed_runs = || -> Result<(), String> {
        if a.value_source("runs") == Some(clap::parser::ValueSource::CommandLine) {
            return Err(format!(
                "--runs does not apply to experiment {}: it runs each configuration once, with a fixed seed",
                exp.code
            ));
        }
        Ok(())
    };
    let progress = |done: usize, total: usize| eprint!("\r{done}/{total} runs");
    // Prints the rows as JSON, or the Markdown tables under the experiment's title.
    let show = |rows: serde_json::Result<String>, markdown: String| -> Result<(), String> {
        eprintln!();
        if json {
            println!("{}", rows.map_err(|e| e.to_string())?);
        } else {
            println!("## {}\n", exp.title);
            print!("{markdown}");
        }
        Ok(())
    };
    match exp.code {
        "000" => {
            let r = seed000::run_rows(&seed000::rows(!quick), runs, progress);
            show(serde_json::to_string_pretty(&r), seed000::markdown(&r))
        }
        "001" => {
            fixed_runs()?;
            let r = seed001::run(progress);
            show(serde_json::to_string_pretty(&r), seed001::markdown(&r))
        }
        "003-rw" => {
            fixed_runs()?;
            let r = seed003_rw::seed003_rw(progress);
            show(
                serde_json::to_string_pretty(&r),
                seed003_rw::seed003_rw_markdown(&r),
            )
        }
        "002" => {
            fixed_runs()?;
            let threads: Vec<u32> = if quick {
                vec![1, 3, 5, 8, 12, 16, 19]
            } else {
                (1..=19).collect()
            };
            let p37 = seed002::sweep(37, &threads, 1, progress);
            eprintln!();
            let p60 = seed002::sweep(60, &threads, 1, progress);
            let checks = seed002::checks(&p37, Some(&p60));
            let md = seed002::markdown(&p37, Some(&p60), &checks);
            show(serde_json::to_string_pretty(&(p37, p60, checks)), md)
        }
        "003" => {
            let r = seed003::run(runs, 1, progress);
            show(serde_json::to_string_pretty(&r), seed003::markdown(&r))
        }
        "mariadb" => {
            let r = mariadb::compare(runs, progress);
            show(
                serde_json::to_string_pretty(&r),
                mariadb::compare_markdown(&r),
            )
        }
        other => Err(format!("--experiment = '{other}': no such experiment")),
    }
}

/// `--experiment`'s help: every experiment's code and title.
fn experiment_help() -> String {
    let list: Vec<String> = experiments::ALL
        .iter()
        .map(|e| format!("{}: {}", e.code, e.title))
        .collect();
    format!("which experiment: {}", list.join("; "))
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
    let r = midpoint::progress::run_write(&p, a.get_flag("no-limit"))?;
    if a.get_flag("json") {
        print_json(&r)?;
    } else {
        print!("{}", experiments::write_report::report_text(&wp.name, &r));
    }
    Ok(())
}

/// `scale`: seed 000's experiment in big pools, one row per size, with the cost printed first.
fn cmd_scale(a: &ArgMatches) -> Result<(), String> {
    use midpoint::study::scale;
    let sizes = parse_list(a, "sizes", scale::DEFAULT_SIZES_MB, 16, 65536)?;
    let vcpus = parse_count(a, "vcpus", 1, 4096)?;
    let seeds = parse_count(a, "seeds", 1, 20)?;
    let name = a.get_one::<String>("preset").expect("default");
    let mut plan = scale::plan(name, &sizes, vcpus)?;
    for p in &mut plan {
        for k in ["scan-s", "warmup-s"] {
            if let Some(v) = a.get_one::<String>(k) {
                p.set(k, v).map_err(|e| format!("--{k}: {e}"))?;
            }
        }
        if p.kept_window_s > p.scan_s {
            p.kept_window_s = p.scan_s.max(1);
        }
        p.validate()?;
    }
    let peak = plan.iter().map(|p| p.memory_estimate()).max().unwrap_or(0);
    eprintln!(
        "{} runs (sizes {:?} MiB, {seeds} seed(s) each), one at a time; the largest takes about {:.0} MiB",
        plan.len() * seeds as usize,
        sizes,
        peak as f64 / (1u64 << 20) as f64
    );
    let mut rows = Vec::new();
    let mut wall = Vec::new();
    let t_all = Instant::now();
    for p in &plan {
        let t0 = Instant::now();
        rows.push(scale::run_row(p, seeds)?);
        wall.push(t0.elapsed().as_secs_f64());
        eprintln!(
            "{} MiB, {} instance(s): {:.1} s",
            p.pool_mb,
            p.buffer_pool_instances,
            wall.last().unwrap()
        );
    }
    eprintln!("total {:.1} s", t_all.elapsed().as_secs_f64());
    if let Some(path) = a.get_one::<String>("svg") {
        write_file(path, &midpoint::study::charts::scale_svg(&rows)?)?;
    }
    if a.get_flag("json") {
        let rows: Vec<serde_json::Value> = rows
            .iter()
            .zip(&wall)
            .map(|(r, w)| {
                let mut v = serde_json::to_value(r).expect("serialisable");
                v["wall_s"] = serde_json::json!(w);
                v
            })
            .collect();
        print_json(&serde_json::json!({ "rows": rows }))
    } else {
        print!("{}", scale::markdown(&rows, &wall));
        Ok(())
    }
}

fn parse_f64_list(a: &ArgMatches, name: &str) -> Result<Option<Vec<f64>>, String> {
    let Some(s) = a.get_one::<String>(name) else {
        return Ok(None);
    };
    s.split(',')
        .map(|v| {
            let x: f64 = v
                .trim()
                .parse()
                .map_err(|_| format!("--{name}: '{v}' is not a number"))?;
            if x.is_finite() {
                Ok(x)
            } else {
                Err(format!("--{name}: '{v}' is not a finite number"))
            }
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

/// `phase`: the grid (or, with `--bands`, one setting against seed 000's kept bands).
fn cmd_phase(a: &ArgMatches) -> Result<(), String> {
    use midpoint::study::{charts, phase};
    let x = a.get_one::<String>("x").expect("default").clone();
    let y = a.get_one::<String>("y").expect("default").clone();
    let seeds = parse_count(a, "seeds", 1, 50)?;
    if let Some(b) = parse_f64_list(a, "bands")? {
        let [xv, yv] = b[..] else {
            return Err("--bands: expected X,Y (one value per axis)".into());
        };
        let rows = phase::band_check(&x, xv, &y, yv, seeds)?;
        if a.get_flag("json") {
            return print_json(&rows);
        }
        println!("| cell | seed | band | kept % | in band |\n|---|---|---|---:|---|");
        for r in &rows {
            println!(
                "| {} | {} | {:.0}-{:.0} % | {:.1} | {} |",
                r.preset,
                r.seed_value,
                r.band.0 * 100.0,
                r.band.1 * 100.0,
                r.kept * 100.0,
                if r.within { "yes" } else { "no" }
            );
        }
        return Ok(());
    }
    let xs = match parse_f64_list(a, "x-values")? {
        Some(v) => v,
        None => phase::default_values(&x)
            .ok_or_else(|| format!("--x {x}: no default values; give --x-values"))?,
    };
    let ys = match parse_f64_list(a, "y-values")? {
        Some(v) => v,
        None => phase::default_values(&y)
            .ok_or_else(|| format!("--y {y}: no default values; give --y-values"))?,
    };
    let name = a.get_one::<String>("preset").expect("default");
    let mut preset_name = name.clone();
    // Short runs for tests: a preset copy with the phases overridden.
    let overrides: Vec<(&str, &String)> = ["scan-s", "warmup-s"]
        .iter()
        .filter_map(|k| a.get_one::<String>(k).map(|v| (*k, v)))
        .collect();
    let map = if overrides.is_empty() {
        eprintln!(
            "{} cells x {seeds} seed(s) = {} runs",
            xs.len() * ys.len(),
            xs.len() * ys.len() * seeds as usize
        );
        let t0 = Instant::now();
        let m = phase::run(&preset_name, &x, &xs, &y, &ys, seeds, |d, n| {
            eprint!("\r{d}/{n} cells")
        })?;
        eprintln!(
            "\r{} cells in {:.0} s",
            m.cells.len(),
            t0.elapsed().as_secs_f64()
        );
        m
    } else {
        let mut base = preset(name)?.params;
        for (k, v) in &overrides {
            base.set(k, v).map_err(|e| format!("--{k}: {e}"))?;
        }
        if base.kept_window_s > base.scan_s {
            base.kept_window_s = base.scan_s.max(1);
        }
        preset_name = format!(
            "{name} ({})",
            overrides
                .iter()
                .map(|(k, v)| format!("{k} {v}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let mut cells = Vec::new();
        for &yv in &ys {
            for &xv in &xs {
                let p = phase::cell_params(&base, &x, xv, &y, yv)?;
                cells.push(phase::run_cell(&p, xv, yv, seeds)?);
            }
        }
        phase::PhaseMap {
            preset: preset_name,
            x: x.replace('-', "_"),
            y: y.replace('-', "_"),
            x_values: xs,
            y_values: ys,
            seeds,
            cells,
        }
    };
    if let Some(path) = a.get_one::<String>("svg") {
        write_file(path, &charts::heatmap_svg(&map)?)?;
    }
    if a.get_flag("json") {
        print_json(&map)
    } else {
        print!("{}", phase::markdown(&map));
        Ok(())
    }
}

/// `what-ifs`: the list, or with `--compare` the comparison against stock 8.4.
fn cmd_what_ifs(a: &ArgMatches) -> Result<(), String> {
    use midpoint::study::whatif;
    if !a.get_flag("compare") {
        if a.get_flag("quick") {
            return Err("--quick applies with --compare only".into());
        }
        let list: Vec<_> = midpoint::pool::WhatIf::ALL
            .iter()
            .map(|w| (w.name(), w.description()))
            .collect();
        if a.get_flag("json") {
            let v: Vec<_> = list
                .iter()
                .map(|(n, d)| serde_json::json!({"name": n, "description": d}))
                .collect();
            return print_json(&v);
        }
        for (n, d) in list {
            println!("{n}  {d}");
        }
        return Ok(());
    }
    let seeds = parse_count(a, "seeds", 1, 20)?;
    let quick = a.get_flag("quick");
    let cells = whatif::seed000_cells(quick);
    let writes = whatif::write_presets(quick);
    let t0 = Instant::now();
    let c = whatif::compare(&cells, &writes, seeds, |d, n| eprint!("\r{d}/{n} runs"))?;
    eprintln!(
        "\r{} runs in {:.0} s",
        c.read.len() * seeds as usize + c.write.len(),
        t0.elapsed().as_secs_f64()
    );
    if a.get_flag("json") {
        print_json(&c)
    } else {
        print!("{}", whatif::markdown(&c));
        Ok(())
    }
}

/// `depth-sweep`: the write-heavy `lru_scan_depth` trade-off.
fn cmd_depth_sweep(a: &ArgMatches) -> Result<(), String> {
    let depths = parse_list(a, "depths", depth_sweep::DEPTHS, 100, 1_000_000)?;
    let rows = depth_sweep::depth_sweep(&depths, |d, n| eprint!("\r{d}/{n} runs"));
    eprintln!();
    if a.get_flag("json") {
        print_json(&rows)?;
    } else {
        print!("{}", depth_sweep::depth_markdown(&rows));
    }
    Ok(())
}

fn cmd_calibrate(a: &ArgMatches) -> Result<(), String> {
    let seeds = parse_count(a, "runs", 1, 100)?;
    let intervals = parse_list(a, "intervals", &[], 1, 3600)?;
    println!("Cold start, 4,485-page hot set, back-to-back scans, old_blocks_time 1000, {seeds} runs per row.");
    println!("Experiment 000: the scanned table's young pages climbed about 35 pages/s (about 5,700 after 150 s), hot set still fully cached.");
    println!();
    let rows: Vec<seed000::CalibrationRow> = intervals
        .into_iter()
        .map(|s| seed000::calibration_row(s as f64, seeds))
        .collect();
    print!("{}", seed000::calibration_markdown(&rows));
    Ok(())
}

fn cmd_replay(a: &ArgMatches) -> Result<(), String> {
    let path = a.get_one::<String>("file").expect("required");
    let limit = |name: &str| -> Result<u64, String> {
        let v = a.get_one::<String>(name).map(String::as_str).unwrap_or("");
        v.parse::<u64>()
            .ok()
            .filter(|n| *n >= 1)
            .ok_or_else(|| format!("--{name} = '{v}' is not a whole number of bytes (1 or more)"))
    };
    let limits = replay::Limits {
        max_bytes: limit("max-bytes")?,
        max_line_bytes: usize::try_from(limit("max-line-bytes")?).unwrap_or(usize::MAX),
    };
    let file = std::fs::File::open(path).map_err(|e| format!("reading {path}: {e}"))?;
    let trace = replay::parse_reader(std::io::BufReader::new(file), limits)
        .map_err(|e| format!("{path}: {e}"))?;
    for w in &trace.warnings {
        eprintln!("warning: {path}: {w}");
    }
    let r = replay::replay(&trace).map_err(|e| format!("{path}: {e}"))?;
    if a.get_flag("json") {
        println!("{}", serde_json::to_string(&r).map_err(|e| e.to_string())?);
    } else {
        println!(
            "{} events; LRU {} pages ({} old), free {}, freed_page_clock {}, made young {}, not made young {}, reads {}, evictions {}",
            trace.events.len(), r.lru.len(), r.old_len, r.free, r.freed_page_clock, r.made_young, r.not_made_young, r.reads, r.evictions
        );
        println!("LRU head to tail (space page old):");
        for e in r.lru.iter().take(40) {
            println!(
                "  {} {} {}",
                e[0],
                e[1],
                if e[2] == 1 { "old" } else { "young" }
            );
        }
        if r.lru.len() > 40 {
            println!("  ... {} more", r.lru.len() - 40);
        }
    }
    Ok(())
}

#[derive(serde::Serialize)]
struct BenchReport {
    accesses_per_s: f64,
    events_per_s: f64,
    /// Simulated seconds per wall-clock second of one full-size run (at the median run).
    sim_seconds_per_wall_second: f64,
    /// Wall time of one full-size run, ms: the median of `run_ms_runs`.
    run_ms_median: f64,
    run_ms_runs: Vec<f64>,
    accesses_per_run: u64,
    events_per_run: u64,
    simulated_seconds: f64,
    preset: String,
    /// The write workload (seed001-64thd-dblwr128): page accesses and events per wall second.
    write_preset: String,
    write_accesses_per_s: f64,
    write_events_per_s: f64,
    write_wall_ms_median: f64,
}

fn cmd_bench(a: &ArgMatches) -> Result<(), String> {
    let runs = parse_count(a, "runs", 1, 100)?;
    let name = "seed000-hot4485-b2b";
    let p = preset(name)?.params;
    let mut walls = Vec::new();
    let mut accesses = 0;
    let mut events = 0;
    let mut sim_s = 0.0;
    for _ in 0..runs {
        let t0 = Instant::now();
        let mut s = sim::Simulation::new(&p)?;
        s.run_to_end();
        let wall = t0.elapsed().as_secs_f64();
        accesses = s.pool.stats().page_gets;
        events = s.events();
        sim_s = midpoint::clock::to_secs(s.end() - EPOCH);
        walls.push(wall);
    }
    let mut sorted = walls.clone();
    sorted.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let med = sorted[sorted.len() / 2];
    let r = BenchReport {
        accesses_per_s: accesses as f64 / med,
        events_per_s: events as f64 / med,
        sim_seconds_per_wall_second: sim_s / med,
        run_ms_median: med * 1000.0,
        run_ms_runs: walls.iter().map(|w| w * 1000.0).collect(),
        accesses_per_run: accesses,
        events_per_run: events,
        simulated_seconds: sim_s,
        preset: name.into(),
        write_preset: String::new(),
        write_accesses_per_s: 0.0,
        write_events_per_s: 0.0,
        write_wall_ms_median: 0.0,
    };
    let mut r = r;
    {
        let wname = "seed001-64thd-dblwr128";
        let wp = write_scenario::preset(wname).ok_or("write preset")?.params;
        let mut walls = Vec::new();
        let (mut acc, mut ev) = (0, 0);
        for _ in 0..runs.min(3) {
            let t0 = Instant::now();
            let mut s = sim::Simulation::new_write(&wp)?;
            while s.step_write()? {}
            walls.push(t0.elapsed().as_secs_f64());
            acc = s.pool.stats().page_gets;
            ev = s.events();
        }
        walls.sort_by(|a, b| a.partial_cmp(b).unwrap());
        let med = walls[walls.len() / 2];
        r.write_preset = wname.into();
        r.write_accesses_per_s = acc as f64 / med;
        r.write_events_per_s = ev as f64 / med;
        r.write_wall_ms_median = med * 1000.0;
    }
    if a.get_flag("json") {
        print_json(&r)?;
    } else {
        println!(
            "preset {name}: {:.0} simulated s, {} page accesses, {} events per run",
            sim_s, accesses, events
        );
        println!("one run: {:.1} ms (median of {runs})", r.run_ms_median);
        println!(
            "{:.1} million page accesses/s, {:.1} million events/s, {:.0} simulated s per wall s",
            r.accesses_per_s / 1e6,
            r.events_per_s / 1e6,
            r.sim_seconds_per_wall_second
        );
        println!(
            "write workload {}: {:.1} million page accesses/s, {:.1} million events/s ({:.0} ms per run)",
            r.write_preset,
            r.write_accesses_per_s / 1e6,
            r.write_events_per_s / 1e6,
            r.write_wall_ms_median
        );
    }
    Ok(())
}

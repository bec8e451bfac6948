//! The `midpoint` command line: one module per subcommand, each with `command()` (its clap
//! definition) and `run()`; the parameter flags and the helpers they share are here.

mod bench;
mod calibrate;
mod depth_sweep;
mod experiment;
mod from_status;
mod phase;
mod policy;
mod presets;
mod replay;
mod reproduce;
mod run;
mod scale;
mod sweep;
mod what_ifs;

pub use crate::output::flagged;

use clap::{Arg, ArgAction, ArgMatches, Command};
use midpoint_core::scenario::schema::Spec;
use midpoint_core::scenario::write::WriteParams;
use midpoint_core::scenario::{preset, Params};

/// Every subcommand, in the order `--help` lists them.
pub fn cli() -> Command {
    Command::new("midpoint")
        .about("Simulates the MySQL 8.4 InnoDB buffer pool LRU list: midpoint insertion, the old/young boundary, and how scans leak into the young sublist")
        .version(env!("CARGO_PKG_VERSION"))
        .subcommand_required(true)
        .arg_required_else_help(true)
        .subcommand(run::command())
        .subcommand(depth_sweep::command())
        .subcommand(sweep::command())
        .subcommand(reproduce::command())
        .subcommand(calibrate::command())
        .subcommand(replay::command())
        .subcommand(policy::export_command())
        .subcommand(policy::policies_command())
        .subcommand(bench::command())
        .subcommand(presets::command())
        .subcommand(scale::command())
        .subcommand(phase::command())
        .subcommand(what_ifs::command())
        .subcommand(experiment::command())
        .subcommand(from_status::command())
}

/// Runs the subcommand `m` names.
pub fn dispatch(m: &ArgMatches) -> Result<(), String> {
    // `run` sizes the pool itself: there `--threads` is also the write-path presets' client
    // thread count.
    if let Some((name, a)) = m.subcommand() {
        if name != "run" {
            set_threads(a)?;
        }
        // An output file that cannot be written is found before the work, not after it.
        if let Ok(Some(path)) = a.try_get_one::<String>("svg") {
            check_writable("--svg", path)?;
        }
    }
    match m.subcommand() {
        Some(("run", a)) => run::run(a),
        Some(("sweep", a)) => sweep::run(a),
        Some(("depth-sweep", a)) => depth_sweep::run(a),
        Some(("reproduce", a)) => reproduce::run(a),
        Some(("calibrate", a)) => calibrate::run(a),
        Some(("replay", a)) => replay::run(a),
        Some(("export", a)) => policy::export(a),
        Some(("policies", a)) => policy::policies(a),
        Some(("bench", a)) => bench::run(a),
        Some(("what-ifs", a)) => what_ifs::run(a),
        Some(("scale", a)) => scale::run(a),
        Some(("phase", a)) => phase::run(a),
        Some(("presets", a)) => presets::run(a),
        Some(("experiment", a)) => experiment::run(a),
        Some(("from-status", a)) => from_status::run(a),
        _ => Err("unknown command".into()),
    }
}

/// `--preset NAME`.
pub fn preset_arg() -> Arg {
    Arg::new("preset")
        .long("preset")
        .value_name("NAME")
        .help("start from a preset (see `midpoint presets`)")
}

/// `--runs N` (alias `--seeds`): an ensemble of N runs, RNG seeds `--seed`, `--seed` + 1, ….
pub fn runs_arg(default: &'static str, help: &'static str) -> Arg {
    Arg::new("runs")
        .long("runs")
        .alias("seeds")
        .value_name("N")
        .default_value(default)
        .help(help)
}

/// `--runs`, checked (1 to [`midpoint_lab::ensemble::MAX_RUNS`]).
pub fn parse_runs(a: &ArgMatches) -> Result<u32, String> {
    parse_count(a, "runs", 1, midpoint_lab::ensemble::MAX_RUNS)
}

/// `--threads N`: how many runs at once.
pub fn threads_arg() -> Arg {
    Arg::new("threads")
        .long("threads")
        .value_name("N")
        .help("runs at once, on this many threads (default: one per core); the results are the same whatever the count")
}

/// Sizes rayon's global pool from `--threads` when the subcommand has it and it is given
/// (rayon's default, one thread per core, otherwise).
pub fn set_threads(a: &ArgMatches) -> Result<(), String> {
    if let Ok(Some(_)) = a.try_get_one::<String>("threads") {
        let n = parse_count(a, "threads", 1, 1024)?;
        // rayon's global pool can be built once per process: a second call (a subcommand that
        // sizes it again) finds it built and leaves it.
        static BUILT: std::sync::OnceLock<Result<(), String>> = std::sync::OnceLock::new();
        BUILT
            .get_or_init(|| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(n as usize)
                    .build_global()
                    .map_err(|e| format!("--threads: {e}"))
            })
            .clone()?;
    }
    Ok(())
}

/// `--no-limit`.
pub fn no_limit_arg() -> Arg {
    Arg::new("no-limit")
        .long("no-limit")
        .action(ArgAction::SetTrue)
        .help("run even when the estimated wall time is over one hour, or the estimated memory over what this process may use (the machine's available memory, ulimit -v, the cgroup's limit)")
}

/// `--json`.
pub fn json_arg() -> Arg {
    Arg::new("json")
        .long("json")
        .action(ArgAction::SetTrue)
        .help("print JSON")
}

/// The parameter names the read-only scenarios take (`Params`), in their declaration order.
pub fn read_names() -> Vec<String> {
    Params::SPECS.iter().map(|s| s.name.to_string()).collect()
}

/// The write-path parameters that no read-only scenario has.
pub fn write_only_specs() -> Vec<&'static Spec> {
    WriteParams::SPECS
        .iter()
        .filter(|s| Params::spec(s.name).is_none())
        .collect()
}

/// One flag per parameter, its help from the parameter's declaration: the read-only
/// scenarios' (`Params`), then, with `write`, the write-path presets' own (`WriteParams`). A
/// flag given twice: the last one wins.
pub fn param_args(write: bool) -> Vec<Arg> {
    // Grouped under three headings (a preset sets defaults; these override): the server
    // variables, the workload and the run, the write path's own.
    let heading = |s: &Spec, write_only: bool| {
        if write_only {
            "Write-path parameters (seed001-*, seed003-rw-*, writeheavy-* presets; override the preset)"
        } else if s.innodb.is_some() {
            "InnoDB variables (override the preset)"
        } else {
            "Workload and run parameters (override the preset)"
        }
    };
    let arg = |s: &Spec, help: String, write_only: bool| {
        Arg::new(s.name)
            .long(s.name.replace('_', "-"))
            .value_name("VALUE")
            .help(help)
            .allow_hyphen_values(true)
            .action(ArgAction::Append)
            .help_heading(heading(s, write_only))
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
        v.push(arg(s, help, false));
    }
    if write {
        for s in write_only_specs() {
            v.push(arg(
                s,
                format!("write-path presets only: {}", s.flag_help()),
                true,
            ));
        }
    }
    v
}

/// The parameter flags given, in command-line order: (position, name, value).
pub fn given_params(m: &ArgMatches, names: &[String]) -> Vec<(usize, String, String)> {
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

pub const WRITE_PRESETS: &str = "seed001-*, seed003-rw-*, writeheavy-*";

pub fn params_from(m: &ArgMatches) -> Result<Params, String> {
    let mut p = match m.get_one::<String>("preset") {
        Some(name) => preset(name)?.params,
        None => Params::default(),
    };
    if m.try_get_many::<String>("set").ok().flatten().is_some() {
        return Err(format!(
            "--set applies to the write-path presets only ({WRITE_PRESETS}); here give each parameter as its own flag, e.g. --lru-scan-depth 128"
        ));
    }
    // `--threads` on a read-only command is how many runs at once (`threads_arg`), not the
    // write path's client threads.
    let write_only: Vec<String> = write_only_specs()
        .iter()
        .map(|s| s.name.to_string())
        .filter(|n| n != "threads")
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
    p.validate().map_err(|e| flagged(&e))?;
    // A scenario that cannot fit its pool still runs, with a word on stderr.
    for w in p.warnings() {
        eprintln!("warning: {w}");
    }
    Ok(p)
}

pub fn parse_count(a: &ArgMatches, name: &str, lo: u32, hi: u32) -> Result<u32, String> {
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

pub fn parse_list(
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

pub fn parse_f64_list(a: &ArgMatches, name: &str) -> Result<Option<Vec<f64>>, String> {
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

pub fn print_json<T: serde::Serialize>(v: &T) -> Result<(), String> {
    println!(
        "{}",
        serde_json::to_string_pretty(v).map_err(|e| e.to_string())?
    );
    Ok(())
}

/// Checks that `path` can be written (a file name, in a directory that exists, not a
/// directory, with write permission) without changing it: a file that does not exist yet is
/// created and removed again.
pub fn check_writable(flag: &str, path: &str) -> Result<(), String> {
    if path.trim().is_empty() {
        return Err(format!("{flag}: give a file name (it was empty)"));
    }
    let p = std::path::Path::new(path);
    if p.is_dir() {
        return Err(format!("{flag} {path}: is a directory; give a file name"));
    }
    if p.exists() {
        std::fs::OpenOptions::new()
            .write(true)
            .open(p)
            .map(drop)
            .map_err(|e| format!("{flag} {path}: cannot write it: {e}"))
    } else {
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(p)
            .map_err(|e| format!("{flag} {path}: cannot write it: {e}"))?;
        std::fs::remove_file(p).map_err(|e| format!("{flag} {path}: {e}"))
    }
}

pub fn write_file(path: &str, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("writing {path}: {e}"))
}

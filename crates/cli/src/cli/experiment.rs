//! `midpoint experiment`: seed 000's experiment on your own MySQL or MariaDB server, with the
//! model beside it.

use super::*;
use crate::experiment::plan::{spec_range, Settings};
use crate::experiment::{self, conn::Target, Options};
use clap::{Arg, ArgAction, ArgMatches, Command};
use midpoint_core::scenario::schema::{OLD_BLOCKS_PCT, OLD_BLOCKS_TIME};

pub fn command() -> Command {
    let opt = |name: &'static str, value: &'static str, help: &'static str| {
        Arg::new(name).long(name).value_name(value).help(help)
    };
    let flag = |name: &'static str, help: &'static str| {
        Arg::new(name)
            .long(name)
            .action(ArgAction::SetTrue)
            .help(help)
    };
    Command::new("experiment")
        .about("Run seed 000's experiment on a live MySQL or MariaDB test server (a hot table read by point lookups, a table several times the pool scanned in a loop) and print the model beside it. The measurement runs on the wall clock")
        .arg(opt("url", "URL", "the server: mysql://user[:password]@host[:port]"))
        .arg(opt("socket", "PATH", "the server's Unix socket (user root, or the --url's credentials)"))
        .arg(opt("hot-frac", "F", "the hot table's leaf pages as a share of the pool (default 0.25)"))
        .arg(opt("scan-x", "X", "the scanned table's size in pools (default 3)"))
        .arg(opt("warmup-s", "S", "seconds of lookups before the scans (default 60)"))
        .arg(opt("scan-s", "S", "seconds of scanning (default 150)"))
        .arg(opt("pause-ms", "MS", "pause between two passes of the scan (default 0)"))
        .arg(opt("old-blocks-time", "MS", "SET GLOBAL innodb_old_blocks_time for the run (default: the server's value)"))
        .arg(opt("old-blocks-pct", "P", "SET GLOBAL innodb_old_blocks_pct for the run (default: the server's value)"))
        .arg(opt("lru-scan-depth", "N", "SET GLOBAL innodb_lru_scan_depth for the run (default: the server's value)"))
        .arg(opt("runs", "N", "simulated runs of the model's ensemble, seeds 1 to N (default 5)"))
        .arg(opt("sample-s", "S", "seconds between two samples of the pool's content (default 5)"))
        .arg(opt("free-sample-ms", "MS", "milliseconds between two samples of the free list (default 100)"))
        .arg(opt("cpus", "N", "the default model's CPUs (\"simulated\" in --json): 0 = the seed-000 scan_interference factor, N = processor sharing over N CPUs (default: the fixed factor; the other model is run beside it)"))
        .arg(opt("server-cpus", "N", "the server's CPUs, for the processor-sharing model (default: this machine's when the server is on loopback; else that model is not run)"))
        .arg(opt("idle-passes", "N", "idle scan passes timed after one warm pass; the model is given their median rate (default 3)"))
        .arg(flag("yes", "run even though the server holds other schemas (the run loads the server and evicts their pages)"))
        .arg(flag("keep", "keep the schema midpoint_experiment and its tables at the end"))
        .arg(flag("dry-run", "print the plan (tables, disk, time, variables) and do nothing"))
        .arg(json_arg())
        .arg(opt("svg", "FILE", "also write kept over time, both curves, as SVG"))
        .arg(no_limit_arg())
}

/// A real number, in range (`ok`, worded by `range`): refused with the value as typed (a
/// number is not printed back as the float it was read into: 18446744073709551616 stays that).
fn real(
    a: &ArgMatches,
    name: &str,
    default: f64,
    ok: fn(f64) -> bool,
    range: &str,
) -> Result<f64, String> {
    match a.get_one::<String>(name) {
        None => Ok(default),
        Some(v) => {
            let x = v
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| format!("--{name} = '{v}' is not a number"))?;
            if ok(x) {
                Ok(x)
            } else {
                Err(format!("--{name} = '{v}' is out of range: {range}"))
            }
        }
    }
}

fn count(a: &ArgMatches, name: &str, default: u32, lo: u32, hi: u32) -> Result<u32, String> {
    if a.get_one::<String>(name).is_none() {
        return Ok(default);
    }
    parse_count(a, name, lo, hi)
}

fn maybe(a: &ArgMatches, name: &str, lo: u32, hi: u32) -> Result<Option<u32>, String> {
    if a.get_one::<String>(name).is_none() {
        return Ok(None);
    }
    parse_count(a, name, lo, hi).map(Some)
}

pub fn options(a: &ArgMatches) -> Result<Options, String> {
    let d = Settings::default();
    let url = a.get_one::<String>("url").cloned();
    let socket = a.get_one::<String>("socket").cloned();
    if url.is_none() && socket.is_none() {
        return Err(
            "give the server: --url mysql://user[:password]@host[:port] or --socket PATH".into(),
        );
    }
    let settings = Settings {
        hot_frac: real(
            a,
            "hot-frac",
            d.hot_frac,
            |x| x > 0.0 && x <= 0.9,
            "above 0 and at most 0.9 (a share of the pool)",
        )?,
        scan_x: real(
            a,
            "scan-x",
            d.scan_x,
            |x| (1.0..=50.0).contains(&x),
            "from 1 to 50 (pools)",
        )?,
        warmup_s: count(a, "warmup-s", d.warmup_s, 1, 3600)?,
        scan_s: count(a, "scan-s", d.scan_s, 1, 3600)?,
        pause_ms: count(a, "pause-ms", d.pause_ms, 0, 600_000)?,
        old_blocks_time: {
            let (lo, hi) = spec_range(&OLD_BLOCKS_TIME);
            maybe(a, "old-blocks-time", lo, hi)?
        },
        old_blocks_pct: {
            let (lo, hi) = spec_range(&OLD_BLOCKS_PCT);
            maybe(a, "old-blocks-pct", lo, hi)?
        },
        lru_scan_depth: maybe(a, "lru-scan-depth", 100, 1 << 30)?,
        runs: count(a, "runs", d.runs, 1, 100)?,
        sample_s: count(a, "sample-s", d.sample_s, 1, 60)?,
        free_sample_ms: count(a, "free-sample-ms", d.free_sample_ms, 10, 10_000)?,
        cpus: maybe(a, "cpus", 0, 256)?,
        server_cpus: maybe(a, "server-cpus", 1, 256)?,
        idle_passes: count(a, "idle-passes", d.idle_passes, 1, 20)?,
        keep: a.get_flag("keep"),
    };
    settings.validate()?;
    Ok(Options {
        target: Target { url, socket },
        settings,
        yes: a.get_flag("yes"),
        dry_run: a.get_flag("dry-run"),
        json: a.get_flag("json"),
        svg: a.get_one::<String>("svg").cloned(),
        no_limit: a.get_flag("no-limit"),
    })
}

/// `experiment`: the live run and the model beside it.
pub fn run(a: &ArgMatches) -> Result<(), String> {
    let o = options(a)?;
    let out = experiment::run(&o)?;
    print!("{out}");
    Ok(())
}

//! `midpoint sweep`: kept against innodb_lru_scan_depth, one line per old_blocks_time.

use super::*;
use clap::{Arg, ArgAction, ArgMatches, Command};
use midpoint_lab::chart;
use midpoint_lab::sweep;

pub fn command() -> Command {
    Command::new("sweep")
        .about("Kept % against innodb_lru_scan_depth, one line per innodb_old_blocks_time")
        .arg(preset_arg())
        .arg(json_arg())
        .arg(
            Arg::new("csv")
                .long("csv")
                .action(ArgAction::SetTrue)
                .help("print CSV"),
        )
        .arg(
            Arg::new("depths")
                .long("depths")
                .value_name("LIST")
                .help("comma-separated scan depths (default 100,128,256,512,1024,2048,4096,8192)"),
        )
        .arg(
            Arg::new("times")
                .long("times")
                .value_name("LIST")
                .help("comma-separated old_blocks_time values in ms (default 0,250,500,1000,2000)"),
        )
        .arg(
            Arg::new("svg")
                .long("svg")
                .value_name("FILE")
                .help("also write the chart as SVG"),
        )
        .arg(runs_arg("1", "runs per point, RNG seeds --seed, --seed + 1, ...: each point's kept the median, its range in --json (kept_range) [alias: --seeds]"))
        .arg(threads_arg())
        .arg(no_limit_arg())
        .args(param_args(false))
}

pub fn run(a: &ArgMatches) -> Result<(), String> {
    let p = params_from(a)?;
    let depths = parse_list(a, "depths", sweep::DEFAULT_DEPTHS, 100, 1_000_000)?;
    let times = parse_list(a, "times", sweep::DEFAULT_TIMES, 0, 3_600_000)?;
    let runs = parse_runs(a)?;
    // Points at once, each holding its runs' reports until it ends.
    let total = depths.len() * times.len() * runs as usize;
    crate::progress::check_runs(
        midpoint_core::cost::estimate(&p),
        total,
        crate::progress::at_once(total) * runs as usize,
        "this sweep",
        a.get_flag("no-limit"),
    )?;
    let quiet = a.get_flag("json") || a.get_flag("csv");
    let mut counter = crate::progress::Counter::stderr("points", quiet);
    let res = sweep::sweep_runs(&p, &depths, &times, runs, |done, total| {
        counter.tick(done, total)
    })?;
    counter.finish();
    if let Some(path) = a.get_one::<String>("svg") {
        let svg = chart::sweep_svg(
            &res,
            Some((p.lru_scan_depth, p.old_blocks_time)),
            &midpoint_lab::experiments::seed000::sweep_marks(&p),
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

//! `midpoint depth-sweep`: the write-heavy server with a scan, against innodb_lru_scan_depth.

use super::*;
use clap::{Arg, ArgMatches, Command};
use midpoint_lab::experiments::depth_sweep;

pub fn command() -> Command {
    Command::new("depth-sweep")
            .about("A write-heavy server with a concurrent scan: hot-set kept %, write throughput and free-list waits against innodb_lru_scan_depth")
            .arg(json_arg())
            .arg(threads_arg())
            .arg(Arg::new("depths").long("depths").value_name("LIST").help("comma-separated scan depths (default 128,256,512,1024,2048,4096)"))
            .arg(no_limit_arg())
}

/// `depth-sweep`: the write-heavy `lru_scan_depth` trade-off.
pub fn run(a: &ArgMatches) -> Result<(), String> {
    let depths = parse_list(a, "depths", depth_sweep::DEPTHS, 100, 1_000_000)?;
    crate::progress::check_presets("this sweep", depths.len(), a.get_flag("no-limit"))?;
    let mut counter = crate::progress::Counter::stderr("runs", false);
    let rows = depth_sweep::depth_sweep(&depths, |d, n| counter.tick(d, n));
    counter.finish();
    if a.get_flag("json") {
        print_json(&rows)?;
    } else {
        print!("{}", depth_sweep::depth_markdown(&rows));
    }
    Ok(())
}

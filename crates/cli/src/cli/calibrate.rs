//! `midpoint calibrate`: how the page-cleaner cadence of experiment 000 was chosen.

use super::*;
use clap::{Arg, ArgMatches, Command};
use midpoint_lab::experiments::seed000;

pub fn command() -> Command {
    Command::new("calibrate")
            .about("Show how the page-cleaner cadence for experiment 000 was chosen: the cold start's leak rate per mean activity interval")
            .arg(Arg::new("runs").long("runs").alias("seeds").value_name("N").default_value("8").help("runs per interval, each with its own RNG seed [alias: --seeds]"))
            .arg(Arg::new("intervals").long("intervals").value_name("LIST").default_value("8,10,12,14,16,17,18,20,24").help("mean activity intervals to try, seconds (17 is the one the presets use)"))
            .arg(no_limit_arg())
}

pub fn run(a: &ArgMatches) -> Result<(), String> {
    let seeds = parse_count(a, "runs", 1, 100)?;
    let intervals = parse_list(a, "intervals", &[], 1, 3600)?;
    crate::progress::check_presets("this calibration", seeds as usize, a.get_flag("no-limit"))?;
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

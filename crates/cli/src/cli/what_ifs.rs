//! `midpoint what-ifs`: the what-if patches, and with `--compare` each against stock 8.4.

use super::*;
use clap::{Arg, ArgAction, ArgMatches, Command};
use std::time::Instant;

pub fn command() -> Command {
    Command::new("what-ifs")
            .about("List the what-if patches (candidate changes to one InnoDB rule each; apply with run --what-if NAME); with --compare, run each against stock 8.4")
            .arg(json_arg())
            .arg(Arg::new("compare").long("compare").action(ArgAction::SetTrue).help("run seed 000's cells and the write-heavy presets of depth-sweep under stock 8.4 and each what-if"))
            .arg(Arg::new("quick").long("quick").action(ArgAction::SetTrue).help("with --compare: the 4,485-page back-to-back cell and writeheavy-depth-1024 only"))
            .arg(runs_arg("2", "with --compare: runs per read-only cell, RNG seeds 1..N [alias: --seeds]"))
            .arg(threads_arg())
            .arg(no_limit_arg())
}

/// `what-ifs`: the list, or with `--compare` the comparison against stock 8.4.
pub fn run(a: &ArgMatches) -> Result<(), String> {
    use midpoint_lab::study::whatif;
    if !a.get_flag("compare") {
        if a.get_flag("quick") {
            return Err("--quick applies with --compare only".into());
        }
        if a.value_source("runs") == Some(clap::parser::ValueSource::CommandLine) {
            return Err(format!(
                "--runs {} applies with --compare only (the list runs nothing)",
                a.get_one::<String>("runs")
                    .map(String::as_str)
                    .unwrap_or("")
            ));
        }
        let list: Vec<_> = midpoint_core::pool::WhatIf::ALL
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
    let seeds = parse_count(a, "runs", 1, 20)?;
    let quick = a.get_flag("quick");
    let cells = whatif::seed000_cells(quick);
    let writes = whatif::write_presets(quick);
    crate::progress::check_presets(
        "this comparison",
        cells.len() * seeds as usize + writes.len(),
        a.get_flag("no-limit"),
    )?;
    let t0 = Instant::now();
    let mut counter = crate::progress::Counter::stderr("runs", false);
    let c = whatif::compare(&cells, &writes, seeds, |d, n| counter.tick(d, n))?;
    counter.finish();
    eprintln!(
        "{} runs in {:.0} s",
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

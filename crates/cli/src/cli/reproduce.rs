//! `midpoint reproduce`: a published experiment, each figure beside the simulated one.

use super::*;
use clap::{Arg, ArgAction, ArgMatches, Command};
use midpoint_lab::experiments::figure::{self, Check};
use midpoint_lab::experiments::{
    self, mariadb, seed000, seed000_hypotheses, seed001, seed002, seed003, seed003_rw, summary,
};

pub fn command() -> Command {
    Command::new("reproduce")
            .about("Run a published experiment (experiment 000 unless --experiment says otherwise) and print each published figure beside the simulated one, with its band and the band's reason")
            .arg(json_arg())
            .arg(Arg::new("markdown").long("markdown").action(ArgAction::SetTrue).conflicts_with("json").help("print the Markdown tables alone, without the title heading (as docs/reproduction.md holds them)"))
            .arg(Arg::new("runs").long("runs").alias("seeds").value_name("N").default_value("3").help("runs per cell, each with its own RNG seed (experiment 000 ran three) [alias: --seeds]"))
            .arg(threads_arg())
            .arg(Arg::new("quick").long("quick").action(ArgAction::SetTrue).help("skip the 10-minute runs (seed 002: fewer thread counts)"))
            .arg(Arg::new("hypotheses").long("hypotheses").action(ArgAction::SetTrue).help("experiment 000 only: run the ledger again under each hypothesis for its misses (what-if or parameter overrides on every row) and print what each did to every miss"))
            .arg(Arg::new("rules").long("rules").action(ArgAction::SetTrue).help("experiment 001 only: the four cells under each doublewrite rule read from buf0dblwr.cc, switched one at a time"))
            .arg(Arg::new("experiment").long("experiment").alias("seed").value_name("ID").default_value("000").help(experiment_help()))
            .arg(Arg::new("summary").long("summary").action(ArgAction::SetTrue).conflicts_with_all(["experiment", "hypotheses", "rules", "set"]).help("every experiment at once, one row each: its predictions in band (the same checks and runs as --experiment CODE with the same --runs and --quick), its misses and what is not counted (the README's table)"))
            .arg(Arg::new("set").long("set").value_name("NAME=VALUE").action(ArgAction::Append).help("experiment 000: set a parameter in every row, on top of its preset (e.g. --set cpus=2, to re-check the figures with another model); the figures' bands are unchanged"))
            .arg(no_limit_arg())
}

/// Refuses experiment 000's rows (with `--set`'s values on top) when one is invalid, or when
/// their runs at once would take more memory than this process may use.
fn check_rows(
    rows: &[seed000::Row],
    sets: &[(String, String)],
    runs: u32,
    no_limit: bool,
) -> Result<(), String> {
    let mut one: Option<midpoint_core::cost::Estimate> = None;
    for r in rows {
        let mut p = midpoint_core::scenario::preset(&r.preset)?.params;
        for (k, v) in r.overrides.iter().chain(sets) {
            p.set(k, v).map_err(|e| format!("--set {k}={v}: {e}"))?;
        }
        p.validate()
            .map_err(|e| format!("--set: the row of {} would be invalid: {e}", r.preset))?;
        let e = midpoint_core::cost::estimate(&p);
        one = Some(one.map_or(e, |o| o.larger(&e)));
    }
    let Some(one) = one else { return Ok(()) };
    let n = rows.len() * runs as usize;
    // Memory only: the experiment's time is its own, known and announced.
    let one = midpoint_core::cost::Estimate { wall_s: 0.0, ..one };
    crate::progress::check_runs(one, n, n, "this experiment", no_limit).map(drop)
}

/// `--set NAME=VALUE` pairs, each checked on the default parameters.
fn sets(a: &ArgMatches) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    for kv in a.get_many::<String>("set").into_iter().flatten() {
        let (k, v) = kv
            .split_once('=')
            .ok_or_else(|| format!("--set {kv}: expected NAME=VALUE"))?;
        let (k, v) = (k.trim(), v.trim());
        midpoint_core::scenario::Params::default()
            .set(k, v)
            .map_err(|e| format!("--set {k}={v}: {e}"))?;
        out.push((k.to_string(), v.to_string()));
    }
    Ok(out)
}

/// `reproduce --experiment CODE`: an experiment's figures beside the simulated ones, as Markdown
/// tables under the experiment's title (or as JSON).
pub fn run(a: &ArgMatches) -> Result<(), String> {
    let which = a
        .get_one::<String>("experiment")
        .map(String::as_str)
        .unwrap_or("000");
    let exp = experiments::find(which)?;
    let json = a.get_flag("json");
    let quick = a.get_flag("quick");
    let bare = a.get_flag("markdown");
    // Checked for every experiment, so that a bad value is refused even where it is not used.
    let runs = parse_count(a, "runs", 1, 50)?;
    if a.get_flag("summary") {
        let mut counter = crate::progress::Counter::stderr("experiments", false);
        let rows = summary::run(runs, quick, |d, t| counter.tick(d, t))?;
        counter.finish();
        if json {
            println!(
                "{}",
                serde_json::to_string_pretty(&rows).map_err(|e| e.to_string())?
            );
        } else {
            if !bare {
                println!("## How close is it? Every experiment\n");
            }
            print!("{}", summary::markdown(&rows));
        }
        return Ok(());
    }
    let sets = sets(a)?;
    if !sets.is_empty() && exp.code != "000" {
        return Err(format!(
            "--set applies to experiment 000 only, not to experiment {}",
            exp.code
        ));
    }
    let fixed_runs = || -> Result<(), String> {
        if a.value_source("runs") == Some(clap::parser::ValueSource::CommandLine) {
            return Err(format!(
                "--runs does not apply to experiment {}: it runs each configuration once, with a fixed seed",
                exp.code
            ));
        }
        Ok(())
    };
    let counter = std::sync::Mutex::new(crate::progress::Counter::stderr("runs", false));
    let progress = |done: usize, total: usize| {
        if let Ok(mut c) = counter.lock() {
            c.tick(done, total)
        }
    };
    let finish = || {
        if let Ok(mut c) = counter.lock() {
            c.finish()
        }
    };
    // Prints the rows as JSON, or the Markdown tables under the experiment's title.
    // The score goes after the tables (to stderr beside JSON, which stays one document).
    let show = |rows: serde_json::Result<String>,
                markdown: String,
                checks: &[Check],
                why_none: &str|
     -> Result<(), String> {
        finish();
        let mut score = figure::score_lines(checks);
        if checks.is_empty() {
            score = format!("0 of 0 predictions in band ({why_none})\n");
        }
        if json {
            println!("{}", rows.map_err(|e| e.to_string())?);
            eprint!("{score}");
        } else {
            if !bare {
                println!("## {}\n", exp.title);
            }
            print!("{markdown}");
            print!("\n{score}");
        }
        Ok(())
    };
    // A study beside an experiment (--rules, --hypotheses): its JSON, or its Markdown under a
    // heading; no score.
    let study = |r: serde_json::Result<String>, what: &str, markdown: String| {
        eprintln!();
        if json {
            println!("{}", r.map_err(|e| e.to_string())?);
        } else {
            if !bare {
                println!("## {}: {what}\n", exp.title);
            }
            print!("{markdown}");
        }
        Ok(())
    };
    if a.get_flag("hypotheses") && exp.code != "000" {
        return Err(format!(
            "--hypotheses applies to experiment 000 only, not {}",
            exp.code
        ));
    }
    let no_limit = a.get_flag("no-limit");
    if exp.code == "000" {
        check_rows(&seed000::rows(!quick), &sets, runs, no_limit)?;
    } else {
        crate::progress::check_presets("this experiment", 64, no_limit)?;
    }
    if a.get_flag("rules") && exp.code != "001" {
        return Err(format!(
            "--rules applies to experiment 001 only, not {}",
            exp.code
        ));
    }
    match exp.code {
        "001" if a.get_flag("rules") => {
            let r = seed001::rules(progress);
            let md = seed001::rules_markdown(&r);
            study(
                serde_json::to_string_pretty(&r),
                "the doublewrite rules",
                md,
            )
        }
        "000" if a.get_flag("hypotheses") => {
            let r = seed000_hypotheses::run(&seed000::rows(!quick), runs, progress);
            let md = seed000_hypotheses::markdown(&r);
            study(
                serde_json::to_string_pretty(&r),
                "hypotheses for the misses",
                md,
            )
        }
        "000" => {
            let mut rows = seed000::rows(!quick);
            for r in &mut rows {
                r.overrides.extend(sets.iter().cloned());
            }
            let r = seed000::run_rows(&rows, runs, progress);
            show(
                serde_json::to_string_pretty(&r),
                seed000::markdown(&r),
                &seed000::checks(&r),
                "",
            )
        }
        "001" => {
            fixed_runs()?;
            let r = seed001::run(progress);
            show(
                serde_json::to_string_pretty(&r),
                seed001::markdown(&r),
                &seed001::checks(&r),
                "",
            )
        }
        "003-rw" => {
            fixed_runs()?;
            let r = seed003_rw::seed003_rw(progress);
            show(
                serde_json::to_string_pretty(&r),
                seed003_rw::seed003_rw_markdown(&r),
                &seed003_rw::checks(&r),
                "",
            )
        }
        "002" => {
            fixed_runs()?;
            let threads = seed002::thread_counts(quick);
            let p37 = seed002::sweep(37, &threads, 1, progress);
            finish();
            let p60 = seed002::sweep(60, &threads, 1, progress);
            let checks = seed002::checks(&p37, Some(&p60));
            let md = seed002::markdown(&p37, Some(&p60), &checks);
            show(
                serde_json::to_string_pretty(&(p37, p60, &checks)),
                md,
                &checks,
                "",
            )
        }
        "003" => {
            let r = seed003::run(runs, 1, progress);
            show(
                serde_json::to_string_pretty(&r),
                seed003::markdown(&r),
                &seed003::checks(&r),
                "",
            )
        }
        "mariadb" => {
            let r = mariadb::compare(runs, progress);
            show(
                serde_json::to_string_pretty(&r),
                mariadb::compare_markdown(&r),
                &[],
                mariadb::NO_MEASUREMENT,
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

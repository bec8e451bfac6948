//! `midpoint scale`: experiment 000 in big pools.

use super::*;
use clap::{Arg, ArgAction, ArgMatches, Command};
use std::time::Instant;

pub fn command() -> Command {
    Command::new("scale")
            .about("Seed 000's experiment in big pools: the pool from 256 MiB to 32 GiB with MySQL 8.4's default instance count, the hot set and the scanned table scaled with it")
            .arg(json_arg())
            .arg(Arg::new("markdown").long("markdown").action(ArgAction::SetTrue).conflicts_with("json").help("print the table without the wall-time column, the same on every run (as docs/studies.md holds it)"))
            .arg(Arg::new("preset").long("preset").value_name("NAME").default_value("seed000-hot4485-b2b").help("the seed-000 cell to scale"))
            .arg(Arg::new("sizes").long("sizes").value_name("LIST").help("comma-separated pool sizes in MiB (default 256,1024,4096,16384,32768)"))
            .arg(Arg::new("vcpus").long("vcpus").value_name("N").default_value("16").help("vCPUs MySQL sees: 8.4's default instance count is clamp(min(size / 256 MiB, vCPUs / 4), 1, 64) from 1 GiB up"))
            .arg(runs_arg("1", "runs per size, RNG seeds 1..N [alias: --seeds]"))
            .arg(threads_arg())
            .arg(Arg::new("scan-s").long("scan-s").value_name("S").help("override the scan phase the row's figures are measured over (seconds; the kept window shrinks to fit); without --durations, kept is then reported after this duration only"))
            .arg(Arg::new("durations").long("durations").value_name("LIST").help("comma-separated scan durations, seconds, to report kept after (default 150,300,600,1200,1800): one run per seed continued to the longest gives them all, and the onset (kept below 50 %) is looked for up to it. Cost grows with the longest: 1,800 s took 9 times the CPU of 150 s (measured, 256 MiB), about 2 minutes for the default study on an idle 2-core machine (docs/studies.md)"))
            .arg(Arg::new("warmup-s").long("warmup-s").value_name("S").help("override the warm-up (seconds)"))
            .arg(Arg::new("svg").long("svg").value_name("FILE").help("also write the kept-against-size chart as SVG"))
            .arg(no_limit_arg())
}

/// `scale`: seed 000's experiment in big pools, one row per size, with the cost printed first.
pub fn run(a: &ArgMatches) -> Result<(), String> {
    use midpoint_lab::study::scale;
    let sizes = parse_list(a, "sizes", scale::DEFAULT_SIZES_MB, 16, 65536)?;
    let vcpus = parse_count(a, "vcpus", 1, 4096)?;
    let seeds = parse_count(a, "runs", 1, 20)?;
    let name = a.get_one::<String>("preset").expect("default");
    let mut plan = scale::plan(name, &sizes, vcpus)?;
    for p in &mut plan {
        for k in ["scan-s", "warmup-s"] {
            if let Some(v) = a.get_one::<String>(k) {
                p.set(k, v).map_err(|e| format!("--{k}: {e}"))?;
            }
        }
        p.validate().map_err(|e| flagged(&e))?;
    }
    // Without --durations, --scan-s alone means the old single-duration study.
    let default_durations: Vec<u32> = match a.get_one::<String>("scan-s") {
        Some(_) => plan.first().map(|p| vec![p.scan_s]).unwrap_or_default(),
        None => scale::DEFAULT_DURATIONS_S.to_vec(),
    };
    let durations = parse_list(a, "durations", &default_durations, 1, 3600)?;
    for p in &plan {
        scale::check_durations(p, &durations).map_err(|e| format!("--durations: {e}"))?;
    }
    let longest = durations.iter().copied().max().unwrap_or(0);
    // The sizes one after another, the seeds of a size at once: the memory of the largest
    // size's seeds (its time is announced below, not budgeted: the study's is known).
    let one = plan
        .iter()
        .map(|p| {
            midpoint_core::cost::estimate(&midpoint_core::scenario::Params {
                scan_s: longest.max(p.scan_s),
                ..p.clone()
            })
        })
        .reduce(|a, b| a.larger(&b))
        .ok_or("--sizes: give at least one size")?;
    let at_once = crate::progress::at_once(seeds as usize);
    let e = midpoint_core::cost::Estimate {
        wall_s: 0.0,
        ..one.runs(seeds as usize, at_once, seeds as usize)
    };
    crate::progress::check(
        &e,
        &format!("the largest size's {seeds} run(s), {at_once} at once,"),
        a.get_flag("no-limit"),
    )?;
    eprintln!(
        "{} runs (sizes {:?} MiB, {seeds} seed(s) each, {} s of scanning each: kept after {:?} s), the seeds of a size at once; the largest takes about {:.0} MiB",
        plan.len() * seeds as usize,
        sizes,
        longest.max(plan.first().map_or(0, |p| p.scan_s)),
        durations,
        one.mib
    );
    let mut rows = Vec::new();
    let mut wall = Vec::new();
    let t_all = Instant::now();
    for p in &plan {
        let t0 = Instant::now();
        rows.push(scale::run_row(p, seeds, &durations)?);
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
        write_file(path, &midpoint_lab::study::charts::scale_svg(&rows)?)?;
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
        let wall: &[f64] = if a.get_flag("markdown") { &[] } else { &wall };
        print!("{}", scale::markdown(&rows, wall));
        Ok(())
    }
}

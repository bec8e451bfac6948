//! `midpoint phase`: the hot set's phase diagram.

use super::*;
use clap::{Arg, ArgMatches, Command};
use midpoint_core::scenario::preset;
use std::time::Instant;

pub fn command() -> Command {
    Command::new("phase")
            .about("The hot set's phase diagram: kept on a grid of two parameters (e.g. --x idle-lookups-per-s --y refill-interval-s), several seeds per cell")
            .arg(json_arg())
            .arg(Arg::new("preset").long("preset").value_name("NAME").default_value("seed000-hot897-b2b").help("the preset each cell starts from"))
            .arg(Arg::new("x").long("x").value_name("PARAM").default_value("idle-lookups-per-s").help("the x axis: a numeric parameter, or refill-interval-s (the cadence after-activity:S)"))
            .arg(Arg::new("y").long("y").value_name("PARAM").default_value("refill-interval-s").help("the y axis"))
            .arg(Arg::new("x-values").long("x-values").value_name("LIST").help("comma-separated x values (defaults exist for idle-lookups-per-s, refill-interval-s, hot-pages, lru-scan-depth)"))
            .arg(Arg::new("y-values").long("y-values").value_name("LIST").help("comma-separated y values"))
            .arg(runs_arg("3", "runs per cell, RNG seeds 1..N [alias: --seeds]"))
            .arg(threads_arg())
            .arg(Arg::new("scan-s").long("scan-s").value_name("S").help("override the preset's scan phase (short runs for tests)"))
            .arg(Arg::new("warmup-s").long("warmup-s").value_name("S").help("override the preset's warm-up"))
            .arg(Arg::new("bands").long("bands").value_name("X,Y").help("instead of the grid: run seed 000's kept figures that have a band at this one setting and say which stay in band"))
            .arg(Arg::new("svg").long("svg").value_name("FILE").help("also write the heat map as SVG"))
            .arg(no_limit_arg())
}

/// The values of a list flag as typed (`--x-values 1,2`), trimmed.
fn typed_values(a: &ArgMatches, name: &str) -> Vec<String> {
    a.get_one::<String>(name)
        .map(|s| s.split(',').map(|v| v.trim().to_string()).collect())
        .unwrap_or_default()
}

/// An axis value's refusal in the words of the flag typed: `--x-values: '5' is out of range
/// for --x lru-scan-depth; allowed: ...`, the parameter's own name and its float form left out.
fn axis_refusal(flag: &str, axis: &str, raw: &str, e: &str) -> String {
    let param = axis.replace('-', "_");
    let dashed = axis.replace('_', "-");
    let why = match e.strip_prefix(&format!("{param} = ")) {
        // "lru_scan_depth = 5 is out of range; ..." -> "is out of range; ..."
        Some(rest) => rest.split_once(' ').map_or(rest, |x| x.1).to_string(),
        None => e.replace(&param, &dashed),
    };
    if e.starts_with(&format!("{param} = ")) {
        format!("{flag}: '{raw}' (for {} {dashed}) {why}", &flag[..3])
    } else {
        format!("{flag}: '{raw}' (for {} {dashed}): {why}", &flag[..3])
    }
}

/// `phase`: the grid (or, with `--bands`, one setting against seed 000's kept bands).
pub fn run(a: &ArgMatches) -> Result<(), String> {
    use midpoint_lab::study::{charts, phase};
    let x = a.get_one::<String>("x").expect("default").clone();
    let y = a.get_one::<String>("y").expect("default").clone();
    for (flag, axis) in [("--x", &x), ("--y", &y)] {
        phase::check_axis(axis).map_err(|e| format!("{flag}: {e}"))?;
    }
    let seeds = parse_count(a, "runs", 1, 50)?;
    if let Some(b) = parse_f64_list(a, "bands")? {
        let [xv, yv] = b[..] else {
            return Err(format!(
                "--bands '{}': expected X,Y (one value per axis)",
                a.get_one::<String>("bands")
                    .map(String::as_str)
                    .unwrap_or("")
            ));
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
    // Each axis's values checked alone first, so a refusal names the flag typed and quotes
    // the value as typed (not the parameter's name, nor the value as a float prints it).
    if let Some(name) = a.get_one::<String>("preset") {
        let base = preset(name)?.params;
        for (flag, axis, vals) in [("--x-values", &x, &xs), ("--y-values", &y, &ys)] {
            let typed = typed_values(a, &flag[2..]);
            for (i, &v) in vals.iter().enumerate() {
                let mut p = base.clone();
                if let Err(e) = phase::set_axis(&mut p, axis, v) {
                    let raw = typed.get(i).cloned().unwrap_or_else(|| v.to_string());
                    return Err(axis_refusal(flag, axis, &raw, &e));
                }
            }
        }
    }
    let name = a.get_one::<String>("preset").expect("default");
    let mut preset_name = name.clone();
    // Short runs for tests: a preset copy with the phases overridden.
    let overrides: Vec<(&str, &String)> = ["scan-s", "warmup-s"]
        .iter()
        .filter_map(|k| a.get_one::<String>(k).map(|v| (*k, v)))
        .collect();
    let mut base = preset(name)?.params;
    for (k, v) in &overrides {
        base.set(k, v).map_err(|e| format!("--{k}: {e}"))?;
    }
    if base.kept_window_s > base.scan_s {
        base.kept_window_s = base.scan_s.max(1);
    }
    // Every cell's parameters, checked before the first run, and the grid's cost: the cells at
    // once, each holding its seeds' reports.
    let mut plan = Vec::new();
    for &yv in &ys {
        for &xv in &xs {
            plan.push((xv, yv, phase::cell_params(&base, &x, xv, &y, yv)?));
        }
    }
    let one = plan
        .iter()
        .map(|(_, _, p)| midpoint_core::cost::estimate(p))
        .reduce(|a, b| a.larger(&b))
        .ok_or("each axis needs at least one value")?;
    let runs = plan.len() * seeds as usize;
    crate::progress::check_runs(
        one,
        runs,
        crate::progress::at_once(runs) * seeds as usize,
        "this grid",
        a.get_flag("no-limit"),
    )?;
    let map = if overrides.is_empty() {
        eprintln!(
            "{} cells x {seeds} seed(s) = {} runs",
            xs.len() * ys.len(),
            xs.len() * ys.len() * seeds as usize
        );
        let t0 = Instant::now();
        let mut counter = crate::progress::Counter::stderr("cells", false);
        let m = phase::run(&preset_name, &x, &xs, &y, &ys, seeds, |d, n| {
            counter.tick(d, n)
        })?;
        counter.finish();
        eprintln!(
            "{} cells in {:.0} s",
            m.cells.len(),
            t0.elapsed().as_secs_f64()
        );
        m
    } else {
        preset_name = format!(
            "{name} ({})",
            overrides
                .iter()
                .map(|(k, v)| format!("{k} {v}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let mut cells = Vec::new();
        for (xv, yv, p) in &plan {
            cells.push(phase::run_cell(p, *xv, *yv, seeds)?);
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

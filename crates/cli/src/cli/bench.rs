//! `midpoint bench`: simulated page accesses per wall second (median of several runs).

use super::*;
use clap::{Arg, ArgMatches, Command};
use midpoint_core::scenario::preset;
use midpoint_core::scenario::write::{self as write_scenario};
use midpoint_core::sim::{self, EPOCH};
use std::time::Instant;

pub fn command() -> Command {
    Command::new("bench")
            .about("Measure simulated page accesses per second on experiment 000's workload (median of several runs)")
            .arg(json_arg())
            .arg(Arg::new("runs").long("runs").value_name("N").default_value("5"))
            .arg(no_limit_arg())
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

pub fn run(a: &ArgMatches) -> Result<(), String> {
    let runs = parse_count(a, "runs", 1, 100)?;
    // One run at a time.
    crate::progress::check_presets("this benchmark", 1, a.get_flag("no-limit"))?;
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
        sim_s = midpoint_core::clock::to_secs(s.end() - EPOCH);
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

//! The measurement and the model side by side: the figures, the differences beyond the
//! ensemble's spread, the JSON, the table and the SVG.

use super::model::Simulated;
use super::plan::{Plan, Settings};
use super::procedure::Measured;
use super::sample::{count_refills, kept_of, leak_rate, mean_between, tail_window};
use super::server::ServerInfo;
use plotters::prelude::*;
use serde_json::{json, Map, Value};

/// The live run's figures, computed from its series.
#[derive(Clone, Debug, PartialEq)]
pub struct MeasuredFigures {
    pub kept_by_s: Vec<(f64, f64)>,
    pub kept_tail: f64,
    pub leak_pages_per_s: f64,
    pub lookups_per_s_warmup: f64,
    pub lookups_per_s_scan: f64,
    pub scan_pages_per_s: f64,
    pub passes: u64,
    pub refills: u64,
    pub mean_pass_s: f64,
}

pub fn figures(m: &Measured, s: &Settings) -> MeasuredFigures {
    let warmup = s.warmup_s as f64;
    let kept_by_s: Vec<(f64, f64)> = m
        .samples
        .iter()
        .map(|x| (x.t_s, kept_of(x.hot_resident(), m.hot_pages)))
        .collect();
    let young: Vec<(f64, u64)> = m.samples.iter().map(|x| (x.t_s, x.scan_young)).collect();
    let (from, to) = tail_window(warmup, s.scan_s as f64);
    let pass_total: f64 = m.pass_s.iter().sum();
    let passes = m.pass_s.len() as u64;
    let per = |n: u64, t: f64| if t > 0.0 { n as f64 / t } else { f64::NAN };
    MeasuredFigures {
        kept_tail: mean_between(&kept_by_s, from, to),
        kept_by_s,
        leak_pages_per_s: leak_rate(&young, warmup),
        lookups_per_s_warmup: per(m.lookups_warmup, m.warmup_elapsed_s),
        lookups_per_s_scan: per(m.lookups_scan, m.scan_elapsed_s),
        scan_pages_per_s: per(passes * m.scan_pages, pass_total),
        passes,
        refills: count_refills(
            &m.free,
            warmup,
            to.max(m.warmup_elapsed_s + m.scan_elapsed_s),
        ),
        mean_pass_s: if passes > 0 {
            pass_total / passes as f64
        } else {
            f64::NAN
        },
    }
}

/// Where the measurement is outside the ensemble's range, one sentence each.
pub fn differences(f: &MeasuredFigures, sim: &Simulated) -> Vec<String> {
    let mut out = Vec::new();
    let mut check = |what: &str, v: f64, lo: f64, hi: f64, unit: &str, pct: bool| {
        if !v.is_finite() || !lo.is_finite() || !hi.is_finite() {
            return;
        }
        let k = if pct { 100.0 } else { 1.0 };
        if v < lo - 1e-9 || v > hi + 1e-9 {
            out.push(format!(
                "{what}: measured {:.1}{unit}, outside the model's ensemble ({:.1} to {:.1}{unit})",
                v * k,
                lo * k,
                hi * k
            ));
        }
    };
    check(
        "kept in the last minute",
        f.kept_tail,
        sim.kept_tail_min,
        sim.kept_tail_max,
        " %",
        true,
    );
    check(
        "leak (scanned-table young pages per second)",
        f.leak_pages_per_s,
        sim.leak_pages_per_s_min,
        sim.leak_pages_per_s_max,
        " pages/s",
        false,
    );
    check(
        "lookups per second during the scan",
        f.lookups_per_s_scan,
        sim.lookups_per_s_scan_min,
        sim.lookups_per_s_scan_max,
        "/s",
        false,
    );
    check(
        "refills seen",
        f.refills as f64,
        sim.refills_min as f64,
        sim.refills_max as f64,
        "",
        false,
    );
    out
}

fn num(v: f64) -> Value {
    if v.is_finite() {
        json!(v)
    } else {
        Value::Null
    }
}

/// `{"0": k, "5": k, ...}`: seconds since the warm-up started (whole seconds) to kept (0..1).
pub fn by_s(series: &[(f64, f64)]) -> Value {
    let mut m = Map::new();
    for (t, k) in series {
        m.insert(format!("{}", t.round() as i64), num(*k));
    }
    Value::Object(m)
}

/// One ensemble's block of the `--json` document.
pub fn sim_json(sim: &Simulated) -> Value {
    json!({
        "cpu_model": sim.cpu_model,
        "cpus": sim.cpus,
        "runs": sim.runs,
        "kept_tail": num(sim.kept_tail),
        "kept_tail_min": num(sim.kept_tail_min),
        "kept_tail_max": num(sim.kept_tail_max),
        "kept_by_s": by_s(&sim.kept_by_s),
        "kept_by_s_min": by_s(&sim.kept_by_s_min),
        "kept_by_s_max": by_s(&sim.kept_by_s_max),
        "lookups_per_s_warmup": num(sim.lookups_per_s_warmup),
        "lookups_per_s_scan": num(sim.lookups_per_s_scan),
        "lookups_per_s_scan_min": num(sim.lookups_per_s_scan_min),
        "lookups_per_s_scan_max": num(sim.lookups_per_s_scan_max),
        "scan_pages_per_s": num(sim.scan_pages_per_s),
        "passes": num(sim.passes),
        "refills": num(sim.refills),
        "refills_min": sim.refills_min,
        "refills_max": sim.refills_max,
        "lru_batches_during_scan": num(sim.lru_batches_during_scan),
        "leak_pages_per_s": num(sim.leak_pages_per_s),
        "leak_pages_per_s_min": num(sim.leak_pages_per_s_min),
        "leak_pages_per_s_max": num(sim.leak_pages_per_s_max),
        "frames": sim.frames,
        "params": sim.params,
    })
}

/// The `--json` document: `"simulated"` is the default CPU model's ensemble; the other model's
/// (`"simulated_shared"` or `"simulated_fixed"`), when it ran, sits beside it.
#[allow(clippy::too_many_arguments)]
pub fn json_report(
    info: &ServerInfo,
    s: &Settings,
    plan: &Plan,
    m: &Measured,
    f: &MeasuredFigures,
    (sim, other): (&Simulated, Option<(&str, &Simulated)>),
    restored: &[(String, u64)],
    dropped: bool,
    server_cpus: Option<u32>,
) -> Value {
    let diffs = differences(f, sim);
    let mut v = json!({
        "server": {
            "address": info.address,
            "version": info.version,
            "engine": if info.mariadb { "mariadb" } else { "mysql" },
            "pool_pages": info.pool_pages,
            "pool_bytes": info.pool_bytes,
            "page_size": info.page_size,
            "sequence_engine": info.sequence_engine,
            "other_schemas": info.other_schemas,
            "loopback": info.loopback,
            "cpus": server_cpus,
            "variables_before": {
                "innodb_old_blocks_time": info.old_blocks_time,
                "innodb_old_blocks_pct": info.old_blocks_pct,
                "innodb_lru_scan_depth": info.lru_scan_depth,
            },
        },
        "settings": {
            "hot_frac": s.hot_frac,
            "scan_x": s.scan_x,
            "warmup_s": s.warmup_s,
            "scan_s": s.scan_s,
            "pause_ms": s.pause_ms,
            "old_blocks_time": plan.old_blocks_time,
            "old_blocks_pct": plan.old_blocks_pct,
            "lru_scan_depth": plan.lru_scan_depth,
            "runs": s.runs,
            "sample_s": s.sample_s,
            "free_sample_ms": s.free_sample_ms,
            "idle_passes": s.idle_passes,
            "cpus": sim.cpus,
            "cpu_model": sim.cpu_model,
            "server_cpus": server_cpus,
            "keep": s.keep,
            "hot_rows": plan.hot_rows,
            "scan_rows": plan.scan_rows,
            "variables_set": plan.variables,
            "clock": "wall clock of the machine running midpoint",
        },
        "measured": {
            "kept_tail": num(f.kept_tail),
            "kept_by_s": by_s(&f.kept_by_s),
            "lookups_per_s_warmup": num(f.lookups_per_s_warmup),
            "lookups_per_s_scan": num(f.lookups_per_s_scan),
            "scan_pages_per_s": num(f.scan_pages_per_s),
            "passes": f.passes,
            "refills": f.refills,
            "leak_pages_per_s": num(f.leak_pages_per_s),
            "mean_pass_s": num(f.mean_pass_s),
            "pass_s": m.pass_s,
            "hot_pages": m.hot_pages,
            "scan_pages": m.scan_pages,
            "load_s": m.load_s,
            "warm_pass_s": m.warm_pass_s,
            "idle_passes_s": m.idle_passes_s,
            "idle_pass_s": num(m.idle_pass_s),
            "idle_scan_pages_per_s": num(m.idle_scan_pages_per_s),
            "loadavg_before": m.loadavg_before,
            "cpu_warmup": m.cpu_warmup,
            "cpu_scan": m.cpu_scan,
            "samples": m.samples,
            "lookups_at": m.lookups_at,
            "free_samples": m.free.len(),
            "free_min": m.free.iter().map(|x| x.1).min(),
            "free_max": m.free.iter().map(|x| x.1).max(),
        },
        "simulated": sim_json(sim),
        "differences": diffs,
        "restored": restored.iter().map(|(n, v)| (n.clone(), json!(v))).collect::<Map<_, _>>(),
        "schema_dropped": dropped,
    });
    if let Some((key, o)) = other {
        let mut block = sim_json(o);
        block["differences"] = json!(differences(f, o));
        v[key] = block;
    }
    v
}

fn pct(v: f64) -> String {
    if v.is_finite() {
        format!("{:.1} %", v * 100.0)
    } else {
        "n/a".into()
    }
}

fn fig(v: f64, d: usize) -> String {
    if v.is_finite() {
        format!("{v:.d$}")
    } else {
        "n/a".into()
    }
}

fn model_name(sim: &Simulated) -> String {
    if sim.cpus == 0 {
        "fixed factor".into()
    } else {
        format!("{} CPUs shared", sim.cpus)
    }
}

/// The side-by-side table the command prints: the measurement, the default CPU model's
/// ensemble and, when it ran, the other model's.
pub fn text_report(
    info: &ServerInfo,
    s: &Settings,
    plan: &Plan,
    m: &Measured,
    f: &MeasuredFigures,
    sim: &Simulated,
    other: Option<(&str, &Simulated)>,
) -> String {
    let mut o = String::new();
    o += &format!(
        "server   {} at {}: {} pool pages, hot table {} leaf pages, scanned table {} leaf pages\n",
        info.version, info.address, info.pool_pages, m.hot_pages, m.scan_pages
    );
    o += &format!(
        "cell     old_blocks_time {} ms, old_blocks_pct {}, lru_scan_depth {}, pause {} ms, warm-up {} s, scans {} s\n",
        plan.old_blocks_time, plan.old_blocks_pct, plan.lru_scan_depth, s.pause_ms, s.warmup_s, s.scan_s
    );
    o += &format!(
        "model    {} runs (seeds 1-{}), engine {}, {} frames, idle lookups {}/s and idle scan {} pages/s as measured (median of {} idle passes after a warm one)\n",
        sim.runs,
        sim.runs,
        sim.params.engine.label(),
        sim.frames,
        fig(sim.params.idle_lookups_per_s, 0),
        fig(sim.params.idle_scan_pages_per_s, 0),
        m.idle_passes_s.len()
    );
    o += &format!(
        "cpu      model: {} (cpus {}){}\n",
        model_name(sim),
        sim.cpus,
        match other {
            Some((k, x)) => format!("; beside it {} (cpus {}, {k} in --json)", model_name(x), x.cpus),
            None => "; the server's CPUs are unknown (not on loopback: give --server-cpus N) so processor sharing is not run".into(),
        }
    );
    if let Some(l) = m.loadavg_before {
        o += &format!(
            "machine  load average {:.2} {:.2} {:.2} before the warm-up; CPUs busy warm-up {} / scans {} (server {} / {}, clients {} / {})\n",
            l[0],
            l[1],
            l[2],
            opt(m.cpu_warmup.machine_cpus),
            opt(m.cpu_scan.machine_cpus),
            opt(m.cpu_warmup.server_cpus),
            opt(m.cpu_scan.server_cpus),
            opt(m.cpu_warmup.client_cpus),
            opt(m.cpu_scan.client_cpus)
        );
    }
    o += "clock    the measurement runs on this machine's wall clock; the model on its virtual clock\n\n";
    let ox = other.map(|x| x.1);
    let at = |v: &[(f64, f64)], i: usize| v.get(i).map(|x| x.1).unwrap_or(f64::NAN);
    o += "kept over time (share of the hot table's pages resident)\n";
    o += &format!(
        "   t (s)  measured     model  model min..max{}\n",
        if ox.is_some() { "     other model" } else { "" }
    );
    for (i, (t, k)) in f.kept_by_s.iter().enumerate() {
        o += &format!(
            "  {:>6.0}  {:>8}  {:>8}  {} .. {}{}{}\n",
            t,
            pct(*k),
            pct(at(&sim.kept_by_s, i)),
            pct(at(&sim.kept_by_s_min, i)),
            pct(at(&sim.kept_by_s_max, i)),
            ox.map_or(String::new(), |x| format!(
                "  {:>14}",
                pct(at(&x.kept_by_s, i))
            )),
            if (*t - s.warmup_s as f64).abs() < 1e-6 {
                "   <- scans start"
            } else {
                ""
            }
        );
    }
    o += &format!(
        "\n                                   measured      model (min..max){}\n",
        ox.map_or(String::new(), |x| format!("   | {}", model_name(x)))
    );
    let col =
        |f: &dyn Fn(&Simulated) -> String| ox.map_or(String::new(), |x| format!("   | {}", f(x)));
    o += &format!(
        "kept in the last minute          {:>9}  {:>9} ({} .. {}){}\n",
        pct(f.kept_tail),
        pct(sim.kept_tail),
        pct(sim.kept_tail_min),
        pct(sim.kept_tail_max),
        col(&|x| format!(
            "{} ({} .. {})",
            pct(x.kept_tail),
            pct(x.kept_tail_min),
            pct(x.kept_tail_max)
        ))
    );
    o += &format!(
        "leak (scan young pages/s, net)   {:>9}  {:>9} ({} .. {}){}\n",
        fig(f.leak_pages_per_s, 1),
        fig(sim.leak_pages_per_s, 1),
        fig(sim.leak_pages_per_s_min, 1),
        fig(sim.leak_pages_per_s_max, 1),
        col(&|x| fig(x.leak_pages_per_s, 1))
    );
    o += &format!(
        "refills seen (free-list rises)   {:>9}  {:>9} ({} .. {}; the model ran {} LRU batches){}\n",
        f.refills,
        fig(sim.refills, 1),
        sim.refills_min,
        sim.refills_max,
        fig(sim.lru_batches_during_scan, 0),
        col(&|x| fig(x.refills, 1))
    );
    o += &format!(
        "lookups/s, warm-up               {:>9}  {:>9}{}\n",
        fig(f.lookups_per_s_warmup, 0),
        fig(sim.lookups_per_s_warmup, 0),
        col(&|x| fig(x.lookups_per_s_warmup, 0))
    );
    o += &format!(
        "lookups/s, during the scans      {:>9}  {:>9} ({} .. {}){}\n",
        fig(f.lookups_per_s_scan, 0),
        fig(sim.lookups_per_s_scan, 0),
        fig(sim.lookups_per_s_scan_min, 0),
        fig(sim.lookups_per_s_scan_max, 0),
        col(&|x| format!(
            "{} ({} .. {})",
            fig(x.lookups_per_s_scan, 0),
            fig(x.lookups_per_s_scan_min, 0),
            fig(x.lookups_per_s_scan_max, 0)
        ))
    );
    o += &format!(
        "scan pages/s (idle pass {:>6})   {:>9}  {:>9}{}\n",
        fig(m.idle_scan_pages_per_s, 0),
        fig(f.scan_pages_per_s, 0),
        fig(sim.scan_pages_per_s, 0),
        col(&|x| fig(x.scan_pages_per_s, 0))
    );
    o += &format!(
        "passes (mean {} s)             {:>9}  {:>9}{}\n",
        fig(f.mean_pass_s, 2),
        f.passes,
        fig(sim.passes, 1),
        col(&|x| fig(x.passes, 1))
    );
    let d = differences(f, sim);
    if d.is_empty() {
        o += "\nthe measurement is within the model's ensemble on every figure above\n";
    } else {
        o += "\nwhere they differ by more than the (default) model's spread:\n";
        for x in d {
            o += &format!("  {x}\n");
        }
    }
    if let Some(x) = ox {
        let d = differences(f, x);
        o += &format!(
            "{} ({}): {}\n",
            if d.is_empty() {
                "the other model"
            } else {
                "and the other model"
            },
            model_name(x),
            if d.is_empty() {
                "the measurement is within its ensemble on every figure".to_string()
            } else {
                d.join("; ")
            }
        );
    }
    o
}

fn opt(v: Option<f64>) -> String {
    v.map_or("n/a".into(), |x| format!("{x:.2}"))
}

/// Kept over time, both curves (the model's mean with its min..max band), as SVG.
pub fn svg(
    f: &MeasuredFigures,
    sim: &Simulated,
    other: Option<(&str, &Simulated)>,
    warmup_s: f64,
) -> Result<String, String> {
    let e = |x: DrawingAreaErrorKind<std::io::Error>| x.to_string();
    let end = f.kept_by_s.last().map(|x| x.0).unwrap_or(1.0).max(1.0);
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (800, 400)).into_drawing_area();
        root.fill(&WHITE).map_err(e)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                "Hot set kept: the server (measured) and the model (ensemble)",
                ("sans-serif", 18),
            )
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(48)
            .build_cartesian_2d(0.0..end, 0.0..100.0)
            .map_err(|x| x.to_string())?;
        chart
            .configure_mesh()
            .x_desc("seconds since the warm-up started")
            .y_desc("% of the hot table resident")
            .draw()
            .map_err(|x| x.to_string())?;
        let band: Vec<(f64, f64)> = sim
            .kept_by_s_max
            .iter()
            .map(|(t, k)| (*t, k * 100.0))
            .chain(sim.kept_by_s_min.iter().rev().map(|(t, k)| (*t, k * 100.0)))
            .filter(|(_, k)| k.is_finite())
            .collect();
        if band.len() > 2 {
            chart
                .draw_series(std::iter::once(Polygon::new(band, BLUE.mix(0.15))))
                .map_err(|x| x.to_string())?;
        }
        chart
            .draw_series(LineSeries::new(
                sim.kept_by_s
                    .iter()
                    .filter(|x| x.1.is_finite())
                    .map(|(t, k)| (*t, k * 100.0)),
                BLUE.stroke_width(2),
            ))
            .map_err(|x| x.to_string())?
            .label(format!(
                "model, {} (mean; band: min..max of the runs)",
                model_name(sim)
            ))
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLUE.stroke_width(2)));
        chart
            .draw_series(LineSeries::new(
                f.kept_by_s
                    .iter()
                    .filter(|x| x.1.is_finite())
                    .map(|(t, k)| (*t, k * 100.0)),
                RED.stroke_width(2),
            ))
            .map_err(|x| x.to_string())?
            .label("server (measured)")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], RED.stroke_width(2)));
        if let Some((_, o)) = other {
            let green = RGBColor(0, 140, 60);
            chart
                .draw_series(LineSeries::new(
                    o.kept_by_s
                        .iter()
                        .filter(|x| x.1.is_finite())
                        .map(|(t, k)| (*t, k * 100.0)),
                    green.stroke_width(2),
                ))
                .map_err(|x| x.to_string())?
                .label(format!("model, {} (mean)", model_name(o)))
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], green.stroke_width(2))
                });
        }
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(warmup_s, 0.0), (warmup_s, 100.0)],
                BLACK.mix(0.5),
            )))
            .map_err(|x| x.to_string())?;
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::LowerLeft)
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(|x| x.to_string())?;
        root.present().map_err(e)?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::super::plan::{plan, PoolFacts};
    use super::super::sample::PoolSample;
    use super::*;
    use midpoint_core::scenario::Params;

    fn info() -> ServerInfo {
        ServerInfo {
            address: "mysql://root@127.0.0.1:3306".into(),
            version: "10.11.19-MariaDB".into(),
            mariadb: true,
            pool_bytes: 64 << 20,
            pool_pages: 4056,
            page_size: 16384,
            old_blocks_time: 1000,
            old_blocks_pct: 37,
            lru_scan_depth: 1536,
            other_schemas: vec![],
            sequence_engine: true,
            loopback: true,
            server_pid: None,
            left_changed: Vec::new(),
        }
    }

    fn measured() -> Measured {
        let samples = (0..=18)
            .map(|i| {
                let t = i as f64 * 5.0;
                let hot = if t <= 30.0 {
                    1000
                } else {
                    1000 - 10 * (t as u64 - 30)
                };
                PoolSample {
                    t_s: t,
                    hot_young: hot - 10,
                    hot_old: 10,
                    scan_young: if t <= 30.0 { 0 } else { 20 * (t as u64 - 30) },
                    scan_old: 1500,
                }
            })
            .collect();
        Measured {
            hot_pages: 1000,
            scan_pages: 12_000,
            idle_scan_pages_per_s: 10_000.0,
            idle_pass_s: 1.2,
            lookups_warmup: 60_000,
            lookups_scan: 90_000,
            warmup_elapsed_s: 30.0,
            scan_elapsed_s: 60.0,
            pass_s: vec![2.0, 2.0, 2.0],
            samples,
            free: vec![(29.0, 1000), (31.0, 0), (32.0, 700), (33.0, 0), (40.0, 800)],
            ..Measured::default()
        }
    }

    fn simulated() -> Simulated {
        Simulated {
            cpu_model: super::super::plan::CpuModel::Fixed,
            cpus: 0,
            runs: 2,
            kept_tail: 0.9,
            kept_tail_min: 0.85,
            kept_tail_max: 0.95,
            kept_by_s: vec![(0.0, 1.0), (30.0, 1.0), (90.0, 0.8)],
            kept_by_s_min: vec![(0.0, 1.0), (30.0, 1.0), (90.0, 0.7)],
            kept_by_s_max: vec![(0.0, 1.0), (30.0, 1.0), (90.0, 0.9)],
            leak_pages_per_s: 20.0,
            leak_pages_per_s_min: 15.0,
            leak_pages_per_s_max: 25.0,
            refills: 2.0,
            refills_min: 1,
            refills_max: 3,
            lru_batches_during_scan: 40.0,
            lookups_per_s_warmup: 2000.0,
            lookups_per_s_scan: 1500.0,
            lookups_per_s_scan_min: 1400.0,
            lookups_per_s_scan_max: 1600.0,
            scan_pages_per_s: 6000.0,
            passes: 30.0,
            frames: 4056,
            params: Params::default(),
        }
    }

    #[test]
    fn figures_from_the_series() {
        let s = Settings {
            warmup_s: 30,
            scan_s: 60,
            ..Settings::default()
        };
        let f = figures(&measured(), &s);
        // Kept falls 1 % per 5 s sample after t = 30 (0.5 % of the pages a second): the tail
        // is the mean of the samples at 35..90 s.
        let expect: f64 = (7..=18).map(|i| 1.0 - 0.05 * (i - 6) as f64).sum::<f64>() / 12.0;
        assert!((f.kept_tail - expect).abs() < 1e-12, "{}", f.kept_tail);
        assert!((f.leak_pages_per_s - 20.0).abs() < 1e-12);
        assert_eq!(f.lookups_per_s_warmup, 2000.0);
        assert_eq!(f.lookups_per_s_scan, 1500.0);
        assert_eq!(f.scan_pages_per_s, 6000.0);
        assert_eq!((f.passes, f.refills), (3, 2));
    }

    #[test]
    fn json_has_both_curves_and_the_interface_keys() {
        let s = Settings {
            warmup_s: 30,
            scan_s: 60,
            ..Settings::default()
        };
        let facts = PoolFacts {
            pool_pages: 4056,
            page_size: 16384,
            old_blocks_time: 1000,
            old_blocks_pct: 37,
            lru_scan_depth: 1536,
        };
        let p = plan(&s, &facts).unwrap();
        let m = measured();
        let f = figures(&m, &s);
        let sim = simulated();
        let v = json_report(&info(), &s, &p, &m, &f, (&sim, None), &[], true, Some(2));
        assert_eq!(v["server"]["pool_pages"], 4056);
        assert_eq!(v["server"]["version"], "10.11.19-MariaDB");
        assert_eq!(v["settings"]["warmup_s"], 30);
        for k in [
            "kept_tail",
            "kept_by_s",
            "lookups_per_s_warmup",
            "lookups_per_s_scan",
            "scan_pages_per_s",
            "passes",
            "refills",
        ] {
            assert!(!v["measured"][k].is_null(), "measured.{k}");
        }
        for k in ["kept_tail", "kept_tail_min", "kept_tail_max", "kept_by_s"] {
            assert!(!v["simulated"][k].is_null(), "simulated.{k}");
        }
        assert_eq!(v["measured"]["kept_by_s"].as_object().unwrap().len(), 19);
        assert_eq!(v["measured"]["kept_by_s"]["35"], 0.95);
        assert_eq!(v["simulated"]["kept_by_s"]["90"], 0.8);
        // The measured tail (0.675) is below the ensemble's 85-95 %: said.
        let d = v["differences"].as_array().unwrap();
        assert!(d
            .iter()
            .any(|x| x.as_str().unwrap().contains("kept in the last minute")));
        assert!(!d.iter().any(|x| x.as_str().unwrap().contains("leak")));
        assert!(v.get("simulated_shared").is_none());
        assert_eq!(v["simulated"]["cpu_model"], "fixed");
        assert_eq!(v["server"]["cpus"], 2);
        let text = text_report(&info(), &s, &p, &m, &f, &sim, None);
        assert!(text.contains("wall clock"));
        assert!(text.contains("<- scans start"));
        assert!(text.contains("give --server-cpus"));
        let svg = svg(&f, &sim, None, 30.0).unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("server (measured)"));
    }

    #[test]
    fn the_other_cpu_model_sits_beside_the_default_one() {
        let s = Settings {
            warmup_s: 30,
            scan_s: 60,
            ..Settings::default()
        };
        let facts = PoolFacts {
            pool_pages: 4056,
            page_size: 16384,
            old_blocks_time: 1000,
            old_blocks_pct: 37,
            lru_scan_depth: 1536,
        };
        let p = plan(&s, &facts).unwrap();
        let m = measured();
        let f = figures(&m, &s);
        let sim = simulated();
        let shared = Simulated {
            cpu_model: super::super::plan::CpuModel::Shared,
            cpus: 2,
            kept_tail: 0.6,
            kept_tail_min: 0.55,
            kept_tail_max: 0.7,
            kept_by_s: vec![(0.0, 1.0), (30.0, 1.0), (90.0, 0.61)],
            ..simulated()
        };
        let other = Some(("simulated_shared", &shared));
        let v = json_report(&info(), &s, &p, &m, &f, (&sim, other), &[], true, Some(2));
        assert_eq!(v["simulated"]["cpu_model"], "fixed");
        assert_eq!(v["simulated_shared"]["cpu_model"], "shared");
        assert_eq!(v["simulated_shared"]["cpus"], 2);
        assert_eq!(v["simulated_shared"]["kept_by_s"]["90"], 0.61);
        // The measured tail (0.675) is inside the shared model's 55-70 %, outside the fixed's.
        let d = v["simulated_shared"]["differences"].as_array().unwrap();
        assert!(!d
            .iter()
            .any(|x| x.as_str().unwrap().contains("kept in the last minute")));
        let text = text_report(&info(), &s, &p, &m, &f, &sim, other);
        assert!(text.contains("| 2 CPUs shared"), "{text}");
        assert!(text.contains("61.0 %"), "{text}");
        let svg = svg(&f, &sim, other, 30.0).unwrap();
        assert!(svg.contains("2 CPUs shared"));
    }
}

//! Every policy on one scenario, for `midpoint policies` (and anything else that wants the
//! table): InnoDB from the simulation itself, the others closed loop against the scenario's
//! clients ([`super::closed_loop`]), Belady open loop on the InnoDB run's recorded requests.

/// One row of the `policies` table.
#[derive(Clone, Debug, serde::Serialize)]
pub struct PolicyRow {
    pub policy: String,
    /// Mean hot-set residency over the "kept" window.
    pub kept: f64,
    /// Misses over page requests during the scan phase.
    pub miss_ratio: f64,
    /// Lookups per second during the scan phase (`null`: open loop, the InnoDB run's).
    pub lookups_per_s: Option<f64>,
    /// The scanned table's mean share of the cache over the window.
    pub scan_share: f64,
    /// How the row was measured.
    pub how: &'static str,
}

/// Every policy on the scenario `params`: InnoDB from the simulation itself, the others
/// closed loop against the same clients, Belady open loop on the InnoDB run's stream.
pub fn policy_rows(
    params: &crate::scenario::Params,
    touches: Option<u32>,
) -> Result<Vec<PolicyRow>, String> {
    if params.cpus > 0 {
        return Err("policies: scenarios with the CPU model (cpus > 0) are not supported".into());
    }
    let (rec, report) = super::record::record(params)?;
    let frames = params.frames_per_instance() * params.buffer_pool_instances;
    let mut rows = Vec::new();
    let (mut req, mut miss) = (0u64, 0u64);
    for i in rec.scan_from..rec.ids.len() {
        req += 1;
        miss += !rec.hit[i] as u64;
    }
    let ratio = |m: u64, r: u64| if r > 0 { m as f64 / r as f64 } else { 0.0 };
    let n_share = rec.scan_share_samples.len().max(1) as f64;
    rows.push(PolicyRow {
        policy: "innodb".into(),
        kept: report.kept,
        miss_ratio: ratio(miss, req),
        lookups_per_s: Some(report.lookups_per_s),
        scan_share: rec.scan_share_samples.iter().sum::<f64>() / n_share,
        how: "the simulation itself (MySQL 8.4 buffer pool)",
    });
    let scan_miss_us = super::closed_loop::scan_miss_cost_us(params, &rec, report.scan_passes);
    let touches = touches.unwrap_or(params.scan_touches_per_page);
    for name in [
        "lru", "fifo", "clock", "2q", "arc", "sieve", "s3fifo", "lirs",
    ] {
        let mut p = super::by_name(name, frames)?;
        let r = super::closed_loop::run(params, &rec, p.as_mut(), scan_miss_us, touches);
        rows.push(PolicyRow {
            policy: name.into(),
            kept: r.kept,
            miss_ratio: ratio(r.misses, r.requests),
            lookups_per_s: Some(r.lookups_per_s),
            scan_share: r.scan_share,
            how: "closed loop: the scenario's clients, misses costing what they cost in the InnoDB run",
        });
    }
    let mut b = super::belady::Belady::new(frames);
    let r = super::closed_loop::open_loop(params, &rec, &mut b);
    rows.push(PolicyRow {
        policy: "belady".into(),
        kept: r.kept,
        miss_ratio: ratio(r.misses, r.requests),
        lookups_per_s: None,
        scan_share: r.scan_share,
        how: "open loop on the InnoDB run's recorded requests (OPT needs the future)",
    });
    Ok(rows)
}

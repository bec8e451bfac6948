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

/// The policies [`policy_rows`] lists, in its order.
pub const ORDER: [&str; 10] = [
    "innodb", "lru", "fifo", "clock", "2q", "arc", "sieve", "s3fifo", "lirs", "belady",
];

/// One sentence per policy: why it keeps or loses the hot set under a looping scan whose rows
/// touch each page several times (the README's "Other replacement policies").
pub fn why(policy: &str) -> &'static str {
    match policy {
        "innodb" => "Midpoint insertion with innodb_old_blocks_time filters exactly the scan's repeated touches (a second access within a second does not count), yet the page cleaner's refill slides the old/young boundary over the newest scan pages, which turn young without any access: the leak this page animates.",
        "lru" => "Every scanned page goes to the head, so a scan longer than the cache pushes the hot set out between two lookups of the same hot page.",
        "fifo" => "Insertion order only: hits change nothing, so hot pages are evicted as soon as the scan has pushed a cache's worth of pages in behind them.",
        "clock" => "A scanned page's second and later touches set its reference bit, so the scan looks like reuse and gets the second chance meant for the hot set.",
        "2q" => "New pages stay in the A1in FIFO, whose hits are ignored by design: the scan's repeated touches never promote it, and the hot set stays in Am.",
        "arc" => "The scan's repeated touches move each scanned page to the 'frequent' list, so ARC adapts half-way and keeps about half of the hot set.",
        "sieve" => "The scan's repeated touches mark each scanned page as visited, so the hand spares scan pages as readily as hot ones.",
        "s3fifo" => "The repeated touches count as hits in the small queue, so scanned pages are moved to the main queue and compete with the hot set there.",
        "lirs" => "A touch microseconds after the previous one is a reuse distance of zero, so every scanned page becomes LIR and the hot set is demoted.",
        "belady" => "The optimum for misses: a looping scan comes back to a page sooner than a lookup comes back to a given hot page, so OPT keeps scan pages, and fewest misses is not keeping the hot set.",
        _ => "",
    }
}

/// Every policy on one scenario, one policy per [`Comparison::step`], so a caller (the page's
/// worker) can report progress: the InnoDB run first (recorded), then the others.
pub struct Comparison {
    params: midpoint_core::scenario::Params,
    touches: u32,
    frames: u32,
    rec: Option<super::record::Recording>,
    scan_miss_us: f64,
    rows: Vec<PolicyRow>,
}

fn ratio(m: u64, r: u64) -> f64 {
    if r > 0 {
        m as f64 / r as f64
    } else {
        0.0
    }
}

impl Comparison {
    /// A comparison on `params` (scanned pages touched `touches` times; default: the scenario's).
    pub fn new(
        params: &midpoint_core::scenario::Params,
        touches: Option<u32>,
    ) -> Result<Comparison, String> {
        if params.cpus > 0 {
            return Err(
                "policies: scenarios with the CPU model (cpus > 0) are not supported".into(),
            );
        }
        Ok(Comparison {
            params: params.clone(),
            touches: touches.unwrap_or(params.scan_touches_per_page),
            frames: params.frames_per_instance() * params.buffer_pool_instances,
            rec: None,
            scan_miss_us: 0.0,
            rows: Vec::new(),
        })
    }

    /// Policies done so far, of [`ORDER`]'s.
    pub fn done(&self) -> usize {
        self.rows.len()
    }

    /// Whether every policy is done.
    pub fn finished(&self) -> bool {
        self.rows.len() == ORDER.len()
    }

    /// The rows computed so far.
    pub fn rows(&self) -> &[PolicyRow] {
        &self.rows
    }

    /// Runs the next policy (the first call: the InnoDB run, recorded).
    pub fn step(&mut self) -> Result<(), String> {
        let params = &self.params;
        if self.rec.is_none() {
            let (rec, report) = super::record::record(params)?;
            let (mut req, mut miss) = (0u64, 0u64);
            for i in rec.scan_from..rec.ids.len() {
                req += 1;
                miss += !rec.hit[i] as u64;
            }
            let n_share = rec.scan_share_samples.len().max(1) as f64;
            self.rows.push(PolicyRow {
                policy: "innodb".into(),
                kept: report.kept,
                miss_ratio: ratio(miss, req),
                lookups_per_s: Some(report.lookups_per_s),
                scan_share: rec.scan_share_samples.iter().sum::<f64>() / n_share,
                how: "the simulation itself (MySQL 8.4 buffer pool)",
            });
            self.scan_miss_us =
                super::closed_loop::scan_miss_cost_us(params, &rec, report.scan_passes);
            self.rec = Some(rec);
            return Ok(());
        }
        let Some(&name) = ORDER.get(self.rows.len()) else {
            return Ok(());
        };
        let row = self.row_of(name)?;
        self.rows.push(row);
        Ok(())
    }

    /// The row of policy `name` (not the InnoDB run's), once the InnoDB run is recorded. It
    /// reads the recording only, so the policies can run in any order, or at once.
    fn row_of(&self, name: &str) -> Result<PolicyRow, String> {
        let params = &self.params;
        let rec = self
            .rec
            .as_ref()
            .ok_or("policies: the InnoDB run is not recorded yet")?;
        if name == "belady" {
            let mut b = super::belady::Belady::new(self.frames);
            let r = super::closed_loop::open_loop(params, rec, &mut b);
            return Ok(PolicyRow {
                policy: "belady".into(),
                kept: r.kept,
                miss_ratio: ratio(r.misses, r.requests),
                lookups_per_s: None,
                scan_share: r.scan_share,
                how: "open loop on the InnoDB run's recorded requests (OPT needs the future)",
            });
        }
        let mut p = super::by_name(name, self.frames)?;
        let r = super::closed_loop::run(params, rec, p.as_mut(), self.scan_miss_us, self.touches);
        Ok(PolicyRow {
            policy: name.into(),
            kept: r.kept,
            miss_ratio: ratio(r.misses, r.requests),
            lookups_per_s: Some(r.lookups_per_s),
            scan_share: r.scan_share,
            how: "closed loop: the scenario's clients, misses costing what they cost in the InnoDB run",
        })
    }

    /// The rows, once [`Comparison::finished`].
    pub fn into_rows(self) -> Vec<PolicyRow> {
        self.rows
    }
}

/// Every policy on the scenario `params`: InnoDB from the simulation itself, the others
/// closed loop against the same clients, Belady open loop on the InnoDB run's stream.
pub fn policy_rows(
    params: &midpoint_core::scenario::Params,
    touches: Option<u32>,
) -> Result<Vec<PolicyRow>, String> {
    let mut c = Comparison::new(params, touches)?;
    c.step()?;
    // The other policies each replay the recording on their own: on every core on native
    // builds (`crate::par::par_map`, results in ORDER's order whatever the thread count).
    let rest = crate::par::par_map(&ORDER[c.rows.len()..], |name| c.row_of(name), |_, _| {});
    let mut rows = c.into_rows();
    for r in rest {
        rows.push(r?);
    }
    Ok(rows)
}

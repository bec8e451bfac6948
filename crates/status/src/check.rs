//! What contradicts: counters that cannot hold together, instance blocks against the totals, and
//! the rates of two snapshots' difference.

use super::*;
use crate::snapshot::Snapshot;

/// Contradictions between the totals.
pub(super) fn check(out: &mut Reading) {
    let pairs: &[(&str, &str, &str)] = &[
        (
            "free_buffers",
            "pool_pages",
            "more free buffers than the pool has pages",
        ),
        (
            "database_pages",
            "pool_pages",
            "more database pages than the pool has pages",
        ),
        (
            "old_database_pages",
            "database_pages",
            "more old pages than database pages",
        ),
        (
            "modified_db_pages",
            "database_pages",
            "more modified pages than database pages",
        ),
        ("lru_len", "pool_pages", "an LRU list longer than the pool"),
    ];
    for (a, b, what) in pairs {
        if let (Some(x), Some(y)) = (out.values.get(*a), out.values.get(*b)) {
            if let (Some(xv), Some(yv)) = (x.value.as_f64(), y.value.as_f64()) {
                if xv > yv {
                    let msg = format!(
                        "{what}: {a} = {} (line {}) > {b} = {} (line {})",
                        num_text(&x.value),
                        x.from.line,
                        num_text(&y.value),
                        y.from.line
                    );
                    out.warn(msg, &[a, b]);
                }
            }
        }
    }
    if let (Some(f), Some(d), Some(s)) = (
        out.values.get("free_buffers"),
        out.values.get("database_pages"),
        out.values.get("pool_pages"),
    ) {
        if let (Some(fv), Some(dv), Some(sv)) =
            (f.value.as_u64(), d.value.as_u64(), s.value.as_u64())
        {
            if fv.saturating_add(dv) > sv && fv <= sv && dv <= sv {
                let msg = format!(
                    "free buffers and database pages add up to more than the pool: {fv} (line {}) + {dv} (line {}) > {sv} (line {})",
                    f.from.line, d.from.line, s.from.line
                );
                out.warn(msg, &["free_buffers", "database_pages", "pool_pages"]);
            }
        }
    }
    for r in ["hit_rate_per_1000", "young_making_rate_per_1000"] {
        if let Some(v) = out.values.get(r) {
            if v.value.as_f64().is_some_and(|x| x > 1000.0) {
                let msg = format!(
                    "{r} = {} (line {}) is more than 1000 per 1000",
                    num_text(&v.value),
                    v.from.line
                );
                out.warn(msg, &[r]);
            }
        }
    }
    if let (Some(lru), Some(db)) = (out.values.get("lru_len"), out.values.get("database_pages")) {
        if lru.value != db.value && out.sources.get("lru_len") == Some(&Source::Status) {
            let msg = format!(
                "LRU len = {} (line {}) differs from Database pages = {} (line {}); InnoDB prints the same list's length twice",
                num_text(&lru.value),
                lru.from.line,
                num_text(&db.value),
                db.from.line
            );
            out.warn(msg, &["lru_len", "database_pages"]);
        }
    }
    if let (Some(ib), Some(n)) = (
        out.values.get("innodb_buffer_pool_instances"),
        out.values.get("instances"),
    ) {
        if let (Some(a), Some(b)) = (ib.value.as_u64(), n.value.as_u64()) {
            if a != b && out.sources.get("instances") == Some(&Source::Status) {
                let msg = format!(
                    "innodb_buffer_pool_instances = {a} (line {}) but the status has {b} instance blocks (from line {})",
                    ib.from.line, n.from.line
                );
                out.warn(msg, &["innodb_buffer_pool_instances", "instances"]);
            }
        }
    }
}

/// The per-instance blocks against the totals and against themselves.
pub(super) fn check_instances(out: &mut Reading, blocks: &[BTreeMap<String, Value>], src: Source) {
    for (i, b) in blocks.iter().enumerate() {
        if let (Some(f), Some(s)) = (b.get("free_buffers"), b.get("pool_pages")) {
            if f.value.as_f64() > s.value.as_f64() {
                let msg = format!(
                    "instance {i}: more free buffers than pages: {} (line {}) > {} (line {})",
                    num_text(&f.value),
                    f.from.line,
                    num_text(&s.value),
                    s.from.line
                );
                out.warn(msg, &[]);
            }
        }
        if let (Some(o), Some(d)) = (b.get("old_database_pages"), b.get("database_pages")) {
            if o.value.as_f64() > d.value.as_f64() {
                let msg = format!(
                    "instance {i}: more old pages than database pages: {} (line {}) > {} (line {})",
                    num_text(&o.value),
                    o.from.line,
                    num_text(&d.value),
                    d.from.line
                );
                out.warn(msg, &[]);
            }
        }
    }
    if src != Source::Status || blocks.is_empty() {
        return;
    }
    if let Some(total) = out.values.get("pool_pages").cloned() {
        let sum: u64 = out.instance_pool_pages.iter().sum();
        if out.instance_pool_pages.len() == blocks.len() && Some(sum) != total.value.as_u64() {
            let msg = format!(
                "the instances' pool sizes add up to {sum} pages, not the total's {} (line {})",
                num_text(&total.value),
                total.from.line
            );
            out.warn(msg, &["pool_pages"]);
        }
    }
}

/// Rates from the counters' differences between two snapshots.
pub(super) fn interval(out: &mut Reading, a: &Snapshot, b: &Snapshot) {
    let (Some((ta, la)), Some((tb, lb))) = (a.time, b.time) else {
        out.note("two status snapshots were pasted but not both with their header line (the timestamp): rates from their difference need it; each snapshot's own per-second lines are shown".into());
        return;
    };
    let dt = tb - ta;
    if dt <= 0.0 {
        out.warn(
            format!("the second snapshot (line {lb}) is not later than the first (line {la}): no rates from their difference"),
            &[],
        );
        return;
    }
    let mut rates = BTreeMap::new();
    for (counter, rate) in [
        ("pages_made_young", "youngs_per_s"),
        ("pages_not_made_young", "non_youngs_per_s"),
        ("pages_read", "reads_per_s"),
        ("pages_created", "creates_per_s"),
        ("pages_written", "writes_per_s"),
    ] {
        if let (Some(x), Some(y)) = (a.counter(counter), b.counter(counter)) {
            if y < x {
                out.warn(
                    format!("{counter} went down between the snapshots ({x} then {y}): the server restarted in between? no rate from it"),
                    &[],
                );
            } else {
                rates.insert(rate.to_string(), (y - x) as f64 / dt);
            }
        }
    }
    out.interval = Some(Interval {
        seconds: dt,
        rates,
        from_line: la,
        to_line: lb,
    });
}

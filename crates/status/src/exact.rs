//! Exact figures from two `SHOW GLOBAL STATUS` snapshots: the counters' differences over their
//! own interval (`Uptime`'s difference). With them, "yours" is exact; the status's per-second
//! lines (averages since its previous printout, whenever that was) are used only without them.
//!
//! The hit rate counts as misses every page read from disk, read-ahead included
//! (`Innodb_pages_read`, the status's "Pages read"), as the status's `Buffer pool hit rate` does
//! (`buf_print_io_instance`: pages read over page gets) and as the model counts its own; without
//! that counter, `Innodb_buffer_pool_reads` (all reads on MariaDB, the synchronous ones on
//! MySQL). The page gets are `Innodb_buffer_pool_read_requests`.

use super::{Reading, Value};
use serde::Serialize;
use std::collections::BTreeMap;

/// The rates and hit rate over two global status snapshots.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Exact {
    /// `Uptime`'s difference (seconds).
    pub seconds: f64,
    /// `1 - pages read / read requests` over the interval (0 to 1), when both were pasted twice.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hit_rate: Option<f64>,
    /// `reads_per_s`, `youngs_per_s`, `non_youngs_per_s`, `read_requests_per_s`.
    pub rates: BTreeMap<String, f64>,
    /// The counters used for each figure.
    pub from: BTreeMap<String, String>,
    /// The lines of the two `Uptime` values.
    pub from_line: usize,
    pub to_line: usize,
}

fn u(m: &BTreeMap<String, Value>, k: &str) -> Option<u64> {
    m.get(k).and_then(|v| v.value.as_u64())
}

/// The exact figures from the first and last value of each global status counter pasted twice.
pub(super) fn global_interval(
    out: &mut Reading,
    first: &BTreeMap<String, Value>,
    last: &BTreeMap<String, Value>,
) {
    if first.is_empty() {
        return;
    }
    let (Some(t0), Some(t1)) = (u(first, "Uptime"), u(last, "Uptime")) else {
        out.notes.push("two SHOW GLOBAL STATUS snapshots were pasted without Uptime: their counters' rates need it (SHOW GLOBAL STATUS WHERE Variable_name IN ('Uptime', 'Innodb_pages_read') OR Variable_name LIKE 'Innodb_buffer_pool%'); the status's per-second lines are used".into());
        return;
    };
    if t1 <= t0 {
        out.warnings.push(format!(
            "Uptime is {t0} then {t1}: the second SHOW GLOBAL STATUS is not later than the first (a restart in between?); no rates from them"
        ));
        return;
    }
    let dt = (t1 - t0) as f64;
    let delta = |k: &str| -> Option<u64> {
        let (a, b) = (u(first, k)?, u(last, k)?);
        b.checked_sub(a)
    };
    let mut rates = BTreeMap::new();
    let mut from = BTreeMap::new();
    // Every page read, read-ahead included: Innodb_pages_read (the status's "Pages read"),
    // else Innodb_buffer_pool_reads (MariaDB counts every read there; MySQL only the reads a
    // get waited for, and `from` says which was used).
    let reads = ["Innodb_pages_read", "Innodb_buffer_pool_reads"]
        .into_iter()
        .find_map(|k| delta(k).map(|d| (d, k.to_string())));
    if let Some((d, name)) = &reads {
        rates.insert("reads_per_s".to_string(), *d as f64 / dt);
        from.insert("reads_per_s".to_string(), name.clone());
    }
    let requests = delta("Innodb_buffer_pool_read_requests");
    if let Some(q) = requests {
        rates.insert("read_requests_per_s".to_string(), q as f64 / dt);
        from.insert(
            "read_requests_per_s".to_string(),
            "Innodb_buffer_pool_read_requests".to_string(),
        );
    }
    let hit_rate = match (&reads, requests) {
        (Some((d, name)), Some(q)) if q > 0 => {
            from.insert(
                "hit_rate".to_string(),
                format!("1 - {name} / Innodb_buffer_pool_read_requests"),
            );
            Some((1.0 - *d as f64 / q as f64).max(0.0))
        }
        _ => None,
    };
    for (counter, rate) in [
        ("Innodb_buffer_pool_pages_made_young", "youngs_per_s"),
        (
            "Innodb_buffer_pool_pages_made_not_young",
            "non_youngs_per_s",
        ),
    ] {
        if let Some(d) = delta(counter) {
            rates.insert(rate.to_string(), d as f64 / dt);
            from.insert(rate.to_string(), counter.to_string());
        }
    }
    if rates.is_empty() {
        return;
    }
    out.exact = Some(Exact {
        seconds: dt,
        hit_rate,
        rates,
        from,
        from_line: first.get("Uptime").map_or(0, |v| v.from.line),
        to_line: last.get("Uptime").map_or(0, |v| v.from.line),
    });
}

#[cfg(test)]
mod tests {
    #[test]
    fn two_global_status_snapshots_give_their_exact_deltas() {
        let a = "Variable_name\tValue\nInnodb_buffer_pool_pages_made_not_young\t1000\nInnodb_buffer_pool_pages_made_young\t50\nInnodb_pages_read\t2000\nInnodb_buffer_pool_read_requests\t100000\nUptime\t100\n";
        let b = "Variable_name\tValue\nInnodb_buffer_pool_pages_made_not_young\t4000\nInnodb_buffer_pool_pages_made_young\t110\nInnodb_pages_read\t5000\nInnodb_buffer_pool_read_requests\t200000\nUptime\t130\n";
        let r = crate::read_inputs(&[a, b]).unwrap();
        let e = r.exact.expect("exact figures");
        assert_eq!(e.seconds, 30.0);
        assert!((e.hit_rate.unwrap() - 0.97).abs() < 1e-12);
        assert_eq!(e.rates["reads_per_s"], 100.0);
        assert_eq!(e.rates["youngs_per_s"], 2.0);
        assert_eq!(e.rates["non_youngs_per_s"], 100.0);
        // One snapshot: none.
        assert!(crate::read(b).unwrap().exact.is_none());
        // Without Uptime: none, and a note says why.
        let r = crate::read_inputs(&[&a.replace("Uptime\t100\n", ""), b]).unwrap();
        assert!(r.exact.is_none());
        assert!(r.notes.iter().any(|n| n.contains("without Uptime")));
    }

    #[test]
    fn a_real_capture_gives_yours_exactly_and_the_fit_aims_at_it() {
        let f = |n: &str| {
            std::fs::read_to_string(format!(
                "{}/tests/fixtures/status/mariadb-10.11-tables-{n}.txt",
                env!("CARGO_MANIFEST_DIR")
            ))
            .unwrap()
        };
        let texts: Vec<String> = ["status-1", "global-1", "status-2", "global-2", "vars"]
            .iter()
            .map(|n| f(n))
            .collect();
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        let r = crate::read_inputs(&refs).unwrap();
        let e = r.exact.clone().expect("two global status snapshots");
        let g = |t: &str, k: &str| -> f64 {
            t.lines()
                .find_map(|l| l.strip_prefix(&format!("{k}\t")))
                .unwrap()
                .parse()
                .unwrap()
        };
        let (a, b) = (&texts[1], &texts[3]);
        let dt = g(b, "Uptime") - g(a, "Uptime");
        let reads = g(b, "Innodb_pages_read") - g(a, "Innodb_pages_read");
        let gets =
            g(b, "Innodb_buffer_pool_read_requests") - g(a, "Innodb_buffer_pool_read_requests");
        assert_eq!(e.seconds, dt);
        assert!((e.hit_rate.unwrap() - (1.0 - reads / gets)).abs() < 1e-12);
        assert_eq!(e.rates["reads_per_s"], reads / dt);
        let young = g(b, "Innodb_buffer_pool_pages_made_young")
            - g(a, "Innodb_buffer_pool_pages_made_young");
        assert_eq!(e.rates["youngs_per_s"], young / dt);
        // The fit's "yours" are these, not the status's per-second lines.
        let t = crate::fit::targets(&r);
        assert_eq!(t.hit_rate, e.hit_rate);
        assert_eq!(t.reads_per_s, Some(reads / dt));
        assert_eq!(t.youngs_per_s, Some(young / dt));
        assert_ne!(t.hit_rate, r.num("hit_rate_per_1000").map(|h| h / 1000.0));
        assert_eq!(crate::risk::pasted_rates(&r).0, Some(young / dt));
    }
}

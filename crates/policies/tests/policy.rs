//! The `policies` comparison on seed 000's cell (4,485-page hot set, back-to-back scans): what the scan-resistant policies keep, with and without the scan's
//! correlated touches, and that the InnoDB row is the simulation's own run.

use midpoint_core::scenario::preset;
use midpoint_policies::policy::compare::policy_rows;

fn params() -> midpoint_core::scenario::Params {
    let mut p = preset("seed000-hot4485-b2b").unwrap().params;
    p.scan_s = 60;
    p.kept_window_s = 40;
    p
}

fn kept(rows: &[midpoint_policies::policy::compare::PolicyRow], name: &str) -> f64 {
    rows.iter().find(|r| r.policy == name).unwrap().kept
}

#[test]
fn with_one_request_per_scanned_page_arc_sieve_and_s3fifo_keep_the_hot_set_and_lru_does_not() {
    let p = params();
    let rows = policy_rows(&p, Some(1)).unwrap();
    assert_eq!(rows.len(), 10);
    for name in ["arc", "sieve", "s3fifo"] {
        assert!(
            kept(&rows, name) > 0.99,
            "{name} kept {}",
            kept(&rows, name)
        );
    }
    for name in ["lru", "fifo", "clock"] {
        assert!(kept(&rows, name) < 0.3, "{name} kept {}", kept(&rows, name));
    }
    // The InnoDB row is the simulation's own figure.
    let run = midpoint_core::sim::run(&p).unwrap();
    assert_eq!(kept(&rows, "innodb"), run.kept);
    // Every ratio is a ratio; OPT misses least.
    let opt = rows
        .iter()
        .find(|r| r.policy == "belady")
        .unwrap()
        .miss_ratio;
    for r in &rows {
        assert!((0.0..=1.0).contains(&r.miss_ratio) && (0.0..=1.0).contains(&r.scan_share));
        assert!(opt <= r.miss_ratio + 1e-12, "{} beats OPT", r.policy);
    }
}

#[test]
fn the_scans_repeated_touches_look_like_reuse_to_reference_bits_but_not_to_2q() {
    // The full scan phase: 2Q needs a while to move the hot pages through A1in and A1out into
    // Am (over the first 60 s its mean is still below 70 %).
    let p = preset("seed000-hot4485-b2b").unwrap().params;
    assert_eq!(p.scan_touches_per_page, 8);
    let rows = policy_rows(&p, None).unwrap();
    for name in ["clock", "sieve", "s3fifo"] {
        assert!(kept(&rows, name) < 0.3, "{name} kept {}", kept(&rows, name));
    }
    assert!(kept(&rows, "2q") > 0.9, "2q kept {}", kept(&rows, "2q"));
}

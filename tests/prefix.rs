//! Snapshot-at-prefix runs against runs from t = 0: a run that continues a copy of another
//! run taken at the scan's start (`Simulation::resume_with`) must give bit-identical results,
//! for every parameter of `sim::prefix::AFTER_SCAN_START`, on random values and random
//! warm-ups (both server models: the seed-000 one and processor sharing).

use midpoint_core::scenario::{preset, Params, Start};
use midpoint_core::sim::prefix::{shares_prefix, AFTER_SCAN_START};
use midpoint_core::sim::Simulation;
use proptest::prelude::*;

/// A value for `name` drawn from `r` (a number in 0..1), within a range the small runs here
/// can afford.
fn value_for(name: &str, r: f64) -> String {
    let pick = |lo: f64, hi: f64| lo + r * (hi - lo);
    match name {
        "scan_touches_per_page" => format!("{}", pick(1.0, 12.0).round()),
        "scan_cpu_us_per_page" => format!("{:.2}", pick(0.5, 60.0)),
        "idle_scan_pages_per_s" => format!("{}", pick(2_000.0, 50_000.0).round()),
        "scan_mode" => (if r < 0.5 { "normal" } else { "scan" }).into(),
        "scan_pause_ms" => format!("{}", pick(0.0, 3_000.0).round()),
        "scan_loop" => (if r < 0.5 { "true" } else { "false" }).into(),
        "scan_s" => format!("{}", pick(1.0, 6.0).round()),
        "scan_interference" => format!("{:.3}", pick(0.0, 4.0)),
        "kept_window_s" => format!("{}", pick(1.0, 4.0).round()),
        other => panic!("no test values for {other}: add them when adding it to AFTER_SCAN_START"),
    }
}

/// Everything a run reports, as text (`{:?}` prints every f64 exactly).
fn fingerprint(s: &Simulation) -> String {
    format!(
        "{:?}\n{:?}\n{:?}\n{}",
        s.report(),
        s.samples(),
        s.batches(),
        s.events()
    )
}

fn base(warmup_s: u32, depth: u32, cpus: u32, cold: bool, seed: u64) -> Params {
    Params {
        warmup_s,
        scan_s: 4,
        kept_window_s: 2,
        lru_scan_depth: depth,
        cpus,
        start: if cold { Start::Cold } else { Start::Warm },
        seed,
        ..preset("small-demo").unwrap().params
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn a_run_from_the_snapshot_equals_the_run_from_zero(
        which in 0..AFTER_SCAN_START.len(),
        r in 0.0f64..1.0,
        warmup_s in 1u32..4,
        depth in 100u32..600,
        cpus in prop_oneof![Just(0u32), 1u32..4],
        cold in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let a = base(warmup_s, depth, cpus, cold, seed);
        let name = AFTER_SCAN_START[which];
        let mut b = a.clone();
        b.set(name, &value_for(name, r)).unwrap();
        prop_assert!(shares_prefix(&a, &b), "{name}");

        let mut snapshot = Simulation::new(&a).unwrap();
        snapshot.run_to_scan_start();
        let mut resumed = snapshot.clone();
        match Simulation::new(&b) {
            // Parameters a run refuses (an idle scan rate the storage cannot reach) are
            // refused the same way from the snapshot.
            Err(e) => prop_assert_eq!(resumed.resume_with(&b), Err(e)),
            Ok(mut zero) => {
                resumed.resume_with(&b).unwrap();
                resumed.run_to_end();
                zero.run_to_end();
                prop_assert_eq!(fingerprint(&resumed), fingerprint(&zero), "{} = {}", name, value_for(name, r));
            }
        }

        // The snapshot itself is untouched and still continues its own run exactly.
        let mut own = snapshot.clone();
        own.resume_with(&a).unwrap();
        own.run_to_end();
        let mut a0 = Simulation::new(&a).unwrap();
        a0.run_to_end();
        prop_assert_eq!(fingerprint(&own), fingerprint(&a0));
    }
}

/// Every parameter of the rule has test values (the proptest picks among them at random; this
/// makes sure each one is run at least once, on a fixed draw).
#[test]
fn every_parameter_of_the_rule_is_covered() {
    for (i, name) in AFTER_SCAN_START.iter().enumerate() {
        let a = base(2, 200, (i % 2) as u32 * 2, false, 7 + i as u64);
        let b = [0.37, 0.87]
            .iter()
            .map(|&r| {
                let mut b = a.clone();
                b.set(name, &value_for(name, r)).unwrap();
                b
            })
            .find(|b| *b != a)
            .unwrap_or_else(|| panic!("{name}: no test value changes the parameters"));
        let mut s = Simulation::new(&a).unwrap();
        s.run_to_scan_start();
        s.resume_with(&b).unwrap();
        s.run_to_end();
        let mut z = Simulation::new(&b).unwrap();
        z.run_to_end();
        assert_eq!(fingerprint(&s), fingerprint(&z), "{name}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    /// `innodb_old_blocks_time` joins the shared prefix only when the warm-up never consulted
    /// it; then the run from the snapshot equals the run from zero too.
    #[test]
    fn old_blocks_time_shares_the_prefix_only_when_the_warm_up_ignored_it(
        time in prop_oneof![Just(0u32), 1u32..3_000],
        warmup_s in 1u32..4,
        depth in 100u32..600,
        cpus in prop_oneof![Just(0u32), 1u32..4],
        cold in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let a = base(warmup_s, depth, cpus, cold, seed);
        let b = Params { old_blocks_time: time, scan_pause_ms: 250, ..a.clone() };
        let mut snapshot = Simulation::new(&a).unwrap();
        snapshot.run_to_scan_start();
        prop_assert_eq!(
            snapshot.can_resume_with(&b),
            a.old_blocks_time == time || snapshot.prefix_ignores_old_blocks_time()
        );
        if snapshot.can_resume_with(&b) {
            snapshot.resume_with(&b).unwrap();
            snapshot.run_to_end();
            let mut zero = Simulation::new(&b).unwrap();
            zero.run_to_end();
            prop_assert_eq!(fingerprint(&snapshot), fingerprint(&zero));
        } else {
            prop_assert!(snapshot.resume_with(&b).is_err());
        }
    }
}

/// Seed 000's warm start never re-accesses an old page before the scan (the hot set is
/// loaded last, at the young end): its old_blocks_time slider reuses the prefix. A cold
/// start reads the hot pages into the old sublist and re-accesses them: it does not.
#[test]
fn seed000s_warm_up_ignores_old_blocks_time_and_a_cold_start_does_not() {
    let seed = preset("seed000-hot4485-b2b").unwrap().params;
    let mut s = Simulation::new(&seed).unwrap();
    s.run_to_scan_start();
    assert!(s.prefix_ignores_old_blocks_time());
    assert!(s.can_resume_with(&Params {
        old_blocks_time: 0,
        ..seed.clone()
    }));
    assert!(!s.can_resume_with(&Params {
        lru_scan_depth: 4096,
        ..seed.clone()
    }));
    let cold = Params {
        start: Start::Cold,
        ..base(3, 128, 0, true, 1)
    };
    let mut c = Simulation::new(&cold).unwrap();
    c.run_to_scan_start();
    assert!(!c.prefix_ignores_old_blocks_time());
}

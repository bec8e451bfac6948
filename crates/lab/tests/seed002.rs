//! Seed 002 (mysqldump against sysbench, 1-19 threads, old_blocks_time 0 vs 1000), at reduced
//! duration and at a few thread counts. Each check names the seed figure it checks; shapes and
//! ratios only, and a test fails when one of them no longer holds. The seed's "tepid peak" and the
//! old_blocks_pct 60 shift are shown by `midpoint reproduce --experiment 002`, not checked: the model
//! does not show them clearly (see the README).

use midpoint_lab::experiments::figure::{describe_failures, failed, held};
use midpoint_lab::experiments::seed002::{checks, sweep, SEED};

#[test]
fn seed002_shapes_hold() {
    let pts = sweep(37, &[1, 8, 19], 2, |_, _| {});
    let c = checks(&pts, None);
    assert!(
        failed(&c).is_empty(),
        "seed-002 figures that no longer hold:\n{}",
        describe_failures(&c)
    );
    assert!(held(&c) >= 3);
}

#[test]
fn seed002_throughput_without_the_dump_plateaus_at_12_threads() {
    // Seed figure: QPS without the dump ("OPT") grows to 174,916 at 12 threads and stays there
    // (175,114 at 19): the box has about 12 CPUs. The CPU model must show the same plateau.
    let pts = sweep(37, &[1, 12, 19], 4, |_, _| {});
    let (o1, o12, o19) = (pts[0].opt, pts[1].opt, pts[2].opt);
    let seed_growth = SEED[11].1 / SEED[0].1; // 10.1x
    assert!((seed_growth - 10.1).abs() < 0.05, "{seed_growth}");
    // The ledger's line for it (`seed002::checks`): the seed's figure at its own precision
    // (one decimal: 10.05-10.15x), not the preset's own CPUs. The model scales linearly on its
    // 12 CPUs (12x): a known miss (no contention between the threads in the CPU model), held
    // as a miss with its reason, so that the day it comes in this test says to update the docs
    // instead of keeping a stale explanation.
    let c = checks(&pts, None);
    let line = c
        .iter()
        .find(|x| x.figure.what == "QPS without the dump, 12 threads over 1")
        .expect("the ledger has the 1 -> 12 threads line");
    let (lo, hi) = line.figure.band().expect("a band");
    assert!(
        (lo - 10.05).abs() < 1e-9 && (hi - 10.15).abs() < 1e-9,
        "{lo}-{hi}"
    );
    assert_eq!(line.figure.seed_value, "10.1x");
    assert!(line.figure.counts(), "a counted prediction");
    let growth = o12 / o1;
    assert_eq!(
        line.holds,
        Some(false),
        "1 -> 12 threads: {growth:.2}x against the seed's {seed_growth:.2}x: now in band; update docs/reproduction.md and the ledger's note"
    );
    assert!(
        growth > 10.15 && line.figure.note.contains("contention"),
        "1 -> 12 threads: {growth:.2}x, now below the seed's band: the note's reason no longer applies"
    );
    assert!(
        (o19 / o12 - 1.0).abs() < 0.05,
        "12 -> 19 threads: {:.2}x (seed {:.2}x)",
        o19 / o12,
        SEED[18].1 / SEED[11].1
    );
}

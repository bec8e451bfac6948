//! `run --estimate --json`: the cost model's figures, printed without running, growing with
//! what the run's cost grows with (scripts/check-estimates.sh holds them to measured runs).

use std::process::Command;

fn estimate(args: &[&str]) -> (f64, f64) {
    let out = Command::new(env!("CARGO_BIN_EXE_midpoint"))
        .arg("run")
        .args(args)
        .args(["--estimate", "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let o = v.as_object().unwrap();
    assert_eq!(o.len(), 2, "{v}");
    (
        o["estimated_s"].as_f64().unwrap(),
        o["estimated_mib"].as_f64().unwrap(),
    )
}

#[test]
fn the_estimate_grows_with_the_pool_the_hot_set_and_the_sampling() {
    let big = [
        "--preset",
        "seed000-hot4485-b2b",
        "--pool-mb",
        "65536",
        "--scan-table-mb",
        "262144",
        "--hot-pages",
        "4194304",
        "--hot-table-pages",
        "4194304",
        "--warmup-s",
        "60",
        "--scan-s",
        "60",
    ];
    let (coarse, mib) = estimate(&[&big[..], &["--sample-ms", "1000"]].concat());
    let (fine, mib_fine) = estimate(&[&big[..], &["--sample-ms", "10"]].concat());
    // That run was still going after 200 s and held 426 MB: no longer "0.5 s".
    // (Profiled since: 12,001 samples of 4 million frames and hot pages, 18 ms of CPU each.)
    assert!(fine > 200.0, "{fine}");
    assert!(fine > 10.0 * coarse, "{fine} vs {coarse}");
    assert!((300.0..1200.0).contains(&mib), "{mib}");
    assert!(mib_fine >= mib);
    let (small, small_mib) = estimate(&["--warmup-s", "10", "--scan-s", "20"]);
    assert!(small < 2.0 && small_mib < mib / 10.0, "{small} {small_mib}");
    // The default returns at once: nothing ran (a real run prints the report, not two keys).
    let (def, _) = estimate(&[]);
    assert!(def > 0.0);
}

#[test]
fn the_estimate_covers_every_run_of_an_ensemble() {
    let base = ["--warmup-s", "10", "--scan-s", "20"];
    let (one, one_mib) = estimate(&base);
    for n in [2u32, 4, 50] {
        let (s, mib) = estimate(&[&base[..], &["--runs", &n.to_string()]].concat());
        assert!(
            (s / one - n as f64).abs() < 1e-9 * n as f64,
            "{n} runs: {s} vs {one}"
        );
        // Runs go at once on up to --threads threads: their memory adds up that far.
        assert!(mib >= one_mib, "{n} runs: {mib} MiB vs {one_mib}");
        let (two_at_once, _) =
            estimate(&[&base[..], &["--runs", &n.to_string(), "--threads", "2"]].concat());
        assert_eq!(two_at_once, s);
    }
    let mib_at =
        |threads: &str| estimate(&[&base[..], &["--runs", "8", "--threads", threads]].concat()).1;
    let (mib1, mib2, mib4) = (mib_at("1"), mib_at("2"), mib_at("4"));
    // One after another, each run more adds only the report the ensemble keeps (its samples),
    // far less than a run's working memory.
    let reports = mib1 - one_mib;
    assert!(
        reports > 0.0 && reports < (mib2 - mib1) / 10.0,
        "{mib1} {one_mib} {mib2}"
    );
    // Each run more at once adds one run's memory.
    assert!(
        mib2 > mib1 && ((mib4 - mib2) - 2.0 * (mib2 - mib1)).abs() < 1e-6,
        "{mib1} {mib2} {mib4}"
    );
}

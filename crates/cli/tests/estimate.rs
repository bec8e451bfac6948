//! `run --estimate --json`: the cost model's figures, printed without running, growing with
//! what the run's cost grows with (scripts/check-estimates.sh holds them to measured runs).

mod common;

use std::process::Command;

fn estimate(args: &[&str]) -> (f64, f64) {
    let v = common::midpoint_json(
        ["run"]
            .into_iter()
            .chain(args.iter().copied())
            .chain(["--estimate", "--json"]),
    );
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

#[test]
fn the_write_path_estimate_counts_its_secondary_index_load() {
    // Measured (release, peak RSS): 1,154 MiB and 7 s for 100,000,000 secondary index pages,
    // which the estimate put at 404 MiB and 0 s.
    let (s, mib) = estimate(&[
        "--preset",
        "seed003-rw-default",
        "--set",
        "sec_pages=100000000",
    ]);
    assert!((1154.0..=2.0 * 1154.0).contains(&mib), "{mib} MiB");
    assert!(s >= 3.5, "{s} s");
}

fn replay_estimate(format: &str, path: &std::path::Path) -> f64 {
    let args = [
        "replay",
        "--format",
        format,
        "--policy",
        "lru",
        "--cache-pages",
        "1000",
    ];
    let v = common::midpoint_json(
        args.iter()
            .map(std::ffi::OsStr::new)
            .chain([path.as_os_str()])
            .chain(["--estimate", "--json"].map(std::ffi::OsStr::new)),
    );
    v["estimated_mib"].as_f64().unwrap()
}

#[test]
fn a_text_trace_is_estimated_at_its_requests_and_a_refusal_advises_a_replay() {
    use std::io::Write;
    let d = common::scratch("estimate");
    // 200,000 distinct ids of 9 digits: the same requests as text and as oracleGeneral.
    let n = 200_000u64;
    let txt = d.join("t.txt");
    let mut f = std::io::BufWriter::new(std::fs::File::create(&txt).unwrap());
    for i in 0..n {
        writeln!(f, "{}", 100_000_000 + i).unwrap();
    }
    drop(f);
    let oracle = d.join("t.oracle");
    let mut f = std::io::BufWriter::new(std::fs::File::create(&oracle).unwrap());
    for i in 0..n {
        f.write_all(&(i as u32).to_le_bytes()).unwrap();
        f.write_all(&i.to_le_bytes()).unwrap();
        f.write_all(&1u32.to_le_bytes()).unwrap();
        f.write_all(&(-1i64).to_le_bytes()).unwrap();
    }
    drop(f);
    let (t, o) = (
        replay_estimate("txt", &txt),
        replay_estimate("oracle-general", &oracle),
    );
    assert!(
        t <= 1.2 * o && t >= 0.8 * o,
        "text {t} MiB, oracleGeneral {o} MiB"
    );
    // A replay too big for this machine is told how to make a replay smaller, not to run fewer
    // runs at once: a sparse file of 2^40 bytes holds 45 billion records.
    let sparse = d.join("huge.oracle");
    std::fs::File::create(&sparse)
        .unwrap()
        .set_len(1 << 40)
        .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_midpoint"))
        .args([
            "replay",
            "--format",
            "oracle-general",
            "--policy",
            "lru",
            "--cache-pages",
            "1000",
        ])
        .arg(&sparse)
        .output()
        .unwrap();
    let e = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{e}");
    assert!(
        e.contains("a shorter trace") && !e.contains("--threads"),
        "{e}"
    );
}

//! `midpoint bench --json`: the figures the README's performance section and
//! `scripts/bench-web.sh` read. Only their presence and sign are checked, never a speed.

use std::process::Command;

#[test]
fn bench_json_has_the_run_time_and_the_simulated_speed() {
    let out = Command::new(env!("CARGO_BIN_EXE_midpoint"))
        .args(["bench", "--json", "--runs", "1"])
        .output()
        .expect("run midpoint bench");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("bench prints JSON");
    for key in [
        "run_ms_median",
        "sim_seconds_per_wall_second",
        "accesses_per_s",
        "events_per_s",
    ] {
        let x = v[key]
            .as_f64()
            .unwrap_or_else(|| panic!("{key} missing: {v}"));
        assert!(x > 0.0 && x.is_finite(), "{key} = {x}");
    }
    assert_eq!(v["run_ms_runs"].as_array().map(Vec::len), Some(1));
    assert_eq!(v["preset"], "seed000-hot4485-b2b");
    // The simulated span over the median wall time.
    let implied =
        v["simulated_seconds"].as_f64().unwrap() / (v["run_ms_median"].as_f64().unwrap() / 1000.0);
    let got = v["sim_seconds_per_wall_second"].as_f64().unwrap();
    assert!((implied - got).abs() <= 1e-9 * got, "{implied} vs {got}");
}

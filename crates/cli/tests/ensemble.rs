//! Ensembles on the command line (`--runs N`) and many runs on every core (`--threads N`): the
//! keys `run --json` reports, the words of the table, the band of the chart, and results that do
//! not depend on the thread count.

mod common;

use std::process::Command;

fn midpoint(args: &[&str]) -> (bool, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_midpoint"))
        .args(args)
        .output()
        .expect("run midpoint");
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn json(args: &[&str]) -> serde_json::Value {
    let (ok, out, err) = midpoint(args);
    assert!(ok, "{args:?}: {err}");
    serde_json::from_str(&out).unwrap()
}

/// A short scenario, for the tests that only need some spread between runs.
const SHORT: &[&str] = &["--warmup-s", "4", "--scan-s", "12", "--kept-window-s", "10"];

fn with<'a>(a: &[&'a str], b: &[&'a str]) -> Vec<&'a str> {
    a.iter().chain(b).copied().collect()
}

#[test]
fn run_with_five_runs_reports_the_ensemble_keys() {
    let v = json(&[
        "run",
        "--preset",
        "seed000-hot4485-b2b",
        "--runs",
        "5",
        "--json",
    ]);
    assert_eq!(v["runs"], 5);
    assert_eq!(v["seeds"], serde_json::json!([1, 2, 3, 4, 5]));
    let k = |n: &str| v[n].as_f64().unwrap_or_else(|| panic!("{n}: {}", v[n]));
    let (med, lo, hi, mean) = (
        k("kept_median"),
        k("kept_min"),
        k("kept_max"),
        k("kept_mean"),
    );
    assert!(lo <= med && med <= hi && lo <= mean && mean <= hi);
    assert!(
        hi > lo,
        "five seeds of the default preset differ: {lo} {hi}"
    );
    // `kept` keeps its meaning: the first run, the one --seed gives.
    let one = json(&["run", "--preset", "seed000-hot4485-b2b", "--json"]);
    assert_eq!(v["kept"], one["kept"]);
    assert!(lo <= k("kept") && k("kept") <= hi);
    // The band: one point per sample, median inside the range.
    let band = v["hot_resident_band"].as_array().unwrap();
    assert_eq!(band.len(), v["samples"].as_array().unwrap().len());
    for b in band {
        let f = |n: &str| b[n].as_f64().unwrap();
        assert!(f("min") <= f("p10") && f("p10") <= f("median"));
        assert!(f("median") <= f("p90") && f("p90") <= f("max"));
    }
    let leak = &v["figures"]["young_leak_pages_per_s"];
    assert!(leak["min"].as_f64().unwrap() <= leak["median"].as_f64().unwrap());
}

#[test]
fn one_run_is_an_ensemble_of_one() {
    let v = json(&with(&["run", "--json"], SHORT));
    assert_eq!(v["runs"], 1);
    for k in ["kept_median", "kept_min", "kept_max", "kept_mean"] {
        assert_eq!(v[k], v["kept"], "{k}");
    }
    assert!(v.get("hot_resident_band").is_none());
    // --seeds is --runs.
    let a = json(&with(&["run", "--json", "--runs", "3"], SHORT));
    let b = json(&with(&["run", "--json", "--seeds", "3"], SHORT));
    assert_eq!(a, b);
    assert_eq!(a["runs"], 3);
}

#[test]
fn the_table_says_the_range_and_the_run_count_and_one_run_reads_as_before() {
    let (ok, out, err) = midpoint(&with(&["run", "--runs", "3"], SHORT));
    assert!(ok, "{err}");
    let kept = out.lines().find(|l| l.starts_with("kept (")).unwrap();
    let re_ok = kept.contains(" over 3 runs)") && kept.contains(" % (") && kept.contains(", mean ");
    assert!(re_ok, "{kept}");
    assert!(out.contains("3 runs, RNG seeds 1-3"), "{out}");
    let (_, one, _) = midpoint(&with(&["run"], SHORT));
    let kept1 = one.lines().find(|l| l.starts_with("kept (")).unwrap();
    assert!(!kept1.contains("runs"), "{kept1}");
    assert!(kept1.trim_end().ends_with(" %"), "{kept1}");
}

#[test]
fn the_svg_draws_the_band_of_several_runs_only() {
    let dir = common::scratch("ens");
    let (f1, f3) = (dir.join("one.svg"), dir.join("three.svg"));
    let (ok, _, err) = midpoint(&with(&["run", "--svg", f1.to_str().unwrap()], SHORT));
    assert!(ok, "{err}");
    let (ok, _, err) = midpoint(&with(
        &["run", "--runs", "3", "--svg", f3.to_str().unwrap()],
        SHORT,
    ));
    assert!(ok, "{err}");
    let (s1, s3) = (
        std::fs::read_to_string(&f1).unwrap(),
        std::fs::read_to_string(&f3).unwrap(),
    );
    assert!(!s1.contains("runs: range"));
    assert!(s3.contains("3 runs: range"), "legend");
    assert!(s3.matches("<polygon").count() >= s1.matches("<polygon").count() + 2);
}

#[test]
fn bad_run_and_thread_counts_are_refused() {
    let (ok, _, err) = midpoint(&["run", "--runs", "0"]);
    assert!(!ok && err.contains("--runs"), "{err}");
    let (ok, _, err) = midpoint(&["run", "--runs", "51"]);
    assert!(!ok && err.contains("from 1 to 50"), "{err}");
    let (ok, _, err) = midpoint(&["sweep", "--threads", "0"]);
    assert!(!ok && err.contains("--threads"), "{err}");
    let (ok, _, err) = midpoint(&["run", "--preset", "seed003-rw-default", "--runs", "2"]);
    assert!(!ok && err.contains("runs once"), "{err}");
}

#[test]
fn a_sweep_with_runs_gives_ranges_and_the_same_answer_on_one_thread() {
    let args = with(
        &[
            "sweep", "--json", "--depths", "128,1024", "--times", "0,1000", "--runs", "3",
        ],
        SHORT,
    );
    let many = json(&args);
    let one = json(&with(&args, &["--threads", "1"]));
    assert_eq!(many, one);
    for p in many["points"].as_array().unwrap() {
        let r = p["kept_range"].as_array().unwrap();
        let k = p["kept"].as_f64().unwrap();
        assert!(r[0].as_f64().unwrap() <= k && k <= r[1].as_f64().unwrap());
    }
    // One run per point: no range, as before.
    let plain = json(&with(
        &["sweep", "--json", "--depths", "128", "--times", "0"],
        SHORT,
    ));
    assert!(plain["points"][0].get("kept_range").is_none());
}

/// The JSON is the whole report the Markdown tables are printed from (`cli/reproduce.rs` prints
/// either from the same value), so the same JSON on any thread count is the same tables too.
#[test]
fn reproduce_quick_is_the_same_byte_for_byte_on_one_thread_and_on_all() {
    let (ok, all, err) = midpoint(&["reproduce", "--quick", "--json"]);
    assert!(ok, "{err}");
    let (ok, one, err) = midpoint(&["reproduce", "--quick", "--json", "--threads", "1"]);
    assert!(ok, "{err}");
    assert!(all.len() > 1000);
    assert_eq!(all, one);
}

#[test]
fn policies_give_the_same_rows_on_one_thread_and_on_all() {
    let args = ["policies", "--preset", "small-demo", "--json"];
    let (ok, all, err) = midpoint(&args);
    assert!(ok, "{err}");
    let (ok, one, err) = midpoint(&with(&args, &["--threads", "1"]));
    assert!(ok, "{err}");
    let (ok, two, err) = midpoint(&with(&args, &["--threads", "2"]));
    assert!(ok, "{err}");
    let rows: serde_json::Value = serde_json::from_str(&all).unwrap();
    let names: Vec<&str> = rows["policies"]
        .as_array()
        .expect("a list of rows")
        .iter()
        .map(|r| r["policy"].as_str().unwrap())
        .collect();
    assert_eq!(
        names.len(),
        midpoint_policies::policy::compare::ORDER.len(),
        "{all}"
    );
    assert_eq!(names, midpoint_policies::policy::compare::ORDER.to_vec());
    assert_eq!(all, one);
    assert_eq!(all, two);
}

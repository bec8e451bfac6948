//! Every parameter flag of `midpoint run` changes the run or is refused with a message; none is
//! silently ignored. Checked on one read-only preset and one write-path preset, with short runs.

use midpoint_core::scenario::write::WriteParams;
use midpoint_core::scenario::Params;
use std::process::Command;

fn midpoint(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_midpoint"))
        .args(args)
        .output()
        .expect("the binary runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The results of a `--json` run without the parameter echo.
fn results(stdout: &str) -> serde_json::Value {
    let mut v: serde_json::Value = serde_json::from_str(stdout).expect("JSON");
    v.as_object_mut().unwrap().remove("parameters");
    v
}

/// A short read-only run: the small demo pool, 2 s of warm-up and 6 s of scanning.
const READ: &[&str] = &[
    "run",
    "--preset",
    "small-demo",
    "--json",
    "--warmup-s",
    "2",
    "--scan-s",
    "6",
    "--kept-window-s",
    "4",
];

/// A value that differs from the preset's and is allowed, for each read-only parameter.
fn read_alternative(name: &str) -> &'static str {
    match name {
        "engine" => "mariadb-10.11",
        "pool_mb" => "12",
        "pool_pages" => "700",
        "buffer_pool_instances" => "2", // refused: 16 MiB is under 1 GiB
        "old_blocks_pct" => "60",
        "old_blocks_time" => "0",
        "lru_scan_depth" => "400",
        "read_ahead_threshold" => "0",
        "hot_pages" => "350",
        "hot_table_pages" => "4000",
        "lookup_threads" => "4",
        "lookup_cpu_us" => "50",
        "idle_lookups_per_s" => "20000",
        "scan_interference" => "0",
        "scan_table_mb" => "20",
        "scan_touches_per_page" => "1",
        "scan_cpu_us_per_page" => "200",
        "scan_pause_ms" => "700",
        "warmup_s" => "3",
        "scan_s" => "5",
        "read_latency_us" => "2000",
        "page_transfer_us" => "200",
        "kept_window_s" => "2",
        "sample_ms" => "250",
        "cpus" => "2",
        "cleaner" => "never",
        "start" => "cold",
        "scan_mode" => "scan",
        "scan_loop" => "false",
        "seed" => "7",
        "lookup_dist" => "special",
        "what_if" => "free-frames-count-as-old",
        "idle_scan_pages_per_s" => "5000",
        other => panic!("no alternative value for the new parameter '{other}': add one here"),
    }
}

#[test]
fn every_flag_changes_a_read_only_run_or_is_refused() {
    let (ok, out, err) = midpoint(READ);
    assert!(ok, "{err}");
    let base = results(&out);
    let mut ignored = Vec::new();
    for spec in Params::SPECS {
        let name = spec.name;
        let flag = format!("--{}", name.replace('_', "-"));
        let value = read_alternative(name);
        let mut args = READ.to_vec();
        args.extend([flag.as_str(), value]);
        let (ok, out, err) = midpoint(&args);
        if !ok {
            // The one refusal expected here: instances need a pool of 1 GiB or more.
            assert_eq!(name, "buffer_pool_instances", "{flag} {value}: {err}");
            assert!(err.contains("1024 MiB"), "{err}");
            continue;
        }
        if results(&out) == base {
            ignored.push(format!("{flag} {value}"));
        }
    }
    assert!(
        ignored.is_empty(),
        "flags that changed nothing: {ignored:?}"
    );
    // Every write-path-only flag is refused on a read-only scenario, with the reason.
    for s in WriteParams::SPECS {
        if Params::spec(s.name).is_some() {
            continue;
        }
        let flag = format!("--{}", s.name.replace('_', "-"));
        let mut args = READ.to_vec();
        args.extend([flag.as_str(), "1"]);
        let (ok, out, err) = midpoint(&args);
        if s.name == "threads" {
            // On a read-only scenario --threads is how many runs at once (`--runs N`): the
            // result does not depend on it.
            let (ok0, out0, err0) = midpoint(READ);
            assert!(ok && ok0, "{flag}: {err} {err0}");
            assert_eq!(out, out0, "{flag} changed a read-only run");
            continue;
        }
        assert!(
            !ok && err.contains("write-path presets only"),
            "{flag}: {err}"
        );
    }
}

/// A short write-path run: seed 001's setup with 1 s of warm-up and 1 s measured.
const WRITE: &[&str] = &[
    "run",
    "--preset",
    "seed001-16thd-dblwr128",
    "--json",
    "--warmup-s",
    "1",
    "--base-s",
    "1",
];

/// Runs that put the write path under pressure, so that a parameter has something to act on:
/// eviction from a small pool (the LRU side), or a low io_capacity (the flush-list side).
const EVICTING: &[&str] = &["--frames-per-instance", "1024", "--base-s", "2"];
const FLUSHING: &[&str] = &[
    "--io-capacity",
    "200",
    "--io-capacity-max",
    "400",
    "--base-s",
    "4",
];
const SCANNING: &[&str] = &["--scan-table-pages", "20000", "--scan-s", "2"];

/// For each write-path parameter: the run it is tried in, and a value that differs from the
/// preset's and is allowed.
fn write_case(name: &str) -> (&'static [&'static str], &'static str) {
    match name {
        "seed" => (&[], "7"),
        "mix" => (&[], "read-write"),
        "threads" => (&[], "4"),
        "cpus" => (&[], "2"),
        "buffer_pool_instances" => (&[], "2"),
        "frames_per_instance" => (&[], "4096"),
        "table_pages" => (&[], "50000"),
        "sec_pages" => (&[], "5000"),
        "lookup_dist" => (&[], "uniform"),
        "old_blocks_pct" => (EVICTING, "60"),
        "old_blocks_time" => (EVICTING, "0"),
        "lru_scan_depth" => (&[], "128"),
        "io_capacity" => (&["--base-s", "4"], "200"),
        "io_capacity_max" => (&["--io-capacity", "200", "--base-s", "4"], "400"),
        "max_dirty_pages_pct" => (FLUSHING, "50"),
        "max_dirty_pages_pct_lwm" => (FLUSHING, "0"),
        "flushing_avg_loops" => (FLUSHING, "1"),
        "redo_log_capacity_mb" => (&[], "8"),
        "redo_bytes_per_write" => (&[], "20000"),
        "doublewrite" => (EVICTING, "off"),
        "doublewrite_pages" => (EVICTING, "2"),
        "flush_method" => (EVICTING, "fsync"),
        "dblwr_batch_wait" => (EVICTING, "off"),
        "device" => (&[], "cloud"),
        "cpu_us_per_step" => (&[], "400"),
        "commit_us" => (&[], "5000"),
        "scan_table_pages" => (SCANNING, "30000"),
        "scan_cpu_us_per_page" => (SCANNING, "1"),
        "warmup_s" => (&[], "2"),
        "base_s" => (&[], "2"),
        "scan_s" => (SCANNING, "4"),
        "what_if" => (EVICTING, "user-replaces-free-frame"),
        other => panic!("no test case for the new parameter '{other}': add one here"),
    }
}

#[test]
fn every_flag_changes_a_write_run_or_is_refused() {
    let mut bases = std::collections::HashMap::new();
    let mut ignored = Vec::new();
    for s in WriteParams::SPECS {
        let flag = format!("--{}", s.name.replace('_', "-"));
        let (context, value) = write_case(s.name);
        let mut args = WRITE.to_vec();
        args.extend(context);
        let base = bases
            .entry(context.to_vec())
            .or_insert_with(|| {
                let (ok, out, err) = midpoint(&args);
                assert!(ok, "{args:?}: {err}");
                results(&out)
            })
            .clone();
        args.extend([flag.as_str(), value]);
        let (ok, out, err) = midpoint(&args);
        assert!(ok, "{flag} {value}: refused: {err}");
        if results(&out) == base {
            ignored.push(format!("{flag} {value} (with {context:?})"));
        }
    }
    // Alone, the scan's parameters have nothing to act on: refused, not ignored.
    for extra in [
        &["--scan-s", "2"][..],
        &["--scan-table-pages", "20000"],
        &["--scan-cpu-us-per-page", "1"],
    ] {
        let mut args = WRITE.to_vec();
        args.extend(extra);
        let (ok, _, err) = midpoint(&args);
        assert!(!ok && err.contains("scan"), "{extra:?}: {err}");
    }
    assert!(
        ignored.is_empty(),
        "flags that changed nothing: {ignored:?}"
    );
    // `--set` works too, in command-line order with the flags.
    let mut args = WRITE.to_vec();
    args.extend(["--set", "lru_scan_depth=256", "--lru-scan-depth", "300"]);
    let (ok, out, err) = midpoint(&args);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["parameters"]["lru_scan_depth"], 300);
    // Read-only parameters, --csv and --svg are refused with the reason.
    for extra in [
        &["--pool-mb", "abc"][..],
        &["--engine", "mariadb-10.11"],
        &["--hot-pages", "10"],
        &["--csv"],
        &["--svg", "/nonexistent/x.svg"],
        &["--set", "nonsense=1"],
        &["--set", "threads"],
    ] {
        let mut args = WRITE.to_vec();
        args.extend(extra);
        let (ok, _, err) = midpoint(&args);
        assert!(!ok && err.starts_with("error: "), "{extra:?}: {err}");
    }
    // Unbounded values of old are refused.
    for kv in [
        "table_pages=4294967295",
        "cpu_us_per_step=inf",
        "cpu_us_per_step=NaN",
        "cpu_us_per_step=-1",
        "cpu_us_per_step=0",
        "warmup_s=4294967295",
        "commit_us=18446744073709551615",
    ] {
        let mut args = WRITE.to_vec();
        args.extend(["--set", kv]);
        let (ok, _, err) = midpoint(&args);
        assert!(
            !ok && err.contains("; allowed: from") && !err.contains("..="),
            "{kv}: {err}"
        );
    }
    let mut args = WRITE.to_vec();
    args.extend([
        "--frames-per-instance",
        "4194304",
        "--buffer-pool-instances",
        "64",
    ]);
    let (ok, _, err) = midpoint(&args);
    assert!(!ok && err.contains("GiB of memory"), "{err}");
}

#[test]
fn the_issue_examples() {
    // The write preset honours --lru-scan-depth and reports it under "parameters".
    let (ok, out, err) = midpoint(&[
        "run",
        "--preset",
        "seed001-16thd-dblwr128",
        "--lru-scan-depth",
        "128",
        "--warmup-s",
        "1",
        "--base-s",
        "1",
        "--json",
    ]);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["parameters"]["lru_scan_depth"], 128);
    // --engine no longer overrides a depth given before it.
    let (ok, out, err) = midpoint(&[
        "run",
        "--lru-scan-depth",
        "128",
        "--engine",
        "mariadb-10.11",
        "--warmup-s",
        "1",
        "--scan-s",
        "1",
        "--json",
    ]);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["parameters"]["lru_scan_depth"], 128);
    assert_eq!(v["parameters"]["engine"], "mariadb-10.11");
    // Trailing junk in a cadence is refused.
    let (ok, _, err) = midpoint(&["run", "--cleaner", "after-activity:5sssss"]);
    assert!(!ok && err.contains("5sssss"), "{err}");
    // --set and write-path flags without a write preset are refused.
    let (ok, _, err) = midpoint(&["run", "--set", "threads=4"]);
    assert!(!ok && err.contains("write-path presets only"), "{err}");
}

#[test]
fn what_ifs_lists_one_per_line_name_first() {
    let (ok, out, err) = midpoint(&["what-ifs"]);
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines.len() >= 3, "{out}");
    for l in &lines {
        let name = l.split_whitespace().next().unwrap();
        assert!(
            name.chars().all(|c| c.is_ascii_lowercase() || c == '-'),
            "{name}"
        );
        midpoint_core::pool::WhatIf::parse(name).unwrap();
        assert!(l.len() > name.len() + 20, "no description: {l}");
    }
}

#[test]
fn run_what_if_is_repeatable_echoed_and_checked() {
    let mut args = READ.to_vec();
    args.extend([
        "--what-if",
        "slide-spares-fresh",
        "--what-if",
        "user-replaces-free-frame",
    ]);
    let (ok, out, err) = midpoint(&args);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        v["parameters"]["what_if"],
        serde_json::json!(["slide-spares-fresh", "user-replaces-free-frame"])
    );
    let (ok, _, err) = midpoint(&["run", "--preset", "small-demo", "--what-if", "nope"]);
    assert!(!ok);
    assert!(
        err.contains("what-if") && err.contains("slide-spares-fresh"),
        "{err}"
    );
    // The CSV header names the patches, so that the file says how to reproduce it.
    let mut args = READ.to_vec();
    args.retain(|a| *a != "--json");
    args.extend(["--csv", "--what-if", "free-frames-count-as-old"]);
    let (ok, out, err) = midpoint(&args);
    assert!(ok, "{err}");
    assert!(out.contains("# what_if=free-frames-count-as-old"), "{out}");
}

#[test]
fn scale_json_has_a_row_per_size_with_the_instances_rule() {
    let (ok, out, err) = midpoint(&[
        "scale",
        "--json",
        "--preset",
        "small-demo",
        "--sizes",
        "16,1024",
        "--vcpus",
        "16",
        "--warmup-s",
        "1",
        "--scan-s",
        "2",
    ]);
    assert!(ok, "{err}");
    assert!(
        err.contains("runs") && err.contains("MiB"),
        "the cost is announced: {err}"
    );
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["pool_mb"], 16);
    assert_eq!(rows[0]["instances"], 1);
    assert_eq!(rows[1]["pool_mb"], 1024);
    // 8.4: min(1024 MiB / 256 MiB, 16 vCPUs / 4) = 4 instances.
    assert_eq!(rows[1]["instances"], 4);
    // The hot set scales with the pool (small-demo: 200 pages at 16 MiB).
    assert_eq!(rows[1]["hot_pages"], 200 * 64);
    for r in rows {
        let k = r["kept"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&k));
        assert!(r["wall_s"].as_f64().unwrap() >= 0.0);
        assert!(
            r["leak_per_s_pool"].as_f64().unwrap() >= r["leak_per_s_instance"].as_f64().unwrap()
        );
    }
    let (ok, _, err) = midpoint(&["scale", "--sizes", "100000"]);
    assert!(!ok && err.contains("sizes"), "{err}");
}

#[test]
fn phase_json_gives_a_grid_with_every_seed() {
    let (ok, out, err) = midpoint(&[
        "phase",
        "--json",
        "--preset",
        "small-demo",
        "--x",
        "idle-lookups-per-s",
        "--x-values",
        "1000,8000",
        "--y",
        "refill-interval-s",
        "--y-values",
        "1,30",
        "--seeds",
        "2",
        "--warmup-s",
        "2",
        "--scan-s",
        "3",
    ]);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["x"], "idle_lookups_per_s");
    assert_eq!(v["y"], "refill_interval_s");
    let cells = v["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 4);
    for c in cells {
        assert_eq!(c["kept"].as_array().unwrap().len(), 2);
        let (lo, hi) = (
            c["kept_min"].as_f64().unwrap(),
            c["kept_max"].as_f64().unwrap(),
        );
        assert!(lo <= c["kept_mean"].as_f64().unwrap() && c["kept_mean"].as_f64().unwrap() <= hi);
    }
    // The lookup rate follows the idle-rate axis.
    assert!(
        cells[1]["lookups_per_s"].as_f64().unwrap()
            > 2.0 * cells[0]["lookups_per_s"].as_f64().unwrap()
    );
    let (ok, _, err) = midpoint(&["phase", "--x", "nope", "--x-values", "1", "--y-values", "1"]);
    assert!(!ok && err.contains("nope"), "{err}");
    let (ok, _, err) = midpoint(&["phase", "--y", "lookup-threads"]);
    assert!(!ok && err.contains("y-values"), "{err}");
}

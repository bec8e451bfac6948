//! `midpoint from-status`: the JSON interface's names, exit status 2 on input it cannot use, a
//! run's result.

mod common;

const F: &str = common::FIXTURES;

fn run(args: &[&str]) -> (i32, String, String) {
    common::midpoint(std::iter::once("from-status").chain(args.iter().copied()))
}

fn json(args: &[&str]) -> serde_json::Value {
    let (code, out, err) = run(args);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).unwrap()
}

#[test]
fn status_json_names() {
    let v = json(&[&format!("{F}mysql-8.0-manual.txt"), "--json"]);
    let r = &v["read"];
    for (k, want) in [
        ("pool_pages", 131072),
        ("free_buffers", 130095),
        ("database_pages", 973),
        ("old_database_pages", 0),
        ("modified_db_pages", 0),
        ("pages_made_young", 0),
        ("pages_not_made_young", 0),
        ("pages_read", 810),
        ("pages_created", 163),
        ("pages_written", 404),
        ("hit_rate_per_1000", 1000),
        ("young_making_rate_per_1000", 0),
        ("lru_len", 973),
        ("instances", 2),
    ] {
        assert_eq!(r[k], want, "{k}");
    }
    for k in [
        "youngs_per_s",
        "non_youngs_per_s",
        "reads_per_s",
        "creates_per_s",
        "writes_per_s",
        "read_ahead_per_s",
        "evicted_without_access_per_s",
    ] {
        assert_eq!(r[k].as_f64(), Some(0.0), "{k}");
    }
    assert_eq!(v["lines"]["pool_pages"]["line"], 27);
    assert!(v["assumed"]
        .as_array()
        .unwrap()
        .iter()
        .any(|a| a == "hot_pages"));
    assert_eq!(v["scenario"]["pool_mb"], 2048);
    assert_eq!(v["scenario"]["buffer_pool_instances"], 2);
    assert!(v.get("result").is_none());
}

#[test]
fn only_variables_or_only_pool_stats_exit_0() {
    let v = json(&[&format!("{F}mariadb-10.11-vars-B.txt"), "--json"]);
    assert_eq!(v["read"]["innodb_buffer_pool_size"], 16777216);
    assert_eq!(v["read"]["innodb_lru_scan_depth"], 1536);
    assert!(v["read"].get("pool_pages").is_none());
    let v = json(&[&format!("{F}mariadb-10.11-pool-stats-G.txt"), "--json"]);
    assert_eq!(v["read"]["pool_pages"], 1014);
    assert_eq!(v["read"]["pages_read"], 6516);
    // Both files at once: a mix.
    let v = json(&[
        &format!("{F}mariadb-10.11-status-table.txt"),
        &format!("{F}mariadb-10.11-vars-table.txt"),
        "--json",
    ]);
    assert_eq!(v["read"]["free_buffers"], 921);
    assert_eq!(v["read"]["innodb_old_blocks_time"], 1000);
    assert_eq!(v["scenario"]["engine"], "mariadb-10.11");
}

#[test]
fn bad_input_exits_2_with_one_line() {
    let dir = common::scratch("from-status");
    let cases: &[(&str, &str, &str)] = &[
        ("empty", "", "no buffer pool section found"),
        ("random", "the quick brown fox\n42 jumps\n", "no buffer pool section found"),
        ("huge", "Buffer pool size 184467440737095516160\n", "line 1"),
        ("negative", "Buffer pool size 10\nDatabase pages -3\n", "line 2"),
        (
            "truncated",
            "----------------------\nBUFFER POOL AND MEMORY\n----------------------\nTotal large memory allocated 1\n",
            "truncated",
        ),
    ];
    for (name, text, want) in cases {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        let (code, out, err) = run(&[p.to_str().unwrap(), "--json"]);
        assert_eq!(code, 2, "{name}: {err}");
        assert!(out.is_empty(), "{name}: {out}");
        assert_eq!(err.trim().lines().count(), 1, "{name}: {err}");
        assert!(err.contains(want), "{name}: {err}");
    }
    let (code, _, err) = run(&[dir.join("absent").to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = run(&[&format!("{F}mysql-5.7-bpm.txt"), "--hot-pages", "-4"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn run_gives_kept_and_leak() {
    let v = json(&[
        &format!("{F}mariadb-10.11-status-G.txt"),
        "--hot-pages",
        "300",
        "--run",
        "--json",
    ]);
    let res = &v["result"];
    let kept = res["kept"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&kept), "{res}");
    assert!(res["leak_pages_per_s"].as_f64().unwrap() >= 0.0);
    assert_eq!(res["leak"], res["leak_pages_per_s"]);
    assert!(res["refills_during_scan"].as_u64().unwrap() > 0);
    assert_eq!(res["your_youngs_per_s"].as_f64(), Some(0.0));
    assert_eq!(v["scenario"]["hot_pages"], 300);
    // The scan's rate is the fit's, which aims at the server's reads/s.
    assert_eq!(
        v["scenario"]["idle_scan_pages_per_s"],
        v["fit"]["scan_pages_per_s"]
    );
}

#[test]
fn the_fit_reproduces_the_servers_counters_and_the_rows_simulate_the_pool_read() {
    let fixture = format!("{F}mariadb-10.11-status-G.txt");
    let v = json(&[&fixture, "--risk", "--json"]);
    let f = &v["fit"];
    for k in [
        "hit_rate",
        "reads_per_s",
        "youngs_per_s",
        "non_youngs_per_s",
    ] {
        assert!(f[k]["model"].is_number(), "{k}: {f}");
    }
    // The status's figures, as fractions and rates.
    assert_eq!(f["hit_rate"]["server"].as_f64(), Some(0.986));
    assert_eq!(f["reads_per_s"]["server"].as_f64(), Some(3110.44));
    let hit = f["hit_rate"]["model"].as_f64().unwrap();
    assert!((hit - 0.986).abs() <= 0.005, "{f}");
    let reads = f["reads_per_s"]["model"].as_f64().unwrap();
    assert!((reads - 3110.44).abs() <= 311.0, "{f}");
    let fitted: Vec<&str> = f["fitted"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap())
        .collect();
    for k in ["hot_pages", "lookups_per_s", "scan_pages_per_s"] {
        assert!(fitted.contains(&k), "{fitted:?}");
    }
    let unmet = f["unmet"].as_array().unwrap();
    assert!(
        !unmet.iter().any(|u| u == "hit_rate" || u == "reads_per_s"),
        "{f}"
    );
    // The scenario is the fitted one, and every row simulated the pool as read.
    assert_eq!(v["scenario"]["hot_pages"], f["hot_pages"]);
    let rows = v["runs"].as_array().unwrap();
    assert!(rows.len() >= 4);
    assert_eq!(rows[0]["label"], "as read");
    for r in rows {
        assert_eq!(r["pool_pages"], v["read"]["pool_pages"], "{r}");
        assert_eq!(r["instances"], 1, "{r}");
    }
    // A pinned unknown is not fitted, and stands as given.
    let p = json(&[
        &fixture,
        "--scan-pages-per-s",
        "2000",
        "--hot-pages",
        "300",
        "--run",
        "--json",
    ]);
    let pf = &p["fit"];
    assert_eq!(pf["scan_pages_per_s"].as_f64(), Some(2000.0));
    assert_eq!(pf["hot_pages"], 300);
    let pinned: Vec<&str> = pf["fitted"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap())
        .collect();
    assert!(
        !pinned.contains(&"scan_pages_per_s") && !pinned.contains(&"hot_pages"),
        "{pinned:?}"
    );
    assert!(pinned.contains(&"lookups_per_s"), "{pinned:?}");
    // A rate the input does not have is null on the server's side.
    let dir = common::scratch("fit");
    let bad = dir.join("bad-rate.txt");
    std::fs::write(
        &bad,
        std::fs::read_to_string(&fixture).unwrap().replace(
            "3110.44 reads/s, 1095.95 creates/s, 1171.91 writes/s",
            "inf reads/s, 1095.95 creates/s, 1171.91 writes/s",
        ),
    )
    .unwrap();
    let b = json(&[
        bad.to_str().unwrap(),
        "--hot-pages",
        "300",
        "--run",
        "--json",
    ]);
    assert!(b["fit"]["reads_per_s"]["server"].is_null(), "{}", b["fit"]);
    assert!(b["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .any(|w| w.as_str().unwrap().contains("cannot read")));
    // A scan rate that is not one is refused.
    let (code, _, err) = run(&[&fixture, "--scan-pages-per-s", "fast", "--run"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--scan-pages-per-s"), "{err}");
}

#[test]
fn a_16_gib_pool_in_8_instances_is_simulated_at_its_size() {
    // Only the reading and the plan here (the run itself is the benchmark in
    // docs/your-server.md): the scenario holds the pages read, in 8 instances.
    let v = json(&[&format!("{F}mysql-8.0-16g-8-instances.txt"), "--json"]);
    assert_eq!(v["read"]["pool_pages"], 1_048_448);
    assert_eq!(v["scenario"]["pool_pages"], 1_048_448);
    assert_eq!(v["scenario"]["buffer_pool_instances"], 8);
    assert_eq!(v["scenario"]["pool_mb"], 16_382);
}

#[test]
fn runs_make_each_row_an_ensemble_with_kept_as_median_and_range() {
    let fixture = format!("{F}mariadb-10.11-status-G.txt");
    // The single run, on a thread pool of 2: `--threads` used to build rayon's pool at dispatch
    // and again in the subcommand, and every `from-status --threads N` failed; its figure is the
    // ensemble's first run's, on the default pool, below.
    let one = json(&[
        &fixture,
        "--hot-pages",
        "300",
        "--run",
        "--threads",
        "2",
        "--json",
    ]);
    let v = json(&[
        &fixture,
        "--hot-pages",
        "300",
        "--risk",
        "--runs",
        "3",
        "--json",
    ]);
    let res = &v["result"];
    assert_eq!(res["runs"], 3);
    // `kept` stays the first run's: the single run's figure.
    assert_eq!(res["kept"], one["result"]["kept"]);
    assert_eq!(one["result"]["runs"], 1);
    assert_eq!(one["result"]["kept_median"], one["result"]["kept"]);
    let rows = v["runs"].as_array().unwrap();
    assert!(rows.len() >= 4, "{}", v["runs"]);
    for r in rows {
        assert_eq!(r["runs"], 3, "{r}");
        let (lo, m, hi) = (
            r["kept_min"].as_f64().unwrap(),
            r["kept_median"].as_f64().unwrap(),
            r["kept_max"].as_f64().unwrap(),
        );
        assert!(lo <= m && m <= hi, "{r}");
        let first = r["kept"].as_f64().unwrap();
        assert!((lo..=hi).contains(&first), "{r}");
    }
    assert!(v["advice"].as_str().unwrap().contains("over 3 runs"));
    // The text: kept as "median (min-max)" on each row.
    let (code, out, err) = run(&[&fixture, "--hot-pages", "300", "--run", "--runs", "2"]);
    assert_eq!(code, 0, "{err}");
    let row = out.lines().find(|l| l.starts_with("as read")).unwrap();
    assert!(
        row.split_whitespace()
            .nth(3)
            .is_some_and(|c| c.starts_with('(') && c.contains('-')),
        "{row}"
    );
    let (code, _, err) = run(&[&fixture, "--run", "--runs", "0"]);
    assert_ne!(code, 0);
    assert!(err.contains("runs"), "{err}");
}

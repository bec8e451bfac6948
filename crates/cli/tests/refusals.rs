//! Nonsense refused with a clear error, never a secret or a megabyte echoed, and no
//! command that starts without the memory it needs. Each runs the real binary.

mod common;

use std::io::Write;
use std::process::{Command, Output};

fn midpoint(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_midpoint"))
        .args(args)
        .output()
        .expect("run midpoint")
}

/// Runs midpoint under an address-space limit (`ulimit -v`, KiB), through the shell.
fn midpoint_limited(kib: u64, args: &[&str]) -> Output {
    Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {kib} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_midpoint"))
        .args(args)
        .output()
        .expect("run midpoint under sh")
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn temp(name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let p = common::scratch("refusals").join(name);
    std::fs::File::create(&p).unwrap().write_all(bytes).unwrap();
    p
}

const SHORT_PHASE: [&str; 10] = [
    "phase",
    "--preset",
    "small-demo",
    "--warmup-s",
    "1",
    "--runs",
    "1",
    "--y",
    "lru-scan-depth",
    "--y-values",
];

#[test]
fn a_phase_grid_without_a_scan_is_refused_not_a_grid_of_nan() {
    let o = midpoint(
        &[
            &SHORT_PHASE[..],
            &["200", "--x-values", "2000", "--scan-s", "0"],
        ]
        .concat(),
    );
    assert_eq!(o.status.code(), Some(1), "{}", out(&o));
    let e = err(&o);
    assert!(e.contains("scan_s = 0") && e.contains("no kept"), "{e}");
    assert!(out(&o).is_empty() && !e.contains("NaN"), "{e}");
    // The same grid with a scan runs, every cell a number.
    let o = midpoint(
        &[
            &SHORT_PHASE[..],
            &["200", "--x-values", "2000", "--scan-s", "2", "--json"],
        ]
        .concat(),
    );
    assert!(o.status.success(), "{}", err(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(v["cells"][0]["kept_mean"].is_number(), "{v}");
}

#[test]
fn a_rate_axis_at_zero_is_refused_not_run_at_the_preset_rate() {
    for (axis, values) in [
        ("idle-lookups-per-s", "0"),
        ("idle-lookups-per-s", "2000,0"),
        ("idle-scan-pages-per-s", "0"),
    ] {
        let o = midpoint(
            &[
                &SHORT_PHASE[..],
                &["200", "--x", axis, "--x-values", values, "--scan-s", "2"],
            ]
            .concat(),
        );
        assert_eq!(o.status.code(), Some(1), "{axis} {values}: {}", out(&o));
        let e = err(&o);
        assert!(
            // The flag typed and the value as typed, not the parameter's name.
            e.contains(&format!(
                "--x-values: '0' (for --x {axis}) means \"not given\""
            )) && !e.contains(&axis.replace('-', "_")),
            "{e}"
        );
        // Refused before any cell ran.
        assert!(!e.contains("cells in"), "{e}");
    }
}

#[test]
fn policy_flags_without_format_are_refused_not_ignored() {
    let t = temp("tiny.trace", b"pool pages=10\n1 get 1 1\n");
    let t = t.to_str().unwrap();
    let o = midpoint(&["replay", t, "--cache-pages", "abc", "--policy", "nonsense"]);
    assert_eq!(o.status.code(), Some(1), "{}", out(&o));
    let e = err(&o);
    assert!(e.contains("applies with --format only"), "{e}");
    assert!(out(&o).is_empty());
    for flag in [
        &["--policy", "lru"][..],
        &["--cache-pages", "10"],
        &["--csv-column", "2"],
        &["--csv-header"],
        &["--allow-decreasing-time"],
    ] {
        let o = midpoint(&[&["replay", t][..], flag].concat());
        assert_eq!(o.status.code(), Some(1), "{flag:?}: {}", out(&o));
        assert!(
            err(&o).contains(&format!("{} applies with --format only", flag[0])),
            "{flag:?}: {}",
            err(&o)
        );
    }
    // The trace alone replays.
    assert!(midpoint(&["replay", t]).status.success());
    // A flag of another format is refused too.
    let txt = temp("ids.txt", b"1\n2\n1\n");
    let txt = txt.to_str().unwrap();
    let base = [
        "replay",
        "--format",
        "txt",
        txt,
        "--policy",
        "lru",
        "--cache-pages",
        "2",
    ];
    for (flag, only) in [
        (&["--csv-column", "2"][..], "csv"),
        (&["--allow-decreasing-time"][..], "oracle-general"),
    ] {
        let o = midpoint(&[&base[..], flag].concat());
        assert_eq!(o.status.code(), Some(1), "{flag:?}");
        assert!(
            err(&o).contains(&format!("applies with --format {only} only")),
            "{}",
            err(&o)
        );
    }
    assert!(midpoint(&base).status.success());
}

/// oracleGeneral records (timestamp, id, next access).
fn oracle(records: &[(u32, u64, i64)]) -> Vec<u8> {
    let mut b = Vec::new();
    for &(t, id, next) in records {
        b.extend_from_slice(&t.to_le_bytes());
        b.extend_from_slice(&id.to_le_bytes());
        b.extend_from_slice(&1u32.to_le_bytes());
        b.extend_from_slice(&next.to_le_bytes());
    }
    b
}

#[test]
fn belady_refuses_next_access_fields_that_lie() {
    let replay = |path: &str, policy: &str| {
        midpoint(&[
            "replay",
            "--format",
            "oracle-general",
            path,
            "--policy",
            policy,
            "--cache-pages",
            "1",
            "--json",
        ])
    };
    // Ids 1 2 1 2: true next accesses 2, 3, never, never.
    let good = temp(
        "good.oracle",
        &oracle(&[(1, 1, 2), (1, 2, 3), (2, 1, -1), (2, 2, -1)]),
    );
    let o = replay(good.to_str().unwrap(), "belady");
    assert!(o.status.success(), "{}", err(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["misses"], 4);
    // Id 1 says it never comes back, and does; says it comes back later than it does; names a
    // record of another id.
    for (name, records, says) in [
        (
            "never.oracle",
            [(1, 1, -1), (1, 2, 3), (2, 1, -1), (2, 2, -1)],
            "record 2: the object comes back, but its previous request's next access was -1",
        ),
        (
            "other.oracle",
            [(1, 1, 3), (1, 2, 3), (2, 1, -1), (2, 2, -1)],
            "record 2: the object comes back, but its previous request's next access was record 3",
        ),
        (
            "elsewhere.oracle",
            [(1, 1, 2), (1, 2, 3), (2, 1, -1), (2, 3, -1)],
            "1 next-access field(s) name a record where their object does not come back",
        ),
    ] {
        let bad = temp(name, &oracle(&records));
        let o = replay(bad.to_str().unwrap(), "belady");
        assert_eq!(o.status.code(), Some(1), "{name}: {}", out(&o));
        assert!(err(&o).contains(says), "{name}: {}", err(&o));
        assert!(out(&o).is_empty(), "{name}");
        // Policies that do not read the field replay it as before.
        assert!(replay(bad.to_str().unwrap(), "lru").status.success());
    }
}

#[test]
fn a_status_timestamp_past_any_plausible_date_is_refused() {
    let snapshot = |time: &str, read: u64| {
        format!(
            "=====================================\n{time} 0x7f INNODB MONITOR OUTPUT\n=====================================\n----------------------\nBUFFER POOL AND MEMORY\n----------------------\nBuffer pool size   1000\nPages read {read}, created 10, written 20\n"
        )
    };
    let ok = format!(
        "{}{}",
        snapshot("2026-12-01 10:00:00", 1000),
        snapshot("2026-12-01 10:00:30", 31000)
    );
    let o = midpoint(&[
        "from-status",
        temp("ok.txt", ok.as_bytes()).to_str().unwrap(),
        "--json",
    ]);
    assert!(o.status.success(), "{}", err(&o));
    for (name, first, second) in [
        ("y9999.txt", "2026-12-01 10:00:00", "9999-12-31 23:59:59"),
        ("y1970.txt", "1970-01-01 00:00:01", "2026-12-01 10:00:30"),
    ] {
        let text = format!("{}{}", snapshot(first, 1000), snapshot(second, 31000));
        let o = midpoint(&["from-status", temp(name, text.as_bytes()).to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{name}: {}", out(&o));
        let e = err(&o);
        assert!(
            e.contains("outside the years 2000 to 2099") && e.contains("line "),
            "{name}: {e}"
        );
    }
}

#[test]
fn a_password_in_a_url_is_never_echoed() {
    for url in [
        "http://root:s3cret@127.0.0.1/",
        "mysql://root:s3cret@127.0.0.1:1",
        "mysql://root:s3cret@[::1",
    ] {
        let o = midpoint(&["experiment", "--url", url, "--dry-run"]);
        assert!(!o.status.success(), "{url}");
        let all = format!("{}{}", out(&o), err(&o));
        assert!(!all.contains("s3cret"), "{url}: {all}");
        assert!(all.starts_with("error: "), "{url}: {all}");
    }
}

#[test]
fn a_megabyte_value_is_echoed_as_80_characters_and_its_length() {
    let long = "7".repeat(100_000);
    for args in [
        vec!["run", "--pool-mb", long.as_str()],
        vec!["run", "--preset", long.as_str()],
        // clap's own report of a value it refuses.
        vec!["replay", "x", "--format", long.as_str()],
    ] {
        let o = midpoint(&args);
        assert!(!o.status.success(), "{:?}", &args[..2]);
        let e = err(&o);
        assert!(e.len() < 8_000, "{} bytes echoed", e.len());
        assert!(
            e.contains(&format!("{}… (100,000 characters)", "7".repeat(80))),
            "{e}"
        );
    }
}

#[test]
fn runs_over_the_memory_this_process_may_use_do_not_start() {
    // Four runs at once of a 64 GiB pool with a 4-million-page hot set: about 1.1 GiB, under
    // an address-space limit of 1 GB.
    let big = [
        "run",
        "--preset",
        "seed000-hot897-b2b",
        "--pool-mb",
        "65536",
        "--hot-pages",
        "4000000",
        "--hot-table-pages",
        "4194304",
        "--warmup-s",
        "1",
        "--scan-s",
        "1",
        "--kept-window-s",
        "1",
        "--runs",
        "4",
        "--threads",
        "4",
    ];
    let o = midpoint_limited(1_000_000, &big);
    assert_eq!(o.status.code(), Some(1), "{}", out(&o));
    let e = err(&o);
    assert!(
        e.starts_with("error: this ensemble of 4 runs, 4 at once, would take about ")
            && e.contains("MiB of memory at its peak, more than the ")
            && e.contains("the address-space limit (ulimit -v) of 976 MiB")
            && e.contains("--no-limit"),
        "{e}"
    );
    assert!(out(&o).is_empty());
    // Its estimate says as much.
    let est = midpoint(&[&big[..], &["--estimate", "--json"]].concat());
    let v: serde_json::Value = serde_json::from_slice(&est.stdout).unwrap();
    assert!(v["estimated_mib"].as_f64().unwrap() > 1000.0, "{v}");
    // A small run under the same limit runs.
    let o = midpoint_limited(
        1_000_000,
        &[
            "run",
            "--warmup-s",
            "1",
            "--scan-s",
            "2",
            "--kept-window-s",
            "1",
            "--json",
        ],
    );
    assert!(o.status.success(), "{}", err(&o));
    // The same for a sweep: its runs at once.
    let mut sweep = vec!["sweep"];
    sweep.extend_from_slice(&big[1..15]);
    sweep.extend(["--depths", "200,400", "--times", "0,1000", "--threads", "4"]);
    let o = midpoint_limited(1_000_000, &sweep);
    assert_eq!(o.status.code(), Some(1), "{}", out(&o));
    assert!(
        err(&o).contains("this sweep of 4 runs, 4 at once, would take about"),
        "{}",
        err(&o)
    );
}

#[test]
fn the_innodb_policy_caps_its_cache_as_the_trace_format_does() {
    let ids: String = (0..1000).map(|i| format!("{}\n", i % 97)).collect();
    let t = temp("ids1000.txt", ids.as_bytes());
    let t = t.to_str().unwrap();
    let replay = |pages: &str| {
        midpoint(&[
            "replay",
            "--format",
            "txt",
            t,
            "--policy",
            "innodb",
            "--cache-pages",
            pages,
        ])
    };
    let o = replay("4294967295");
    assert_eq!(o.status.code(), Some(1), "{}", out(&o));
    assert!(
        err(&o).contains("the innodb policy's cache is at most 4,194,304 pages"),
        "{}",
        err(&o)
    );
    let o = replay("4194305");
    assert_eq!(o.status.code(), Some(1));
    assert!(replay("4194304").status.success());
    // Other policies allocate by the ids they see: a large cache is no cost.
    let o = midpoint(&[
        "replay",
        "--format",
        "txt",
        t,
        "--policy",
        "lru",
        "--cache-pages",
        "4294967295",
    ]);
    assert!(o.status.success(), "{}", err(&o));
}

#[test]
fn max_bytes_holds_inside_a_line() {
    // A line with no end: refused at 1,000 bytes, not after a gigabyte read (under a 300 MB
    // address-space limit, a gigabyte could not even be read).
    let o = midpoint_limited(
        300_000,
        &[
            "replay",
            "--max-line-bytes",
            "1000000000",
            "--max-bytes",
            "1000",
            "/dev/zero",
        ],
    );
    assert_eq!(o.status.code(), Some(1), "{}", out(&o));
    assert!(
        err(&o).contains("the input is larger than the limit of 1000 bytes"),
        "{}",
        err(&o)
    );
}

#[test]
fn a_set_that_makes_an_experiment_row_invalid_is_refused_not_a_panic() {
    // Valid on the default parameters, invalid on a row whose hot table is 4,485 pages.
    let o = midpoint(&["reproduce", "--quick", "--set", "hot_pages=4000000"]);
    assert_eq!(o.status.code(), Some(1), "{}", out(&o));
    let e = err(&o);
    assert!(
        e.starts_with("error: --set: the row of ")
            && e.contains("hot_pages = 4000000 is larger than hot_table_pages"),
        "{e}"
    );
    assert!(!e.contains("panicked"), "{e}");
}

#[test]
fn an_axis_value_is_refused_in_the_words_of_the_flag_typed() {
    let o = midpoint(&[
        "phase",
        "--x",
        "lru-scan-depth",
        "--x-values",
        "18446744073709551616",
        "--y",
        "hot-pages",
        "--y-values",
        "100",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let e = err(&o);
    assert!(
        e.contains("--x-values: '18446744073709551616' (for --x lru-scan-depth) is out of range"),
        "{e}"
    );
    assert!(
        !e.contains("lru_scan_depth") && !e.contains("18446744073709552000"),
        "{e}"
    );
    let e = err(&midpoint(&[
        "phase",
        "--x",
        "lru-scan-depth",
        "--x-values",
        "200",
        "--y",
        "hot-pages",
        "--y-values",
        "0",
    ]));
    assert!(e.contains("--y-values: '0' (for --y hot-pages)"), "{e}");
    assert!(!e.contains("hot_pages"), "{e}");
}

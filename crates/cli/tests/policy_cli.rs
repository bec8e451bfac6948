//! The policy subcommands from the command line: a standard trace through each policy, the
//! same counts from the three formats, clear errors on bad input, and `replay FILE` without
//! `--format` still reading midpoint's own trace format.

use std::path::PathBuf;
use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_midpoint"))
}

fn tmp(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("policy_cli");
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

/// A looping scan of 6 ids through a 4-object cache, 5 rounds, plus id 100 between rounds.
fn ids() -> Vec<u64> {
    let mut v = Vec::new();
    for _ in 0..5 {
        v.extend(1..=6u64);
        v.push(100);
    }
    v
}

fn replay(format: &str, path: &PathBuf, policy: &str, extra: &[&str]) -> serde_json::Value {
    let out = bin()
        .args(["replay", "--format", format])
        .arg(path)
        .args(["--policy", policy, "--cache-pages", "4", "--json"])
        .args(extra)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn the_three_formats_give_the_same_misses_and_lru_misses_every_request_of_a_loop() {
    let ids = ids();
    let og = tmp("loop.oracleGeneral");
    let reqs: Vec<(u32, u64)> = ids.iter().map(|&x| (0, x)).collect();
    midpoint_policies::trace::oracle::write(&mut std::fs::File::create(&og).unwrap(), &reqs)
        .unwrap();
    let txt = tmp("loop.txt");
    std::fs::write(
        &txt,
        ids.iter().map(|x| format!("{x}\n")).collect::<String>(),
    )
    .unwrap();
    let csv = tmp("loop.csv");
    std::fs::write(
        &csv,
        "t,id\n".to_string() + &ids.iter().map(|x| format!("0,{x}\n")).collect::<String>(),
    )
    .unwrap();
    let lru = replay("oracle-general", &og, "lru", &[]);
    assert_eq!(lru["requests"], 35);
    assert_eq!(lru["misses"], 35);
    assert_eq!(lru["policy"], "lru");
    assert!(lru["requests_per_s"].as_f64().unwrap() > 0.0);
    for policy in [
        "fifo", "clock", "2q", "arc", "sieve", "s3fifo", "lirs", "belady", "innodb",
    ] {
        let a = replay("oracle-general", &og, policy, &[]);
        let b = replay("txt", &txt, policy, &[]);
        let c = replay("csv", &csv, policy, &["--csv-column", "2", "--csv-header"]);
        assert_eq!(a["misses"], b["misses"], "{policy}");
        assert_eq!(a["misses"], c["misses"], "{policy}");
    }
    // OPT keeps 3 of the 6 looping ids: fewer misses than LRU's 35.
    let opt = replay("txt", &txt, "belady", &[]);
    assert!(opt["misses"].as_u64().unwrap() < 25, "{opt}");
}

fn fails(args: &[&str], needle: &str) {
    let out = bin().args(args).output().unwrap();
    assert!(!out.status.success(), "{args:?} succeeded");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(needle), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn bad_input_gets_a_clear_error() {
    let bad = tmp("bad.oracleGeneral");
    let mut bytes = Vec::new();
    midpoint_policies::trace::oracle::write(&mut bytes, &[(0, 7)]).unwrap();
    bytes.extend_from_slice(&[0u8; 6]);
    std::fs::write(&bad, &bytes).unwrap();
    let p = bad.to_str().unwrap();
    let base = ["replay", "--format", "oracle-general", p];
    fails(
        &[&base[..], &["--policy", "lru", "--cache-pages", "4"]].concat(),
        "6 bytes after record 1",
    );
    let zero = tmp("zero.oracleGeneral");
    std::fs::write(&zero, [0u8; 24]).unwrap();
    fails(
        &[
            "replay",
            "--format",
            "oracle-general",
            zero.to_str().unwrap(),
            "--policy",
            "fifo",
            "--cache-pages",
            "4",
        ],
        "object size 0",
    );
    fails(
        &[&base[..], &["--policy", "mru", "--cache-pages", "4"]].concat(),
        "unknown policy 'mru'",
    );
    fails(
        &[&base[..], &["--policy", "lru", "--cache-pages", "0"]].concat(),
        "--cache-pages",
    );
    fails(&[&base[..], &["--cache-pages", "4"]].concat(), "--policy");
    let txt = tmp("bad.txt");
    std::fs::write(&txt, "1\n2\nthree\n").unwrap();
    fails(
        &[
            "replay",
            "--format",
            "txt",
            txt.to_str().unwrap(),
            "--policy",
            "lru",
            "--cache-pages",
            "4",
        ],
        "line 3",
    );
    fails(
        &[
            "replay",
            "--format",
            "txt",
            "/nonexistent/trace",
            "--policy",
            "lru",
            "--cache-pages",
            "4",
        ],
        "cannot open",
    );
    fails(
        &["policies", "--preset", "no-such-preset"],
        "unknown preset",
    );
}

#[test]
fn replay_without_format_still_reads_a_midpoint_trace() {
    let t = tmp("mid.trace");
    std::fs::write(&t, "pool pages=300\n0 get 0 1\n1 get 0 2\n").unwrap();
    let out = bin().arg("replay").arg(&t).arg("--json").output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["reads"], 2);
}

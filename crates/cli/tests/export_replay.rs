//! An export is whole or absent; an empty trace is refused, not replayed as "0 requests";
//! `replay -` reads standard input.

mod common;

use std::io::Write;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_midpoint");

fn dir() -> std::path::PathBuf {
    common::scratch("export")
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn an_export_cut_short_leaves_the_old_file_or_none() {
    let d = dir();
    let old = d.join("old.trace");
    std::fs::write(&old, b"the old export").unwrap();
    let fresh = d.join("fresh.trace");
    for path in [&old, &fresh] {
        // A file size limit of 20 KiB kills the export (SIGXFSZ) in the middle of its writing,
        // as Ctrl-C or a full disk would.
        let o = Command::new("sh")
            .arg("-c")
            .arg("ulimit -f 40 && exec \"$0\" export --preset small-demo \"$1\"")
            .arg(BIN)
            .arg(path)
            .output()
            .unwrap();
        assert!(!o.status.success(), "{}", err(&o));
    }
    assert_eq!(std::fs::read(&old).unwrap(), b"the old export");
    assert!(
        !fresh.exists(),
        "a torn export was left at {}",
        fresh.display()
    );
    // Unlimited, it is written whole and replays.
    let o = Command::new(BIN)
        .args(["export", "--preset", "small-demo"])
        .arg(&old)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", err(&o));
    assert_eq!(std::fs::metadata(&old).unwrap().len() % 24, 0);
    let o = Command::new(BIN)
        .args([
            "replay",
            "--format",
            "oracle-general",
            "--policy",
            "lru",
            "--cache-pages",
            "100",
        ])
        .arg(&old)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", err(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("1200695 requests"));
}

#[test]
fn an_empty_trace_is_refused_in_every_format() {
    let d = dir().join("empty");
    std::fs::create_dir_all(&d).unwrap();
    let empty = d.join("empty.trace");
    std::fs::write(&empty, b"").unwrap();
    let p = empty.to_str().unwrap();
    for args in [
        vec!["replay", p],
        vec![
            "replay",
            "--format",
            "oracle-general",
            "--policy",
            "lru",
            "--cache-pages",
            "10",
            p,
        ],
        vec![
            "replay",
            "--format",
            "txt",
            "--policy",
            "lru",
            "--cache-pages",
            "10",
            p,
        ],
        vec![
            "replay",
            "--format",
            "csv",
            "--policy",
            "innodb",
            "--cache-pages",
            "64",
            p,
        ],
    ] {
        let o = Command::new(BIN).args(&args).output().unwrap();
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", err(&o));
        let e = err(&o);
        assert!(
            e.contains("no requests") || e.contains("no pool line"),
            "{args:?}: {e}"
        );
    }
}

fn replay_stdin(input: &[u8]) -> Output {
    let mut c = Command::new(BIN)
        .args(["replay", "-", "--json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    c.stdin.take().unwrap().write_all(input).unwrap();
    c.wait_with_output().unwrap()
}

#[test]
fn replay_dash_reads_standard_input() {
    let o = replay_stdin(b"pool pages=10\n1 get 1 1\n2 get 1 2\n");
    assert!(o.status.success(), "{}", err(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["reads"], 2);
    let o = replay_stdin(b"pool pages=10\n");
    assert_eq!(o.status.code(), Some(1));
    assert!(
        err(&o).contains("standard input: the trace holds a pool line but no events"),
        "{}",
        err(&o)
    );
}

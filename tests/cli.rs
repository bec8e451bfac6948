//! The command line's failure paths: each runs the real binary and checks the exit status and
//! the message a user sees.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn midpoint() -> Command {
    Command::new(env!("CARGO_BIN_EXE_midpoint"))
}

fn run(args: &[&str]) -> Output {
    midpoint().args(args).output().expect("run midpoint")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Runs midpoint with stdout a pipe whose reading end is closed right after the start. The
/// commands used compute for a while before printing more than a pipe buffer (64 KiB), so the
/// first write finds the pipe closed.
#[cfg(unix)]
fn run_into_closed_pipe(args: &[&str]) -> Output {
    let mut child = midpoint()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn midpoint");
    drop(child.stdout.take());
    child.wait_with_output().expect("wait for midpoint")
}

#[cfg(unix)]
#[test]
fn a_closed_pipe_ends_quietly_with_sigpipe() {
    use std::os::unix::process::ExitStatusExt;
    for args in [
        &["run", "--json", "--scan-s", "5"][..],
        &["run", "--csv", "--scan-s", "5"][..],
    ] {
        let o = run_into_closed_pipe(args);
        assert_eq!(
            o.status.signal(),
            Some(libc_sigpipe()),
            "{args:?}: {:?}, stderr {}",
            o.status,
            stderr(&o)
        );
        assert_eq!(stderr(&o), "", "{args:?} printed to stderr");
    }
}

#[cfg(unix)]
fn libc_sigpipe() -> i32 {
    13
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_is_one_line_without_a_backtrace() {
    for args in [
        &["run", "--scan-s", "5"][..],
        &["presets"][..],
        &["--help"][..],
    ] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("open /dev/full");
        let o = midpoint()
            .args(args)
            .env("RUST_BACKTRACE", "1")
            .stdout(full)
            .output()
            .expect("run midpoint");
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        let e = stderr(&o);
        assert_eq!(
            e.trim_end(),
            "error: writing to standard output: No space left on device (os error 28)",
            "{args:?}"
        );
        assert!(!e.contains("panicked") && !e.contains("backtrace"), "{e}");
    }
}

#[test]
fn no_scan_phase_reports_kept_as_not_applicable() {
    let o = run(&["run", "--scan-s", "0", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert!(v["kept"].is_null(), "{}", v["kept"]);
    let note = v["kept_note"].as_str().expect("a kept_note");
    assert!(note.contains("scan phase"), "{note}");

    let o = run(&["run", "--scan-s", "0"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let line = text
        .lines()
        .find(|l| l.starts_with("kept"))
        .expect("a kept line");
    assert!(line.ends_with("n/a"), "{line}");
    assert!(!text.contains("NaN"), "{text}");

    // A run with a scan phase still gives a number and no note.
    let o = run(&["run", "--scan-s", "5", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert!(v["kept"].as_f64().is_some(), "{}", v["kept"]);
    assert!(v.get("kept_note").is_none());
}

#[allow(dead_code)]
fn write_temp(name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("midpoint-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::File::create(&path)
        .and_then(|mut f| f.write_all(bytes))
        .unwrap();
    path
}

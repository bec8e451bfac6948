//! The command line's failure paths: each runs the real binary and checks the exit status and
//! the message a user sees.

mod common;

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

/// Runs midpoint with stdout a pipe whose reading end is closed before the child starts, so its
/// first write to stdout, of any size and whenever it comes, finds no reader (EPIPE, SIGPIPE):
/// the outcome does not depend on how much it prints or on how fast either process runs.
#[cfg(target_os = "linux")]
fn run_into_closed_pipe(args: &[&str]) -> Output {
    use std::os::fd::{FromRawFd, OwnedFd};
    let mut fds = [0; 2];
    // SAFETY: `fds` has room for the two descriptors pipe2 writes. O_CLOEXEC keeps both ends out
    // of the processes other tests spawn meanwhile (one holding the read end would be a reader).
    assert_eq!(unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) }, 0);
    // SAFETY: both descriptors were just created and are owned by nothing else.
    let (read_end, write_end) =
        unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    drop(read_end);
    midpoint()
        .args(args)
        .stdout(Stdio::from(write_end))
        .stderr(Stdio::piped())
        .output()
        .expect("run midpoint")
}

#[cfg(target_os = "linux")]
#[test]
fn a_closed_pipe_ends_quietly_with_sigpipe() {
    use std::os::unix::process::ExitStatusExt;
    // Long and short outputs alike: `presets` prints a few KiB, far less than a pipe buffer.
    for args in [
        &["run", "--json", "--scan-s", "5"][..],
        &["run", "--csv", "--scan-s", "5"][..],
        &["presets"][..],
    ] {
        let o = run_into_closed_pipe(args);
        assert_eq!(
            o.status.signal(),
            Some(libc::SIGPIPE),
            "{args:?}: {:?}, stderr {}",
            o.status,
            stderr(&o)
        );
        assert_eq!(stderr(&o), "", "{args:?} printed to stderr");
    }
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

fn write_temp(name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let path = common::scratch("cli").join(name);
    std::fs::File::create(&path)
        .and_then(|mut f| f.write_all(bytes))
        .unwrap();
    path
}

#[test]
fn the_sample_trace_replays_and_shows_the_slide() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/refill-slide.trace"
    );
    let o = run(&["replay", path, "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let lru = v["lru"].as_array().expect("lru");
    // Scanned pages (space 2) are never made young by an access, yet some end up young.
    let scan_young = lru.iter().filter(|e| e[0] == 2 && e[2] == 0).count();
    assert!(
        scan_young > 0,
        "no scanned page slid into the young sublist"
    );
    assert_eq!(v["made_young"], 0);
    let o = run(&["replay", path]);
    assert!(stdout(&o).starts_with("5010 events;"), "{}", stdout(&o));
}

#[test]
fn replay_accepts_a_byte_order_mark_and_crlf() {
    let path = write_temp("bom.trace", b"\xef\xbb\xbfpool pages=10\r\n1 get 1 1\r\n");
    let o = run(&["replay", path.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("1 events;"), "{}", stdout(&o));
}

#[cfg(unix)]
#[test]
fn replay_of_an_endless_input_stops_at_the_line_limit() {
    let o = run(&["replay", "/dev/zero"]);
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert!(
        e.starts_with("error: /dev/zero: line 1: longer than the limit of 4096 bytes"),
        "{e}"
    );
    assert!(e.len() < 700, "{} bytes", e.len());
}

#[test]
fn replay_errors_quote_at_most_80_characters_of_a_line() {
    let mut text = b"pool pages=10\n1 get 1 ".to_vec();
    text.extend(std::iter::repeat_n(b'x', 4000));
    let path = write_temp("long.trace", &text);
    let o = run(&["replay", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert!(e.contains("line 2: page 'xxx"), "{e}");
    assert!(e.len() < 300, "{} bytes: {e}", e.len());

    // Past the line limit: refused, still quoted short.
    text.extend(std::iter::repeat_n(b'x', 1_000_000));
    let path = write_temp("longer.trace", &text);
    let o = run(&["replay", path.to_str().unwrap()]);
    let e = stderr(&o);
    assert!(
        e.contains("line 2: longer than the limit of 4096 bytes"),
        "{e}"
    );
    assert!(e.len() < 300, "{} bytes", e.len());
}

#[test]
fn replay_limits_are_flags() {
    let path = write_temp("small.trace", b"pool pages=10\n1 get 1 1\n2 get 1 2\n");
    let p = path.to_str().unwrap();
    let o = run(&["replay", p, "--max-bytes", "20"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("larger than the limit of 20 bytes"),
        "{}",
        stderr(&o)
    );
    let o = run(&["replay", p, "--max-line-bytes", "5"]);
    assert!(
        stderr(&o).contains("line 1: longer than the limit of 5 bytes"),
        "{}",
        stderr(&o)
    );
    let o = run(&["replay", p, "--max-line-bytes", "many"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("--max-line-bytes = 'many'"),
        "{}",
        stderr(&o)
    );
    let o = run(&["replay", p, "--max-bytes", "40", "--max-line-bytes", "13"]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn an_hours_long_run_is_refused_with_its_estimate_unless_no_limit() {
    let o = run(&[
        "run",
        "--lookup-threads",
        "256",
        "--cpus",
        "256",
        "--warmup-s",
        "3600",
        "--scan-s",
        "3600",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert!(e.starts_with("error: this run would take about "), "{e}");
    assert!(e.contains(" h ") && e.contains("--no-limit"), "{e}");
    assert!(o.stdout.is_empty());
}

#[test]
fn a_sweep_grid_over_the_budget_is_refused_before_running() {
    let list = |n: u32, from: u32, step: u32| {
        (0..n)
            .map(|i| (from + i * step).to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    // 64 × 64 points of 2 runs: 8,192 runs of about 0.4 s of CPU each, past the hour's budget.
    let (depths, times) = (list(64, 100, 100), list(64, 0, 10));
    let o = run(&[
        "sweep", "--depths", &depths, "--times", &times, "--runs", "2",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert!(
        e.starts_with("error: this sweep of 8192 runs would take about"),
        "{e}"
    );
    assert!(!e.contains("points"), "it started running: {e}");
}

#[test]
fn a_sweep_without_a_scan_phase_prints_n_a_not_nan() {
    let o = run(&[
        "sweep",
        "--scan-s",
        "0",
        "--warmup-s",
        "2",
        "--depths",
        "128,1024",
        "--times",
        "0",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let t = stdout(&o);
    assert!(t.contains("n/a") && !t.contains("NaN"), "{t}");
}

#[test]
fn reproduce_set_is_checked_before_any_run() {
    // Not a parameter, not NAME=VALUE, out of range: refused with the flag named.
    for bad in ["no_such_param=1", "cpus", "cpus=9999"] {
        let o = run(&["reproduce", "--set", bad]);
        assert!(!o.status.success(), "{bad}");
        assert!(stderr(&o).contains("--set"), "{bad}: {}", stderr(&o));
    }
    // Only experiment 000 takes it.
    let o = run(&["reproduce", "--experiment", "mariadb", "--set", "cpus=2"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("experiment 000 only"), "{}", stderr(&o));
}

#[test]
fn reproduce_refuses_runs_it_cannot_use() {
    // A bad value is refused by every experiment, before any run.
    let o = run(&["reproduce", "--experiment", "001", "--runs", "abc"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("runs"), "{}", stderr(&o));
    // A good value where the experiment runs each configuration once is refused too.
    for code in ["001", "002", "003-rw"] {
        let o = run(&["reproduce", "--experiment", code, "--runs", "2"]);
        assert!(!o.status.success(), "{code}");
        assert!(
            stderr(&o).contains("--runs does not apply to experiment"),
            "{code}: {}",
            stderr(&o)
        );
    }
}

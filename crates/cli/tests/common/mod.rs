//! What the command line's end-to-end tests share: running the binary built for them.
// Each test file is its own crate and uses what it needs of this.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::path::PathBuf;
use std::process::Command;
use std::sync::Mutex;

/// The `midpoint` binary cargo built for these tests.
pub const BIN: &str = env!("CARGO_BIN_EXE_midpoint");

/// The status reader's fixtures (`crates/status/tests/fixtures/status/`), with a final slash.
pub const FIXTURES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../status/tests/fixtures/status/"
);

/// Runs `midpoint ARGS`: its exit code (-1 when a signal ended it), stdout and stderr.
pub fn midpoint<I, S>(args: I) -> (i32, String, String)
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let o = Command::new(BIN).args(args).output().unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Runs `midpoint ARGS`, which must succeed, and reads what it printed as JSON.
pub fn midpoint_json<I, S>(args: I) -> serde_json::Value
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let (code, out, err) = midpoint(args);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("not JSON ({e}): {out}"))
}

/// The test process's own directory under the system's temp directory, `midpoint-WHAT-PID`:
/// created on first use, and removed with what is in it when the process exits (after a failed
/// test too: the harness exits normally), so that no run leaves files behind in /tmp.
pub fn scratch(what: &str) -> PathBuf {
    static DIRS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
    extern "C" fn remove_all() {
        let dirs = DIRS.lock().unwrap_or_else(|e| e.into_inner());
        for d in dirs.iter() {
            let _ = std::fs::remove_dir_all(d);
        }
    }
    let dir = std::env::temp_dir().join(format!("midpoint-{what}-{}", std::process::id()));
    let mut dirs = DIRS.lock().unwrap_or_else(|e| e.into_inner());
    if !dirs.contains(&dir) {
        std::fs::create_dir_all(&dir).unwrap();
        if dirs.is_empty() {
            // SAFETY: remove_all is a plain function that lives as long as the process.
            assert_eq!(unsafe { libc::atexit(remove_all) }, 0, "atexit failed");
        }
        dirs.push(dir.clone());
    }
    dir
}

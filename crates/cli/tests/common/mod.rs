//! What the command line's end-to-end tests share: running the binary built for them.
// Each test file is its own crate and uses what it needs of this.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::process::Command;

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

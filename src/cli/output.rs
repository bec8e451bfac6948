//! How the command line ends when its output cannot be written (native only).
//!
//! Every `print!`/`println!` of the CLI goes to the standard streams, and the standard library
//! panics when a write fails. [`install`] makes those failures end the process the way command
//! line tools conventionally do, once for the whole binary:
//!
//! - a closed pipe (`midpoint run --json | head -c 10`): SIGPIPE is restored to its default
//!   action, so the process ends quietly, killed by the signal (shell status 141), as `cat` or
//!   `seq` do;
//! - any other write error (`midpoint run > /dev/full`): one line on stderr,
//!   `error: writing to standard output: No space left on device (os error 28)`, exit status 1,
//!   no panic message and no backtrace.
//!
//! Other panics keep the default report: they are bugs and should be seen.

use std::io::Write;
use std::process::ExitCode;

/// The exit status of a failed write to stdout or stderr.
pub const WRITE_ERROR_STATUS: u8 = 1;

/// The standard library's panic message for a failed `print!` (`"failed printing to stdout: ..."`).
const PRINT_FAILED: &str = "failed printing to ";

/// Restores SIGPIPE's default action and installs the panic hook described in the module docs.
/// Call once, first thing in `main`.
pub fn install() {
    #[cfg(unix)]
    // SAFETY: called once at start-up, before any thread is spawned; setting a signal's
    // disposition to SIG_DFL has no other effect on the process.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let msg = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if let Some(rest) = msg.strip_prefix(PRINT_FAILED) {
            // "stdout: No space left on device (os error 28)"
            let (stream, why) = rest.split_once(": ").unwrap_or((rest, "write failed"));
            if stream == "stdout" {
                // Best effort: stderr may be the stream that failed too.
                let _ = writeln!(
                    std::io::stderr(),
                    "error: writing to standard output: {why}"
                );
            }
            std::process::exit(i32::from(WRITE_ERROR_STATUS));
        }
        default_hook(info);
    }));
}

/// The one-line report of a failed write to stdout, and its exit status.
pub fn write_failed(e: &std::io::Error) -> ExitCode {
    let _ = writeln!(std::io::stderr(), "error: writing to standard output: {e}");
    ExitCode::from(WRITE_ERROR_STATUS)
}

/// Flushes stdout before the process exits (its buffer would otherwise be flushed silently at
/// exit, losing a write error) and turns a failure into the one-line report.
pub fn finish(code: ExitCode) -> ExitCode {
    match std::io::stdout().flush() {
        Ok(()) => code,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => code,
        Err(e) => write_failed(&e),
    }
}

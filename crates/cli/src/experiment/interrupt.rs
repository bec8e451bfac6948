//! Ctrl-C and SIGTERM during a live run: caught, so the run stops at its next check and
//! restores what it changed, and named in the message that ends it.

use std::sync::atomic::{AtomicBool, Ordering};

/// Set by SIGINT/SIGTERM: the run stops at its next check and restores what it changed.
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);
/// The signal that set [`INTERRUPTED`], so the message names it.
static SIGNAL: std::sync::atomic::AtomicI32 = std::sync::atomic::AtomicI32::new(0);

extern "C" fn on_signal(sig: libc::c_int) {
    SIGNAL.store(sig, Ordering::SeqCst);
    INTERRUPTED.store(true, Ordering::SeqCst);
}

/// The signal that stopped the run, in words: "Ctrl-C (SIGINT)" or "SIGTERM".
pub fn signal_name(sig: i32) -> &'static str {
    match sig {
        libc::SIGTERM => "SIGTERM",
        libc::SIGINT => "Ctrl-C (SIGINT)",
        _ => "a signal",
    }
}

/// Routes Ctrl-C (and SIGTERM) to [`INTERRUPTED`] instead of ending the process at once.
pub fn catch_interrupts() {
    let handler = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
    // SAFETY: the handler only stores to an atomic, which is async-signal-safe.
    unsafe {
        libc::signal(libc::SIGINT, handler);
        libc::signal(libc::SIGTERM, handler);
    }
}

/// Whether Ctrl-C or SIGTERM has come.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// Ends the catching: once the run has restored what it changed, Ctrl-C ends the process at
/// once again (the model's runs that follow change nothing on the server).
pub fn release_interrupts() {
    // SAFETY: restoring the default disposition.
    unsafe {
        libc::signal(libc::SIGINT, libc::SIG_DFL);
        libc::signal(libc::SIGTERM, libc::SIG_DFL);
    }
}

/// An error naming the signal once one has come.
pub fn check_interrupt() -> Result<(), String> {
    if interrupted() {
        Err(format!(
            "interrupted ({}): stopped, variables restored",
            signal_name(SIGNAL.load(Ordering::SeqCst))
        ))
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod signal_tests {
    #[test]
    fn sigterm_is_named_sigterm_not_ctrl_c() {
        assert_eq!(super::signal_name(libc::SIGTERM), "SIGTERM");
        assert_eq!(super::signal_name(libc::SIGINT), "Ctrl-C (SIGINT)");
    }
}

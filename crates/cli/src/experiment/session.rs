//! A connection whose every statement is a bounded wait that says what it waits for.
//!
//! A statement can wait on the server for a long time without the server being stalled: behind
//! `FLUSH TABLES WITH READ LOCK` held by another client, a DDL or an INSERT waits for the global
//! read lock, and the server answers nothing until it gets it. So each statement of the run's
//! main thread runs on a worker thread while the main thread watches it:
//! - every [`PROGRESS_EVERY`] it prints a line on stderr (how long, what, and the statement's
//!   state in the server's process list, e.g. "Waiting for global read lock");
//! - on Ctrl-C or SIGTERM it kills the statement (`KILL QUERY` on another connection) and
//!   returns within [`GRACE`], whether or not the server has answered the kill;
//! - past the statement's limit it kills it and returns an error naming the limit.
//!
//! The connection's own read/write timeouts stay a few seconds above the limit, as the last
//! bound when even the kill gets no answer.

use super::conn::{connect, connect_with, scalar, timed_out, Target, Timeouts};
use super::interrupt::{check_interrupt, interrupted};
use mysql::prelude::Queryable;
use mysql::Conn;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// How often a waiting statement prints a line.
pub const PROGRESS_EVERY: Duration = Duration::from_secs(5);
/// How long a killed statement is given to end before the run goes on without its connection.
pub const GRACE: Duration = Duration::from_millis(500);

/// Rows as text, as [`super::conn::rows`] gives them.
pub type Rows = Vec<Vec<Option<String>>>;

/// The connection that kills statements and reads their state: opened at the start (so that
/// Ctrl-C costs one statement, not a connection too), again when it is lost.
#[derive(Clone)]
pub struct Killer {
    target: Target,
    ctl: Arc<Mutex<Option<Conn>>>,
}

impl Killer {
    pub fn new(target: &Target) -> Killer {
        Killer {
            target: target.clone(),
            ctl: Arc::new(Mutex::new(connect(target).ok())),
        }
    }

    /// Runs `f` on the control connection on a thread of its own (a stalled server delays only
    /// that thread).
    fn on_ctl(&self, f: impl FnOnce(&mut Conn) + Send + 'static) {
        let k = self.clone();
        thread::spawn(move || {
            let Ok(mut g) = k.ctl.lock() else { return };
            if g.is_none() {
                *g = connect(&k.target).ok();
            }
            if let Some(c) = g.as_mut() {
                if c.ping().is_err() {
                    *g = connect(&k.target).ok();
                }
            }
            if let Some(c) = g.as_mut() {
                f(c);
            }
        });
    }

    /// `KILL QUERY id`, without waiting for it.
    pub fn kill(&self, id: u32) {
        self.on_ctl(move |c| {
            let _ = c.query_drop(format!("KILL QUERY {id}"));
        });
    }

    /// Prints the progress line of a statement waiting for `waited`, with its state.
    fn report(&self, id: u32, what: String, waited: Duration, limit: Duration) {
        self.on_ctl(move |c| {
            let state = scalar(
                c,
                &format!("SELECT STATE FROM information_schema.PROCESSLIST WHERE ID = {id}"),
            )
            .ok()
            .flatten()
            .filter(|s| !s.trim().is_empty())
            .map(|s| format!(" (the server says: {})", s.trim()))
            .unwrap_or_default();
            eprintln!(
                "experiment: still waiting for the server after {} s: {what}{state}; stopped at {} s; Ctrl-C stops the run",
                waited.as_secs(),
                limit.as_secs()
            );
        });
    }
}

/// A connection of the run whose statements are watched (see the module's comment).
pub struct Session {
    conn: Option<Conn>,
    id: u32,
    killer: Killer,
    /// Whether Ctrl-C stops its statements (not for the restore, which runs after it).
    pub interruptible: bool,
}

/// Why a statement was killed.
#[derive(Clone, Copy, PartialEq)]
enum Kill {
    Interrupt,
    Limit,
}

impl Session {
    /// Opens a connection whose read/write timeouts are `to` (keep them above the limits its
    /// statements are given).
    pub fn open(target: &Target, to: Timeouts, killer: &Killer) -> Result<Session, String> {
        let c = connect_with(target, to)?;
        Ok(Session {
            id: c.connection_id(),
            conn: Some(c),
            killer: killer.clone(),
            interruptible: true,
        })
    }

    /// Runs `sql` (`what` names it in messages), waiting at most `limit` for it.
    pub fn rows(&mut self, what: &str, sql: &str, limit: Duration) -> Result<Rows, String> {
        if self.interruptible {
            check_interrupt()?;
        }
        let mut c = self.conn.take().ok_or_else(|| {
            format!(
                "{what}: the connection was given up when an earlier statement on it did not end"
            )
        })?;
        let (tx, rx) = mpsc::channel();
        let owned = sql.to_string();
        thread::spawn(move || {
            let r = c
                .query::<mysql::Row, _>(owned)
                .map(|rs| {
                    rs.into_iter()
                        .map(|r| r.unwrap().into_iter().map(super::conn::text).collect())
                        .collect::<Rows>()
                })
                .map_err(|e| timed_out(&e));
            let _ = tx.send((c, r));
        });
        let start = Instant::now();
        let mut next = PROGRESS_EVERY;
        let mut killed: Option<(Kill, Instant)> = None;
        loop {
            match rx.recv_timeout(Duration::from_millis(50)) {
                Ok((c, r)) => {
                    self.conn = Some(c);
                    return match killed {
                        Some((why, _)) => Err(self.killed_message(what, why, limit)),
                        None => r.map_err(|e| format!("{what}: {e}")),
                    };
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(format!(
                        "{what}: the statement's thread ended without an answer"
                    ))
                }
            }
            let waited = start.elapsed();
            match killed {
                Some((why, at)) => {
                    // The server has not answered the kill: go on without this connection.
                    let grace = if why == Kill::Interrupt {
                        GRACE
                    } else {
                        PROGRESS_EVERY
                    };
                    if at.elapsed() > grace {
                        return Err(self.killed_message(what, why, limit));
                    }
                }
                None if self.interruptible && interrupted() => {
                    self.killer.kill(self.id);
                    killed = Some((Kill::Interrupt, Instant::now()));
                }
                None if waited > limit => {
                    self.killer.kill(self.id);
                    killed = Some((Kill::Limit, Instant::now()));
                }
                None if waited >= next => {
                    self.killer.report(self.id, what.to_string(), waited, limit);
                    next += PROGRESS_EVERY;
                }
                None => {}
            }
        }
    }

    /// Runs a statement whose result is not needed.
    pub fn exec(&mut self, what: &str, sql: &str, limit: Duration) -> Result<(), String> {
        self.rows(what, sql, limit).map(|_| ())
    }

    fn killed_message(&self, what: &str, why: Kill, limit: Duration) -> String {
        match why {
            Kill::Interrupt => check_interrupt().err().unwrap_or_else(|| "interrupted".into()),
            Kill::Limit => format!(
                "{what}: the server did not finish it within {} s (its limit; stopped with KILL QUERY): the server is blocked (a lock held by another client, e.g. FLUSH TABLES WITH READ LOCK) or stalled",
                limit.as_secs()
            ),
        }
    }
}

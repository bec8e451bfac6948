//! The guard that restores every variable the run set, and the marker that lets the next run
//! restore what a killed run left changed.

use super::conn::{rows, scalar_u64, words, Target, Timeouts};
use super::plan::{VarChange, SCHEMA};
use super::session::{Killer, Session};
use mysql::prelude::Queryable;
use mysql::Conn;
use serde::Serialize;
use std::time::Duration;

/// The marker the run leaves on the server while it has variables changed: one row per
/// variable, `(name, original, set_to)`, written before its `SET GLOBAL` and deleted once it is
/// restored. A run killed in between (SIGKILL, a crash, the machine's end) leaves the rows, and
/// the next run ([`inspect`]) takes `original` as the server's own value and restores it.
pub const MARKER: &str = "variables_to_restore";

/// How long the guard waits for one of its statements (a `SET GLOBAL`, the marker's rows).
const GUARD_LIMIT: Duration = Duration::from_secs(20);
/// How long the schema's drop is waited for, at the end of a run and after Ctrl-C.
const DROP_LIMIT: Duration = Duration::from_secs(120);
const DROP_LIMIT_INTERRUPTED: Duration = Duration::from_secs(1);

/// A variable an earlier run set and did not restore, found by its marker row.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LeftChanged {
    pub name: String,
    /// The server's value before that run.
    pub original: u64,
    /// What that run set it to.
    pub set_to: u64,
    /// Its value now.
    pub now: u64,
}

impl LeftChanged {
    /// Whether it still holds what the earlier run set (then it is restored; else someone has
    /// set it since, and it is left alone).
    pub fn restorable(&self) -> bool {
        self.now == self.set_to && self.now != self.original
    }

    /// One line saying what was found and what a run does (or did) with it.
    pub fn describe(&self, done: bool) -> String {
        if self.restorable() {
            format!(
                "{} = {} was set by an earlier run that did not finish (killed?); the server's own value was {}: {}",
                self.name,
                self.now,
                self.original,
                if done { "restored" } else { "a run restores it first, and the plan uses it" }
            )
        } else {
            format!(
                "{} = {}: an earlier run that did not finish had set it to {} from {}; it has been changed since, so it is left as it is",
                self.name, self.now, self.set_to, self.original
            )
        }
    }
}

/// The marker's rows left by an earlier run, against the variables' values now.
pub(super) fn left_changed(c: &mut Conn, now: &[(&str, u64)]) -> Result<Vec<LeftChanged>, String> {
    let exists = scalar_u64(
        c,
        &format!(
            "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = '{SCHEMA}' AND TABLE_NAME = '{MARKER}'"
        ),
    )?;
    if exists == 0 {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    for r in rows(
        c,
        &format!("SELECT name, original, set_to FROM {SCHEMA}.{MARKER}"),
    )? {
        let [Some(name), Some(original), Some(set_to)] = r.as_slice() else {
            continue;
        };
        // Only the names the experiment sets (a row is never a name to SET GLOBAL blindly).
        let Some(&(_, value)) = now.iter().find(|(n, _)| n == name) else {
            continue;
        };
        let (Ok(original), Ok(set_to)) = (original.trim().parse(), set_to.trim().parse()) else {
            continue;
        };
        let l = LeftChanged {
            name: name.clone(),
            original,
            set_to,
            now: value,
        };
        if l.now != l.original {
            out.push(l);
        }
    }
    Ok(out)
}

/// Restores what an earlier run left changed ([`LeftChanged::restorable`]), reading each back,
/// and deletes the marker's rows. Returns what it restored.
pub fn restore_left(c: &mut Conn, left: &[LeftChanged]) -> Result<Vec<(String, u64)>, String> {
    let mut out = Vec::new();
    for l in left.iter().filter(|l| l.restorable()) {
        c.query_drop(format!("SET GLOBAL {} = {}", l.name, l.original))
            .map_err(|e| format!("SET GLOBAL {} = {}: {}", l.name, l.original, words(&e)))?;
        let now = scalar_u64(c, &format!("SELECT @@GLOBAL.{}", l.name))?;
        if now != l.original {
            return Err(format!(
                "{} is {now} after SET GLOBAL {} = {}",
                l.name, l.name, l.original
            ));
        }
        out.push((l.name.clone(), now));
    }
    if !left.is_empty() {
        c.query_drop(format!("DELETE FROM {SCHEMA}.{MARKER}"))
            .map_err(|e| format!("emptying {SCHEMA}.{MARKER}: {}", words(&e)))?;
    }
    Ok(out)
}

/// Restores every variable the run set: [`RestoreGuard::restore`] at the end, on an error, on
/// Ctrl-C (the run stops and returns through it), and from `Drop` if a panic got there first.
/// Each `SET GLOBAL` is preceded by its marker row ([`MARKER`]), for a run that is killed.
pub struct RestoreGuard {
    target: Target,
    killer: Killer,
    conn: Option<Session>,
    set: Vec<VarChange>,
    done: bool,
    /// Whether this run created the schema (so that the end drops only what it made).
    pub created: bool,
}

impl RestoreGuard {
    pub fn new(target: &Target, killer: &Killer) -> Result<RestoreGuard, String> {
        let mut g = RestoreGuard {
            target: target.clone(),
            killer: killer.clone(),
            conn: None,
            set: Vec::new(),
            done: false,
            created: false,
        };
        g.conn()?;
        Ok(g)
    }

    /// Sets a variable, remembering its value first (here and in the marker).
    pub fn set(&mut self, v: &VarChange) -> Result<(), String> {
        let c = self.conn()?;
        c.exec(
            &format!("recording {} in {SCHEMA}.{MARKER}", v.name),
            &format!(
                "REPLACE INTO {SCHEMA}.{MARKER} (name, original, set_to) VALUES ('{}', {}, {})",
                v.name, v.from, v.to
            ),
            GUARD_LIMIT,
        )?;
        let sql = format!("SET GLOBAL {} = {}", v.name, v.to);
        c.exec(&sql, &sql, GUARD_LIMIT)?;
        self.set.push(v.clone());
        Ok(())
    }

    fn conn(&mut self) -> Result<&mut Session, String> {
        let alive = match self.conn.as_mut() {
            Some(c) => c.rows("a ping", "SELECT 1", GUARD_LIMIT).is_ok(),
            None => false,
        };
        if !alive {
            let mut s = Session::open(&self.target, Timeouts::CONTROL, &self.killer)?;
            s.interruptible = false;
            self.conn = Some(s);
        }
        Ok(self.conn.as_mut().expect("connected above"))
    }

    /// Sets every changed variable back, last first, and reads each back. Returns what it
    /// restored, `name = value`.
    pub fn restore(&mut self) -> Result<Vec<(String, u64)>, String> {
        let mut out = Vec::new();
        let mut errors = Vec::new();
        let set = std::mem::take(&mut self.set);
        for v in set.iter().rev() {
            let r = self.conn().and_then(|c| {
                let sql = format!("SET GLOBAL {} = {}", v.name, v.from);
                c.exec(&sql, &sql, GUARD_LIMIT)?;
                let now = c.rows(
                    "reading a variable back",
                    &format!("SELECT @@GLOBAL.{}", v.name),
                    GUARD_LIMIT,
                )?;
                let now = now
                    .into_iter()
                    .next()
                    .and_then(|r| r.into_iter().next())
                    .flatten()
                    .unwrap_or_default();
                now.trim()
                    .parse::<u64>()
                    .map_err(|_| format!("@@GLOBAL.{} is {now:?}, not a number", v.name))
            });
            match r {
                Ok(now) if now == v.from => {
                    out.push((v.name.clone(), now));
                    // The marker's row is done with (if this fails, the next run finds the
                    // variable at its original value and leaves it).
                    if let Ok(c) = self.conn() {
                        let _ = c.exec(
                            "the marker's row",
                            &format!("DELETE FROM {SCHEMA}.{MARKER} WHERE name = '{}'", v.name),
                            GUARD_LIMIT,
                        );
                    }
                }
                Ok(now) => errors.push(format!("{} is {now}, not {}", v.name, v.from)),
                Err(e) => {
                    errors.push(format!("{} (to {}): {e}", v.name, v.from));
                    self.set.push(v.clone());
                }
            }
        }
        self.done = self.set.is_empty();
        if errors.is_empty() {
            Ok(out)
        } else {
            Err(format!(
                "could not restore every variable: {}",
                errors.join("; ")
            ))
        }
    }

    /// Drops the experiment's schema (its own name only), waiting 1 s for it after Ctrl-C and
    /// 2 min otherwise.
    pub fn drop_schema(&mut self) -> Result<(), String> {
        let limit = if super::interrupt::interrupted() {
            DROP_LIMIT_INTERRUPTED
        } else {
            DROP_LIMIT
        };
        let c = self.conn()?;
        let sql = format!("DROP SCHEMA IF EXISTS {SCHEMA}");
        c.exec(&sql, &sql, limit).map_err(|e| {
            format!(
                "{e}; the schema {SCHEMA} is left (the next run drops it, or DROP SCHEMA {SCHEMA})"
            )
        })
    }

    /// Kills a running statement of another connection of this run (the scan's last pass).
    pub fn kill_query(&mut self, id: u32) {
        self.killer.kill(id);
    }
}

impl Drop for RestoreGuard {
    fn drop(&mut self) {
        if !self.done && !self.set.is_empty() {
            if let Err(e) = self.restore() {
                crate::output::print_error(&e);
            }
        }
    }
}

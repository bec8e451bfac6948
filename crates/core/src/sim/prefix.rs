//! The shared prefix of two read-only runs: everything before the scan starts. Two runs whose
//! parameters differ only in parameters that act from the scan's start on (the scan's own
//! settings, how long it runs, how "kept" is measured) go through the same events up to that
//! moment, so the second can start from a copy of the first taken there ([`Simulation::
//! run_to_scan_start`], [`Simulation::resume_with`]) instead of from t = 0, with bit-identical
//! results. `tests/prefix.rs` compares the two ways for every parameter listed here.

use super::{Simulation, EPOCH};
use crate::clock::{Micros, SEC};
use crate::pool::WhatIf;
use crate::scenario::Params;

/// The parameters that act only from the scan's start on: the scan's page touches (the
/// cursor restores of `row_search_mvcc`), its CPU per page (or the idle rate it is derived
/// from), its fetch mode, the pause between passes, whether it loops, how long the scan phase
/// runs, how much a running scan slows the lookups, and the window "kept" is measured over.
///
/// Not here: `innodb_lru_scan_depth` (it sizes the free list the warm-up runs with, through
/// `buf_flush_LRU_list` in every page-cleaner round), the scanned table's size (the warm start
/// loads it), and everything else the warm-up reads. `innodb_old_blocks_time` acts in the
/// warm-up only when a lookup re-accesses a page of the old sublist once pages are being
/// evicted (`buf_page_peek_if_too_old`, or with 0 the quarter rule in its place): a prefix where
/// none did is shared by every value of it ([`Simulation::prefix_ignores_old_blocks_time`]), and
/// one where some did by the values that decide each such access as the run's value did
/// ([`Simulation::prefix_admits_old_blocks_time`]).
pub const AFTER_SCAN_START: &[&str] = &[
    "scan_touches_per_page",
    "scan_cpu_us_per_page",
    "idle_scan_pages_per_s",
    "scan_mode",
    "scan_pause_ms",
    "scan_loop",
    "scan_s",
    "scan_interference",
    "kept_window_s",
];

/// `p` with every parameter of [`AFTER_SCAN_START`] set to a fixed value: two runs share
/// their prefix exactly when their keys are equal.
pub fn prefix_key(p: &Params) -> Params {
    let d = Params::default();
    Params {
        scan_touches_per_page: d.scan_touches_per_page,
        scan_cpu_us_per_page: d.scan_cpu_us_per_page,
        idle_scan_pages_per_s: d.idle_scan_pages_per_s,
        scan_mode: d.scan_mode,
        scan_pause_ms: d.scan_pause_ms,
        scan_loop: d.scan_loop,
        scan_s: d.scan_s,
        scan_interference: d.scan_interference,
        kept_window_s: d.kept_window_s,
        ..p.clone()
    }
}

/// Whether a run with `b` can continue a snapshot taken at the scan's start of a run with
/// `a`: the same prefix, and a scan phase in both (without one, the lookups at the end of the
/// warm-up count as warm-up lookups and no scan is scheduled).
pub fn shares_prefix(a: &Params, b: &Params) -> bool {
    a.scan_s > 0 && b.scan_s > 0 && prefix_key(a) == prefix_key(b)
}

impl Simulation {
    /// Runs the next event if it comes before `t` (µs); returns whether it did. Transitions
    /// with nothing to show count as events here.
    pub fn step_before(&mut self, t: Micros) -> bool {
        if self.write.is_some() || self.earliest().0 >= t.min(self.end) {
            return false;
        }
        self.step_inner();
        true
    }

    /// Runs every event before the scan starts: the state a run with the same prefix
    /// ([`shares_prefix`]) continues from.
    pub fn run_to_scan_start(&mut self) {
        while self.step_before(self.scan_start) {}
    }

    /// Whether no event at or after the scan's start has run yet.
    pub fn before_scan_start(&self) -> bool {
        self.write.is_none() && self.now < self.scan_start && self.scan_mark.is_none()
    }

    /// Whether `innodb_old_blocks_time` has not been read so far: no access found a page of the
    /// old sublist once pages were being evicted (the only case `buf_page_make_young_if_needed`
    /// reads it; with the value 0 such an access goes to the quarter rule of
    /// `buf_page_peek_if_young` instead, which another value would not), and the what-if that
    /// reads it in `buf_LRU_old_adjust_len` is off. Then every value shares the prefix.
    pub fn prefix_ignores_old_blocks_time(&self) -> bool {
        !self.pool.old_blocks_time_range().consulted
            && !self.pool.what_ifs().has(WhatIf::SlideSparesFresh)
    }

    /// Whether the prefix run so far is the same with `innodb_old_blocks_time` = `ms`: it was
    /// never read ([`Self::prefix_ignores_old_blocks_time`]), or every access that read it
    /// would have been decided the same way with `ms` ([`crate::pool::OldTimeRange`]: the
    /// same value, or, for a positive one, a positive value no greater than the youngest age
    /// that passed the test and above the oldest that failed it).
    pub fn prefix_admits_old_blocks_time(&self, ms: u32) -> bool {
        ms == self.params.old_blocks_time
            || (!self.pool.what_ifs().has(WhatIf::SlideSparesFresh)
                && self.pool.old_blocks_time_range().admits(ms))
    }

    /// Whether this run, stopped before the scan's start, can continue as a run of `params`
    /// ([`Simulation::resume_with`]).
    pub fn can_resume_with(&self, params: &Params) -> bool {
        if !self.before_scan_start() {
            return false;
        }
        if shares_prefix(&self.params, params) {
            return true;
        }
        let same_time = Params {
            old_blocks_time: params.old_blocks_time,
            ..self.params.clone()
        };
        self.prefix_admits_old_blocks_time(params.old_blocks_time)
            && shares_prefix(&same_time, params)
    }

    /// Continues this run, stopped before the scan's start, with the parameters `params`,
    /// which must share its prefix ([`Simulation::can_resume_with`]); the result is
    /// bit-identical to a run of `params` from t = 0.
    pub fn resume_with(&mut self, params: &Params) -> Result<(), String> {
        if !self.before_scan_start() {
            return Err("the run has passed the scan's start".into());
        }
        if !self.can_resume_with(params) {
            return Err("the parameters differ in more than the scan's".into());
        }
        params.validate()?;
        let p = super::rates::derived(params)?;
        self.pool.set_old_blocks_time_ms(p.old_blocks_time);
        self.scan.mode = p.engine.fetch_mode(p.scan_mode);
        self.scan.touches_per_page = p.scan_touches_per_page;
        self.scan.cpu_per_page_us = p.scan_cpu_us_per_page;
        self.scan.pause_us = p.scan_pause_ms as Micros * 1000;
        self.scan.looping = p.scan_loop;
        self.end = EPOCH + (p.warmup_s + p.scan_s) as Micros * SEC;
        self.params = p;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::preset;

    #[test]
    fn the_rule_separates_the_scans_settings_from_the_warm_ups() {
        let a = preset("small-demo").unwrap().params;
        let b = Params {
            scan_pause_ms: 700,
            scan_s: 30,
            ..a.clone()
        };
        assert!(shares_prefix(&a, &b));
        for c in [
            Params {
                lru_scan_depth: a.lru_scan_depth * 2,
                ..a.clone()
            },
            Params {
                old_blocks_time: a.old_blocks_time + 1,
                ..a.clone()
            },
            Params {
                warmup_s: a.warmup_s + 1,
                ..a.clone()
            },
            Params {
                scan_s: 0,
                ..a.clone()
            },
        ] {
            assert!(!shares_prefix(&a, &c), "{c:?}");
        }
    }

    #[test]
    fn a_run_past_the_scans_start_or_with_another_warm_up_is_refused() {
        let a = Params {
            warmup_s: 2,
            scan_s: 3,
            ..preset("small-demo").unwrap().params
        };
        let mut s = Simulation::new(&a).unwrap();
        s.run_to_scan_start();
        assert!(s.before_scan_start());
        let deeper = Params {
            lru_scan_depth: 256,
            ..a.clone()
        };
        assert!(s.clone().resume_with(&deeper).is_err());
        s.run_until(s.scan_start() + 1);
        assert!(s.resume_with(&a).is_err());
    }
}

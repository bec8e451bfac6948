//! `Adaptive_flush::page_recommendation` (buf/buf0flu.cc): how many pages the page cleaner's
//! flush-list batches write in one round.
//!
//! Kept: `get_pct_for_dirty`, `get_pct_for_lsn` (with `io_capacity_max / io_capacity` as an
//! integer ratio and the `f·√f / 7.5` curve), the averaging of the page and LSN rates over
//! `innodb_flushing_avg_loops` rounds (`set_average`: the new rate is averaged with the old one
//! once per period), the pages-for-LSN estimate (pages whose oldest modification is within
//! `buf_flush_lsn_scan_factor` = 3 average LSN rounds of the oldest, divided by 3), the
//! `(PCT_IO(pct) + avg_page_rate + pages_for_lsn) / 3` target capped at `io_capacity_max`, and
//! the sync-flush target (everything up to the sync LSN, at least `io_capacity`). Dropped: the
//! per-instance split by age (`pct_for_lsn > 30`; here the target is divided evenly, as it is
//! below that), and `set_flush_target_by_page`, which only acts when redo logging is disabled.

use serde::Serialize;

/// `buf_flush_lsn_scan_factor`.
pub const LSN_SCAN_FACTOR: u64 = 3;

/// The flushing settings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FlushConfig {
    /// `innodb_io_capacity`.
    pub io_capacity: u64,
    /// `innodb_io_capacity_max`.
    pub io_capacity_max: u64,
    /// `innodb_max_dirty_pages_pct`.
    pub max_dirty_pages_pct: f64,
    /// `innodb_max_dirty_pages_pct_lwm`.
    pub max_dirty_pages_pct_lwm: f64,
    /// `innodb_adaptive_flushing_lwm`, %.
    pub adaptive_flushing_lwm: u64,
    /// `innodb_flushing_avg_loops`.
    pub flushing_avg_loops: u32,
}

impl Default for FlushConfig {
    fn default() -> Self {
        FlushConfig {
            io_capacity: 10_000,
            io_capacity_max: 20_000,
            max_dirty_pages_pct: 90.0,
            max_dirty_pages_pct_lwm: 10.0,
            adaptive_flushing_lwm: 10,
            flushing_avg_loops: 30,
        }
    }
}

/// `PCT_IO(p)`: `p` % of `innodb_io_capacity`.
pub fn pct_io(cfg: &FlushConfig, pct: u64) -> u64 {
    cfg.io_capacity * pct / 100
}

/// `get_pct_for_dirty`: 0 below the low-water mark, else `dirty% × 100 / (max_dirty% + 1)`.
pub fn pct_for_dirty(cfg: &FlushConfig, dirty_pct: f64) -> u64 {
    if dirty_pct == 0.0 {
        return 0;
    }
    if cfg.max_dirty_pages_pct_lwm == 0.0 {
        if dirty_pct >= cfg.max_dirty_pages_pct {
            return 100;
        }
    } else if dirty_pct >= cfg.max_dirty_pages_pct_lwm {
        return (dirty_pct * 100.0 / (cfg.max_dirty_pages_pct + 1.0)) as u64;
    }
    0
}

/// `get_pct_for_lsn`: 0 below `adaptive_flushing_lwm` % of the usable redo, else
/// `(io_capacity_max / io_capacity) × f·√f / 7.5` with `f = age × 100 / async_limit`.
pub fn pct_for_lsn(cfg: &FlushConfig, age: u64, usable: u64, async_limit: u64) -> u64 {
    let lwm = cfg.adaptive_flushing_lwm * usable / 100;
    if age < lwm {
        return 0;
    }
    let f = age as f64 * 100.0 / async_limit.max(1) as f64;
    let ratio = (cfg.io_capacity_max / cfg.io_capacity.max(1)) as f64;
    (ratio * (f * f.sqrt()) / 7.5) as u64
}

/// The inputs of one recommendation, read from the pool.
#[derive(Clone, Copy, Debug)]
pub struct FlushInputs {
    /// Virtual time, µs.
    pub now: u64,
    /// Current LSN.
    pub lsn: u64,
    /// Oldest modification in the pool (0: none dirty).
    pub oldest: u64,
    /// Dirty pages as a % of the pool's LRU + free pages (`buf_get_modified_ratio_pct`).
    pub dirty_pct: f64,
    /// Usable redo and its async limit.
    pub usable: u64,
    pub async_limit: u64,
}

/// The averaging state (`Adaptive_flush`'s statics).
#[derive(Clone, Debug, Default, Serialize)]
pub struct AdaptiveFlush {
    prev_lsn: u64,
    prev_time: u64,
    n_iterations: u32,
    sum_pages: u64,
    /// `page_avg_rate`, pages/s.
    pub page_avg_rate: u64,
    /// `lsn_avg_rate`, LSN/s.
    pub lsn_avg_rate: u64,
}

impl AdaptiveFlush {
    /// `page_recommendation(last_pages_in, is_sync_flush, sync_flush_limit_lsn)`. `pages_upto`
    /// counts the dirty pages whose oldest modification is at most a given LSN (the flush-list
    /// scan of `set_flush_target_by_lsn`), capped at its second argument.
    pub fn page_recommendation(
        &mut self,
        cfg: &FlushConfig,
        inp: FlushInputs,
        last_pages: u64,
        sync_lsn: Option<u64>,
        pages_upto: impl Fn(u64, u64) -> u64,
    ) -> u64 {
        // initialize(): the first round only records the starting point.
        if self.prev_lsn == 0 {
            self.prev_lsn = inp.lsn;
            self.prev_time = inp.now;
            return 0;
        }
        self.sum_pages += last_pages;
        let skip_lsn = self.prev_lsn == inp.lsn && sync_lsn.is_none();
        // set_average(): once per innodb_flushing_avg_loops rounds (or seconds).
        self.n_iterations += 1;
        let elapsed_s = (inp.now.saturating_sub(self.prev_time) / 1_000_000).max(1);
        if self.n_iterations >= cfg.flushing_avg_loops || elapsed_s >= cfg.flushing_avg_loops as u64
        {
            self.page_avg_rate = (self.sum_pages / elapsed_s + self.page_avg_rate) / 2;
            let lsn_rate = inp.lsn.saturating_sub(self.prev_lsn) / elapsed_s;
            self.lsn_avg_rate = (lsn_rate + self.lsn_avg_rate) / 2;
            self.prev_lsn = inp.lsn;
            self.prev_time = inp.now;
            self.n_iterations = 0;
            self.sum_pages = 0;
        }
        if skip_lsn {
            return 0;
        }
        // set_flush_target_by_lsn().
        let age = if inp.oldest == 0 {
            0
        } else {
            inp.lsn.saturating_sub(inp.oldest)
        };
        let pct_total = pct_for_dirty(cfg, inp.dirty_pct).max(pct_for_lsn(
            cfg,
            age,
            inp.usable,
            inp.async_limit,
        ));
        let sum_pages_max = cfg.io_capacity_max * 2;
        let (target, scan_factor) = match sync_lsn {
            Some(l) => (l, 1),
            None => (
                inp.oldest + self.lsn_avg_rate * LSN_SCAN_FACTOR,
                LSN_SCAN_FACTOR,
            ),
        };
        let for_lsn = if inp.oldest == 0 {
            0
        } else {
            pages_upto(target, sum_pages_max * scan_factor * 2)
        };
        let pages_for_lsn = (for_lsn / scan_factor).max(1).min(sum_pages_max);
        if sync_lsn.is_some() {
            pages_for_lsn.max(cfg.io_capacity)
        } else {
            ((pct_io(cfg, pct_total) + self.page_avg_rate + pages_for_lsn) / 3)
                .min(cfg.io_capacity_max)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pct_for_dirty_follows_the_formula() {
        let c = FlushConfig::default();
        assert_eq!(pct_for_dirty(&c, 5.0), 0);
        assert_eq!(pct_for_dirty(&c, 45.5), 50);
        assert_eq!(pct_for_dirty(&c, 91.0), 100);
    }

    #[test]
    fn pct_for_lsn_grows_as_f_to_the_three_halves() {
        let c = FlushConfig::default();
        assert_eq!(pct_for_lsn(&c, 5, 100, 87), 0);
        // f = 100: 2 * 1000 / 7.5 = 266
        assert_eq!(pct_for_lsn(&c, 87, 100, 87), 266);
    }

    #[test]
    fn first_round_recommends_nothing_and_sync_flush_at_least_io_capacity() {
        let c = FlushConfig::default();
        let mut a = AdaptiveFlush::default();
        let inp = FlushInputs {
            now: 0,
            lsn: 100,
            oldest: 50,
            dirty_pct: 50.0,
            usable: 1000,
            async_limit: 870,
        };
        assert_eq!(a.page_recommendation(&c, inp, 0, None, |_, _| 10), 0);
        let inp2 = FlushInputs {
            now: 1_000_000,
            lsn: 200,
            ..inp
        };
        let n = a.page_recommendation(&c, inp2, 0, None, |_, _| 30);
        // (PCT_IO(54) + 0 + 30/3) / 3
        assert_eq!(n, (5_400 + 10) / 3);
        let s = a.page_recommendation(&c, inp2, 0, Some(150), |_, _| 30);
        assert_eq!(s, 10_000);
    }
}

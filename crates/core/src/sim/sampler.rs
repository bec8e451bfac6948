//! The sampler: what the simulation records at each sample time, and the run's report.

use super::{Simulation, EPOCH, FILLER_SPACE, HOT_SPACE, SCAN_SPACE};
use crate::clock::to_secs;
use crate::metrics::{mean_over, RunReport, Sample};
use crate::pool::page_cleaner::BatchReport;

/// The scanned table's counters at one moment (the scan's start, its end).
#[derive(Clone, Copy, Debug)]
pub(super) struct ScanMark {
    slid: u64,
    grown: u64,
    promoted: u64,
    young: u32,
}

impl Simulation {
    pub(super) fn mark(&self) -> ScanMark {
        let tag = SCAN_SPACE as u8;
        ScanMark {
            slid: self.pool.slid_young_by_tag(tag),
            grown: self.pool.growth_slid_young_by_tag(tag),
            promoted: self.pool.promoted_by_tag(tag),
            young: self.pool.resident(SCAN_SPACE).0,
        }
    }

    pub(super) fn take_sample(&mut self) {
        let dt = to_secs(self.now.saturating_sub(self.iv_start));
        let by_tag = self.pool.young_old_by_tag::<3>();
        let (hot_young, hot_old) = self
            .pool
            .resident_young_old(HOT_SPACE, self.params.hot_pages);
        let st = self.pool.stats();
        let rate = |n: u64| if dt > 0.0 { n as f64 / dt } else { 0.0 };
        self.samples.push(Sample {
            t_s: self.t_s(),
            hot_resident: hot_young + hot_old,
            hot_young,
            hot_old,
            scan_young: by_tag[SCAN_SPACE as usize].0,
            scan_old: by_tag[SCAN_SPACE as usize].1,
            hot_table_young: by_tag[HOT_SPACE as usize].0,
            filler_young: by_tag[FILLER_SPACE as usize].0,
            filler_old: by_tag[FILLER_SPACE as usize].1,
            free: self.pool.free_len(),
            lru_len: self.pool.lru_len(),
            old_len: self.pool.old_len(),
            lookups_per_s: rate(self.iv_lookups),
            lookup_hit_ratio: if self.iv_lookups > 0 {
                self.iv_hits as f64 / self.iv_lookups as f64
            } else {
                1.0
            },
            scan_pages_per_s: rate(self.iv_scan_pages),
            freed_page_clock: self.pool.freed_page_clock(),
            made_young: st.made_young,
            not_made_young: st.not_made_young,
            scan_slid_young: self.pool.slid_young_by_tag(SCAN_SPACE as u8),
            scan_promoted: self.pool.promoted_by_tag(SCAN_SPACE as u8),
        });
        self.iv_lookups = 0;
        self.iv_hits = 0;
        self.iv_scan_pages = 0;
        self.iv_start = self.now;
        if self.now >= self.end && self.scan_end_mark.is_none() {
            self.scan_end_mark = Some(self.mark());
        }
    }

    /// The summary of the run so far (complete once [`Simulation::finished`]).
    pub fn report(&self) -> RunReport {
        let p = &self.params;
        let warm_s = p.warmup_s as f64;
        let scan_s = to_secs(self.now.saturating_sub(self.scan_start)).max(0.0);
        let end_s = to_secs(self.now) - to_secs(EPOCH);
        let from = (end_s - p.kept_window_s as f64).max(warm_s.min(end_s));
        let kept = mean_over(&self.samples, from, end_s, |s| {
            s.hot_resident as f64 / p.hot_pages.max(1) as f64
        });
        let m0 = self.scan_mark.unwrap_or_else(|| self.mark());
        let m1 = self.scan_end_mark.unwrap_or_else(|| self.mark());
        let per_s = |x: f64| if scan_s > 0.0 { x / scan_s } else { 0.0 };
        let slid = (m1.slid - m0.slid) as f64;
        let promoted = (m1.promoted - m0.promoted) as f64;
        let scan_refills: Vec<&BatchReport> = self
            .batches
            .iter()
            .filter(|b| b.at_us >= self.scan_start)
            .collect();
        let mean_refill = if scan_refills.is_empty() {
            0.0
        } else {
            scan_refills.iter().map(|b| b.evicted as f64).sum::<f64>() / scan_refills.len() as f64
        };
        let st = self.pool.stats();
        RunReport {
            parameters: p.clone(),
            frames_per_instance: p.frames_per_instance(),
            scan_table_pages: p.scan_table_pages(),
            hot_pages: p.hot_pages,
            kept,
            kept_window_s: [from, end_s],
            young_leak_pages_per_s: per_s(slid + promoted),
            slid_young_per_s: per_s(slid),
            promoted_per_s: per_s(promoted),
            scan_young_growth_per_s: per_s(m1.young as f64 - m0.young as f64),
            scan_growth_slid_young: m1.grown - m0.grown,
            lookups_per_s: per_s(self.lookups_scan as f64),
            lookups_per_s_warmup: if warm_s > 0.0 {
                self.lookups_warmup as f64 / warm_s.min(end_s.max(1e-9))
            } else {
                0.0
            },
            scan_pages_per_s: per_s(self.scan_pages as f64),
            scan_passes: self.scan.passes,
            lru_batches: st.lru_batches,
            refills_during_scan: scan_refills.len() as u64,
            mean_refill_pages: mean_refill,
            counters: st,
            batches: self.batches.clone(),
            samples: self.samples.clone(),
        }
    }
}

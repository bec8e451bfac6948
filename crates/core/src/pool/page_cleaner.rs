//! The page cleaner: its LRU batch (`buf_flush_LRU_list_batch`, buf/buf0flu.cc) and the
//! coordinator's cadence (`buf_flush_page_coordinator_thread`), which decides in which seconds a
//! batch runs at all.

use super::lru::NIL;
use super::BufferPool;
use crate::clock::Micros;
use serde::{Deserialize, Serialize};

/// `BUF_LRU_MIN_LEN`: the page cleaner never evicts below this LRU length.
pub const LRU_MIN_LEN: u32 = 256;

/// What one LRU batch of one instance did.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct BatchReport {
    /// Virtual time of the batch, µs.
    pub at_us: Micros,
    /// Instance number.
    pub instance: u32,
    /// Free frames before the batch.
    pub free_before: u32,
    /// Pages evicted (the refill size k).
    pub evicted: u32,
    /// LRU pages looked at, evicted or passed over.
    pub scanned: u32,
    /// Pages the boundary turned old during the batch (bulk demotion).
    pub turned_old: u64,
    /// Pages the boundary turned young during the batch.
    pub turned_young: u64,
    /// Dirty pages written (through the doublewrite buffer) and evicted when the write
    /// completes (write path only; absent from the JSON when 0).
    #[serde(skip_serializing_if = "is_zero")]
    pub flushed: u32,
}

fn is_zero(v: &u32) -> bool {
    *v == 0
}

impl BufferPool {
    /// `buf_flush_LRU_list_batch` for instance `i`: evicts clean, unfixed pages from the tail, in
    /// tail order, until the free list holds `innodb_lru_scan_depth` frames, `depth` pages were
    /// evicted, or the LRU list is down to 256 pages.
    pub fn lru_batch(&mut self, i: usize, now: Micros) -> BatchReport {
        let scan_depth = self.config().lru_scan_depth;
        self.instances[i].lru.adjust.note_time(now);
        let y0 = self.instances[i].lru.slides.total_young();
        let o0 = self.instances[i].lru.slides.total_old();
        let free_before = self.instances[i].free.len();
        if self.instances[i]
            .flush
            .as_deref()
            .is_some_and(|fl| fl.n_flush(super::flush_list::FlushType::Lru) > 0)
        {
            // buf_flush_start: the previous LRU batch still has writes outstanding.
            return BatchReport {
                at_us: now,
                instance: i as u32,
                free_before,
                ..BatchReport::default()
            };
        }
        let depth = scan_depth.min(self.instances[i].lru.len());
        let mut evicted = 0u32;
        let mut flushed = 0u32;
        let mut scanned = 0u32;
        if let Some(w) = self.write.as_deref_mut() {
            w.cleaner_t = w.cleaner_t.max(now);
        }
        let mut f = self.instances[i].lru.tail();
        while f != NIL
            && evicted + flushed < depth
            && self.instances[i].free.len() < scan_depth
            && self.instances[i].lru.len() > LRU_MIN_LEN
        {
            // The hazard pointer: the scan resumes at the page above, even if `f` goes.
            let prev = self.instances[i].lru.prev(f);
            if self.instances[i].is_replaceable(f, now) {
                self.free_page(i, f);
                evicted += 1;
            } else if self.ready_for_flush(i, f, now) {
                // buf_flush_page_and_try_neighbors(BUF_FLUSH_LRU): written now, evicted in
                // buf_page_io_complete.
                self.flush_page(i, f, super::flush_list::FlushType::Lru);
                flushed += 1;
            }
            scanned += 1;
            f = prev;
        }
        // buf_flush_end: dblwr::force_flush for this instance's LRU buffer.
        self.dblwr_force_flush(super::flush_list::FlushType::Lru, i);
        let inst = &mut self.instances[i];
        inst.stats.lru_batches += 1;
        inst.stats.evicted_by_batch += evicted as u64;
        BatchReport {
            at_us: now,
            instance: i as u32,
            free_before,
            evicted,
            scanned,
            turned_old: inst.lru.slides.total_old() - o0,
            turned_young: inst.lru.slides.total_young() - y0,
            flushed,
        }
    }

    /// One page-cleaner pass over every instance (`pc_request` + `pc_flush_slot` per slot).
    pub fn lru_batch_all(&mut self, now: Micros) -> Vec<BatchReport> {
        (0..self.instances.len())
            .map(|i| self.lru_batch(i, now))
            .collect()
    }
}

impl BufferPool {
    /// One stretch of MariaDB's `buf_flush_LRU_list_batch` for instance `i`, between two releases
    /// of `buf_pool.mutex`: from `start` (or the tail) toward the head, evicts clean, unfixed pages
    /// (buffer- or io-fixed ones are passed over) while the LRU list is longer than
    /// `BUF_LRU_MIN_LEN` and fewer than `innodb_lru_scan_depth` frames are free, for at most
    /// `max_scan` pages. Unlike MySQL's batch there is no count limit on clean evictions
    /// (`max` = `innodb_io_capacity_max` only limits dirty-page writes, of which a read-only
    /// workload has none). Returns (evicted, scanned, where to resume or `NIL`, whether the batch
    /// is over).
    pub fn lru_batch_chunk(
        &mut self,
        i: usize,
        now: Micros,
        start: u32,
        max_scan: u32,
    ) -> (u32, u32, u32, bool) {
        let scan_depth = self.config().lru_scan_depth;
        self.instances[i].lru.adjust.note_time(now);
        let mut f = if start == NIL {
            self.instances[i].lru.tail()
        } else {
            start
        };
        let mut evicted = 0u32;
        let mut scanned = 0u32;
        loop {
            let inst = &self.instances[i];
            if f == NIL || inst.lru.len() <= LRU_MIN_LEN || inst.free.len() >= scan_depth {
                break;
            }
            if scanned >= max_scan {
                self.instances[i].stats.evicted_by_batch += evicted as u64;
                return (evicted, scanned, f, false);
            }
            // buf_pool.lru_hp: the scan resumes at the page above, even if `f` goes.
            let prev = inst.lru.prev(f);
            if inst.is_replaceable(f, now) {
                self.free_page(i, f);
                evicted += 1;
            }
            scanned += 1;
            f = prev;
        }
        let inst = &mut self.instances[i];
        inst.stats.evicted_by_batch += evicted as u64;
        (evicted, scanned, NIL, true)
    }
}

/// MariaDB 10.11.7+'s page cleaner in a read-only workload (`buf_flush_page_cleaner`), as a
/// thread on the virtual clock. One line per rule, each naming the function it mirrors:
///
/// - `buf_LRU_get_free_block` (`got_block`): a user thread that leaves fewer than
///   `innodb_lru_scan_depth / 2` free frames (LRU longer than 256) signals the cleaner unless a
///   batch is running ([`BufferPool::take_cleaner_wake`]).
/// - `buf_flush_page_cleaner`: with no dirty pages (`oldest_lsn == 0`) and
///   `!need_LRU_eviction()`, the cleaner sleeps in `my_cond_wait` with no timeout, so there is
///   no one-second round and no activity gating: it runs only when woken.
/// - `buf_flush_page_cleaner`, woken: if `buf_pool.need_LRU_eviction()` it runs
///   `buf_flush_LRU(srv_max_io_capacity)`, else it goes back to sleep.
/// - `buf_flush_LRU_list_batch`: evicts from the tail until `innodb_lru_scan_depth` frames are
///   free (or the LRU list is down to 256), releasing `buf_pool.mutex` every 32 pages, so user
///   threads allocate between chunks ([`BufferPool::lru_batch_chunk`]).
/// - `buf_flush_page_cleaner`, after the batch (`goto set_almost_idle`, back to the loop top):
///   if `need_LRU_eviction()` still holds it runs another batch at once, else it sleeps.
///
/// The delays are the simulator's (the engine profile's, see [`EngineProfile`]); the code has
/// none.
#[derive(Clone, Debug, Default)]
pub struct DemandCleaner {
    /// The timings it runs with.
    profile: EngineProfile,
    /// When the cleaner thread next does something (`None`: asleep, waiting for a signal).
    pub next: Option<Micros>,
    /// The batch in progress, if any.
    batch: Option<BatchReport>,
    /// Where the batch resumes (`buf_pool.lru_hp`): the frame, and the page it held.
    hp: Option<(u32, super::PageId)>,
}

/// What differs between servers inside the pool, as values: the engine layer above fills it in
/// (MySQL 8.4 or MariaDB 10.11), so the pool never asks which server it is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EngineProfile {
    /// Whether free-list refills are demand-driven (MariaDB 10.11.7+'s wake-up in
    /// `buf_LRU_get_free_block`) rather than coordinator rounds.
    pub demand_refills: bool,
    /// From a user thread's `pthread_cond_signal(&buf_pool.do_flush_list)` to the cleaner
    /// running, µs.
    pub wake_latency_us: Micros,
    /// CPU time of one `buf_LRU_free_page` in a demand batch, µs.
    pub evict_us_per_page: Micros,
    /// `buf_flush_LRU_list_batch` releases `buf_pool.mutex` after this many scanned pages.
    pub mutex_release_every: u32,
    /// MariaDB 10.11.7+'s free-block path (`buf_LRU_get_free_block`): a reader that finds the
    /// free list empty scans at most 100 pages from `buf_pool.lru_scan_itr` if `try_LRU_scan`
    /// is set, else (or if that scan fails) wakes the cleaner and waits for a freed block.
    pub user_lru_scan: bool,
}

impl DemandCleaner {
    /// An idle cleaner with the given timings.
    pub fn new(profile: EngineProfile) -> DemandCleaner {
        DemandCleaner {
            profile,
            ..DemandCleaner::default()
        }
    }

    /// After a user-thread event at `now`: a signal wakes a sleeping cleaner after the wake-up
    /// latency.
    pub fn poll_wake(&mut self, pool: &mut BufferPool, now: Micros) {
        if pool.take_cleaner_wake() && self.next.is_none() {
            self.next = Some(now + self.profile.wake_latency_us);
        }
    }

    /// Runs the cleaner at `now` (its scheduled time): starts a batch if eviction is needed, or
    /// runs the next chunk of the current one. Returns the batch's report when it ends.
    pub fn step(&mut self, pool: &mut BufferPool, now: Micros) -> Option<BatchReport> {
        let EngineProfile {
            evict_us_per_page,
            mutex_release_every,
            ..
        } = self.profile;
        if self.batch.is_none() {
            if !pool.need_lru_eviction(0) {
                // Back to my_cond_wait(&buf_pool.do_flush_list).
                self.next = None;
                return None;
            }
            pool.set_cleaner_active(true);
            let inst = &pool.instances[0];
            self.batch = Some(BatchReport {
                at_us: now,
                instance: 0,
                free_before: inst.free.len(),
                evicted: 0,
                scanned: 0,
                turned_old: inst.lru.slides.total_old(),
                turned_young: inst.lru.slides.total_young(),
                flushed: 0,
            });
            self.hp = None;
        }
        // Resume at the hazard pointer if it still holds the same page and is still old (else
        // at the tail, as buf_pool.lru_hp would after the page moved).
        let start = match self.hp {
            Some((f, page)) if pool.page_at(f) == Some(page) && pool.is_old(f) => f,
            _ => NIL,
        };
        let (evicted, scanned, resume, done) =
            pool.lru_batch_chunk(0, now, start, mutex_release_every);
        let b = self.batch.as_mut().expect("batch in progress");
        b.evicted += evicted;
        b.scanned += scanned;
        let cost = (scanned.max(1) as Micros) * evict_us_per_page;
        if !done {
            self.hp = pool.page_at(resume).map(|p| (resume, p));
            self.next = Some(now + cost);
            return None;
        }
        let mut report = self.batch.take().expect("batch in progress");
        pool.set_cleaner_active(false);
        let inst = &mut pool.instances[0];
        inst.stats.lru_batches += 1;
        report.turned_old = inst.lru.slides.total_old() - report.turned_old;
        report.turned_young = inst.lru.slides.total_young() - report.turned_young;
        // Back at the loop top: another batch at once if still needed, else sleep.
        self.next = pool.need_lru_eviction(0).then_some(now + cost);
        // Signals sent while the batch ran were skipped (page_cleaner_active()).
        pool.take_cleaner_wake();
        Some(report)
    }
}

/// When the page cleaner runs its LRU batches.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Cadence {
    /// A server that sees writes: the activity counter moves every second, so every one-second
    /// round of the coordinator runs a batch.
    EverySecond,
    /// A read-only server: the activity counter moves only on incidental events (a table handler
    /// closed, a stats update), here a Poisson process with the given mean interval; a batch runs
    /// in the round after a second that saw one.
    AfterActivity { mean_interval_ms: u32 },
    /// No LRU batch at all: reads evict one page at a time and the boundary never slides.
    Never,
}

impl Cadence {
    /// Parses `every-second`, `never`, or `after-activity:SECONDS`.
    pub fn parse(s: &str) -> Result<Cadence, String> {
        let s = s.trim();
        match s {
            "every-second" => Ok(Cadence::EverySecond),
            "never" => Ok(Cadence::Never),
            _ => {
                if let Some(v) = s.strip_prefix("after-activity:") {
                    let secs: f64 = v.strip_suffix('s').unwrap_or(v).parse().map_err(|_| {
                        format!("cleaner cadence '{s}': '{v}' is not a number of seconds")
                    })?;
                    if !(0.1..=3600.0).contains(&secs) {
                        return Err(format!(
                            "cleaner cadence '{s}': the mean interval must be 0.1..3600 s"
                        ));
                    }
                    Ok(Cadence::AfterActivity {
                        mean_interval_ms: (secs * 1000.0).round() as u32,
                    })
                } else {
                    Err(format!(
                        "unknown cleaner cadence '{s}': use every-second, never, or after-activity:SECONDS"
                    ))
                }
            }
        }
    }
    /// The inverse of [`Cadence::parse`].
    pub fn label(&self) -> String {
        match self {
            Cadence::EverySecond => "every-second".into(),
            Cadence::Never => "never".into(),
            Cadence::AfterActivity { mean_interval_ms } => {
                format!("after-activity:{}", *mean_interval_ms as f64 / 1000.0)
            }
        }
    }
}

/// The coordinator's activity bookkeeping (`srv_check_activity`, `was_server_active`).
#[derive(Clone, Debug)]
pub struct Coordinator {
    activity_count: u64,
    last_activity: u64,
    was_active: bool,
    /// `is_server_active` as computed at the top of the current round (before its sleep).
    round_is_active: bool,
}

impl Default for Coordinator {
    fn default() -> Self {
        // The coordinator starts with was_server_active = true.
        Coordinator {
            activity_count: 0,
            last_activity: 0,
            was_active: true,
            round_is_active: true,
        }
    }
}

impl Coordinator {
    /// `srv_inc_activity_count`.
    pub fn note_activity(&mut self) {
        self.activity_count += 1;
    }

    /// The one-second timeout of a round. Returns whether this round runs the LRU batches: the
    /// round's `is_server_active` was decided before it slept. Then the next round starts.
    pub fn round_timeout(&mut self) -> bool {
        let run = self.round_is_active;
        self.was_active = self.activity_count != self.last_activity;
        self.last_activity = self.activity_count;
        // Top of the next round.
        self.round_is_active = self.was_active || self.activity_count != self.last_activity;
        run
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_activity_event_gives_one_batch_a_round_later() {
        let mut c = Coordinator::default();
        assert!(c.round_timeout()); // starts active
        assert!(!c.round_timeout());
        assert!(!c.round_timeout());
        c.note_activity();
        assert!(!c.round_timeout()); // this round was decided idle before the event
        assert!(c.round_timeout());
        assert!(!c.round_timeout());
    }

    #[test]
    fn cadence_parses_and_labels() {
        assert_eq!(
            Cadence::parse("every-second").unwrap(),
            Cadence::EverySecond
        );
        assert_eq!(
            Cadence::parse("after-activity:12").unwrap(),
            Cadence::AfterActivity {
                mean_interval_ms: 12_000
            }
        );
        assert_eq!(
            Cadence::parse("after-activity:12").unwrap().label(),
            "after-activity:12"
        );
        assert!(Cadence::parse("sometimes").is_err());
        assert!(Cadence::parse("after-activity:x").is_err());
        assert!(Cadence::parse("after-activity:0").is_err());
    }
}

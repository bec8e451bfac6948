//! Workloads: closed-loop clients whose operations cost virtual time.
//!
//! A client runs one operation, then its next one starts when the first has finished: CPU time
//! plus any wait for a page read. When hot pages miss, each lookup waits for a read and the
//! lookup rate falls, which is the seed's feedback loop.

pub mod sysbench;

use crate::clock::{cost_us, Micros};
use crate::pool::scan_run::{RunDone, RunLimits, ScanPages, TouchTimes};
use crate::pool::{BufferPool, Fetch, FetchMode, PageId};
use crate::rng::Rng;
use serde::{Deserialize, Serialize};

/// How a lookup picks its page among the `hot_pages` pages.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LookupDist {
    /// Every page equally likely (uniform primary keys).
    #[default]
    Uniform,
    /// sysbench's "special" distribution with its defaults (0.4 `--oltp-dist-type=special`,
    /// `--oltp-dist-pct=1`, `--oltp-dist-res=75`; 1.0 `--rand-type=special`, `--rand-spec-pct=1`,
    /// `--rand-spec-res=75`): 75 % of lookups go to the first 1 % of the pages, the other 25 %
    /// uniformly to the rest.
    Special,
}

/// Fetch mode of the scan, as a parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ScanMode {
    /// `Page_fetch::NORMAL`: `SELECT SUM(v) FROM b`, a dump.
    Normal,
    /// `Page_fetch::SCAN`: `SELECT COUNT(*)`, `CHECK TABLE`.
    Scan,
}

impl From<ScanMode> for FetchMode {
    fn from(m: ScanMode) -> FetchMode {
        match m {
            ScanMode::Normal => FetchMode::Normal,
            ScanMode::Scan => FetchMode::Scan,
        }
    }
}

/// Random primary-key point lookups over the first `pages` pages of a table (uniform rows give
/// uniform leaf pages).
#[derive(Clone, Debug)]
pub struct PointLookups {
    /// The table.
    pub space: u32,
    /// The hot set: pages `0..pages` of the table.
    pub pages: u32,
    /// CPU time of one lookup on an idle server, µs.
    pub cpu_us: f64,
}

/// What one operation did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpResult {
    /// The page touched.
    pub page: PageId,
    /// Whether it was already in the pool.
    pub hit: bool,
    /// When the client is ready for its next operation.
    pub next_at: Micros,
}

impl PointLookups {
    /// One lookup at `now`, uniform over the hot set. `slowdown` multiplies the CPU cost (CPU
    /// shared with a scan).
    pub fn step(
        &self,
        pool: &mut BufferPool,
        rng: &mut Rng,
        now: Micros,
        slowdown: f64,
    ) -> OpResult {
        self.step_dist(pool, rng, now, slowdown, LookupDist::Uniform)
    }

    /// The page number of the next lookup, drawn from `dist` over `0..pages`.
    pub fn pick(&self, rng: &mut Rng, dist: LookupDist) -> u32 {
        let n = self.pages.max(1);
        match dist {
            LookupDist::Uniform => rng.below(n),
            LookupDist::Special => {
                // sysbench "special": res = 75 % of the draws on the first pct = 1 % of the
                // values, the rest uniformly over the others.
                let special = (n / 100).max(1);
                if n <= special {
                    rng.below(n)
                } else if rng.below(100) < 75 {
                    rng.below(special)
                } else {
                    special + rng.below(n - special)
                }
            }
        }
    }

    /// [`PointLookups::step`] with the page drawn from `dist`.
    pub fn step_dist(
        &self,
        pool: &mut BufferPool,
        rng: &mut Rng,
        now: Micros,
        slowdown: f64,
        dist: LookupDist,
    ) -> OpResult {
        let (page, fetch) = self.access(pool, rng, now, dist);
        match fetch {
            Fetch::Done { hit, ready_at } => OpResult {
                page,
                hit,
                next_at: ready_at + cost_us(self.cpu_us * slowdown),
            },
            Fetch::NoFreeFrame { retry_at } => OpResult {
                page,
                hit: false,
                next_at: retry_at.max(now + 1),
            },
        }
    }

    /// The page access of one lookup at `now`, for the CPU model: the page and what the fetch
    /// did (the CPU burst of `cpu_us` follows once the page is there).
    pub fn access(
        &self,
        pool: &mut BufferPool,
        rng: &mut Rng,
        now: Micros,
        dist: LookupDist,
    ) -> (PageId, Fetch) {
        let page = PageId {
            space: self.space,
            page_no: self.pick(rng, dist),
        };
        (page, pool.fetch(page, FetchMode::Normal, now))
    }
}

/// Where a table scan is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScanState {
    /// Reading pages.
    Running,
    /// Between two passes.
    Paused,
    /// A one-pass scan that has finished.
    Done,
}

/// A full table scan in page order (`SELECT SUM(v) FROM b`, or a dump), looping or one pass.
#[derive(Clone, Debug)]
pub struct TableScan {
    /// The table.
    pub space: u32,
    /// Its pages.
    pub pages: u32,
    /// NORMAL (a row scan) or SCAN (the parallel reader).
    pub mode: FetchMode,
    /// Touches per page: a row scan restores its cursor every few rows, so each page is
    /// accessed several times within a few microseconds.
    pub touches_per_page: u32,
    /// CPU time per page, µs.
    pub cpu_per_page_us: f64,
    /// Pause between passes, µs.
    pub pause_us: Micros,
    /// Loop back to the first page after the last, or stop.
    pub looping: bool,
    /// Next page to read.
    pub cursor: u32,
    /// Passes completed.
    pub passes: u32,
    /// Running, paused or done.
    pub state: ScanState,
}

impl TableScan {
    /// A scan that starts at page 0.
    pub fn new(space: u32, pages: u32, mode: FetchMode) -> Self {
        TableScan {
            space,
            pages,
            mode,
            touches_per_page: 8,
            cpu_per_page_us: 18.0,
            pause_us: 0,
            looping: true,
            cursor: 0,
            passes: 0,
            state: ScanState::Running,
        }
    }

    /// CPU time of one page, whole µs (as [`TableScan::step`] rounds it).
    pub fn page_cost_us(&self) -> Micros {
        cost_us(self.cpu_per_page_us)
    }

    /// What [`TableScan::step`] does for each page of a run of resident pages, the first at
    /// `at`, in one loop (`BufferPool::scan_resident_run`); stops before any page that needs
    /// more (a miss, a read-ahead border page, the table's last page) or when `lim` says so.
    /// Reads nothing unless the scan is running.
    #[inline]
    pub fn run_resident(&mut self, pool: &mut BufferPool, at: Micros, lim: &RunLimits) -> RunDone {
        if self.state != ScanState::Running {
            return RunDone {
                pages: 0,
                cursor: self.cursor,
                next_at: at,
                now: lim.now,
            };
        }
        let scan = ScanPages {
            space: self.space,
            pages: self.pages,
            mode: self.mode,
            touches: self.touches_per_page,
            cost: self.page_cost_us(),
        };
        let done = pool.scan_resident_run(&scan, self.cursor, at, lim);
        self.cursor = done.cursor;
        done
    }

    /// Reads the next page at `now` (all its touches), or ends a pause. Returns the op (None
    /// when it only resumed from a pause) and when to call again (`None`: done for good).
    #[inline]
    pub fn step(
        &mut self,
        pool: &mut BufferPool,
        now: Micros,
    ) -> (Option<OpResult>, Option<Micros>) {
        match self.state {
            ScanState::Done => return (None, None),
            ScanState::Paused => {
                self.state = ScanState::Running;
                return (None, Some(now));
            }
            ScanState::Running => {}
        }
        let page = PageId {
            space: self.space,
            page_no: self.cursor,
        };
        let touches = self.touches_per_page.max(1);
        let (hit, start) = match pool.fetch(page, self.mode, now) {
            Fetch::Done { hit, ready_at } => (hit, ready_at),
            Fetch::NoFreeFrame { retry_at } => return (None, Some(retry_at.max(now + 1))),
        };
        // Cursor restores spread over the page's CPU time; the page is in the pool now, so a
        // touch never misses. (Integer µs: the per-page cost is rounded once.)
        let cost = self.page_cost_us();
        let times = TouchTimes::new(cost, touches);
        pool.fetch_repeated(page, self.mode, touches - 1, |k| times.at(start, k));
        let next = start + cost;
        self.cursor += 1;
        let mut next_at = Some(next);
        if self.cursor >= self.pages {
            self.cursor = 0;
            self.passes += 1;
            if !self.looping {
                self.state = ScanState::Done;
                next_at = None;
            } else if self.pause_us > 0 {
                self.state = ScanState::Paused;
                next_at = Some(next + self.pause_us);
            }
        }
        (
            Some(OpResult {
                page,
                hit,
                next_at: next,
            }),
            next_at,
        )
    }
}

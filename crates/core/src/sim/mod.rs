//! The simulation: a virtual clock, an event loop over closed-loop clients, the page cleaner's
//! one-second rounds, the activity process that gates them, and the sampler.
//!
//! Time 0 is the start of the preload (the table load of a warm start, or the filler read of a
//! cold start); the warm-up starts at [`EPOCH`]; reported times are seconds since then.

mod fast;
pub mod prefix;
pub mod rates;
mod sampler;
use sampler::ScanMark;
mod write;

pub use write::{run_write, CLEANER_WAKE_US, WAKE_INTERVAL};

use crate::clock::{secs_f, to_secs, Micros, SEC};
use crate::cpu::Cpu;
use crate::metrics::{RunReport, Sample};
use crate::pool::page_cleaner::{BatchReport, Cadence, Coordinator, DemandCleaner};
use crate::pool::scan_run::RunLimits;
use crate::pool::{BufferPool, Fetch, PageId};
use crate::rng::Rng;
use crate::scenario::{Params, Start};
use crate::workload::{PointLookups, ScanState, TableScan};

/// When the warm-up starts, after the preload.
pub const EPOCH: Micros = SEC;
/// Space numbers of the three tables.
pub const HOT_SPACE: u32 = 0;
/// The scanned table.
pub const SCAN_SPACE: u32 = 1;
/// The filler table of a cold start.
pub const FILLER_SPACE: u32 = 2;

/// What one step of the simulation did.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// A lookup client touched a hot page.
    Lookup {
        thread: u32,
        page: PageId,
        hit: bool,
    },
    /// The scan read one page (all its touches).
    ScanPage { page: PageId, hit: bool },
    /// The scan resumed after a pause, or the scan phase began.
    ScanResume,
    /// A page-cleaner round ran LRU batches.
    LruBatch(Vec<BatchReport>),
    /// A page-cleaner round with no batch (the server was idle).
    CleanerIdle,
    /// Something bumped the activity counter.
    Activity,
    /// A sample was taken.
    Sample,
    /// CPU bursts finished and their threads went on (a write-path run's clients and scan).
    Work,
    /// The run is over.
    End,
}

/// A running simulation.
#[derive(Clone, Debug)]
pub struct Simulation {
    params: Params,
    /// The buffer pool.
    pub pool: BufferPool,
    now: Micros,
    end: Micros,
    scan_start: Micros,
    rng: Rng,
    /// A separate stream for the activity process, so that changing its interval leaves the
    /// lookups' random pages unchanged (common random numbers for calibration).
    activity_rng: Rng,
    lookups: PointLookups,
    lookup_next: Vec<Micros>,
    scan: TableScan,
    scan_next: Option<Micros>,
    coordinator: Coordinator,
    tick_next: Option<Micros>,
    activity_next: Option<Micros>,
    sample_next: Micros,
    samples: Vec<Sample>,
    batches: Vec<BatchReport>,
    // Interval counters for the sampler.
    iv_lookups: u64,
    iv_hits: u64,
    iv_scan_pages: u64,
    iv_start: Micros,
    // Phase totals.
    lookups_warmup: u64,
    lookups_scan: u64,
    scan_pages: u64,
    scan_mark: Option<ScanMark>,
    scan_end_mark: Option<ScanMark>,
    events: u64,
    /// MariaDB 10.11.7+'s demand-driven page cleaner (asleep, never woken, for MySQL).
    demand: DemandCleaner,
    /// Processor sharing over `Params::cpus` CPUs (`None`: the seed-000 model). Thread
    /// `lookup_threads` is the scan.
    cpu: Option<Cpu>,
    /// In the CPU model: when a paused scan resumes.
    scan_resume_at: Option<Micros>,
    /// A write-path run's clients, windows and counters (`None`: a read-only run).
    write: Option<Box<write::WritePath>>,
}

impl Simulation {
    /// Builds the pool and the workloads, and runs the preload. `params` must be valid.
    pub fn new(params: &Params) -> Result<Simulation, String> {
        params.validate()?;
        // Rates entered as inputs (idle_lookups_per_s, idle_scan_pages_per_s) become CPU times.
        let p = rates::derived(params)?;
        let cfg = p.pool_config();
        let total_frames = cfg.frames_per_instance * cfg.instances;
        let filler_pages = if p.start == Start::Cold {
            total_frames
        } else {
            1
        };
        let pool = BufferPool::new(
            cfg,
            &[p.hot_table_pages, p.scan_table_pages(), filler_pages],
        );
        let mut scan = TableScan::new(
            SCAN_SPACE,
            p.scan_table_pages(),
            p.engine.fetch_mode(p.scan_mode),
        );
        scan.touches_per_page = p.scan_touches_per_page;
        scan.cpu_per_page_us = p.scan_cpu_us_per_page;
        scan.pause_us = p.scan_pause_ms as Micros * 1000;
        scan.looping = p.scan_loop;
        let scan_start = EPOCH + p.warmup_s as Micros * SEC;
        let end = scan_start + p.scan_s as Micros * SEC;
        let mut activity_rng = Rng::new(p.seed ^ 0xAC71_F17F_00D5_EED5);
        let activity_next = match p.cleaner {
            Cadence::AfterActivity { mean_interval_ms } if p.engine.has_cadence() => {
                Some(EPOCH + secs_f(activity_rng.exp(mean_interval_ms as f64 / 1000.0)))
            }
            _ => None,
        };
        let mut sim = Simulation::base(p, pool, scan, end, scan_start);
        sim.activity_rng = activity_rng;
        sim.activity_next = activity_next;
        sim.lookups = PointLookups {
            space: HOT_SPACE,
            pages: sim.params.hot_pages,
            cpu_us: sim.params.lookup_cpu_us,
        };
        sim.lookup_next = vec![EPOCH; sim.params.lookup_threads as usize];
        sim.scan_next = (sim.params.scan_s > 0).then_some(scan_start);
        sim.tick_next = (sim.params.cleaner != Cadence::Never && sim.params.engine.has_cadence())
            .then_some(EPOCH);
        sim.sample_next = EPOCH;
        sim.demand = DemandCleaner::new(p_engine_profile(&sim.params));
        sim.pool.set_engine_profile(&p_engine_profile(&sim.params));
        sim.preload();
        sim.demand.poll_wake(&mut sim.pool, sim.now);
        if sim.params.cpus > 0 {
            // Processor sharing: every thread starts with an empty burst when it first runs.
            let n = sim.params.lookup_threads as usize;
            let mut cpu = Cpu::new(sim.params.cpus, n + 1, EPOCH);
            for t in 0..n {
                cpu.submit(t, EPOCH, 0.0);
            }
            if sim.scan_next.is_some() {
                cpu.submit(n, sim.scan_start, 0.0);
            }
            sim.lookup_next.clear();
            sim.cpu = Some(cpu);
        }
        Ok(sim)
    }

    /// A simulation with nothing scheduled but the sampler at [`EPOCH`]: the constructors
    /// ([`Simulation::new`], [`Simulation::new_write`]) add their actors.
    fn base(
        params: Params,
        pool: BufferPool,
        scan: TableScan,
        end: Micros,
        scan_start: Micros,
    ) -> Simulation {
        Simulation {
            lookups: PointLookups {
                space: HOT_SPACE,
                pages: 0,
                cpu_us: 0.0,
            },
            lookup_next: Vec::new(),
            scan_next: None,
            scan,
            coordinator: Coordinator::default(),
            tick_next: None,
            activity_next: None,
            sample_next: EPOCH,
            samples: Vec::new(),
            batches: Vec::new(),
            iv_lookups: 0,
            iv_hits: 0,
            iv_scan_pages: 0,
            iv_start: EPOCH,
            lookups_warmup: 0,
            lookups_scan: 0,
            scan_pages: 0,
            scan_mark: None,
            scan_end_mark: None,
            events: 0,
            demand: DemandCleaner::new(p_engine_profile(&params)),
            cpu: None,
            scan_resume_at: None,
            write: None,
            pool,
            now: 0,
            end,
            scan_start,
            rng: Rng::new(params.seed),
            activity_rng: Rng::new(params.seed ^ 0xAC71_F17F_00D5_EED5),
            params,
        }
    }

    /// The parameters of this run.
    pub fn params(&self) -> &Params {
        &self.params
    }
    /// Virtual time now, µs since the preload started.
    pub fn now(&self) -> Micros {
        self.now
    }
    /// Seconds since the warm-up started.
    pub fn t_s(&self) -> f64 {
        to_secs(self.now) - to_secs(EPOCH)
    }
    /// When the run ends, µs.
    pub fn end(&self) -> Micros {
        self.end
    }
    /// When the scan phase starts, µs.
    pub fn scan_start(&self) -> Micros {
        self.scan_start
    }
    /// Events processed so far.
    pub fn events(&self) -> u64 {
        self.events
    }
    /// Samples so far.
    pub fn samples(&self) -> &[Sample] {
        &self.samples
    }
    /// LRU batches that evicted something, so far.
    pub fn batches(&self) -> &[BatchReport] {
        &self.batches
    }
    /// Whether a scan pass is running now (not paused, not finished, scan phase begun).
    pub fn scan_running(&self) -> bool {
        self.now >= self.scan_start
            && self.scan_next.is_some()
            && self.scan.state == ScanState::Running
    }
    /// Whether the run is over.
    pub fn finished(&self) -> bool {
        self.now >= self.end
    }

    /// The table load of a warm start (pages created at the head, scanned table first, then the
    /// hot table, and the free list topped up by the page cleaner as on an active server), or the
    /// filler read of a cold start (pages read in order into the midpoint).
    fn preload(&mut self) {
        match self.params.start {
            Start::Warm => {
                let n_scan = self.params.scan_table_pages();
                let n_hot = self.params.hot_table_pages;
                let pages = (0..n_scan)
                    .map(|page_no| PageId {
                        space: SCAN_SPACE,
                        page_no,
                    })
                    .chain((0..n_hot).map(|page_no| PageId {
                        space: HOT_SPACE,
                        page_no,
                    }));
                warm_load(&mut self.pool, pages);
            }
            // After a restart the pool is empty: nothing to load.
            Start::Restart => {}
            Start::Cold => {
                let n = self.pool.spaces()[FILLER_SPACE as usize].n_pages;
                for page_no in 0..n {
                    let t = 1 + page_no as u64 * (EPOCH / 2) / n.max(1) as u64;
                    self.pool.fetch(
                        PageId {
                            space: FILLER_SPACE,
                            page_no,
                        },
                        crate::pool::FetchMode::Normal,
                        t,
                    );
                }
            }
        }
        self.now = EPOCH;
    }

    /// Processes the next event and returns what it was. (Transitions with nothing to show, a
    /// CPU burst becoming runnable or a page-cleaner chunk in the middle of a batch, are
    /// processed on the way.)
    pub fn step(&mut self) -> Event {
        loop {
            if let Some(ev) = self.step_inner() {
                return ev;
            }
        }
    }

    /// The earliest actor's time and which actor it is (0 sample, 1 tick, 2 activity, 3 scan,
    /// 4+ lookup thread, [`DEMAND`], [`CPU`]); ties go to the sampler, the cleaner, activity,
    /// the scan, then lookup threads in order.
    #[inline]
    fn earliest(&self) -> (Micros, u32) {
        let mut best = self.sample_next;
        let mut which = 0u32;
        if let Some(t) = self.tick_next {
            if t < best {
                best = t;
                which = 1;
            }
        }
        if let Some(t) = self.activity_next {
            if t < best {
                best = t;
                which = 2;
            }
        }
        // In the CPU model the scan is one of the CPU's threads, not an event of its own.
        if let Some(t) = self.scan_next.filter(|_| self.cpu.is_none()) {
            if t < best {
                best = t;
                which = 3;
            }
        }
        if self.cpu.is_none() {
            let (t, i) = self.earliest_lookup();
            if t < best {
                best = t;
                which = 4 + i as u32;
            }
        }
        if let Some(t) = self.demand.next {
            if t < best {
                best = t;
                which = DEMAND;
            }
        }
        if let Some(t) = self.cpu.as_ref().and_then(Cpu::next_event) {
            if t < best {
                best = t;
                which = CPU;
            }
        }
        (best, which)
    }

    fn step_inner(&mut self) -> Option<Event> {
        let (best, which) = self.earliest();
        if best >= self.end {
            if self.now < self.end {
                self.now = self.end;
                if self.write.is_none() {
                    self.take_sample();
                }
            }
            return Some(Event::End);
        }
        self.now = self.now.max(best);
        if self.write.is_some() {
            return Some(self.write_event(which));
        }
        if which == DEMAND {
            let report = self.demand.step(&mut self.pool, best)?;
            self.events += 1;
            if report.evicted > 0 {
                self.batches.push(report.clone());
            }
            return Some(Event::LruBatch(vec![report]));
        }
        if which == CPU {
            let ev = self.cpu_event(best)?;
            self.events += 1;
            return Some(ev);
        }
        self.events += 1;
        Some(match which {
            0 => {
                self.take_sample();
                self.sample_next += self.params.sample_ms as Micros * 1000;
                Event::Sample
            }
            1 => {
                if self.params.cleaner == Cadence::EverySecond {
                    self.coordinator.note_activity();
                }
                self.tick_next = Some(best + SEC);
                if self.coordinator.round_timeout() {
                    let reports = self.pool.lru_batch_all(best);
                    for r in &reports {
                        if r.evicted > 0 {
                            self.batches.push(r.clone());
                        }
                    }
                    Event::LruBatch(reports)
                } else {
                    Event::CleanerIdle
                }
            }
            2 => {
                self.coordinator.note_activity();
                if let Cadence::AfterActivity { mean_interval_ms } = self.params.cleaner {
                    let dt = secs_f(self.activity_rng.exp(mean_interval_ms as f64 / 1000.0)).max(1);
                    self.activity_next = Some(best + dt);
                }
                Event::Activity
            }
            3 => match self.scan_event(best) {
                Some(op) => Event::ScanPage {
                    page: op.page,
                    hit: op.hit,
                },
                None => Event::ScanResume,
            },
            w => self.lookup_event(best, (w - 4) as usize),
        })
    }

    /// Lookup thread `thread`'s event at `at` (its time, the earliest actor's): one point
    /// lookup, its counters and the thread's next time. The caller has advanced the clock and
    /// counted the event.
    #[inline(always)]
    fn lookup_event(&mut self, at: Micros, thread: usize) -> Event {
        let slowdown = if self.scan_running() {
            1.0 + self.params.scan_interference
        } else {
            1.0
        };
        let op = self.lookups.step_dist(
            &mut self.pool,
            &mut self.rng,
            at,
            slowdown,
            self.params.lookup_dist,
        );
        self.demand.poll_wake(&mut self.pool, at);
        self.lookup_next[thread] = op.next_at;
        self.iv_lookups += 1;
        if op.hit {
            self.iv_hits += 1;
        }
        if at >= self.scan_start && self.params.scan_s > 0 {
            self.lookups_scan += 1;
        } else {
            self.lookups_warmup += 1;
        }
        Event::Lookup {
            thread: thread as u32,
            page: op.page,
            hit: op.hit,
        }
    }

    /// The earliest lookup thread's time and number (the first of equal times), if any.
    #[inline(always)]
    fn earliest_lookup(&self) -> (Micros, usize) {
        let mut best = (Micros::MAX, usize::MAX);
        for (i, &t) in self.lookup_next.iter().enumerate() {
            if t < best.0 {
                best = (t, i);
            }
        }
        best
    }

    /// The scan's event at `at` (seed-000 model): one page, or the end of a pause (`None`).
    #[inline(always)]
    fn scan_event(&mut self, at: Micros) -> Option<crate::workload::OpResult> {
        if self.scan_mark.is_none() {
            self.scan_mark = Some(self.mark());
        }
        let (op, next) = self.scan.step(&mut self.pool, at);
        self.demand.poll_wake(&mut self.pool, at);
        self.scan_next = next;
        if op.is_some() {
            self.iv_scan_pages += 1;
            self.scan_pages += 1;
        }
        op
    }

    /// Runs the scan's events and the lookups between them back to back while no other
    /// actor's comes first and virtual time is before `until`: what calling
    /// [`Simulation::step`] while `now < until` does for each of them, without choosing the
    /// next actor anew each time (nothing but the scan and the lookups moves meanwhile: the
    /// sampler's, the cleaner's and activity's times are fixed until their own events;
    /// MariaDB's cleaner wake-up, which a page can schedule, is looked at after every event).
    /// The ties go as in `step_inner`: the sampler, the cleaner and activity before the scan,
    /// the scan before lookups, lookups in thread order before the demand cleaner.
    /// `tests/fast_paths.rs` compares whole runs with plain stepping.
    /// Returns how many events it ran, at most `max`. No event at `limit` or later runs (the
    /// last event may pass `until`, as the step that crosses it does).
    fn scan_burst(&mut self, until: Micros, max: u64, limit: Micros) -> u64 {
        if self.write.is_some() || self.cpu.is_some() {
            return 0;
        }
        // The scan goes first while its time is below `before` and at most `at_most`.
        let mut before = self.sample_next.min(self.end).min(limit);
        for t in [self.tick_next, self.activity_next].into_iter().flatten() {
            before = before.min(t);
        }
        let (mut at_most, mut thread) = self.earliest_lookup();
        let mut n = 0;
        while let Some(t) = self.scan_next {
            if n >= max || self.now >= until {
                break;
            }
            if t > at_most {
                // A lookup comes first (step_inner's choice: below the sampler's, the
                // cleaner's, activity's times and the end; at most the demand cleaner's).
                if at_most >= before || self.demand.next.is_some_and(|d| d < at_most) {
                    break;
                }
                self.now = self.now.max(at_most);
                self.events += 1;
                self.lookup_event(at_most, thread);
                n += 1;
                (at_most, thread) = self.earliest_lookup();
                continue;
            }
            if t >= before || self.demand.next.is_some_and(|d| d < t) {
                break;
            }
            if self.scan.state == ScanState::Running && !self.pool.cleaner_wake_pending() {
                // A run of resident pages in one loop, each page what `scan_event` does for it
                // (no page of it wakes the cleaner, so its poll after each page does nothing),
                // each later page's event checked as this loop checks it.
                if self.scan_mark.is_none() {
                    self.scan_mark = Some(self.mark());
                }
                let after_demand = self
                    .demand
                    .next
                    .map_or(Micros::MAX, |d| d.saturating_add(1));
                let lim = RunLimits {
                    bound: before.min(at_most.saturating_add(1)).min(after_demand),
                    until,
                    now: self.now,
                    max: max - n,
                };
                let run = self.scan.run_resident(&mut self.pool, t, &lim);
                if run.pages > 0 {
                    debug_assert!(!self.pool.cleaner_wake_pending());
                    self.now = run.now;
                    self.events += run.pages;
                    self.iv_scan_pages += run.pages;
                    self.scan_pages += run.pages;
                    self.scan_next = Some(run.next_at);
                    n += run.pages;
                    continue;
                }
            }
            self.now = self.now.max(t);
            self.events += 1;
            self.scan_event(t);
            n += 1;
        }
        n
    }

    /// The CPU model's event at `t`: a burst became runnable (nothing to show), or one finished
    /// and its thread starts its next operation.
    fn cpu_event(&mut self, t: Micros) -> Option<Event> {
        let n = self.params.lookup_threads as usize;
        let cpu = self.cpu.as_mut().expect("CPU model");
        cpu.advance(t);
        let thread = cpu.take_completed()?;
        if thread < n {
            let (page, fetch) =
                self.lookups
                    .access(&mut self.pool, &mut self.rng, t, self.params.lookup_dist);
            self.demand.poll_wake(&mut self.pool, t);
            let cpu = self.cpu.as_mut().expect("CPU model");
            let hit = match fetch {
                Fetch::Done { hit, ready_at } => {
                    cpu.submit(thread, ready_at, self.lookups.cpu_us.round().max(1.0));
                    hit
                }
                Fetch::NoFreeFrame { retry_at } => {
                    cpu.submit(thread, retry_at.max(t + 1), 0.0);
                    false
                }
            };
            self.iv_lookups += 1;
            if hit {
                self.iv_hits += 1;
            }
            if t >= self.scan_start && self.params.scan_s > 0 {
                self.lookups_scan += 1;
            } else {
                self.lookups_warmup += 1;
            }
            return Some(Event::Lookup {
                thread: thread as u32,
                page,
                hit,
            });
        }
        // The scan thread.
        match self.scan.state {
            ScanState::Done => {
                self.scan_next = None;
                None
            }
            ScanState::Paused => {
                let cpu = self.cpu.as_mut().expect("CPU model");
                if self.scan_resume_at.is_none() {
                    let at = t + self.scan.pause_us;
                    self.scan_resume_at = Some(at);
                    cpu.submit(n, at, 0.0);
                    return None;
                }
                self.scan_resume_at = None;
                self.scan.step(&mut self.pool, t);
                self.cpu.as_mut().expect("CPU model").submit(n, t, 0.0);
                Some(Event::ScanResume)
            }
            ScanState::Running => {
                if self.scan_mark.is_none() {
                    self.scan_mark = Some(self.mark());
                }
                let cost = self.scan.page_cost_us();
                let (op, next) = self.scan.step(&mut self.pool, t);
                self.demand.poll_wake(&mut self.pool, t);
                let cpu = self.cpu.as_mut().expect("CPU model");
                match op {
                    Some(op) => {
                        // The page was there at op.next_at - cost; its CPU follows.
                        cpu.submit(n, op.next_at - cost, cost as f64);
                        self.iv_scan_pages += 1;
                        self.scan_pages += 1;
                        Some(Event::ScanPage {
                            page: op.page,
                            hit: op.hit,
                        })
                    }
                    None => {
                        // No free frame: retry.
                        cpu.submit(n, next.unwrap_or(t + 1).max(t + 1), 0.0);
                        None
                    }
                }
            }
        }
    }

    /// Runs until virtual time `t` (µs) or the end, whichever is first.
    pub fn run_until(&mut self, t: Micros) {
        let until = t.min(self.end);
        while self.now < until {
            self.scan_burst(until, u64::MAX, Micros::MAX);
            if self.now >= until {
                break;
            }
            if self.step() == Event::End {
                break;
            }
        }
    }

    /// Runs to the end.
    pub fn run_to_end(&mut self) {
        loop {
            self.scan_burst(Micros::MAX, u64::MAX, Micros::MAX);
            if self.step() == Event::End {
                break;
            }
        }
    }

    /// What `max` calls of [`Simulation::step`] do, stopping early at the end (for a caller
    /// that runs a slice of events at a time, as the page's worker does). Returns whether the
    /// run is over.
    pub fn run_events(&mut self, max: u64) -> bool {
        let mut left = max;
        while left > 0 {
            left -= self.scan_burst(Micros::MAX, left, Micros::MAX);
            if left == 0 {
                break;
            }
            left -= 1;
            if self.step() == Event::End {
                return true;
            }
        }
        false
    }
}

/// The warm start's table load: `pages` created in order over the preload (each at the head, so
/// the first ends up at the tail), then the page cleaner's LRU batch tops the free list up as an
/// active server's leaves it. A page listed twice is created once.
fn warm_load(pool: &mut BufferPool, pages: impl IntoIterator<Item = PageId>) {
    let pages: Vec<PageId> = pages.into_iter().collect();
    let k = pages.len().max(1) as u64;
    for (j, page) in pages.into_iter().enumerate() {
        let t = 1 + j as u64 * (EPOCH - 2) / k;
        if !pool.contains(page) {
            pool.create(page, t);
        }
    }
    pool.lru_batch_all(EPOCH - 1);
}

/// Event kinds beyond the seed-000 ones (`which` in `step_inner`).
const DEMAND: u32 = u32::MAX - 1;
const CPU: u32 = u32::MAX;

fn p_engine_profile(p: &Params) -> crate::pool::EngineProfile {
    p.engine.profile(p.cleaner == Cadence::Never)
}

/// Builds and runs a simulation to the end, returning its report.
pub fn run(params: &Params) -> Result<RunReport, String> {
    let mut sim = Simulation::new(params)?;
    sim.run_to_end();
    Ok(sim.report())
}

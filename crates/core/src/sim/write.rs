//! The write path's actors in the one event loop ([`Simulation`]): sysbench OLTP clients
//! (closed loop, processor sharing over `cpus`) against a pool with dirty pages, the flush list,
//! the doublewrite buffer and a device; the page cleaner's coordinator rounds (LRU batch, then
//! the adaptive flush-list batch) and its wake-ups by user threads that found no clean victim; a
//! concurrent scan; the sampler of the write report.
//!
//! A write-path run is a [`Simulation`] built by [`Simulation::new_write`]: the same clock, the
//! same choice of the next actor, the same CPU model and page-cleaner coordinator as a
//! read-only run; the actors below replace the lookup clients' and the sampler's handlers.

use crate::clock::{to_secs, Micros, MS, SEC};
use crate::cpu::Cpu;
use crate::io::{DeviceModel, DeviceStats};
use crate::metrics::WriteReport;
use crate::pool::doublewrite::DblwrStats;
use crate::pool::flush::WriteStats;
use crate::pool::{BufferPool, Fetch, FetchMode, PageId, PoolConfig};
use crate::rng::Rng;
use crate::scenario::write::WriteParams;
use crate::workload::sysbench::{Step, Sysbench};
use crate::workload::TableScan;

use super::{Event, Simulation, EPOCH};

/// `INNOBASE_WAKE_INTERVAL`: every 32nd row write bumps the activity counter
/// (`innobase_active_small`).
pub const WAKE_INTERVAL: u64 = 32;
/// Delay between a user thread setting `buf_flush_event` and the cleaner running, µs.
pub const CLEANER_WAKE_US: Micros = 20;

/// Space numbers of a write-path run: the sysbench table's primary key, its secondary index,
/// the scanned table.
pub const PK_SPACE: u32 = 0;
/// The secondary index `k`.
pub const SEC_SPACE: u32 = 1;
/// The table scanned beside the clients.
pub const WRITE_SCAN_SPACE: u32 = 2;

#[derive(Clone, Debug, Default)]
struct Client {
    steps: Vec<Step>,
    pos: usize,
    trx_start: Micros,
}

#[derive(Clone, Debug, Default)]
struct Window {
    trx: u64,
    lat_sum: u64,
    hot_sum: f64,
    samples: u64,
}

/// The state only a write-path run has.
#[derive(Clone, Debug)]
pub(super) struct WritePath {
    p: WriteParams,
    bench: Sysbench,
    clients: Vec<Client>,
    has_scan: bool,
    /// When the coordinator's current one-second loop started.
    loop_start: Micros,
    last_pages: u64,
    wake_pending: bool,
    base_from: Micros,
    scan_from: Micros,
    row_ops: u64,
    base: Window,
    with_scan: Window,
    page_waits: u64,
    log_waits: u64,
    free_sum: f64,
    dirty_sum: f64,
    n_samples: u64,
    age_max: f64,
    snap: Option<(DblwrStats, DeviceStats, WriteStats)>,
    /// Check the pool's invariants after every event (tests).
    pub(super) validate_each_event: bool,
}

impl WritePath {
    /// The measurement window time `t` falls in: the baseline before the scan, or the stretch
    /// with the scan running; `None` in the warm-up.
    fn window_at(&mut self, t: Micros, scan_start: Micros) -> Option<&mut Window> {
        if t > self.scan_from && self.has_scan {
            Some(&mut self.with_scan)
        } else if t > self.base_from && t <= scan_start {
            Some(&mut self.base)
        } else {
            None
        }
    }
}

impl Simulation {
    /// Builds a write-path run: the pool with its write path and device, preloaded (warm,
    /// clean); the clients (and the scan, at its start) on the CPU model from [`EPOCH`].
    pub fn new_write(p: &WriteParams) -> Result<Simulation, String> {
        p.validate()?;
        let cfg = PoolConfig::default()
            .with_frames(p.frames_per_instance, p.instances)
            .with_lru(p.old_blocks_pct, p.old_blocks_time, p.lru_scan_depth)
            .with_what_ifs(p.what_if);
        let mut pool = BufferPool::new(
            cfg,
            &[p.table_pages, p.sec_pages, p.scan_table_pages.max(1)],
        );
        pool.enable_write_path(
            p.write_config(),
            Box::new(crate::io::Device::new(
                DeviceModel::by_name(&p.device).expect("validated"),
            )),
        );
        let bench = Sysbench {
            mix: p.mix,
            pk_space: PK_SPACE,
            pk_pages: p.table_pages,
            sec_space: SEC_SPACE,
            sec_pages: p.sec_pages,
            dist: p.dist,
        };
        let n = p.threads as usize;
        let has_scan = p.scan_table_pages > 0 && p.scan_s > 0;
        let mut scan = TableScan::new(
            WRITE_SCAN_SPACE,
            p.scan_table_pages.max(1),
            FetchMode::Normal,
        );
        scan.cpu_per_page_us = p.scan_cpu_us_per_page;
        let base_from = EPOCH + p.warmup_s as Micros * SEC;
        let scan_start = base_from + p.base_s as Micros * SEC;
        let end = scan_start
            + if has_scan {
                p.scan_s as Micros * SEC
            } else {
                0
            };
        let scan_from = scan_start + (end - scan_start) / 2;
        let mut cpu = Cpu::new(p.cpus, n + 1, EPOCH);
        let write = WritePath {
            p: p.clone(),
            bench,
            clients: vec![Client::default(); n],
            has_scan,
            loop_start: EPOCH - SEC,
            last_pages: 0,
            wake_pending: false,
            base_from,
            scan_from,
            row_ops: 0,
            base: Window::default(),
            with_scan: Window::default(),
            page_waits: 0,
            log_waits: 0,
            free_sum: 0.0,
            dirty_sum: 0.0,
            n_samples: 0,
            age_max: 0.0,
            snap: None,
            validate_each_event: false,
        };
        let mut sim = Simulation::base(
            crate::scenario::Params {
                seed: p.seed,
                ..crate::scenario::Params::default()
            },
            pool,
            scan,
            end,
            scan_start,
        );
        sim.tick_next = Some(EPOCH);
        sim.sample_next = EPOCH + SEC;
        sim.write = Some(Box::new(write));
        sim.preload_write();
        for t in 0..n {
            cpu.submit(t, EPOCH, 0.0);
        }
        if has_scan {
            cpu.submit(n, scan_start, 0.0);
        }
        sim.cpu = Some(cpu);
        Ok(sim)
    }

    /// The write path's parameters (`None` in a read-only run).
    pub fn write_params(&self) -> Option<&WriteParams> {
        self.write.as_ref().map(|w| &w.p)
    }

    /// Check the pool's invariants after every event of a write-path run (tests).
    pub fn set_validate_each_event(&mut self, on: bool) {
        if let Some(w) = self.write.as_mut() {
            w.validate_each_event = on;
        }
    }

    /// One event of a write-path run; false at the end. Errors when a pool invariant is
    /// broken and [`Simulation::set_validate_each_event`] is on.
    pub fn step_write(&mut self) -> Result<bool, String> {
        if self.step() == Event::End {
            return Ok(false);
        }
        if self.write.as_ref().is_some_and(|w| w.validate_each_event) {
            self.pool.validate()?;
        }
        Ok(true)
    }

    /// A warm, clean pool: random table pages first (they end up at the tail), then the
    /// secondary index, then the hot set at the head; the free list topped up as an active
    /// server's page cleaner leaves it.
    fn preload_write(&mut self) {
        let w = self.write.as_ref().expect("write path");
        let total = self.pool.total_frames() as u64;
        let hot = w.bench.hot_pages();
        let mut pages: Vec<PageId> = Vec::new();
        let mut rng = Rng::new(w.p.seed ^ 0x5EED_0001);
        let n_sec = w.p.sec_pages as u64;
        let n_rest = total.saturating_sub(n_sec + hot as u64);
        for _ in 0..n_rest {
            let page_no = hot + rng.below(w.p.table_pages - hot);
            pages.push(PageId {
                space: PK_SPACE,
                page_no,
            });
        }
        for page_no in 0..w.p.sec_pages {
            pages.push(PageId {
                space: SEC_SPACE,
                page_no,
            });
        }
        for page_no in 0..hot {
            pages.push(PageId {
                space: PK_SPACE,
                page_no,
            });
        }
        super::warm_load(&mut self.pool, pages);
        self.now = EPOCH;
    }

    /// A write-path event at `self.now`: `which` is the sampler (0), the page cleaner (1) or
    /// the CPU model (anything else).
    pub(super) fn write_event(&mut self, which: u32) -> Event {
        let t = self.now;
        self.pool.complete_writes(t);
        let w = self.write.as_mut().expect("write path");
        if w.snap.is_none() && t >= w.base_from {
            let wp = self.pool.write_path().expect("write path");
            w.snap = Some((
                wp.dblwr.stats.clone(),
                wp.device.stats().clone(),
                wp.stats.clone(),
            ));
        }
        let ev = match which {
            0 => {
                self.write_sample();
                self.sample_next += SEC;
                Event::Sample
            }
            1 => self.cleaner_round(t),
            _ => {
                let n = self.write.as_ref().expect("write path").clients.len();
                self.cpu.as_mut().expect("CPU model").advance(t);
                while let Some(th) = self.cpu.as_mut().expect("CPU model").take_completed() {
                    self.pool.complete_writes(t);
                    if th < n {
                        self.client_step(th, t);
                    } else {
                        self.write_scan_step(t);
                    }
                    if self.pool.take_flush_event() {
                        self.wake_cleaner(t);
                    }
                }
                Event::Work
            }
        };
        self.events += 1;
        ev
    }

    fn wake_cleaner(&mut self, t: Micros) {
        let ct = self.pool.write_path().map_or(0, |w| w.cleaner_t);
        let tick = self.tick_next.expect("the cleaner is always scheduled");
        if ct > t {
            // The cleaner is busy; the event makes its next wait return at once.
            self.write.as_mut().expect("write path").wake_pending = true;
        } else if tick > t + CLEANER_WAKE_US {
            self.tick_next = Some(t + CLEANER_WAKE_US);
        }
    }

    /// One round of `buf_flush_page_coordinator_thread`: on the one-second timeout the
    /// activity bookkeeping and `page_recommendation`; every instance's LRU batch, then the
    /// flush-list batches; then sleep to the next second (or not at all in sync flush).
    fn cleaner_round(&mut self, t: Micros) -> Event {
        let w = self.write.as_mut().expect("write path");
        let timeout = t >= w.loop_start + SEC;
        let mut run = true;
        if timeout {
            w.loop_start = t;
            run = self.coordinator.round_timeout();
        }
        let mut sync = false;
        let mut ev = Event::CleanerIdle;
        if run {
            ev = Event::LruBatch(self.pool.lru_batch_all(t));
            let (n, s) = self.pool.flush_list_round(t, timeout, w.last_pages);
            sync = s;
            if timeout || s {
                w.last_pages = n;
            }
        }
        let ct = self.pool.write_path().map_or(t, |w| w.cleaner_t).max(t);
        self.tick_next = Some(if sync {
            ct.max(t + MS)
        } else if std::mem::take(&mut w.wake_pending) {
            ct.max(t + CLEANER_WAKE_US)
        } else {
            ct.max(w.loop_start + SEC)
        });
        ev
    }

    fn submit(&mut self, th: usize, at: Micros, work: f64) {
        self.cpu.as_mut().expect("CPU model").submit(th, at, work);
    }

    fn client_step(&mut self, th: usize, t: Micros) {
        let Simulation {
            write,
            cpu: cpu_model,
            pool,
            rng,
            coordinator,
            scan_start,
            ..
        } = self;
        let scan_start = *scan_start;
        let w = write.as_deref_mut().expect("write path");
        let cpu_model = cpu_model.as_mut().expect("CPU model");
        let cpu = w.p.cpu_us_per_step;
        if w.clients[th].pos >= w.clients[th].steps.len() {
            let start = w.clients[th].trx_start;
            if start > 0 {
                let lat = t - start;
                if let Some(win) = w.window_at(t, scan_start) {
                    win.trx += 1;
                    win.lat_sum += lat;
                }
            }
            let c = &mut w.clients[th];
            w.bench.transaction(rng, &mut c.steps);
            c.pos = 0;
            c.trx_start = t;
        }
        let step = w.clients[th].steps[w.clients[th].pos];
        match step {
            Step::Begin => {
                w.clients[th].pos += 1;
                cpu_model.submit(th, t, cpu);
            }
            Step::Read(page) => match pool.fetch(page, FetchMode::Normal, t) {
                Fetch::Done { ready_at, .. } => {
                    w.clients[th].pos += 1;
                    cpu_model.submit(th, ready_at, cpu);
                }
                Fetch::NoFreeFrame { retry_at } => cpu_model.submit(th, retry_at.max(t + 1), 0.0),
            },
            Step::Write(page) => {
                // log_free_check before the mini-transaction.
                if pool.log_must_wait() {
                    w.log_waits += 1;
                    cpu_model.submit(th, t + MS, 0.0);
                    return;
                }
                match pool.fetch(page, FetchMode::Normal, t) {
                    Fetch::NoFreeFrame { retry_at } => {
                        cpu_model.submit(th, retry_at.max(t + 1), 0.0)
                    }
                    Fetch::Done { ready_at, .. } => {
                        if let Some(d) = pool.write_fixed_until(page) {
                            // The page is being written: the X latch waits for the write.
                            w.page_waits += 1;
                            let at = if d == crate::pool::flush_list::WRITE_PENDING {
                                t + MS
                            } else {
                                d.max(t + 1)
                            };
                            cpu_model.submit(th, at, 0.0);
                            return;
                        }
                        let lsn = pool.redo_append(w.p.redo_bytes_per_write);
                        pool.note_modification(page, lsn);
                        w.row_ops += 1;
                        if w.row_ops % WAKE_INTERVAL == 0 {
                            coordinator.note_activity();
                        }
                        w.clients[th].pos += 1;
                        cpu_model.submit(th, ready_at, cpu);
                    }
                }
            }
            Step::Commit => {
                coordinator.note_activity();
                w.clients[th].pos += 1;
                let at = t + w.p.commit_us;
                cpu_model.submit(th, at, cpu);
            }
        }
    }

    fn write_scan_step(&mut self, t: Micros) {
        let n = self.write.as_ref().expect("write path").clients.len();
        let cost = self.scan.page_cost_us();
        let (op, next) = self.scan.step(&mut self.pool, t);
        match op {
            Some(op) => self.submit(n, op.next_at - cost, cost as f64),
            None => self.submit(n, next.unwrap_or(t + 1).max(t + 1), 0.0),
        }
    }

    fn write_sample(&mut self) {
        let t = self.now;
        let scan_start = self.scan_start;
        let w = self.write.as_deref_mut().expect("write path");
        let hot = w.bench.hot_pages();
        let kept = self.pool.resident_prefix(PK_SPACE, hot) as f64 / hot as f64;
        if let Some(win) = w.window_at(t, scan_start) {
            win.hot_sum += kept;
            win.samples += 1;
        }
        if t > w.base_from {
            w.free_sum += self.pool.free_len() as f64;
            w.dirty_sum += self.pool.modified_ratio_pct();
            w.n_samples += 1;
            let wp = self.pool.write_path().expect("write path");
            let age = wp.redo.age(self.pool.oldest_modification()) as f64 / wp.redo.usable() as f64;
            w.age_max = w.age_max.max(age * 100.0);
        }
    }

    /// The write report (complete at the end). Panics on a read-only run.
    pub fn write_report(&self) -> WriteReport {
        let wr = self.write.as_deref().expect("a write-path run");
        let has_scan = wr.has_scan;
        let base_s = to_secs(self.scan_start - wr.base_from);
        let scan_s = to_secs(self.end - wr.scan_from);
        let meas_s = base_s + if has_scan { scan_s } else { 0.0 };
        let tps = wr.base.trx as f64 / base_s.max(1e-9);
        let tps_with = if has_scan {
            wr.with_scan.trx as f64 / scan_s.max(1e-9)
        } else {
            0.0
        };
        let w = self.pool.write_path().expect("write path");
        let (d0, v0, s0) = wr.snap.clone().unwrap_or_default();
        let dblwr = DblwrStats {
            writes: w.dblwr.stats.writes - d0.writes,
            write_time_us: w.dblwr.stats.write_time_us - d0.write_time_us,
            bytes: w.dblwr.stats.bytes - d0.bytes,
            batch_writes: w.dblwr.stats.batch_writes - d0.batch_writes,
            single_writes: w.dblwr.stats.single_writes - d0.single_writes,
            pages: w.dblwr.stats.pages - d0.pages,
            segment_wait_us: w.dblwr.stats.segment_wait_us - d0.segment_wait_us,
        };
        let dv = w.device.stats();
        let device = DeviceStats {
            reads: dv.reads - v0.reads,
            writes: dv.writes - v0.writes,
            fsyncs: dv.fsyncs - v0.fsyncs,
            bytes_read: dv.bytes_read - v0.bytes_read,
            bytes_written: dv.bytes_written - v0.bytes_written,
            total_latency_us: dv.total_latency_us - v0.total_latency_us,
            read_latency_us: dv.read_latency_us - v0.read_latency_us,
        };
        let ws = &w.stats;
        let write = WriteStats {
            wait_free: ws.wait_free - s0.wait_free,
            single_page_flushes: ws.single_page_flushes - s0.single_page_flushes,
            lru_flushed: ws.lru_flushed - s0.lru_flushed,
            list_flushed: ws.list_flushed - s0.list_flushed,
            evicted_after_write: ws.evicted_after_write - s0.evicted_after_write,
            pages_written: ws.pages_written - s0.pages_written,
            dirtied: ws.dirtied - s0.dirtied,
            modifications: ws.modifications - s0.modifications,
            free_waits: ws.free_waits - s0.free_waits,
        };
        let whole_s = to_secs(self.end - wr.base_from).max(1e-9);
        let kept_w = if has_scan { &wr.with_scan } else { &wr.base };
        WriteReport {
            params: wr.p.clone(),
            tps,
            qps: tps * wr.bench.queries_per_transaction() as f64,
            latency_ms: if wr.base.trx > 0 {
                wr.base.lat_sum as f64 / wr.base.trx as f64 / 1000.0
            } else {
                0.0
            },
            tps_with_scan: tps_with,
            scan_loss: if has_scan && tps > 0.0 {
                1.0 - tps_with / tps
            } else {
                0.0
            },
            hot_kept: if kept_w.samples > 0 {
                kept_w.hot_sum / kept_w.samples as f64
            } else {
                0.0
            },
            wait_free_per_s: write.wait_free as f64 / whole_s,
            page_write_waits_per_s: wr.page_waits as f64 / (meas_s + wr.p.warmup_s as f64),
            log_waits_per_s: wr.log_waits as f64 / (meas_s + wr.p.warmup_s as f64),
            free_mean: wr.free_sum / wr.n_samples.max(1) as f64,
            dirty_pct_mean: wr.dirty_sum / wr.n_samples.max(1) as f64,
            checkpoint_age_pct_max: wr.age_max,
            dblwr_avg_write_ms: dblwr.avg_write_us() / 1000.0,
            dblwr,
            device,
            write,
            events: self.events,
        }
    }
}

/// Builds and runs a write-path simulation, returning its report.
pub fn run_write(p: &WriteParams) -> Result<WriteReport, String> {
    let mut s = Simulation::new_write(p)?;
    while s.step_write()? {}
    Ok(s.write_report())
}

//! The page's "Write path" section without the browser: the page's write presets and their two
//! sliders ([`page_params`]), a write-path run advanced in slices with periodic snapshots of
//! instance 0 ([`WriteRun`]), what it measured ([`WriteSummary`]), the trade-off's points
//! ([`DepthPoints`]) and the pool's pixels ([`render_cells`]). The wasm-bindgen bindings are in
//! `web/write.rs`.

use crate::ui::grid::{Layout, HIGHLIGHT};
use midpoint_core::clock::{to_secs, Micros};
use midpoint_core::pool::flush_list::{FlushType, WRITE_PENDING};
use midpoint_core::scenario::write::{self as write_scenario, WriteParams};
use midpoint_core::sim::{Simulation, EPOCH};
use midpoint_lab::chart::write::{DblwrWrite, DepthPoint};
use midpoint_lab::chart::{Theme, DARK, LIGHT};
use plotters::style::RGBColor;
use serde::{Deserialize, Serialize};

/// The write presets the page offers: every write preset of the CLI.
pub const PAGE_PRESETS: &[&str] = &[
    "seed001-16thd-dblwr128",
    "seed001-16thd-dblwr16",
    "seed001-64thd-dblwr128",
    "seed001-64thd-dblwr16",
    "seed001-16thd-dblwr-off",
    "seed003-rw-default",
    "seed003-rw-tuned",
    "seed003-rw-mysql84",
    "writeheavy-depth-128",
    "writeheavy-depth-1024",
    "writeheavy-depth-4096",
];

/// Scan depths of the trade-off plot (the CLI's `depth-sweep`).
pub const DEPTHS: &[u32] = midpoint_lab::experiments::seed001::DEPTHS;

/// Cell byte: a free frame.
pub const W_FREE: u8 = 0;
/// Cell byte: a clean page.
pub const W_CLEAN: u8 = 1;
/// Cell byte: a dirty page (on the flush list).
pub const W_DIRTY: u8 = 2;
/// Cell byte: a page being written (io-fixed `BUF_IO_WRITE`).
pub const W_WRITING: u8 = 3;
/// Cell byte flag: in the old sublist.
pub const W_OLD: u8 = 0x08;

/// One of the page's write presets, for its picker: the scan depth and doublewrite pages the
/// sliders start at.
#[derive(Clone, Debug, Serialize)]
pub struct PagePreset {
    pub name: String,
    pub description: String,
    pub lru_scan_depth: u32,
    pub doublewrite_pages: u32,
    pub threads: u32,
    pub instances: u32,
    pub frames_per_instance: u32,
}

/// The page's write presets, in picker order.
pub fn page_presets() -> Vec<PagePreset> {
    PAGE_PRESETS
        .iter()
        .filter_map(|n| write_scenario::preset(n))
        .map(|p| PagePreset {
            lru_scan_depth: p.params.lru_scan_depth,
            doublewrite_pages: p.params.doublewrite_pages,
            threads: p.params.threads,
            instances: p.params.instances,
            frames_per_instance: p.params.frames_per_instance,
            name: p.name,
            description: p.description,
        })
        .collect()
}

/// A page preset's parameters with the two sliders applied (clamped to InnoDB's ranges).
pub fn page_params(preset: &str, depth: u32, dblwr_pages: u32) -> Result<WriteParams, String> {
    if !PAGE_PRESETS.contains(&preset) {
        return Err(format!("'{preset}' is not one of the page's write presets"));
    }
    let mut p = write_scenario::preset(preset)
        .ok_or_else(|| format!("no write preset '{preset}'"))?
        .params;
    p.lru_scan_depth = depth.clamp(100, 16_384);
    p.doublewrite_pages = dblwr_pages.clamp(1, 512);
    p.validate()?;
    Ok(p)
}

/// The state of instance 0 at one moment.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Moment {
    /// Seconds since the clients started.
    pub t_s: f64,
    /// Instance 0: dirty pages, pages being written, free frames, old pages.
    pub dirty: u32,
    pub writing: u32,
    pub free: u32,
    pub old: u32,
    /// The whole pool's doublewrite writes and wait_free so far.
    pub dblwr_writes: u64,
    pub wait_free: u64,
}

/// What a write run measured, for the page.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct WriteSummary {
    pub preset: String,
    pub lru_scan_depth: u32,
    pub doublewrite_pages: u32,
    pub doublewrite: bool,
    pub has_scan: bool,
    pub tps: f64,
    pub tps_with_scan: f64,
    pub qps: f64,
    pub latency_ms: f64,
    pub dblwr_writes_per_s: f64,
    pub dblwr_avg_write_ms: f64,
    pub dblwr_pages_per_write: f64,
    pub wait_free_per_s: f64,
    pub single_page_flushes: u64,
    pub free_mean: f64,
    pub dirty_pct_mean: f64,
    /// Seconds measured (the counters' window).
    pub measured_s: f64,
    /// Seconds from the clients' start to the end.
    pub end_s: f64,
    pub events: u64,
    /// Frames of instance 0 (cells per moment).
    pub frames: u32,
    pub moments: Vec<Moment>,
    /// Instance 0's doublewrite-buffer writes: (t_s, pages, flush list?).
    pub writes: Vec<(f64, u32, bool)>,
}

/// A write-path run, advanced in slices, taking periodic snapshots of instance 0.
pub struct WriteRun {
    sim: Simulation,
    preset: String,
    done: bool,
    snap_every: Micros,
    next_snap: Micros,
    cells: Vec<u8>,
    moments: Vec<Moment>,
    prev_done: Vec<Micros>,
    flushed: u64,
    writes: Vec<(f64, u32, bool)>,
}

/// Moments per run.
const MOMENTS: u64 = 60;

impl WriteRun {
    /// A run of `preset` with these settings.
    pub fn build(preset: &str, depth: u32, dblwr_pages: u32) -> Result<WriteRun, String> {
        let p = page_params(preset, depth, dblwr_pages)?;
        let sim = Simulation::new_write(&p)?;
        let span = sim.end().saturating_sub(EPOCH).max(1);
        let n = sim.pool.instances.first().map_or(0, |i| i.size()) as usize;
        let mut r = WriteRun {
            sim,
            preset: preset.to_string(),
            done: false,
            snap_every: (span / MOMENTS).max(1),
            next_snap: EPOCH,
            cells: Vec::new(),
            moments: Vec::new(),
            prev_done: vec![0; n],
            flushed: 0,
            writes: Vec::new(),
        };
        r.snapshot();
        r.next_snap = EPOCH + r.snap_every;
        Ok(r)
    }

    fn flushed_total(&self) -> u64 {
        self.sim
            .pool
            .write_path()
            .map_or(0, |w| w.stats.lru_flushed + w.stats.list_flushed)
    }

    /// Instance 0's frames in LRU order (head first), then its free frames: one byte each.
    fn snapshot(&mut self) {
        let sim = &self.sim;
        let Some(inst) = sim.pool.instances.first() else {
            return;
        };
        let fl = inst.flush.as_deref();
        let mut m = Moment {
            t_s: to_secs(sim.now().saturating_sub(EPOCH)),
            ..Moment::default()
        };
        let start = self.cells.len();
        for f in inst.lru.iter() {
            let mut b = match fl {
                Some(fl) if fl.is_write_fixed(f) => {
                    m.writing += 1;
                    W_WRITING
                }
                Some(fl) if fl.oldest(f) != 0 => {
                    m.dirty += 1;
                    W_DIRTY
                }
                _ => W_CLEAN,
            };
            if inst.lru.is_old(f) {
                b |= W_OLD;
                m.old += 1;
            }
            self.cells.push(b);
        }
        let n = inst.size() as usize;
        m.free = (start + n).saturating_sub(self.cells.len()) as u32;
        self.cells.resize(start + n, W_FREE);
        if let Some(w) = sim.pool.write_path() {
            m.dblwr_writes = w.dblwr.stats.writes;
            m.wait_free = w.stats.wait_free;
        }
        self.moments.push(m);
    }

    /// After an event that flushed pages through a doublewrite buffer: instance 0's newly
    /// issued writes of each type, in submission order (the device serves in order, so by
    /// completion time), cut into buffers of `doublewrite_pages` as `Double_write::enqueue`
    /// and the final `force_flush` cut them.
    fn note_writes(&mut self) {
        let sim = &self.sim;
        let p = sim.write_params().expect("a write-path run");
        let Some(fl) = sim.pool.instances.first().and_then(|i| i.flush.as_deref()) else {
            return;
        };
        let mut lru: Vec<Micros> = Vec::new();
        let mut list: Vec<Micros> = Vec::new();
        for (f, prev) in self.prev_done.iter_mut().enumerate() {
            let d = fl.write_done(f as u32);
            if d != *prev && d != 0 && d != WRITE_PENDING {
                match fl.write_type(f as u32) {
                    FlushType::Lru => lru.push(d),
                    FlushType::List => list.push(d),
                    FlushType::Single => {}
                }
            }
            *prev = d;
        }
        if !p.doublewrite {
            return;
        }
        let cap = p.doublewrite_pages.max(1) as usize;
        for (mut v, is_list) in [(lru, false), (list, true)] {
            v.sort_unstable();
            for c in v.chunks(cap) {
                let t = to_secs(c[0].saturating_sub(EPOCH));
                self.writes.push((t, c.len() as u32, is_list));
            }
        }
    }

    /// The summary (complete once the run is over).
    pub fn summary(&self) -> WriteSummary {
        let r = self.sim.write_report();
        let p = &r.params;
        let has_scan = p.scan_table_pages > 0 && p.scan_s > 0;
        let measured_s = (p.base_s + if has_scan { p.scan_s } else { 0 }) as f64;
        WriteSummary {
            preset: self.preset.clone(),
            lru_scan_depth: p.lru_scan_depth,
            doublewrite_pages: p.doublewrite_pages,
            doublewrite: p.doublewrite,
            has_scan,
            tps: r.tps,
            tps_with_scan: r.tps_with_scan,
            qps: r.qps,
            latency_ms: r.latency_ms,
            dblwr_writes_per_s: r.dblwr.writes as f64 / measured_s.max(1e-9),
            dblwr_avg_write_ms: r.dblwr_avg_write_ms,
            dblwr_pages_per_write: if r.dblwr.writes > 0 {
                r.dblwr.pages as f64 / r.dblwr.writes as f64
            } else {
                0.0
            },
            wait_free_per_s: r.wait_free_per_s,
            single_page_flushes: r.write.single_page_flushes,
            free_mean: r.free_mean,
            dirty_pct_mean: r.dirty_pct_mean,
            measured_s,
            end_s: to_secs(self.sim.end().saturating_sub(EPOCH)),
            events: r.events,
            frames: self.prev_done.len() as u32,
            moments: self.moments.clone(),
            writes: self.writes.clone(),
        }
    }

    /// Every moment's cells, concatenated (`frames` bytes each).
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// Runs up to `max_events` events; the share of virtual time done (1 = over). Errors are
    /// the simulation's own (never a panic).
    pub fn run_slice(&mut self, max_events: u32) -> Result<f64, String> {
        if !self.done {
            for _ in 0..max_events.max(1) {
                let more = self.sim.step_write()?;
                let f = self.flushed_total();
                if f != self.flushed {
                    self.flushed = f;
                    self.note_writes();
                }
                if !more {
                    self.done = true;
                    self.snapshot();
                    break;
                }
                if self.sim.now() >= self.next_snap {
                    self.snapshot();
                    self.next_snap += self.snap_every;
                }
            }
        }
        if self.done {
            return Ok(1.0);
        }
        let span = self.sim.end().saturating_sub(EPOCH).max(1) as f64;
        Ok((self.sim.now().saturating_sub(EPOCH) as f64 / span).clamp(0.0, 0.999_999))
    }
}

/// One trade-off point as the worker computes it and the page records it.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct DepthResult {
    pub lru_scan_depth: u32,
    pub tps: f64,
    pub tps_with_scan: f64,
    pub wait_free_per_s: f64,
}

/// One point of the trade-off: `writeheavy-depth-*` at this depth (a full run).
pub fn depth_point(depth: u32) -> Result<DepthResult, String> {
    let p = write_scenario::depth_params(depth.clamp(100, 16_384));
    let r = midpoint_core::sim::run_write(&p)?;
    Ok(DepthResult {
        lru_scan_depth: p.lru_scan_depth,
        tps: r.tps,
        tps_with_scan: r.tps_with_scan,
        wait_free_per_s: r.wait_free_per_s,
    })
}

/// What the section shows: a finished run (its summary and every moment's cells) and the
/// trade-off's points (NaN until computed).
#[derive(Clone, Debug)]
pub struct WritePage {
    summary: Option<WriteSummary>,
    cells: Vec<u8>,
    depths: Vec<DepthPoint>,
}

impl Default for WritePage {
    fn default() -> Self {
        WritePage {
            summary: None,
            cells: Vec::new(),
            depths: DEPTHS
                .iter()
                .map(|&d| DepthPoint {
                    lru_scan_depth: d,
                    tps_with_scan: f64::NAN,
                    tps: f64::NAN,
                    wait_free_per_s: f64::NAN,
                })
                .collect(),
        }
    }
}

impl WritePage {
    /// Takes a finished run: its summary and its cells (`frames` bytes per moment).
    pub fn set_run(&mut self, s: WriteSummary, cells: Vec<u8>) -> Result<(), String> {
        if s.frames as usize * s.moments.len() != cells.len() {
            return Err("the run's cells do not match its moments".into());
        }
        self.summary = Some(s);
        self.cells = cells;
        Ok(())
    }

    /// The run, if one was given.
    pub fn summary(&self) -> Option<&WriteSummary> {
        self.summary.as_ref()
    }

    /// Moments in the run (0 without one).
    pub fn moments(&self) -> u32 {
        self.summary.as_ref().map_or(0, |s| s.moments.len() as u32)
    }

    /// Frames of instance 0 (0 without a run).
    pub fn frames(&self) -> u32 {
        self.summary.as_ref().map_or(0, |s| s.frames)
    }

    /// Moment `k` (the last one beyond the end; an empty one without a run).
    pub fn moment(&self, k: u32) -> Moment {
        self.summary
            .as_ref()
            .and_then(|s| s.moments.get(k as usize).or(s.moments.last()))
            .cloned()
            .unwrap_or_default()
    }

    /// Instance 0's cells at moment `k` (the last one beyond the end; empty without a run).
    pub fn cells_at(&self, k: u32) -> &[u8] {
        let n = self.frames() as usize;
        let m = self.moments().saturating_sub(1).min(k) as usize;
        self.cells.get(m * n..(m + 1) * n).unwrap_or(&[])
    }

    /// The doublewrite chart's data: the run's writes, the buffer's size, the run's end and the
    /// time of moment `k` (a placeholder without a run).
    pub fn dblwr(&self, k: u32) -> (Vec<DblwrWrite>, u32, f64, Option<f64>) {
        match &self.summary {
            Some(s) => (
                s.writes
                    .iter()
                    .map(|&(t_s, pages, flush_list)| DblwrWrite {
                        t_s,
                        pages,
                        flush_list,
                    })
                    .collect(),
                s.doublewrite_pages,
                s.end_s,
                s.moments.get(k as usize).map(|m| m.t_s),
            ),
            None => (Vec::new(), 128, 1.0, None),
        }
    }

    /// Records one trade-off point (a depth the trade-off does not plot is ignored).
    pub fn set_depth_point(&mut self, p: DepthResult) {
        for q in &mut self.depths {
            if q.lru_scan_depth == p.lru_scan_depth {
                q.tps = p.tps;
                q.tps_with_scan = p.tps_with_scan;
                q.wait_free_per_s = p.wait_free_per_s;
            }
        }
    }

    /// The trade-off's points.
    pub fn depths(&self) -> &[DepthPoint] {
        &self.depths
    }

    /// Trade-off points computed.
    pub fn depth_done(&self) -> u32 {
        self.depths.iter().filter(|p| p.tps.is_finite()).count() as u32
    }

    /// The trade-off's points as rows for the data table: depth, tps with scan, tps without,
    /// waits/s (NaN until computed), flattened.
    pub fn depth_rows(&self) -> Vec<f64> {
        self.depths
            .iter()
            .flat_map(|p| {
                [
                    p.lru_scan_depth as f64,
                    p.tps_with_scan,
                    p.tps,
                    p.wait_free_per_s,
                ]
            })
            .collect()
    }
}

/// The chart theme.
pub fn theme(dark: bool) -> Theme {
    colours(dark).0
}

/// Colours of the write cells: free, clean, dirty, being written.
fn colours(dark: bool) -> (Theme, [RGBColor; 4]) {
    if dark {
        (
            DARK,
            [
                RGBColor(0x3a, 0x3c, 0x41),
                RGBColor(0x6f, 0x86, 0x9c),
                // Dirty: purple, not the hot set's orange.
                RGBColor(0xc2, 0xa5, 0xcf),
                HIGHLIGHT,
            ],
        )
    } else {
        (
            LIGHT,
            [
                RGBColor(0xe4, 0xe6, 0xea),
                RGBColor(0x8f, 0xa8, 0xbf),
                // Dirty: purple, not the hot set's orange.
                RGBColor(0x7b, 0x32, 0x94),
                RGBColor(0x11, 0x11, 0x11),
            ],
        )
    }
}

const fn word(c: RGBColor) -> u32 {
    0xff00_0000 | ((c.2 as u32) << 16) | ((c.1 as u32) << 8) | c.0 as u32
}

fn tint(c: RGBColor, bg: RGBColor) -> RGBColor {
    let m = |x: u8, y: u8| ((x as u16 * 2 + y as u16 * 3) / 5) as u8;
    RGBColor(m(c.0, bg.0), m(c.1, bg.1), m(c.2, bg.2))
}

/// Renders write cells (one byte per frame) into `px` (`layout.width × layout.height`
/// words): free, clean, dirty, being written; old pages faded and hatched as in the main
/// figure.
pub fn render_cells(px: &mut Vec<u32>, layout: &Layout, cells: &[u8], dark: bool) {
    let (theme, cs) = colours(dark);
    let bg = word(theme.background);
    let w = layout.width as usize;
    px.clear();
    px.resize((layout.width * layout.height) as usize, bg);
    let s = (layout.pitch - layout.gap) as usize;
    let full = cs.map(word);
    let faded = cs.map(|c| word(tint(c, theme.background)));
    for (i, &b) in cells.iter().enumerate().take(layout.n as usize) {
        let (x, y) = layout.origin(i as u32);
        let k = (b & 3) as usize;
        let old = b & W_OLD != 0 && k != W_FREE as usize;
        for yy in 0..s {
            let row = (y as usize + yy) * w + x as usize;
            if let Some(r) = px.get_mut(row..row + s) {
                for (xx, p) in r.iter_mut().enumerate() {
                    *p = if old && (xx + yy) % 3 != 0 {
                        faded[k]
                    } else {
                        full[k]
                    };
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_picker_lists_every_page_preset_and_the_sliders_are_clamped() {
        let ps = page_presets();
        assert_eq!(ps.len(), PAGE_PRESETS.len(), "every page preset exists");
        let p = ps
            .iter()
            .find(|p| p.name == "seed001-16thd-dblwr16")
            .unwrap();
        assert_eq!((p.lru_scan_depth, p.doublewrite_pages), (312, 16));
        let q = page_params("seed001-16thd-dblwr16", 5, 0).unwrap();
        assert_eq!((q.lru_scan_depth, q.doublewrite_pages), (100, 1));
        let q = page_params("writeheavy-depth-128", 1 << 30, 9_999).unwrap();
        assert_eq!((q.lru_scan_depth, q.doublewrite_pages), (16_384, 512));
        assert!(page_params("small-demo", 1024, 128).is_err());
    }

    #[test]
    fn a_run_in_slices_snapshots_instance_0_and_cuts_doublewrite_buffers() {
        let mut r = WriteRun::build("seed001-16thd-dblwr16", 312, 16).unwrap();
        let mut last = 0.0;
        let mut slices = 0;
        while last < 1.0 {
            let f = r.run_slice(50_000).unwrap();
            assert!(f >= last, "progress never goes back: {f} < {last}");
            last = f;
            slices += 1;
        }
        assert!(slices > 1, "a run takes several slices");
        assert_eq!(
            r.run_slice(10).unwrap(),
            1.0,
            "a finished run stays finished"
        );
        let s = r.summary();
        assert_eq!(s.frames, 8_192);
        assert!(s.moments.len() as u64 >= MOMENTS, "{}", s.moments.len());
        assert_eq!(r.cells().len(), s.frames as usize * s.moments.len());
        assert!(r.cells().iter().any(|&b| b & 3 == W_DIRTY));
        for m in &s.moments {
            assert!(m.dirty + m.writing + m.free <= s.frames && m.old <= s.frames);
        }
        assert!(s.moments.windows(2).all(|w| w[0].t_s <= w[1].t_s));
        assert!(s.tps > 0.0 && s.dblwr_writes_per_s > 0.0);
        assert!(!s.writes.is_empty());
        assert!(
            s.writes.iter().all(|w| (1..=16).contains(&w.1)),
            "{:?}",
            s.writes
        );
        assert!(s.dblwr_pages_per_write > 0.0 && s.dblwr_pages_per_write <= 16.0);

        let mut page = WritePage::default();
        assert!(page.set_run(s.clone(), r.cells()[1..].to_vec()).is_err());
        assert_eq!((page.moments(), page.cells_at(3).len()), (0, 0));
        page.set_run(s.clone(), r.cells().to_vec()).unwrap();
        let n = page.moments();
        assert_eq!(
            page.cells_at(n + 10),
            page.cells_at(n - 1),
            "past the end: the last"
        );
        assert_eq!(page.cells_at(0).len(), 8_192);
        assert_eq!(page.moment(n + 10).t_s, s.moments.last().unwrap().t_s);
        let (writes, cap, end, cursor) = page.dblwr(2);
        assert_eq!((writes.len(), cap), (s.writes.len(), 16));
        assert_eq!((end, cursor), (s.end_s, Some(s.moments[2].t_s)));
    }

    #[test]
    fn trade_off_points_fill_in_by_depth() {
        let mut page = WritePage::default();
        assert_eq!(page.depth_done(), 0);
        let point = |d| DepthResult {
            lru_scan_depth: d,
            tps: 1000.0,
            tps_with_scan: 800.0,
            wait_free_per_s: 3.0,
        };
        page.set_depth_point(point(DEPTHS[1]));
        page.set_depth_point(point(7)); // not a plotted depth: ignored
        assert_eq!(page.depth_done(), 1);
        let rows = page.depth_rows();
        assert_eq!(rows.len(), 4 * DEPTHS.len());
        assert_eq!(&rows[4..8], &[DEPTHS[1] as f64, 800.0, 1000.0, 3.0]);
        assert!(rows[1].is_nan());
    }

    #[test]
    fn cells_are_painted_by_state_and_old_pages_are_hatched() {
        let cells = [W_FREE, W_CLEAN, W_DIRTY, W_WRITING, W_DIRTY | W_OLD];
        let layout = Layout::new(200, 200, cells.len() as u32, 1.0);
        let mut px = Vec::new();
        render_cells(&mut px, &layout, &cells, false);
        assert_eq!(px.len(), (layout.width * layout.height) as usize);
        let (theme, cs) = colours(false);
        let at = |i: u32, dx: u32, dy: u32| {
            let (x, y) = layout.origin(i);
            px[((y + dy) * layout.width + x + dx) as usize]
        };
        for (i, c) in cs.iter().enumerate() {
            assert_eq!(at(i as u32, 0, 0), word(*c), "cell {i}");
        }
        // The old dirty page: full colour on the hatch, faded between.
        assert_eq!(at(4, 0, 0), word(cs[2]));
        assert_eq!(at(4, 1, 0), word(tint(cs[2], theme.background)));
        assert_eq!(px[0], word(theme.background), "the margin is background");
    }
}

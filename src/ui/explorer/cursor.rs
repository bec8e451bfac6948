//! A position in the run: the simulation plus the marks the boundary left in the current
//! refill cycle, and what the last refill did (for the narration and the animation).

use crate::ui::{code, grid, narrate};
use midpoint_core::clock::Micros;
use midpoint_core::pool::lru::ListNote;
use midpoint_core::pool::{PageId, Stats};
use midpoint_core::scenario::Params;
use midpoint_core::sim::{Event, Simulation, HOT_SPACE, SCAN_SPACE};

pub(super) fn pack(p: PageId) -> u64 {
    ((p.space as u64) << 32) | p.page_no as u64
}

/// What the last refill did, for the narration and the animation.
#[derive(Clone, Debug)]
pub(super) struct BatchInfo {
    pub(super) at: Micros,
    pub(super) evicted: u32,
    pub(super) free_before: u32,
    /// Frames evicted, tail first.
    pub(super) evicted_frames: Vec<u32>,
    /// Frames the boundary turned old during the batch, in order.
    pub(super) demoted_frames: Vec<u32>,
    /// Cumulative demotions after each eviction (for the animation).
    pub(super) demoted_after: Vec<u32>,
    /// The hot-set pages among them (frame, packed page id): the batch's own count of hot pages
    /// demoted, whatever the close-up shows, and which of them were evicted since.
    pub(super) demoted_hot: Vec<(u32, u64)>,
    pub(super) predicted: u32,
    /// Slide counters right after the batch.
    pub(super) slid_young_after: u64,
    pub(super) slid_scan_after: u64,
    pub(super) drain_done: bool,
    /// Events processed right after the batch (so "just after the batch" is a state).
    pub(super) ev: u64,
}

/// The last refill's numbers (`Cursor::batch_numbers`).
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct BatchNumbers {
    pub evicted: u32,
    pub demoted: u32,
    pub demoted_hot: u32,
    pub lost_hot: u32,
    /// Before the first batch: every page the boundary turned young so far.
    pub young_since: u64,
}

/// A position in the run: the simulation plus the marks of the current refill cycle.
#[derive(Clone, Debug)]
pub(super) struct Cursor {
    pub(super) sim: Simulation,
    pub(super) mark: Vec<u8>,
    pub(super) mark_page: Vec<u64>,
    pub(super) batch: Option<BatchInfo>,
    pub(super) refills: u32,
    /// What the last stepped event did, from which the code panel's lines are told (`code`).
    delta: Option<code::Delta>,
}

/// The counters of the page's one instance that an event's code lines are told from, read
/// before and after every stepped event (without the per-tag vector a `Stats` clone or
/// `BufferPool::stats` allocates).
#[derive(Clone, Copy)]
struct Counters {
    read: u64,
    evicted_by_batch: u64,
    made_young: u64,
    not_made_young: u64,
    young_to_head: u64,
}

impl Counters {
    fn of(s: &Stats) -> Counters {
        Counters {
            read: s.pages_read + s.ra_pages_read,
            evicted_by_batch: s.evicted_by_batch,
            made_young: s.made_young,
            not_made_young: s.not_made_young,
            young_to_head: s.young_moved_to_head,
        }
    }
}

pub(super) struct Stepped {
    pub(super) ev: Event,
    pub(super) refill: bool,
}

impl Cursor {
    pub(super) fn new(params: &Params) -> Result<Cursor, String> {
        let mut sim = Simulation::new(params)?;
        if sim.pool.instances.len() != 1 {
            return Err("the page simulates one buffer pool instance".into());
        }
        sim.pool.instances[0].lru.slide_log = Some(Vec::new());
        let frames = sim.pool.total_frames() as usize;
        Ok(Cursor {
            sim,
            mark: vec![0; frames],
            mark_page: vec![u64::MAX; frames],
            batch: None,
            refills: 0,
            delta: None,
        })
    }

    pub(super) fn events(&self) -> u64 {
        self.sim.events()
    }

    /// The lines of pseudo-code the last stepped event ran (the code panel), if any.
    pub(super) fn code(&self) -> Option<code::CodeAt> {
        let c = code::lines_of(self.delta.as_ref()?);
        (!c.lines.is_empty()).then_some(c)
    }

    /// The boundary's moves since the last call (the slide log, emptied); `give_back` returns
    /// its buffer, so that stepping event by event allocates none.
    fn take_log(&mut self) -> Vec<(u32, ListNote)> {
        self.sim.pool.instances[0]
            .lru
            .slide_log
            .as_mut()
            .map(std::mem::take)
            .unwrap_or_default()
    }

    fn give_back(&mut self, mut log: Vec<(u32, ListNote)>) {
        if let Some(l) = self.sim.pool.instances[0].lru.slide_log.as_mut() {
            if l.is_empty() {
                log.clear();
                *l = log;
            }
        }
    }

    /// One event; `fresh` collects frames marked by it.
    pub(super) fn step(&mut self, fresh: Option<&mut Vec<u32>>) -> Stepped {
        let (len0, old0) = {
            let l = &self.sim.pool.instances[0].lru;
            (l.len(), l.old_len())
        };
        let free0 = self.sim.pool.free_len();
        let st0 = Counters::of(&self.sim.pool.instances[0].stats);
        let clock0 = self.sim.pool.freed_page_clock();
        let ev = self.sim.step();
        let refill = matches!(&ev, Event::LruBatch(r) if r.iter().any(|b| b.evicted > 0));
        let log = self.take_log();
        {
            let st1 = Counters::of(&self.sim.pool.instances[0].stats);
            let touched = matches!(
                &ev,
                Event::Lookup { hit: true, .. } | Event::ScanPage { .. }
            );
            self.delta = Some(code::Delta {
                inserted: st1.read > st0.read,
                evicted_by_batch: st1.evicted_by_batch - st0.evicted_by_batch,
                batch_ran: matches!(&ev, Event::LruBatch(_)),
                made_young: st1.made_young - st0.made_young,
                not_made_young: st1.not_made_young - st0.not_made_young,
                young_to_head: st1.young_to_head - st0.young_to_head,
                turned_young: log.iter().filter(|e| e.1 == ListNote::TurnedYoung).count() as u64,
                turned_old: log.iter().filter(|e| e.1 == ListNote::TurnedOld).count() as u64,
                touched,
                clock_was_zero: clock0 == 0,
            });
        }
        if refill {
            self.mark.fill(0);
            self.refills += 1;
            let inst = &self.sim.pool.instances[0];
            let k = match &ev {
                Event::LruBatch(r) => r.iter().map(|b| b.evicted).sum::<u32>(),
                _ => 0,
            };
            let frames = inst.free.frames();
            let evicted_frames: Vec<u32> =
                frames[frames.len().saturating_sub(k as usize)..].to_vec();
            for &f in &evicted_frames {
                self.mark[f as usize] = grid::MARK_FREED;
                self.mark_page[f as usize] = u64::MAX;
            }
            let demoted_frames: Vec<u32> = log
                .iter()
                .filter(|e| e.1 == ListNote::TurnedOld)
                .map(|e| e.0)
                .collect();
            let hot_pages = self.sim.params().hot_pages;
            let demoted_hot: Vec<(u32, u64)> = demoted_frames
                .iter()
                .filter(|&&f| {
                    inst.lru.tag(f) as u32 == HOT_SPACE && inst.page(f).page_no < hot_pages
                })
                .map(|&f| (f, pack(inst.page(f))))
                .collect();
            let ratio = inst.lru.ratio();
            let demoted_after = narrate::demotions_during(len0, old0, ratio, k);
            let predicted = narrate::predicted_drain_slide(
                inst.lru.len(),
                inst.lru.old_len(),
                ratio,
                inst.free.len(),
            );
            self.batch = Some(BatchInfo {
                at: self.sim.now(),
                evicted: k,
                free_before: free0,
                evicted_frames,
                demoted_frames,
                demoted_after,
                demoted_hot,
                predicted,
                slid_young_after: inst.lru.slides.total_young(),
                slid_scan_after: self.sim.pool.slid_young_by_tag(SCAN_SPACE as u8),
                drain_done: false,
                ev: self.sim.events(),
            });
        }
        self.apply_log(&log, refill, fresh);
        self.give_back(log);
        Stepped { ev, refill }
    }

    /// Marks the frames the boundary passed, in the order it passed them (`fresh` collects
    /// them); a frame that takes a new page loses its mark (it was its old page's). The pink
    /// ring is a refill's bulk demotion: a page the boundary turns old in any other event (a
    /// read evicting from the tail, a promotion) loses its ring instead.
    fn apply_log(
        &mut self,
        log: &[(u32, ListNote)],
        refill: bool,
        mut fresh: Option<&mut Vec<u32>>,
    ) {
        if log.is_empty() {
            return;
        }
        let inst = &self.sim.pool.instances[0];
        for &(f, note) in log {
            let i = f as usize;
            self.mark[i] = match note {
                ListNote::TurnedOld if refill => grid::MARK_OLD,
                ListNote::TurnedOld => 0,
                ListNote::TurnedYoung => grid::MARK_YOUNG,
                ListNote::NewPage => {
                    self.mark[i] = 0;
                    self.mark_page[i] = u64::MAX;
                    continue;
                }
            };
            self.mark_page[i] = pack(inst.page(f));
            if let Some(v) = fresh.as_deref_mut() {
                v.push(f);
            }
        }
    }

    /// Runs whole events at full speed (`Simulation::run_quiet`: none is a page-cleaner round,
    /// none starts at `before` or later, at most `max`), then marks what the boundary passed
    /// meanwhile, as stepping them one at a time does (no refill among them, so the marks of the
    /// cycle go on). The code panel keeps the last stepped event's lines: a caller steps the
    /// event it stops at. Returns the events run.
    pub(super) fn run_quiet(&mut self, before: Micros, max: u64) -> u64 {
        let n = self.sim.run_quiet(before, max);
        let log = self.take_log();
        // run_quiet runs no page-cleaner round: no refill among these events.
        self.apply_log(&log, false, None);
        self.give_back(log);
        n
    }

    /// The last refill's numbers as every part of the page prints them: pages it evicted, pages
    /// its bulk demotion turned old and the hot-set pages among them, those of them evicted
    /// since, and the pages the boundary turned young since it (the drain's slide so far).
    pub(super) fn batch_numbers(&self) -> BatchNumbers {
        let inst = &self.sim.pool.instances[0];
        match &self.batch {
            Some(b) => BatchNumbers {
                evicted: b.evicted,
                demoted: b.demoted_frames.len() as u32,
                demoted_hot: b.demoted_hot.len() as u32,
                lost_hot: b
                    .demoted_hot
                    .iter()
                    .filter(|&&(f, page)| !inst.lru.contains(f) || pack(inst.page(f)) != page)
                    .count() as u32,
                young_since: inst
                    .lru
                    .slides
                    .total_young()
                    .saturating_sub(b.slid_young_after),
            },
            None => BatchNumbers {
                young_since: inst.lru.slides.total_young(),
                ..BatchNumbers::default()
            },
        }
    }

    pub(super) fn approx_bytes(&self) -> u64 {
        let p = self.sim.params();
        let frames = self.sim.pool.total_frames() as u64;
        let filler = if p.start == midpoint_core::scenario::Start::Cold {
            frames
        } else {
            1
        };
        frames * 60
            + (p.hot_table_pages as u64 + p.scan_table_pages() as u64 + filler) * 4
            + self.sim.samples().len() as u64 * 160
            + self.sim.batches().len() as u64 * 64
            + 4096
    }
}

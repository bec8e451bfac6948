//! A drain as watched and scrubbed: its pace in slow motion, the rule shown in the code panel
//! while the boundary slides, and the positions kept for scrubbing it (its start right after
//! the refill, the reads it can stop at, snapshots on the way).

use super::cursor::Cursor;
use super::{
    DRAIN_BAND, DRAIN_BEAT_MS, DRAIN_FAST, DRAIN_FAST_MAX, DRAIN_FIRST_READS, DRAIN_SLOWEST_GAP_MS,
    DRAIN_SLOW_READS,
};

/// Where a watched drain is in its choreography.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct DrainPace {
    /// 0: the first reads, 1: the dead band, 2: the boundary's first steps, 3: the fast part.
    pub(super) phase: u8,
    /// Reads in this phase, and when the last one ran (wall ms).
    pub(super) count: u32,
    pub(super) last_ms: f64,
    /// When the fast part began (wall ms), and the frames due (negative: owed).
    pub(super) fast_at: f64,
    pub(super) acc: f64,
}

impl DrainPace {
    /// A drain's pace from its first read (which is due at once).
    pub(super) fn start() -> DrainPace {
        DrainPace {
            last_ms: f64::NEG_INFINITY,
            ..DrainPace::default()
        }
    }

    /// The reads due at wall time `now_ms`, `dt` ms after the last frame: at the slowest
    /// speed (`slowest`) one at a time once the close-up is at rest (`moving` false) and
    /// DRAIN_SLOWEST_GAP_MS after the last; else the first reads a beat apart, the dead band
    /// until the boundary has `slid`, the boundary's first steps a beat apart again, then
    /// faster and faster. Frames taken beyond what was due are owed (`acc` negative).
    pub(super) fn due(
        &mut self,
        now_ms: f64,
        dt: f64,
        slowest: bool,
        moving: bool,
        slid: bool,
    ) -> u32 {
        if slowest {
            if moving || now_ms - self.last_ms < DRAIN_SLOWEST_GAP_MS {
                return 0;
            }
            self.last_ms = now_ms;
            self.acc = self.acc.min(0.0);
            return 1;
        }
        let beat = |p: &mut DrainPace| {
            if now_ms - p.last_ms >= DRAIN_BEAT_MS {
                p.last_ms = now_ms;
                p.count += 1;
                1
            } else {
                0
            }
        };
        match self.phase {
            0 if self.count < DRAIN_FIRST_READS => return beat(self),
            0 | 1 if !slid => {
                self.phase = 1;
                self.acc += dt * DRAIN_BAND / 1000.0;
            }
            0 | 1 => {
                self.phase = 2;
                self.count = 0;
                self.last_ms = now_ms;
                return 0;
            }
            2 if self.count < DRAIN_SLOW_READS => return beat(self),
            2 => {
                self.phase = 3;
                self.fast_at = now_ms;
                self.acc = 0.0;
            }
            _ => {
                let s = ((now_ms - self.fast_at) / 1000.0).max(0.0);
                self.acc += dt * (DRAIN_FAST * (1.0 + s) * (1.0 + s)).min(DRAIN_FAST_MAX) / 1000.0;
            }
        }
        if self.acc >= 1.0 {
            let k = self.acc.floor();
            self.acc -= k;
            k as u32
        } else {
            0
        }
    }
}

/// The drain under the view.
#[derive(Default)]
pub(super) struct Drain {
    /// Reads owed to a watched drain (fractions carried between frames).
    pub(super) acc: f64,
    /// A watched drain's choreography.
    pub(super) pace: DrainPace,
    /// While a watched drain slides the boundary: the rule that moves what is on screen (the
    /// shrink step), shown in the code panel instead of the frame's last incidental event.
    pub(super) watch_code: Option<super::super::code::CodeAt>,
    /// The position right after the last refill seen, and positions of its drain kept while
    /// scrubbing it (`scrub`), and the reads it can stop at.
    pub(super) start: Option<Cursor>,
    pub(super) snaps: Vec<Cursor>,
    pub(super) stops: Vec<u32>,
}

impl Drain {
    /// A watched drain begins: its pace from the first read, no rule shown yet.
    pub(super) fn begin_watch(&mut self) {
        self.acc = 0.0;
        self.pace = DrainPace::start();
        self.watch_code = None;
    }

    /// A refill at `at`: the drain to scrub starts there.
    pub(super) fn restart(&mut self, at: Option<Cursor>) {
        self.start = at;
        self.snaps.clear();
        self.stops.clear();
    }

    /// The start of the drain `cur` is in (None: `cur` is not in the drain kept).
    pub(super) fn start_of(&self, cur: &Cursor) -> Option<&Cursor> {
        let b = cur.batch.as_ref()?;
        self.start
            .as_ref()
            .filter(|d| d.refills == cur.refills && d.events() == b.ev)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_watched_drain_reads_a_beat_apart_then_faster_and_faster() {
        let mut p = DrainPace::start();
        // The first reads: one at once, the next a beat later.
        assert_eq!(p.due(0.0, 16.0, false, false, false), 1);
        assert_eq!(p.due(16.0, 16.0, false, false, false), 0);
        assert_eq!(p.due(DRAIN_BEAT_MS, 16.0, false, false, false), 1);
        // The dead band: frames at DRAIN_BAND a second until the boundary slides.
        let mut t = DRAIN_BEAT_MS;
        let mut band = 0;
        for _ in 0..60 {
            t += 1000.0 / 60.0;
            band += p.due(t, 1000.0 / 60.0, false, false, false);
        }
        assert_eq!(p.phase, 1);
        assert!(
            (DRAIN_BAND as u32 - 1..=DRAIN_BAND as u32).contains(&band),
            "{band}"
        );
        // The boundary slid: its first steps a beat apart.
        assert_eq!(p.due(t + 1.0, 1.0, false, false, true), 0);
        assert_eq!(p.phase, 2);
        assert_eq!(p.due(t + 2.0, 1.0, false, false, true), 0);
        assert_eq!(p.due(t + 1.0 + DRAIN_BEAT_MS, 1.0, false, false, true), 1);
        // The slowest speed: one read, only at rest and a gap after the last.
        let mut s = DrainPace::start();
        assert_eq!(s.due(0.0, 16.0, true, true, false), 0);
        assert_eq!(s.due(0.0, 16.0, true, false, false), 1);
        assert_eq!(s.due(1.0, 16.0, true, false, false), 0);
        assert_eq!(s.due(DRAIN_SLOWEST_GAP_MS, 16.0, true, false, false), 1);
    }
}

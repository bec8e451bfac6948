//! The state of a seek on its way to a moment: what follows it, the look-ahead for the next
//! LRU batch, the reader's move kept for its landing, and how the last seek to a time went.

use super::{Input, Watch};

/// A seek's bookkeeping.
#[derive(Default)]
pub(super) struct SeekState {
    /// What to do once there (Watch: the slow motion of the batch found).
    pub(super) after_seek: Option<Watch>,
    /// While running to the next batch: a copy of the simulation that looks ahead for it, and,
    /// once found, the events just before it and whether it is one (false: the run's end).
    pub(super) sim: Option<midpoint_core::sim::Simulation>,
    pub(super) batch_at: Option<(u64, bool)>,
    /// The move to make once the current seek lands.
    pub(super) queued: Option<Input>,
    /// How the last seek to a time went (`Status::seek`), from which event, and the events it
    /// replayed.
    pub(super) kind: &'static str,
    pub(super) from: u64,
    pub(super) replayed: u64,
}

impl SeekState {
    /// Drops the look-ahead (the kept move and what follows stay).
    pub(super) fn clear(&mut self) {
        self.sim = None;
        self.batch_at = None;
    }

    /// Keeps `input` for the landing, replacing any kept before.
    pub(super) fn keep(&mut self, input: Input) {
        self.queued = Some(input);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_latest_move_is_kept_and_clearing_keeps_it() {
        let mut s = SeekState {
            batch_at: Some((10, true)),
            after_seek: Some(Watch::Seeking),
            ..SeekState::default()
        };
        s.keep(Input::Step);
        s.keep(Input::Back);
        s.clear();
        assert_eq!(s.batch_at, None);
        assert!(s.sim.is_none());
        assert_eq!(s.queued, Some(Input::Back));
        assert_eq!(s.after_seek, Some(Watch::Seeking));
        assert_eq!(s.queued.take(), Some(Input::Back));
        assert_eq!(s.queued, None);
    }
}

//! The narration's state: the last sentence written, the event count it was written at (a
//! sentence from an earlier event is stale: the status then derives one from the pool), the
//! count of announcements (screen readers speak a new one), and the busy line of a seek.

/// What the narration says and when it was said.
#[derive(Default)]
pub(super) struct Narration {
    pub(super) text: String,
    /// Events when `text` was written.
    pub(super) at: u64,
    /// Bumped by each sentence to be announced.
    pub(super) seq: u32,
    /// What a seek under way is doing ("Working…"), empty when none is.
    pub(super) busy: String,
}

impl Narration {
    /// Writes `s` at event count `events`; `announce` asks for it to be spoken.
    pub(super) fn set(&mut self, s: String, announce: bool, events: u64) {
        self.at = events;
        if s != self.text {
            self.text = s;
        }
        if announce {
            self.seq = self.seq.wrapping_add(1);
        }
    }

    /// The sentence written at event count `events`, if it is still current (None: stale).
    pub(super) fn current(&self, events: u64) -> Option<&str> {
        (self.at == events).then_some(self.text.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sentence_is_current_only_at_the_event_it_was_written_at() {
        let mut n = Narration::default();
        n.set("12 s: a read.".into(), true, 40);
        assert_eq!(n.current(40), Some("12 s: a read."));
        assert_eq!(n.current(41), None);
        assert_eq!(n.current(39), None);
        assert_eq!(n.seq, 1);
        // Rewritten without an announcement: current again, not spoken.
        n.set("12 s: a read.".into(), false, 41);
        assert_eq!((n.current(41), n.seq), (Some("12 s: a read."), 1));
        n.seq = u32::MAX;
        n.set("later".into(), true, 50);
        assert_eq!((n.current(50), n.seq), (Some("later"), 0));
    }
}

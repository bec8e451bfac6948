//! The playback clock: the speed chosen, the playhead in virtual time, the last frame's wall
//! time, the speed reached, and whether motion is reduced.

use super::{SPEEDS, SPEED_LABELS};
use midpoint_core::clock::Micros;

/// How virtual time follows the wall clock.
pub(super) struct PlayClock {
    /// Index into SPEEDS.
    pub(super) speed: usize,
    pub(super) playhead: Micros,
    /// The wall time of the last frame, ms.
    pub(super) last_ms: Option<f64>,
    /// Set by `play`: its first frame advances nothing (the page's last frame may be a slow
    /// idle poll's, up to 250 ms before).
    pub(super) from_rest: bool,
    pub(super) reduced_motion: bool,
    /// The playing speed reached, virtual s per wall s (smoothed; 0 when not playing).
    pub(super) achieved: f64,
}

impl Default for PlayClock {
    fn default() -> PlayClock {
        PlayClock {
            speed: 4,
            playhead: 0,
            last_ms: None,
            from_rest: false,
            reduced_motion: false,
            achieved: 0.0,
        }
    }
}

impl PlayClock {
    /// Whether steps are tracked (highlights and motion): not under reduced motion.
    pub(super) fn tracked(&self) -> bool {
        !self.reduced_motion
    }

    /// The virtual time `wall_ms` of wall time covers at this speed.
    pub(super) fn speed_us(&self, wall_ms: f64) -> Micros {
        (wall_ms * 1000.0 * SPEEDS[self.speed]).round() as Micros
    }

    /// Faster (+1) or slower (−1) by one speed step, within the range; returns the label.
    pub(super) fn change_speed(&mut self, delta: i32) -> &'static str {
        let i = (self.speed as i32 + delta).clamp(0, SPEEDS.len() as i32 - 1);
        self.speed = i as usize;
        SPEED_LABELS[self.speed]
    }

    /// Sets the speed by index, clamped to the last.
    pub(super) fn set_speed(&mut self, i: u32) {
        self.speed = (i as usize).min(SPEEDS.len() - 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speeds_step_within_their_range_and_scale_wall_time() {
        let mut c = PlayClock::default();
        assert_eq!(SPEED_LABELS[c.speed], "10×");
        assert_eq!(c.speed_us(16.0), 160_000);
        assert_eq!(c.change_speed(1), "30×");
        assert_eq!(c.change_speed(5), "100×");
        assert_eq!(c.change_speed(-100), "1/1000×");
        assert_eq!(c.speed_us(1000.0), 1_000);
        c.set_speed(99);
        assert_eq!(c.speed, SPEEDS.len() - 1);
        assert!(c.tracked());
        c.reduced_motion = true;
        assert!(!c.tracked());
    }
}

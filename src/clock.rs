//! The virtual clock: simulated time in microseconds, never the wall clock.

/// A point or span of simulated time, in microseconds.
pub type Micros = u64;

/// Microseconds in one millisecond.
pub const MS: Micros = 1_000;
/// Microseconds in one second.
pub const SEC: Micros = 1_000_000;

/// Whole milliseconds to microseconds.
pub const fn ms(v: u64) -> Micros {
    v * MS
}

/// Seconds (fractional) to microseconds, rounded to the nearest microsecond.
pub fn secs_f(v: f64) -> Micros {
    (v * SEC as f64).round().max(0.0) as Micros
}

/// Microseconds to seconds.
pub fn to_secs(t: Micros) -> f64 {
    t as f64 / SEC as f64
}

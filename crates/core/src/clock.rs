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

/// A CPU cost in whole microseconds, at least 1: `x.round().max(1.0) as Micros` for every `x`
/// (NaN and negatives give 1), without the libm call `f64::round` becomes on baseline x86-64,
/// which the scan paid once per page.
#[inline]
pub fn cost_us(x: f64) -> Micros {
    if x.is_nan() || x < 1.5 {
        // Rounds to 1 or below.
        return 1;
    }
    if x >= 4_503_599_627_370_496.0 {
        // 2^52 and up: already whole (or saturates as the cast does).
        return x as Micros;
    }
    // Through i64, whose conversions are single instructions (u64's are not before AVX-512).
    let whole = x as i64;
    // Exact: x and its whole part share an exponent range, so the difference is representable.
    (whole + (x - whole as f64 >= 0.5) as i64) as Micros
}

/// Microseconds to seconds.
pub fn to_secs(t: Micros) -> f64 {
    t as f64 / SEC as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `cost_us` is `round().max(1.0) as Micros` on the edges and on every half.
    #[test]
    fn cost_us_rounds_as_f64_round() {
        let plain = |x: f64| x.round().max(1.0) as Micros;
        let mut xs = vec![
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            -3.5,
            0.0,
            0.49999999999999994,
            0.5,
            1.4999999999999998,
            1.5,
            2.5,
            15.0,
            4_503_599_627_370_495.5,
            4_503_599_627_370_496.0,
            9_007_199_254_740_993.0,
            1e300,
        ];
        for k in 0..20_000u32 {
            let x = k as f64 / 8.0;
            xs.extend([x, x + 1e-9, x - 1e-9, f64::from_bits(x.to_bits() + 1)]);
        }
        for x in xs {
            assert_eq!(cost_us(x), plain(x), "x = {x:e}");
        }
    }
}

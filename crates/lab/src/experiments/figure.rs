//! One published figure, what it is checked against, and the one checker every experiment,
//! `midpoint reproduce` and the tests share.

use serde::Serialize;

/// The stated tolerance for a share (kept, hot set cached) the seed gives as one number without
/// a spread: ±0.10, inside the ±0.15 the project allows at most.
pub const SHARE_TOLERANCE: f64 = 0.10;
/// The stated tolerance for a count, rate or time the seed gives as one number without a spread:
/// ±30 % of the figure, inside the ±50 % the project allows at most.
pub const COUNT_TOLERANCE: f64 = 0.30;

/// What a figure is to the simulator: restated input, fitted value, or prediction. Only
/// predictions say something the model was not told.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// A parameter sets it (the figure's `basis` names which).
    Input,
    /// The calibration fitted the model to it, or parameters chosen without a source set it
    /// (the figure's `basis` says how): fitted.
    Calibration,
    /// A capacity of the pool (a sublist's size, the hot set's) that any long enough run
    /// reaches: not a prediction of the dynamics.
    Capacity,
    /// Everything else: what the model says without being told.
    Prediction,
}

/// What the simulated figure must do to hold.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Expect {
    /// Lie in `lo ..= hi`.
    Within { lo: f64, hi: f64 },
    /// A claim (a direction, an ordering) that must be true.
    Holds,
    /// Shown beside the seed, not checked.
    Shown,
}

/// One published figure and how it is checked.
#[derive(Clone, Debug, Serialize)]
pub struct Figure {
    /// What the seed measured or stated, in words.
    pub what: String,
    /// The seed's value, as the seed gives it.
    pub seed_value: String,
    /// Input, calibration or prediction.
    pub role: Role,
    /// For an input or a calibrated figure: which parameter or fit sets it.
    pub basis: String,
    /// What must hold.
    pub expect: Expect,
    /// Why the band (or the claim) is what it is.
    pub reason: String,
    /// Why it does not match, where it does not; empty otherwise.
    pub note: String,
    /// The seed's own value as numbers, `[lo, hi]` (`lo == hi` for a single number), in the
    /// unit the figure is checked in; `None` where the seed gives no number. Plots draw it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub published: Option<[f64; 2]>,
    /// Non-empty when every plausible setting satisfies the figure: why it does not
    /// discriminate. Shown as "does not discriminate" and not counted.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub indiscriminate: String,
}

impl Figure {
    /// A predicted figure checked against `lo ..= hi`, with the reason for the band.
    pub fn within(what: &str, seed_value: &str, lo: f64, hi: f64, reason: &str) -> Figure {
        Figure {
            what: what.into(),
            seed_value: seed_value.into(),
            role: Role::Prediction,
            basis: String::new(),
            expect: Expect::Within { lo, hi },
            reason: reason.into(),
            note: String::new(),
            published: None,
            indiscriminate: String::new(),
        }
    }

    /// A predicted claim that must hold.
    pub fn holds(what: &str, seed_value: &str, reason: &str) -> Figure {
        Figure {
            expect: Expect::Holds,
            ..Figure::within(what, seed_value, 0.0, 0.0, reason)
        }
    }

    /// A figure shown, not checked; `note` says why.
    pub fn shown(what: &str, seed_value: &str, note: &str) -> Figure {
        Figure {
            expect: Expect::Shown,
            note: note.into(),
            ..Figure::within(what, seed_value, 0.0, 0.0, "")
        }
    }

    /// Marks the figure as set by a parameter (`basis`: which, and how).
    pub fn input(mut self, basis: &str) -> Figure {
        self.role = Role::Input;
        self.basis = basis.into();
        self
    }

    /// Marks the figure as fitted by the calibration (`basis`: how).
    pub fn calibration(mut self, basis: &str) -> Figure {
        self.role = Role::Calibration;
        self.basis = basis.into();
        self
    }

    /// Marks the figure as a capacity the run reaches whatever the dynamics (`basis`: which).
    pub fn capacity(mut self, basis: &str) -> Figure {
        self.role = Role::Capacity;
        self.basis = basis.into();
        self
    }

    /// Records the seed's own value as numbers (`lo == hi` for a single number).
    pub fn published(mut self, lo: f64, hi: f64) -> Figure {
        self.published = Some([lo, hi]);
        self
    }

    /// Adds the note saying why it does not match.
    pub fn note(mut self, note: &str) -> Figure {
        self.note = note.into();
        self
    }

    /// Lowers the band's upper end to `max`, a physical limit (the hot set's size, ...).
    pub fn cap(mut self, max: f64) -> Figure {
        if let Expect::Within { hi, .. } = &mut self.expect {
            *hi = hi.min(max);
        }
        self
    }

    /// Marks the figure as one every plausible setting satisfies (`why`: what showed it):
    /// still checked and shown, as "does not discriminate", but not counted.
    pub fn does_not_discriminate(mut self, why: &str) -> Figure {
        self.indiscriminate = why.into();
        self
    }

    /// Whether the figure counts toward "in band": a checked prediction that discriminates.
    pub fn counts(&self) -> bool {
        self.role == Role::Prediction && self.expect != Expect::Shown && self.discriminates()
    }

    /// Whether some plausible setting could fail it.
    pub fn discriminates(&self) -> bool {
        self.indiscriminate.is_empty()
    }

    /// The band, if the figure has one.
    pub fn band(&self) -> Option<(f64, f64)> {
        match self.expect {
            Expect::Within { lo, hi } => Some((lo, hi)),
            _ => None,
        }
    }
}

/// What the simulation gave for a figure.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Measured {
    /// A number in the figure's unit (`NaN`: the runs could not tell).
    Number(f64),
    /// Whether a claim held in the runs.
    Claim(bool),
}

/// A figure beside its simulated value, checked.
#[derive(Clone, Debug, Serialize)]
pub struct Check {
    pub figure: Figure,
    /// The simulated value, formatted for the table.
    pub simulated: String,
    pub measured: Measured,
    /// `Some(true)`: holds; `Some(false)`: does not; `None`: shown, not checked.
    pub holds: Option<bool>,
}

/// The checker: whether `measured` satisfies the figure's expectation. A number outside its
/// band, a number that is not finite, a false claim, or a measurement of the wrong kind fails.
pub fn holds(expect: &Expect, measured: Measured) -> Option<bool> {
    match (expect, measured) {
        (Expect::Shown, _) => None,
        (Expect::Within { lo, hi }, Measured::Number(v)) => {
            Some(v.is_finite() && *lo <= v && v <= *hi)
        }
        (Expect::Holds, Measured::Claim(b)) => Some(b),
        _ => Some(false),
    }
}

/// Checks one figure.
pub fn check(figure: Figure, measured: Measured, simulated: String) -> Check {
    let holds = holds(&figure.expect, measured);
    Check {
        figure,
        simulated,
        measured,
        holds,
    }
}

/// The checks that failed.
pub fn failed(checks: &[Check]) -> Vec<&Check> {
    checks.iter().filter(|c| c.holds == Some(false)).collect()
}

/// How many checks held.
pub fn held(checks: &[Check]) -> usize {
    checks.iter().filter(|c| c.holds == Some(true)).count()
}

/// The counted predictions (see [`Figure::counts`]): (in band, counted).
pub fn score(checks: &[Check]) -> (usize, usize) {
    let counted: Vec<&Check> = checks.iter().filter(|c| c.figure.counts()).collect();
    let held = counted.iter().filter(|c| c.holds == Some(true)).count();
    (held, counted.len())
}

/// "N of M predictions in band", then one line per counted miss with its reason, and one
/// line saying how many figures were left out as not discriminating.
pub fn score_lines(checks: &[Check]) -> String {
    let (held, counted) = score(checks);
    let mut s = format!("{held} of {counted} predictions in band\n");
    for c in checks
        .iter()
        .filter(|c| c.figure.counts() && c.holds == Some(false))
    {
        let why = if c.figure.note.is_empty() {
            "no mechanism found yet"
        } else {
            c.figure.note.as_str()
        };
        s.push_str(&format!(
            "- miss: {} (seed {}, simulated {}): {why}\n",
            c.figure.what, c.figure.seed_value, c.simulated
        ));
    }
    let left_out = checks
        .iter()
        .filter(|c| c.figure.role == Role::Prediction && !c.figure.discriminates())
        .count();
    if left_out > 0 {
        s.push_str(&format!(
            "({left_out} more figures do not discriminate: every plausible setting satisfies them; not counted)\n"
        ));
    }
    s
}

/// The failed checks, one line each, for a test's failure message.
pub fn describe_failures(checks: &[Check]) -> String {
    failed(checks)
        .iter()
        .map(|c| {
            format!(
                "- {} (seed {}): simulated {} ({:?}), expected {:?}",
                c.figure.what, c.figure.seed_value, c.simulated, c.measured, c.figure.expect
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_checker() {
        let f = Figure::within("kept", "41 %", 0.30, 0.55, "test");
        assert_eq!(holds(&f.expect, Measured::Number(0.41)), Some(true));
        assert_eq!(holds(&f.expect, Measured::Number(0.55)), Some(true));
        assert_eq!(holds(&f.expect, Measured::Number(0.56)), Some(false));
        assert_eq!(holds(&f.expect, Measured::Number(f64::NAN)), Some(false));
        assert_eq!(holds(&f.expect, Measured::Claim(true)), Some(false));
        let c = Figure::holds("faster", "yes", "direction");
        assert_eq!(holds(&c.expect, Measured::Claim(true)), Some(true));
        assert_eq!(holds(&c.expect, Measured::Claim(false)), Some(false));
        let s = Figure::shown("peak", "5", "shown");
        assert_eq!(holds(&s.expect, Measured::Number(1.0)), None);
        let checks = vec![
            check(f, Measured::Number(0.9), "90 %".into()),
            check(c, Measured::Claim(true), "yes".into()),
        ];
        assert_eq!(failed(&checks).len(), 1);
        assert_eq!(held(&checks), 1);
        assert!(describe_failures(&checks).contains("kept (seed 41 %): simulated 90 %"));
    }

    #[test]
    fn roles() {
        let f = Figure::within("warm-up lookups", "~5,000", 4500.0, 5500.0, "r")
            .input("lookup_cpu_us = 200");
        assert_eq!(f.role, Role::Input);
        assert_eq!(f.band(), Some((4500.0, 5500.0)));
        assert_eq!(Figure::holds("x", "y", "z").band(), None);
    }
}

//! The parameter schema: each parameter of a scenario is declared once, as a field with its
//! default and a [`Spec`] (name, server variable, unit, allowed values, a few words), in a
//! `params!` declaration. From it follow the struct and its `Default`, parsing from text with
//! the range or choice checks, validation, clamping (the page's rule), the `(name, value)` pairs
//! of URLs and CSV headers, the CLI's flags and their `--help`, and the page's slider facts.
//!
//! [`Value`] is what a field's type must provide: parsing, printing and (for numbers) clamping,
//! all driven by the field's [`Spec`]. Parameters that the read-only and the write-path scenarios
//! share are declared here once ([`SEED`], [`OLD_BLOCKS_PCT`], ...) and named by both.

use crate::engine::Engine;
use crate::pool::page_cleaner::Cadence;
use crate::pool::WhatIfs;
use crate::scenario::Start;
use crate::workload::sysbench::Mix;
use crate::workload::{LookupDist, ScanMode};

/// What values a parameter takes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Allowed {
    /// A whole number from `min` to `max`.
    Int(u64, u64),
    /// A finite number from `min` to `max`.
    Real(f64, f64),
    /// One of these words (for a yes/no parameter: the word for yes, then the word for no).
    Choice(&'static [&'static str]),
    /// Text in the form described (a cadence, a list).
    Text(&'static str),
}

/// One parameter's declaration.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spec {
    /// The name: the CLI flag without dashes, the URL key, the CSV header's key.
    pub name: &'static str,
    /// The server variable it stands for, if any.
    pub innodb: Option<&'static str>,
    /// MySQL 8.4's default for that variable, in this parameter's unit, where it is shown.
    pub innodb_default: Option<f64>,
    /// Unit ("" when none).
    pub unit: &'static str,
    /// Allowed values.
    pub allowed: Allowed,
    /// What it is, in a few words.
    pub help: &'static str,
}

impl Spec {
    /// A whole-number parameter's range, `(min, max)`; `None` for any other kind.
    pub const fn int_range(&self) -> Option<(u64, u64)> {
        match self.allowed {
            Allowed::Int(lo, hi) => Some((lo, hi)),
            _ => None,
        }
    }
    /// A whole-number parameter from `min` to `max`.
    pub const fn int(name: &'static str, min: u64, max: u64, unit: &'static str) -> Spec {
        Spec::new(name, unit, Allowed::Int(min, max))
    }
    /// A real-number parameter from `min` to `max`.
    pub const fn real(name: &'static str, min: f64, max: f64, unit: &'static str) -> Spec {
        Spec::new(name, unit, Allowed::Real(min, max))
    }
    /// A parameter that takes one of `words` (a yes/no one: the word for yes first).
    pub const fn choice(name: &'static str, words: &'static [&'static str]) -> Spec {
        Spec::new(name, "", Allowed::Choice(words))
    }
    /// A parameter whose text has the form `form`.
    pub const fn text(name: &'static str, form: &'static str) -> Spec {
        Spec::new(name, "", Allowed::Text(form))
    }
    const fn new(name: &'static str, unit: &'static str, allowed: Allowed) -> Spec {
        Spec {
            name,
            innodb: None,
            innodb_default: None,
            unit,
            allowed,
            help: "",
        }
    }
    /// The server variable it stands for.
    pub const fn server(mut self, variable: &'static str) -> Spec {
        self.innodb = Some(variable);
        self
    }
    /// The server variable it stands for, and MySQL 8.4's default (in this parameter's unit).
    pub const fn server_default(mut self, variable: &'static str, default: f64) -> Spec {
        self.innodb = Some(variable);
        self.innodb_default = Some(default);
        self
    }
    /// What it is, in a few words.
    pub const fn help(mut self, help: &'static str) -> Spec {
        self.help = help;
        self
    }

    /// The numeric range, for a number parameter.
    pub fn bounds(&self) -> Option<(f64, f64)> {
        match self.allowed {
            Allowed::Int(lo, hi) => Some((lo as f64, hi as f64)),
            Allowed::Real(lo, hi) => Some((lo, hi)),
            Allowed::Choice(_) | Allowed::Text(_) => None,
        }
    }

    /// The allowed values in words, for messages and `--help`: "from 5 to 95 %",
    /// "one of: nvme, cloud".
    pub fn allowed(&self) -> String {
        let unit = |s: String| {
            if self.unit.is_empty() {
                s
            } else {
                format!("{s} {}", self.unit)
            }
        };
        match self.allowed {
            Allowed::Int(lo, hi) => unit(format!("from {} to {}", group(lo), group(hi))),
            Allowed::Real(lo, hi) => unit(format!("from {} to {}", real(lo), real(hi))),
            Allowed::Choice(words) => format!("one of: {}", words.join(", ")),
            Allowed::Text(form) => form.to_string(),
        }
    }

    /// The help line of this parameter's flag: what it is, its server variable, what is allowed
    /// and MySQL's default.
    pub fn flag_help(&self) -> String {
        let var = self
            .innodb
            .filter(|v| !self.help.starts_with(v))
            .map(|v| format!(" ({v})"))
            .unwrap_or_default();
        let default = self
            .innodb_default
            .map(|d| format!("; MySQL 8.4 default {}", real(d)))
            .unwrap_or_default();
        format!("{}{var} [{}{default}]", self.help, self.allowed())
    }

    /// The error for a value this parameter does not take.
    pub fn refuse(&self, value: &str, problem: &str) -> String {
        format!(
            "{} = '{value}' {problem}; allowed: {}",
            self.name,
            self.allowed()
        )
    }

    /// The error for a word that is not one of this parameter's choices.
    pub fn not_a_choice(&self, value: &str) -> String {
        format!(
            "{} = '{value}' is not one of: {}",
            self.name,
            self.choices().join(", ")
        )
    }

    fn parse_int(&self, t: &str) -> Result<u64, String> {
        let Allowed::Int(lo, hi) = self.allowed else {
            return Err(format!("{} is not a whole-number parameter", self.name));
        };
        // A whole number is written in digits: `1e8` or `100.0` are malformed here (the page
        // reads them as numbers and rounds, with a message), a negative number is below range.
        let n = match t.parse::<u64>() {
            Ok(n) => n,
            // More digits than a u64 holds: a whole number, out of range.
            Err(_) if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) => {
                return Err(self.refuse(t, "is out of range"))
            }
            Err(_) => match t.parse::<f64>() {
                Ok(x) if x.is_finite() && x < 0.0 && x.fract() == 0.0 => {
                    return Err(self.refuse(t, "is out of range"))
                }
                Ok(x) if x.is_finite() && x.fract() != 0.0 => {
                    return Err(self.refuse(t, "is not a whole number"))
                }
                Ok(x) if x.is_finite() => {
                    return Err(self.refuse(t, "is not a whole number written in digits"))
                }
                _ => return Err(self.refuse(t, "is not a number")),
            },
        };
        if !(lo..=hi).contains(&n) {
            return Err(self.refuse(t, "is out of range"));
        }
        Ok(n)
    }

    fn parse_real(&self, t: &str) -> Result<f64, String> {
        let Allowed::Real(lo, hi) = self.allowed else {
            return Err(format!("{} is not a number parameter", self.name));
        };
        let x: f64 = t.parse().map_err(|_| self.refuse(t, "is not a number"))?;
        if !x.is_finite() {
            return Err(self.refuse(t, "is not a finite number"));
        }
        if !(lo..=hi).contains(&x) {
            return Err(self.refuse(t, "is out of range"));
        }
        Ok(x)
    }

    fn choices(&self) -> &'static [&'static str] {
        match self.allowed {
            Allowed::Choice(words) => words,
            _ => &[],
        }
    }
}

/// A whole number with thousands separators: 4,294,967,295.
pub fn group(n: u64) -> String {
    let digits = n.to_string();
    let mut s = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            s.push(',');
        }
        s.push(ch);
    }
    s
}

/// A bound for people: whole numbers grouped by thousands, others as they are.
fn real(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        let g = group(x.abs() as u64);
        if x < 0.0 {
            format!("-{g}")
        } else {
            g
        }
    } else {
        format!("{x}")
    }
}

/// Formats a number without a trailing ".0".
pub fn fmt_num(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}

/// What a parameter's type provides: reading its value from text (checked against the spec),
/// writing it back, and bringing it into range.
pub trait Value: Sized {
    /// Parses `text` (trimmed), checking it against what `spec` allows.
    fn parse(spec: &Spec, text: &str) -> Result<Self, String>;
    /// The value as text that [`Value::parse`] reads back.
    fn text(&self, spec: &Spec) -> String;
    /// Sets the value from text. Most types replace the value; a set of what-ifs adds to it.
    fn set_text(&mut self, spec: &Spec, text: &str) -> Result<(), String> {
        *self = Self::parse(spec, text)?;
        Ok(())
    }
    /// Checks the value against `spec`: the error names the value and what is allowed.
    fn check(&self, spec: &Spec) -> Result<(), String> {
        Self::parse(spec, &self.text(spec)).map(|_| ())
    }
    /// Brings a number into its range; returns the value before when it changed it.
    fn bring_into_range(&mut self, _spec: &Spec) -> Option<String> {
        None
    }
}

macro_rules! int_value {
    ($t:ty) => {
        impl Value for $t {
            fn parse(spec: &Spec, text: &str) -> Result<Self, String> {
                let n = spec.parse_int(text)?;
                <$t>::try_from(n).map_err(|_| spec.refuse(text, "is out of range"))
            }
            fn text(&self, _: &Spec) -> String {
                self.to_string()
            }
            fn bring_into_range(&mut self, spec: &Spec) -> Option<String> {
                let Allowed::Int(lo, hi) = spec.allowed else {
                    return None;
                };
                let was = *self;
                let y = (*self as u64).clamp(lo, hi);
                *self = <$t>::try_from(y).unwrap_or(<$t>::MAX);
                (*self != was).then(|| was.to_string())
            }
        }
    };
}
int_value!(u32);
int_value!(u64);

impl Value for f64 {
    fn parse(spec: &Spec, text: &str) -> Result<Self, String> {
        spec.parse_real(text)
    }
    fn text(&self, _: &Spec) -> String {
        fmt_num(*self)
    }
    fn bring_into_range(&mut self, spec: &Spec) -> Option<String> {
        let (lo, hi) = spec.bounds()?;
        let was = *self;
        *self = if was.is_finite() {
            was.clamp(lo, hi)
        } else {
            lo
        };
        (*self != was).then(|| fmt_num(was))
    }
}

/// A yes/no parameter, written with its spec's two words (`on`/`off`, `true`/`false`); any of
/// the usual spellings is read.
impl Value for bool {
    fn parse(spec: &Spec, text: &str) -> Result<Self, String> {
        let words = spec.choices();
        if words.first() == Some(&text) {
            return Ok(true);
        }
        if words.get(1) == Some(&text) {
            return Ok(false);
        }
        match text.to_ascii_lowercase().as_str() {
            "true" | "1" | "yes" | "on" => Ok(true),
            "false" | "0" | "no" | "off" => Ok(false),
            _ => Err(spec.not_a_choice(text)),
        }
    }
    fn text(&self, spec: &Spec) -> String {
        let words = spec.choices();
        let (yes, no) = (
            words.first().copied().unwrap_or("true"),
            words.get(1).copied().unwrap_or("false"),
        );
        if *self { yes } else { no }.to_string()
    }
}

/// A name among the spec's choices (the storage device).
impl Value for String {
    fn parse(spec: &Spec, text: &str) -> Result<Self, String> {
        if spec.choices().contains(&text) {
            Ok(text.to_string())
        } else {
            Err(spec.not_a_choice(text))
        }
    }
    fn text(&self, _: &Spec) -> String {
        self.clone()
    }
}

/// An enum whose words are its spec's choices, in variant order.
macro_rules! word_value {
    ($t:ty, [$($v:expr),+]) => {
        impl Value for $t {
            fn parse(spec: &Spec, text: &str) -> Result<Self, String> {
                spec.choices()
                    .iter()
                    .zip([$($v),+])
                    .find(|(w, _)| **w == text)
                    .map(|(_, v)| v)
                    .ok_or_else(|| spec.not_a_choice(text))
            }
            fn text(&self, spec: &Spec) -> String {
                let i = [$($v),+].iter().position(|v| v == self).expect("a variant");
                spec.choices()[i].to_string()
            }
        }
    };
}
word_value!(ScanMode, [ScanMode::Normal, ScanMode::Scan]);
word_value!(LookupDist, [LookupDist::Uniform, LookupDist::Special]);
word_value!(Start, [Start::Warm, Start::Cold, Start::Restart]);

impl Value for Engine {
    fn parse(_: &Spec, text: &str) -> Result<Self, String> {
        Engine::parse(text)
    }
    fn text(&self, _: &Spec) -> String {
        self.label().into()
    }
}

impl Value for Mix {
    fn parse(_: &Spec, text: &str) -> Result<Self, String> {
        Mix::parse(text)
    }
    fn text(&self, _: &Spec) -> String {
        self.label().into()
    }
}

impl Value for Cadence {
    fn parse(_: &Spec, text: &str) -> Result<Self, String> {
        Cadence::parse(text)
    }
    fn text(&self, _: &Spec) -> String {
        self.label()
    }
}

/// A set of what-ifs: each value given adds to it (`none` clears it), so that the flag repeats.
impl Value for WhatIfs {
    fn parse(_: &Spec, text: &str) -> Result<Self, String> {
        let mut w = WhatIfs::NONE;
        w.add_parsed(text)?;
        Ok(w)
    }
    fn text(&self, _: &Spec) -> String {
        self.label()
    }
    fn set_text(&mut self, _: &Spec, text: &str) -> Result<(), String> {
        self.add_parsed(text)
    }
}

/// Declares a scenario's parameters: one line per parameter, `field: Type = default => spec`,
/// from which follow the struct, its `Default`, and the table-driven methods `SPECS`, `spec`,
/// `set_declared`, `pairs`, `check_declared` and `clamp_declared`. Cross-parameter rules are
/// written by hand beside it.
macro_rules! params {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $(
                $(#[$fmeta:meta])*
                $field:ident : $ty:ty = $default:expr => $spec:expr
            ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        pub struct $name {
            $(
                $(#[$fmeta])*
                pub $field: $ty,
            )*
        }

        impl Default for $name {
            fn default() -> Self {
                $name {
                    $($field: $default,)*
                }
            }
        }

        #[allow(dead_code)]
        impl $name {
            /// Every parameter's declaration, in declaration order.
            pub const SPECS: &'static [$crate::scenario::schema::Spec] = &[$($spec),*];

            /// The declaration of the parameter with this name.
            pub fn spec(name: &str) -> Option<&'static $crate::scenario::schema::Spec> {
                Self::SPECS.iter().find(|s| s.name == name)
            }

            /// Sets the declared parameter `name` from text; `None` when there is none.
            fn set_declared(&mut self, name: &str, text: &str) -> Option<Result<(), String>> {
                use $crate::scenario::schema::Value;
                $(
                    {
                        const SPEC: $crate::scenario::schema::Spec = $spec;
                        if SPEC.name == name {
                            return Some(self.$field.set_text(&SPEC, text.trim()));
                        }
                    }
                )*
                None
            }

            /// Every parameter as (name, value) text, in declaration order.
            fn pairs(&self) -> Vec<(&'static str, String)> {
                use $crate::scenario::schema::Value;
                vec![$(
                    {
                        const SPEC: $crate::scenario::schema::Spec = $spec;
                        (SPEC.name, self.$field.text(&SPEC))
                    }
                ),*]
            }

            /// Checks every value against its declaration.
            fn check_declared(&self) -> Result<(), String> {
                use $crate::scenario::schema::Value;
                $(
                    {
                        const SPEC: $crate::scenario::schema::Spec = $spec;
                        self.$field.check(&SPEC)?;
                    }
                )*
                Ok(())
            }

            /// Brings every number into its range, with one note per change.
            fn clamp_declared(&mut self) -> Vec<String> {
                use $crate::scenario::schema::Value;
                let mut notes = Vec::new();
                $(
                    {
                        const SPEC: $crate::scenario::schema::Spec = $spec;
                        if let Some(was) = self.$field.bring_into_range(&SPEC) {
                            notes.push(format!(
                                "{} = {was} is out of range ({}); using {}",
                                SPEC.name,
                                SPEC.allowed(),
                                self.$field.text(&SPEC)
                            ));
                        }
                    }
                )*
                notes
            }
        }
    };
}
pub(crate) use params;

// The parameters both scenarios take, declared once.

/// `innodb_old_blocks_pct`.
pub const OLD_BLOCKS_PCT: Spec = Spec::int("old_blocks_pct", 5, 95, "%")
    .server_default("innodb_old_blocks_pct", 37.0)
    .help("innodb_old_blocks_pct: target share of the LRU list in the old sublist");
/// `innodb_old_blocks_time`.
pub const OLD_BLOCKS_TIME: Spec = Spec::int("old_blocks_time", 0, u32::MAX as u64, "ms")
    .server_default("innodb_old_blocks_time", 1000.0)
    .help("innodb_old_blocks_time: an old page is promoted only when touched this long after its first access");
/// `innodb_lru_scan_depth`.
pub const LRU_SCAN_DEPTH: Spec = Spec::int("lru_scan_depth", 100, u32::MAX as u64, "pages")
    .server_default("innodb_lru_scan_depth", 1024.0)
    .help("innodb_lru_scan_depth: the page cleaner tops the free list up to this many pages per instance");
/// `innodb_buffer_pool_instances`.
pub const BUFFER_POOL_INSTANCES: Spec = Spec::int("buffer_pool_instances", 1, 64, "")
    .server("innodb_buffer_pool_instances")
    .help("innodb_buffer_pool_instances (a read-only scenario's pool_mb under 1 GiB has 1)");
/// How a client picks its page.
pub const LOOKUP_DIST: Spec = Spec::choice("lookup_dist", &["uniform", "special"]).help(
    "uniform, or special (sysbench's default --rand-type: 75 % of accesses on the first 1 % of the pages)",
);
/// The random seed.
pub const SEED: Spec = Spec::int("seed", 0, MAX_SAFE_INTEGER, "")
    .help("random seed: the same seed gives the same run (up to 2^53 - 1, what a JavaScript number holds: the page and the JS API take the same seeds)");
/// The largest whole number a JavaScript number holds exactly (2^53 - 1): the largest seed.
pub const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;
/// CPU per scanned page.
pub const SCAN_CPU_US_PER_PAGE: Spec =
    Spec::real("scan_cpu_us_per_page", 0.1, 100_000.0, "µs").help("CPU time per scanned page");
/// Candidate rule changes.
pub const WHAT_IF: Spec = Spec::choice(
    "what_if",
    &[
        "none",
        "slide-spares-fresh",
        "free-frames-count-as-old",
        "user-replaces-free-frame",
        "empty-free-list-wakes-cleaner",
    ],
)
.help("a candidate change to one InnoDB rule (see `midpoint what-ifs`); repeat the flag or give a comma-separated list; none = stock MySQL 8.4");

/// Checks a parameter set's declaration: names unique, help given, the default allowed; every
/// parameter's default round-trips through its text (default → pairs → set → equal); and each
/// parameter set to another allowed value reads back as that value and is undone by setting the
/// default's text again (so that `set` reaches the field, for every parameter).
#[cfg(test)]
pub(crate) fn check_declarations<P: Clone + PartialEq + std::fmt::Debug>(
    specs: &[Spec],
    default: &P,
    pairs: impl Fn(&P) -> Vec<(String, String)>,
    set: impl Fn(&mut P, &str, &str) -> Result<(), String>,
) {
    let base = pairs(default);
    assert_eq!(base.len(), specs.len());
    for (i, s) in specs.iter().enumerate() {
        assert!(specs[..i].iter().all(|t| t.name != s.name), "{}", s.name);
        assert!(!s.help.is_empty(), "{} has no help", s.name);
    }
    let text = |p: &P, name: &str| {
        pairs(p)
            .into_iter()
            .find(|(k, _)| k == name)
            .expect("every declared parameter is in the pairs")
            .1
    };
    for (k, v) in &base {
        let mut q = default.clone();
        set(&mut q, k, v).unwrap_or_else(|e| panic!("the default of {k} is refused: {e}"));
        assert_eq!(&q, default, "{k} = {v}");
    }
    for s in specs {
        let now = text(default, s.name);
        let other: Vec<String> = match s.allowed {
            Allowed::Int(lo, hi) => vec![lo.to_string(), hi.to_string()],
            Allowed::Real(lo, hi) => vec![fmt_num(lo), fmt_num(hi)],
            Allowed::Choice(words) => words.iter().map(|w| w.to_string()).collect(),
            Allowed::Text(_) => continue,
        };
        let other = other.into_iter().find(|v| *v != now).expect("two values");
        let mut q = default.clone();
        set(&mut q, s.name, &other).unwrap_or_else(|e| panic!("{}: {e}", s.name));
        assert_eq!(text(&q, s.name), other, "{} = {other} reads back", s.name);
        set(&mut q, s.name, &now).unwrap();
        assert_eq!(&q, default, "{} = {now} again", s.name);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pool::WhatIf;

    #[test]
    fn numbers_are_checked_with_messages_in_words() {
        let e = u32::parse(&OLD_BLOCKS_PCT, "96").unwrap_err();
        assert_eq!(
            e,
            "old_blocks_pct = '96' is out of range; allowed: from 5 to 95 %"
        );
        assert!(!e.contains("..="));
        let e = u32::parse(&LRU_SCAN_DEPTH, "-5").unwrap_err();
        assert!(e.contains("from 100 to 4,294,967,295 pages"), "{e}");
        assert!(u32::parse(&OLD_BLOCKS_PCT, "1.5")
            .unwrap_err()
            .contains("not a whole number"));
        assert!(u32::parse(&OLD_BLOCKS_PCT, "abc")
            .unwrap_err()
            .contains("not a number"));
        // Whole numbers are written in digits: other spellings are malformed, not out of range.
        for bad in ["50.0", "1e8", "1E2"] {
            let e = u32::parse(&OLD_BLOCKS_PCT, bad).unwrap_err();
            assert!(
                e.contains("not a whole number") && !e.contains("out of range"),
                "{e}"
            );
        }
        assert!(u32::parse(&OLD_BLOCKS_PCT, "inf")
            .unwrap_err()
            .contains("is not a number"));
        // Seeds: one range for the CLI, the URL and the JS API, what a JavaScript number holds.
        assert_eq!(u64::parse(&SEED, "9007199254740991"), Ok(MAX_SAFE_INTEGER));
        for big in [
            "9007199254740992",
            "18446744073709551615",
            "18446744073709551616",
        ] {
            let e = u64::parse(&SEED, big).unwrap_err();
            assert!(
                e.contains("out of range") && e.contains("9,007,199,254,740,991"),
                "{e}"
            );
        }
        for bad in ["inf", "NaN", "-1", "0"] {
            assert!(f64::parse(&SCAN_CPU_US_PER_PAGE, bad).is_err(), "{bad}");
        }
        let mut x = f64::NAN;
        assert_eq!(
            x.bring_into_range(&SCAN_CPU_US_PER_PAGE),
            Some("NaN".into())
        );
        assert_eq!(x, 0.1);
        let mut d = 5u32;
        assert_eq!(d.bring_into_range(&LRU_SCAN_DEPTH), Some("5".into()));
        assert_eq!(d, 100);
    }

    #[test]
    fn words_follow_the_spec() {
        let yes_no = Spec::choice("doublewrite", &["on", "off"]);
        assert_eq!(bool::parse(&yes_no, "OFF"), Ok(false));
        assert_eq!(true.text(&yes_no), "on");
        assert_eq!(
            bool::parse(&yes_no, "maybe"),
            Err("doublewrite = 'maybe' is not one of: on, off".into())
        );
        assert_eq!(LookupDist::Special.text(&LOOKUP_DIST), "special");
        assert_eq!(
            LookupDist::parse(&LOOKUP_DIST, "uniform"),
            Ok(LookupDist::Uniform)
        );
        // Every what-if is listed, and each listed word is read.
        for w in WhatIf::ALL {
            assert!(WHAT_IF.choices().contains(&w.name()), "{}", w.name());
        }
        for w in WHAT_IF.choices() {
            WhatIfs::parse(&WHAT_IF, w).unwrap();
        }
        assert_eq!(
            SEED.flag_help(),
            "random seed: the same seed gives the same run (up to 2^53 - 1, what a JavaScript number holds: the page and the JS API take the same seeds) [from 0 to 9,007,199,254,740,991]"
        );
        assert!(LRU_SCAN_DEPTH
            .flag_help()
            .ends_with("[from 100 to 4,294,967,295 pages; MySQL 8.4 default 1,024]"));
    }
}

//! The page's URL: every parameter as a query key, read back with clear messages for bad input.
//!
//! Reading never fails: a value that does not parse falls back to the preset's (or the
//! default) value, an out-of-range value is clamped, an unknown key is ignored, and each of
//! these produces one message naming the parameter and what was used instead.

use midpoint_core::scenario::{fmt_num, preset, Params};
use serde::Serialize;

#[cfg(not(feature = "full"))]
pub use midpoint_lab::url::embed_limits as page_limits;
/// The page's limits: any pool the simulator takes, simulated as a share of it
/// (`midpoint_lab::url::page_share`). The small module (built without `full`) serves only the
/// close-up and grid embeds, which keep one instance of at most 1 GiB.
#[cfg(feature = "full")]
pub use midpoint_lab::url::page_limits;
pub use midpoint_lab::url::{pairs_query, to_query};

/// The largest whole number a JavaScript number holds exactly (2^53 - 1): the largest seed or
/// event count that survives the trip to the page.
pub use midpoint_core::scenario::schema::MAX_SAFE_INTEGER;
/// The largest seed, the same on the page, in the JS API and on the command line (the seed's
/// declared range: a larger one is clamped here, with a message, and refused by the CLI).
pub const MAX_SAFE_SEED: u64 = MAX_SAFE_INTEGER;
/// At most this many messages are listed; the rest are counted in one last message.
pub const MAX_MESSAGES: usize = 10;

/// What the page reads from its URL.
#[derive(Clone, Debug, Serialize)]
pub struct Parsed {
    /// The parameters to run, valid and within the page's limits.
    pub params: Params,
    /// The preset named by `?preset=`, if it exists.
    pub preset: Option<String>,
    /// One message per problem, naming the parameter and what the page used instead.
    pub messages: Vec<String>,
    /// `?embed=1`: the figure without the page around it.
    pub embed: bool,
    /// `?autoplay=0|1`; `None` lets the page decide.
    pub autoplay: Option<bool>,
    /// `?ev=N`: open paused after this many simulation events.
    pub ev: Option<u64>,
    /// `?sweep_depths=a,b,..`: the sweep's scan depths (default: the CLI's).
    pub sweep_depths: Vec<u32>,
    /// `?sweep_times=a,b,..`: the sweep's old_blocks_time lines, ms (default: the CLI's).
    pub sweep_times: Vec<u32>,
    /// Whether the URL set either sweep list.
    pub sweep_custom: bool,
    /// `?tour=N`: open the guided tour at step N (1-based, clamped to the tour's steps).
    pub tour: Option<u32>,
    /// `?view=lab|strip|grid|residency|sweep`: what the widget shows (default `lab`: all).
    pub view: String,
    /// `?at=scan|batch|watch`: where a figure starts (the scan's start, paused just after
    /// the scan phase's first LRU batch with the free list full, or watching that batch's
    /// refill and drain).
    pub at: Option<String>,
    /// `?runs=N`: the runs of each setting (RNG seeds `seed`, `seed + 1`, …), 1 to
    /// [`PAGE_MAX_RUNS`](midpoint_lab::run_set::PAGE_MAX_RUNS); default [`PAGE_DEFAULT_RUNS`](midpoint_lab::run_set::PAGE_DEFAULT_RUNS).
    pub runs: u32,
    /// The write-path figure's own settings (`?write_preset=…&write_depth=…&write_pages=…`).
    pub write: WriteOpts,
}

/// The write-path figure's settings in the address: its write preset, `innodb_lru_scan_depth`
/// and `innodb_doublewrite_pages` (each `None`: the figure's default, the preset's own).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct WriteOpts {
    pub preset: Option<String>,
    pub depth: Option<u32>,
    pub pages: Option<u32>,
}

/// The views a widget can show.
pub const VIEWS: [&str; 8] = [
    "lab",
    "strip",
    "grid",
    "residency",
    "sweep",
    "present",
    "write",
    "policies",
];
/// The moments a figure can start at.
pub const MOMENTS: [&str; 3] = ["scan", "batch", "watch"];

/// Shortens what the user typed for a message (a URL can carry anything).
fn shown(v: &str) -> String {
    let mut s: String = v.chars().take(40).collect();
    if v.chars().count() > 40 {
        s.push('…');
    }
    s
}

/// The value a parameter has now, as the URL writes it.
fn current(p: &Params, name: &str) -> String {
    p.to_pairs()
        .into_iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v)
        .unwrap_or_default()
}

/// Sets one parameter from the URL, clamping or falling back as the page's rules say.
/// Returns a message when the value was not used as given.
pub fn apply(p: &mut Params, name: &str, value: &str) -> Option<String> {
    let value = value.trim();
    let before = current(p, name);
    let err = match p.set(name, value) {
        Ok(()) => return None,
        Err(e) => e,
    };
    let Some((spec, (min, max))) = Params::spec(name).and_then(|s| Some((s, s.bounds()?))) else {
        // Cadence, start, scan mode, loop, seed: keep the previous value.
        return Some(format!("{}; using {before}", shorten_err(&err, value)));
    };
    let x: f64 = match value.parse::<f64>() {
        Ok(x) if x.is_finite() => x,
        _ => {
            return Some(format!(
                "{name} = '{}' is not a number ({}); using {before}",
                shown(value),
                spec.allowed()
            ))
        }
    };
    let y = x.clamp(min, max);
    let mut note = if y != x {
        format!(
            "{name} = {} is out of range ({}); using ",
            shown(value),
            spec.allowed()
        )
    } else {
        String::new()
    };
    // Whole-number parameters: round.
    let mut used = fmt_num(y);
    if p.set(name, &used).is_err() {
        used = fmt_num(y.round());
        if note.is_empty() {
            note = format!("{name} = {} must be a whole number; using ", shown(value));
        }
        if p.set(name, &used).is_err() {
            return Some(format!("{}; using {before}", shorten_err(&err, value)));
        }
    }
    if note.is_empty() {
        // In range and whole, but not written in digits (`1e3`, `50.0`).
        note = format!("{name} = {} is not written in digits; using ", shown(value));
    }
    Some(format!("{note}{used}"))
}

fn shorten_err(err: &str, value: &str) -> String {
    if value.chars().count() > 40 {
        err.replace(value, &shown(value))
    } else {
        err.to_string()
    }
}

/// A parameter object from JavaScript (the JS API: `new Runner({...})`) names some keys and
/// leaves the rest at their defaults, which are MySQL 8.4's. Choosing another engine resets
/// `lru_scan_depth` and `buffer_pool_instances` to that engine's defaults, as the CLI's
/// `--engine` and the URL's `engine=` do, unless the object names them (a key given wins, as a
/// flag does).
pub fn engine_defaults(mut p: Params, keys: &[String]) -> Params {
    let gave = |k: &str| keys.iter().any(|g| g == k);
    if p.engine != Params::default().engine {
        if !gave("lru_scan_depth") {
            p.lru_scan_depth = p.engine.default_lru_scan_depth();
        }
        if !gave("buffer_pool_instances") && !p.engine.has_instances() {
            p.buffer_pool_instances = 1;
        }
    }
    p
}

/// A whole number of the write-path figure within `lo..=hi`, clamped with a message; `None`
/// (and a message) if it is not a number.
fn parse_write_num(
    name: &str,
    v: &str,
    lo: u32,
    hi: u32,
    messages: &mut Vec<String>,
) -> Option<u32> {
    match v.trim().parse::<f64>() {
        Ok(x) if x.is_finite() => {
            let y = x.round().clamp(lo as f64, hi as f64) as u32;
            if y as f64 != x {
                messages.push(format!(
                    "{name} = {} is not a whole number from {lo} to {hi}; using {y}",
                    shown(v)
                ));
            }
            Some(y)
        }
        _ => {
            messages.push(format!(
                "{name} = '{}' is not a number ({lo} to {hi}); using the preset's",
                shown(v)
            ));
            None
        }
    }
}

/// Parses a comma-separated list of whole numbers within `lo..=hi` (1 to 16 values).
fn parse_list(name: &str, v: &str, lo: u32, hi: u32) -> Result<Vec<u32>, String> {
    let mut out = Vec::new();
    for part in v.split(',').filter(|s| !s.trim().is_empty()) {
        let t = part.trim();
        let out_of_range = || {
            format!(
                "{name}: {} is out of range ({lo} to {hi}); using the default list",
                shown(t)
            )
        };
        let n: u32 = match t.parse() {
            Ok(n) => n,
            // Digits only, but more than a u32 holds: too large, not malformed.
            Err(_) if t.bytes().all(|b| b.is_ascii_digit()) => return Err(out_of_range()),
            Err(_) => {
                return Err(format!(
                    "{name}: '{}' is not a whole number; using the default list",
                    shown(part)
                ))
            }
        };
        if !(lo..=hi).contains(&n) {
            return Err(out_of_range());
        }
        out.push(n);
    }
    if out.is_empty() || out.len() > 16 {
        return Err(format!(
            "{name} needs 1 to 16 comma-separated values; using the default list"
        ));
    }
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

fn parse_flag(name: &str, v: &str, messages: &mut Vec<String>) -> Option<bool> {
    match v.trim() {
        "" | "1" | "true" | "yes" | "on" => Some(true),
        "0" | "false" | "no" | "off" => Some(false),
        other => {
            messages.push(format!(
                "{name} = '{}' is not 0 or 1; ignored",
                shown(other)
            ));
            None
        }
    }
}

/// Reads a URL query string (with or without the leading `?`).
pub fn parse(query: &str) -> Parsed {
    let query = query.strip_prefix('?').unwrap_or(query);
    // The browser's own rules (URLSearchParams): `+` is a space, `%XX` a byte, bad UTF-8 is
    // replaced, a key without `=` has an empty value.
    let pairs: Vec<(String, String)> = form_urlencoded::parse(query.as_bytes())
        .into_owned()
        .collect();
    let mut messages = Vec::new();
    let mut params = Params::default();
    let mut preset_name = None;
    // The preset first, wherever it is: the other keys override it.
    if let Some((_, name)) = pairs.iter().rev().find(|(k, _)| k.trim() == "preset") {
        match preset(name.trim()) {
            Ok(p) => {
                params = p.params;
                preset_name = Some(p.name);
            }
            Err(e) => messages.push(format!(
                "{}; using the default settings",
                shorten_err(&e, name)
            )),
        }
    }
    let known: Vec<String> = Params::default()
        .to_pairs()
        .into_iter()
        .map(|(k, _)| k)
        .collect();
    let mut out = Parsed {
        params: Params::default(),
        preset: preset_name,
        messages: Vec::new(),
        embed: false,
        autoplay: None,
        ev: None,
        sweep_depths: midpoint_lab::sweep::DEFAULT_DEPTHS.to_vec(),
        sweep_times: midpoint_lab::sweep::DEFAULT_TIMES.to_vec(),
        sweep_custom: false,
        tour: None,
        view: "lab".into(),
        at: None,
        runs: midpoint_lab::run_set::PAGE_DEFAULT_RUNS,
        write: WriteOpts::default(),
    };
    for (k, v) in &pairs {
        let key = k.trim().replace('-', "_");
        // DBAs write the server variable's name: accept it.
        let key = key
            .strip_prefix("innodb_")
            .map(str::to_string)
            .unwrap_or(key);
        match key.as_str() {
            "preset" => {}
            "embed" => out.embed = parse_flag("embed", v, &mut messages).unwrap_or(false),
            "autoplay" => out.autoplay = parse_flag("autoplay", v, &mut messages),
            "ev" => out.ev = parse_ev(v, &mut messages),
            "view" => {
                let w = v.trim().to_ascii_lowercase();
                if VIEWS.contains(&w.as_str()) {
                    out.view = w;
                } else {
                    messages.push(format!(
                        "view = '{}' is not a view (lab, strip, grid, residency, sweep, present, write or policies); showing the lab",
                        shown(v)
                    ));
                }
            }
            "at" => {
                let w = v.trim().to_ascii_lowercase();
                if MOMENTS.contains(&w.as_str()) {
                    out.at = Some(w);
                } else {
                    messages.push(format!(
                        "at = '{}' is not a moment (scan, batch or watch); starting at the beginning",
                        shown(v)
                    ));
                }
            }
            "tour" => {
                let n = super::tour::STEPS;
                match v.trim().parse::<f64>() {
                    Ok(x) if x.is_finite() => {
                        let y = x.round().clamp(1.0, n as f64) as u32;
                        if y as f64 != x {
                            messages.push(format!(
                                "tour = {} is not a step of the tour (1 to {n}); using {y}",
                                shown(v)
                            ));
                        }
                        out.tour = Some(y);
                    }
                    _ => messages.push(format!(
                        "tour = '{}' is not a step number (1 to {n}); starting the tour at 1",
                        shown(v)
                    )),
                }
                if out.tour.is_none() {
                    out.tour = Some(1);
                }
            }
            "runs" => out.runs = parse_runs(v, &mut messages),
            "write_preset" => {
                let w = v.trim();
                if super::write::PAGE_PRESETS.contains(&w) {
                    out.write.preset = Some(w.to_string());
                } else {
                    messages.push(format!(
                        "write_preset = '{}' is not one of the write presets ({}); using the first",
                        shown(v),
                        super::write::PAGE_PRESETS.join(", ")
                    ));
                }
            }
            "write_depth" => {
                out.write.depth = parse_write_num("write_depth", v, 100, 16_384, &mut messages)
            }
            "write_pages" => {
                out.write.pages = parse_write_num("write_pages", v, 1, 512, &mut messages)
            }
            "sweep_depths" => match parse_list("sweep_depths", v, 100, 1 << 20) {
                Ok(l) => {
                    out.sweep_depths = l;
                    out.sweep_custom = true;
                }
                Err(e) => messages.push(e),
            },
            "sweep_times" => match parse_list("sweep_times", v, 0, 600_000) {
                Ok(l) => {
                    out.sweep_times = l;
                    out.sweep_custom = true;
                }
                Err(e) => messages.push(e),
            },
            _ if known.contains(&key) => {
                if let Some(m) = apply(&mut params, &key, v) {
                    messages.push(m);
                }
            }
            _ => messages.push(format!(
                "unknown parameter '{}' in the URL; ignored",
                shown(k)
            )),
        }
    }
    let (params, notes) = page_limits(&params);
    messages.extend(notes);
    messages.extend(midpoint_lab::url::page_share(&params).1);
    messages.extend(params.warnings());
    let engine = |p: &Params| {
        p.to_pairs()
            .into_iter()
            .find(|(k, _)| k == "engine")
            .map(|(_, v)| v)
    };
    if let Some(e) = engine(&params).filter(|e| Some(e) != engine(&Params::default()).as_ref()) {
        messages.push(format!(
            "engine = {e}: the simulation follows that server's rules, but this page's explanations describe MySQL 8.4"
        ));
    }
    out.params = params;
    out.messages = cap_messages(messages);
    out
}

/// `?runs=N`: a whole number of runs, clamped to the page's range with a message.
fn parse_runs(v: &str, messages: &mut Vec<String>) -> u32 {
    use midpoint_lab::run_set::{PAGE_DEFAULT_RUNS, PAGE_MAX_RUNS};
    match v.trim().parse::<f64>() {
        Ok(x) if x.is_finite() => {
            let n = x.round().clamp(1.0, PAGE_MAX_RUNS as f64) as u32;
            if n as f64 != x {
                messages.push(format!(
                    "runs = {} is not a number of runs the page makes (1 to {PAGE_MAX_RUNS}); using {n}",
                    shown(v)
                ));
            }
            n
        }
        _ => {
            messages.push(format!(
                "runs = '{}' is not a number of runs (1 to {PAGE_MAX_RUNS}); using {PAGE_DEFAULT_RUNS}",
                shown(v)
            ));
            PAGE_DEFAULT_RUNS
        }
    }
}

/// `?ev=N`: a whole number of events, at most [`MAX_SAFE_INTEGER`] (a larger one could not
/// reach the page as a number; it is clamped, with a message).
fn parse_ev(v: &str, messages: &mut Vec<String>) -> Option<u64> {
    let t = v.trim();
    match t.parse::<u64>() {
        Ok(n) if n <= MAX_SAFE_INTEGER => Some(n),
        Ok(_) => {
            messages.push(too_large_ev(t));
            Some(MAX_SAFE_INTEGER)
        }
        // More digits than a u64 holds: still a whole number, just too large.
        Err(_) if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) => {
            messages.push(too_large_ev(t));
            Some(MAX_SAFE_INTEGER)
        }
        Err(_) => {
            messages.push(format!(
                "ev = '{}' is not a whole number of events; starting at the beginning",
                shown(v)
            ));
            None
        }
    }
}

fn too_large_ev(v: &str) -> String {
    format!(
        "ev = {} is more events than this page can count (at most 2^53 - 1 = {}); using {}, which lands at the end of the run",
        shown(v),
        super::narrate::n(MAX_SAFE_INTEGER),
        MAX_SAFE_INTEGER
    )
}

/// Keeps the first [`MAX_MESSAGES`] - 1 messages and replaces the rest with one that counts
/// them ("and 4,990 more unknown parameters", or "and 12 more problems" when they are of
/// several kinds).
pub fn cap_messages(mut messages: Vec<String>) -> Vec<String> {
    if messages.len() <= MAX_MESSAGES {
        return messages;
    }
    let rest = messages.split_off(MAX_MESSAGES - 1);
    let unknown = rest
        .iter()
        .filter(|m| m.starts_with("unknown parameter "))
        .count();
    let count = super::narrate::n(rest.len() as u64);
    let what = if unknown == rest.len() {
        "unknown parameters in the URL, ignored"
    } else {
        "problems with the URL"
    };
    messages.push(format!("and {count} more {what}"));
    messages
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_url_values_give_messages_and_usable_parameters() {
        let q = parse("?lru_scan_depth=-5&old_blocks_time=abc&pool_mb=1000000000000&frobnicate=1");
        let all = q.messages.join("\n");
        assert!(
            all.contains("lru_scan_depth = -5") && all.contains("using 100"),
            "{all}"
        );
        assert!(
            all.contains("old_blocks_time = 'abc' is not a number") && all.contains("using 1000"),
            "{all}"
        );
        assert!(
            all.contains("pool_mb = 1000000000000 is out of range") && all.contains("using 65536"),
            "{all}"
        );
        // The largest pool is simulated as a share of it, and the page says so.
        assert!(all.contains("at most 8192 MiB of one instance"), "{all}");
        assert_eq!(q.messages.len(), 5, "one message per problem: {all}");
        assert!(all.contains("unknown parameter 'frobnicate'"), "{all}");
        assert_eq!(q.params.lru_scan_depth, 100);
        assert_eq!(q.params.old_blocks_time, 1000);
        assert_eq!(q.params.pool_mb, 65536);
        q.params.validate().unwrap();
        // Server variable names work too, and every parameter round-trips through the URL.
        let q = parse("innodb_lru_scan_depth=128&preset=seed000-hot224-b2b");
        assert!(q.messages.is_empty(), "{:?}", q.messages);
        assert_eq!(q.params.lru_scan_depth, 128);
        assert_eq!(q.params.hot_pages, 224);
        let back = parse(&to_query(&q.params));
        assert_eq!(back.params, q.params);
        assert!(back.messages.is_empty());
    }

    #[test]
    fn every_preset_round_trips_through_its_query() {
        for p in midpoint_core::scenario::presets() {
            let (p, notes) = page_limits(&p.params);
            let q = to_query(&p);
            let back = parse(&q);
            let problems: Vec<_> = back
                .messages
                .iter()
                .filter(|m| !m.starts_with("engine = "))
                .collect();
            assert!(
                problems.is_empty() || !notes.is_empty(),
                "{q}: {problems:?}"
            );
            assert_eq!(back.params, p, "{q}");
        }
    }

    #[test]
    fn queries_are_encoded_and_decoded_as_browsers_do() {
        // URLSearchParams writes a space as `+` and escapes `&`, `=`, `%`, `:`.
        assert_eq!(
            pairs_query([("a b", "x&y=z%"), ("c", "after-activity:5")]),
            "a+b=x%26y%3Dz%25&c=after-activity%3A5"
        );
        // And reads `+`, upper- and lower-case escapes, a key without `=`, and a trailing
        // escape (the old hand-written decoder missed that one).
        let q = parse("lru%5Fscan%5fdepth=%32%35%36&autoplay&embed=%31");
        assert!(q.messages.is_empty(), "{:?}", q.messages);
        assert_eq!(q.params.lru_scan_depth, 256);
        assert_eq!(q.autoplay, Some(true));
        assert!(q.embed);
        // Bad escapes and bad UTF-8 are kept or replaced, never a failure.
        let q = parse("%zz=1&%FF%FE=2");
        assert_eq!(q.messages.len(), 2, "{:?}", q.messages);
        assert!(q.messages[0].contains("'%zz'"), "{:?}", q.messages);
        assert!(q.messages[1].contains('\u{FFFD}'), "{:?}", q.messages);
    }

    #[test]
    fn ev_beyond_what_a_javascript_number_holds_is_clamped_with_a_message() {
        assert_eq!(parse("ev=42").ev, Some(42));
        let q = parse(&format!("ev={MAX_SAFE_INTEGER}"));
        assert_eq!(q.ev, Some(MAX_SAFE_INTEGER));
        assert!(q.messages.is_empty());
        for v in [
            "9007199254740992",
            "18446744073709551615",
            "18446744073709551616",
            "99999999999999999999999999999999",
        ] {
            let q = parse(&format!("ev={v}"));
            assert_eq!(q.ev, Some(MAX_SAFE_INTEGER), "{v}");
            assert_eq!(q.messages.len(), 1, "{v}: {:?}", q.messages);
            let m = &q.messages[0];
            assert!(m.starts_with("ev = "), "{m}");
            assert!(m.contains("9,007,199,254,740,991"), "{m}");
            // What JavaScript receives stays exact.
            assert!((q.ev.unwrap() as f64) as u64 == q.ev.unwrap());
        }
        for v in ["-1", "1.5", "abc", "1e20"] {
            let q = parse(&format!("ev={v}"));
            assert_eq!(q.ev, None, "{v}");
            assert!(
                q.messages[0].contains("is not a whole number of events"),
                "{v}"
            );
        }
    }

    #[test]
    fn a_hot_set_that_cannot_fit_the_pool_is_among_the_notes_and_the_run_warnings() {
        let q = parse("preset=seed000-hot4485-b2b&pool_mb=8");
        assert_eq!(q.params.pool_mb, 8);
        assert!(
            q.messages
                .iter()
                .any(|m| m.starts_with("the hot set (4,485 pages) cannot fit the pool")),
            "{:?}",
            q.messages
        );
        assert!(parse("preset=seed000-hot4485-b2b").messages.is_empty());
        let short = Params {
            warmup_s: 1,
            scan_s: 1,
            ..q.params
        };
        let sim = midpoint_core::sim::Simulation::new(&short).unwrap();
        let d = midpoint_lab::runs::run_data(&sim, 10);
        assert_eq!(d.warnings, short.warnings());
        assert_eq!(d.warnings.len(), 1);
    }

    #[test]
    fn an_engine_in_a_js_object_resets_the_depth_unless_the_object_gives_it() {
        let mut p = Params::default();
        p.set("engine", "mariadb-10.11").unwrap();
        let cli_depth = p.lru_scan_depth;
        assert_eq!(cli_depth, 1536);
        // `{engine: "mariadb-10.11"}`: the other keys at MySQL's defaults.
        let js = Params {
            engine: p.engine,
            ..Params::default()
        };
        let keys = vec!["engine".to_string()];
        assert_eq!(engine_defaults(js.clone(), &keys).lru_scan_depth, cli_depth);
        // The URL does the same.
        assert_eq!(
            parse("engine=mariadb-10.11").params.lru_scan_depth,
            cli_depth
        );
        // A depth the object gives wins, as a flag does.
        let given = Params {
            lru_scan_depth: 256,
            ..js
        };
        let keys = vec!["engine".to_string(), "lru_scan_depth".to_string()];
        assert_eq!(engine_defaults(given, &keys).lru_scan_depth, 256);
        // MySQL objects are left as they are.
        let q = Params::default();
        assert_eq!(engine_defaults(q.clone(), &[]), q);
    }

    #[test]
    fn every_seed_past_the_one_range_is_clamped_to_its_top_with_the_value_shown() {
        assert_eq!(parse("seed=9007199254740991").params.seed, MAX_SAFE_SEED);
        assert!(parse("seed=9007199254740991").messages.is_empty());
        // 2^53 + 1 once fell back to 1 (a bit mask); every seed above the range now clamps to
        // its top, as the CLI's range says (it refuses them, naming the same limit).
        for v in [
            "9007199254740992",
            "9007199254740993",
            "18446744073709551615",
            "18446744073709551616",
        ] {
            let q = parse(&format!("seed={v}"));
            assert_eq!(q.params.seed, MAX_SAFE_SEED, "{v}");
            assert_eq!(q.messages.len(), 1, "{v}: {:?}", q.messages);
            let m = &q.messages[0];
            assert!(
                m.starts_with(&format!("seed = {v} is out of range"))
                    && m.ends_with("; using 9007199254740991"),
                "{m}"
            );
            let e = Params::default().set("seed", v).unwrap_err();
            assert!(
                e.contains("out of range") && e.contains("9,007,199,254,740,991"),
                "{e}"
            );
        }
        // A value that is not a number keeps the previous seed, as on the CLI it is refused.
        let q = parse("seed=abc");
        assert_eq!(q.params.seed, Params::default().seed);
        assert_eq!(q.messages.len(), 1, "{:?}", q.messages);
    }

    #[test]
    fn sweep_lists_too_large_are_out_of_range_not_malformed() {
        let q = parse("sweep_depths=100,99999999999999999999&sweep_times=0,x");
        assert_eq!(q.messages.len(), 2, "{:?}", q.messages);
        assert!(
            q.messages[0]
                .starts_with("sweep_depths: 99999999999999999999 is out of range (100 to 1048576)"),
            "{}",
            q.messages[0]
        );
        assert!(
            q.messages[1].contains("'x' is not a whole number"),
            "{}",
            q.messages[1]
        );
        assert!(!q.sweep_custom);
        assert_eq!(q.sweep_depths, midpoint_lab::sweep::DEFAULT_DEPTHS.to_vec());
        let q = parse("runs=3");
        assert_eq!((q.runs, q.messages.len()), (3, 0));
        assert_eq!(parse("").runs, midpoint_lab::run_set::PAGE_DEFAULT_RUNS);
        let q = parse("runs=500");
        assert_eq!(q.runs, midpoint_lab::run_set::PAGE_MAX_RUNS);
        assert!(
            q.messages[0].starts_with("runs = 500 is not"),
            "{:?}",
            q.messages
        );
        let q = parse("runs=0");
        assert_eq!(q.runs, 1);
        let q = parse("runs=many");
        assert_eq!(q.runs, midpoint_lab::run_set::PAGE_DEFAULT_RUNS);
        assert!(q.messages[0].contains("'many'"), "{:?}", q.messages);
        let q = parse("sweep_depths=1024,100,1024");
        assert_eq!(q.sweep_depths, vec![100, 1024]);
        assert!(q.sweep_custom && q.messages.is_empty());
    }

    #[test]
    fn the_message_list_is_capped() {
        let mut q = String::from("lru_scan_depth=1");
        for i in 0..5000 {
            q.push_str(&format!("&junk{i}=1"));
        }
        let p = parse(&q);
        assert_eq!(p.messages.len(), MAX_MESSAGES);
        assert!(
            p.messages[0].starts_with("lru_scan_depth = 1 "),
            "{}",
            p.messages[0]
        );
        assert!(p.messages[1].contains("unknown parameter 'junk0'"));
        assert_eq!(
            p.messages.last().unwrap(),
            "and 4,992 more unknown parameters in the URL, ignored"
        );
        assert_eq!(p.params.lru_scan_depth, 100);
        // Mixed kinds are counted as problems.
        let mut q = String::new();
        for i in 0..6 {
            q.push_str(&format!("&junk{i}=1&old_blocks_pct=x{i}"));
        }
        let p = parse(&q);
        assert_eq!(p.messages.len(), MAX_MESSAGES);
        assert_eq!(
            p.messages.last().unwrap(),
            "and 3 more problems with the URL"
        );
        // Short lists are left alone.
        let few: Vec<String> = (0..MAX_MESSAGES).map(|i| i.to_string()).collect();
        assert_eq!(cap_messages(few.clone()), few);
    }

    #[test]
    fn tour_links_clamp() {
        let steps = super::super::tour::steps();
        assert!((4..=8).contains(&steps.len()));
        for s in &steps {
            assert!(preset(s.preset).is_ok(), "{}", s.preset);
        }
        assert_eq!(parse("tour=3").tour, Some(3));
        let q = parse("tour=0");
        assert_eq!(q.tour, Some(1));
        assert!(q.messages[0].contains("tour = 0 is not a step of the tour"));
        let q = parse("tour=x");
        assert_eq!(q.tour, Some(1));
        assert!(q.messages[0].contains("not a step number"));
    }
}

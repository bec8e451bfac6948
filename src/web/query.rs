//! The page's URL: every parameter as a query key, read back with clear messages for bad input.
//!
//! Reading never fails: a value that does not parse falls back to the preset's (or the
//! default) value, an out-of-range value is clamped, an unknown key is ignored, and each of
//! these produces one message naming the parameter and what was used instead.

use crate::scenario::{fmt_num, preset, range_of, Params};
use serde::Serialize;

/// The largest pool the page draws (one instance): 1 GiB is 65,528 frames.
pub const PAGE_MAX_POOL_MB: u32 = 1024;
/// The largest seed that survives a round trip through a JavaScript number.
pub const MAX_SAFE_SEED: u64 = (1 << 53) - 1;

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
}

/// Decodes `%XX` escapes and `+` in a query component.
fn decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < b.len() => {
                let h = std::str::from_utf8(&b[i + 1..i + 3])
                    .ok()
                    .and_then(|h| u8::from_str_radix(h, 16).ok());
                match h {
                    Some(v) => {
                        out.push(v);
                        i += 2;
                    }
                    None => out.push(b'%'),
                }
            }
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

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
    let Some(r) = range_of(name) else {
        // Cadence, start, scan mode, loop, seed: keep the previous value.
        return Some(format!("{}; using {before}", shorten_err(&err, value)));
    };
    let x: f64 = match value.parse::<f64>() {
        Ok(x) if x.is_finite() => x,
        _ => {
            return Some(format!(
                "{name} = '{}' is not a number (allowed {} ..= {} {}); using {before}",
                shown(value),
                fmt_num(r.min),
                fmt_num(r.max),
                r.unit
            ))
        }
    };
    let y = x.clamp(r.min, r.max);
    let mut note = if y != x {
        format!(
            "{name} = {} is out of range ({} ..= {} {}){}; using ",
            shown(value),
            fmt_num(r.min),
            fmt_num(r.max),
            r.unit,
            if name == "pool_mb" {
                format!(", and this page draws pools of at most {PAGE_MAX_POOL_MB} MiB")
            } else {
                String::new()
            }
        )
    } else {
        String::new()
    };
    let y = if name == "pool_mb" && y != x {
        y.min(PAGE_MAX_POOL_MB as f64)
    } else {
        y
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
    Some(format!("{note}{used}"))
}

fn shorten_err(err: &str, value: &str) -> String {
    if value.chars().count() > 40 {
        err.replace(value, &shown(value))
    } else {
        err.to_string()
    }
}

/// Brings parameters within the simulator's rules and the page's limits (one instance, a pool
/// of at most [`PAGE_MAX_POOL_MB`]), with one message per change.
pub fn page_limits(p: &Params) -> (Params, Vec<String>) {
    let (mut q, mut notes) = p.clamped();
    if q.pool_mb > PAGE_MAX_POOL_MB {
        notes.push(format!(
            "pool_mb = {}: this page draws every frame, so it simulates pools of at most {PAGE_MAX_POOL_MB} MiB (65,528 frames); using {PAGE_MAX_POOL_MB}. The command-line simulator runs any size.",
            q.pool_mb
        ));
        q.pool_mb = PAGE_MAX_POOL_MB;
    }
    if q.buffer_pool_instances > 1 {
        notes.push(format!(
            "buffer_pool_instances = {}: this page simulates one buffer pool instance; using 1",
            q.buffer_pool_instances
        ));
        q.buffer_pool_instances = 1;
    }
    if q.seed > MAX_SAFE_SEED {
        notes.push(format!(
            "seed = {} is larger than the page can carry (2^53 - 1); using {}",
            q.seed,
            q.seed & MAX_SAFE_SEED
        ));
        q.seed &= MAX_SAFE_SEED;
    }
    if let Err(e) = q.validate() {
        notes.push(format!("{e}; using the defaults"));
        q = Params::default();
    }
    (q, notes)
}

/// Parses a comma-separated list of whole numbers within `lo..=hi` (1 to 16 values).
fn parse_list(name: &str, v: &str, lo: u32, hi: u32) -> Result<Vec<u32>, String> {
    let mut out = Vec::new();
    for part in v.split(',').filter(|s| !s.trim().is_empty()) {
        let n: u32 = part.trim().parse().map_err(|_| {
            format!(
                "{name}: '{}' is not a whole number; using the default list",
                shown(part)
            )
        })?;
        if !(lo..=hi).contains(&n) {
            return Err(format!(
                "{name}: {n} is out of range ({lo} ..= {hi}); using the default list"
            ));
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
    let pairs: Vec<(String, String)> = query
        .split('&')
        .filter(|s| !s.is_empty())
        .map(|kv| match kv.split_once('=') {
            Some((k, v)) => (decode(k), decode(v)),
            None => (decode(kv), String::new()),
        })
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
        sweep_depths: crate::sweep::DEFAULT_DEPTHS.to_vec(),
        sweep_times: crate::sweep::DEFAULT_TIMES.to_vec(),
        sweep_custom: false,
        tour: None,
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
            "ev" => match v.trim().parse::<u64>() {
                Ok(n) => out.ev = Some(n),
                Err(_) => messages.push(format!(
                    "ev = '{}' is not a whole number of events; starting at the beginning",
                    shown(v)
                )),
            },
            "tour" => {
                let n = super::tour::steps().len() as u32;
                match v.trim().parse::<f64>() {
                    Ok(x) if x.is_finite() => {
                        let y = x.round().clamp(1.0, n as f64) as u32;
                        if y as f64 != x {
                            messages.push(format!(
                                "tour = {} is not a step of the tour (1 ..= {n}); using {y}",
                                shown(v)
                            ));
                        }
                        out.tour = Some(y);
                    }
                    _ => messages.push(format!(
                        "tour = '{}' is not a step number (1 ..= {n}); starting the tour at 1",
                        shown(v)
                    )),
                }
                if out.tour.is_none() {
                    out.tour = Some(1);
                }
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
    out.messages = messages;
    out
}

/// Every parameter as a URL query (no leading `?`), defaults included, in a stable order.
pub fn to_query(p: &Params) -> String {
    p.to_pairs()
        .into_iter()
        .map(|(k, v)| format!("{k}={}", encode(&v)))
        .collect::<Vec<_>>()
        .join("&")
}

/// Percent-encodes a query value (or an HTML attribute's value, which needs no more).
pub fn encode(v: &str) -> String {
    let mut out = String::new();
    for b in v.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b':' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

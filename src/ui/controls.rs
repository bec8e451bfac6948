//! The page's sliders: for each, the InnoDB variable it stands for, its unit, MySQL's default
//! and range, and the stops the slider moves through.

use super::narrate::thousands;
use midpoint_core::pool::page_cleaner::Cadence;
use midpoint_core::scenario::schema::{Spec, OLD_BLOCKS_PCT};
use midpoint_core::scenario::{fmt_num, Params, SEED000_ACTIVITY_MEAN_S};
use serde::Serialize;

/// One stop of a slider: the parameter value and how it reads.
#[derive(Clone, Debug, Serialize)]
pub struct Stop {
    /// The value as the URL writes it.
    pub value: String,
    /// The value for people, with its unit.
    pub label: String,
}

/// One slider.
#[derive(Clone, Debug, Serialize)]
pub struct Control {
    /// The parameter (URL key).
    pub key: &'static str,
    /// The name shown: the InnoDB variable, or what the workload knob is.
    pub name: &'static str,
    /// True when `name` is a MySQL server variable.
    pub server_variable: bool,
    /// One line on what it does.
    pub help: &'static str,
    /// MySQL's default and range (or the seed's values, for workload knobs).
    pub facts: String,
    /// The stops.
    pub stops: Vec<Stop>,
    /// The stop nearest the current value.
    pub index: usize,
    /// The current value with its unit (it may lie between stops when it came from the URL).
    pub value_label: String,
    /// The group the page shows it under: [`GROUP_SETTINGS`] or [`GROUP_YOUR_SERVER`].
    pub group: &'static str,
}

/// The group of the server variables and workload knobs.
pub const GROUP_SETTINGS: &str = "InnoDB and the workload";
/// The group of the rates a DBA measures on their own server (not headed "Your server": that is
/// the lab's one section where a server's own output is read, the paste panel).
pub const GROUP_YOUR_SERVER: &str = "Measured rates";
/// How a "your server" rate of 0 reads: the CPU times of the experiment's machine are used.
pub const FROM_THE_EXPERIMENT: &str = "from the experiment's machine";

/// A "your server" slider for a rate input: its help and range from the scenario's schema
/// (its [`Spec`] in `Params`), 0 read as "from the experiment's machine".
fn rate_control(key: &'static str, name: &'static str, stops: &[f64], x: f64) -> Control {
    let spec = spec(key);
    let (min, max) = spec.bounds().expect("a rate is a number");
    let stops: Vec<f64> = stops
        .iter()
        .copied()
        .filter(|&v| v >= min && v <= max)
        .collect();
    let mut c = num_control(
        key,
        Some(name),
        spec.help,
        range_facts(key, "; 0 = the CPU times of the experiment's machine"),
        &stops,
        x,
        true,
    );
    if x == 0.0 {
        c.index = stops.iter().position(|&v| v == 0.0).unwrap_or(c.index);
        c.value_label = FROM_THE_EXPERIMENT.into();
    }
    for s in c.stops.iter_mut().filter(|s| s.value == "0") {
        s.label = FROM_THE_EXPERIMENT.into();
    }
    c.group = GROUP_YOUR_SERVER;
    c
}

fn nearest(stops: &[f64], x: f64) -> usize {
    let mut best = 0;
    for (i, &s) in stops.iter().enumerate() {
        if (s - x).abs() < (stops[best] - x).abs() {
            best = i;
        }
    }
    best
}

fn log_nearest(stops: &[f64], x: f64) -> usize {
    let lx = (x.max(0.5)).ln();
    let mut best = 0;
    for (i, &s) in stops.iter().enumerate() {
        if (s.max(0.5).ln() - lx).abs() < (stops[best].max(0.5).ln() - lx).abs() {
            best = i;
        }
    }
    best
}

/// A slider over `stops` for the declared parameter `key`: its name is the server variable
/// the declaration names, or `workload_name` for a knob of the workload; its unit is the
/// declaration's.
fn num_control(
    key: &'static str,
    workload_name: Option<&'static str>,
    help: &'static str,
    facts: String,
    stops: &[f64],
    x: f64,
    log: bool,
) -> Control {
    let spec = spec(key);
    let unit = spec.unit;
    let label = |v: f64| {
        if unit.is_empty() {
            thousands(v)
        } else {
            format!("{} {unit}", thousands(v))
        }
    };
    Control {
        key,
        name: spec.innodb.or(workload_name).expect("a slider has a name"),
        server_variable: spec.innodb.is_some(),
        help,
        facts,
        stops: stops
            .iter()
            .map(|&v| Stop {
                value: fmt_num(v),
                label: label(v),
            })
            .collect(),
        index: if log {
            log_nearest(stops, x)
        } else {
            nearest(stops, x)
        },
        value_label: label(x),
        group: GROUP_SETTINGS,
    }
}

/// The declaration of a slider's parameter.
fn spec(key: &str) -> &'static Spec {
    Params::spec(key).expect("a slider sets a declared parameter")
}

fn range_facts(key: &str, what: &str) -> String {
    let r = spec(key);
    let (min, max) = r.bounds().expect("a slider's parameter is a number");
    let d = r
        .innodb_default
        .map(|d| format!("MySQL 8.4 default {} {}; ", thousands(d), r.unit))
        .unwrap_or_default();
    format!(
        "{d}range {} – {} {}{what}",
        thousands(min),
        thousands(max),
        r.unit
    )
}

/// Label of a page-cleaner cadence.
pub fn cadence_label(c: &Cadence) -> String {
    match c {
        Cadence::EverySecond => "every second".into(),
        Cadence::Never => "never".into(),
        Cadence::AfterActivity { mean_interval_ms } => {
            format!(
                "after activity, every ~{} s",
                fmt_num(*mean_interval_ms as f64 / 1000.0)
            )
        }
    }
}

/// The page's sliders for these parameters.
pub fn controls(p: &Params) -> Vec<Control> {
    let mut v = Vec::new();
    v.push(num_control(
        "lru_scan_depth",
        None,
        "How many free pages the page cleaner's LRU batch tops the free list up to: the most one refill can evict.",
        range_facts("lru_scan_depth", " per instance"),
        &[
            100.0, 128.0, 192.0, 256.0, 384.0, 512.0, 768.0, 1024.0, 1536.0, 2048.0, 3072.0,
            4096.0, 6144.0, 8192.0,
        ],
        p.lru_scan_depth as f64,
        true,
    ));
    v.push(num_control(
        "old_blocks_time",
        None,
        "An old page is made young only if touched this long after its first access. 0 turns the test off.",
        range_facts("old_blocks_time", ""),
        &[
            0.0, 50.0, 100.0, 250.0, 500.0, 750.0, 1000.0, 1500.0, 2000.0, 3000.0, 5000.0,
            10000.0,
        ],
        p.old_blocks_time as f64,
        false,
    ));
    let (lo, hi) = OLD_BLOCKS_PCT.int_range().expect("a whole number");
    let pct_stops: Vec<f64> = (lo..=hi).map(|x| x as f64).collect();
    v.push(num_control(
        "old_blocks_pct",
        None,
        "The old sublist's share of the LRU list (±20 pages): where new pages go in.",
        range_facts("old_blocks_pct", ""),
        &pct_stops,
        p.old_blocks_pct as f64,
        false,
    ));
    v.push(num_control(
        "scan_pause_ms",
        Some("pause between scans"),
        "Workload: how long the looping scan waits between passes.",
        "Workload, not a server variable; the scan-leak experiment ran 0, 500 and 2,000 ms".into(),
        &[
            0.0, 100.0, 250.0, 500.0, 1000.0, 1500.0, 2000.0, 3000.0, 5000.0, 10000.0,
        ],
        p.scan_pause_ms as f64,
        false,
    ));
    let mut hot: Vec<f64> = [
        25.0, 50.0, 100.0, 224.0, 500.0, 897.0, 1500.0, 2000.0, 3000.0, 4485.0,
    ]
    .into_iter()
    .filter(|&x| x < p.hot_table_pages as f64)
    .collect();
    hot.push(p.hot_table_pages as f64);
    v.push(num_control(
        "hot_pages",
        Some("hot set size"),
        "Workload: the point lookups read random rows of the hot table's first this-many pages.",
        format!(
            "Workload; the scan-leak experiment ran 224, 897 and 4,485 pages; at most the hot table ({} pages)",
            thousands(p.hot_table_pages as f64)
        ),
        &hot,
        p.hot_pages as f64,
        true,
    ));
    let mut pool = num_control(
        "pool_mb",
        None,
        "The buffer pool. Each 128 MiB chunk holds 8,191 usable 16 KiB frames.",
        format!(
            // Reference §8: below 1 GiB MySQL 8.4 uses one instance; from 1 GiB on it may split
            // the pool into several, each with its own LRU list. The page simulates one
            // instance's share of them (at most 8 GiB of one).
            "{}; the page simulates one instance's share of the pool (at most {} MiB of one)",
            range_facts("pool_mb", ""),
            thousands(midpoint_lab::url::PAGE_MAX_INSTANCE_MB as f64)
        ),
        &[
            8.0, 16.0, 32.0, 64.0, 128.0, 256.0, 512.0, 1024.0, 2048.0, 4096.0, 8192.0, 16384.0,
            32768.0, 65536.0,
        ],
        p.pool_mb as f64,
        true,
    );
    let share = midpoint_lab::url::page_share(p).0;
    pool.value_label =
        if share.frames_per_instance() == p.frames_per_instance() && p.buffer_pool_instances <= 1 {
            format!(
                "{} MiB ({} frames)",
                thousands(p.pool_mb as f64),
                thousands(p.frames_per_instance() as f64)
            )
        } else {
            format!(
                "{} MiB ({} frames; {} simulated)",
                thousands(p.pool_mb as f64),
                thousands(p.frames_per_instance() as f64 * p.buffer_pool_instances.max(1) as f64),
                thousands(share.frames_per_instance() as f64)
            )
        };
    v.push(pool);
    v.push(num_control(
        "buffer_pool_instances",
        None,
        "The pool split into instances, each with its own LRU list and LRU batches; the page simulates one of them, with its share of the pool, the hot set and the rates.",
        format!(
            "{}; a pool under 1 GiB has 1",
            range_facts("buffer_pool_instances", "")
        ),
        &[1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0],
        p.buffer_pool_instances as f64,
        true,
    ));
    // The cadence: one slider from "every second" to "never".
    let means = [1.0, 2.0, 5.0, 10.0, SEED000_ACTIVITY_MEAN_S, 30.0, 60.0];
    let mut stops = vec![Stop {
        value: "every-second".into(),
        label: cadence_label(&Cadence::EverySecond),
    }];
    for m in means {
        let c = Cadence::AfterActivity {
            mean_interval_ms: (m * 1000.0) as u32,
        };
        let mut label = cadence_label(&c);
        if m == SEED000_ACTIVITY_MEAN_S {
            label.push_str(" (calibrated on the scan-leak experiment's cold start)");
        }
        stops.push(Stop {
            value: c.label(),
            label,
        });
    }
    stops.push(Stop {
        value: "never".into(),
        label: cadence_label(&Cadence::Never),
    });
    let index = match p.cleaner {
        Cadence::EverySecond => 0,
        Cadence::Never => stops.len() - 1,
        Cadence::AfterActivity { mean_interval_ms } => {
            1 + log_nearest(&means, mean_interval_ms as f64 / 1000.0)
        }
    };
    let value_label = stops
        .get(index)
        .filter(|s| s.value == p.cleaner.label())
        .map(|s| s.label.clone())
        .unwrap_or_else(|| cadence_label(&p.cleaner));
    v.push(Control {
        key: "cleaner",
        name: "page-cleaner LRU batches",
        server_variable: false,
        help: "When the page cleaner runs its once-a-second LRU batch: every second on a server with writes; only after some activity on a read-only one.",
        facts: "Server behaviour, not a variable: InnoDB skips the batch in rounds it deems idle".into(),
        stops,
        index,
        value_label,
        group: GROUP_SETTINGS,
    });
    v.push(rate_control(
        "idle_lookups_per_s",
        "lookups per second, idle, all hits",
        &[
            0.0, 1000.0, 2000.0, 3000.0, 5000.0, 7500.0, 10000.0, 15000.0, 20000.0, 50000.0,
            100000.0,
        ],
        p.idle_lookups_per_s,
    ));
    v.push(rate_control(
        "idle_scan_pages_per_s",
        "scan pages per second, idle, uncached",
        &[
            0.0, 2000.0, 5000.0, 10000.0, 15000.0, 20000.0, 24500.0, 30000.0, 50000.0, 100000.0,
        ],
        p.idle_scan_pages_per_s,
    ));
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::query;
    use midpoint_core::scenario::preset;

    #[test]
    fn every_stop_is_a_value_the_url_accepts_and_the_current_one_is_nearest() {
        for name in ["seed000-hot4485-b2b", "seed000-cold", "small-demo"] {
            let p = preset(name).unwrap().params;
            let cs = controls(&p);
            assert!(cs.len() >= 6, "{name}");
            let current: Vec<(String, String)> = p.to_pairs();
            for c in &cs {
                assert!(!c.stops.is_empty() && c.index < c.stops.len(), "{}", c.key);
                assert!(
                    current.iter().any(|(k, _)| k == c.key),
                    "{} is a URL key",
                    c.key
                );
                if c.server_variable {
                    assert!(c.name.starts_with("innodb_"), "{}", c.name);
                }
                for s in &c.stops {
                    let mut q = p.clone();
                    let m = query::apply(&mut q, c.key, &s.value);
                    assert!(m.is_none(), "{} = {}: {m:?}", c.key, s.value);
                }
                // The stop the slider shows is the current value when that value is a stop.
                let now = &current.iter().find(|(k, _)| k == c.key).unwrap().1;
                if let Some(i) = c.stops.iter().position(|s| &s.value == now) {
                    assert_eq!(c.index, i, "{} = {now}", c.key);
                }
            }
        }
    }

    #[test]
    fn your_server_rates_are_sliders_that_set_the_rate_inputs() {
        let p = preset("seed000-hot4485-b2b").unwrap().params;
        let cs = controls(&p);
        for key in ["idle_lookups_per_s", "idle_scan_pages_per_s"] {
            let c = cs.iter().find(|c| c.key == key).expect(key);
            assert_eq!(c.group, GROUP_YOUR_SERVER);
            // Not given: the slider sits at 0, read as the experiment's machine.
            assert_eq!(c.stops[c.index].value, "0", "{key}");
            assert_eq!(c.value_label, FROM_THE_EXPERIMENT);
            // A stop sets the parameter through the URL's rules, and the slider follows it.
            let stop = &c.stops[c.stops.len() / 2];
            let mut q = p.clone();
            assert!(query::apply(&mut q, key, &stop.value).is_none());
            assert_ne!(q.to_pairs(), p.to_pairs(), "{key} changes the parameters");
            let c2 = controls(&q).into_iter().find(|c| c.key == key).unwrap();
            assert_eq!(c2.stops[c2.index].value, stop.value);
            assert_ne!(c2.value_label, FROM_THE_EXPERIMENT);
            // A bad value is clamped with a note.
            let mut q = p.clone();
            assert!(query::apply(&mut q, key, "-5").is_some(), "{key}");
        }
    }

    #[test]
    fn labels_and_facts_read_well() {
        assert_eq!(cadence_label(&Cadence::EverySecond), "every second");
        assert_eq!(
            cadence_label(&Cadence::AfterActivity {
                mean_interval_ms: 2500
            }),
            "after activity, every ~2.5 s"
        );
        let c = controls(&Params::default());
        let depth = c.iter().find(|c| c.key == "lru_scan_depth").unwrap();
        assert!(
            depth.facts.contains("MySQL 8.4 default 1,024 pages"),
            "{}",
            depth.facts
        );
        assert_eq!(depth.stops[0].label, "100 pages");
        assert_eq!(nearest(&[1.0, 5.0, 10.0], 7.0), 1);
        assert_eq!(log_nearest(&[100.0, 1000.0, 10000.0], 400.0), 1);
    }
}

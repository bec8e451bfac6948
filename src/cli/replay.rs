//! `midpoint replay`: a trace through the pool (the midpoint format) or through a policy (`--format`).

use super::*;
use clap::{Arg, ArgMatches, Command};
use midpoint_lab::replay;

pub fn command() -> Command {
    Command::new("replay")
        .about("Replay a trace file (see docs/policies.md: the midpoint trace format) and print the final pool state")
        .arg(Arg::new("file").required(true).value_name("FILE"))
        .arg(json_arg())
        .arg(
            Arg::new("max-bytes")
                .long("max-bytes")
                .value_name("BYTES")
                .default_value(replay::DEFAULT_MAX_BYTES.to_string())
                .help("refuse a trace larger than this"),
        )
        .arg(
            Arg::new("max-line-bytes")
                .long("max-line-bytes")
                .value_name("BYTES")
                .default_value(replay::DEFAULT_MAX_LINE_BYTES.to_string())
                .help("refuse a trace with a longer line"),
        )
        .args(super::policy::replay_args())
}

pub fn run(a: &ArgMatches) -> Result<(), String> {
    if super::policy::is_policy_replay(a) {
        // The size limits guard the midpoint trace format, which is read whole; the standard
        // formats are streamed through the policy with a line limit of their own.
        return match ["max-bytes", "max-line-bytes"]
            .into_iter()
            .find(|f| a.value_source(f) == Some(clap::parser::ValueSource::CommandLine))
        {
            Some(flag) => Err(format!(
                "--{flag} applies to the midpoint trace format only, not with --format"
            )),
            None => super::policy::replay(a),
        };
    }
    let path = a.get_one::<String>("file").expect("required");
    let limit = |name: &str| -> Result<u64, String> {
        let v = a.get_one::<String>(name).map(String::as_str).unwrap_or("");
        v.parse::<u64>()
            .ok()
            .filter(|n| *n >= 1)
            .ok_or_else(|| format!("--{name} = '{v}' is not a whole number of bytes (1 or more)"))
    };
    let limits = replay::Limits {
        max_bytes: limit("max-bytes")?,
        max_line_bytes: usize::try_from(limit("max-line-bytes")?).unwrap_or(usize::MAX),
    };
    let file = std::fs::File::open(path).map_err(|e| format!("reading {path}: {e}"))?;
    let trace = replay::parse_reader(std::io::BufReader::new(file), limits)
        .map_err(|e| format!("{path}: {e}"))?;
    for w in &trace.warnings {
        eprintln!("warning: {path}: {w}");
    }
    let r = replay::replay(&trace).map_err(|e| format!("{path}: {e}"))?;
    if a.get_flag("json") {
        println!("{}", serde_json::to_string(&r).map_err(|e| e.to_string())?);
    } else {
        println!(
            "{} events; LRU {} pages ({} old), free {}, freed_page_clock {}, made young {}, not made young {}, reads {}, evictions {}",
            trace.events.len(), r.lru.len(), r.old_len, r.free, r.freed_page_clock, r.made_young, r.not_made_young, r.reads, r.evictions
        );
        println!("LRU head to tail (space page old):");
        for e in r.lru.iter().take(40) {
            println!(
                "  {} {} {}",
                e[0],
                e[1],
                if e[2] == 1 { "old" } else { "young" }
            );
        }
        if r.lru.len() > 40 {
            println!("  ... {} more", r.lru.len() - 40);
        }
    }
    Ok(())
}

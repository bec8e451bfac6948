//! `midpoint replay`: a trace through the pool (the midpoint format) or through a policy (`--format`).

use super::*;
use clap::{Arg, ArgMatches, Command};
use midpoint_policies::replay;

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
        .arg(no_limit_arg())
        .arg(
            Arg::new("estimate")
                .long("estimate")
                .action(clap::ArgAction::SetTrue)
                .help("print the replay's estimated peak memory without replaying (a midpoint trace is read for it; with --json: {\"estimated_mib\"})"),
        )
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
    // The policy replay's flags mean nothing to the midpoint format (its pool line sets the
    // pool): refused, not ignored.
    if let Some(flag) = super::policy::POLICY_ONLY_FLAGS
        .into_iter()
        .find(|f| a.value_source(f) == Some(clap::parser::ValueSource::CommandLine))
    {
        return Err(format!(
            "--{flag} applies with --format only (a standard trace through one policy); a midpoint trace's pool line sets its pool"
        ));
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
    // `-`: standard input, as `from-status -` reads it.
    let (input_file, path): (Box<dyn std::io::Read>, &str) = if path == "-" {
        (Box::new(std::io::stdin()), "standard input")
    } else {
        let f = std::fs::File::open(path).map_err(|e| format!("reading {path}: {e}"))?;
        (Box::new(f), path.as_str())
    };
    let regular_len = (path != "standard input")
        .then(|| std::fs::metadata(a.get_one::<String>("file").expect("required")).ok())
        .flatten()
        .filter(|m| m.is_file())
        .map(|m| m.len().min(limits.max_bytes));
    // The memory of the events read: a regular file's size checked before reading; a pipe's
    // as it arrives (the events of the bytes read so far against what this process may use),
    // never from --max-bytes, which is a limit, not a size.
    let no_limit = a.get_flag("no-limit");
    let mib = |bytes: u64| bytes as f64 / (1u64 << 20) as f64;
    if let Some(len) = regular_len {
        crate::progress::check_advising(
            &midpoint_core::cost::Estimate::memory_only(mib(replay::parse_memory_estimate(len))),
            &format!("reading {path}"),
            crate::progress::REPLAY_ADVICE,
            no_limit || a.get_flag("estimate"),
        )?;
    }
    let budget = if regular_len.is_none() && !no_limit {
        crate::progress::memory_limit().map(|l| l.bytes)
    } else {
        None
    };
    let reader = BudgetReader {
        inner: input_file,
        read: 0,
        budget,
    };
    let trace = replay::parse_reader(std::io::BufReader::new(reader), limits)
        .map_err(|e| format!("{path}: {e}"))?;
    if trace.events.is_empty() {
        return Err(format!(
            "{path}: the trace holds a pool line but no events (a file cut after its first line?): nothing to replay"
        ));
    }
    for w in &trace.warnings {
        eprintln!("warning: {path}: {w}");
    }
    let e = midpoint_core::cost::Estimate::memory_only(mib(replay::replay_memory_estimate(&trace)));
    if a.get_flag("estimate") {
        return crate::output::print_estimate(a, &e);
    }
    crate::progress::check_advising(&e, "this replay", crate::progress::REPLAY_ADVICE, no_limit)?;
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

/// A piped trace's bytes, refused once the events they hold would need more memory than this
/// process may use (`budget`, bytes; None: no limit).
struct BudgetReader {
    inner: Box<dyn std::io::Read>,
    read: u64,
    budget: Option<u64>,
}

impl std::io::Read for BudgetReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read += n as u64;
        if let Some(b) = self.budget {
            let need = replay::parse_memory_estimate(self.read);
            if need > b {
                return Err(std::io::Error::other(format!(
                    "the piped trace's events would take more than the {} MiB this process may use after {} bytes; replay a smaller trace, or give --no-limit",
                    b >> 20,
                    self.read
                )));
            }
        }
        Ok(n)
    }
}

//! The `replay --format`, `export` and `policies` subcommands. Wall-clock time is measured
//! here, in the CLI, never in the core.

use clap::{Arg, ArgAction, ArgMatches, Command};
use midpoint_policies::policy::innodb::{Innodb, InnodbConfig};
use midpoint_policies::policy::Policy;
use midpoint_policies::trace::oracle::OracleReader;
use midpoint_policies::trace::text::{Layout, TextReader};
use midpoint_policies::trace::{next_positions, Remap, Request};
use std::fs::File;
use std::io::BufReader;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// `--allow-decreasing-time`, read once by `replay` before any file is opened.
static ALLOW_DECREASING: AtomicBool = AtomicBool::new(false);

/// Most requests an in-memory replay (Belady on a text trace) holds.
const MAX_IN_MEMORY: usize = 1 << 30;

/// The flags `replay` takes to replay a standard trace through one policy.
pub fn replay_args() -> Vec<Arg> {
    vec![
        Arg::new("format")
            .long("format")
            .value_name("FORMAT")
            .value_parser(["oracle-general", "csv", "txt"])
            .help("replay a standard trace (libCacheSim's oracleGeneral, csv or txt) through one policy, instead of a midpoint trace"),
        Arg::new("policy")
            .long("policy")
            .value_name("NAME")
            .help("with --format: lru fifo clock 2q arc sieve s3fifo lirs belady innodb"),
        Arg::new("cache-pages")
            .long("cache-pages")
            .value_name("N")
            .help("with --format: cache size, objects (every object is one page)"),
        Arg::new("csv-column")
            .long("csv-column")
            .value_name("N")
            .default_value("1")
            .help("with --format csv: the id column, from 1"),
        Arg::new("csv-header")
            .long("csv-header")
            .action(ArgAction::SetTrue)
            .help("with --format csv: skip the first line"),
        Arg::new("allow-decreasing-time")
            .long("allow-decreasing-time")
            .action(ArgAction::SetTrue)
            .help("with --format oracle-general: accept timestamps that go back (taken as the latest time seen)"),
    ]
}

/// The flags of [`replay_args`] that only a replay `--format` takes.
pub const POLICY_ONLY_FLAGS: [&str; 5] = [
    "policy",
    "cache-pages",
    "csv-column",
    "csv-header",
    "allow-decreasing-time",
];

/// Whether `replay` was asked to replay a standard trace.
pub fn is_policy_replay(a: &ArgMatches) -> bool {
    a.get_one::<String>("format").is_some()
}

enum Reader {
    Oracle(OracleReader<File>),
    Text(TextReader<BufReader<File>>),
}

impl Reader {
    fn open(path: &str, format: &str, layout: Layout) -> Result<Reader, String> {
        let f = File::open(path).map_err(|e| format!("cannot open '{path}': {e}"))?;
        Ok(match format {
            "oracle-general" => {
                let len = f
                    .metadata()
                    .map_err(|e| format!("cannot open '{path}': {e}"))?
                    .len();
                Reader::Oracle(
                    OracleReader::new(f)
                        .with_records(len / midpoint_policies::trace::oracle::RECORD as u64)
                        .allow_decreasing_time(ALLOW_DECREASING.load(Ordering::Relaxed)),
                )
            }
            _ => Reader::Text(TextReader::new(
                BufReader::with_capacity(1 << 20, f),
                layout,
            )),
        })
    }
    #[inline]
    fn next_request(&mut self) -> Result<Option<Request>, String> {
        match self {
            Reader::Oracle(r) => r.next_request(),
            Reader::Text(r) => r.next_request(),
        }
    }
}

/// What a replay counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counts {
    pub requests: u64,
    pub misses: u64,
}

fn stream(reader: &mut Reader, remap: &mut Remap, p: &mut dyn Policy) -> Result<Counts, String> {
    // Requests go in batches: the remap slots of a whole batch are prefetched, then its dense
    // ids resolved and the policy's state for them prefetched, then the batch is replayed in
    // order, so that the cache misses of a batch overlap instead of queueing.
    const BATCH: usize = 32;
    let mut c = Counts {
        requests: 0,
        misses: 0,
    };
    let mut batch = [Request {
        t_us: 0,
        id: 0,
        next: 0,
    }; BATCH];
    let mut dense = [0u32; BATCH];
    loop {
        let mut n = 0;
        while n < BATCH {
            match reader.next_request()? {
                Some(q) => {
                    remap.prefetch(q.id);
                    batch[n] = q;
                    n += 1;
                }
                None => break,
            }
        }
        if n == 0 {
            return Ok(c);
        }
        for (d, q) in dense.iter_mut().zip(&batch[..n]) {
            *d = remap.dense(q.id)?;
            p.prefetch(*d);
        }
        for (&d, q) in dense.iter().zip(&batch[..n]) {
            if !p.access(d, q.t_us, q.next) {
                c.misses += 1;
            }
        }
        c.requests += n as u64;
    }
}

/// Replays the file `path` (in `format`) through the policy `name` with a cache of `pages`.
pub fn replay_file(
    path: &str,
    format: &str,
    layout: Layout,
    name: &str,
    pages: u32,
) -> Result<Counts, String> {
    let mut remap = Remap::default();
    match (name, format) {
        ("innodb", "oracle-general") => {
            // The pool's page table is sized once, here by the record count (distinct ids
            // cannot outnumber requests): 4 bytes per request, no second pass.
            let len = std::fs::metadata(path)
                .map_err(|e| format!("cannot open '{path}': {e}"))?
                .len();
            let universe =
                (len / midpoint_policies::trace::oracle::RECORD as u64).min((u32::MAX - 1) as u64);
            let mut p = Innodb::new(pages, universe as u32, InnodbConfig::default())?;
            stream(&mut Reader::open(path, format, layout)?, &mut remap, &mut p)
        }
        ("innodb", _) => {
            // Text: a first pass counts the distinct ids.
            let mut r = Reader::open(path, format, layout)?;
            while let Some(q) = r.next_request()? {
                remap.dense(q.id)?;
            }
            let mut p = Innodb::new(pages, remap.len(), InnodbConfig::default())?;
            stream(&mut Reader::open(path, format, layout)?, &mut remap, &mut p)
        }
        ("belady", "oracle-general") => {
            // Belady trusts the next-access fields: each is checked against the requests.
            let mut p = midpoint_policies::policy::belady::Belady::new(pages);
            let mut check = midpoint_policies::trace::NextAccessCheck::default();
            let mut r = Reader::open(path, format, layout)?;
            let mut c = Counts {
                requests: 0,
                misses: 0,
            };
            while let Some(q) = r.next_request()? {
                let d = remap.dense(q.id)?;
                check.check(c.requests, d, q.next)?;
                if !p.access(d, q.t_us, q.next) {
                    c.misses += 1;
                }
                c.requests += 1;
            }
            check.finish()?;
            Ok(c)
        }
        ("belady", "csv" | "txt") => {
            // Text traces carry no next-access field: read the trace, then a backward pass.
            let mut r = Reader::open(path, format, layout)?;
            let mut ids = Vec::new();
            while let Some(q) = r.next_request()? {
                if ids.len() >= MAX_IN_MEMORY {
                    return Err(format!(
                        "belady on a text trace holds it in memory: more than {MAX_IN_MEMORY} requests"
                    ));
                }
                ids.push(remap.dense(q.id)?);
            }
            let next = next_positions(&ids, remap.len());
            let mut p = midpoint_policies::policy::belady::Belady::new(pages);
            let mut misses = 0;
            for (i, (&id, &n)) in ids.iter().zip(&next).enumerate() {
                if !p.access(id, i as u64, n) {
                    misses += 1;
                }
            }
            Ok(Counts {
                requests: ids.len() as u64,
                misses,
            })
        }
        _ => {
            let mut p = midpoint_policies::policy::by_name(name, pages)?;
            stream(
                &mut Reader::open(path, format, layout)?,
                &mut remap,
                p.as_mut(),
            )
        }
    }
}

/// A replay's memory, estimated from the file's size (every request a new id at worst: 24 bytes
/// a record of `oracle-general`, a line of `column` + 1 bytes at least of text). A file that is
/// not a regular one (a pipe) has no size: only the policy's own state is counted then.
fn memory_estimate(
    path: &str,
    format: &str,
    column: usize,
    name: &str,
    pages: u32,
) -> midpoint_core::cost::Estimate {
    let len = std::fs::metadata(path)
        .ok()
        .filter(|m| m.is_file())
        .map_or(0, |m| m.len());
    let requests = match format {
        "oracle-general" => len / midpoint_policies::trace::oracle::RECORD as u64,
        _ => len / text_bytes_per_request(path, column),
    };
    let in_memory = name == "belady" && format != "oracle-general";
    let bytes = midpoint_policies::policy::replay_memory_estimate(name, pages, requests, in_memory);
    midpoint_core::cost::Estimate::memory_only(bytes as f64 / (1u64 << 20) as f64)
}

/// The bytes of a text trace's request (one a line), from its first MiB: the average line,
/// at least `column + 1` (the shortest a line holding that column can be). A trace of
/// 100,000,000 ids of 8 or 9 digits is so estimated at its requests, not at 4.5 times them.
fn text_bytes_per_request(path: &str, column: usize) -> u64 {
    use std::io::Read;
    let least = column as u64 + 1;
    let mut head = Vec::new();
    let read = File::open(path).and_then(|f| f.take(1 << 20).read_to_end(&mut head));
    let lines = head.iter().filter(|&&b| b == b'\n').count() as u64;
    match read {
        Ok(n) if lines > 0 && (n as u64) < (1 << 20) => least.max(n as u64 / lines),
        // A whole MiB read: its last line may be cut, so the lines' bytes are those up to it.
        Ok(_) if lines > 0 => {
            let upto = head.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1) as u64;
            least.max(upto / lines)
        }
        _ => least,
    }
}

/// `--cache-pages`: a whole number from 1 to 4,294,967,295 (a `u32`, the policies' page count);
/// a larger one is out of range, with the limit, not malformed.
fn parse_cache_pages(v: &str) -> Result<u32, String> {
    let t = v.trim();
    let limit = "allowed from 1 to 4,294,967,295 pages";
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "--cache-pages = '{v}' is not a whole number ({limit})"
        ));
    }
    match t.parse::<u64>() {
        Ok(n) if (1..=u32::MAX as u64).contains(&n) => Ok(n as u32),
        _ => Err(format!("--cache-pages = {t} is out of range: {limit}")),
    }
}

/// `midpoint replay --format F FILE --policy NAME --cache-pages N [--json]`.
pub fn replay(a: &ArgMatches) -> Result<(), String> {
    let start = Instant::now();
    let path = a.get_one::<String>("file").ok_or("replay needs a FILE")?;
    if path == "-" {
        return Err("replay --format reads a file, not standard input (its tables are sized from the file, and a text trace is read twice): write the trace to a file, or give a midpoint trace on stdin without --format".into());
    }
    let format = a
        .get_one::<String>("format")
        .map(String::as_str)
        .unwrap_or("oracle-general");
    let name = a.get_one::<String>("policy").ok_or(
        "replay --format needs --policy NAME (lru fifo clock 2q arc sieve s3fifo lirs belady innodb)",
    )?;
    if !midpoint_policies::policy::NAMES.contains(&name.as_str()) {
        return Err(format!(
            "--policy: unknown policy '{name}'; known: {}",
            midpoint_policies::policy::NAMES.join(", ")
        ));
    }
    let pages_s = a
        .get_one::<String>("cache-pages")
        .ok_or("replay --format needs --cache-pages N")?;
    let pages = parse_cache_pages(pages_s)?;
    // A flag of one format given with another is refused, not ignored.
    let given = |f: &str| a.value_source(f) == Some(clap::parser::ValueSource::CommandLine);
    for (flag, only) in [
        ("csv-column", "csv"),
        ("csv-header", "csv"),
        ("allow-decreasing-time", "oracle-general"),
    ] {
        if given(flag) && format != only {
            return Err(format!(
                "--{flag} applies with --format {only} only, not with --format {format}"
            ));
        }
    }
    let col_s = a
        .get_one::<String>("csv-column")
        .map(String::as_str)
        .unwrap_or("1");
    let column: usize = col_s
        .parse()
        .ok()
        .filter(|&n| (1..=1024).contains(&n))
        .ok_or_else(|| format!("--csv-column = '{col_s}' is not a column number 1..1024"))?;
    let layout = if format == "csv" {
        Layout::Csv {
            column,
            header: a.get_flag("csv-header"),
        }
    } else {
        Layout::Txt
    };
    ALLOW_DECREASING.store(a.get_flag("allow-decreasing-time"), Ordering::Relaxed);
    if name == "innodb" {
        Innodb::check_pages(pages)?;
    }
    let e = memory_estimate(path, format, column, name, pages);
    if a.get_flag("estimate") {
        return crate::output::print_estimate(a, &e);
    }
    crate::progress::check_advising(
        &e,
        &format!("this replay through {name}"),
        crate::progress::REPLAY_ADVICE,
        a.get_flag("no-limit"),
    )?;
    let c = replay_file(path, format, layout, name, pages)?;
    if c.requests == 0 {
        return Err(format!(
            "{path}: the trace holds no requests (an empty file, or one cut before its first record?): nothing to replay"
        ));
    }
    let secs = start.elapsed().as_secs_f64();
    let ratio = if c.requests > 0 {
        c.misses as f64 / c.requests as f64
    } else {
        0.0
    };
    let rps = if secs > 0.0 {
        c.requests as f64 / secs
    } else {
        0.0
    };
    if a.get_flag("json") {
        let v = serde_json::json!({
            "policy": name,
            "requests": c.requests,
            "misses": c.misses,
            "miss_ratio": ratio,
            "requests_per_s": rps.round(),
        });
        println!("{v}");
    } else {
        println!(
            "{name}: {} requests, {} misses, miss ratio {ratio:.6}, {:.0} requests/s",
            c.requests, c.misses, rps
        );
    }
    Ok(())
}

/// The `export` subcommand.
pub fn export_command() -> Command {
    Command::new("export")
        .about(
            "Write a scenario's page requests (the InnoDB run's access stream) as a standard trace",
        )
        .arg(
            Arg::new("preset")
                .long("preset")
                .value_name("NAME")
                .required(true),
        )
        .arg(
            Arg::new("format")
                .long("format")
                .value_name("FORMAT")
                .value_parser(["oracle-general", "txt"])
                .default_value("oracle-general"),
        )
        .arg(Arg::new("file").required(true).value_name("FILE"))
        .arg(super::no_limit_arg())
}

/// `midpoint export --preset NAME --format oracle-general FILE`.
pub fn export(a: &ArgMatches) -> Result<(), String> {
    let name = a
        .get_one::<String>("preset")
        .ok_or("export needs --preset")?;
    let path = a.get_one::<String>("file").ok_or("export needs a FILE")?;
    let format = a
        .get_one::<String>("format")
        .map(String::as_str)
        .unwrap_or("oracle-general");
    let params = midpoint_core::scenario::preset(name)?.params;
    // The run, its recording, and the requests again as records with their next accesses (16
    // and 8 bytes each, and a map entry per id).
    let requests = midpoint_core::cost::requests(&params) * 40.0;
    check_recording(&params, requests, "this export", a.get_flag("no-limit"))?;
    let (rec, _) = midpoint_policies::policy::record::record(&params)?;
    // Written to a temporary file beside FILE and renamed over it once whole: an export that is
    // interrupted (Ctrl-C, a full disk, a killed process) leaves FILE as it was, or absent.
    let tmp = temp_beside(path);
    let written = (|| -> Result<(), String> {
        let mut f = File::create(&tmp).map_err(|e| format!("cannot create '{path}': {e}"))?;
        let io = |e: std::io::Error| format!("writing '{path}': {e}");
        if format == "txt" {
            use std::io::Write;
            let mut w = std::io::BufWriter::new(&mut f);
            for &id in &rec.ids {
                writeln!(w, "{id}").map_err(io)?;
            }
            w.flush().map_err(io)?;
        } else {
            let reqs: Vec<(u32, u64)> = rec
                .t_us
                .iter()
                .zip(&rec.ids)
                .map(|(&t, &id)| ((t / 1_000_000) as u32, id as u64))
                .collect();
            midpoint_policies::trace::oracle::write(&mut f, &reqs).map_err(io)?;
        }
        f.sync_all().map_err(io)?;
        std::fs::rename(&tmp, path)
            .map_err(|e| format!("cannot rename the finished export to '{path}': {e}"))
    })();
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    eprintln!(
        "wrote {} requests to {path}: ids 0..{} are the hot table, {}..{} the scanned table{}; the first {} requests are the preload, the scan starts at request {}",
        rec.ids.len(),
        rec.hot_table,
        rec.hot_table,
        rec.scan_end,
        if rec.universe > rec.scan_end {
            format!(", {}..{} the filler table", rec.scan_end, rec.universe)
        } else {
            String::new()
        },
        rec.preload,
        rec.scan_from
    );
    Ok(())
}

/// A temporary name beside `path`, in the same directory (so the rename is atomic):
/// `.NAME.PID.part`.
fn temp_beside(path: &str) -> std::path::PathBuf {
    let p = std::path::Path::new(path);
    let name = p
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "export".into());
    p.with_file_name(format!(".{name}.{}.part", std::process::id()))
}

/// The `policies` subcommand.
pub fn policies_command() -> Command {
    Command::new("policies")
        .about("Every replacement policy on a scenario's workload: hot set kept, miss ratio, lookups/s, the scan's share of the cache")
        .arg(Arg::new("preset").long("preset").value_name("NAME").required(true))
        .arg(
            Arg::new("touches")
                .long("touches")
                .value_name("N")
                .help("touches per scanned page fed to the other policies (default: the scenario's)"),
        )
        .arg(Arg::new("json").long("json").action(ArgAction::SetTrue).help("print JSON"))
        .arg(
            Arg::new("markdown")
                .long("markdown")
                .action(ArgAction::SetTrue)
                .conflicts_with("json")
                .help("print the table as Markdown (as docs/policies.md shows it)"),
        )
        .arg(
            Arg::new("svg")
                .long("svg")
                .value_name("FILE")
                .help("also draw the page's policies figure (hot set kept, miss ratio) to FILE as SVG"),
        )
        .arg(super::threads_arg())
        .arg(super::no_limit_arg())
}

/// Refuses a recording of `params`' run (and `extra` bytes beside it) whose memory would be more
/// than this process may use.
fn check_recording(
    params: &midpoint_core::scenario::Params,
    extra: f64,
    what: &str,
    no_limit: bool,
) -> Result<(), String> {
    let e = midpoint_core::cost::estimate(params).plus_mib(
        (midpoint_policies::policy::record::memory_estimate(params) as f64 + extra)
            / (1u64 << 20) as f64,
    );
    crate::progress::check(&e, what, no_limit)
}

/// `midpoint policies --preset NAME [--json|--markdown] [--svg FILE]`.
pub fn policies(a: &ArgMatches) -> Result<(), String> {
    let name = a
        .get_one::<String>("preset")
        .ok_or("policies needs --preset")?;
    let params = midpoint_core::scenario::preset(name)?.params;
    let touches = match a.get_one::<String>("touches") {
        None => None,
        Some(s) => Some(
            s.parse::<u32>()
                .ok()
                .filter(|n| (1..=64).contains(n))
                .ok_or_else(|| format!("--touches = '{s}' is not a whole number 1..64"))?,
        ),
    };
    // The run, its recording, and the other policies at once, each with its state per page
    // of the tables.
    let frames = params.frames_per_instance() as u64 * params.buffer_pool_instances as u64;
    let pages = params.hot_table_pages as u64 + params.scan_table_pages() as u64 + frames;
    let policies = crate::progress::at_once(midpoint_policies::policy::NAMES.len() - 1) as u64;
    let extra = policies
        * midpoint_policies::policy::replay_memory_estimate("lru", frames as u32, pages, false);
    check_recording(
        &params,
        extra as f64,
        "this comparison",
        a.get_flag("no-limit"),
    )?;
    let rows = midpoint_policies::policy::compare::policy_rows(&params, touches)?;
    let frames = params.frames_per_instance() * params.buffer_pool_instances;
    let t = touches.unwrap_or(params.scan_touches_per_page);
    if let Some(path) = a.get_one::<String>("svg") {
        let bars: Vec<midpoint_lab::chart::policies::PolicyBar> = rows
            .iter()
            .map(|r| midpoint_lab::chart::policies::PolicyBar {
                policy: r.policy.clone(),
                kept: r.kept,
                miss_ratio: r.miss_ratio,
            })
            .collect();
        let svg = midpoint_lab::chart::policies::policies_svg(&bars, Some("innodb"))?;
        std::fs::write(path, svg).map_err(|e| format!("cannot write '{path}': {e}"))?;
    }
    if a.get_flag("json") {
        let v = serde_json::json!({
            "preset": name,
            "cache_pages": frames,
            "hot_pages": params.hot_pages,
            "scan_table_pages": params.scan_table_pages(),
            "touches_per_scanned_page": t,
            "policies": rows,
        });
        println!("{v}");
        return Ok(());
    }
    println!(
        "{name}: {frames}-page cache, {}-page hot set, {}-page looping scan, {t} touches per scanned page; figures over the scan phase",
        params.hot_pages,
        params.scan_table_pages()
    );
    let lookups = |r: &midpoint_policies::policy::compare::PolicyRow| {
        r.lookups_per_s
            .map(|v| format!("{v:.0}"))
            .unwrap_or_else(|| "—".into())
    };
    if a.get_flag("markdown") {
        use midpoint_lab::experiments::table::{Align, Table};
        let mut table = Table::new([
            ("policy", Align::Left),
            ("hot set kept", Align::Right),
            ("miss ratio", Align::Right),
            ("lookups/s", Align::Right),
            ("scan's share", Align::Right),
            ("how", Align::Left),
        ]);
        for r in &rows {
            table.row([
                r.policy.clone(),
                format!("{:.1} %", 100.0 * r.kept),
                format!("{:.4}", r.miss_ratio),
                lookups(r),
                format!("{:.1} %", 100.0 * r.scan_share),
                r.how.to_string(),
            ]);
        }
        print!("\n{}", table.markdown());
        return Ok(());
    }
    println!(
        "{:8} {:>9} {:>11} {:>10} {:>11}  how",
        "policy", "hot kept", "miss ratio", "lookups/s", "scan share"
    );
    for r in &rows {
        println!(
            "{:8} {:>8.1}% {:>11.4} {:>10} {:>10.1}%  {}",
            r.policy,
            100.0 * r.kept,
            r.miss_ratio,
            lookups(r),
            100.0 * r.scan_share,
            r.how
        );
    }
    Ok(())
}

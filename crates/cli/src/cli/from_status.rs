//! `midpoint from-status FILE...`: read what a server printed (SHOW ENGINE INNODB STATUS,
//! INNODB_BUFFER_POOL_STATS, SHOW VARIABLES, SHOW GLOBAL STATUS), show each value with its line,
//! what was assumed and what contradicts, the scenario it makes, and with `--run` its leak risk.
//! Input it cannot use: one line on stderr, exit status 2.

use super::*;
use clap::{Arg, ArgAction, ArgMatches, Command};
use midpoint_status::outcomes::{self, KeptRange, Outcomes};
use midpoint_status::risk::{self, RunRow};
use midpoint_status::scenario::{scenario, Inputs, Scenario};
use midpoint_status::{self as status, fit, Reading};
use std::io::Read;

/// The exit status of input that cannot be used.
pub const BAD_INPUT: i32 = 2;

pub fn command() -> Command {
    Command::new("from-status")
        .about("Read SHOW ENGINE INNODB STATUS (and INNODB_BUFFER_POOL_STATS, SHOW VARIABLES, SHOW GLOBAL STATUS) as pasted from a server: each value with its line, what is assumed, the matching scenario, and with --run its leak risk")
        .arg(
            Arg::new("files")
                .value_name("FILE")
                .num_args(1..)
                .required(true)
                .help("files holding what the server printed, in any mix (- reads stdin); two status snapshots give rates from their difference"),
        )
        .arg(
            Arg::new("hot-pages")
                .long("hot-pages")
                .value_name("N")
                .help("pages of your hot set (a status cannot tell it; default: with --run/--risk fitted to your youngs/s, else the young sublist's length, at most half the pool)"),
        )
        .arg(
            Arg::new("hot-table")
                .long("hot-table")
                .value_name("DB.TABLE")
                .action(ArgAction::Append)
                .help("a table your lookups keep hot (repeatable): the hot set is its pages, from the per-table residency pasted with the status (sys.innodb_buffer_stats_by_table, or the grouped INNODB_BUFFER_PAGE_LRU query in docs/your-server.md); --hot-pages wins over it"),
        )
        .arg(
            Arg::new("lookups-per-s")
                .long("lookups-per-s")
                .value_name("X")
                .help("lookups per second your server runs on the hot set when idle (default: with --run/--risk fitted to your hit rate, else the model's 5,000)"),
        )
        .arg(
            Arg::new("scan-pages-per-s")
                .long("scan-pages-per-s")
                .value_name("X")
                .help("pages per second your scan reads from disk on an idle server (default: fitted to your reads/s)"),
        )
        .arg(
            Arg::new("run")
                .long("run")
                .action(ArgAction::SetTrue)
                .help("run the scenario: kept, the leak rate per refill, the model's youngs/s beside yours"),
        )
        .arg(
            Arg::new("risk")
                .long("risk")
                .action(ArgAction::SetTrue)
                .help("with the run, the runs that change one thing (lru_scan_depth, old_blocks_time, a pause) and which helps; implies --run"),
        )
        .arg(runs_arg("1", "with --run/--risk, an ensemble of N runs of each row (RNG seeds: the scenario's seed, seed + 1, ...): kept as the median with its range; --json adds kept_median, kept_min, kept_max and runs to each row (kept stays the first run's) [alias: --seeds]"))
        .arg(threads_arg())
        .arg(json_arg())
        .arg(no_limit_arg())
}

fn refuse(msg: &str) -> ! {
    crate::output::print_error(msg);
    std::process::exit(BAD_INPUT);
}

fn read_file(path: &str) -> Result<String, String> {
    let mut bytes = Vec::new();
    if path == "-" {
        std::io::stdin()
            .take(status::MAX_BYTES as u64 + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| format!("reading stdin: {e}"))?;
    } else {
        let f = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
        f.take(status::MAX_BYTES as u64 + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| format!("{path}: {e}"))?;
    }
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// The reading and the scenario, or the one-line reason why not; the tables marked hot are
/// resolved into the hot set (`inputs` updated).
pub fn read_and_map(files: &[String], inputs: &mut Inputs) -> Result<(Reading, Scenario), String> {
    let texts = files
        .iter()
        .map(|f| read_file(f))
        .collect::<Result<Vec<_>, _>>()?;
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    let r = status::read_inputs(&refs).map_err(|e| {
        if files.len() > 1 && e.line.is_some() {
            format!("{}: {e}", files[e.input])
        } else if files.len() == 1 && e.line.is_some() {
            format!("{}: {e}", files[0])
        } else {
            e.to_string()
        }
    })?;
    inputs.resolve(&r)?;
    let s = scenario(&r, inputs).map_err(|e| format!("the values read make no scenario: {e}"))?;
    Ok((r, s))
}

fn inputs(a: &ArgMatches) -> Inputs {
    let hot_pages = a
        .get_one::<String>("hot-pages")
        .map(|v| match v.trim().parse::<u32>() {
            Ok(n) if (1..=4_194_304).contains(&n) => n,
            _ => refuse(&format!(
                "--hot-pages = '{v}' is not a whole number of pages from 1 to 4,194,304"
            )),
        });
    let lookups_per_s = a.get_one::<String>("lookups-per-s").map(|v| {
        match v.trim().parse::<f64>() {
            Ok(x) if x.is_finite() && x > 0.0 && x <= 1e6 => x,
            _ => refuse(&format!(
                "--lookups-per-s = '{v}' is not a number of lookups per second above 0 and at most 1,000,000"
            )),
        }
    });
    let scan_pages_per_s = a.get_one::<String>("scan-pages-per-s").map(|v| {
        match v.trim().parse::<f64>() {
            Ok(x) if x.is_finite() && (fit::MIN_SCAN_PAGES_PER_S..=1e6).contains(&x) => x,
            _ => refuse(&format!(
                "--scan-pages-per-s = '{v}' is not a number of pages per second from {} to 1,000,000",
                fit::MIN_SCAN_PAGES_PER_S
            )),
        }
    });
    Inputs {
        hot_pages,
        lookups_per_s,
        scan_pages_per_s,
        hot_tables: a
            .get_many::<String>("hot-table")
            .map(|v| v.cloned().collect())
            .unwrap_or_default(),
        hot_from: None,
    }
}

/// What the runs found beside the rows: the range over the hot sets the counters allow (when
/// no measurement pinned it) and the as-read row's outcomes (both, when the hot set flips).
struct Extra {
    range: Option<KeptRange>,
    outcomes: Option<Outcomes>,
}

/// The fit and the rows' runs: the estimate of them all first (refused over the budget unless
/// `--no-limit`, said on stderr when it is long), then the fit's simulations and the rows',
/// counted on stderr; without a pinned hot set, the as-read row again at the ends of the hot
/// sets the counters allow.
fn fit_and_run(
    r: &Reading,
    s: &mut Scenario,
    inp: &Inputs,
    want_risk: bool,
    runs: u32,
    no_limit: bool,
    quiet: bool,
) -> Result<(fit::Fit, Vec<RunRow>, Extra), String> {
    let fitter = fit::Fitter::new(&s.params, fit::targets(r), inp.pins());
    let fit_e = fitter.estimate();
    // The rows run the fitted scenario, whose rates are not known yet: estimated at the
    // starting guesses (the fit moves them towards the server's, which the start is read from).
    let start = fitter.params();
    let mut plan = risk::plan(&start);
    if !want_risk {
        plan.truncate(1);
    }
    // Without a pinned hot set, the as-read row runs twice more (the bracket's ends).
    let ends = if inp.pins().hot_pages.is_none() { 2 } else { 0 };
    let rows_e: f64 = plan
        .iter()
        .map(|(_, _, q)| midpoint_core::cost::estimate(q).wall_s * runs as f64)
        .sum::<f64>()
        + ends as f64 * midpoint_core::cost::estimate(&plan[0].2).wall_s * runs as f64;
    let total = midpoint_core::cost::Estimate {
        wall_s: fit_e.wall_s + rows_e,
        ..fit_e
    };
    let what = format!(
        "the fit (at most {} runs of {}) and {} row(s) of {runs} run(s) of the {} pool",
        fit::MAX_STEPS,
        if start.buffer_pool_instances > 1 {
            "one instance's share".to_string()
        } else {
            "the scenario".to_string()
        },
        plan.len(),
        pool_words(&start)
    );
    midpoint_core::cost::check_budget(&total, &what, no_limit)?;
    let mut counter = crate::progress::Counter::stderr(
        "runs",
        quiet || total.wall_s <= midpoint_core::cost::PROGRESS_THRESHOLD_S,
    );
    if !quiet && total.wall_s > midpoint_core::cost::PROGRESS_THRESHOLD_S {
        eprintln!(
            "from-status: {what}: about {} (estimate)",
            midpoint_core::cost::human_duration(total.wall_s)
        );
    }
    let (f, fitted) = fit::fit(&s.params, fit::targets(r), inp.pins(), |d, n| {
        counter.tick(d, n)
    })?;
    counter.finish();
    s.apply_fit(&f, fitted);
    let mut plan = risk::plan(&s.params);
    if !want_risk {
        plan.truncate(1);
    }
    let mut rows = Vec::new();
    let mut extra = Extra {
        range: None,
        outcomes: None,
    };
    let base = s.params.clone();
    let n = plan.len();
    for (i, (label, change, q)) in plan.into_iter().enumerate() {
        let reports = run_rows(&q, runs, no_limit)?;
        if i == 0 {
            extra.outcomes = outcomes::of(&reports);
        }
        rows.push(risk::row(&label, change, &reports));
        counter.tick(i + 1, n);
    }
    counter.finish();
    if let (Some([lo, hi]), Some(first)) = (f.hot_pages_range, rows.first()) {
        let mut at = Vec::new();
        for h in [lo, hi] {
            if h == base.hot_pages {
                continue;
            }
            let row = risk::row(
                "",
                None,
                &run_rows(&outcomes::with_hot(&base, h), runs, no_limit)?,
            );
            at.push((h, row.kept_median.or(row.kept).unwrap_or(f64::NAN)));
        }
        at.push((
            base.hot_pages,
            first.kept_median.or(first.kept).unwrap_or(f64::NAN),
        ));
        at.sort_by_key(|x| x.0);
        extra.range = outcomes::range([lo, hi], at);
    }
    Ok((f, rows, extra))
}

/// "16382 MiB (1,048,448 pages) in 8 instances".
fn pool_words(p: &midpoint_core::scenario::Params) -> String {
    let pages = p.frames_per_instance() as u64 * p.buffer_pool_instances as u64;
    format!(
        "{} MiB ({pages} pages){}",
        p.pool_mb,
        if p.buffer_pool_instances > 1 {
            format!(" in {} instances", p.buffer_pool_instances)
        } else {
            String::new()
        }
    )
}

pub fn run(a: &ArgMatches) -> Result<(), String> {
    let files: Vec<String> = a
        .get_many::<String>("files")
        .map(|v| v.cloned().collect())
        .unwrap_or_default();
    let mut inp = inputs(a);
    let (r, mut s) = match read_and_map(&files, &mut inp) {
        Ok(x) => x,
        Err(e) => refuse(&e),
    };
    let want_risk = a.get_flag("risk");
    let runs = parse_runs(a)?;
    let mut rows: Vec<RunRow> = Vec::new();
    let mut fitted = None;
    let mut extra = Extra {
        range: None,
        outcomes: None,
    };
    if a.get_flag("run") || want_risk {
        let no_limit = a.get_flag("no-limit");
        let (f, rs, x) = fit_and_run(&r, &mut s, &inp, want_risk, runs, no_limit, false)?;
        fitted = Some(f);
        rows = rs;
        extra = x;
    }
    if a.get_flag("json") {
        let mut j = status::report::to_json_fit(&r, &s, &rows, want_risk, fitted.as_ref());
        if let Some(serde_json::Value::Object(m)) = j.get_mut("result") {
            if let Some(k) = &extra.range {
                m.insert("kept_range".into(), serde_json::json!(k));
            }
            if let Some(o) = &extra.outcomes {
                m.insert("outcomes".into(), serde_json::json!(o));
            }
        }
        print_json(&j)
    } else {
        print_text(&r, &s, &rows, want_risk, fitted.as_ref());
        if let Some(o) = extra.outcomes.as_ref().filter(|o| o.bistable) {
            println!("{}", o.words);
        }
        if let Some(k) = &extra.range {
            println!("{}", k.words);
        }
        Ok(())
    }
}

/// The `runs` runs of one row (seeds `q.seed`, `q.seed + 1`, ...): one run with the progress
/// bar, or an ensemble after the budget's check of them all.
fn run_rows(
    q: &midpoint_core::scenario::Params,
    runs: u32,
    no_limit: bool,
) -> Result<Vec<midpoint_core::metrics::RunReport>, String> {
    if runs == 1 {
        return Ok(vec![crate::progress::run(q, no_limit)?]);
    }
    crate::progress::check_sweep(q, runs as usize, no_limit)?;
    Ok(midpoint_lab::ensemble::run(q, runs)?.runs)
}

fn show(v: &status::Num) -> String {
    match v {
        status::Num::Int(n) => n.to_string(),
        status::Num::Real(x) => format!("{x}"),
        status::Num::Text(t) => t.clone(),
    }
}

fn print_text(
    r: &Reading,
    s: &Scenario,
    rows: &[RunRow],
    with_risk: bool,
    fitted: Option<&fit::Fit>,
) {
    println!("read ({} snapshot(s)):", r.snapshots);
    println!("  {:<36} {:>22}  line  text", "name", "value");
    for (k, v) in &r.values {
        let flag = if r.flagged.iter().any(|f| f == k) {
            " (flagged)"
        } else {
            ""
        };
        println!(
            "  {:<36} {:>22}  {:>4}  {}{flag}",
            k,
            show(&v.value),
            v.from.line,
            v.from.text
        );
    }
    if let Some(i) = &r.interval {
        println!(
            "over the {:.0} s between the snapshots (lines {} and {}):",
            i.seconds, i.from_line, i.to_line
        );
        for (k, x) in &i.rates {
            println!("  {k:<36} {x:>22.2}");
        }
    }
    if let Some(e) = &r.exact {
        println!(
            "exactly, over the {:.0} s between the two SHOW GLOBAL STATUS snapshots (Uptime, lines {} and {}):",
            e.seconds, e.from_line, e.to_line
        );
        if let Some(h) = e.hit_rate {
            println!("  {:<36} {:>22.4}", "hit_rate", h);
        }
        for (k, x) in &e.rates {
            println!("  {k:<36} {x:>22.2}");
        }
    }
    if !r.warnings.is_empty() {
        println!("warnings:");
        for w in &r.warnings {
            println!("  {w}");
        }
    }
    println!("assumed:");
    for a in &s.assumed {
        println!("  {} = {}: {}", a.name, a.value, a.why);
    }
    for n in r.notes.iter().chain(s.notes.iter()) {
        println!("note: {n}");
    }
    // Every parameter that is not the default, as the flags of `midpoint run` (the engine
    // first: setting it resets the engine's defaults).
    let d = midpoint_core::scenario::Params::default().to_pairs();
    let flags: Vec<String> = s
        .params
        .to_pairs()
        .into_iter()
        .filter(|kv| kv.0 == "engine" || !d.contains(kv))
        .map(|(k, v)| format!("--{} {v}", k.replace('_', "-")))
        .collect();
    println!("scenario: {}", flags.join(" "));
    if let Some(f) = fitted {
        println!();
        print!("{}", fit::table_text(f));
    }
    if rows.is_empty() {
        return;
    }
    println!();
    println!("simulated pool: {}", pool_words(&s.params));
    if rows.iter().any(|r| r.runs > 1) {
        println!(
            "(each row: {} runs, RNG seeds {}-{}; kept % the median (min-max), the other figures the medians)",
            rows[0].runs,
            s.params.seed,
            s.params.seed + rows[0].runs as u64 - 1
        );
    }
    print!(
        "{}",
        risk::table_text(&risk::table(rows, risk::pasted_rates(r)))
    );
    println!(
        "(the leak is not in youngs/s: a page the boundary's slide turns young counts nowhere)"
    );
    if with_risk {
        println!();
        println!("{}", risk::advice_fitted(rows, fitted));
    }
}

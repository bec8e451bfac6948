//! Every refusal of a flag's value names the flag the user typed and quotes the value as typed.
//!
//! The flags are not listed here: each subcommand's `--help` (which lists every flag) gives
//! them, so a flag added later is checked too. Each value-taking flag is given values no flag
//! accepts (a number past u64, a word, a negative number, a float past f64) in a context where
//! the flag applies (write-path flags on a write-path preset, the policy replay's flags with
//! `--format`), and the first line of the error must hold `--FLAG` and the value exactly as typed
//! (`18446744073709551616`, not `18446744073709552000`). Then the rules between two parameters
//! (checked after each value is) must name the flags too, not the core's names (`hot_pages`).

mod common;

use common::{midpoint, BIN, FIXTURES};
use std::collections::BTreeMap;
use std::process::Command;

/// Values no flag takes.
const NONSENSE: [&str; 4] = ["18446744073709551616", "abc", "-1", "1e400"];

/// Flags whose value is free text (a path, an address, a name looked up elsewhere): a word is
/// a value they may take, so they are not given nonsense here.
const FREE_TEXT: [&str; 4] = ["svg", "url", "socket", "preset"];

/// The value-taking flags of a subcommand's `--help`, each with the heading it is listed under.
fn flags(sub: &str) -> Vec<(String, String)> {
    let o = Command::new(BIN).args([sub, "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&o.stdout).into_owned();
    let mut heading = String::new();
    let mut out = Vec::new();
    for line in help.lines() {
        if !line.starts_with(' ') && line.ends_with(':') {
            heading = line.to_string();
            continue;
        }
        let t = line.trim_start();
        let t = t.strip_prefix("-h, ").unwrap_or(t);
        let Some(rest) = t.strip_prefix("--") else {
            continue;
        };
        let mut words = rest.split_whitespace();
        let name = words.next().unwrap_or("");
        if words.next().is_some_and(|w| w.starts_with('<')) {
            out.push((name.to_string(), heading.clone()));
        }
    }
    out
}

fn subcommands() -> Vec<String> {
    let (_, out, _) = midpoint(["--help"]);
    let mut subs = Vec::new();
    let mut inside = false;
    for line in out.lines() {
        if line == "Commands:" {
            inside = true;
            continue;
        }
        if inside {
            match line.strip_prefix("  ") {
                Some(l) => {
                    let name = l.split_whitespace().next().unwrap_or("");
                    if name != "help" {
                        subs.push(name.to_string());
                    }
                }
                None => break,
            }
        }
    }
    subs
}

/// The arguments that put `--FLAG` of `sub` where it applies (without the flag itself).
fn context(sub: &str, flag: &str, heading: &str, dir: &std::path::Path) -> Vec<String> {
    let trace = dir.join("t.trace");
    let txt = dir.join("t.txt");
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    match sub {
        // --estimate: a value that is accepted prices the run instead of running it.
        "run" if heading.starts_with("Write-path") || flag == "set" => {
            s(&["--preset", "seed003-rw-default", "--estimate"])
        }
        "run" => s(&["--estimate"]),
        "replay" => match flag {
            "max-bytes" | "max-line-bytes" => vec![trace.display().to_string()],
            _ => {
                let mut v = Vec::new();
                let format = if flag == "csv-column" { "csv" } else { "txt" };
                for (f, val) in [("format", format), ("policy", "lru"), ("cache-pages", "10")] {
                    if f != flag {
                        v.push(format!("--{f}"));
                        v.push(val.to_string());
                    }
                }
                v.push(txt.display().to_string());
                v
            }
        },
        "export" => vec![
            "--preset".into(),
            "small-demo".into(),
            dir.join("out.trace").display().to_string(),
        ],
        "policies" => s(&["--preset", "small-demo"]),
        // Port 1: a value that is accepted ends in a refused connection, not a run.
        "experiment" => s(&["--url", "mysql://root@127.0.0.1:1", "--dry-run"]),
        "from-status" => vec![format!("{FIXTURES}mariadb-10.11-global-status-table.txt")],
        _ => Vec::new(),
    }
}

#[test]
fn every_flag_refuses_nonsense_naming_itself_and_the_value_as_typed() {
    let dir = common::scratch("flag-refusals");
    std::fs::write(dir.join("t.trace"), "pool pages=1000\n0 get 1 1\n").unwrap();
    std::fs::write(dir.join("t.txt"), "1\n2\n1\n").unwrap();
    let mut wrong: BTreeMap<String, String> = BTreeMap::new();
    let mut checked = 0;
    for sub in subcommands() {
        for (flag, heading) in flags(&sub) {
            if FREE_TEXT.contains(&flag.as_str()) {
                continue;
            }
            for v in NONSENSE {
                let mut args = vec![sub.clone()];
                args.extend(context(&sub, &flag, &heading, &dir));
                args.push(format!("--{flag}={v}"));
                let (code, _, err) = midpoint(&args);
                checked += 1;
                let first = err.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
                let named = first.contains(&format!("--{flag}"));
                if code == 0 || !named || !first.contains(v) {
                    wrong.insert(
                        format!("midpoint {}", args.join(" ")),
                        format!("exit {code}: {first}"),
                    );
                }
            }
        }
    }
    assert!(checked > 400, "only {checked} cases: the help was not read");
    assert!(
        wrong.is_empty(),
        "{} of {checked} refusals do not name the flag typed and quote the value as typed:\n{}",
        wrong.len(),
        wrong
            .iter()
            .map(|(k, v)| format!("  {k}\n    {v}"))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn the_rules_between_two_parameters_name_the_flags_typed() {
    let w = "seed003-rw-default";
    let cases: &[(&[&str], &[&str])] = &[
        (
            &["run", "--hot-pages", "5000", "--hot-table-pages", "100"],
            &["--hot-pages", "5000", "--hot-table-pages", "100"],
        ),
        (
            &["run", "--pool-pages", "99999", "--pool-mb", "8"],
            &["--pool-pages", "99999", "--pool-mb", "8"],
        ),
        (
            &["run", "--pool-mb", "512", "--buffer-pool-instances", "2"],
            &["--buffer-pool-instances", "2", "--pool-mb", "512"],
        ),
        (
            &[
                "run",
                "--engine",
                "mariadb-10.11",
                "--pool-mb",
                "2048",
                "--buffer-pool-instances",
                "2",
            ],
            &["--buffer-pool-instances", "2"],
        ),
        (
            &[
                "run",
                "--what-if",
                "empty-free-list-wakes-cleaner",
                "--pool-mb",
                "2048",
                "--buffer-pool-instances",
                "2",
            ],
            &["--what-if", "--buffer-pool-instances"],
        ),
        (
            &[
                "run",
                "--preset",
                w,
                "--io-capacity",
                "5000",
                "--io-capacity-max",
                "100",
            ],
            &["--io-capacity-max", "--io-capacity"],
        ),
        (
            &[
                "run",
                "--preset",
                w,
                "--max-dirty-pages-pct",
                "10",
                "--max-dirty-pages-pct-lwm",
                "50",
            ],
            &["--max-dirty-pages-pct-lwm", "--max-dirty-pages-pct"],
        ),
        (
            &["run", "--preset", w, "--base-s", "0", "--scan-s", "0"],
            &["--base-s", "--scan-s"],
        ),
        (
            &[
                "run",
                "--preset",
                w,
                "--scan-table-pages",
                "100",
                "--scan-s",
                "0",
            ],
            &["--scan-table-pages", "100", "--scan-s", "0"],
        ),
    ];
    for (args, want) in cases {
        // Both with --estimate (which must not price a refused run) and without.
        for estimate in [true, false] {
            let mut a: Vec<&str> = args.to_vec();
            if estimate {
                a.push("--estimate");
            }
            let (code, out, err) = midpoint(&a);
            assert_ne!(code, 0, "midpoint {}: accepted: {out}", a.join(" "));
            let first = err.lines().next().unwrap_or("");
            for w in *want {
                assert!(
                    first.contains(w),
                    "midpoint {}: the refusal does not name {w}: {first}",
                    a.join(" ")
                );
            }
            // No parameter's internal name (`hot_pages`) where a flag was typed.
            assert!(
                !first
                    .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .any(|word| word.contains('_')
                        && word.chars().all(|c| c.is_ascii_lowercase() || c == '_')),
                "midpoint {}: an internal name: {first}",
                a.join(" ")
            );
        }
    }
}

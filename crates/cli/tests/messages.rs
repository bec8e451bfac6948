//! The command line's messages for mistakes: each runs the real binary and
//! checks what a user reads: malformed against out of range, "did you mean", an unwritable
//! output found before the work, progress off a terminal, the warnings of a scenario that
//! cannot fit its pool, and `presets --json`.

mod common;

use std::process::{Command, Output};

fn midpoint(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_midpoint"))
        .args(args)
        .output()
        .expect("run midpoint")
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

const SHORT: [&str; 6] = ["--warmup-s", "1", "--scan-s", "1", "--kept-window-s", "1"];

#[test]
fn a_whole_number_not_in_digits_is_malformed_not_out_of_range() {
    let o = midpoint(&["run", "--pool-mb", "1e8"]);
    assert_eq!(o.status.code(), Some(1));
    let e = err(&o);
    assert!(
        e.contains("pool_mb = '1e8' is not a whole number written in digits")
            && !e.contains("out of range"),
        "{e}"
    );
    // A number in digits past the limit is out of range, with the limit.
    let e = err(&midpoint(&["run", "--pool-mb", "100000000"]));
    assert!(
        e.contains("is out of range; allowed: from 8 to 65,536 MiB"),
        "{e}"
    );
}

#[test]
fn an_unknown_preset_suggests_the_nearest_and_lists_every_preset() {
    let o = midpoint(&["run", "--preset", "seed000-hot4485-bb2"]);
    assert_eq!(o.status.code(), Some(1));
    let e = err(&o);
    assert!(e.contains("did you mean 'seed000-hot4485-b2b'?"), "{e}");
    let listed = out(&midpoint(&["presets"]));
    let names: Vec<&str> = listed
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert!(names.len() > 40, "{listed}");
    for n in &names {
        assert!(e.contains(n), "{n} missing from: {e}");
    }
    assert!(
        e.contains(&format!("known presets ({}):", names.len())),
        "{e}"
    );
    // The same on the other commands that take a preset.
    let e = err(&midpoint(&["sweep", "--preset", "smal-demo"]));
    assert!(e.contains("did you mean 'small-demo'?"), "{e}");
}

#[test]
fn an_unknown_subcommand_or_flag_gets_a_suggestion() {
    let o = midpoint(&["rnu"]);
    assert_eq!(o.status.code(), Some(2));
    let e = err(&o);
    assert!(e.contains("unrecognized subcommand 'rnu'"), "{e}");
    assert!(
        e.contains("similar subcommand") && e.contains("'run'"),
        "{e}"
    );
    let e = err(&midpoint(&["run", "--pool-mbb", "64"]));
    assert!(
        e.contains("similar argument") && e.contains("--pool-mb"),
        "{e}"
    );
}

#[test]
fn an_output_that_cannot_be_written_is_refused_before_the_run() {
    // The run is an hour of simulated time: had it started, the test would not end soon.
    let long = ["--warmup-s", "3600", "--scan-s", "3600"];
    let o = midpoint(&[&["run", "--svg", ""][..], &long].concat());
    assert_eq!(o.status.code(), Some(1));
    assert!(err(&o).contains("--svg: give a file name"), "{}", err(&o));
    let o = midpoint(&[&["run", "--svg", "/nonexistent-dir/x.svg"][..], &long].concat());
    assert_eq!(o.status.code(), Some(1));
    let e = err(&o);
    assert!(
        e.starts_with("error: --svg /nonexistent-dir/x.svg: cannot write it"),
        "{e}"
    );
    let dir = std::env::temp_dir();
    let o = midpoint(&[&["sweep", "--svg", dir.to_str().unwrap()][..], &long].concat());
    assert!(err(&o).contains("is a directory"), "{}", err(&o));
    // A writable path is left as it was: nothing is created by the check when the run fails.
    let p = dir.join(format!("midpoint-msg-{}.svg", std::process::id()));
    let o = midpoint(&["run", "--svg", p.to_str().unwrap(), "--pool-mb", "x"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(!p.exists());
}

#[test]
fn phase_quotes_an_axis_as_given() {
    let o = midpoint(&["phase", "--x=-1", "--x-values", "1", "--y-values", "1"]);
    assert_eq!(o.status.code(), Some(1));
    let e = err(&o);
    assert!(
        e.contains("--x: axis '-1' is not a numeric parameter"),
        "{e}"
    );
    assert!(!e.contains("_1"), "{e}");
}

#[test]
fn replay_cache_pages_past_the_limit_says_the_limit() {
    let t = common::scratch("msg").join("t.txt");
    std::fs::write(&t, "1\n2\n1\n").unwrap();
    let base = [
        "replay",
        "--format",
        "txt",
        t.to_str().unwrap(),
        "--policy",
        "lru",
    ];
    let e = err(&midpoint(
        &[&base[..], &["--cache-pages", "4294967296"]].concat(),
    ));
    assert!(
        e.contains("--cache-pages = 4294967296 is out of range: allowed from 1 to 4,294,967,295"),
        "{e}"
    );
    let e = err(&midpoint(&[&base[..], &["--cache-pages", "x1"]].concat()));
    assert!(e.contains("is not a whole number"), "{e}");
    let o = midpoint(&[&base[..], &["--cache-pages", "4294967295", "--json"]].concat());
    assert!(o.status.success(), "{}", err(&o));
}

#[test]
fn seeds_have_one_range_which_the_cli_names() {
    let o = midpoint(&[&["run", "--seed", "9007199254740992"][..], &SHORT].concat());
    assert_eq!(o.status.code(), Some(1));
    let e = err(&o);
    assert!(
        e.contains(
            "seed = '9007199254740992' is out of range; allowed: from 0 to 9,007,199,254,740,991"
        ),
        "{e}"
    );
    let o = midpoint(&[&["run", "--seed", "9007199254740991", "--json"][..], &SHORT].concat());
    assert!(o.status.success(), "{}", err(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["parameters"]["seed"].as_u64(), Some((1 << 53) - 1));
}

#[test]
fn a_hot_set_that_cannot_fit_its_pool_is_warned_about_on_stderr() {
    let args = [
        &[
            "run",
            "--preset",
            "seed000-hot4485-b2b",
            "--pool-mb",
            "8",
            "--json",
        ][..],
        &SHORT,
    ]
    .concat();
    let o = midpoint(&args);
    assert!(o.status.success(), "{}", err(&o));
    let e = err(&o);
    assert!(
        e.starts_with(
            "warning: the hot set (4,485 pages) cannot fit the pool (8 MiB = 511 frames)"
        ),
        "{e}"
    );
    // stdout stays one JSON document.
    serde_json::from_slice::<serde_json::Value>(&o.stdout).expect("JSON");
    // A preset as it is: no warning.
    let o = midpoint(
        &[
            &["run", "--preset", "seed000-hot4485-b2b", "--json"][..],
            &SHORT,
        ]
        .concat(),
    );
    assert_eq!(err(&o), "");
}

#[test]
fn presets_json_lists_every_preset_with_its_kind() {
    let o = midpoint(&["presets", "--json"]);
    assert!(o.status.success(), "{}", err(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let rows = v.as_array().expect("an array");
    let text = out(&midpoint(&["presets"]));
    assert_eq!(rows.len(), text.lines().count());
    for (r, line) in rows.iter().zip(text.lines()) {
        let name = r["name"].as_str().unwrap();
        assert!(line.starts_with(name), "{line} / {name}");
        assert!(!r["description"].as_str().unwrap().is_empty());
        let kind = r["kind"].as_str().unwrap();
        let want = if name.starts_with("seed001-")
            || name.starts_with("seed003-rw-")
            || name.starts_with("writeheavy-")
        {
            "write-path"
        } else {
            "read-only"
        };
        assert_eq!(kind, want, "{name}");
    }
    assert!(rows.iter().any(|r| r["name"] == "mariadb-seed000-cold"));
}

#[test]
fn progress_off_a_terminal_is_a_line_per_tenth_without_carriage_returns() {
    // stderr is a pipe here.
    let o = midpoint(
        &[
            &[
                "sweep",
                "--depths",
                "100,200,300,400,500,600,700,800,900,1000,1100,1200",
            ][..],
            &["--times", "0", "--pool-mb", "16", "--hot-pages", "100"],
            &["--hot-table-pages", "100", "--scan-table-mb", "20"],
            &SHORT,
        ]
        .concat(),
    );
    assert!(o.status.success(), "{}", err(&o));
    let e = err(&o);
    assert!(!e.contains('\r'), "{e:?}");
    let lines: Vec<&str> = e.lines().filter(|l| l.ends_with(" points")).collect();
    assert!(!lines.is_empty() && lines.len() <= 11, "{e:?}");
    assert_eq!(lines.last(), Some(&"12/12 points"), "{e:?}");
    // --json: no progress at all.
    let o = midpoint(
        &[
            &["sweep", "--depths", "100,200", "--times", "0", "--json"][..],
            &SHORT,
        ]
        .concat(),
    );
    assert!(o.status.success(), "{}", err(&o));
    assert_eq!(err(&o), "");
}

#[test]
fn run_and_sweep_help_list_every_parameter_flag() {
    use midpoint_core::scenario::write::WriteParams;
    use midpoint_core::scenario::Params;
    let flag = |name: &str| format!("--{} <VALUE>", name.replace('_', "-"));
    let run = out(&midpoint(&["run", "--help"]));
    let sweep = out(&midpoint(&["sweep", "--help"]));
    for s in Params::SPECS {
        assert!(run.contains(&flag(s.name)), "run --help lacks {}", s.name);
        assert!(
            sweep.contains(&flag(s.name)),
            "sweep --help lacks {}",
            s.name
        );
    }
    for s in WriteParams::SPECS {
        assert!(run.contains(&flag(s.name)), "run --help lacks {}", s.name);
    }
    // Whole, never cut like an error message, and grouped under headings.
    assert!(
        !run.contains("characters)") && !run.contains("the message cut"),
        "{run}"
    );
    for h in [
        "InnoDB variables",
        "Workload and run parameters",
        "Write-path parameters",
    ] {
        assert!(run.contains(h), "{h}");
    }
}

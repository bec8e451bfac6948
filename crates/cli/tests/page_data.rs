//! The page's committed sweep (`www/data/sweep.json`, written by `scripts/page-data.sh`): the
//! sweep figure opens drawn from it, so it must be what the simulator computes now. This runs
//! the command the file names and compares the whole result, every point, with the file.

use std::process::Command;

#[test]
fn the_committed_sweep_is_what_the_command_it_names_computes_now() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../www/data/sweep.json");
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let command = file["command"].as_str().unwrap();
    let args: Vec<&str> = command
        .strip_prefix("midpoint ")
        .expect("a midpoint command")
        .split_whitespace()
        .collect();
    assert_eq!(args[0], "sweep", "{command}");
    assert!(args.contains(&"--json"), "{command}");
    // The runs per point the page matches the file by are the command's.
    let runs = args
        .iter()
        .position(|a| *a == "--runs")
        .map(|i| args[i + 1].parse::<u64>().unwrap())
        .unwrap_or(1);
    assert_eq!(file["runs"].as_u64(), Some(runs));
    let out = Command::new(env!("CARGO_BIN_EXE_midpoint"))
        .args(&args)
        .output()
        .expect("run midpoint");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let now: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut committed = file.clone();
    for k in ["command", "commit", "runs"] {
        committed.as_object_mut().unwrap().remove(k);
    }
    let points = now["points"].as_array().unwrap().len();
    assert_eq!(points, 40, "the page's 8 depths × 5 times");
    assert_eq!(
        now, committed,
        "www/data/sweep.json is stale: run scripts/page-data.sh"
    );
}

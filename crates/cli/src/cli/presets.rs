//! `midpoint presets`: every preset's name and description (`--json`: with its kind).

use super::*;
use clap::{ArgMatches, Command};
use midpoint_core::scenario::presets;
use midpoint_core::scenario::write as write_scenario;

pub fn command() -> Command {
    Command::new("presets")
        .about("List the presets")
        .arg(json_arg().help(
            "print a JSON array: one {\"name\", \"kind\", \"description\"} per preset, kind \"read-only\" (run, sweep, the page) or \"write-path\" (run only)",
        ))
}

/// Every preset as (name, kind, description), read-only ones first.
pub fn list() -> Vec<(String, &'static str, String)> {
    let mut v: Vec<(String, &'static str, String)> = presets()
        .into_iter()
        .map(|p| (p.name, "read-only", p.description))
        .collect();
    v.extend(
        write_scenario::presets()
            .into_iter()
            .map(|p| (p.name, "write-path", p.description)),
    );
    v
}

pub fn run(a: &ArgMatches) -> Result<(), String> {
    let all = list();
    if a.get_flag("json") {
        let v: Vec<serde_json::Value> = all
            .iter()
            .map(|(name, kind, description)| {
                serde_json::json!({ "name": name, "kind": kind, "description": description })
            })
            .collect();
        return print_json(&v);
    }
    for (name, _, description) in all {
        println!("{name:32} {description}");
    }
    Ok(())
}

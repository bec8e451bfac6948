//! `midpoint presets`: every preset's name and description.

use clap::{ArgMatches, Command};
use midpoint_core::scenario::presets;
use midpoint_core::scenario::write as write_scenario;

pub fn command() -> Command {
    Command::new("presets").about("List the presets")
}

pub fn run(_: &ArgMatches) -> Result<(), String> {
    for p in presets() {
        println!("{:32} {}", p.name, p.description);
    }
    for p in write_scenario::presets() {
        println!("{:32} {}", p.name, p.description);
    }
    Ok(())
}

//! `midpoint`: the simulator on the command line. Every figure on the page can be reproduced here.
//!
//! [`cli`] holds one module per subcommand and the flags they share; [`experiment`] runs the
//! seed experiment against a live MySQL/MariaDB server. The command line stands on
//! `midpoint-core` (the simulator), `midpoint-lab` (runs, studies, charts, policies, traces) and
//! `midpoint-status` (what a DBA pastes), never on the explainer.

mod cli;
mod experiment;
mod output;
mod progress;

use std::process::ExitCode;

fn main() -> ExitCode {
    output::install();
    output::finish(run_cli())
}

/// Clap suggests a subcommand only above its own similarity threshold, which short typos (`rn`,
/// `rnu`) miss: for those, the nearest subcommand by edit distance.
fn suggest_subcommand(e: &mut clap::Error) {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if e.kind() != ErrorKind::InvalidSubcommand || e.get(ContextKind::SuggestedSubcommand).is_some()
    {
        return;
    }
    let Some(ContextValue::String(typed)) = e.get(ContextKind::InvalidSubcommand) else {
        return;
    };
    let cmd = cli::cli();
    let names: Vec<&str> = cmd.get_subcommands().map(|s| s.get_name()).collect();
    if let Some(c) = midpoint_core::scenario::suggest::closest(typed, names) {
        e.insert(
            ContextKind::SuggestedSubcommand,
            ContextValue::Strings(vec![c.to_string()]),
        );
    }
}

fn run_cli() -> ExitCode {
    let m = match cli::cli().try_get_matches() {
        Ok(m) => m,
        Err(mut e) => {
            suggest_subcommand(&mut e);
            if let Err(w) = output::clap_error(&e) {
                return output::write_failed(&w);
            }
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    match cli::dispatch(&m) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            output::print_error(&e);
            ExitCode::from(1)
        }
    }
}

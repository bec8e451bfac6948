//! `midpoint`: the simulator on the command line. Every figure on the page can be reproduced here.
// The CLI is native only. `cargo test --target wasm32-unknown-unknown` also builds the binary,
// so on wasm32 it is an empty crate.
#![cfg_attr(target_arch = "wasm32", no_main)]
#![cfg(not(target_arch = "wasm32"))]

mod cli;

use cli::output;
use std::process::ExitCode;

fn main() -> ExitCode {
    output::install();
    output::finish(run_cli())
}

fn run_cli() -> ExitCode {
    let m = match cli::cli().try_get_matches() {
        Ok(m) => m,
        Err(e) => {
            if let Err(w) = e.print() {
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
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}

//! The `replay --format`, `export` and `policies` subcommands.

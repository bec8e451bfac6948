//! Arbitrary `name=value` lines as scenario parameters: set, validated, estimated and, when
//! small, simulated. The checks live in crates/lab/tests/harness/fuzz.rs, shared with crates/lab/tests/fuzz_props.rs.
#![no_main]

#[path = "../../crates/lab/tests/harness/fuzz.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = harness::params_text(&String::from_utf8_lossy(data));
});

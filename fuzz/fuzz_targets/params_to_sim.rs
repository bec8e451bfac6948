//! Arbitrary `name=value` lines as scenario parameters: set, validated, estimated and, when
//! small, simulated. The checks live in crates/policies/tests/harness/fuzz.rs, shared with crates/policies/tests/fuzz_props.rs.
#![no_main]

#[path = "../../crates/policies/tests/harness/fuzz.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = harness::params_text(&String::from_utf8_lossy(data));
});

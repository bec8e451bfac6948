//! Arbitrary bytes as an oracleGeneral trace replayed through every policy (the first two bytes pick the cache size). The checks live in crates/policies/tests/harness/fuzz.rs, shared with the stable property test
//! crates/policies/tests/fuzz_props.rs.
#![no_main]

#[path = "../../crates/policies/tests/harness/fuzz.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    harness::policy_replay(data);
});

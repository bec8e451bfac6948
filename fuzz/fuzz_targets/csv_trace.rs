//! Arbitrary bytes as a CSV trace (the first byte picks the column and the header). The checks live in crates/policies/tests/harness/fuzz.rs, shared with the stable property test
//! crates/policies/tests/fuzz_props.rs.
#![no_main]

#[path = "../../crates/policies/tests/harness/fuzz.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    harness::csv_bytes(data);
});

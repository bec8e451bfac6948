//! Arbitrary bytes as a trace: parsed with limits, small traces replayed. The checks live in
//! crates/policies/tests/harness/fuzz.rs, shared with the stable property test crates/policies/tests/fuzz_props.rs.
#![no_main]

#[path = "../../crates/policies/tests/harness/fuzz.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    harness::trace_bytes(data);
});

//! Arbitrary bytes as a libCacheSim oracleGeneral trace. The checks live in crates/lab/tests/harness/fuzz.rs, shared with the stable property test
//! crates/lab/tests/fuzz_props.rs.
#![no_main]

#[path = "../../crates/lab/tests/harness/fuzz.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    harness::oracle_bytes(data);
});

//! The fuzz targets' checks (`tests/harness/fuzz.rs`) under proptest, so that they run on the
//! stable toolchain in every `cargo test`: hostile traces and hostile parameter values.

#[path = "harness/fuzz.rs"]
mod harness;

use midpoint_core::scenario::Params;
use proptest::prelude::*;

const VALID_TRACE: &str =
    "pool pages=600 old_blocks_pct=37 old_blocks_time_ms=1000 lru_scan_depth=100\n\
    1 get 1 1\n2 scan 2 7\n3 create 1 9\n4 lru_batch\n5.5 get 4294967295 4294967295\n";

/// A scenario small enough for the harness to simulate (a few milliseconds).
const SMALL: &str = "pool_mb=16\nscan_table_mb=16\nhot_pages=200\nhot_table_pages=400\nwarmup_s=2\nscan_s=3\nkept_window_s=2\n";

fn param_names() -> Vec<String> {
    Params::default()
        .to_pairs()
        .into_iter()
        .map(|(k, _)| k)
        .collect()
}

fn hostile_value() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<i64>().prop_map(|v| v.to_string()),
        any::<u64>().prop_map(|v| v.to_string()),
        (0u32..5000).prop_map(|v| v.to_string()),
        any::<f64>().prop_map(|v| v.to_string()),
        prop::sample::select(vec![
            "NaN",
            "inf",
            "-inf",
            "-1",
            "0",
            "1e308",
            "4294967295",
            "18446744073709551615",
            "",
            " ",
            "abc",
            "5sssss",
            "0x10",
            "1_000",
            "after-activity:5",
            "every-second",
            "never",
            "warm",
            "cold",
            "scan",
            "normal",
            "mariadb-10.11",
            "mysql-8.4",
        ])
        .prop_map(String::from),
        "[ -~]{0,12}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic_the_trace_parser(data in prop::collection::vec(any::<u8>(), 0..2048)) {
        harness::trace_bytes(&data);
    }

    #[test]
    fn mutated_traces_never_panic_the_parser_or_the_replay(
        flips in prop::collection::vec((0usize..VALID_TRACE.len(), any::<u8>()), 0..8),
        prefix in prop::sample::select(vec![&b""[..], b"\xef\xbb\xbf", b"\r\n", b"\0"]),
    ) {
        let mut data = prefix.to_vec();
        let mut body = VALID_TRACE.as_bytes().to_vec();
        for (at, b) in flips {
            body[at] = b;
        }
        data.extend(body);
        harness::trace_bytes(&data);
    }

    #[test]
    fn hostile_parameter_values_never_panic(
        sets in prop::collection::vec((any::<prop::sample::Index>(), hostile_value()), 0..6),
    ) {
        let names = param_names();
        // From a scenario small enough to simulate, so that accepted values run for real.
        let mut text = String::from(SMALL);
        for (i, v) in &sets {
            text.push_str(&format!("{}={v}\n", i.get(&names)));
        }
        let _ = harness::params_text(&text);
    }
}

#[test]
fn the_harness_runs_a_small_simulation_for_real() {
    // A case small enough for the harness to simulate: it must get through sim::run.
    assert_eq!(harness::params_text(SMALL), harness::Outcome::Simulated);
    assert_eq!(
        harness::params_text("pool_mb=abc\n"),
        harness::Outcome::Refused
    );
    assert_eq!(
        harness::params_text("scan_s=3600\n"),
        harness::Outcome::Estimated
    );
    harness::trace_bytes(VALID_TRACE.as_bytes());
}

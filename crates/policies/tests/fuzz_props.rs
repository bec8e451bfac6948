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

/// An oracleGeneral record.
fn rec(ts: u32, id: u64, size: u32, next: i64) -> Vec<u8> {
    [
        &ts.to_le_bytes()[..],
        &id.to_le_bytes(),
        &size.to_le_bytes(),
        &next.to_le_bytes(),
    ]
    .concat()
}

/// Records mostly valid, with gaps up to 2³² s and now and then a field chosen at random.
fn oracle_trace() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(
        (
            0u32..4,
            any::<u32>(),
            0u64..64,
            0u8..8,
            any::<u32>(),
            any::<i64>(),
        ),
        0..120,
    )
    .prop_map(|v| {
        let mut t = 1u32;
        let mut out = Vec::new();
        for (i, &(kind, gap, id, wild, size, next)) in v.iter().enumerate() {
            t = match kind {
                0 | 1 => t,
                2 => t.saturating_add(gap % 4),
                _ => t.saturating_add(gap),
            };
            let size = if wild == 0 { size } else { 1 + size % 16_384 };
            let next = match wild {
                1 => next,
                2 => i as i64 + 1 + (next & 7),
                _ => -1,
            };
            out.extend(rec(t, id, size, next));
        }
        out
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic_the_standard_readers(data in prop::collection::vec(any::<u8>(), 0..2048)) {
        harness::oracle_bytes(&data);
        harness::txt_bytes(&data);
        harness::csv_bytes(&data);
        harness::policy_replay(&data);
    }

    #[test]
    fn oracle_traces_with_any_gaps_replay_through_every_policy(
        pages in any::<u16>(),
        trace in oracle_trace(),
        cut in any::<prop::sample::Index>(),
    ) {
        harness::oracle_bytes(&trace);
        let mut data = pages.to_le_bytes().to_vec();
        data.extend(&trace);
        harness::policy_replay(&data);
        // A deleted byte (the mutation that hung the replay once).
        if !trace.is_empty() {
            let mut t = trace.clone();
            t.remove(cut.index(t.len()));
            harness::oracle_bytes(&t);
            let mut data = pages.to_le_bytes().to_vec();
            data.extend(&t);
            harness::policy_replay(&data);
        }
    }

    #[test]
    fn text_like_traces_never_panic_the_txt_and_csv_readers(
        lines in prop::collection::vec("[0-9,\" +a-z\r\u{feff}-]{0,24}", 0..40),
        sel in any::<u8>(),
    ) {
        let text = lines.join("\n");
        harness::txt_bytes(text.as_bytes());
        let mut data = vec![sel];
        data.extend(text.as_bytes());
        harness::csv_bytes(&data);
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

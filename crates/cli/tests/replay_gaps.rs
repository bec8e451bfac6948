//! Nothing a trace's timestamps say can make a replay run long: the two-record file
//! with a gap of 2³² − 1 s, and random traces with random gaps through every policy, where the
//! InnoDB policy's executed LRU batches are bounded by the number of requests (a count, not a
//! timer) and every other policy's hits do not depend on the timestamps at all.

mod common;

use midpoint_policies::policy::innodb::{Innodb, InnodbConfig};
use midpoint_policies::policy::{by_name, Policy, NAMES};
use midpoint_policies::trace::oracle::{write, OracleReader};
use midpoint_policies::trace::Remap;
use proptest::prelude::*;
use std::process::Command;

fn record(ts: u32, id: u64, size: u32, next: i64) -> Vec<u8> {
    let mut r = Vec::with_capacity(24);
    r.extend_from_slice(&ts.to_le_bytes());
    r.extend_from_slice(&id.to_le_bytes());
    r.extend_from_slice(&size.to_le_bytes());
    r.extend_from_slice(&next.to_le_bytes());
    r
}

#[test]
fn a_gap_of_two_to_the_32_seconds_replays_through_innodb_at_once() {
    let d = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("replay_gaps");
    std::fs::create_dir_all(&d).unwrap();
    let path = d.join("j.bin");
    let mut bytes = record(0, 1, 16384, -1);
    bytes.extend(record(4_294_967_295, 2, 16384, -1));
    std::fs::write(&path, &bytes).unwrap();
    let mut args: Vec<std::ffi::OsString> = [
        "replay",
        "--format",
        "oracle-general",
        "--policy",
        "innodb",
        "--cache-pages",
        "500",
        "--json",
    ]
    .map(Into::into)
    .to_vec();
    args.push(path.clone().into());
    let v = common::midpoint_json(args);
    assert_eq!(v["requests"], 2);
    assert_eq!(v["misses"], 2);
}

/// Replays `reqs` (seconds, id) written as oracleGeneral and read back, through `name`.
fn replay(name: &str, pages: u32, reqs: &[(u32, u64)]) -> (Vec<bool>, u64) {
    let mut bytes = Vec::new();
    write(&mut bytes, reqs).unwrap();
    let mut r = OracleReader::new(&bytes[..]);
    let mut remap = Remap::default();
    let mut got = Vec::new();
    while let Some(q) = r.next_request().unwrap() {
        got.push((remap.dense(q.id).unwrap(), q.t_us, q.next));
    }
    if name == "innodb" {
        let mut p = Innodb::new(pages.max(2), remap.len(), InnodbConfig::default()).unwrap();
        let hits = got.iter().map(|&(id, t, n)| p.access(id, t, n)).collect();
        (hits, p.batches_run())
    } else {
        let mut p = by_name(name, pages).unwrap();
        let hits = got.iter().map(|&(id, t, n)| p.access(id, t, n)).collect();
        (hits, 0)
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn random_gaps_cost_nothing_in_any_policy(
        steps in proptest::collection::vec((0u64..700, 0u8..4, any::<u32>()), 1..300),
        pages in 1u32..600,
    ) {
        // Gaps of 0 s, a few seconds, any u32 (the clock saturates at u32::MAX).
        let mut t = 0u32;
        let mut reqs = Vec::new();
        for &(id, kind, gap) in &steps {
            t = t.saturating_add(match kind { 0 | 1 => 0, 2 => gap % 5, _ => gap });
            reqs.push((t, id));
        }
        let flat: Vec<(u32, u64)> = reqs.iter().map(|&(_, id)| (1, id)).collect();
        for name in NAMES {
            let (hits, batches) = replay(name, pages, &reqs);
            prop_assert_eq!(hits.len(), reqs.len());
            if name == "innodb" {
                // At most a working batch, an idle one and the gap's last one per request.
                prop_assert!(batches <= 3 * reqs.len() as u64, "{} batches for {} requests", batches, reqs.len());
            } else {
                prop_assert_eq!(&hits, &replay(name, pages, &flat).0, "{}", name);
            }
        }
    }
}

fn midpoint(args: &[&str], file: Option<&[u8]>) -> (bool, String) {
    let mut c = Command::new(env!("CARGO_BIN_EXE_midpoint"));
    c.args(args);
    if let Some(bytes) = file {
        let d = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("replay_gaps");
        std::fs::create_dir_all(&d).unwrap();
        let p = d.join(format!("strict-{}.bin", bytes.len() ^ bytes[16] as usize));
        std::fs::write(&p, bytes).unwrap();
        c.arg(p);
    }
    let out = c.output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_readers_and_the_what_if_list_refuse_what_is_not_defined() {
    let replay = [
        "replay",
        "--format",
        "oracle-general",
        "--policy",
        "lru",
        "--cache-pages",
        "4",
    ];
    let (ok, e) = midpoint(&replay, Some(&record(1, 1, 1, -5)));
    assert!(!ok && e.contains("record 0: next access -5"), "{e}");
    let back = [record(9, 1, 1, -1), record(8, 2, 1, -1)].concat();
    let (ok, e) = midpoint(&replay, Some(&back));
    assert!(
        !ok && e.contains("record 1: timestamp 8 s is before"),
        "{e}"
    );
    let allowed = [&replay[..], &["--allow-decreasing-time"]].concat();
    let (ok, e) = midpoint(&allowed, Some(&back));
    assert!(ok, "{e}");
    for bad in [
        "",
        "none,slide-spares-fresh,none",
        "slide-spares-fresh,slide-spares-fresh",
    ] {
        let (ok, e) = midpoint(&["run", "--what-if", bad, "--scan-s", "1"], None);
        assert!(!ok && e.contains("what_if"), "{bad:?}: {e}");
    }
}

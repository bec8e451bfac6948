//! Pins every preset's results, so that a refactor of the simulation can prove it changed none.
//!
//! Each read-only preset (`scenario::presets()`) is run once at full size and its report is
//! serialised to JSON without the parameter echo (`parameters`, whose shape may change); the
//! digest is FNV-1a/64 over that text. Results covered: kept, every rate, counters, batch reports
//! and the whole time series. The write presets are pinned the same way.
//!
//! A change that alters a result on purpose re-pins the digest in a commit that says why. Set
//! `MIDPOINT_PRINT_DIGESTS=1` to print the current table.
//!
//! Cost: the 35 read-only presets at full size take about 95 s of one core in the test profile
//! (opt-level 2); the 11 write presets about 10 s.

use midpoint_core::scenario;

fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The JSON of a report without the named top-level key (the parameter echo).
fn digest_without(v: serde_json::Value, key: &str) -> u64 {
    let mut v = v;
    v.as_object_mut()
        .expect("a report serialises to an object")
        .remove(key)
        .expect("the report echoes its parameters");
    fnv1a64(serde_json::to_string(&v).unwrap().as_bytes())
}

fn check(kind: &str, got: Vec<(String, u64)>, pinned: &[(&str, u64)]) {
    if std::env::var_os("MIDPOINT_PRINT_DIGESTS").is_some() {
        for (n, d) in &got {
            println!("        (\"{n}\", 0x{d:016x}),");
        }
    }
    let names: Vec<&str> = got.iter().map(|(n, _)| n.as_str()).collect();
    let pinned_names: Vec<&str> = pinned.iter().map(|(n, _)| *n).collect();
    assert_eq!(names, pinned_names, "the {kind} presets changed");
    let changed: Vec<String> = got
        .iter()
        .zip(pinned)
        .filter(|((_, d), (_, p))| d != p)
        .map(|((n, d), (_, p))| format!("{n}: 0x{d:016x} (pinned 0x{p:016x})"))
        .collect();
    assert!(changed.is_empty(), "{kind} results changed: {changed:#?}");
}

#[test]
fn read_only_presets_results_are_pinned() {
    let got: Vec<(String, u64)> = scenario::presets()
        .into_iter()
        .map(|p| {
            let r = midpoint_core::sim::run(&p.params).expect("valid preset");
            let d = digest_without(serde_json::to_value(&r).unwrap(), "parameters");
            (p.name, d)
        })
        .collect();
    check("read-only", got, READ_ONLY);
}

#[test]
fn write_presets_results_are_pinned() {
    let got: Vec<(String, u64)> = midpoint_core::scenario::write::presets()
        .into_iter()
        .map(|p| {
            let r = midpoint_core::sim::run_write(&p.params).expect("valid preset");
            let d = digest_without(serde_json::to_value(&r).unwrap(), "parameters");
            (p.name, d)
        })
        .collect();
    check("write", got, WRITE);
}

const READ_ONLY: &[(&str, u64)] = &[
    ("seed000-hot224-b2b", 0x9b6e5bebd9541e99),
    ("seed000-hot224-b2b-t0", 0x90fe0fb25c32b752),
    ("seed000-hot224-pause500", 0xae548ef3be44e098),
    ("seed000-hot224-pause500-t0", 0x0913e6941e45d2b8),
    ("seed000-hot224-pause2000", 0xbcf2764dc43f5d6b),
    ("seed000-hot224-pause2000-t0", 0x11c632d87540f6c1),
    ("seed000-hot897-b2b", 0x353d2d6a0128facc),
    ("seed000-hot897-b2b-t0", 0xe39bc6449f5f4b80),
    ("seed000-hot897-pause500", 0x157e8d96c0a549c4),
    ("seed000-hot897-pause500-t0", 0x4783b227dd851ce6),
    ("seed000-hot897-pause2000", 0xcb653eaf3bdb3fe1),
    ("seed000-hot897-pause2000-t0", 0x5888c76aafb43ab3),
    ("seed000-hot4485-b2b", 0x60adb24621b90906),
    ("seed000-hot4485-b2b-t0", 0x31fa5f1c068381cf),
    ("seed000-hot4485-pause500", 0xd2b00827d62ecdc8),
    ("seed000-hot4485-pause500-t0", 0xd040009bb98afc01),
    ("seed000-hot4485-pause2000", 0x2bf525a0cf62c950),
    ("seed000-hot4485-pause2000-t0", 0xe0fc225ae7991e67),
    ("seed000-hot4485-b2b-depth128", 0xc93d40f51e8d0f27),
    ("seed000-hot4485-b2b-depth512", 0x63e5c3aadce9daa9),
    ("seed000-cold", 0xc0c8d7dbd56a599a),
    ("seed000-cold-10min", 0xa72216f8587aecdb),
    ("seed000-warm-10min", 0x82e32acdd548e723),
    ("seed000-restart-hot4485-b2b", 0xbea3b7e477f9ae8c),
    ("mariadb-seed000-hot4485-b2b", 0x35794aae1162d201),
    (
        "mariadb-seed000-hot4485-b2b-no-lru-cleaner",
        0xa96636378cb7d98e,
    ),
    ("mariadb-seed000-hot4485-pause2000", 0xac1d6eaa18bf3d24),
    ("mariadb-seed000-cold", 0xa04d26e71c8a849b),
    ("seed003-ro-default", 0xc00402b178d7e053),
    ("seed003-ro-tuned", 0x2fcd89e09a4e6a9c),
    ("seed003-ro-mysql84", 0xfc702c48528be23c),
    ("seed002-dump-time0", 0x185d49871cba605c),
    ("seed002-dump-time1000", 0x8c7ff6bd24644cd0),
    ("seed002-dump-pct60-time0", 0xab9b24df039326bf),
    ("seed002-dump-pct60-time1000", 0x36909139d69faf62),
    ("small-demo", 0x1f2dbd5b382bdfa8),
];

const WRITE: &[(&str, u64)] = &[
    ("seed001-16thd-dblwr128", 0x4de8084055eaa4e3),
    ("seed001-16thd-dblwr16", 0xb83e27cf7377a267),
    ("seed001-64thd-dblwr128", 0xf636746d4afc758d),
    ("seed001-64thd-dblwr16", 0xf7228319db6529ea),
    ("seed001-16thd-dblwr-off", 0xce5743d4320d4055),
    ("seed003-rw-default", 0x66e6a152e16793b5),
    ("seed003-rw-tuned", 0x9ffe5af0e26903e1),
    ("seed003-rw-mysql84", 0xbdd938ed21add4f0),
    ("writeheavy-depth-128", 0xf7f897b54cdd2178),
    ("writeheavy-depth-1024", 0x5ac5cd9b886b2192),
    ("writeheavy-depth-4096", 0x02a62ca8f4270bd2),
];

use super::scenario::{scenario, Inputs};
use super::*;

macro_rules! fixture {
    ($name:literal) => {
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/status/",
            $name
        ))
    };
}

fn n(r: &Reading, k: &str) -> u64 {
    r.count(k)
        .unwrap_or_else(|| panic!("{k} not read: {:?}", r.values.keys().collect::<Vec<_>>()))
}

#[test]
fn mysql_80_manual_totals_and_instances() {
    let r = read(fixture!("mysql-8.0-manual.txt")).unwrap();
    assert_eq!(n(&r, "pool_pages"), 131072);
    assert_eq!(n(&r, "free_buffers"), 130095);
    assert_eq!(n(&r, "database_pages"), 973);
    assert_eq!(n(&r, "old_database_pages"), 0);
    assert_eq!(n(&r, "pages_read"), 810);
    assert_eq!(n(&r, "pages_created"), 163);
    assert_eq!(n(&r, "pages_written"), 404);
    assert_eq!(n(&r, "hit_rate_per_1000"), 1000);
    assert_eq!(n(&r, "young_making_rate_per_1000"), 0);
    assert_eq!(n(&r, "lru_len"), 973);
    assert_eq!(n(&r, "instances"), 2);
    assert_eq!(n(&r, "total_memory_allocated"), 2198863872);
    assert_eq!(r.num("reads_per_s"), Some(0.0));
    assert_eq!(r.num("evicted_without_access_per_s"), Some(0.0));
    assert_eq!(r.instance_pool_pages, vec![65536, 65536]);
    // The totals' line, not an instance's.
    let text = fixture!("mysql-8.0-manual.txt");
    let line = r.line("pool_pages").unwrap();
    assert_eq!(
        text.lines().nth(line - 1).unwrap(),
        "Buffer pool size   131072"
    );
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    assert_eq!(r.snapshots, 1);
}

#[test]
fn mysql_57_sections_only() {
    let r = read(fixture!("mysql-5.7-bpm.txt")).unwrap();
    assert_eq!(n(&r, "pool_pages"), 2097024);
    assert_eq!(n(&r, "old_database_pages"), 769025);
    assert_eq!(n(&r, "pages_made_young"), 698403);
    assert_eq!(n(&r, "pages_not_made_young"), 367390);
    assert_eq!(r.num("youngs_per_s"), Some(0.07));
    assert_eq!(r.num("non_youngs_per_s"), Some(0.40));
    assert_eq!(r.num("writes_per_s"), Some(31.66));
    assert_eq!(n(&r, "modified_db_pages"), 14765);
    assert!(!r.values.contains_key("instances"));
    // The LOG section's "Pages flushed up to" is not a pool value.
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
}

#[test]
fn mysql_50_bordered_no_old_young_lines() {
    let r = read(fixture!("mysql-5.0-bordered.txt")).unwrap();
    assert_eq!(n(&r, "pool_pages"), 32768);
    assert_eq!(n(&r, "free_buffers"), 0);
    assert_eq!(n(&r, "database_pages"), 31102);
    assert_eq!(n(&r, "hit_rate_per_1000"), 947);
    assert_eq!(r.num("reads_per_s"), Some(12870.32));
    assert_eq!(n(&r, "total_memory_allocated"), 647890728);
    assert!(!r.values.contains_key("old_database_pages"));
    assert!(!r.values.contains_key("young_making_rate_per_1000"));
}

#[test]
fn instance_blocks_only_are_summed() {
    let r = read(fixture!("mysql-5.5-instances.txt")).unwrap();
    assert_eq!(n(&r, "instances"), 2);
    assert_eq!(n(&r, "pool_pages"), 131072 + 131071);
    assert_eq!(n(&r, "pages_made_young"), 6);
    assert_eq!(r.sources["pool_pages"], Source::InstanceSums);
    // "No buffer pool page gets since the last printout": no hit rate, and none assumed.
    assert!(!r.values.contains_key("hit_rate_per_1000"));
    let p = read(fixture!("percona-5.5-instances.txt")).unwrap();
    assert_eq!(n(&p, "pool_pages"), 2 * 21267);
    assert_eq!(n(&p, "pool_bytes"), 2 * 348438528);
}

#[test]
fn mariadb_formats_agree() {
    let g = read(fixture!("mariadb-10.11-status-G.txt")).unwrap();
    let t = read(fixture!("mariadb-10.11-status-table.txt")).unwrap();
    let b = read(fixture!("mariadb-10.11-status-B.txt")).unwrap();
    for r in [&g, &t, &b] {
        assert_eq!(n(r, "pool_pages"), 1014);
        assert_eq!(n(r, "pages_created"), 2193);
        assert!(r.mariadb_hint.is_some());
        for k in [
            "free_buffers",
            "database_pages",
            "old_database_pages",
            "modified_db_pages",
            "pages_made_young",
            "pages_not_made_young",
            "youngs_per_s",
            "non_youngs_per_s",
            "pages_read",
            "pages_written",
            "reads_per_s",
            "creates_per_s",
            "writes_per_s",
            "hit_rate_per_1000",
            "young_making_rate_per_1000",
            "lru_len",
            "read_ahead_per_s",
            "evicted_without_access_per_s",
        ] {
            assert!(r.values.contains_key(k), "{k} missing");
        }
    }
    assert_eq!(n(&g, "free_buffers"), 963);
    assert_eq!(g.num("reads_per_s"), Some(3110.44));
    assert_eq!(n(&b, "free_buffers"), 858);
    // In -B output the whole status is one physical line.
    assert_eq!(b.line("pool_pages"), Some(2));
}

#[test]
fn pool_stats_every_format() {
    for text in [
        fixture!("mariadb-10.11-pool-stats-G.txt"),
        fixture!("mariadb-10.11-pool-stats-B.txt"),
        fixture!("mariadb-10.11-pool-stats-table.txt"),
    ] {
        let r = read(text).unwrap();
        assert_eq!(n(&r, "pool_pages"), 1014);
        assert_eq!(n(&r, "free_buffers"), 884);
        assert_eq!(n(&r, "database_pages"), 130);
        assert_eq!(n(&r, "modified_db_pages"), 6);
        assert_eq!(n(&r, "pages_read"), 6516);
        assert_eq!(n(&r, "pages_created"), 2193);
        assert_eq!(n(&r, "pages_written"), 2351);
        assert_eq!(r.sources["pool_pages"], Source::PoolStats);
        assert_eq!(r.pool_stats_rows, 1);
    }
    let m = read(fixture!("mysql-8.0-pool-stats-G.txt")).unwrap();
    assert_eq!(n(&m, "pool_pages"), 8192);
    assert_eq!(n(&m, "pages_not_made_young"), 3544303);
}

#[test]
fn pool_stats_columns_in_lower_case() {
    // `SELECT pool_id, pool_size, ... FROM INNODB_BUFFER_POOL_STATS\G` prints the names as given.
    let g = read("*************************** 1. row ***************************\n             pool_id: 0\n           pool_size: 8191\n    pages_made_young: 12\n").unwrap();
    assert_eq!(n(&g, "pool_pages"), 8191);
    assert_eq!(n(&g, "pages_made_young"), 12);
    let t = read("+---------+-----------+\n| pool_id | pool_size |\n+---------+-----------+\n|       0 |      8191 |\n+---------+-----------+\n").unwrap();
    assert_eq!(n(&t, "pool_pages"), 8191);
}

#[test]
fn two_pool_rows_are_summed() {
    let text = "POOL_ID\tPOOL_SIZE\tFREE_BUFFERS\tDATABASE_PAGES\n0\t100\t10\t80\n1\t100\t20\t70\n";
    let r = read(text).unwrap();
    assert_eq!(n(&r, "pool_pages"), 200);
    assert_eq!(n(&r, "free_buffers"), 30);
    assert_eq!(n(&r, "instances"), 2);
}

#[test]
fn variables_every_format() {
    for text in [
        fixture!("mariadb-10.11-vars-G.txt"),
        fixture!("mariadb-10.11-vars-B.txt"),
        fixture!("mariadb-10.11-vars-table.txt"),
    ] {
        let r = read(text).unwrap();
        assert_eq!(n(&r, "innodb_buffer_pool_size"), 16 << 20);
        assert_eq!(n(&r, "innodb_lru_scan_depth"), 1536);
        assert_eq!(n(&r, "innodb_old_blocks_pct"), 37);
        assert_eq!(n(&r, "innodb_old_blocks_time"), 1000);
        assert_eq!(
            r.values["innodb_adaptive_flushing"].value,
            Num::Text("ON".into())
        );
        assert!(
            r.mariadb_hint.is_some(),
            "innodb_lru_flush_size is MariaDB's"
        );
        let s = scenario(&r, &Inputs::default()).unwrap();
        assert_eq!(s.params.pool_mb, 16);
        assert_eq!(s.params.lru_scan_depth, 1536);
    }
    let gs = read(fixture!("mariadb-10.11-global-status-table.txt")).unwrap();
    assert_eq!(n(&gs, "Innodb_buffer_pool_pages_total"), 1014);
}

#[test]
fn a_mix_in_one_paste() {
    let text = [
        fixture!("mariadb-10.11-status-G.txt"),
        "MariaDB [(none)]> SHOW VARIABLES LIKE 'innodb%';",
        fixture!("mariadb-10.11-vars-table.txt"),
        fixture!("mariadb-10.11-pool-stats-G.txt"),
    ]
    .join("\n");
    let r = read(&text).unwrap();
    // The status wins where both give a value; the pool's size agrees.
    assert_eq!(n(&r, "free_buffers"), 963);
    assert_eq!(r.sources["free_buffers"], Source::Status);
    assert_eq!(n(&r, "innodb_lru_scan_depth"), 1536);
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    let s = scenario(
        &r,
        &Inputs {
            hot_pages: Some(300),
            ..Inputs::default()
        },
    )
    .unwrap();
    assert_eq!(s.params.engine, midpoint_core::engine::Engine::Mariadb1011);
    assert_eq!(s.params.hot_pages, 300);
    assert!(!s.assumed.iter().any(|a| a.name == "innodb_lru_scan_depth"));
    assert!(!s.assumed.iter().any(|a| a.name == "hot_pages"));
}

#[test]
fn two_snapshots_give_rates_from_their_difference() {
    let a = "=====================================\n2026-12-01 10:00:00 0x7f INNODB MONITOR OUTPUT\n=====================================\n----------------------\nBUFFER POOL AND MEMORY\n----------------------\nBuffer pool size   1000\nPages made young 100, not young 50\n0.00 youngs/s, 0.00 non-youngs/s\nPages read 1000, created 10, written 20\n5.00 reads/s, 0.00 creates/s, 0.00 writes/s\n";
    let b = a
        .replace("10:00:00", "10:00:30")
        .replace("young 100, not young 50", "young 400, not young 950")
        .replace("read 1000,", "read 31000,");
    let r = read(&format!("{a}{b}")).unwrap();
    assert_eq!(r.snapshots, 2);
    let i = r.interval.as_ref().unwrap();
    assert_eq!(i.seconds, 30.0);
    assert_eq!(i.rates["reads_per_s"], 1000.0);
    assert_eq!(i.rates["youngs_per_s"], 10.0);
    assert_eq!(i.rates["non_youngs_per_s"], 30.0);
    // `read` holds the last snapshot.
    assert_eq!(n(&r, "pages_read"), 31000);
    let s = scenario(&r, &Inputs::default()).unwrap();
    assert_eq!(s.params.idle_scan_pages_per_s, 1000.0);
    // Two files, the same.
    let r2 = read_inputs(&[a, &b]).unwrap();
    assert_eq!(r2.interval.unwrap().rates["reads_per_s"], 1000.0);
}

#[test]
fn contradictions_are_flagged_with_both_lines() {
    let text = "Buffer pool size   1000\nFree buffers       2000\nDatabase pages     500\nOld database pages 600\n";
    let r = read(text).unwrap();
    assert_eq!(n(&r, "free_buffers"), 2000, "still reported as read");
    assert!(
        r.warnings
            .iter()
            .any(|w| w.contains("free buffers") && w.contains("line 2") && w.contains("line 1")),
        "{:?}",
        r.warnings
    );
    assert!(r
        .warnings
        .iter()
        .any(|w| w.contains("old pages") && w.contains("line 4") && w.contains("line 3")));
    assert!(r.flagged.iter().any(|f| f == "free_buffers"));
}

#[test]
fn bad_input_is_refused_clearly() {
    let e = read("").unwrap_err();
    assert!(e.message.contains("no buffer pool section found"), "{e}");
    let e = read("lorem ipsum dolor sit amet\nconsectetur 12 adipiscing\n").unwrap_err();
    assert!(e.message.contains("no buffer pool section found"));
    let e = read("Buffer pool size   99999999999999999999999\n").unwrap_err();
    assert_eq!(e.line, Some(1));
    assert!(e.message.contains("64-bit"), "{e}");
    let e = read("Buffer pool size 100\nFree buffers -5\n").unwrap_err();
    assert_eq!(e.line, Some(2));
    assert!(e.message.contains("negative"), "{e}");
    let e = read("Buffer pool size 100\n-3.00 youngs/s, 0.00 non-youngs/s\n").unwrap_err();
    assert!(e.message.contains("negative"), "{e}");
    let e = read("innodb_buffer_pool_size\t-1\n").unwrap_err();
    assert!(e.message.contains("negative"), "{e}");
    // A truncated section.
    let e = read("----------------------\nBUFFER POOL AND MEMORY\n----------------------\nTotal large memory allocated 50331648\nDictionary memory").unwrap_err();
    assert_eq!(e.line, Some(2));
    assert!(e.message.contains("truncated"), "{e}");
    // Too large.
    let big = "x".repeat(MAX_BYTES + 1);
    assert!(read(&big).unwrap_err().message.contains("MB"));
}

#[test]
fn a_five_megabyte_paste_is_read_and_ends() {
    // A status padded with five MB of transactions: it is read (not refused), in linear time.
    let mut s = String::from("------------\nTRANSACTIONS\n------------\n");
    while s.len() < 5_000_000 {
        s.push_str("---TRANSACTION 421585767442272, not started\n0 lock struct(s), heap size 1136, 0 row lock(s)\n");
    }
    s.push_str(fixture!("mysql-5.7-bpm.txt"));
    let r = read(&s).unwrap();
    assert_eq!(n(&r, "pool_pages"), 2097024);
    // One line of five MB.
    let one = "Buffer pool size 1 ".repeat(250_000);
    assert!(read(&one).is_err());
}

#[test]
fn sixty_four_instances() {
    let mut s = String::from("----------------------\nBUFFER POOL AND MEMORY\n----------------------\nBuffer pool size   4194304\nFree buffers       1024\nDatabase pages     4000000\nOld database pages 1476000\nLRU len: 4000000, unzip_LRU len: 0\n----------------------\nINDIVIDUAL BUFFER POOL INFO\n----------------------\n");
    for i in 0..64 {
        s.push_str(&format!("---BUFFER POOL {i}\nBuffer pool size   65536\nFree buffers       16\nDatabase pages     62500\nOld database pages 23062\nLRU len: 62500, unzip_LRU len: 0\n"));
    }
    let r = read(&s).unwrap();
    assert_eq!(n(&r, "instances"), 64);
    assert_eq!(n(&r, "pool_pages"), 4194304);
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    let sc = scenario(&r, &Inputs::default()).unwrap();
    assert_eq!(sc.params.buffer_pool_instances, 64);
    assert_eq!(sc.params.pool_mb, 65536);
}

#[test]
fn prompts_and_unknown_lines_are_left_alone() {
    let text = "mysql> SHOW ENGINE INNODB STATUS\\G\nBuffer pool size   8191\nFree buffers  lots\n";
    let r = read(text).unwrap();
    assert_eq!(n(&r, "pool_pages"), 8191);
    assert!(!r.values.contains_key("free_buffers"));
    assert!(
        r.notes.iter().any(|x| x.contains("line 3")),
        "{:?}",
        r.notes
    );
}

#[test]
fn the_scenario_says_what_it_assumed() {
    let r = read(fixture!("mysql-8.0-manual.txt")).unwrap();
    let s = scenario(&r, &Inputs::default()).unwrap();
    assert_eq!(s.params.pool_mb, 2048);
    assert_eq!(s.params.buffer_pool_instances, 2);
    for name in [
        "innodb_old_blocks_pct",
        "innodb_lru_scan_depth",
        "hot_pages",
        "version",
        "reads_per_s",
    ] {
        assert!(
            s.assumed.iter().any(|a| a.name == name),
            "{name} not assumed: {:?}",
            s.assumed
        );
    }
    assert_eq!(s.params.engine, midpoint_core::engine::Engine::Mysql84);
}

#[test]
fn never_panics_on_mangled_fixtures() {
    // Every prefix and a few byte-level manglings of a real status: an answer, never a panic.
    let text = fixture!("mariadb-10.11-status-G.txt");
    for end in (0..text.len()).step_by(37) {
        if text.is_char_boundary(end) {
            let _ = read(&text[..end]);
        }
    }
    let mangled = text.replace("1014", "-1014").replace(' ', "\t");
    let _ = read(&mangled);
    let _ = read(&text.replace('\n', "\\n"));
    let _ = read("|||\n| | |\n+--+\n\\n\\n\\n\n***\nPOOL_ID:\nVariable_name:\nValue:\n");
}

/// A MariaDB status's buffer pool section with its reads/s and youngs/s lines replaced.
fn with_rate_lines(youngs: &str, reads: &str) -> String {
    fixture!("mariadb-10.11-status-G.txt")
        .replace("0.00 youngs/s, 0.00 non-youngs/s", youngs)
        .replace(
            "3110.44 reads/s, 1095.95 creates/s, 1171.91 writes/s",
            reads,
        )
}

/// The line number of `text` in `paste`.
fn line_of(paste: &str, text: &str) -> usize {
    paste.lines().position(|l| l.contains(text)).unwrap() + 1
}

fn assert_unreadable(paste: &str, bad: &str, name: &str) {
    let r = read(paste).unwrap();
    let no = line_of(paste, bad);
    let w = r
        .warnings
        .iter()
        .find(|w| w.starts_with(&format!("line {no}: ")))
        .unwrap_or_else(|| panic!("no warning names line {no} ('{bad}'): {:?}", r.warnings));
    assert!(w.contains(name) && w.contains("cannot read"), "{w}");
    assert!(r.num(name).is_none(), "{name} was read from '{bad}'");
    assert_eq!(r.unreadable.get(name), Some(&no));
    // The scenario does not put the model's rate in its place without saying why.
    let s = scenario(&r, &Inputs::default()).unwrap();
    if name == "reads_per_s" {
        let a = s.assumed.iter().find(|a| a.name == "reads_per_s").unwrap();
        assert!(a.why.contains(&format!("line {no}")), "{a:?}");
    }
}

#[test]
fn an_infinite_read_rate_is_a_warning_naming_its_line() {
    let bad = "inf reads/s, 1095.95 creates/s, 1171.91 writes/s";
    assert_unreadable(
        &with_rate_lines("0.00 youngs/s, 0.00 non-youngs/s", bad),
        bad,
        "reads_per_s",
    );
}

#[test]
fn a_young_rate_in_exponent_form_is_a_warning_naming_its_line() {
    let bad = "1e308 youngs/s, 0.00 non-youngs/s";
    assert_unreadable(
        &with_rate_lines(bad, "3110.44 reads/s, 1095.95 creates/s, 1171.91 writes/s"),
        bad,
        "youngs_per_s",
    );
}

#[test]
fn a_nan_rate_is_a_warning_naming_its_line() {
    let bad = "NaN reads/s, 1095.95 creates/s, 1171.91 writes/s";
    assert_unreadable(
        &with_rate_lines("0.00 youngs/s, 0.00 non-youngs/s", bad),
        bad,
        "reads_per_s",
    );
    let bad = "0.00 youngs/s, nan non-youngs/s";
    assert_unreadable(
        &with_rate_lines(bad, "3110.44 reads/s, 1095.95 creates/s, 1171.91 writes/s"),
        bad,
        "non_youngs_per_s",
    );
}

#[test]
fn a_rate_with_an_exponent_is_a_warning_naming_its_line() {
    let bad = "4.5e2 reads/s, 1095.95 creates/s, 1171.91 writes/s";
    assert_unreadable(
        &with_rate_lines("0.00 youngs/s, 0.00 non-youngs/s", bad),
        bad,
        "reads_per_s",
    );
}

#[test]
fn a_rate_with_a_decimal_comma_is_a_warning_naming_its_line() {
    let bad = "450,00 reads/s, 1095,95 creates/s, 1171,91 writes/s";
    assert_unreadable(
        &with_rate_lines("0.00 youngs/s, 0.00 non-youngs/s", bad),
        bad,
        "reads_per_s",
    );
}

#[test]
fn a_shortened_rate_line_is_a_warning_naming_its_line() {
    let bad = "3110.44 reads/s, 1095.95 creates/s";
    assert_unreadable(
        &with_rate_lines("0.00 youngs/s, 0.00 non-youngs/s", bad),
        bad,
        "reads_per_s",
    );
    let bad = "0.00 youngs/s,";
    assert_unreadable(
        &with_rate_lines(bad, "3110.44 reads/s, 1095.95 creates/s, 1171.91 writes/s"),
        bad,
        "youngs_per_s",
    );
}

#[test]
fn well_formed_rate_lines_give_no_warning() {
    let r = read(fixture!("mariadb-10.11-status-G.txt")).unwrap();
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    assert!(r.unreadable.is_empty());
    assert_eq!(r.num("reads_per_s"), Some(3110.44));
}

#[test]
fn a_second_input_with_nothing_usable_is_a_warning() {
    let r = read_inputs(&[fixture!("mariadb-10.11-status-G.txt"), "hello\nworld\n"]).unwrap();
    assert!(
        r.warnings
            .iter()
            .any(|w| w.starts_with("input 2 holds nothing")),
        "{:?}",
        r.warnings
    );
    let ok = read_inputs(&[
        fixture!("mariadb-10.11-status-G.txt"),
        fixture!("mariadb-10.11-vars-G.txt"),
    ])
    .unwrap();
    assert!(ok.warnings.is_empty(), "{:?}", ok.warnings);
}

//! A paste is read whole or refused: every fixture cut at every byte of its buffer pool section
//! is refused, or read with the cut line left out (a warning naming it), never read with a cut
//! number as a smaller one.

use midpoint_status::{read, Reading};
use std::path::Path;

fn fixtures() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/status");
    let mut v: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect();
    v.sort();
    v
}

/// The bytes of the buffer pool section(s): from the first pool line to the end of the last
/// `LRU len` line (or of the last pool stats row when there is no status).
fn pool_range(text: &str) -> Option<(usize, usize)> {
    let start = [
        "BUFFER POOL AND MEMORY",
        "Buffer pool size",
        "---BUFFER POOL",
        "POOL_SIZE",
    ]
    .iter()
    .filter_map(|m| text.find(m))
    .min()?;
    let end = match text.rfind("LRU len") {
        Some(i) if i > start => text[i..].find(['\n']).map_or(text.len(), |j| i + j + 1),
        _ => text.len().min(start + 4000),
    };
    Some((start, end))
}

/// The prefix of `p` up to its last line end (a newline, or the `\n` escape of `mysql -B`).
fn whole_lines(p: &str) -> &str {
    let nl = p.rfind('\n').map(|i| i + 1);
    let esc = p.rfind("\\n").map(|i| i + 2);
    &p[..nl.max(esc).unwrap_or(0)]
}

fn values(r: &Reading) -> Vec<(String, String)> {
    r.values
        .iter()
        .map(|(k, v)| (k.clone(), format!("{:?}", v.value)))
        .collect()
}

#[test]
fn every_fixture_cut_at_every_byte_of_its_pool_section_reads_no_cut_number() {
    let mut cuts = 0;
    for (name, text) in fixtures() {
        let Some((start, end)) = pool_range(&text) else {
            continue;
        };
        for p in start..=end {
            if !text.is_char_boundary(p) {
                continue;
            }
            let prefix = &text[..p];
            let whole = whole_lines(prefix);
            if whole.len() == prefix.len() {
                continue;
            }
            cuts += 1;
            let Ok(r) = read(prefix) else { continue };
            // Whatever the cut line would give is not used: the reading is the whole lines'.
            let w = read(whole).unwrap_or_else(|e| {
                panic!(
                    "{name} cut at byte {p} ('{}'): read, though its whole lines are refused ({e})",
                    &prefix[whole.len()..]
                )
            });
            assert_eq!(
                values(&r),
                values(&w),
                "{name} cut at byte {p}: the cut line '{}' gave a value",
                &prefix[whole.len()..]
            );
        }
    }
    assert!(cuts > 10_000, "{cuts} cuts tried");
}

#[test]
fn a_pool_size_cut_short_is_refused_naming_its_line() {
    let full = "----------------------\nBUFFER POOL AND MEMORY\n----------------------\nTotal large memory allocated 137428992\nBuffer pool size   8192\nFree buffers       7000\n";
    let cut = &full[..full.find("8192").unwrap() + 1];
    assert!(cut.ends_with("Buffer pool size   8"));
    let e = read(cut).unwrap_err();
    assert!(
        e.message.contains("truncated") && e.message.contains("'Buffer pool size 8'"),
        "{e}"
    );
    // Alone, the cut line is refused with its line.
    let e = read("Buffer pool size   8").unwrap_err();
    assert_eq!(e.line, Some(1), "{e}");
    // A later value cut short is left out with a warning; the pool is read.
    let cut = &full[..full.len() - 3];
    let r = read(cut).unwrap();
    assert_eq!(r.count("pool_pages"), Some(8192));
    assert!(r.count("free_buffers").is_none());
    assert!(
        r.warnings
            .iter()
            .any(|w| w.starts_with("line 6: 'Free buffers 70'")),
        "{:?}",
        r.warnings
    );
}

#[test]
fn a_section_with_no_end_before_its_last_line_is_a_warning() {
    let text = "----------------------\nBUFFER POOL AND MEMORY\n----------------------\nBuffer pool size   8192\nFree buffers       7000\nDatabase pages     1000\n";
    let r = read(text).unwrap();
    assert!(
        r.warnings
            .iter()
            .any(|w| w.contains("no end") && w.contains("after line 6")),
        "{:?}",
        r.warnings
    );
}

#[test]
fn a_bad_header_date_zero_seconds_and_an_unread_memory_line_are_noted() {
    let text = "=====================================\n2026-13-45 25:61:00 0x7f82280536c0 INNODB MONITOR OUTPUT\n=====================================\nPer second averages calculated from the last 0 seconds\n----------------------\nBUFFER POOL AND MEMORY\n----------------------\nTotal large memory allocated 96 MiB\nBuffer pool size   8192\nFree buffers       7000\nDatabase pages     1000\nLRU len: 1000, unzip_LRU len: 0\n--------------\nROW OPERATIONS\n--------------\n";
    let r = read(text).unwrap();
    for (line, what) in [
        (2, "time"),
        (4, "no time"),
        (8, "not a line this reader knows"),
    ] {
        assert!(
            r.notes
                .iter()
                .any(|n| n.starts_with(&format!("line {line}:")) && n.contains(what)),
            "line {line}: {:?}",
            r.notes
        );
    }
}

#[test]
fn a_contradiction_or_a_pool_past_64_gib_starts_no_run() {
    use midpoint_status::scenario::{scenario, Inputs};
    let paste = |pool: &str, free: &str| {
        format!(
            "----------------------\nBUFFER POOL AND MEMORY\n----------------------\nBuffer pool size   {pool}\nFree buffers       {free}\nDatabase pages     100\nOld database pages 30\nLRU len: 100, unzip_LRU len: 0\n--------------\nROW OPERATIONS\n--------------\n"
        )
    };
    // As read, the pool is 8 pages but 7,000 are free: refused, not run at 8 pages.
    let r = read(&paste("8", "7000")).unwrap();
    let e = scenario(&r, &Inputs::default()).unwrap_err();
    assert!(
        e.contains("free_buffers = 7000") && e.contains("no run"),
        "{e}"
    );
    for pool in ["18446744073709551615", "1000000000000", "4194305"] {
        let r = read(&paste(pool, "0")).unwrap();
        let e = scenario(&r, &Inputs::default()).unwrap_err();
        assert!(e.contains("64 GiB") && e.contains("no run"), "{pool}: {e}");
    }
    // 64 GiB itself runs.
    let r = read(&paste("4194304", "0")).unwrap();
    assert!(scenario(&r, &Inputs::default()).is_ok());
}

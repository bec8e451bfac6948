//! Seed 000's figures at full size (256 MB pool, 746 MB table, 60 s warm-up, 150 s of scans),
//! three runs per cell as in the seed. Each row names the seed figure it checks; a test fails
//! when the mean of the three runs leaves the row's band (the shared checker of
//! `midpoint::experiments::figure`).

use midpoint::experiments::figure::{describe_failures, failed, held};
use midpoint::experiments::seed000::{checks, markdown, rows, run_rows, RowResult};

fn check(results: &[RowResult], min_checked: usize) {
    let c = checks(results);
    assert!(
        failed(&c).is_empty(),
        "figures out of band:\n{}\nfull table:\n{}",
        describe_failures(&c),
        markdown(results)
    );
    assert!(held(&c) >= min_checked, "{}", markdown(results));
}

#[test]
fn seed000_figures_are_within_their_bands() {
    let results = run_rows(&rows(false), 3, |_, _| {});
    check(&results, 18);
    // "At every size and pause it keeps more than turning it off does."
    for pair in results.iter().filter(|r| r.preset.ends_with("-t0")) {
        let with = results
            .iter()
            .find(|r| r.preset == pair.preset.trim_end_matches("-t0"))
            .expect("every -t0 cell has its old_blocks_time 1000 twin");
        assert!(
            with.stats.mean >= pair.stats.mean,
            "{}: kept {:.3} with old_blocks_time 1000 but {:.3} with 0",
            with.preset,
            with.stats.mean,
            pair.stats.mean
        );
    }
}

#[test]
fn seed000_ten_minute_runs_are_within_their_bands() {
    let long: Vec<_> = rows(true)
        .into_iter()
        .filter(|r| r.preset.ends_with("10min"))
        .collect();
    assert_eq!(long.len(), 4);
    check(&run_rows(&long, 3, |_, _| {}), 4);
}

//! `--start restart`: an empty pool warmed only by the scenario's own traffic, and the growth
//! slide of the LRU list filling up.

use std::collections::BTreeSet;

use midpoint_core::pool::PageId;
use midpoint_core::scenario::{Params, Start};
use midpoint_core::sim::{Event, Simulation, HOT_SPACE};

fn restart(hot_pages: u32) -> Params {
    Params {
        start: Start::Restart,
        pool_mb: 64,
        hot_pages,
        hot_table_pages: 1325,
        scan_table_mb: 189,
        warmup_s: 5,
        scan_s: 20,
        kept_window_s: 10,
        ..Params::default()
    }
}

/// At the scan's start the pool holds exactly the pages the lookups touched: nothing preloaded,
/// no page of the scanned table, every other frame free.
#[test]
fn restart_leaves_exactly_the_scenarios_pages_at_the_scan_start() {
    for hot in [300u32, 1111] {
        let p = restart(hot);
        let mut sim = Simulation::new(&p).unwrap();
        assert_eq!(
            sim.pool.lru_len(),
            0,
            "nothing is loaded before the warm-up"
        );
        let mut touched = BTreeSet::new();
        while sim.now() < sim.scan_start() {
            match sim.step() {
                Event::Lookup { page, .. } => {
                    touched.insert(page);
                }
                Event::ScanPage { .. } => panic!("the scan ran before its phase"),
                Event::End => break,
                _ => {}
            }
        }
        let resident: BTreeSet<PageId> = (0..p.hot_table_pages)
            .map(|page_no| PageId {
                space: HOT_SPACE,
                page_no,
            })
            .filter(|&q| sim.pool.contains(q))
            .collect();
        assert_eq!(resident, touched);
        assert_eq!(sim.pool.lru_len() as usize, touched.len());
        assert_eq!(
            sim.pool.free_len() + sim.pool.lru_len(),
            sim.pool.total_frames()
        );
        // Five seconds of lookups at 5,000/s over a few hundred pages touch them all.
        assert_eq!(touched.len() as u32, hot);
    }
}

/// The scan fills the rest of the pool by midpoint inserts: the pages it turns young by the
/// growth slide are (frames - pages at the scan start) x (1 - r/1024), within the boundary's
/// dead band.
#[test]
fn restart_growth_slide_matches_the_formula() {
    let p = restart(1111);
    let mut sim = Simulation::new(&p).unwrap();
    sim.run_until(sim.scan_start());
    let at_start = sim.pool.lru_len();
    sim.run_to_end();
    let r = sim.report();
    let grown = r.scan_growth_slid_young as f64;
    let ratio = (37.0f64 * 1024.0 / 100.0).floor() / 1024.0;
    let expect = (sim.pool.total_frames() - at_start) as f64 * (1.0 - ratio);
    assert!(
        (grown - expect).abs() <= 22.0,
        "growth slide {grown}, formula {expect:.1}"
    );
    // The growth slide is part of the slide the run reports.
    assert!(r.slid_young_per_s * p.scan_s as f64 >= grown);
}

/// Warm and cold starts begin with a full pool: no growth during the scan.
#[test]
fn full_pool_starts_have_no_growth_slide() {
    for start in [Start::Warm, Start::Cold] {
        let r = midpoint_core::sim::run(&Params {
            start,
            ..restart(1111)
        })
        .unwrap();
        assert_eq!(r.scan_growth_slid_young, 0, "{start:?}");
    }
}

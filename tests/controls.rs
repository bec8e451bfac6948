//! The page's sliders against the simulator's snapshots: moving the old_blocks_time slider
//! continues the run from its snapshot at the scan's start where the rule allows it
//! (`Simulation::can_resume_with`), and every value the slider offers then ends exactly where a
//! run from t = 0 ends, or is refused and run from the start.

use midpoint::ui::controls::controls;
use midpoint_core::scenario::{preset, Params, Start};
use midpoint_core::sim::Simulation;

/// The values the page's old_blocks_time slider offers.
fn slider_times() -> Vec<u32> {
    let c = controls(&Params::default());
    let c = c.iter().find(|c| c.key == "old_blocks_time").unwrap();
    c.stops.iter().map(|s| s.value.parse().unwrap()).collect()
}

#[test]
fn every_old_blocks_time_the_slider_offers_resumes_exactly_or_is_refused() {
    let times = slider_times();
    assert!(times.contains(&0) && times.len() >= 5, "{times:?}");
    let (mut resumed, mut refused) = (0, 0);
    for start in [Start::Warm, Start::Cold] {
        let a = Params {
            scan_table_mb: 2,
            hot_pages: 700,
            hot_table_pages: 700,
            start,
            ..preset("small-demo").unwrap().params
        };
        let mut snapshot = Simulation::new(&a).unwrap();
        snapshot.run_to_scan_start();
        for &t in &times {
            let b = Params {
                old_blocks_time: t,
                ..a.clone()
            };
            let mut s = snapshot.clone();
            if !s.can_resume_with(&b) {
                assert!(s.resume_with(&b).is_err(), "{t}");
                refused += 1;
                continue;
            }
            s.resume_with(&b).unwrap();
            s.run_to_end();
            let mut zero = Simulation::new(&b).unwrap();
            zero.run_to_end();
            assert_eq!(format!("{s:?}"), format!("{zero:?}"), "resumed with {t}");
            resumed += 1;
        }
    }
    assert!(resumed > 1, "{resumed} resumed, {refused} refused");
}

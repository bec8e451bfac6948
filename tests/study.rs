//! The studies' inputs: the idle lookup rate as a parameter.

use midpoint::scenario::Params;
use midpoint::sim;

#[test]
fn idle_lookups_per_s_gives_that_rate_when_every_lookup_hits() {
    for rate in [1500.0, 5000.0, 12000.0] {
        let p = Params {
            pool_mb: 16,
            hot_pages: 100,
            hot_table_pages: 100,
            scan_table_mb: 1,
            warmup_s: 4,
            scan_s: 0,
            kept_window_s: 1,
            lookup_cpu_us: 999.0,
            idle_lookups_per_s: rate,
            ..Params::default()
        };
        let r = sim::run(&p).unwrap();
        // A 100-page hot set in a 16 MiB pool: a handful of first reads, then every lookup hits.
        let got = r.lookups_per_s_warmup;
        assert!((got - rate).abs() / rate < 0.02, "{rate}: {got}");
    }
    // Two threads on one CPU share it: the idle rate is the pool's, not each thread's.
    let p = Params {
        lookup_threads: 2,
        cpus: 1,
        idle_lookups_per_s: 4000.0,
        ..Params::default()
    };
    assert_eq!(
        midpoint::sim::rates::derived(&p).unwrap().lookup_cpu_us,
        250.0
    );
}

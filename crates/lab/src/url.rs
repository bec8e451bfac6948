//! The page's URL and the parameters: every parameter as a query key, written as browsers'
//! `URLSearchParams` write it, and the limits of what the page simulates. Both faces use it: the
//! page reads and writes its URL with it (`ui::query` in the explainer), the command line prints
//! the page's link of a scenario (`from-status`).

use midpoint_core::scenario::Params;

/// The largest pool the page draws (one instance): 1 GiB is 65,528 frames.
pub const PAGE_MAX_POOL_MB: u32 = 1024;

/// Brings parameters within the simulator's rules and the page's limits (one instance, a pool
/// of at most [`PAGE_MAX_POOL_MB`]), with one message per change.
pub fn page_limits(p: &Params) -> (Params, Vec<String>) {
    let (mut q, mut notes) = p.clamped();
    if q.pool_mb > PAGE_MAX_POOL_MB {
        notes.push(format!(
            "pool_mb = {}: this page draws every frame, so it simulates pools of at most {PAGE_MAX_POOL_MB} MiB (65,528 frames); using {PAGE_MAX_POOL_MB}. The command-line simulator runs any size.",
            q.pool_mb
        ));
        q.pool_mb = PAGE_MAX_POOL_MB;
        // A server's exact pages do not fit the smaller pool: the lab's MiB give its frames.
        q.pool_pages = 0;
    }
    if q.buffer_pool_instances > 1 {
        notes.push(format!(
            "buffer_pool_instances = {}: this page simulates one buffer pool instance; using 1",
            q.buffer_pool_instances
        ));
        q.buffer_pool_instances = 1;
    }
    // A rate inside its declared range that the modelled storage cannot reach is clamped to
    // the fastest it can, with a note (a run of it would otherwise fail to start).
    if q.idle_scan_pages_per_s > 0.0 {
        let fastest = midpoint_core::sim::rates::idle_scan_rate(&q, 1.0).floor();
        if q.idle_scan_pages_per_s > fastest {
            notes.push(format!(
                "idle_scan_pages_per_s = {}: faster than the modelled storage allows (at most {fastest:.0} pages/s with read_latency_us = {} and page_transfer_us = {}); using {fastest:.0}",
                q.idle_scan_pages_per_s, q.read_latency_us, q.page_transfer_us
            ));
            q.idle_scan_pages_per_s = fastest;
        }
    }
    if let Err(e) = midpoint_core::sim::rates::derived(&q) {
        notes.push(format!("{e}; using the CPU times instead of the rates"));
        q.idle_scan_pages_per_s = 0.0;
        q.idle_lookups_per_s = 0.0;
    }
    if let Err(e) = q.validate() {
        notes.push(format!("{e}; using the defaults"));
        q = Params::default();
    }
    (q, notes)
}

/// Every parameter as a URL query (no leading `?`), defaults included, in a stable order.
pub fn to_query(p: &Params) -> String {
    pairs_query(p.to_pairs())
}

/// Pairs as a URL query (no leading `?`), encoded as the browser's URLSearchParams does.
pub fn pairs_query<K: AsRef<str>, V: AsRef<str>>(
    pairs: impl IntoIterator<Item = (K, V)>,
) -> String {
    form_urlencoded::Serializer::new(String::new())
        .extend_pairs(pairs)
        .finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scan_rate_past_the_storage_is_clamped_to_it_with_a_note() {
        let mut p = Params::default();
        p.set("idle_scan_pages_per_s", "1000000").unwrap();
        let (q, notes) = page_limits(&p);
        assert!(q.idle_scan_pages_per_s > 1000.0 && q.idle_scan_pages_per_s < 1_000_000.0);
        assert!(
            notes
                .iter()
                .any(|n| n.starts_with("idle_scan_pages_per_s = 1000000: faster than")),
            "{notes:?}"
        );
        // The clamped parameters make a run.
        midpoint_core::sim::rates::derived(&q).unwrap();
        // A rate the storage reaches is left alone.
        p.set("idle_scan_pages_per_s", "5000").unwrap();
        let (q, notes) = page_limits(&p);
        assert_eq!(q.idle_scan_pages_per_s, 5000.0);
        assert!(notes.is_empty(), "{notes:?}");
    }
}

//! The page's URL and the parameters: every parameter as a query key, written as browsers'
//! `URLSearchParams` write it, and the limits of what the page simulates. Both faces use it: the
//! page reads and writes its URL with it (`ui::query` in the explainer), the command line prints
//! the page's link of a scenario (`from-status`). A pool of several instances, or past the
//! page's size of one, is simulated as a share of it ([`page_share`]).

use midpoint_core::scenario::Params;

/// The most of one instance the page simulates, MiB (8 GiB: 524,224 frames). A pool's
/// instances are simulated as one instance's share ([`crate::share::instance_share`]); past
/// this size a share is split further ([`page_share`]), with a note.
pub const PAGE_MAX_INSTANCE_MB: u32 = 8192;

/// What the page simulates of `p`'s pool: one instance's share
/// ([`crate::share::instance_share`]), split into more shares than the pool has instances when
/// one would be past [`PAGE_MAX_INSTANCE_MB`], with the note that says so. `p` itself for a
/// pool of one instance within it.
pub fn page_share(p: &Params) -> (Params, Option<String>) {
    let n = p.buffer_pool_instances.max(1);
    let per_instance = p.pool_mb.div_ceil(n);
    if per_instance <= PAGE_MAX_INSTANCE_MB {
        return (crate::share::instance_share(p), None);
    }
    let k = p.pool_mb.div_ceil(PAGE_MAX_INSTANCE_MB);
    let q = crate::share::share_of(p, k);
    let note = format!(
        "pool_mb = {}{}: this page simulates at most {PAGE_MAX_INSTANCE_MB} MiB of one instance, so it runs a {k}th of the pool ({} MiB, {} frames) with a {k}th of its hot set and rates, as if the pool were {k} instances; the command-line simulator runs it whole",
        p.pool_mb,
        if n > 1 {
            format!(" in {n} instances")
        } else {
            String::new()
        },
        q.pool_mb,
        midpoint_core::scenario::schema::group(q.frames_per_instance() as u64)
    );
    (q, Some(note))
}

/// Brings parameters within the simulator's rules and the page's limits, with one message per
/// change. Any pool the simulator takes (to 64 GiB, 1 to 64 instances) is within them: the
/// page simulates its share ([`page_share`]).
pub fn page_limits(p: &Params) -> (Params, Vec<String>) {
    let (mut q, mut notes) = p.clamped();
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

/// The largest pool the small module's embeds (the close-up and the grid embedded alone)
/// simulate: one instance of 1 GiB (65,528 frames), so that an embed in someone's post stays
/// light on a phone.
pub const EMBED_MAX_POOL_MB: u32 = 1024;

/// [`page_limits`], then the embeds' own: a pool of at most [`EMBED_MAX_POOL_MB`] in one
/// instance, with one message per change.
pub fn embed_limits(p: &Params) -> (Params, Vec<String>) {
    let (mut q, mut notes) = page_limits(p);
    if q.pool_mb > EMBED_MAX_POOL_MB {
        notes.push(format!(
            "pool_mb = {}: this embedded figure simulates pools of at most {EMBED_MAX_POOL_MB} MiB (65,528 frames); using {EMBED_MAX_POOL_MB}. The lab runs pools to 64 GiB.",
            q.pool_mb
        ));
        q.pool_mb = EMBED_MAX_POOL_MB;
        // A server's exact pages do not fit the smaller pool: the MiB give its frames.
        q.pool_pages = 0;
    }
    if q.buffer_pool_instances > 1 {
        notes.push(format!(
            "buffer_pool_instances = {}: this embedded figure simulates one buffer pool instance; using 1",
            q.buffer_pool_instances
        ));
        q.buffer_pool_instances = 1;
    }
    if !notes.is_empty() && q.validate().is_err() {
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
    fn a_big_pool_is_within_the_limits_and_simulated_as_a_share() {
        let p = Params {
            pool_mb: 16384,
            buffer_pool_instances: 8,
            ..Params::default()
        };
        let (q, notes) = page_limits(&p);
        assert!(notes.is_empty(), "{notes:?}");
        assert_eq!((q.pool_mb, q.buffer_pool_instances), (16384, 8));
        let (s, note) = page_share(&q);
        assert_eq!(note, None);
        assert_eq!(s, crate::share::instance_share(&q));
        assert_eq!((s.pool_mb, s.buffer_pool_instances), (2048, 1));
        // 64 GiB in one instance: past 8 GiB an instance, an eighth of it, said so.
        let big = Params {
            pool_mb: 65536,
            ..Params::default()
        };
        assert!(page_limits(&big).1.is_empty());
        let (s, note) = page_share(&big);
        assert_eq!((s.pool_mb, s.buffer_pool_instances), (8192, 1));
        let note = note.unwrap();
        assert!(
            note.contains("at most 8192 MiB") && note.contains("8th"),
            "{note}"
        );
        // 64 GiB in 64 instances: a 1 GiB share, no note.
        let many = Params {
            pool_mb: 65536,
            buffer_pool_instances: 64,
            ..Params::default()
        };
        assert_eq!(page_share(&many).0.pool_mb, 1024);
        assert_eq!(page_share(&many).1, None);
        // Past the schema's range, the schema's clamp and its note.
        let (q, notes) = page_limits(&Params {
            pool_mb: 1 << 20,
            ..Params::default()
        });
        assert_eq!(q.pool_mb, 65536);
        assert!(!notes.is_empty());
        // The embeds keep one instance of at most 1 GiB, and say so.
        let (e, notes) = embed_limits(&p);
        assert_eq!((e.pool_mb, e.buffer_pool_instances), (1024, 1));
        assert_eq!(notes.len(), 2, "{notes:?}");
        e.validate().unwrap();
        let small = Params::default();
        assert_eq!(embed_limits(&small), (small.clone(), Vec::new()));
    }

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

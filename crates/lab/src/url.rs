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

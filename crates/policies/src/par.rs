//! Many independent jobs on every core: [`par_map`] runs on native builds in parallel (rayon, as
//! many threads as the global pool has) and on wasm32 one after another, where the page runs its
//! jobs in its workers instead. Results come back in input order, so whatever reduces them gets
//! the same answer whatever the thread count. The lab's ensembles, sweeps and studies use it
//! (`midpoint_lab::ensemble::par_map` is this one), and so does the policies' comparison.

/// `f` over `items`, in parallel on native builds, with the results in `items`' order;
/// `progress(done, total)` after each item (in completion order, from one thread at a time).
pub fn par_map<T, R, F, P>(items: &[T], f: F, progress: P) -> Vec<R>
where
    T: Sync,
    R: Send,
    F: Fn(&T) -> R + Sync + Send,
    P: FnMut(usize, usize) + Send,
{
    let total = items.len();
    #[cfg(not(target_arch = "wasm32"))]
    {
        use rayon::prelude::*;
        use std::sync::Mutex;
        let state = Mutex::new((0usize, progress));
        items
            .par_iter()
            .map(|x| {
                let r = f(x);
                let mut g = state.lock().unwrap_or_else(|p| p.into_inner());
                g.0 += 1;
                let done = g.0;
                (g.1)(done, total);
                r
            })
            .collect()
    }
    #[cfg(target_arch = "wasm32")]
    {
        let mut progress = progress;
        items
            .iter()
            .enumerate()
            .map(|(i, x)| {
                let r = f(x);
                progress(i + 1, total);
                r
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::par_map;

    #[test]
    fn results_come_back_in_input_order_with_every_item_counted() {
        let items: Vec<u32> = (0..100).collect();
        let mut calls = 0;
        let mut last = 0;
        let out = par_map(
            &items,
            |x| x * 2,
            |done, total| {
                calls += 1;
                last = last.max(done);
                assert_eq!(total, 100);
            },
        );
        assert_eq!(out, (0..100).map(|x| x * 2).collect::<Vec<_>>());
        assert_eq!((calls, last), (100, 100));
    }
}

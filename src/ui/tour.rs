//! "Tell me the story": a guided tour in a handful of steps. Each step names a preset and a
//! moment (a virtual time to seek to, or "just before the next LRU batch", or "watch the next
//! refill and drain"), and says in a few sentences what to look at there. The page sets the
//! simulation up through the same Explorer API and URL state as everything else (`?tour=N`).

use serde::Serialize;

/// How a step brings the simulation to its moment.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Seek to `t_s` virtual seconds and pause.
    Time,
    /// Run at full speed to just before the page cleaner's next LRU batch.
    Batch,
    /// Run to the next LRU batch, then show the refill and the drain in slow motion; the
    /// figure pauses once the free list is empty again.
    Watch,
}

/// One step of the tour.
#[derive(Clone, Debug, Serialize)]
pub struct Step {
    /// A short heading.
    pub title: &'static str,
    /// What happens and what to look at (plain text).
    pub text: &'static str,
    /// What to look at in the figure (plain text).
    pub look: &'static str,
    /// The beat as a projector shows it: what happens and what to look at, in two or three
    /// sentences read from the back of a room (plain text).
    pub short: &'static str,
    /// The preset the step runs.
    pub preset: &'static str,
    /// How it reaches its moment.
    pub action: Action,
    /// For [`Action::Time`]: the virtual time, seconds since the warm-up began.
    pub t_s: f64,
}

/// How many steps the tour has: what the address's `tour=` is clamped to, without the steps'
/// words (the small module, `pkg/core/`, reads the address but shows no tour).
pub const STEPS: u32 = 6;

/// The tour's steps, in order (the URL numbers them from 1); [`STEPS`] of them.
pub fn steps() -> Vec<Step> {
    vec![
        Step {
            title: "Midpoint insertion",
            text: "The LRU list runs from the head (recently used, young) to the tail, where pages are evicted. Its last 37 % (innodb_old_blocks_pct, give or take 20 pages) is the old sublist, and LRU_old points at its first page. A page read from disk does not go to the head: it goes in right after LRU_old, old. The table scan has just started, and the pages it reads land there, at the midpoint.",
            look: "The LRU_old line, and below it the faded, hatched cells of the old sublist, where the scan's reads go in; the hot set (orange) is young, above it. The head row's black-ringed blue cells are scan pages that are young already: the boundary turned them young as the list grew into its last free frames, with no touch at all (beat 4 shows that slide).",
            short: "A page read from disk goes in at the midpoint, right after LRU_old: into the old sublist, the last 37 % of the list, not at the head. Look: the scan's reads wait below the LRU_old line, hatched (old), the hot set (orange) above it. Yet the head row already holds scan pages (black rings): the boundary turned them young, untouched (beat 4).",
            preset: "seed000-hot4485-b2b",
            action: Action::Time,
            t_s: 61.0,
        },
        Step {
            title: "innodb_old_blocks_time turns the scan's touches away",
            text: "A touch moves an old page to the head only if it comes at least innodb_old_blocks_time (1,000 ms) after the page's first access. A scan touches a page several times within a millisecond and moves on, so its pages fail that test and should age out of the old sublist without ever becoming young.",
            look: "The counters: Pages not made young (InnoDB's count of touches that failed the time test) runs far ahead of Pages made young. Yet the head row is blue: scan pages the boundary turned young, which their next touch moved to the head with no time test. The test guards one door; beat 4 opens the other.",
            short: "A touch makes an old page young only if it comes at least innodb_old_blocks_time (1,000 ms) after its first access; the scan's touches come within a millisecond. Look: Pages not made young runs far ahead of Pages made young. Yet the head row is blue: scan pages got young another way, untouched (beat 4).",
            preset: "seed000-hot4485-b2b",
            action: Action::Time,
            t_s: 70.0,
        },
        Step {
            title: "The free list and the page cleaner",
            // Reference §6.1 and §12.2: the coordinator skips the LRU batch in rounds it counts
            // as idle (read from its code); that a pure-SELECT server counts as idle except after
            // incidental activity is an inference that fits the seed's sparse refills.
            text: "A read takes a frame from the free list if there is one, and otherwise evicts the page at the tail. Once a second the page cleaner's LRU batch evicts pages from the tail until the free list holds innodb_lru_scan_depth (1,024) frames, in the rounds it counts as active. Reading its code, a server that only runs SELECTs seems to count as idle except after some incidental activity (a closed table, a write); that is an inference, and it fits the three refills in 35 s the test saw. The simulator draws that activity at random, every 17 s on average. The figure is paused just before such a batch.",
            look: "The free list (grey cells after the tail) is empty: every read evicts at the tail. Press Step (or →) to run the batch.",
            short: "A read takes a frame from the free list, or evicts the page at the tail when the list is empty. The page cleaner's LRU batch refills it to innodb_lru_scan_depth (1,024) frames from the tail. Look: the free list is empty, and the figure waits just before a batch.",
            preset: "seed000-hot4485-b2b",
            action: Action::Batch,
            t_s: 0.0,
        },
        Step {
            title: "A refill, and the boundary slides over the scan's pages",
            // Reference §11.3: 0.631k − 40 each way is an upper bound; old pages promoted
            // meanwhile pull the boundary up and offset steps of the next drain.
            text: "A refill evicts k old pages from the tail. The old sublist loses k pages but its target only 0.37 k, so LRU_old moves toward the head by up to 0.63 k − 40 pages, turning the bottom of the young sublist old. Then reads drain the free list: each goes in right after LRU_old, the old sublist is too long again, and the boundary walks back toward the tail, clearing the old flag of each page it passes: the newest inserts, scan pages read moments ago. For k = 1,024 that is about 606 pages each way (the counters give each batch's exact count, a page more or less with InnoDB's integer arithmetic); fewer when old pages are promoted in between, since each promotion moves the boundary one page up.",
            look: "The ringed cells: scan pages the boundary turned young since the batch, with no time test and no count in Pages made young. Pink rings: pages the batch turned old.",
            short: "The batch shortens the list, so LRU_old jumps toward the head (pink rings: turned old). Each read then goes in after LRU_old, and the boundary walks back over the newest inserts, scan pages, turning them young (black rings) with no time test: about 606 per refill. Drag the drain timeline to replay it.",
            preset: "seed000-hot4485-b2b",
            action: Action::Watch,
            t_s: 0.0,
        },
        Step {
            title: "The young sublist becomes an LRU contest",
            // Reference §4.5: slid pages keep stamp 0, so their next touch moves them to the
            // head. §11.4: they stay young only while the scan returns before they sink through
            // the young sublist. §11.5: each batch demotes the bottom of the young sublist; a
            // demoted page has ~0.13 s before eviction, and a lost hot page comes back old.
            text: "Pages made young by the slide never got the clock stamp a page gets at the head, so once enough pages have been evicted their next touch moves them there, with no time test. The scan is back about once a second, sooner than a page sinks through the young sublist, so a scan page that became young stays young. Each batch, meanwhile, turns the bottom of the young sublist old, and hot pages not read for a while are among them: under the scan's stream of reads an old page has about 0.13 s before it is evicted, and a hot page read back enters old and is evicted again before the 1 s test could promote it; almost only the slide brings it back. The young sublist becomes a contest between scan pages, back every second, and hot pages, each read every 1.5 to 3 s. The scan wins, and the lost hot pages' lookups become disk reads.",
            // The close-up draws only the young sublist's two ends, where hot pages sit at this
            // moment; the scan pages that fill its middle are in the counters and the whole pool.
            look: "Near the end of the run, the counters: Scanned table, young holds most of the young sublist, and Hot set resident has fallen (the test kept 41 % of it at the default settings). The close-up draws only the young sublist's two ends, both orange: hot pages just moved to the head, and hot pages sunk to just above LRU_old, next to be turned old. The pages between them, not drawn, are mostly scan pages: the whole pool, further down, shows them blue.",
            short: "Slid scan pages are touched again every second and stay young; hot pages, read every 1.5 to 3 s, sink, turn old and are evicted. Look: hot set cached, on the right, has fallen far below 100 % (the server kept 41 %): the young sublist is no longer the hot set's.",
            preset: "seed000-hot4485-b2b",
            action: Action::Time,
            t_s: 200.0,
        },
        Step {
            title: "What innodb_lru_scan_depth and a pause do",
            // Reference §4.4: with old_blocks_time 0 an old page is judged by the quarter rule
            // alone, which a stamp-0 page fails once the eviction clock passes the threshold.
            text: "innodb_lru_scan_depth caps each refill, and the slide per refill is 0.63 k − 40: about 41 pages at 128 instead of 606. At 128 the test kept 91–93 % of the hot set. A pause between scans longer than the hot pages' reuse gap lets the hot set win the contest instead (a 2 s pause kept 89 %). innodb_old_blocks_time = 0 makes it worse: a page just read has no stamp, so once enough pages have been evicted its first touch moves it to the head, and scan pages go straight there (7 % kept).",
            look: "The same moment with innodb_lru_scan_depth = 128: few ringed pages, and the hot set mostly resident. Try the Preset menu and the sliders below to compare.",
            short: "innodb_lru_scan_depth caps each refill: at 128 the slide is about 41 pages instead of 606, and the server kept 91-93 % of the hot set. A 2 s pause between scans kept 89 %; old_blocks_time = 0 kept 7 %. Look: few ringed pages, the hot set mostly cached.",
            preset: "seed000-hot4485-b2b-depth128",
            action: Action::Time,
            t_s: 200.0,
        },
    ]
}

#[cfg(test)]
mod tests {
    #[test]
    fn steps_counts_the_steps() {
        assert_eq!(super::steps().len() as u32, super::STEPS);
    }
}

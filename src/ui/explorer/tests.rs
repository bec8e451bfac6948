use super::*;
use crate::ui::query::MAX_SAFE_INTEGER;
use midpoint_core::clock::to_secs;
use midpoint_core::scenario::preset;

/// The clock the explorer reads to bound each frame's work.
fn clock() -> f64 {
    // A deterministic stand-in for the wall clock: every reading advances it by 1 ms, so a
    // frame's work budget ends after the same amount of work on any machine, however loaded.
    use std::cell::Cell;
    thread_local!(static READINGS: Cell<u64> = const { Cell::new(0) });
    READINGS.with(|r| {
        r.set(r.get() + 1);
        r.get() as f64
    })
}

/// A small, short run: 1,023 frames, 5 s of warm-up, 20 s of scanning.
fn small() -> Params {
    Params {
        warmup_s: 5,
        scan_s: 20,
        kept_window_s: 10,
        ..preset("small-demo").unwrap().params
    }
}

/// Runs frames (16 ms apart) until the explorer pauses; returns the frames taken.
fn until_paused(ex: &mut Explorer, t: &mut f64) -> u32 {
    for i in 0..100_000 {
        *t += 16.0;
        ex.frame(*t);
        if ex.status().mode == "paused" {
            return i;
        }
    }
    panic!("never paused: {:?}", ex.status().mode);
}

#[test]
fn refuses_what_the_page_cannot_draw() {
    // Past what the simulator takes (64 GiB): refused with the page's message.
    let p = Params {
        pool_mb: 131_072,
        ..small()
    };
    let e = Explorer::new(&p, clock).err().unwrap();
    assert!(e.contains("pool_mb = 131072"), "{e}");
    // Within it, a pool past one instance's share of the page runs as a share: 16 GiB in one
    // instance is simulated as its half, the frames of an 8 GiB pool.
    let frames = |pool_mb| {
        let p = Params { pool_mb, ..small() };
        Explorer::new(&p, clock).unwrap().status().frames
    };
    assert_eq!(frames(16_384), frames(8192));
    assert!(frames(8192) > frames(4096));
}

#[test]
fn opens_at_the_warm_up_with_the_grid_laid_out() {
    let mut ex = Explorer::new(&small(), clock).unwrap();
    let st = ex.status();
    assert_eq!((st.mode, st.phase, st.events), ("paused", "warm-up", 0.0));
    assert!(
        st.narration.starts_with("0 s: the warm-up begins"),
        "{}",
        st.narration
    );
    assert!(!st.can_back);
    let h = ex.resize(600, 400, 1.0);
    assert!(h > 0 && h <= 400);
    let frames = ex.status().frames as usize;
    assert_eq!(ex.cells().len(), frames);
    let px = ex.render().to_vec();
    assert_eq!(px.len(), 600 * h as usize * 4);
    let labels = ex.labels();
    assert!(
        labels.iter().any(|l| l.text.starts_with("head")),
        "{labels:?}"
    );
    assert!(labels
        .iter()
        .any(|l| l.text.starts_with("LRU_old") && l.inverted));
    let (x, y) = ex.layout().origin(0);
    let head = ex.describe_cell(x as f64 + 1.0, y as f64 + 1.0);
    assert!(head.starts_with("LRU position 1 of "), "{head}");
    assert_eq!(ex.describe_cell(-5.0, 1e9), "");
}

#[test]
fn a_batch_is_found_stepped_narrated_and_stepped_back() {
    let mut ex = Explorer::new(&small(), clock).unwrap();
    ex.resize(600, 400, 1.0);
    let before_px = ex.render().to_vec();
    ex.next_batch();
    assert_eq!(ex.status().mode, "seeking");
    let mut t = 0.0;
    until_paused(&mut ex, &mut t);
    let st = ex.status();
    assert!(st.at_batch, "paused just before a batch");
    assert!(st
        .narration
        .contains("paused just before the page cleaner's next LRU batch"));
    let ev = ex.events();
    let refills = st.refills;
    ex.step();
    let st = ex.status();
    assert_eq!(st.events, ev + 1.0);
    assert_eq!(st.refills, refills + 1);
    assert!(st.narration.contains("LRU batch freed"), "{}", st.narration);
    assert!(
        st.free >= ex.params().lru_scan_depth.min(st.frames) / 2,
        "{}",
        st.free
    );
    let after_px = ex.render().to_vec();
    let changed = before_px
        .chunks(4)
        .zip(after_px.chunks(4))
        .filter(|(a, b)| a != b)
        .count();
    assert!(
        changed > 500,
        "an LRU batch must change the grid: {changed}"
    );
    // Back one event: the batch is undone.
    ex.step_back();
    let mut t2 = t;
    if ex.status().mode != "paused" {
        until_paused(&mut ex, &mut t2);
    }
    assert_eq!(ex.events(), ev);
    assert_eq!(ex.status().refills, refills);
    assert!(ex
        .status()
        .narration
        .contains(&format!("event {}", n(ev as u64))));
}

#[test]
fn watching_a_refill_ends_paused_after_the_drain() {
    let mut ex = Explorer::new(&small(), clock).unwrap();
    ex.resize(600, 400, 1.0);
    ex.watch();
    let mut t = 0.0;
    let mut seen = Vec::new();
    for _ in 0..200_000 {
        t += 16.0;
        ex.frame(t);
        let st = ex.status();
        if seen.last() != Some(&st.mode) {
            seen.push(st.mode);
        }
        if st.mode == "paused" {
            break;
        }
    }
    // Running to the next batch may take several frames or fit in the first one.
    let after_seek: Vec<_> = seen.iter().skip_while(|m| **m == "seeking").collect();
    assert_eq!(after_seek, [&"watching", &"paused"], "{seen:?}");
    let st = ex.status();
    assert!(
        st.narration.contains("the free list is empty again")
            || st.narration.contains("still not drained"),
        "{}",
        st.narration
    );
    assert!(st.refills >= 1);
}

#[test]
fn seeking_past_the_end_stops_at_the_end() {
    let mut ex = Explorer::new(&small(), clock).unwrap();
    ex.seek_event(MAX_SAFE_INTEGER as f64);
    let mut t = 0.0;
    until_paused(&mut ex, &mut t);
    let st = ex.status();
    assert!(st.ended, "{st:?}");
    assert_eq!(st.phase, "ended");
    ex.reset();
    assert_eq!(ex.events(), 0.0);
    assert!(ex.status().narration.starts_with("0 s: back at the start"));
}

#[test]
fn playing_moves_time_at_the_chosen_speed() {
    let mut ex = Explorer::new(&small(), clock).unwrap();
    assert_eq!(Explorer::speed_labels().len(), 7);
    ex.set_speed(3); // 1×
    ex.play();
    let mut t = 0.0;
    for _ in 0..=60 {
        t += 16.0;
        ex.frame(t);
    }
    // 60 frames of 16 ms at 1×: just under a second of virtual time.
    let s = ex.t_s();
    assert!((0.9..=1.0).contains(&s), "{s}");
    assert_eq!(ex.change_speed(1), "10×");
    ex.pause();
    assert_eq!(ex.status().mode, "paused");
    let samples = ex.residency_samples();
    assert!(!samples.is_empty());
    assert!(samples.last().unwrap().t_s <= ex.t_s());
}

/// The default preset (seed 000's 4,485-page hot set, back-to-back scans).
fn seed() -> Explorer {
    Explorer::new(&preset("seed000-hot4485-b2b").unwrap().params, clock).unwrap()
}

/// Runs to just before the next LRU batch that evicts pages.
fn to_batch(ex: &mut Explorer) {
    ex.next_batch();
    let mut t = 0.0;
    until_paused(ex, &mut t);
    assert!(ex.status().at_batch);
}

/// Numbers written with thousands separators in a sentence, in order.
fn numbers(s: &str) -> Vec<u64> {
    s.split(|c: char| !(c.is_ascii_digit() || c == ','))
        .filter_map(|w| w.trim_matches(',').replace(',', "").parse().ok())
        .collect()
}

#[test]
fn narration_in_the_warm_up_describes_the_state_while_playing() {
    let mut ex = seed();
    ex.set_speed(6);
    ex.play();
    let mut t = 0.0;
    for _ in 0..20 {
        t += 16.0;
        ex.frame(t);
    }
    let st = ex.status();
    assert_eq!(st.phase, "warm-up");
    assert!(st.events > 0.0);
    // Not the opening line any more: the state at this moment.
    assert!(!st.narration.contains("warm-up begins"), "{}", st.narration);
    assert!(st.narration.contains("warm-up"), "{}", st.narration);
    let nums = numbers(&st.narration);
    assert!(
        nums.contains(&(st.lru as u64)) && nums.contains(&(st.free as u64)),
        "{} vs lru {} free {}",
        st.narration,
        st.lru,
        st.free
    );
}

#[test]
fn narration_at_the_scan_start_and_after_a_seek_is_about_now() {
    let mut ex = seed();
    let start = ex.status().scan_start_s;
    ex.seek_time(start + 0.5);
    let mut t = 0.0;
    until_paused(&mut ex, &mut t);
    let st = ex.status();
    assert_eq!(st.phase, "scan");
    assert!(
        !st.narration.contains("paused after event"),
        "{}",
        st.narration
    );
    assert!(
        st.narration.contains("the scan phase began"),
        "{}",
        st.narration
    );
    // Playing on keeps it current: the time label follows the clock.
    ex.set_speed(3);
    ex.play();
    for _ in 0..30 {
        t += 16.0;
        ex.frame(t);
    }
    let st = ex.status();
    let label = t_label(ex.cur.sim.now());
    assert!(
        st.narration.starts_with(&label),
        "{} / {label}",
        st.narration
    );
}

#[test]
fn narration_before_and_after_a_batch_and_mid_drain_matches_the_state() {
    let mut ex = seed();
    to_batch(&mut ex);
    let st = ex.status();
    assert!(
        st.narration.contains("paused just before"),
        "{}",
        st.narration
    );
    assert!(numbers(&st.narration).contains(&(st.free as u64)));
    let old_before = st.old;
    let slid_old_before = st.slid_old as u64;
    ex.step();
    let st = ex.status();
    let b = ex.cur.batch.clone().unwrap();
    let nums = numbers(&st.narration);
    // The evictions, the free list after, and the demotion: all as the state shows them.
    assert!(nums.contains(&(b.evicted as u64)), "{}", st.narration);
    assert!(nums.contains(&(st.free as u64)), "{}", st.narration);
    let demoted = st.slid_old as u64 - slid_old_before;
    assert!(demoted > 0);
    assert!(nums.contains(&demoted), "{} / {demoted}", st.narration);
    assert!(st.narration.contains("at most about"), "{}", st.narration);
    let _ = old_before;
    // A demotion: the hot-set pages it turned old, counted by the batch (every one, not only
    // those the close-up draws), the same in the close-up's caption, the status and the
    // narration.
    ex.strip_resize(800.0, 400.0);
    ex.strip_update(0.0);
    let hot = {
        let inst = &ex.cur.sim.pool.instances[0];
        b.demoted_frames
            .iter()
            .filter(|&&f| {
                inst.page(f).space == midpoint_core::sim::HOT_SPACE
                    && inst.page(f).page_no < ex.params.hot_pages
            })
            .count() as u32
    };
    assert!(hot > 0);
    let seen = ex
        .strip_view()
        .chunks_exact(STRIDE)
        .filter(|c| b.demoted_hot.iter().any(|&(f, _)| f == c[0] as u32))
        .count() as u32;
    assert!(
        seen < hot,
        "the close-up draws only some of them ({seen} of {hot})"
    );
    assert_eq!(ex.strip_meta().demoted_hot, hot);
    assert_eq!(ex.status().demoted_hot, hot);
    assert_eq!(ex.status().demoted as u64, demoted);
    assert!(
        ex.strip_meta()
            .caption
            .contains(&format!("{} of them hot pages", n(hot))),
        "{}",
        ex.strip_meta().caption
    );
    assert!(
        st.narration
            .contains(&format!("{} of them hot pages", n(hot))),
        "{}",
        st.narration
    );
    // Mid-drain: half the frames taken.
    let total = b.free_before + b.evicted;
    while ex.cur.sim.pool.free_len() > total / 2 {
        ex.step();
    }
    ex.set_speed(0);
    ex.play();
    ex.frame(1.0);
    ex.frame(1.5);
    let st = ex.status();
    let taken = total - ex.cur.sim.pool.free_len();
    let young = st.slid_young as u64 - b.slid_young_after;
    assert!(st.narration.contains("draining"), "{}", st.narration);
    let nums = numbers(&st.narration);
    assert!(
        nums.contains(&(taken as u64)) && nums.contains(&young),
        "{} / taken {taken} young {young}",
        st.narration
    );
}

#[test]
fn a_promotion_is_narrated_and_highlighted_in_the_code() {
    let mut ex = seed();
    to_batch(&mut ex);
    ex.step();
    // Step until an old page passes the time test.
    let mut found = false;
    for _ in 0..200_000 {
        let before = ex.status().made_young;
        ex.step();
        let st = ex.status();
        if st.made_young > before {
            assert!(st.narration.contains("made young"), "{}", st.narration);
            let c = ex.code_state();
            let at = c.at.expect("an event ran");
            assert!(at.lines.contains(&(crate::ui::code::TOO_OLD, 4)), "{at:?}");
            found = true;
            break;
        }
    }
    assert!(found, "no promotion");
}

#[test]
fn a_drain_step_that_slides_highlights_the_shrink_step_of_adjust_len() {
    let mut ex = seed();
    to_batch(&mut ex);
    ex.step();
    let mut seen = false;
    for _ in 0..5_000 {
        let before = ex.status().slid_young;
        ex.step();
        if ex.status().slid_young > before {
            let at = ex.code_state().at.unwrap();
            assert!(
                at.lines.contains(&(crate::ui::code::ADJUST_LEN, 6)),
                "{at:?}"
            );
            let vars = ex.code_state().vars;
            let old = vars.iter().find(|v| v.name == "old_len").unwrap();
            assert_eq!(old.value, n(ex.status().old));
            seen = true;
            break;
        }
    }
    assert!(seen);
}

#[test]
fn watching_in_the_close_up_shows_pages_move_turn_young_and_reach_the_head() {
    let mut ex = seed();
    ex.strip_resize(800.0, 420.0);
    to_batch(&mut ex);
    ex.watch();
    let mut t = 0.0;
    let mut slid_in_window = std::collections::HashSet::new();
    let mut reached_head = false;
    let mut changed = 0;
    let mut prev: Vec<f32> = Vec::new();
    let mut trails = 0;
    for _ in 0..5_000 {
        t += 16.0;
        ex.frame(t);
        ex.strip_update(t);
        let v = ex.strip_view().to_vec();
        if v != prev {
            changed += 1;
        }
        for c in v.chunks_exact(STRIDE) {
            let (f, flags, region) = (c[0] as u32, c[4] as u32, c[6] as u8);
            if flags & strip::S_SLID != 0 && region == strip::R_WINDOW {
                slid_in_window.insert(f);
            }
            if region == strip::R_HEAD && slid_in_window.contains(&f) {
                reached_head = true;
            }
        }
        trails = trails.max(ex.strip_meta().trails.len());
        prev = v;
        if ex.status().mode == "paused" {
            break;
        }
    }
    assert_eq!(ex.status().mode, "paused");
    // At least 6 s of wall time (16 ms frames).
    assert!(t >= 6000.0, "{t}");
    assert!(changed > 100, "{changed}");
    assert!(!slid_in_window.is_empty());
    assert!(reached_head, "no slid page seen reaching the head");
    assert!(trails > 0);
    assert!(ex.strip_meta().to_head > 0);
}

#[test]
fn the_close_up_says_when_it_changed_and_rests_when_paused() {
    let mut ex = Explorer::new(&small(), clock).unwrap();
    ex.strip_resize(800.0, 420.0);
    to_batch(&mut ex);
    ex.watch();
    let (mut t, mut prev, mut prev_meta) = (0.0, Vec::new(), None);
    let mut changes = 0;
    for _ in 0..5_000 {
        t += 16.0;
        ex.frame(t);
        let said = ex.strip_update(t);
        let (v, m) = (ex.strip_view().to_vec(), ex.strip_meta().clone());
        // The page repaints only on `true`: it must be true exactly when something differs.
        assert_eq!(
            said,
            v != prev || prev_meta.as_ref() != Some(&m),
            "at {t} ms"
        );
        changes += said as u32;
        (prev, prev_meta) = (v, Some(m));
        if ex.status().mode == "paused" {
            break;
        }
    }
    assert_eq!(ex.status().mode, "paused");
    assert!(changes > 100, "{changes}");
    // Paused, the cells come to rest and the trails fade out; then nothing is left to paint.
    let mut quiet = 0;
    for _ in 0..600 {
        t += 16.0;
        ex.frame(t);
        quiet = if ex.strip_update(t) { 0 } else { quiet + 1 };
    }
    assert!(
        quiet >= 300,
        "still changing {} frames before the end",
        600 - quiet
    );
    // At rest it stays at rest when the page's frames slow to a poll every 250 ms (a fade
    // left a hair short of its end at 16 ms frames took the longer step and changed).
    for _ in 0..8 {
        t += 250.0;
        ex.frame(t);
        assert!(!ex.strip_update(t), "changed on a poll at {t} ms");
    }
    // One step, and it paints again.
    ex.step();
    ex.frame(t + 16.0);
    assert!(ex.strip_update(t + 16.0));
}

#[test]
fn the_speed_reached_is_reported_while_playing() {
    let mut ex = Explorer::new(&small(), clock).unwrap();
    ex.set_speed(3);
    ex.play();
    let mut t = 0.0;
    for _ in 0..30 {
        t += 16.0;
        ex.frame(t);
    }
    let st = ex.status();
    // 1× on a small pool is reachable: about one virtual second per wall second.
    assert!(
        (0.5..=1.5).contains(&st.achieved_speed),
        "{}",
        st.achieved_speed
    );
    assert!(!st.speed_limited);
    ex.pause();
    assert_eq!(ex.status().achieved_speed, 0.0);
}

/// After a restart the pool fills by midpoint inserts: the step that slides the boundary
/// because the list grew is narrated as the growth slide, with the numbers the state holds.
#[test]
fn the_growth_slide_after_a_restart_is_narrated_from_the_state() {
    let mut p = small();
    p.set("start", "restart").unwrap();
    let mut ex = Explorer::new(&p, clock).unwrap();
    let start = ex.status().scan_start_s;
    ex.seek_time(start);
    let mut t = 0.0;
    until_paused(&mut ex, &mut t);
    let mut found = None;
    for _ in 0..5_000 {
        ex.step();
        let st = ex.status();
        if st.narration.contains("the growth slide, not a refill's") {
            found = Some(st.narration);
            break;
        }
    }
    let s = found.expect("no step narrated a growth slide");
    let inst = &ex.cur.sim.pool.instances[0];
    let grown: u64 = inst.lru.slides.growth_young.iter().sum();
    assert!(grown > 0 && !inst.free.is_empty(), "{s}");
    assert_eq!(inst.lru.len(), inst.lru.longest(), "{s}");
    assert!(
        s.contains(&format!("Growth has turned {} young so far", pages(grown))),
        "{s} / {grown}"
    );
    assert!(
        s.contains(&format!(
            "the free list holds {}",
            pages(inst.free.len() as u64)
        )),
        "{s}"
    );
    assert!(
        s.contains(&format!("only {} % of each insert", p.old_blocks_pct)),
        "{s}"
    );
    // Paused there, a seek to the same moment narrates the state: the growth slide too.
    let now = ex.t_s();
    ex.seek_time(now);
    until_paused(&mut ex, &mut t);
    let st = ex.status();
    let inst = &ex.cur.sim.pool.instances[0];
    if !inst.free.is_empty() && inst.lru.len() == inst.lru.longest() {
        assert!(
            st.narration.contains("the growth slide"),
            "{}",
            st.narration
        );
    }
    // A warm start never narrates a growth slide.
    let mut ex = Explorer::new(&small(), clock).unwrap();
    ex.seek_time(start);
    until_paused(&mut ex, &mut t);
    for _ in 0..500 {
        ex.step();
        assert!(
            !ex.status().narration.contains("growth slide"),
            "{}",
            ex.status().narration
        );
    }
}

#[test]
fn a_figures_snapshot_budget_keeps_fewer_snapshots_and_back_still_lands_exactly() {
    let p = preset("seed000-hot4485-b2b").unwrap().params;
    let mut lab = Explorer::new(&p, clock).unwrap();
    let mut fig = Explorer::new(&p, clock).unwrap();
    fig.set_snapshot_budget(snapshot_budget("strip"));
    // A seek leaves anchors near where it lands: nine of them, 10 s apart.
    for ex in [&mut lab, &mut fig] {
        let mut t = 0.0;
        for s in (10..=90).step_by(10) {
            ex.seek_time(s as f64);
            if ex.status().mode != "paused" {
                until_paused(ex, &mut t);
            }
        }
    }
    assert_eq!(lab.events(), fig.events());
    let size = lab.cur.approx_bytes();
    let (lab_n, fig_n) = (lab.snapshots().0, fig.snapshots().0);
    assert!(fig_n < lab_n, "figure {fig_n} vs lab {lab_n} anchors");
    assert!(
        fig_n as u64 * size <= snapshot_budget("strip"),
        "{fig_n} × {size}"
    );
    // Lowering the budget of a running explorer drops what no longer fits.
    lab.set_snapshot_budget(snapshot_budget("grid"));
    assert!(lab.snapshots().0 as u64 * size <= snapshot_budget("grid"));
    // Stepping back from the thinner snapshots reaches the same event and state.
    let ev = fig.events();
    for ex in [&mut lab, &mut fig] {
        ex.step_back();
        let mut t = 0.0;
        if ex.status().mode != "paused" {
            until_paused(ex, &mut t);
        }
        assert_eq!(ex.events(), ev - 1.0);
    }
    assert_eq!(lab.render(), fig.render());
}

/// Opens the default preset just before the scan phase's first LRU batch: the scan's start,
/// then "Next LRU batch".
fn seed_before_batch() -> Explorer {
    let mut ex = seed();
    let w = ex.params().warmup_s as f64;
    ex.seek_time(w + 0.001);
    let mut t = 0.0;
    until_paused(&mut ex, &mut t);
    to_batch(&mut ex);
    ex
}

/// Opens the default preset as `at=batch` does: just after that batch (the free list full).
fn seed_at_batch() -> Explorer {
    let mut ex = seed_before_batch();
    assert!(ex.status().at_batch);
    ex.step();
    ex
}

#[test]
fn at_batch_is_just_after_the_batch_with_the_free_list_full() {
    let ex = seed_at_batch();
    let st = ex.status();
    assert!(st.after_batch && !st.at_batch, "{st:?}");
    assert_eq!(st.free, ex.params().lru_scan_depth, "{st:?}");
    assert_eq!(st.drain_young, 0.0);
    assert!(st.narration.contains("LRU batch freed"), "{}", st.narration);
    let code = ex.code_state().at.expect("the batch's lines");
    assert!(code.lines.iter().any(|&(r, _)| r == crate::ui::code::BATCH));
}

#[test]
fn boundary_steps_walk_a_drain_in_a_few_tens_of_presses() {
    let mut ex = seed_at_batch();
    ex.resize(600, 400, 1.0);
    let slid0 = ex.status().slid_young;
    let mut presses = 0;
    let mut last = slid0;
    while ex.status().free > 0 {
        ex.step_boundary();
        presses += 1;
        let st = ex.status();
        assert_eq!(st.mode, "paused");
        // Every press in the drain moves the boundary (or ends the drain).
        assert!(
            st.slid_young > last || st.free == 0,
            "press {presses}: {st:?}"
        );
        last = st.slid_young;
        assert!(
            presses <= 60,
            "still {} free after {presses} presses",
            st.free
        );
    }
    assert!((5..=40).contains(&presses), "{presses} presses");
    let st = ex.status();
    assert!(
        st.narration.contains("the free list is empty again"),
        "{}",
        st.narration
    );
    assert!(st.slid_young - slid0 > 300.0, "{st:?}");
}

#[test]
fn the_drain_end_step_runs_the_batch_and_the_whole_drain() {
    let mut ex = seed_before_batch();
    ex.step_drain_end();
    let st = ex.status();
    assert_eq!((st.free, st.mode, st.refills), (0, "paused", 1), "{st:?}");
    assert!(
        st.narration.contains("the free list is empty again"),
        "{}",
        st.narration
    );
    // With no drain under way it runs to the next batch, like "Next LRU batch".
    ex.step_drain_end();
    let mut t = 0.0;
    until_paused(&mut ex, &mut t);
    assert!(ex.status().at_batch);
}

#[test]
fn a_watched_drain_starts_slowly_and_shows_the_shrink_step_while_the_boundary_slides() {
    let mut ex = seed_at_batch();
    ex.resize(600, 400, 1.0);
    ex.watch();
    let mut t = 0.0;
    let (mut drain_frames, mut shrink, mut mid) = (0u32, 0u32, 0u32);
    let mut first_read_ms = None;
    let mut drain_start = None;
    for _ in 0..20_000 {
        t += 16.0;
        ex.frame(t);
        let st = ex.status();
        if st.mode == "paused" {
            break;
        }
        if st.mode != "watching" || st.free == 0 {
            continue;
        }
        let c = ex.code_state();
        let lines = c.at.map(|a| a.lines).unwrap_or_default();
        if lines.iter().any(|&(r, _)| r == crate::ui::code::BATCH) {
            continue; // still the batch's animation
        }
        drain_start.get_or_insert(t);
        drain_frames += 1;
        if st.free < 1000 && first_read_ms.is_none() {
            first_read_ms = Some(t);
        }
        if (256..=768).contains(&st.free) {
            mid += 1;
            if lines
                .iter()
                .all(|&(r, l)| crate::ui::code::rule_of(r, l) == "adjust_old_len_shrink")
                && !lines.is_empty()
            {
                shrink += 1;
            }
        }
    }
    let st = ex.status();
    assert_eq!(st.free, 0, "{st:?}");
    let drain_ms = drain_frames as f64 * 16.0;
    // On screen for at least 3 s, and not so long a class loses patience.
    assert!((3000.0..=15_000.0).contains(&drain_ms), "{drain_ms} ms");
    assert!(
        mid > 10 && shrink * 10 >= mid * 8,
        "{shrink} of {mid} mid-drain frames"
    );
    // The first reads one by one: the 25th read is not there within the first second.
    let _ = first_read_ms;
}

#[test]
fn a_held_scout_keeps_its_place_and_goes_on_when_let_go() {
    let p = preset("small-demo").unwrap().params;
    let mut ex = Explorer::new(&p, clock).unwrap();
    ex.set_scouting(true);
    let mut t = 0.0;
    for _ in 0..20 {
        t += 16.0;
        ex.frame(t);
    }
    let reached = ex.status().scouted_s;
    assert!(reached > 0.0, "the scout did not start");
    ex.hold_scout(true);
    for _ in 0..200 {
        t += 16.0;
        ex.frame(t);
    }
    assert_eq!(ex.status().scouted_s, reached, "held, it went on");
    assert!(!ex.scouted(), "held is not done");
    ex.hold_scout(false);
    scout_to_end(&mut ex, &mut t);
    assert!(ex.status().scouted_s >= ex.status().end_s - 0.5);
}

/// Frames 16 ms apart until the scout's snapshots reach the end.
fn scout_to_end(ex: &mut Explorer, t: &mut f64) {
    let mut frames = 0;
    while !ex.scouted() {
        *t += 16.0;
        ex.frame(*t);
        frames += 1;
        assert!(frames < 400_000, "{:?}", ex.snapshots());
    }
}

#[test]
fn the_scout_leaves_snapshots_over_the_run_so_a_seek_is_a_restore_and_a_short_replay() {
    let p = preset("small-demo").unwrap().params;
    let mut ex = Explorer::new(&p, clock).unwrap();
    ex.set_scouting(true);
    let mut t = 0.0;
    scout_to_end(&mut ex, &mut t);
    assert_eq!(ex.events(), 0.0, "the view itself stayed at the start");
    let end = ex.status().end_s;
    assert!(
        ex.status().scouted_s >= end - 0.5,
        "{}",
        ex.status().scouted_s
    );
    for frac in [0.8, 0.3] {
        let want = end * frac;
        ex.seek_time(want);
        until_paused(&mut ex, &mut t);
        let st = ex.status();
        assert_eq!(st.seek, "snapshot");
        assert!(
            st.t_s >= want && st.t_s < want + 0.1,
            "{} for {want}",
            st.t_s
        );
        assert!(
            st.seek_replayed as u64 <= 2 * ex.tl.anchor_every,
            "replayed {} with anchors every {}",
            st.seek_replayed,
            ex.tl.anchor_every
        );
        // The same moment as a plain run from the start reaches.
        let mut plain = Explorer::new(&p, clock).unwrap();
        let mut t2 = 0.0;
        plain.seek_time(want);
        until_paused(&mut plain, &mut t2);
        assert_eq!(plain.status().seek, "forward");
        assert_eq!(plain.events(), ex.events());
        assert_eq!(plain.render(), ex.render());
    }
}

#[test]
fn playing_starts_from_rest_however_old_the_last_frame() {
    // The page polls a paused figure every 250 ms: the frame after Play must not take that
    // gap as elapsed time (it would jump by the 100 ms clamp at once).
    let p = preset("small-demo").unwrap().params;
    let mut ex = Explorer::new(&p, clock).unwrap();
    ex.set_speed(3);
    let mut t = 0.0;
    for _ in 0..5 {
        t += 250.0;
        ex.frame(t);
    }
    ex.play();
    let at = ex.cur.sim.now();
    t += 240.0;
    ex.frame(t);
    assert_eq!(ex.cur.sim.now(), at, "the first frame after play advanced");
    // The next frames play at the speed's pace: 16 ms of wall time each.
    t += 16.0;
    ex.frame(t);
    let one = ex.cur.sim.now() - at;
    assert!(one > 0, "playing did not advance");
    t += 16.0;
    ex.frame(t);
    let two = ex.cur.sim.now() - at;
    assert!(two >= one && two <= 3 * one, "{one} then {two}");
}

#[test]
fn back_from_a_figures_opening_moment_lands_at_once_without_showing_an_earlier_time() {
    // A figure's opening at the scan's start (at=scan), on a figure's snapshot budget: Back
    // replays from a saved position at once, never a seek that shows the warm-up again.
    let p = preset("seed000-hot4485-b2b").unwrap().params;
    let mut ex = Explorer::new(&p, clock).unwrap();
    ex.set_snapshot_budget(snapshot_budget("strip"));
    ex.seek_time(p.warmup_s as f64 + 0.001);
    let mut t = 0.0;
    until_paused(&mut ex, &mut t);
    let (ev, at) = (ex.events(), ex.t_s());
    ex.step();
    ex.step_back();
    let st = ex.status();
    assert_eq!((st.mode, st.events), ("paused", ev), "{}", st.narration);
    ex.step_back();
    let st = ex.status();
    assert_eq!(
        (st.mode, st.events),
        ("paused", ev - 1.0),
        "{}",
        st.narration
    );
    assert!(
        st.t_s <= at && st.t_s > at - 0.01,
        "{} s, from {at} s",
        st.t_s
    );
    assert_eq!(st.phase, "scan");
}

#[test]
fn while_a_watched_batch_evicts_the_code_panel_shows_the_counters_numbers() {
    let mut ex = seed_before_batch();
    ex.strip_resize(800.0, 400.0);
    ex.watch();
    let mut t = 0.0;
    let mut seen = 0;
    for _ in 0..2000 {
        t += 16.0;
        ex.frame(t);
        ex.strip_update(t);
        if ex.mode != Mode::Watching(Watch::Evict { start: 0.0 })
            && !matches!(ex.mode, Mode::Watching(Watch::Evict { .. }))
        {
            if seen > 0 {
                break;
            }
            continue;
        }
        let st = ex.status();
        let vars = ex.code_state().vars;
        let var = |name: &str| vars.iter().find(|v| v.name == name).unwrap().value.clone();
        assert!(
            var("free_len").starts_with(&format!("{} ", n(st.free))),
            "{} / {}",
            var("free_len"),
            st.free
        );
        assert_eq!(var("len"), n(st.lru));
        assert_eq!(var("old_len"), n(st.old));
        seen += 1;
    }
    assert!(seen > 10, "{seen} frames of the eviction animation");
}

/// Runs to just after the first LRU batch that refills the free list.
fn after_first_batch(ex: &mut Explorer, t: &mut f64) {
    ex.next_batch();
    until_paused(ex, t);
    assert!(ex.status().at_batch);
    ex.step();
    assert!(ex.after_batch());
}

#[test]
fn a_drain_scrubs_to_each_frame_and_back() {
    let mut ex = Explorer::new(&small(), clock).unwrap();
    let mut t = 0.0;
    after_first_batch(&mut ex, &mut t);
    let d = ex.drain_pos();
    assert!(d.size > 8, "{d:?}");
    assert_eq!(d.k, 0);
    // Forward to the middle, to the end, back to the middle, back to the start, one frame on.
    // A read can take several frames at once (linear read-ahead takes 64): a scrub lands on
    // the first read that has taken at least k.
    for k in [d.size / 2, d.size, d.size / 2, 0, 1, 2, d.size - 1] {
        assert!(ex.scrub_drain(k));
        let st = ex.status();
        assert_eq!(
            (st.drain_size, st.free),
            (d.size, d.size - st.drain_k),
            "k = {k}"
        );
        assert!(
            st.drain_k >= k && st.drain_k < k + 64,
            "k = {k}: at {}",
            st.drain_k
        );
        assert_eq!(st.mode, "paused");
    }
    assert!(ex.scrub_drain(d.size));
    assert_eq!(ex.status().free, 0);
    // One frame back from the end is the read before it, not the end again.
    assert!(ex.scrub_drain(d.size - 1));
    let k = ex.status().drain_k;
    assert!(k < d.size && ex.status().free == d.size - k, "at {k}");
    assert!(ex.scrub_drain(k + 1));
    let k2 = ex.status().drain_k;
    assert!(k2 > k, "{k} -> {k2}");
    // The same moment whichever way it was reached.
    assert!(ex.scrub_drain(d.size / 3));
    let a = (ex.events(), ex.status().lru);
    assert!(ex.scrub_drain(d.size));
    assert!(ex.scrub_drain(d.size / 3));
    assert_eq!((ex.events(), ex.status().lru), a);
}

#[test]
fn no_drain_to_scrub_before_the_first_batch() {
    let mut ex = Explorer::new(&small(), clock).unwrap();
    assert_eq!(ex.drain_pos(), DrainPos::default());
    let ev = ex.events();
    assert!(!ex.scrub_drain(3));
    assert_eq!(ex.events(), ev);
}

#[test]
fn at_the_slowest_speed_a_watched_drain_takes_one_read_at_a_time_after_the_last_has_settled() {
    let mut ex = Explorer::new(&small(), clock).unwrap();
    ex.strip_resize(800.0, 400.0);
    let mut t = 0.0;
    ex.set_speed(0);
    ex.watch();
    // To the drain.
    let mut guard = 0;
    while ex.status().mode != "watching" || ex.drain_pos().size == 0 || ex.drain_pos().k == 0 {
        t += 16.0;
        ex.frame(t);
        ex.strip_update(t);
        guard += 1;
        assert!(guard < 200_000, "never reached the drain");
    }
    assert_eq!(ex.status().speed_index, 0);
    let mut last = ex.status().free;
    for _ in 0..600 {
        t += 16.0;
        ex.frame(t);
        let free = ex.status().free;
        if free < last {
            assert!(
                !ex.strip.moving(),
                "a read began before the last one's pages settled"
            );
        }
        ex.strip_update(t);
        assert!(last - free <= 64, "{} frames in one frame", last - free);
        last = free;
    }
    // Paused mid-drain: the next picture is at rest.
    ex.pause();
    t += 16.0;
    ex.strip_update(t);
    assert!(!ex.strip.moving());
}

impl Explorer {
    /// The reference of a seek: one event at a time, each with the view's bookkeeping, to
    /// where a seek to `target` lands (a batch: the event before the next step that refills,
    /// found by stepping a copy of the simulation), then paused there as a seek leaves it.
    fn seek_by_steps(&mut self, target: Seek) {
        self.clear_seek();
        self.at_batch = false;
        let found = match target {
            Seek::Event(e) => loop {
                if self.cur.events() >= e {
                    break true;
                }
                if self.fwd(false).ev == Event::End {
                    break false;
                }
            },
            Seek::Time(t) => loop {
                if self.cur.sim.now() >= t {
                    break true;
                }
                if self.fwd(false).ev == Event::End {
                    break false;
                }
            },
            Seek::Batch => {
                let mut sim = self.cur.sim.clone();
                let b0 = sim.batches().len();
                let (j, found) = loop {
                    let e = sim.events();
                    if sim.step() == Event::End {
                        break (e, false);
                    }
                    if sim.batches().len() > b0 {
                        break (e, true);
                    }
                };
                while self.cur.events() < j {
                    self.fwd(false);
                }
                if !found {
                    self.fwd(false);
                }
                found
            }
        };
        self.mode = Mode::Seeking(target);
        self.seek_done(target, found, 0.0);
    }
}

/// What a figure publishes at a moment: the status (without how the last seek got there),
/// the code panel and the cells, as JSON.
fn published(ex: &mut Explorer) -> (String, String, Vec<u8>) {
    ex.settle();
    let mut st = serde_json::to_value(ex.status()).unwrap();
    for how in ["seek", "seek_replayed", "scouted_s"] {
        st.as_object_mut().unwrap().remove(how);
    }
    (
        st.to_string(),
        serde_json::to_string(&ex.code_state()).unwrap(),
        ex.cells().to_vec(),
    )
}

/// A preset of the page, shortened so that stepping through it one event at a time is quick.
fn short_preset(i: usize) -> Params {
    let all = crate::ui::presets::page_presets();
    let p = &all[i % all.len()].params;
    Params {
        warmup_s: p.warmup_s.min(4),
        scan_s: p.scan_s.min(8),
        kept_window_s: p.kept_window_s.min(4),
        ..p.clone()
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 24, ..Default::default() })]

    /// A seek (by event, by time, to the next batch; twice, the second from where the first
    /// landed) at full speed publishes what stepping there one event at a time does, field
    /// for field: the status, the narration, the code panel and the cells.
    #[test]
    fn a_fast_seek_equals_stepping_there(
        preset in 0usize..64,
        first in 0u8..3,
        second in 0u8..3,
        a in 0.001f64..1.0,
        b in 0.001f64..1.0,
    ) {
        let p = short_preset(preset);
        let mut fast = Explorer::new(&p, clock).unwrap();
        let mut slow = Explorer::new(&p, clock).unwrap();
        // Highlights fade over frames, which the reference does not run: off in both.
        fast.set_reduced_motion(true);
        slow.set_reduced_motion(true);
        let (total, end) = {
            let mut s = midpoint_core::sim::Simulation::new(fast.params()).unwrap();
            s.run_to_end();
            (s.events(), s.end())
        };
        let mut t = 0.0;
        for (kind, x) in [(first, a), (second, b)] {
            // Forward of where it stands, up to a little past the end.
            let (ev, now) = (fast.cur.events(), fast.cur.sim.now());
            let target = match kind {
                0 => Seek::Event(ev + (x * 1.05 * total.saturating_sub(ev) as f64) as u64),
                1 => Seek::Time(now + 1 + (x * 1.05 * end.saturating_sub(now) as f64) as Micros),
                _ => Seek::Batch,
            };
            match target {
                Seek::Event(e) => fast.seek_event(e as f64),
                Seek::Time(tt) => fast.seek_time(to_secs(tt) - to_secs(EPOCH)),
                Seek::Batch => fast.next_batch(),
            }
            until_paused(&mut fast, &mut t);
            if target == Seek::Batch && slow.at_batch {
                // Paused just before a batch, the next one is past it.
                slow.fwd(false);
            }
            // seek_time takes seconds: the reference stops where the fast one aimed.
            let target = match target {
                Seek::Time(tt) => Seek::Time(EPOCH + ((to_secs(tt) - to_secs(EPOCH)) * SEC as f64) as Micros),
                other => other,
            };
            slow.seek_by_steps(target);
            let (f, s) = (published(&mut fast), published(&mut slow));
            proptest::prop_assert_eq!(&f.0, &s.0, "status after {:?}", target);
            proptest::prop_assert_eq!(&f.1, &s.1, "code after {:?}", target);
            proptest::prop_assert!(f.2 == s.2, "cells after {:?}", target);
        }
    }
}

/// The rings of the cells as drawn now, checked against the pool: a black ring on a page that
/// is young, a pink ring on a hot-set page that is old. Returns the pink rings.
fn rings_agree_with_the_pool(ex: &Explorer, when: &str) -> u32 {
    let mut pink = 0;
    for &b in ex.cells() {
        let (kind, old) = (b & 7, b & grid::OLD != 0);
        match b & grid::MARK_MASK {
            grid::MARK_YOUNG => assert!(!old, "{when}: a black ring on an old page"),
            grid::MARK_OLD => {
                assert!(
                    old && kind == grid::K_HOT,
                    "{when}: a pink ring on {kind} (old {old})"
                );
                pink += 1;
            }
            _ => {}
        }
    }
    pink
}

#[test]
fn rings_say_what_the_pool_holds_after_boundary_drain_end_and_watch() {
    // The small pool's figure: boundary steps, drains' ends and watched refills, one after the
    // other, the rings checked at rest and during every watched refill.
    let p = preset("small-demo").unwrap().params;
    let mut ex = Explorer::new(&p, clock).unwrap();
    ex.resize(600, 400, 1.0);
    let mut t = 0.0;
    let mut pink = 0;
    for round in 0..6 {
        ex.step_boundary();
        until_paused(&mut ex, &mut t);
        ex.render();
        pink += rings_agree_with_the_pool(&ex, &format!("round {round}, boundary step"));
        ex.step_drain_end();
        until_paused(&mut ex, &mut t);
        ex.render();
        rings_agree_with_the_pool(&ex, &format!("round {round}, drain's end"));
        ex.watch();
        for i in 0..100_000 {
            t += 16.0;
            ex.frame(t);
            ex.render();
            pink += rings_agree_with_the_pool(&ex, &format!("round {round}, watch frame {i}"));
            if ex.status().mode == "paused" {
                break;
            }
        }
    }
    assert!(pink > 0, "some batch demoted hot pages");
}

#[test]
fn a_move_made_while_seeking_acts_once_the_seek_lands() {
    // Step while recomputing the way to the scan's start: one event after it, not one event
    // after wherever the seek had got to.
    let mut ex = Explorer::new(&small(), clock).unwrap();
    let start = ex.status().scan_start_s;
    let mut reference = Explorer::new(&small(), clock).unwrap();
    reference.seek_time(start);
    let mut t = 0.0;
    until_paused(&mut reference, &mut t);
    let there = reference.events();
    ex.seek_time(start);
    assert_eq!(ex.status().mode, "seeking");
    ex.step();
    ex.step();
    let mut t = 16.0;
    until_paused(&mut ex, &mut t);
    assert_eq!(
        ex.events(),
        there + 1.0,
        "the latest move, once, at the moment"
    );
    // Pause while seeking: the seek still lands, paused, and nothing kept runs.
    let mut ex = Explorer::new(&small(), clock).unwrap();
    ex.seek_time(start);
    ex.watch();
    ex.pause();
    let mut t = 16.0;
    until_paused(&mut ex, &mut t);
    assert_eq!(ex.events(), there);
    // Play while seeking: plays from the moment.
    let mut ex = Explorer::new(&small(), clock).unwrap();
    ex.seek_time(start);
    ex.play();
    let mut t = 16.0;
    for _ in 0..1000 {
        t += 16.0;
        ex.frame(t);
        if ex.status().mode == "playing" {
            break;
        }
    }
    assert_eq!(ex.status().mode, "playing");
    assert!(ex.t_s() >= start);
}

/// Whether `s` counts one of something with a plural noun ("1 pages", "1 frames").
fn one_with_a_plural(s: &str) -> Option<String> {
    const NOUNS: [&str; 6] = [
        "pages",
        "frames",
        "reads",
        "touches",
        "scanned-table pages",
        "hot pages",
    ];
    let b = s.as_bytes();
    for (i, _) in s.match_indices("1 ") {
        let before = if i == 0 { b' ' } else { b[i - 1] };
        if before.is_ascii_digit() || before == b',' || before == b'.' {
            continue;
        }
        let rest = &s[i + 2..];
        if NOUNS.iter().any(|n| {
            rest.starts_with(n) && !rest[n.len()..].starts_with(|c: char| c.is_alphanumeric())
        }) {
            return Some(s[i.saturating_sub(30)..(i + 30).min(s.len())].to_string());
        }
    }
    None
}

#[test]
fn counts_agree_with_their_nouns_in_the_narration_and_the_code_panel() {
    assert_eq!(
        one_with_a_plural("turned 1 pages young").as_deref(),
        Some("turned 1 pages young")
    );
    assert_eq!(one_with_a_plural("turned 21 pages young, 1 page old"), None);
    // After a restart the growth slide turns one page young at a time: step through it (the
    // article's growth figure).
    let p = preset("seed000-restart-hot4485-b2b").unwrap().params;
    let mut ex = Explorer::new(&p, clock).unwrap();
    let start = ex.status().scan_start_s;
    ex.seek_time(start);
    let mut t = 0.0;
    until_paused(&mut ex, &mut t);
    let mut ones = 0;
    for _ in 0..400 {
        ex.step();
        let st = ex.status();
        let code = ex.code_state().at.map(|c| c.what).unwrap_or_default();
        for s in [&st.narration, &code] {
            assert_eq!(one_with_a_plural(s), None, "{s}");
        }
        if code.contains("turned 1 page young") {
            ones += 1;
        }
    }
    assert!(ones > 0, "no step turned exactly one page young");
}

use super::*;
use crate::scenario::preset;
use crate::ui::query::MAX_SAFE_INTEGER;

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
    let p = Params {
        pool_mb: 4096,
        ..small()
    };
    let e = Explorer::new(&p, clock).err().unwrap();
    assert!(e.contains("pool_mb = 4096"), "{e}");
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

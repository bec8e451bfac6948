//! The LRU list of one buffer pool instance, with its old sublist (`buf0lru.cc`).
//!
//! Frames are plain `u32` indices into parallel arrays (`prev`, `next`, `old`, `stamp`, `tag`);
//! `NIL` ends a list. The head is the young end, the tail the eviction end. `old_ptr` is InnoDB's
//! `LRU_old` (the old page nearest the head) and `old_len` its `LRU_old_len`.

/// End-of-list marker for frame indices.
pub const NIL: u32 = u32::MAX;
/// `BUF_LRU_OLD_MIN_LEN`: below this LRU length there is no old sublist.
pub const OLD_MIN_LEN: u32 = 512;
/// `BUF_LRU_OLD_RATIO_DIV`: the denominator of the old ratio.
pub const OLD_RATIO_DIV: u32 = 1024;
/// `BUF_LRU_OLD_RATIO_MIN`: the lowest old ratio (5 %).
pub const OLD_RATIO_MIN: u32 = 51;
/// `BUF_LRU_OLD_RATIO_MAX`.
pub const OLD_RATIO_MAX: u32 = 1024;
/// `BUF_LRU_OLD_TOLERANCE`: the boundary's dead band, in pages each way.
pub const OLD_TOLERANCE: u32 = 20;
/// `BUF_LRU_NON_OLD_MIN_LEN`: with the tolerance, the fewest young pages.
pub const NON_OLD_MIN_LEN: u32 = 5;

/// Converts `innodb_old_blocks_pct` to the ratio in 1/1024ths, as `buf_LRU_old_ratio_update_instance`.
pub fn old_ratio_from_pct(pct: u32) -> u32 {
    (pct * OLD_RATIO_DIV / 100).clamp(OLD_RATIO_MIN, OLD_RATIO_MAX)
}

/// What the boundary did during one call that can move it: pages it turned young (tail-ward
/// steps) and pages it turned old (head-ward steps), by table tag.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SlideCounters {
    /// Pages whose old flag the boundary cleared, per tag.
    pub turned_young: Vec<u64>,
    /// Pages whose old flag the boundary set (bulk demotion), per tag.
    pub turned_old: Vec<u64>,
    /// Of `turned_young`: pages turned young while an insert took the list to a length it never
    /// had before (the pool filling up after a restart), per tag. The rest is the refill slide.
    pub growth_young: Vec<u64>,
}

impl SlideCounters {
    fn bump(v: &mut Vec<u64>, tag: u8) {
        let i = tag as usize;
        if v.len() <= i {
            v.resize(i + 1, 0);
        }
        v[i] += 1;
    }
    /// Total pages turned young by the slide.
    pub fn total_young(&self) -> u64 {
        self.turned_young.iter().sum()
    }
    /// Total pages turned old by the slide.
    pub fn total_old(&self) -> u64 {
        self.turned_old.iter().sum()
    }
}

/// One instance's LRU list.
#[derive(Clone, Debug)]
pub struct Lru {
    prev: Vec<u32>,
    next: Vec<u32>,
    old: Vec<bool>,
    in_list: Vec<bool>,
    /// `bpage->freed_page_clock`: the eviction clock when the page was last put at the head.
    stamp: Vec<u32>,
    /// Which table (space) the frame's page belongs to; for metrics and drawing only.
    tag: Vec<u8>,
    head: u32,
    tail: u32,
    len: u32,
    old_ptr: u32,
    old_len: u32,
    ratio: u32,
    /// `buf_pool->freed_page_clock`: pages removed from the page hash (evictions) so far.
    freed_page_clock: u64,
    /// Pages the boundary passed, by tag, since creation.
    pub slides: SlideCounters,
    /// The longest the list has been: an insert past it is pool growth, not a refill.
    max_len: u32,
    /// Set while `add_block` adjusts the boundary after an insert past `max_len`.
    growing: bool,
    /// When set, every frame whose old flag the boundary changes is appended here, and every
    /// frame that takes a new page (for the animation and the marks of the page's views); the
    /// owner drains it.
    pub slide_log: Option<Vec<(u32, ListNote)>>,
    /// What-if rules of the boundary (all off in stock InnoDB).
    pub adjust: AdjustWhatIfs,
}

/// An entry of [`Lru::slide_log`]: what happened to a frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListNote {
    /// The boundary turned its page young (a shrink step of `buf_LRU_old_adjust_len`).
    TurnedYoung,
    /// The boundary turned its page old (a grow step, or a batch's bulk demotion).
    TurnedOld,
    /// The frame took a new page (a read or a create into it).
    NewPage,
}

/// What-if changes to the boundary rule (see [`super::what_if`]); all off by default.
#[derive(Clone, Debug, Default)]
pub struct AdjustWhatIfs {
    /// `free-frames-count-as-old`: the target counts the frames not in the list as old.
    pub count_free_as_old: bool,
    /// `slide-spares-fresh`: per frame, until when (µs) the tail-ward step must not turn it
    /// young (`Micros::MAX`: not accessed yet). Empty when the what-if is off.
    pub fresh_until: Vec<crate::clock::Micros>,
    /// `slide-spares-fresh`: the time of the latest operation on the list.
    pub now: crate::clock::Micros,
    /// `slide-spares-fresh`: how far above its target the old sublist may grow (pages).
    pub max_excess: u32,
    /// `slide-spares-fresh`: `innodb_old_blocks_time` in µs.
    pub window_us: crate::clock::Micros,
}

impl AdjustWhatIfs {
    /// `slide-spares-fresh`: notes the time of an operation (a no-op when the what-if is off).
    #[inline]
    pub fn note_time(&mut self, now: crate::clock::Micros) {
        if !self.fresh_until.is_empty() && now > self.now {
            self.now = now;
        }
    }
}

impl Lru {
    /// An empty list able to hold `capacity` frames, with the given old ratio (1/1024ths).
    pub fn new(capacity: u32, ratio: u32) -> Self {
        let n = capacity as usize;
        Lru {
            prev: vec![NIL; n],
            next: vec![NIL; n],
            old: vec![false; n],
            in_list: vec![false; n],
            stamp: vec![0; n],
            tag: vec![0; n],
            head: NIL,
            tail: NIL,
            len: 0,
            old_ptr: NIL,
            old_len: 0,
            ratio: ratio.clamp(OLD_RATIO_MIN, OLD_RATIO_MAX),
            freed_page_clock: 0,
            slides: SlideCounters::default(),
            max_len: 0,
            growing: false,
            slide_log: None,
            adjust: AdjustWhatIfs::default(),
        }
    }

    /// The longest the list has been; an insert past it is pool growth.
    pub fn longest(&self) -> u32 {
        self.max_len
    }

    /// Number of frames this list can hold.
    pub fn capacity(&self) -> u32 {
        self.prev.len() as u32
    }
    /// `UT_LIST_GET_LEN(LRU)`.
    pub fn len(&self) -> u32 {
        self.len
    }
    /// True when no page is in the list.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// `LRU_old_len`.
    pub fn old_len(&self) -> u32 {
        self.old_len
    }
    /// `LRU_old`, or `NIL` while the list is shorter than 512.
    pub fn old_ptr(&self) -> u32 {
        self.old_ptr
    }
    /// The old ratio `r` in 1/1024ths.
    pub fn ratio(&self) -> u32 {
        self.ratio
    }
    /// The eviction clock `C`.
    pub fn freed_page_clock(&self) -> u64 {
        self.freed_page_clock
    }
    /// First frame (young end).
    pub fn head(&self) -> u32 {
        self.head
    }
    /// Last frame (eviction end).
    pub fn tail(&self) -> u32 {
        self.tail
    }
    /// Next frame toward the tail.
    #[inline]
    pub fn next(&self, f: u32) -> u32 {
        self.next[f as usize]
    }
    /// Next frame toward the head.
    #[inline]
    pub fn prev(&self, f: u32) -> u32 {
        self.prev[f as usize]
    }
    /// The page's old flag.
    #[inline]
    pub fn is_old(&self, f: u32) -> bool {
        self.old[f as usize]
    }
    /// Every frame's old flag (a frame off the list: false or stale).
    #[inline]
    pub fn old_flags(&self) -> &[bool] {
        &self.old
    }
    /// Pages in the list by tag: `[young, old]` for each tag value below `N`. One pass over
    /// the flag arrays, branch-free, eight frames at a time in a word's bytes (SWAR: what SIMD
    /// does natively, also in a WASM build without it), the counts in registers (the sampler
    /// takes it every sample; the list's order does not matter).
    pub fn young_old_by_tag<const N: usize>(&self) -> [[u32; 2]; N] {
        super::tag_count::count_by_tag(&self.tag, &self.old, &self.in_list)
    }
    /// Whether the frame is linked into the list.
    #[inline]
    pub fn contains(&self, f: u32) -> bool {
        self.in_list[f as usize]
    }
    /// The page's clock stamp `c(p)`.
    #[inline]
    pub fn stamp(&self, f: u32) -> u32 {
        self.stamp[f as usize]
    }
    /// The frame's table tag.
    #[inline]
    pub fn tag(&self, f: u32) -> u8 {
        self.tag[f as usize]
    }
    /// Sets the tag of a frame about to be inserted.
    #[inline]
    pub fn set_tag(&mut self, f: u32, tag: u8) {
        self.tag[f as usize] = tag;
        if let Some(log) = self.slide_log.as_mut() {
            log.push((f, ListNote::NewPage));
        }
    }
    /// Sets the tag and resets the stamp of frames about to be inserted by reads
    /// (`buf_page_init_for_read`: a fresh read's stamp is 0).
    pub fn reset_for_read(&mut self, frames: &[u32], tag: u8) {
        let n = self.tag.len();
        let (tags, stamps) = (&mut self.tag[..n], &mut self.stamp[..n]);
        for &f in frames {
            tags[f as usize] = tag;
            stamps[f as usize] = 0;
        }
        if let Some(log) = self.slide_log.as_mut() {
            log.extend(frames.iter().map(|&f| (f, ListNote::NewPage)));
        }
    }
    /// Resets the stamp of a frame about to be inserted (`buf_page_init`: 0 for a fresh read).
    #[inline]
    pub fn clear_stamp(&mut self, f: u32) {
        self.stamp[f as usize] = 0;
    }
    /// Counts one page removed from the page hash (`buf_LRU_block_remove_hashed`: `C += 1`).
    #[inline]
    pub fn bump_freed_page_clock(&mut self) {
        self.freed_page_clock += 1;
    }

    /// `calculate_desired_LRU_old_size`: `min(L*r/1024, L - 25)` (only called with `L >= 512`).
    pub fn desired_old_len(&self, len: u32) -> u32 {
        let by_ratio = if self.adjust.count_free_as_old {
            // What-if free-frames-count-as-old (changes calculate_desired_LRU_old_size): the
            // target is taken over every frame, the free ones counted as old, so it moves by one
            // page per page the list gains or loses, as the old length does on a midpoint insert
            // or a tail eviction.
            let cap = self.capacity();
            let full = (cap as u64 * self.ratio as u64 / OLD_RATIO_DIV as u64) as u32;
            full.saturating_sub(cap.saturating_sub(len))
        } else {
            (len as u64 * self.ratio as u64 / OLD_RATIO_DIV as u64) as u32
        };
        by_ratio.min(len.saturating_sub(OLD_TOLERANCE + NON_OLD_MIN_LEN))
    }

    /// The most the old length may exceed its target before `buf_LRU_old_adjust_len` shrinks
    /// it: the dead band, plus what `slide-spares-fresh` lets it hold back.
    pub fn upper_band(&self) -> u32 {
        if self.adjust.fresh_until.is_empty() {
            OLD_TOLERANCE
        } else {
            OLD_TOLERANCE + self.adjust.max_excess
        }
    }

    /// What-if slide-spares-fresh (changes buf_LRU_old_adjust_len): whether the tail-ward step
    /// must stop at `LRU_old` = `f` rather than turn it young.
    #[inline]
    fn spares(&self, f: u32, target: u32) -> bool {
        let a = &self.adjust;
        !a.fresh_until.is_empty()
            && a.fresh_until[f as usize] > a.now
            && self.old_len <= target + OLD_TOLERANCE + a.max_excess
            && self.old_len + OLD_TOLERANCE + NON_OLD_MIN_LEN < self.len
    }

    #[inline]
    fn set_old(&mut self, f: u32, old: bool) {
        self.old[f as usize] = old;
    }

    fn log_slide(&mut self, f: u32, turned_old: bool) {
        let tag = self.tag[f as usize];
        if turned_old {
            SlideCounters::bump(&mut self.slides.turned_old, tag);
        } else {
            SlideCounters::bump(&mut self.slides.turned_young, tag);
            if self.growing {
                SlideCounters::bump(&mut self.slides.growth_young, tag);
            }
        }
        if let Some(log) = self.slide_log.as_mut() {
            let note = if turned_old {
                ListNote::TurnedOld
            } else {
                ListNote::TurnedYoung
            };
            log.push((f, note));
        }
    }

    /// Whether `buf_LRU_old_adjust_len` leaves an old length of `old` where it is against `target`.
    #[inline]
    fn in_band(old: u32, target: u32) -> bool {
        old + OLD_TOLERANCE >= target && old <= target + OLD_TOLERANCE
    }

    /// `buf_LRU_old_adjust_len`: moves the boundary one page at a time until the old length is
    /// within ±20 of the target, which is computed once before the loop.
    fn old_adjust_len(&mut self) {
        debug_assert!(self.old_ptr != NIL);
        let target = self.desired_old_len(self.len);
        loop {
            if self.old_len + OLD_TOLERANCE < target {
                // Grow toward the head: the bottom young page becomes old.
                let p = self.prev[self.old_ptr as usize];
                self.old_ptr = p;
                self.old_len += 1;
                self.set_old(p, true);
                self.log_slide(p, true);
            } else if self.old_len > target + OLD_TOLERANCE {
                // Shrink toward the tail: the former first-old page becomes young.
                let was = self.old_ptr;
                if self.spares(was, target) {
                    return;
                }
                self.old_ptr = self.next[was as usize];
                self.old_len -= 1;
                self.set_old(was, false);
                self.log_slide(was, false);
            } else {
                return;
            }
        }
    }

    /// `buf_LRU_old_init`: called when the list reaches exactly 512 pages; every page is made old,
    /// then the boundary shrinks from the head side.
    fn old_init(&mut self) {
        let mut f = self.tail;
        while f != NIL {
            self.set_old(f, true);
            f = self.prev[f as usize];
        }
        self.old_ptr = self.head;
        self.old_len = self.len;
        // The pages turned young here are not a slide of the running boundary; count them apart.
        let log = self.slide_log.take();
        let saved = self.slides.clone();
        self.old_adjust_len();
        self.slides = saved;
        self.slide_log = log;
    }

    fn link_head(&mut self, f: u32) {
        let i = f as usize;
        self.prev[i] = NIL;
        self.next[i] = self.head;
        if self.head != NIL {
            self.prev[self.head as usize] = f;
        } else {
            self.tail = f;
        }
        self.head = f;
        self.in_list[i] = true;
        self.len += 1;
    }

    fn link_after(&mut self, after: u32, f: u32) {
        let i = f as usize;
        let n = self.next[after as usize];
        self.prev[i] = after;
        self.next[i] = n;
        self.next[after as usize] = f;
        if n != NIL {
            self.prev[n as usize] = f;
        } else {
            self.tail = f;
        }
        self.in_list[i] = true;
        self.len += 1;
    }

    /// `unlink` then `link_head` of a listed page, in one: the length and the page's membership
    /// stay as they are.
    #[inline]
    fn relink_at_head(&mut self, f: u32) {
        let head = self.head;
        if f == head {
            return;
        }
        let i = f as usize;
        let (p, n) = (self.prev[i], self.next[i]);
        // Not the head, so it has a predecessor.
        self.next[p as usize] = n;
        if n != NIL {
            self.prev[n as usize] = p;
        } else {
            self.tail = p;
        }
        self.prev[i] = NIL;
        self.next[i] = head;
        self.prev[head as usize] = f;
        self.head = f;
    }

    fn unlink(&mut self, f: u32) {
        let i = f as usize;
        let (p, n) = (self.prev[i], self.next[i]);
        if p != NIL {
            self.next[p as usize] = n;
        } else {
            self.head = n;
        }
        if n != NIL {
            self.prev[n as usize] = p;
        } else {
            self.tail = p;
        }
        self.prev[i] = NIL;
        self.next[i] = NIL;
        self.in_list[i] = false;
        self.len -= 1;
    }

    /// `buf_LRU_add_block_low`: a page wanted old goes right after `LRU_old` (no clock stamp);
    /// otherwise, or while the list is shorter than 512, it goes to the head and is stamped.
    pub fn add_block(&mut self, f: u32, want_old: bool) {
        debug_assert!(!self.in_list[f as usize]);
        if !want_old || self.len < OLD_MIN_LEN {
            self.link_head(f);
            self.stamp[f as usize] = self.freed_page_clock as u32;
        } else {
            debug_assert!(self.old_ptr != NIL);
            self.link_after(self.old_ptr, f);
            self.old_len += 1;
        }
        // Inserts past the longest the list has been: the pool is growing (after a restart),
        // and buf_LRU_old_adjust_len slides LRU_old tail-ward by about 1 - r/1024 per insert.
        self.growing = self.len > self.max_len;
        self.max_len = self.max_len.max(self.len);
        if self.len > OLD_MIN_LEN {
            self.set_old(f, want_old);
            self.old_adjust_len();
        } else if self.len == OLD_MIN_LEN {
            self.old_init();
        } else {
            self.set_old(f, self.old_ptr != NIL);
        }
        self.growing = false;
    }

    /// `buf_LRU_remove_block`: unlinks a page, with the fix-up when it is `LRU_old` itself.
    pub fn remove_block(&mut self, f: u32) {
        debug_assert!(self.in_list[f as usize]);
        if f == self.old_ptr {
            let p = self.prev[f as usize];
            debug_assert!(p != NIL, "at least 5 young pages above LRU_old");
            self.old_ptr = p;
            self.set_old(p, true);
            self.old_len += 1;
        }
        self.unlink(f);
        if self.len < OLD_MIN_LEN {
            let mut g = self.head;
            while g != NIL {
                self.set_old(g, false);
                g = self.next[g as usize];
            }
            self.old_ptr = NIL;
            self.old_len = 0;
            self.set_old(f, false);
            return;
        }
        if self.old[f as usize] {
            self.old_len -= 1;
        }
        self.set_old(f, false);
        self.old_adjust_len();
    }

    /// Whether `k` pairs of (`remove_block` of the tail, `add_block(_, true)` of a fresh frame)
    /// would leave the boundary where it is: the tail and the `k - 1` frames above it are old
    /// and below `LRU_old`, and neither half of a pair takes the old length out of its dead
    /// band. A pair brings `(len, old_len)` back to where it started, so one pair's test holds
    /// for all `k`. Only for stock InnoDB's boundary (no `slide-spares-fresh`).
    pub(crate) fn pairs_keep_boundary(&self, k: u32) -> bool {
        self.adjust.fresh_until.is_empty()
            && self.len > OLD_MIN_LEN
            && self.old_ptr != NIL
            && self.old_len > k
            && Self::in_band(self.old_len - 1, self.desired_old_len(self.len - 1))
            && Self::in_band(self.old_len, self.desired_old_len(self.len))
    }

    /// What `k` pairs of (`remove_block` of the tail, `add_block(_, true)` of the frame just
    /// freed) do when [`Self::pairs_keep_boundary`] holds and the frames are reused in eviction
    /// order: each insert lands right after `LRU_old`, above the one before it, so the `k`
    /// frames at the tail, `first` (the `k`-th from the tail) to the tail, end up right after
    /// `LRU_old` in the same order, old, with the eviction clock `k` higher; lengths and
    /// `LRU_old` are unchanged. (The caller resets their stamps: a fresh read's is 0.)
    pub(crate) fn splice_tail_after_old(&mut self, first: u32, k: u32) {
        debug_assert!(self.pairs_keep_boundary(k));
        let last = self.tail;
        // Cut [first, last] from the tail.
        let above = self.prev[first as usize];
        self.next[above as usize] = NIL;
        self.tail = above;
        // Paste it right after LRU_old.
        let below = self.next[self.old_ptr as usize];
        self.next[self.old_ptr as usize] = first;
        self.prev[first as usize] = self.old_ptr;
        self.next[last as usize] = below;
        if below != NIL {
            self.prev[below as usize] = last;
        } else {
            self.tail = last;
        }
        self.freed_page_clock += k as u64;
    }

    /// `buf_LRU_make_block_young`: remove, then re-add at the head with a fresh stamp.
    /// Returns whether the page was old (the only case `n_pages_made_young` counts).
    pub fn make_block_young(&mut self, f: u32) -> bool {
        let was_old = self.old[f as usize];
        if !self.move_to_head_in_band(f, was_old) {
            self.remove_block(f);
            self.add_block(f, false);
        }
        was_old
    }

    /// [`Self::make_block_young`]'s common cases at once: when each of the two calls of
    /// `buf_LRU_old_adjust_len` (after the removal, at length `L − 1`, and after the insert at
    /// the head, at `L`) moves the boundary at most one page head-ward (the bottom young page
    /// turns old, as when a scan with `innodb_old_blocks_time` 0 promotes each of its pages with
    /// the old sublist at the bottom of its band), the page is relinked at the head, stamped,
    /// its old flag cleared, and those slides made. Returns false, changing nothing, in any
    /// other case (`f` is `LRU_old`, the list is at most 512 long, a tail-ward or longer slide,
    /// or a slide that would reach `f` or the head).
    #[inline]
    fn move_to_head_in_band(&mut self, f: u32, was_old: bool) -> bool {
        if self.old_ptr == NIL || f == self.old_ptr || self.len <= OLD_MIN_LEN {
            return false;
        }
        // Whether one adjustment leaves the old length (Some(false)), grows it by exactly one
        // page (Some(true)), or does more (None).
        let grows = |old: u32, target: u32| {
            if Self::in_band(old, target) {
                Some(false)
            } else if old + OLD_TOLERANCE < target && old + 1 + OLD_TOLERANCE >= target {
                Some(true)
            } else {
                None
            }
        };
        let mut old_len = self.old_len - was_old as u32;
        // After the removal: the page above LRU_old once `f` is unlinked turns old.
        let Some(first) = grows(old_len, self.desired_old_len(self.len - 1)) else {
            return false;
        };
        let mut ptr = self.old_ptr;
        let mut first_page = NIL;
        if first {
            first_page = self.prev[ptr as usize];
            if first_page == NIL || first_page == f {
                return false;
            }
            ptr = first_page;
            old_len += 1;
        }
        // After the insert at the head: the page above LRU_old then (not `f`, and not the old
        // head, whose predecessor becomes `f`).
        let Some(second) = grows(old_len, self.desired_old_len(self.len)) else {
            return false;
        };
        let mut second_page = NIL;
        if second {
            second_page = self.prev[ptr as usize];
            if second_page == NIL || second_page == f || ptr == self.head {
                return false;
            }
            old_len += 1;
        }
        self.old[f as usize] = false;
        for p in [first_page, second_page] {
            if p != NIL {
                self.old_ptr = p;
                self.set_old(p, true);
                self.log_slide(p, true);
            }
        }
        self.relink_at_head(f);
        self.stamp[f as usize] = self.freed_page_clock as u32;
        self.old_len = old_len;
        true
    }

    /// `buf_LRU_old_ratio_update_instance` with `adjust = true`: sets `r` and, if it changed and
    /// the old sublist exists, moves the boundary to the new target in one call.
    pub fn set_ratio(&mut self, ratio: u32) {
        let ratio = ratio.clamp(OLD_RATIO_MIN, OLD_RATIO_MAX);
        if ratio != self.ratio {
            self.ratio = ratio;
            if self.len >= OLD_MIN_LEN && self.old_ptr != NIL {
                self.old_adjust_len();
            }
        }
    }

    /// `buf_page_peek_if_young`: true while fewer than a quarter of the young sublist's nominal
    /// length of pages were evicted since the page was last put at the head.
    /// `n` is the instance's `curr_size`.
    #[inline]
    pub fn peek_if_young(&self, f: u32, n: u32) -> bool {
        let quarter = n as u64 * (OLD_RATIO_DIV - self.ratio) as u64 / (OLD_RATIO_DIV as u64 * 4);
        (self.freed_page_clock & ((1u64 << 31) - 1)) < self.stamp[f as usize] as u64 + quarter
    }

    /// The quarter-rule threshold `N·(1024−r)/4096` for an instance of `n` frames.
    pub fn quarter_threshold(&self, n: u32) -> u64 {
        n as u64 * (OLD_RATIO_DIV - self.ratio) as u64 / (OLD_RATIO_DIV as u64 * 4)
    }

    /// Iterates frames from head to tail.
    pub fn iter(&self) -> LruIter<'_> {
        LruIter {
            lru: self,
            cur: self.head,
        }
    }

    /// Checks this list's own invariants (links, lengths, the old flags contiguous from
    /// `LRU_old` to the tail, the boundary within its dead band). Part of `buf_LRU_validate`.
    pub fn validate(&self) -> Result<(), String> {
        let mut count = 0u32;
        let mut prev = NIL;
        let mut f = self.head;
        let mut seen_old = false;
        let mut old_count = 0u32;
        let mut first_old = NIL;
        while f != NIL {
            if count > self.capacity() {
                return Err("LRU list has a cycle".into());
            }
            let i = f as usize;
            if !self.in_list[i] {
                return Err(format!("frame {f} linked but not marked in list"));
            }
            if self.prev[i] != prev {
                return Err(format!("frame {f}: prev link {} != {}", self.prev[i], prev));
            }
            if self.old[i] {
                if !seen_old {
                    first_old = f;
                }
                seen_old = true;
                old_count += 1;
            } else if seen_old {
                return Err(format!("young frame {f} below an old frame"));
            }
            count += 1;
            prev = f;
            f = self.next[i];
        }
        if prev != self.tail {
            return Err("tail pointer does not end the list".into());
        }
        if count != self.len {
            return Err(format!("walked {count} frames, len says {}", self.len));
        }
        let marked = self.in_list.iter().filter(|&&b| b).count() as u32;
        if marked != count {
            return Err(format!("{marked} frames marked in list, {count} linked"));
        }
        if old_count != self.old_len {
            return Err(format!(
                "{old_count} frames flagged old, LRU_old_len says {}",
                self.old_len
            ));
        }
        if self.len < OLD_MIN_LEN {
            if self.old_ptr != NIL || self.old_len != 0 {
                return Err(format!(
                    "list of {} pages has an old sublist ({})",
                    self.len, self.old_len
                ));
            }
        } else {
            if self.old_ptr != first_old {
                return Err(format!(
                    "LRU_old is {} but the first old frame is {first_old}",
                    self.old_ptr
                ));
            }
            let target = self.desired_old_len(self.len);
            if self.old_len + OLD_TOLERANCE < target || self.old_len > target + self.upper_band() {
                return Err(format!(
                    "old_len {} outside {target} - {OLD_TOLERANCE} ..= {target} + {}",
                    self.old_len,
                    self.upper_band()
                ));
            }
        }
        for (i, &inl) in self.in_list.iter().enumerate() {
            if !inl && self.old[i] {
                return Err(format!("frame {i} not in list but flagged old"));
            }
        }
        Ok(())
    }
}

/// Head-to-tail iterator over an LRU list.
pub struct LruIter<'a> {
    lru: &'a Lru,
    cur: u32,
}

impl Iterator for LruIter<'_> {
    type Item = u32;
    fn next(&mut self) -> Option<u32> {
        if self.cur == NIL {
            None
        } else {
            let f = self.cur;
            self.cur = self.lru.next[f as usize];
            Some(f)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filled(n: u32, cap: u32, want_old: bool) -> Lru {
        let mut l = Lru::new(cap, old_ratio_from_pct(37));
        for f in 0..n {
            l.add_block(f, want_old);
            l.validate().unwrap();
        }
        l
    }

    #[test]
    fn ratio_from_pct_matches_reference() {
        assert_eq!(old_ratio_from_pct(37), 378);
        assert_eq!(old_ratio_from_pct(5), 51);
        assert_eq!(old_ratio_from_pct(20), 204);
        assert_eq!(old_ratio_from_pct(50), 512);
        assert_eq!(old_ratio_from_pct(75), 768);
        assert_eq!(old_ratio_from_pct(95), 972);
        assert_eq!(old_ratio_from_pct(1), 51);
    }

    #[test]
    fn old_init_at_512_gives_209() {
        let l = filled(511, 600, true);
        assert_eq!(l.old_ptr(), NIL);
        assert_eq!(l.old_len(), 0);
        let mut l = l;
        l.add_block(511, true);
        assert_eq!(l.len(), 512);
        assert_eq!(l.desired_old_len(512), 189);
        assert_eq!(l.old_len(), 209);
        // The top 303 pages are young again.
        let young = l.iter().take_while(|&f| !l.is_old(f)).count();
        assert_eq!(young, 303);
        l.validate().unwrap();
    }

    #[test]
    fn desired_old_len_worked_number() {
        let l = Lru::new(1, old_ratio_from_pct(37));
        assert_eq!(l.desired_old_len(16_382), 6_047);
        let l95 = Lru::new(1, old_ratio_from_pct(95));
        assert_eq!(l95.desired_old_len(512), 486); // 512 * 972 / 1024
                                                   // At the maximum ratio the L - 25 term keeps five young pages beyond the dead band.
        let lmax = Lru::new(1, OLD_RATIO_MAX);
        assert_eq!(lmax.desired_old_len(512), 487);
    }

    #[test]
    fn quarter_threshold_worked_number() {
        let l = Lru::new(1, old_ratio_from_pct(37));
        assert_eq!(l.quarter_threshold(16_382), 2_583);
    }

    #[test]
    fn midpoint_insert_goes_right_after_lru_old() {
        let mut l = filled(1000, 1100, true);
        let b = l.old_ptr();
        l.add_block(1000, true);
        // Either still right after B, or the boundary stepped tail-ward: B turned young and
        // the new page, right below it, became LRU_old.
        assert_eq!(l.prev(1000), b);
        assert!(l.is_old(1000));
        if l.old_ptr() != b {
            assert_eq!(l.old_ptr(), 1000);
            assert!(!l.is_old(b));
        }
        l.validate().unwrap();
    }

    #[test]
    fn remove_of_lru_old_moves_pointer_up() {
        let mut l = filled(1000, 1100, true);
        let b = l.old_ptr();
        let above = l.prev(b);
        l.remove_block(b);
        l.validate().unwrap();
        assert!(l.is_old(above) || l.old_ptr() != above);
        assert!(!l.contains(b));
    }

    #[test]
    fn shrinking_below_512_clears_the_old_sublist() {
        let mut l = filled(512, 600, true);
        assert!(l.old_len() > 0);
        let t = l.tail();
        l.remove_block(t);
        assert_eq!(l.old_len(), 0);
        assert_eq!(l.old_ptr(), NIL);
        assert!(l.iter().all(|f| !l.is_old(f)));
        l.validate().unwrap();
    }

    #[test]
    fn head_insert_stamps_midpoint_insert_does_not() {
        let mut l = filled(600, 700, true);
        for _ in 0..10 {
            let t = l.tail();
            l.remove_block(t);
            l.bump_freed_page_clock();
        }
        l.clear_stamp(600);
        l.add_block(600, true);
        assert_eq!(l.stamp(600), 0);
        l.clear_stamp(601);
        l.add_block(601, false);
        assert_eq!(l.stamp(601), 10);
        assert_eq!(l.head(), 601);
    }

    /// An empty pool filled by midpoint inserts (a restart): past 512 pages each insert adds one
    /// old page where the target grows by r/1024, so `buf_LRU_old_adjust_len` turns about
    /// (1 - r/1024) of a page young per insert; every such slide counts as growth. A refill
    /// below the high-water mark afterwards counts as no growth.
    #[test]
    fn growth_slide_of_an_empty_pool_follows_one_minus_r() {
        for pct in [37u32, 5, 60] {
            let n = 4_056;
            let mut l = Lru::new(n, old_ratio_from_pct(pct));
            for f in 0..n {
                l.add_block(f, true);
            }
            let r = l.ratio() as f64 / OLD_RATIO_DIV as f64;
            let expect = (n - OLD_MIN_LEN) as f64 * (1.0 - r);
            let grown = l.slides.growth_young.iter().sum::<u64>() as f64;
            assert_eq!(grown, l.slides.total_young() as f64);
            // The dead band leaves the boundary anywhere within ±20 of its target, plus the
            // ±1 of each integer target.
            assert!(
                (grown - expect).abs() <= (OLD_TOLERANCE + 2) as f64,
                "pct {pct}: {grown} turned young by growth, formula {expect:.1}"
            );
            // Refill and drain: slides, but no growth.
            for _ in 0..1024 {
                let t = l.tail();
                l.remove_block(t);
            }
            let y0 = l.slides.total_young();
            for f in 0..n {
                if !l.contains(f) {
                    l.add_block(f, true);
                }
            }
            assert!(l.slides.total_young() > y0);
            assert_eq!(l.slides.growth_young.iter().sum::<u64>() as f64, grown);
            l.validate().unwrap();
        }
    }

    /// A refill of 1,024 evictions then a drain of 1,024 midpoint inserts, at L = 16,382,
    /// slides the boundary by 1024 − 378 − 40 = 606 pages each way (reference §11.3).
    #[test]
    fn refill_then_drain_slides_606_pages() {
        let n = 16_382;
        let mut l = Lru::new(n, old_ratio_from_pct(37));
        // Fill with midpoint inserts and settle.
        for f in 0..n {
            l.add_block(f, true);
        }
        // Steady state: evict one, insert one, until d sits at the top of its band (as after a
        // drain): insert/evict pairs keep d in the band.
        let mut free: Vec<u32> = Vec::new();
        // Refill: evict 1024 from the tail.
        // Make d start at +20: drain enough inserts first (free some, then re-add).
        for _ in 0..200 {
            let t = l.tail();
            l.remove_block(t);
            free.push(t);
        }
        for f in free.drain(..) {
            l.add_block(f, true);
        }
        let d0 = l.old_len() as i64 - l.desired_old_len(l.len()) as i64;
        assert_eq!(d0, 20, "a drain leaves the boundary at the top of its band");
        let s0 = l.slides.total_old();
        for _ in 0..1024 {
            let t = l.tail();
            l.remove_block(t);
            l.bump_freed_page_clock();
            free.push(t);
        }
        let demoted = l.slides.total_old() - s0;
        assert_eq!(demoted, 606);
        let y0 = l.slides.total_young();
        let mut inserted = Vec::new();
        for f in free.drain(..) {
            l.add_block(f, true);
            inserted.push(f);
        }
        let promoted_by_slide = l.slides.total_young() - y0;
        assert_eq!(promoted_by_slide, 606);
        // The first step clears the page that was LRU_old after the refill; every later step
        // clears one of the newest inserts, so 605 of the inserted pages are young, contiguous
        // right above the new LRU_old, with the former LRU_old above them.
        let young_new = inserted.iter().filter(|&&f| !l.is_old(f)).count();
        assert_eq!(young_new, 605);
        let mut f = l.prev(l.old_ptr());
        for _ in 0..605 {
            assert!(inserted.contains(&f));
            f = l.prev(f);
        }
        assert!(!inserted.contains(&f));
        l.validate().unwrap();
    }

    #[test]
    fn set_ratio_moves_boundary_in_one_call() {
        let mut l = filled(2000, 2000, true);
        l.set_ratio(old_ratio_from_pct(90));
        l.validate().unwrap();
        let t = l.desired_old_len(2000);
        assert!(l.old_len().abs_diff(t) <= 20);
        l.set_ratio(old_ratio_from_pct(5));
        l.validate().unwrap();
    }
}

#[cfg(test)]
mod validator_tests {
    use super::*;

    fn list() -> Lru {
        let mut l = Lru::new(2000, old_ratio_from_pct(37));
        for f in 0..1500 {
            l.add_block(f, true);
        }
        l.validate().unwrap();
        l
    }

    #[test]
    fn catches_a_young_page_below_an_old_one() {
        let mut l = list();
        let t = l.tail();
        l.old[t as usize] = false;
        assert!(l.validate().unwrap_err().contains("young frame"));
    }

    #[test]
    fn catches_a_wrong_old_len() {
        let mut l = list();
        l.old_len += 1;
        assert!(l.validate().unwrap_err().contains("LRU_old_len"));
    }

    #[test]
    fn catches_a_broken_prev_link() {
        let mut l = list();
        let h = l.head();
        let n = l.next(h);
        l.prev[n as usize] = NIL;
        assert!(l.validate().unwrap_err().contains("prev link"));
    }

    #[test]
    fn catches_the_boundary_outside_its_dead_band() {
        let mut l = list();
        // Move LRU_old 25 pages toward the head by hand, flags and length included.
        for _ in 0..25 {
            let p = l.prev[l.old_ptr as usize];
            l.old_ptr = p;
            l.old[p as usize] = true;
            l.old_len += 1;
        }
        assert!(l.validate().unwrap_err().contains("outside"));
    }
}

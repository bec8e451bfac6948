//! The flush list of one instance (`buf_pool->flush_list`): the dirty pages in
//! oldest-modification order, with each frame's modification LSNs and its write io-fix.
//!
//! Only instances of a pool with the write path on have one ([`super::Instance::flush`] is
//! `None` otherwise), so a read-only run pays nothing for it.

use std::collections::BTreeSet;

use crate::clock::Micros;

/// `write_done` of a frame queued in a doublewrite buffer whose write is not issued yet.
pub const WRITE_PENDING: Micros = Micros::MAX;

/// Which kind of flush is writing a page (`buf_flush_t`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FlushType {
    /// `BUF_FLUSH_LRU`: the page is evicted when its write completes.
    Lru,
    /// `BUF_FLUSH_LIST`: the page stays in the LRU list, clean.
    List,
    /// `BUF_FLUSH_SINGLE_PAGE`: a user thread's synchronous write; evicted at completion.
    Single,
}

/// Per-frame dirty state and the flush list of one instance.
#[derive(Clone, Debug)]
pub struct FlushList {
    /// `oldest_modification` per frame (0 = clean).
    oldest: Vec<u64>,
    /// `newest_modification` per frame.
    newest: Vec<u64>,
    /// When the frame's page write completes (0 = not being written; [`WRITE_PENDING`] =
    /// queued in a doublewrite buffer). The page is io-fixed `BUF_IO_WRITE` meanwhile.
    write_done: Vec<Micros>,
    /// The flush type of the write in progress.
    write_type: Vec<FlushType>,
    /// The flush list: (oldest_modification, frame), oldest first (InnoDB's tail).
    list: BTreeSet<(u64, u32)>,
    /// Frames with a write in progress or queued.
    pub(crate) n_writing: u32,
    /// `buf_pool->n_flush[flush_type]`: writes of each type not yet completed.
    n_flush: [u32; 3],
}

impl FlushList {
    /// All `n` frames clean.
    pub fn new(n: u32) -> Self {
        FlushList {
            oldest: vec![0; n as usize],
            newest: vec![0; n as usize],
            write_done: vec![0; n as usize],
            write_type: vec![FlushType::List; n as usize],
            list: BTreeSet::new(),
            n_writing: 0,
            n_flush: [0; 3],
        }
    }
    /// `UT_LIST_GET_LEN(flush_list)`: dirty pages.
    pub fn len(&self) -> u32 {
        self.list.len() as u32
    }
    /// `buf_pool->n_flush[kind]`: writes of that type queued or in flight. `buf_flush_start`
    /// refuses a new batch of a type while its previous batch has writes outstanding.
    pub fn n_flush(&self, kind: FlushType) -> u32 {
        self.n_flush[kind as usize]
    }
    /// Whether no page is dirty.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
    /// `oldest_modification` of frame `f` (0 = clean).
    #[inline]
    pub fn oldest(&self, f: u32) -> u64 {
        self.oldest[f as usize]
    }
    /// `newest_modification` of frame `f`.
    pub fn newest(&self, f: u32) -> u64 {
        self.newest[f as usize]
    }
    /// When frame `f`'s write completes (0: no write).
    #[inline]
    pub fn write_done(&self, f: u32) -> Micros {
        self.write_done[f as usize]
    }
    /// The flush type of frame `f`'s write.
    pub fn write_type(&self, f: u32) -> FlushType {
        self.write_type[f as usize]
    }
    /// Whether frame `f` is io-fixed for a write.
    #[inline]
    pub fn is_write_fixed(&self, f: u32) -> bool {
        self.write_done[f as usize] != 0
    }
    /// `buf_flush_ready_for_replace`'s write-path half: clean and not being written.
    #[inline]
    pub fn clean_and_unfixed(&self, f: u32) -> bool {
        self.oldest[f as usize] == 0 && self.write_done[f as usize] == 0
    }
    /// The smallest `oldest_modification` (`buf_pool_get_oldest_modification_approx`), or 0.
    pub fn oldest_lsn(&self) -> u64 {
        self.list.first().map_or(0, |&(l, _)| l)
    }
    /// The flush list, oldest modification first.
    pub fn iter(&self) -> impl Iterator<Item = (u64, u32)> + '_ {
        self.list.iter().copied()
    }

    /// `buf_flush_note_modification` (→ `buf_flush_insert_into_flush_list`): a
    /// mini-transaction that changed frame `f` commits at `lsn`.
    pub fn note_modification(&mut self, f: u32, lsn: u64) {
        let i = f as usize;
        if self.oldest[i] == 0 {
            self.oldest[i] = lsn;
            self.list.insert((lsn, f));
        }
        self.newest[i] = lsn;
    }

    /// `buf_flush_page` (io-fix `BUF_IO_WRITE`): the write of frame `f` is queued.
    pub fn set_writing(&mut self, f: u32, kind: FlushType) {
        debug_assert!(self.oldest[f as usize] != 0 && self.write_done[f as usize] == 0);
        self.write_done[f as usize] = WRITE_PENDING;
        self.write_type[f as usize] = kind;
        self.n_writing += 1;
        self.n_flush[kind as usize] += 1;
    }
    /// The write of frame `f` is issued and completes at `done`.
    pub fn set_write_done(&mut self, f: u32, done: Micros) {
        self.write_done[f as usize] = done;
    }

    /// `buf_flush_write_complete` → `buf_flush_remove`: the page is clean, out of the flush
    /// list, and no longer io-fixed.
    pub fn write_complete(&mut self, f: u32) {
        let i = f as usize;
        if self.oldest[i] != 0 {
            self.list.remove(&(self.oldest[i], f));
        }
        self.oldest[i] = 0;
        self.newest[i] = 0;
        self.write_done[i] = 0;
        self.n_writing -= 1;
        self.n_flush[self.write_type[i] as usize] -= 1;
    }

    /// `buf_flush_remove` for a page leaving the pool dirty (never in these workloads: kept for
    /// the validator's sake when a frame is reused).
    pub fn reset(&mut self, f: u32) {
        debug_assert!(self.oldest[f as usize] == 0 && self.write_done[f as usize] == 0);
        self.newest[f as usize] = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flush_list_is_ordered_by_oldest_modification_and_first_change_only() {
        let mut fl = FlushList::new(8);
        fl.note_modification(3, 10);
        fl.note_modification(1, 20);
        fl.note_modification(3, 30); // already dirty: oldest stays 10
        assert_eq!(fl.oldest(3), 10);
        assert_eq!(fl.newest(3), 30);
        assert_eq!(fl.oldest_lsn(), 10);
        assert_eq!(fl.iter().collect::<Vec<_>>(), vec![(10, 3), (20, 1)]);
        fl.set_writing(3, FlushType::List);
        assert!(!fl.clean_and_unfixed(3));
        fl.set_write_done(3, 500);
        fl.write_complete(3);
        assert!(fl.clean_and_unfixed(3));
        assert_eq!(fl.oldest_lsn(), 20);
        assert_eq!(fl.len(), 1);
    }
}

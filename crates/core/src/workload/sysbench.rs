//! sysbench's OLTP transactions (sysbench 1.0 `oltp_common.lua`, `oltp_write_only.lua`,
//! `oltp_read_write.lua`) as page accesses.
//!
//! What is modelled, per transaction (defaults of the scripts: `--index_updates=1`,
//! `--non_index_updates=1`, `--delete_inserts=1`, `--point_selects=10`, `--simple_ranges=1`,
//! `--sum_ranges=1`, `--order_ranges=1`, `--distinct_ranges=1`, `--range_size=100`):
//!
//! - `BEGIN`: CPU only.
//! - read-write only: 10 point selects (`SELECT c WHERE id=?`: the primary-key leaf), and 4 range
//!   selects of 100 rows (`BETWEEN ? AND ?+99`: the leaf holding the first id and the next one,
//!   since 100 rows of about 70 per page span two leaves).
//! - `UPDATE SET k=k+1 WHERE id=?` (index update): the primary-key leaf is changed, and the
//!   secondary index `k` loses the old entry and gains the new one: `k` and `k+1` sort next to each
//!   other, so one secondary leaf changes.
//! - `UPDATE SET c=? WHERE id=?` (non-index update): the primary-key leaf.
//! - `DELETE WHERE id=?` then `INSERT` of the same id with a new random `k`: the primary-key leaf
//!   (twice), the secondary leaf of the old `k` (delete-mark) and the one of the new `k`.
//! - `COMMIT`: the redo is made durable (`innodb_flush_log_at_trx_commit=1`, group commit; a fixed
//!   wait, not on the device) and the activity counter moves (`trx_commit_in_memory` →
//!   `srv_active_wake_master_thread`).
//!
//! Not modelled: non-leaf B-tree pages (always resident), undo pages, purge, locks between
//! transactions (different rows), and the filesort CPU of the ordered/distinct ranges beyond the
//! per-statement CPU. The primary-key id is drawn with `--rand-type` (sysbench 1.0's default is
//! `special`); the secondary `k` values are uniform (sysbench fills `k` uniformly).

use super::LookupDist;
use crate::pool::PageId;
use crate::rng::Rng;
use serde::{Deserialize, Serialize};

/// Which script.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mix {
    /// `oltp_write_only.lua`.
    WriteOnly,
    /// `oltp_read_write.lua`.
    ReadWrite,
}

impl Mix {
    /// Parses `write-only` / `read-write`.
    pub fn parse(s: &str) -> Result<Mix, String> {
        match s {
            "write-only" | "oltp_write_only" => Ok(Mix::WriteOnly),
            "read-write" | "oltp_read_write" => Ok(Mix::ReadWrite),
            _ => Err(format!("unknown mix '{s}': use write-only or read-write")),
        }
    }
    /// The inverse of [`Mix::parse`].
    pub fn label(self) -> &'static str {
        match self {
            Mix::WriteOnly => "write-only",
            Mix::ReadWrite => "read-write",
        }
    }
}

/// One step of a transaction: a page access (read or change) or the commit; each carries the CPU
/// time that follows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Statement start, CPU only.
    Begin,
    /// Read a page.
    Read(PageId),
    /// Change a page (a row write: redo, dirty page).
    Write(PageId),
    /// `COMMIT`.
    Commit,
}

/// The tables and the transaction generator.
#[derive(Clone, Debug)]
pub struct Sysbench {
    /// The script.
    pub mix: Mix,
    /// Clustered-index (primary key) leaf pages: space `pk_space`, pages `0..pk_pages`.
    pub pk_space: u32,
    pub pk_pages: u32,
    /// Secondary index `k` leaf pages.
    pub sec_space: u32,
    pub sec_pages: u32,
    /// `--rand-type` for the ids.
    pub dist: LookupDist,
}

impl Sysbench {
    fn pk(&self, rng: &mut Rng) -> PageId {
        let n = self.pk_pages.max(1);
        let page_no = match self.dist {
            LookupDist::Uniform => rng.below(n),
            LookupDist::Special => {
                let special = (n / 100).max(1);
                if n <= special || rng.below(100) < 75 {
                    rng.below(special.min(n))
                } else {
                    special + rng.below(n - special)
                }
            }
        };
        PageId {
            space: self.pk_space,
            page_no,
        }
    }
    fn sec(&self, rng: &mut Rng) -> PageId {
        PageId {
            space: self.sec_space,
            page_no: rng.below(self.sec_pages.max(1)),
        }
    }

    /// The hot set of the `special` distribution: pages `0..hot_pages()` of the primary key.
    pub fn hot_pages(&self) -> u32 {
        (self.pk_pages / 100).max(1)
    }

    /// One transaction's steps, in order.
    pub fn transaction(&self, rng: &mut Rng, out: &mut Vec<Step>) {
        out.clear();
        out.push(Step::Begin);
        if self.mix == Mix::ReadWrite {
            for _ in 0..10 {
                let p = self.pk(rng);
                out.push(Step::Read(p));
            }
            for _ in 0..4 {
                let p = self.pk(rng);
                out.push(Step::Read(p));
                if p.page_no + 1 < self.pk_pages {
                    out.push(Step::Read(PageId {
                        page_no: p.page_no + 1,
                        ..p
                    }));
                }
            }
        }
        // Index update: PK leaf and one secondary leaf.
        let p = self.pk(rng);
        out.push(Step::Write(p));
        let s = self.sec(rng);
        out.push(Step::Write(s));
        // Non-index update.
        let p = self.pk(rng);
        out.push(Step::Write(p));
        // Delete + insert of the same id.
        let p = self.pk(rng);
        out.push(Step::Write(p));
        let s_old = self.sec(rng);
        out.push(Step::Write(s_old));
        out.push(Step::Write(p));
        let s_new = self.sec(rng);
        out.push(Step::Write(s_new));
        out.push(Step::Commit);
    }

    /// Statements per transaction, as sysbench counts queries (reads + writes + BEGIN/COMMIT).
    pub fn queries_per_transaction(&self) -> u32 {
        match self.mix {
            // 4 writes + BEGIN + COMMIT
            Mix::WriteOnly => 6,
            // 14 reads + 4 writes + BEGIN + COMMIT
            Mix::ReadWrite => 20,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn write_only_has_seven_page_changes_and_a_commit() {
        let s = Sysbench {
            mix: Mix::WriteOnly,
            pk_space: 0,
            pk_pages: 1000,
            sec_space: 1,
            sec_pages: 100,
            dist: LookupDist::Special,
        };
        let mut rng = Rng::new(1);
        let mut v = Vec::new();
        s.transaction(&mut rng, &mut v);
        assert_eq!(v.iter().filter(|x| matches!(x, Step::Write(_))).count(), 7);
        assert_eq!(v.last(), Some(&Step::Commit));
        let rw = Sysbench {
            mix: Mix::ReadWrite,
            ..s
        };
        rw.transaction(&mut rng, &mut v);
        assert!(v.iter().filter(|x| matches!(x, Step::Read(_))).count() >= 14);
    }
}

//! What-if patches: candidate changes to one InnoDB rule each, off in stock MySQL 8.4. They reach
//! the pool as configuration ([`super::PoolConfig::what_ifs`]); with none on, every rule runs as
//! InnoDB's does. Each rule's code sits in the file of its concept, with a comment naming the
//! MySQL function it changes.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// One candidate change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WhatIf {
    /// `buf_LRU_old_adjust_len`: the tail-ward step stops at a page still within
    /// `innodb_old_blocks_time` of its first access (or not accessed yet).
    SlideSparesFresh,
    /// `calculate_desired_LRU_old_size`: the old sublist's target counts the free frames as old.
    FreeFramesCountAsOld,
    /// `buf_LRU_get_free_block`: a user thread that takes a free frame frees one clean tail
    /// page in its place while the free list is below `innodb_lru_scan_depth`.
    UserReplacesFreeFrame,
    /// `buf_LRU_get_free_block`: a user thread that finds the free list empty wakes the page
    /// cleaner, which refills the free list at once although the server is idle. A hypothesis
    /// for experiment 000's misses (`reproduce --experiment 000 --hypotheses`), not a patch.
    EmptyFreeListWakesCleaner,
}

impl WhatIf {
    /// Every what-if, in listing order.
    pub const ALL: [WhatIf; 4] = [
        WhatIf::SlideSparesFresh,
        WhatIf::FreeFramesCountAsOld,
        WhatIf::UserReplacesFreeFrame,
        WhatIf::EmptyFreeListWakesCleaner,
    ];
    /// The candidate patches the studies and the page compare (the hypotheses left out).
    pub const PATCHES: [WhatIf; 3] = [
        WhatIf::SlideSparesFresh,
        WhatIf::FreeFramesCountAsOld,
        WhatIf::UserReplacesFreeFrame,
    ];

    /// The name on the command line and in URLs.
    pub fn name(self) -> &'static str {
        match self {
            WhatIf::SlideSparesFresh => "slide-spares-fresh",
            WhatIf::FreeFramesCountAsOld => "free-frames-count-as-old",
            WhatIf::UserReplacesFreeFrame => "user-replaces-free-frame",
            WhatIf::EmptyFreeListWakesCleaner => "empty-free-list-wakes-cleaner",
        }
    }

    /// One line: which function, what changes.
    pub fn description(self) -> &'static str {
        match self {
            WhatIf::SlideSparesFresh => "buf_LRU_old_adjust_len: when the old sublist is too long, the boundary stops instead of turning young a page first accessed less than innodb_old_blocks_time ago (or not yet accessed); the old sublist may exceed its target by up to innodb_lru_scan_depth pages until that page ages or leaves",
            WhatIf::FreeFramesCountAsOld => "calculate_desired_LRU_old_size: the old sublist's target is computed over the instance's frames with the free ones counted as old (curr_size*r/1024 - free), so a refill and its drain leave the boundary where it was; identical to stock while the free list is empty",
            WhatIf::UserReplacesFreeFrame => "buf_LRU_get_free_block: a user thread that takes a frame from the free list while it holds fewer than innodb_lru_scan_depth frames frees one clean page from the LRU tail (first 100 pages) in its place, so the free list stays topped up and the LRU length does not swing",
            WhatIf::EmptyFreeListWakesCleaner => "buf_LRU_get_free_block: a user thread that finds the free list empty sets buf_flush_event even though its tail scan frees a page (MySQL 8.4 sets it only after the scan fails), and the woken page cleaner refills the free list to innodb_lru_scan_depth at once although the server is idle (buf_flush_page_coordinator_thread does nothing on a wake without activity): demand-driven refills, as MariaDB 10.11.7+ has; one buffer pool instance only. A hypothesis for experiment 000's misses, not a proposed patch",
        }
    }

    /// Parses a name.
    pub fn parse(s: &str) -> Result<WhatIf, String> {
        let s = s.trim();
        WhatIf::ALL
            .into_iter()
            .find(|w| w.name() == s)
            .ok_or_else(|| {
                format!(
                    "what_if = '{s}' is not one of: {}",
                    WhatIf::ALL.map(|w| w.name()).join(", ")
                )
            })
    }

    fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

/// A set of what-ifs (empty: stock MySQL 8.4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct WhatIfs(u8);

impl WhatIfs {
    /// No patch.
    pub const NONE: WhatIfs = WhatIfs(0);

    /// The set holding just `w`.
    pub fn only(w: WhatIf) -> WhatIfs {
        WhatIfs(w.bit())
    }
    /// Whether `w` is on.
    #[inline]
    pub fn has(self, w: WhatIf) -> bool {
        self.0 & w.bit() != 0
    }
    /// Turns `w` on.
    pub fn insert(&mut self, w: WhatIf) {
        self.0 |= w.bit();
    }
    /// Whether no patch is on.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// The patches on, in listing order.
    pub fn list(self) -> Vec<WhatIf> {
        WhatIf::ALL.into_iter().filter(|&w| self.has(w)).collect()
    }
    /// `none`, or the names joined by commas.
    pub fn label(self) -> String {
        if self.is_empty() {
            "none".into()
        } else {
            self.list()
                .iter()
                .map(|w| w.name())
                .collect::<Vec<_>>()
                .join(",")
        }
    }
    /// Adds the patches named in `s` (comma-separated); `none` (alone) clears the set. An
    /// empty list, an empty name, a name given twice and `none` beside other names are errors.
    pub fn add_parsed(&mut self, s: &str) -> Result<(), String> {
        if s.trim().is_empty() {
            return Err("what_if is empty: give none or one or more of its names".into());
        }
        let parts: Vec<&str> = s.split(',').map(str::trim).collect();
        if parts.iter().any(|p| p.is_empty()) {
            return Err(format!("what_if '{s}' has an empty name between commas"));
        }
        if parts.contains(&"none") {
            if parts.len() > 1 {
                return Err(format!(
                    "what_if '{s}': none (stock MySQL 8.4) cannot be combined with other what-ifs"
                ));
            }
            *self = WhatIfs::NONE;
            return Ok(());
        }
        let mut seen = WhatIfs::NONE;
        for part in parts {
            let w = WhatIf::parse(part)?;
            if seen.has(w) {
                return Err(format!("what_if '{s}' names {part} twice"));
            }
            seen.insert(w);
        }
        for w in seen.list() {
            self.insert(w);
        }
        Ok(())
    }
}

impl Serialize for WhatIfs {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.list().iter().map(|w| w.name()))
    }
}

impl<'de> Deserialize<'de> for WhatIfs {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let names = Vec::<String>::deserialize(d)?;
        let mut w = WhatIfs::NONE;
        for n in names {
            w.insert(WhatIf::parse(&n).map_err(serde::de::Error::custom)?);
        }
        Ok(w)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_back_and_none_clears() {
        let mut s = WhatIfs::NONE;
        for w in WhatIf::ALL {
            assert_eq!(WhatIf::parse(w.name()), Ok(w));
            s.insert(w);
        }
        assert_eq!(s.list().len(), WhatIf::ALL.len());
        let mut t = WhatIfs::NONE;
        t.add_parsed(&s.label()).unwrap();
        assert_eq!(s, t);
        t.add_parsed("none").unwrap();
        assert!(t.is_empty());
        for bad in [
            "",
            " ",
            "none,slide-spares-fresh,none",
            "slide-spares-fresh,",
            "slide-spares-fresh,slide-spares-fresh",
            "none,none",
        ] {
            assert!(t.add_parsed(bad).is_err(), "{bad:?} accepted");
        }
        assert!(t.is_empty());
        assert!(WhatIf::parse("nope")
            .unwrap_err()
            .contains("slide-spares-fresh"));
    }
}

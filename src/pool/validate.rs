//! `buf_LRU_validate`, extended: every invariant of the pool, checked from scratch.

use super::{BufferPool, PageId, NIL};

impl BufferPool {
    /// Checks, for every instance: the LRU links and lengths, the old flags contiguous from
    /// `LRU_old` to the tail, the old length within ±20 of its target (`Lru::validate`); every
    /// frame in exactly one place (the free list or the LRU list); and the page table pointing
    /// exactly at the LRU frames holding each page.
    pub fn validate(&self) -> Result<(), String> {
        let per = self.config().frames_per_instance;
        let mut mapped = 0u64;
        for (i, inst) in self.instances.iter().enumerate() {
            inst.lru
                .validate()
                .map_err(|e| format!("instance {i}: {e}"))?;
            let mut place = vec![0u8; inst.size() as usize];
            for &f in inst.free.frames() {
                if f >= inst.size() {
                    return Err(format!("instance {i}: free frame {f} out of range"));
                }
                if place[f as usize] != 0 {
                    return Err(format!("instance {i}: frame {f} twice on the free list"));
                }
                place[f as usize] = 1;
            }
            for f in inst.lru.iter() {
                if place[f as usize] != 0 {
                    return Err(format!("instance {i}: frame {f} both free and in the LRU"));
                }
                place[f as usize] = 2;
                let page = inst.page(f);
                let g = i as u32 * per + f;
                if self.frame_of(page) != Some(g) {
                    return Err(format!(
                        "instance {i}: frame {f} holds {page:?} but the page table says {:?}",
                        self.frame_of(page)
                    ));
                }
                if self.instance_of(page) != i {
                    return Err(format!("{page:?} is in instance {i}, belongs elsewhere"));
                }
            }
            if let Some(f) = place.iter().position(|&p| p == 0) {
                return Err(format!(
                    "instance {i}: frame {f} is neither free nor in the LRU"
                ));
            }
            mapped += inst.lru.len() as u64;
        }
        let mut entries = 0u64;
        for (s, space) in self.spaces().iter().enumerate() {
            for p in 0..space.n_pages {
                let page = PageId {
                    space: s as u32,
                    page_no: p,
                };
                if let Some(g) = self.frame_of(page) {
                    if g == NIL || self.page_at(g) != Some(page) {
                        return Err(format!(
                            "page table maps {page:?} to frame {g} holding {:?}",
                            self.page_at(g)
                        ));
                    }
                    entries += 1;
                }
            }
        }
        if entries != mapped {
            return Err(format!(
                "{entries} page-table entries for {mapped} LRU pages"
            ));
        }
        self.validate_write_path()
    }
}

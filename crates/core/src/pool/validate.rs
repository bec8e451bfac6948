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

#[cfg(test)]
mod tests {
    use crate::pool::{BufferPool, FetchMode, PageId, PoolConfig};

    fn pool() -> BufferPool {
        let mut p = BufferPool::new(
            PoolConfig {
                frames_per_instance: 700,
                read_latency_us: 0,
                read_ahead_threshold: 0,
                ..PoolConfig::default()
            },
            &[2000],
        );
        for n in 0..600 {
            p.fetch(
                PageId {
                    space: 0,
                    page_no: n,
                },
                FetchMode::Normal,
                1,
            );
        }
        p.validate().unwrap();
        p
    }

    #[test]
    fn catches_a_frame_both_free_and_in_the_lru() {
        let mut p = pool();
        let t = p.instances[0].lru.tail();
        p.instances[0].free.push(t);
        assert!(p.validate().is_err());
    }

    #[test]
    fn catches_a_frame_in_neither_place() {
        let mut p = pool();
        p.instances[0].free.pop();
        assert!(p
            .validate()
            .unwrap_err()
            .contains("neither free nor in the LRU"));
    }

    #[test]
    fn catches_a_page_table_entry_pointing_at_the_wrong_frame() {
        let mut p = pool();
        let a = PageId {
            space: 0,
            page_no: 1,
        };
        let b = PageId {
            space: 0,
            page_no: 2,
        };
        let fb = p.frame_of(b).unwrap();
        p.set_frame_of(a, fb);
        assert!(p.validate().is_err());
    }
}

//! The free list of one instance (`buf_pool->free`): frames holding no page.
//!
//! Frames are interchangeable, but the order is kept as InnoDB keeps it:
//! `buf_LRU_block_free_non_file_page` puts a freed frame at the head and
//! `buf_LRU_get_free_only` takes the first one, so the list is a stack.

/// A LIFO list of free frame indices.
#[derive(Clone, Debug, Default)]
pub struct FreeList {
    frames: Vec<u32>,
}

impl FreeList {
    /// A free list holding every frame `0..n`, first frame on top.
    pub fn full(n: u32) -> Self {
        FreeList {
            frames: (0..n).rev().collect(),
        }
    }
    /// `UT_LIST_GET_LEN(buf_pool->free)`.
    pub fn len(&self) -> u32 {
        self.frames.len() as u32
    }
    /// True when no frame is free.
    pub fn is_empty(&self) -> bool {
        self.frames.is_empty()
    }
    /// `buf_LRU_get_free_only`: takes the first free frame.
    pub fn pop(&mut self) -> Option<u32> {
        self.frames.pop()
    }
    /// `buf_LRU_block_free_non_file_page`: a freed frame goes to the head.
    pub fn push(&mut self, f: u32) {
        self.frames.push(f);
    }
    /// The free frames, most recently freed last.
    pub fn frames(&self) -> &[u32] {
        &self.frames
    }
}

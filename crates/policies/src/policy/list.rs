//! Doubly linked lists threaded through plain arrays indexed by object id.
//!
//! Every policy keeps its queues as [`List`]s over one shared [`Links`]: an object sits in at
//! most one list at a time, so one `prev`/`next` pair per id is enough.

/// No object.
pub const NIL: u32 = u32::MAX;

/// The `prev`/`next` links of every object id, side by side (one cache line holds both).
#[derive(Clone, Debug, Default)]
pub struct Links {
    link: Vec<[u32; 2]>,
}

const P: usize = 0;
const N: usize = 1;

/// One list: head (most recent insert), tail (the next to leave), length.
#[derive(Clone, Copy, Debug)]
pub struct List {
    pub head: u32,
    pub tail: u32,
    pub len: u32,
}

impl Default for List {
    fn default() -> Self {
        List {
            head: NIL,
            tail: NIL,
            len: 0,
        }
    }
}

impl Links {
    /// Makes room for ids `0..n`.
    #[inline]
    pub fn ensure(&mut self, n: usize) {
        if self.link.len() < n {
            let m = n.max(self.link.len() * 2).max(16);
            self.link.resize(m, [NIL, NIL]);
        }
    }
    /// Starts loading `x`'s links.
    #[inline]
    pub fn prefetch(&self, x: u32) {
        super::prefetch(&self.link, x as usize);
    }
    /// The neighbour towards the head.
    #[inline]
    pub fn prev(&self, x: u32) -> u32 {
        self.link[x as usize][P]
    }
    /// The neighbour towards the tail.
    #[inline]
    pub fn next(&self, x: u32) -> u32 {
        self.link[x as usize][N]
    }
    /// Inserts `x` at the head of `l`.
    #[inline]
    pub fn push_head(&mut self, l: &mut List, x: u32) {
        self.link[x as usize] = [NIL, l.head];
        if l.head != NIL {
            self.link[l.head as usize][P] = x;
        } else {
            l.tail = x;
        }
        l.head = x;
        l.len += 1;
    }
    /// Unlinks `x` from `l`.
    #[inline]
    pub fn remove(&mut self, l: &mut List, x: u32) {
        let [p, n] = self.link[x as usize];
        if p != NIL {
            self.link[p as usize][N] = n;
        } else {
            l.head = n;
        }
        if n != NIL {
            self.link[n as usize][P] = p;
        } else {
            l.tail = p;
        }
        l.len -= 1;
    }
    /// Removes and returns the tail of `l` (`NIL` when empty).
    #[inline]
    pub fn pop_tail(&mut self, l: &mut List) -> u32 {
        let t = l.tail;
        if t != NIL {
            self.remove(l, t);
        }
        t
    }
    /// Moves `x`, already in `l`, to its head.
    #[inline]
    pub fn move_to_head(&mut self, l: &mut List, x: u32) {
        if l.head != x {
            self.remove(l, x);
            self.push_head(l, x);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn order(links: &Links, l: &List) -> Vec<u32> {
        let mut v = Vec::new();
        let mut x = l.head;
        while x != NIL {
            v.push(x);
            x = links.next(x);
        }
        v
    }

    #[test]
    fn push_move_remove_pop_keep_order_and_length() {
        let mut k = Links::default();
        k.ensure(8);
        let mut l = List::default();
        for x in [1, 2, 3, 4] {
            k.push_head(&mut l, x);
        }
        assert_eq!(order(&k, &l), vec![4, 3, 2, 1]);
        k.move_to_head(&mut l, 1);
        assert_eq!(order(&k, &l), vec![1, 4, 3, 2]);
        k.remove(&mut l, 3);
        assert_eq!(order(&k, &l), vec![1, 4, 2]);
        assert_eq!(k.pop_tail(&mut l), 2);
        assert_eq!(k.pop_tail(&mut l), 4);
        assert_eq!(k.pop_tail(&mut l), 1);
        assert_eq!(k.pop_tail(&mut l), NIL);
        assert_eq!((l.len, l.head, l.tail), (0, NIL, NIL));
    }
}

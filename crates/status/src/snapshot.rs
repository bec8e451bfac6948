//! One status snapshot as the parser collects it: the pool's total lines, its instances' blocks,
//! its header's time, and where it stands in the paste.

use crate::Value;
use std::collections::BTreeMap;

#[derive(Clone, Default)]
pub(crate) struct Snapshot {
    pub(crate) main: BTreeMap<String, Value>,
    pub(crate) instances: Vec<BTreeMap<String, Value>>,
    pub(crate) time: Option<(f64, usize)>,
    /// The line of its BUFFER POOL AND MEMORY title.
    pub(crate) title_line: Option<usize>,
    /// The last line read inside the pool section, and whether a later section closed it.
    pub(crate) closed: bool,
    /// The last line a value of this snapshot came from.
    pub(crate) last_line: usize,
}

impl Snapshot {
    pub(crate) fn has_values(&self) -> bool {
        !self.main.is_empty() || !self.instances.is_empty()
    }

    /// A counter of this snapshot: its total line, or else the sum of its instances' lines.
    pub(crate) fn counter(&self, k: &str) -> Option<u64> {
        self.main.get(k).and_then(|v| v.value.as_u64()).or_else(|| {
            let v: Vec<u64> = self
                .instances
                .iter()
                .filter_map(|m| m.get(k).and_then(|v| v.value.as_u64()))
                .collect();
            (!v.is_empty()).then(|| v.iter().sum())
        })
    }
}

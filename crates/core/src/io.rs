//! The storage device: one queue on the virtual clock that read misses, page-cleaner flushes,
//! doublewrite writes and fsyncs all share.
//!
//! A request waits for one of `queue_depth` slots (the device's parallelism), then for the
//! device's transfer channel (bytes move one request at a time at `bandwidth`), then completes
//! after its fixed per-request latency. An fsync is a zero-byte request whose latency is the
//! device's cache-flush cost. The model is deliberately small: it gives queueing (many small
//! writes behind one big one, reads behind a flush burst) and a bandwidth ceiling, and it is
//! deterministic. It is used only when a scenario sets a `device`: the read-only presets keep
//! their fixed read latency.

use crate::clock::Micros;
pub use crate::pool::storage::{IoKind, IoStats as DeviceStats, Storage};
use serde::Serialize;

/// A device's characteristics.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DeviceModel {
    /// Preset name.
    pub name: &'static str,
    /// Fixed latency of a read, µs (on top of the transfer).
    pub read_latency_us: Micros,
    /// Fixed latency of a write, µs (on top of the transfer).
    pub write_latency_us: Micros,
    /// Transfer rate, bytes per µs (= MB/s).
    pub bandwidth_mb_s: u64,
    /// Requests in service at once.
    pub queue_depth: u32,
    /// Cost of an fsync (a cache flush), µs.
    pub fsync_us: Micros,
}

impl DeviceModel {
    /// A datacentre NVMe drive (the bug's "NVME 3.2TB"): ~80 µs reads, ~20 µs writes into its
    /// power-protected cache, ~2 GB/s of writes, 64 requests in flight, cheap fsync.
    pub fn nvme() -> DeviceModel {
        DeviceModel {
            name: "nvme",
            read_latency_us: 80,
            write_latency_us: 20,
            bandwidth_mb_s: 2_000,
            queue_depth: 64,
            fsync_us: 50,
        }
    }
    /// A network-attached cloud volume (gp3-like): ~0.5 ms reads, ~1 ms writes, 250 MB/s,
    /// 16 requests in flight, an fsync that costs a round trip.
    pub fn cloud() -> DeviceModel {
        DeviceModel {
            name: "cloud",
            read_latency_us: 500,
            write_latency_us: 1_000,
            bandwidth_mb_s: 250,
            queue_depth: 16,
            fsync_us: 1_000,
        }
    }
    /// The presets' names, as [`DeviceModel::by_name`] reads them.
    pub const NAMES: &'static [&'static str] = &["nvme", "cloud"];

    /// A preset by name: `nvme` or `cloud`.
    pub fn by_name(name: &str) -> Result<DeviceModel, String> {
        match name {
            "nvme" => Ok(Self::nvme()),
            "cloud" => Ok(Self::cloud()),
            _ => Err(format!("unknown device '{name}': use nvme or cloud")),
        }
    }
}

/// The device on the virtual clock.
#[derive(Clone, Debug)]
pub struct Device {
    /// Its characteristics.
    pub model: DeviceModel,
    /// When each slot is free again.
    slots: Vec<Micros>,
    /// When the transfer channel is free again.
    xfer_free: Micros,
    /// Counters.
    pub stats: DeviceStats,
}

impl Device {
    /// An idle device.
    pub fn new(model: DeviceModel) -> Device {
        Device {
            slots: vec![0; model.queue_depth.max(1) as usize],
            xfer_free: 0,
            model,
            stats: DeviceStats::default(),
        }
    }

    /// Submits a request at `now`; returns when it completes.
    pub fn submit(&mut self, now: Micros, kind: IoKind, bytes: u64) -> Micros {
        // The slot that frees first (lowest index on ties: deterministic).
        let (k, &free_at) = self
            .slots
            .iter()
            .enumerate()
            .min_by_key(|&(i, &t)| (t, i))
            .expect("at least one slot");
        let start = now.max(free_at);
        let bw = self.model.bandwidth_mb_s.max(1);
        let xfer = bytes.div_ceil(bw);
        let xfer_start = if bytes > 0 {
            start.max(self.xfer_free)
        } else {
            start
        };
        let xfer_end = xfer_start + xfer;
        if bytes > 0 {
            self.xfer_free = xfer_end;
        }
        let lat = match kind {
            IoKind::Read => self.model.read_latency_us,
            IoKind::Write => self.model.write_latency_us,
            IoKind::Fsync => self.model.fsync_us,
        };
        let done = xfer_end + lat;
        self.slots[k] = done;
        match kind {
            IoKind::Read => {
                self.stats.reads += 1;
                self.stats.bytes_read += bytes;
            }
            IoKind::Write => {
                self.stats.writes += 1;
                self.stats.bytes_written += bytes;
            }
            IoKind::Fsync => self.stats.fsyncs += 1,
        }
        self.stats.total_latency_us += done - now;
        if kind == IoKind::Read {
            self.stats.read_latency_us += done - now;
        }
        done
    }
}

impl Storage for Device {
    fn submit(&mut self, now: Micros, kind: IoKind, bytes: u64) -> Micros {
        Device::submit(self, now, kind, bytes)
    }
    fn stats(&self) -> &DeviceStats {
        &self.stats
    }
    fn clone_box(&self) -> Box<dyn Storage> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn idle_device_costs_latency_plus_transfer() {
        let mut d = Device::new(DeviceModel::nvme());
        assert_eq!(d.submit(100, IoKind::Read, 16_384), 100 + 9 + 80);
        assert_eq!(d.submit(1_000, IoKind::Fsync, 0), 1_050);
    }

    #[test]
    fn a_big_write_delays_the_small_ones_behind_it() {
        let mut d = Device::new(DeviceModel::nvme());
        let big = d.submit(0, IoKind::Write, 2 << 20);
        let small = d.submit(0, IoKind::Write, 16_384);
        assert!(small > big - 20, "{small} {big}");
    }

    #[test]
    fn queue_depth_limits_parallelism() {
        let mut m = DeviceModel::cloud();
        m.queue_depth = 2;
        let mut d = Device::new(m);
        let a = d.submit(0, IoKind::Fsync, 0);
        let b = d.submit(0, IoKind::Fsync, 0);
        let c = d.submit(0, IoKind::Fsync, 0);
        assert_eq!((a, b), (1_000, 1_000));
        assert_eq!(c, 2_000);
    }
}

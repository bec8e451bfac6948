//! What the pool asks of the storage device: a request goes in at a time, a completion time comes
//! back. The device model itself (queues, bandwidth, latencies) lives in the simulation
//! (the `io` module, one floor up); the pool only sees this interface, so it can be lifted out
//! alone.

use crate::clock::Micros;
use serde::Serialize;

/// What a request is, for the counters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IoKind {
    /// A page read.
    Read,
    /// A write of `bytes`.
    Write,
    /// An fsync.
    Fsync,
}

/// Device counters.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct IoStats {
    pub reads: u64,
    pub writes: u64,
    pub fsyncs: u64,
    pub bytes_read: u64,
    pub bytes_written: u64,
    /// Sum over requests of (completion − submission), µs.
    pub total_latency_us: u64,
    /// The same, reads only.
    pub read_latency_us: u64,
}

/// The storage the write path hands its reads, writes and fsyncs to (`os_aio` / `fil_io` in
/// InnoDB terms: the pool decides what to write and when; the device says when it is done).
pub trait Storage: std::fmt::Debug {
    /// Submits a request at `now`; returns when it completes.
    fn submit(&mut self, now: Micros, kind: IoKind, bytes: u64) -> Micros;
    /// The counters so far.
    fn stats(&self) -> &IoStats;
    /// A copy of the device in its current state (the pool is `Clone`).
    fn clone_box(&self) -> Box<dyn Storage>;
}

impl Clone for Box<dyn Storage> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

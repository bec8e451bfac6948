//! libCacheSim's `oracleGeneral` format: 24-byte little-endian records `u32 timestamp (s),
//! u64 obj_id, u32 obj_size, i64 next_access_vtime` (the position of the object's next
//! request, −1 for none).

use super::Request;
use std::io::{self, Read, Write};

/// Bytes per record.
pub const RECORD: usize = 24;

/// A streaming reader of `oracleGeneral` records.
pub struct OracleReader<R: Read> {
    inner: R,
    buf: Vec<u8>,
    pos: usize,
    end: usize,
    index: u64,
    eof: bool,
    last_ts: u32,
    records: Option<u64>,
    allow_decreasing: bool,
}

/// The largest object size accepted, bytes: sizes from 2³¹ up are a negative number or a
/// sentinel written as unsigned (0xFFFFFFFF), not an object.
pub const MAX_OBJ_SIZE: u32 = i32::MAX as u32;

impl<R: Read> OracleReader<R> {
    /// Reads records from `inner` (buffered here; no need for a `BufReader`).
    pub fn new(inner: R) -> Self {
        OracleReader {
            inner,
            buf: vec![0; RECORD * 16_384],
            pos: 0,
            end: 0,
            index: 0,
            eof: false,
            last_ts: 0,
            records: None,
            allow_decreasing: false,
        }
    }

    /// The trace holds `n` records (a file's length / 24): a next access must then point
    /// inside it.
    pub fn with_records(mut self, n: u64) -> Self {
        self.records = Some(n);
        self
    }

    /// Accepts timestamps that go back in time (libCacheSim's own traces never do); the
    /// replay then takes such a request as happening at the latest time seen.
    pub fn allow_decreasing_time(mut self, yes: bool) -> Self {
        self.allow_decreasing = yes;
        self
    }

    fn refill(&mut self) -> io::Result<()> {
        self.buf.copy_within(self.pos..self.end, 0);
        self.end -= self.pos;
        self.pos = 0;
        while self.end < self.buf.len() {
            let n = self.inner.read(&mut self.buf[self.end..])?;
            if n == 0 {
                self.eof = true;
                break;
            }
            self.end += n;
        }
        Ok(())
    }

    /// The next request, `Ok(None)` at the end, or an error naming the bad record.
    #[inline]
    pub fn next_request(&mut self) -> Result<Option<Request>, String> {
        if self.end - self.pos < RECORD {
            if !self.eof {
                self.refill()
                    .map_err(|e| format!("reading the trace: {e}"))?;
            }
            if self.end - self.pos < RECORD {
                let left = self.end - self.pos;
                if left == 0 {
                    return Ok(None);
                }
                return Err(format!(
                    "the trace ends with {left} bytes after record {}: not a whole {RECORD}-byte oracleGeneral record",
                    self.index
                ));
            }
        }
        let r = &self.buf[self.pos..self.pos + RECORD];
        self.pos += RECORD;
        let ts = u32::from_le_bytes(r[0..4].try_into().expect("4 bytes"));
        let id = u64::from_le_bytes(r[4..12].try_into().expect("8 bytes"));
        let size = u32::from_le_bytes(r[12..16].try_into().expect("4 bytes"));
        let next = i64::from_le_bytes(r[16..24].try_into().expect("8 bytes"));
        let i = self.index;
        self.index += 1;
        if size == 0 || size > MAX_OBJ_SIZE {
            return Err(format!(
                "record {i}: object size {size} is not 1..{MAX_OBJ_SIZE} bytes"
            ));
        }
        if ts < self.last_ts && !self.allow_decreasing {
            return Err(format!(
                "record {i}: timestamp {ts} s is before the previous record's {} s (allow it with --allow-decreasing-time)",
                self.last_ts
            ));
        }
        self.last_ts = self.last_ts.max(ts);
        // libCacheSim (oracleGeneralBin_read_one_req): −1 and INT64_MAX mean "never again";
        // any other value is the position of the object's next request, after this one.
        let next = if next == -1 || next == i64::MAX {
            u64::MAX
        } else if next < 0 || (next as u64) <= i {
            return Err(format!(
                "record {i}: next access {next} is neither -1 (never) nor a later record"
            ));
        } else if self.records.is_some_and(|n| next as u64 >= n) {
            return Err(format!(
                "record {i}: next access {next} is past the trace's last record ({})",
                self.records.unwrap_or(0).saturating_sub(1)
            ));
        } else {
            next as u64
        };
        Ok(Some(Request {
            t_us: ts as u64 * 1_000_000,
            id,
            next,
        }))
    }
}

/// Writes `(timestamp s, id)` requests as `oracleGeneral` records of size 1, with each
/// record's next-access field set to the position of the same id's next request (−1: none).
pub fn write<W: Write>(w: &mut W, reqs: &[(u32, u64)]) -> io::Result<()> {
    let mut last: super::IdMap<u64> = Default::default();
    let mut next = vec![-1i64; reqs.len()];
    for (i, &(_, id)) in reqs.iter().enumerate().rev() {
        if let Some(&j) = last.get(&id) {
            next[i] = j as i64;
        }
        last.insert(id, i as u64);
    }
    let mut out = io::BufWriter::with_capacity(1 << 20, w);
    for (&(ts, id), &n) in reqs.iter().zip(&next) {
        let mut rec = [0u8; RECORD];
        rec[0..4].copy_from_slice(&ts.to_le_bytes());
        rec[4..12].copy_from_slice(&id.to_le_bytes());
        rec[12..16].copy_from_slice(&1u32.to_le_bytes());
        rec[16..24].copy_from_slice(&n.to_le_bytes());
        out.write_all(&rec)?;
    }
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_records_read_back_with_next_access_filled() {
        let mut bytes = Vec::new();
        write(&mut bytes, &[(5, 10), (5, 20), (6, 10), (7, 30)]).unwrap();
        assert_eq!(bytes.len(), 4 * RECORD);
        assert_eq!(i64::from_le_bytes(bytes[16..24].try_into().unwrap()), 2);
        let mut r = OracleReader::new(&bytes[..]);
        let mut got = Vec::new();
        while let Some(q) = r.next_request().unwrap() {
            got.push((q.t_us, q.id, q.next));
        }
        assert_eq!(
            got,
            vec![
                (5_000_000, 10, 2),
                (5_000_000, 20, u64::MAX),
                (6_000_000, 10, u64::MAX),
                (7_000_000, 30, u64::MAX)
            ]
        );
    }

    #[test]
    fn a_truncated_record_is_an_error_not_a_panic() {
        let mut bytes = Vec::new();
        write(&mut bytes, &[(1, 1), (1, 2)]).unwrap();
        bytes.truncate(RECORD + 10);
        let mut r = OracleReader::new(&bytes[..]);
        assert!(r.next_request().unwrap().is_some());
        let e = r.next_request().unwrap_err();
        assert!(e.contains("10 bytes after record 1"), "{e}");
    }

    #[test]
    fn a_next_access_pointing_backwards_is_an_error() {
        let mut rec = [0u8; RECORD];
        rec[12..16].copy_from_slice(&1u32.to_le_bytes());
        rec[16..24].copy_from_slice(&0i64.to_le_bytes());
        let e = OracleReader::new(&rec[..]).next_request().unwrap_err();
        assert!(e.contains("neither -1"), "{e}");
    }

    fn one(ts: u32, size: u32, next: i64) -> Vec<u8> {
        let mut rec = vec![0u8; RECORD];
        rec[0..4].copy_from_slice(&ts.to_le_bytes());
        rec[12..16].copy_from_slice(&size.to_le_bytes());
        rec[16..24].copy_from_slice(&next.to_le_bytes());
        rec
    }

    fn read_all(bytes: &[u8], allow: bool) -> Result<usize, String> {
        let mut r = OracleReader::new(bytes)
            .with_records((bytes.len() / RECORD) as u64)
            .allow_decreasing_time(allow);
        let mut n = 0;
        while r.next_request()?.is_some() {
            n += 1;
        }
        Ok(n)
    }

    #[test]
    fn what_libcachesim_does_not_define_is_refused_with_the_record_named() {
        let cases: [(Vec<u8>, &str); 5] = [
            (one(1, 1, -5), "record 0: next access -5 is neither -1"),
            (one(1, 0xFFFF_FFFF, -1), "record 0: object size 4294967295"),
            (one(1, 0, -1), "record 0: object size 0"),
            (
                [one(1, 1, 1), one(1, 1, 1)].concat(),
                "record 1: next access 1 is neither",
            ),
            (
                [one(1, 1, 7), one(1, 1, -1)].concat(),
                "record 0: next access 7 is past",
            ),
        ];
        for (bytes, want) in cases {
            let e = read_all(&bytes, false).unwrap_err();
            assert!(e.starts_with(want), "{e}");
        }
        let back = [one(5, 1, -1), one(4, 1, -1)].concat();
        let e = read_all(&back, false).unwrap_err();
        assert!(e.starts_with("record 1: timestamp 4 s is before"), "{e}");
        assert_eq!(read_all(&back, true), Ok(2));
        // What libCacheSim writes: sizes from 1, timestamps from 1, INT64_MAX as never.
        let ok = [
            one(1, 1, 2),
            one(1, MAX_OBJ_SIZE, i64::MAX),
            one(2, 4096, -1),
        ]
        .concat();
        assert_eq!(read_all(&ok, false), Ok(3));
    }

    #[test]
    fn random_bytes_are_not_a_trace() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let bytes: Vec<u8> = (0..100 * 1024 - 16)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect();
        assert!(read_all(&bytes, false).is_err());
    }
}

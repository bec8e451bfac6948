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
}

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
        }
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
        if size == 0 {
            return Err(format!("record {i}: object size 0"));
        }
        let next = if next < 0 || next == i64::MAX {
            u64::MAX
        } else if (next as u64) <= i {
            return Err(format!(
                "record {i}: next access {next} is not after the record itself"
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
        assert!(e.contains("not after"), "{e}");
    }
}

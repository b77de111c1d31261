//! The engine's stream records at a field width n (the contract's MsmRecord; reference_model/msm_formats.md): a point
//! record is the whole 512-bit beats that hold its three words, bits [0, 3n); a bucket record the whole beats that
//! hold its four words and the tag at bit 4n.  Every size and position comes from the generated contract for the
//! curve's n (BLS12-377: three-beat point and bucket records; BN254: two and three; BLS12-381: three and four).
//! A record is held as little-endian 64-bit words (`Rec`) while it is filled or read.

use crate::contract::{self as c, Field};
use crate::HostError;

/// A field element's word: limbs enough for every n the records serve.
pub type Word = [u64; 6];

/// 64-bit words of the longest record (a bucket record at the widest n the records serve)
pub const MAX_WORDS: usize = c::MSM_RECORD_BUCKET.words(c::MSM_RECORD_BUCKET.max_n);
const _: () = assert!(c::MSM_RECORD_BUCKET.max_n as usize <= 64 * 6 && c::MSM_RECORD_POINT.max_n as usize <= 64 * 6
    && c::MSM_RECORD_POINT.words(c::MSM_RECORD_POINT.max_n) <= MAX_WORDS
    && c::MSM_RECORD_BUCKET_TAG.at(0).width <= 64);

/// The records of one field width n: sizes and field positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Records {
    pub n: u32,
    /// bytes of a point record (MSM_RECORD_POINT at n)
    pub point_bytes: usize,
    /// bytes of a bucket record (MSM_RECORD_BUCKET at n)
    pub bucket_bytes: usize,
    /// the point record's three words
    pub point: [Field; 3],
    /// the bucket record's four words
    pub bucket: [Field; 4],
    /// the bucket record's tag (MSM_RECORD_TAG_WINDOW, MSM_RECORD_TAG_BUCKET)
    pub tag: Field,
}

impl Records {
    /// the records at field width n; n must be one the records serve (a constant use fails to compile otherwise)
    pub const fn at(n: u32) -> Records {
        assert!(n >= 1 && n <= c::MSM_RECORD_POINT.max_n && n <= c::MSM_RECORD_BUCKET.max_n,
                "the field width is outside what the MSM records serve");
        Records {
            n,
            point_bytes: c::MSM_RECORD_POINT.bytes(n),
            bucket_bytes: c::MSM_RECORD_BUCKET.bytes(n),
            point: [c::MSM_RECORD_POINT_QM.at(n), c::MSM_RECORD_POINT_QP.at(n), c::MSM_RECORD_POINT_QT.at(n)],
            bucket: [c::MSM_RECORD_BUCKET_U.at(n), c::MSM_RECORD_BUCKET_V.at(n), c::MSM_RECORD_BUCKET_W.at(n),
                c::MSM_RECORD_BUCKET_T.at(n)],
            tag: c::MSM_RECORD_BUCKET_TAG.at(n),
        }
    }

    /// `at` for a run-time n: an error instead of a panic when the records do not serve it
    pub fn checked(n: u32) -> Result<Records, HostError> {
        let max = c::MSM_RECORD_POINT.max_n.min(c::MSM_RECORD_BUCKET.max_n);
        if n == 0 || n > max {
            return Err(HostError::new(format!("{n}-bit field elements do not fit the MSM records (at most {max} bits)")));
        }
        Ok(Records::at(n))
    }

    /// beats of a point record and of a bucket record
    pub const fn beats(&self) -> (usize, usize) {
        (c::MSM_RECORD_POINT.beats(self.n), c::MSM_RECORD_BUCKET.beats(self.n))
    }
}

/// One record's words: the first `len` of MAX_WORDS (its bytes / 8), zero where no field is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rec {
    w: [u64; MAX_WORDS],
    len: usize,
}

impl Rec {
    /// an all-zero record of `bytes` bytes (a whole number of 64-bit words, at most MAX_WORDS of them)
    pub fn zero(bytes: usize) -> Rec {
        assert!(bytes % 8 == 0 && bytes / 8 <= MAX_WORDS, "a record of {bytes} bytes");
        Rec { w: [0; MAX_WORDS], len: bytes / 8 }
    }

    /// the record held in `b` (its whole length)
    pub fn from_bytes(b: &[u8]) -> Rec {
        let mut r = Rec::zero(b.len());
        for (w, c) in r.w.iter_mut().zip(b.chunks_exact(8)) {
            *w = u64::from_le_bytes(c.try_into().unwrap());
        }
        r
    }

    /// the record into `out` (exactly its length)
    pub fn write(&self, out: &mut [u8]) {
        assert_eq!(out.len(), 8 * self.len, "record buffer size");
        for (c, w) in out.chunks_exact_mut(8).zip(self.words()) {
            c.copy_from_slice(&w.to_le_bytes());
        }
    }

    pub fn words(&self) -> &[u64] {
        &self.w[..self.len]
    }

    pub fn bytes(&self) -> usize {
        8 * self.len
    }

    /// a field element's word into its field
    pub fn put(&mut self, f: Field, v: &Word) {
        f.put_words(&mut self.w[..self.len], v);
    }

    /// a field element's word from its field
    pub fn get(&self, f: Field) -> Word {
        let mut v = [0u64; 6];
        f.get_words(self.words(), &mut v);
        v
    }

    /// the tag (window, bucket) into the tag field `f`
    pub fn put_tag(&mut self, f: Field, window: usize, bucket: usize) {
        let tag = c::MSM_RECORD_TAG_WINDOW.put(window as u64) | c::MSM_RECORD_TAG_BUCKET.put(bucket as u64);
        f.put_words(&mut self.w[..self.len], &[tag]);
    }

    /// (window, bucket) from the tag field `f`
    pub fn tag(&self, f: Field) -> (usize, usize) {
        let mut t = [0u64];
        f.get_words(self.words(), &mut t);
        (c::MSM_RECORD_TAG_WINDOW.get(t[0]) as usize, c::MSM_RECORD_TAG_BUCKET.get(t[0]) as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// the sizes of the three curves' records (n = 377, 254, 381) are the contract's, in whole beats
    #[test]
    fn sizes_follow_the_contract() {
        let beat = c::MSM_RECORD_POINT.beat_bytes();
        assert_eq!(beat, c::MSM_RECORD_BUCKET.beat_bytes());
        for n in [377u32, 254, 381] {
            let r = Records::at(n);
            assert_eq!(r.point_bytes % beat, 0);
            assert_eq!(r.bucket_bytes % beat, 0);
            // the fields end inside the record, and one beat less would not hold them
            assert!(r.point[2].lsb + r.point[2].width <= 8 * r.point_bytes as u32);
            assert!(r.point[2].lsb + r.point[2].width > 8 * (r.point_bytes - beat) as u32);
            assert!(r.tag.lsb + r.tag.width <= 8 * r.bucket_bytes as u32);
            assert!(r.tag.lsb + r.tag.width > 8 * (r.bucket_bytes - beat) as u32);
        }
        assert_eq!(Records::at(377).beats(), (3, 3));
        assert_eq!(Records::at(254).beats(), (2, 3));
        assert_eq!(Records::at(381).beats(), (3, 4));
        assert!(Records::checked(c::MSM_RECORD_BUCKET.max_n + 1).unwrap_err().0.contains("do not fit"));
        assert!(Records::checked(0).is_err());
    }

    /// every field of every record round-trips at each curve's n, the tag fills its bits, the bytes round-trip
    #[test]
    fn fields_round_trip() {
        for n in [377u32, 254, 381] {
            let r = Records::at(n);
            let top = (1u64 << ((n - 1) % 64)) | 7; // the word's top bit set
            let w: Word = {
                let mut w = [0x0123_4567_89ab_cdef_u64; 6];
                let limbs = n.div_ceil(64) as usize;
                w[limbs - 1] = top;
                for l in w.iter_mut().skip(limbs) {
                    *l = 0;
                }
                w
            };
            let mut b = Rec::zero(r.bucket_bytes);
            for f in r.bucket {
                b.put(f, &w);
            }
            b.put_tag(r.tag, 5, 1234);
            for f in r.bucket {
                assert_eq!(b.get(f), w, "n = {n}");
            }
            assert_eq!(b.tag(r.tag), (5, 1234));
            let mut bytes = vec![0u8; r.bucket_bytes];
            b.write(&mut bytes);
            assert_eq!(Rec::from_bytes(&bytes), b);
            // zero above the tag
            let end = (r.tag.lsb + r.tag.width) as usize;
            assert!((end..8 * r.bucket_bytes).all(|i| bytes[i / 8] >> (i % 8) & 1 == 0));
            let mut p = Rec::zero(r.point_bytes);
            for f in r.point {
                p.put(f, &w);
            }
            let mut pb = vec![0u8; r.point_bytes];
            p.write(&mut pb);
            let back = Rec::from_bytes(&pb);
            for f in r.point {
                assert_eq!(back.get(f), w);
            }
            let end = 3 * n as usize;
            assert!((end..8 * r.point_bytes).all(|i| pb[i / 8] >> (i % 8) & 1 == 0));
        }
    }
}

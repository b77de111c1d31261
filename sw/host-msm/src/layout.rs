//! Window layout and signed-digit recoding, as reference_model/msm.py defines them:
//! windows from the least significant bit; for every window but the top one v = bits + carry,
//! v >= 2^(w-1) gives the digit v - 2^w and a carry of 1; the top window takes the remaining bits + carry.
//! Window j < W-1 has 2^(w_j-1) buckets, the top one ((r-1) >> o_top) + 1, or with a scalar bound b (an engine
//! configured for scalars < b, as MsmConfig.scalarBound; the model's WindowLayout `order`) ((b-1) >> o_top) + 1.

use ark_bls12_377::Fr;
use ark_ff::{BigInt, BigInteger, PrimeField};

pub const MAX_WINDOWS: usize = 127; // 7-bit window tag
pub const MAX_BUCKETS: usize = crate::contract::MSM_RECORD_TAG_BUCKET.mask() as usize; // the bucket tag

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WindowLayout {
    widths: Vec<u32>,
    offsets: Vec<u32>,
    buckets: Vec<usize>,
    /// partial bucket records after the buckets in the engine's read-out (its PARTIALS register)
    partials: usize,
}

/// bits [o, o + w) of a 256-bit little-endian scalar (w <= 64)
#[inline]
pub fn scalar_bits(s: &[u64; 4], o: u32, w: u32) -> u64 {
    let (q, r) = ((o / 64) as usize, o % 64);
    if q >= 4 {
        return 0;
    }
    let mut v = s[q] >> r;
    if r > 0 && q + 1 < 4 {
        v |= s[q + 1] << (64 - r);
    }
    if w < 64 {
        v & ((1u64 << w) - 1)
    } else {
        v
    }
}

/// The window spec every tool reads (zk-msm and capi_check through `zkmsm_windows_parse`, host-msm, the Python
/// model through the same C ABI): comma-separated parts, each WIDTH or WIDTHxCOUNT in decimal (spaces around a part
/// ignored), the least significant window first; "13x13,12x7" is 13 windows of 13 bits, then 7 of 12.  Only the
/// grammar and the window count are checked here; `WindowLayout::new` checks the widths against the scalars.
pub fn parse_widths(spec: &str) -> Result<Vec<u32>, String> {
    let bad = |why: String| format!("bad window spec {spec:?}: {why} (use e.g. 13x13,12x7 or 16,16,16)");
    let number = |s: &str| -> Option<u32> {
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        s.parse().ok()
    };
    let mut widths = Vec::new();
    for part in spec.split(',').map(str::trim) {
        let (w, n) = part.split_once('x').unwrap_or((part, "1"));
        let (w, n) = match (number(w), number(n)) {
            (Some(w), Some(n)) => (w, n as usize),
            _ => return Err(bad(format!("{part:?} is not WIDTH or WIDTHxCOUNT"))),
        };
        if w == 0 || n == 0 {
            return Err(bad(format!("{part:?}: widths and counts start at 1")));
        }
        if widths.len() + n > MAX_WINDOWS {
            return Err(bad(format!("more than {MAX_WINDOWS} windows (the 7-bit window tag)")));
        }
        widths.extend(std::iter::repeat(w).take(n));
    }
    Ok(widths)
}

impl WindowLayout {
    pub fn new(widths: &[u32]) -> Result<Self, String> {
        Self::with_bound_bits(widths, 0)
    }

    /// scalars below 2^bound_bits (1..=253; 0: below r)
    pub fn with_bound_bits(widths: &[u32], bound_bits: u32) -> Result<Self, String> {
        if bound_bits > 253 {
            return Err(format!("scalar bound 2^{bound_bits} is above r"));
        }
        if widths.is_empty() || widths.len() > MAX_WINDOWS {
            return Err(format!("window layout needs 1 to {MAX_WINDOWS} windows, got {}", widths.len()));
        }
        if widths.iter().any(|&w| w < 1) {
            return Err(format!("window widths must be >= 1: {widths:?}"));
        }
        let mut r_minus_1 = Fr::MODULUS;
        r_minus_1.sub_with_borrow(&1u64.into());
        if bound_bits > 0 {
            r_minus_1 = BigInt::<4>::from(1u64);
            r_minus_1 = r_minus_1 << bound_bits;
            r_minus_1.sub_with_borrow(&1u64.into());
        }
        Self::with_max_scalar(widths, r_minus_1)
    }

    /// scalars up to `r_minus_1` (any curve's r - 1, or a bound)
    pub fn with_max_scalar(widths: &[u32], r_minus_1: BigInt<4>) -> Result<Self, String> {
        if widths.is_empty() || widths.len() > MAX_WINDOWS {
            return Err(format!("window layout needs 1 to {MAX_WINDOWS} windows, got {}", widths.len()));
        }
        let bits = r_minus_1.num_bits();
        let total: u32 = widths.iter().sum();
        if total < bits {
            return Err(format!("windows {widths:?} cover {total} bits; scalars have {bits}"));
        }
        let mut offsets = Vec::with_capacity(widths.len());
        let mut o = 0;
        for &w in widths {
            offsets.push(o);
            o += w;
        }
        let last = widths.len() - 1;
        let mut buckets = Vec::with_capacity(widths.len());
        for j in 0..widths.len() {
            let b = if j < last {
                if widths[j] > 22 {
                    return Err(format!("window {j} of {} bits needs too many buckets", widths[j]));
                }
                1usize << (widths[j] - 1)
            } else {
                let top = if offsets[j] >= 256 { BigInt::<4>::from(0u64) } else { r_minus_1 >> offsets[j] };
                if top.num_bits() > 22 {
                    return Err(format!("top window at bit {} needs too many buckets", offsets[j]));
                }
                top.as_ref()[0] as usize + 1
            };
            if b > MAX_BUCKETS {
                return Err(format!("window {j} would need {b} buckets; the bucket tag allows {MAX_BUCKETS}"));
            }
            buckets.push(b);
        }
        Ok(Self { widths: widths.to_vec(), offsets, buckets, partials: 0 })
    }

    /// Hardcaml's layout: 13 windows of 13 bits, then 7 of 12 bits.
    pub fn hardcaml() -> Self {
        let mut w = vec![13u32; 13];
        w.extend(std::iter::repeat(12).take(7));
        Self::new(&w).expect("default layout")
    }

    /// "13x13,12x7" or "16,16,16" (`parse_widths`), for scalars below r
    pub fn parse(spec: &str) -> Result<Self, String> {
        Self::new(&parse_widths(spec)?)
    }

    /// the same for an engine built for scalars below 2^bound_bits (0: below r)
    pub fn parse_bounded(spec: &str, bound_bits: u32) -> Result<Self, String> {
        Self::with_bound_bits(&parse_widths(spec)?, bound_bits)
    }

    pub fn num_windows(&self) -> usize {
        self.widths.len()
    }
    /// the first scalar bit of each window
    pub fn offsets(&self) -> &[u32] {
        &self.offsets
    }
    pub fn widths(&self) -> &[u32] {
        &self.widths
    }
    pub fn buckets(&self, j: usize) -> usize {
        self.buckets[j]
    }
    pub fn total_buckets(&self) -> usize {
        self.buckets.iter().sum()
    }
    /// the same layout with `partials` partial bucket records after the buckets
    pub fn with_partials(mut self, partials: usize) -> Self {
        self.partials = partials;
        self
    }
    pub fn partials(&self) -> usize {
        self.partials
    }
    /// records of a read-out: the buckets, then the partial buckets
    pub fn total_records(&self) -> usize {
        self.total_buckets() + self.partials
    }
    /// index of the first record of window j in the read-out stream
    pub fn first_record(&self, j: usize) -> usize {
        self.buckets[..j].iter().sum()
    }

    /// the signed digits of a scalar s < r, one per window, into `out`
    pub fn digits(&self, s: &[u64; 4], out: &mut [i32]) {
        let last = self.widths.len() - 1;
        let mut carry = 0u64;
        for j in 0..=last {
            let (w, o) = (self.widths[j], self.offsets[j]);
            if j == last {
                out[j] = (scalar_bits(s, o, 64) + carry) as i32;
                break;
            }
            let v = scalar_bits(s, o, w) + carry;
            if v >= 1u64 << (w - 1) {
                out[j] = v as i32 - (1i32 << w);
                carry = 1;
            } else {
                out[j] = v as i32;
                carry = 0;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn window_spec_grammar() {
        assert_eq!(parse_widths("13x13,12x7").unwrap(), [vec![13; 13], vec![12; 7]].concat());
        assert_eq!(parse_widths(" 16, 16 ,16x2").unwrap(), vec![16; 4]);
        assert_eq!(parse_widths("6,6,6,6").unwrap(), vec![6; 4]);
        assert_eq!(parse_widths("1x127").unwrap().len(), 127);
        for bad in ["", "13,", ",13", "13,,12", "x3", "13x", "0", "13x0", "1 3", "13x13x2", "-1", "+4", "1x128",
                    "127,1x127", "99999999999"] {
            let e = parse_widths(bad).unwrap_err();
            assert!(e.contains("bad window spec"), "{bad:?}: {e}");
        }
        assert_eq!(WindowLayout::parse("13x13,12x7").unwrap(), WindowLayout::hardcaml());
        assert!(WindowLayout::parse("6,6,6").unwrap_err().contains("cover 18 bits"));
        assert_eq!(WindowLayout::parse_bounded("6,6,6,6", 24).unwrap().total_buckets(), 32 * 3 + 64);
    }
}

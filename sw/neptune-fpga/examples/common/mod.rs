//! Test data the examples share.
use blstrs::Scalar as Fr;
use ff::{Field, PrimeField};

/// The next field element of the xorshift stream `x`: 0, 1 and p - 1 each one time in 16, else a random element
/// below 2^254.
pub fn element(x: &mut u64) -> Fr {
    let mut next = || {
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
        *x
    };
    match next() % 16 {
        0 => Fr::ZERO,
        1 => Fr::ONE,
        2 => -Fr::ONE, // p - 1
        _ => {
            let mut r = <Fr as PrimeField>::Repr::default();
            for c in r.as_mut().chunks_mut(8) {
                c.copy_from_slice(&next().to_le_bytes());
            }
            r.as_mut()[31] &= 0x3f; // < 2^254 < p
            Fr::from_repr(r).unwrap()
        }
    }
}

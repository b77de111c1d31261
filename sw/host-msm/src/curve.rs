//! The curves of the MSM engine, by name (`--curve`) and by code: the code is the contract's MSM_CURVE_* (the curve an
//! MSM card names in VERSION[31:16] of its identity), the one numbering of the host library, its C API and the tools.

use ark_ff::PrimeField;

use crate::contract as c;
use crate::record::Records;
use crate::HostError;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Curve {
    /// twisted Edwards adder (convert.rs, post.rs)
    Bls12_377,
    /// XYZZ adder (xyzz.rs)
    Bn254,
    /// XYZZ adder (xyzz.rs)
    Bls12_381,
}

impl Curve {
    pub const ALL: [Curve; 3] = [Curve::Bls12_377, Curve::Bn254, Curve::Bls12_381];

    pub const fn name(self) -> &'static str {
        match self {
            Curve::Bls12_377 => "bls12_377",
            Curve::Bn254 => "bn254",
            Curve::Bls12_381 => "bls12_381",
        }
    }

    pub fn parse(s: &str) -> Result<Curve, HostError> {
        Curve::ALL.iter().copied().find(|c| c.name() == s).ok_or_else(|| {
            HostError::new(format!("unknown curve {s:?} (bn254, bls12_381 or bls12_377)"))
        })
    }

    /// the contract's code of the curve (MSM_CURVE_*)
    pub const fn code(self) -> u32 {
        match self {
            Curve::Bls12_377 => c::MSM_CURVE_BLS12_377,
            Curve::Bn254 => c::MSM_CURVE_BN254,
            Curve::Bls12_381 => c::MSM_CURVE_BLS12_381,
        }
    }

    pub fn from_code(code: u32) -> Option<Curve> {
        Curve::ALL.iter().copied().find(|c| c.code() == code)
    }

    /// n: the bits of the base field, the width of the records' words
    pub const fn field_bits(self) -> u32 {
        match self {
            Curve::Bls12_377 => <ark_bls12_377::Fq as PrimeField>::MODULUS_BIT_SIZE,
            Curve::Bn254 => <ark_bn254::Fq as PrimeField>::MODULUS_BIT_SIZE,
            Curve::Bls12_381 => <ark_bls12_381::Fq as PrimeField>::MODULUS_BIT_SIZE,
        }
    }

    /// the curve's stream records (sizes from the contract at its n)
    pub const fn records(self) -> Records {
        Records::at(self.field_bits())
    }

    /// The window layout of the curve's board engines (the generator's MsmConfig: MsmAxis_vu9p for BLS12-377,
    /// MsmAxis_bn254_vu9p and _c1100, MsmAxis_bls12_381_vu9p; Hardcaml's 13- and 12-bit windows, twenty in all, over
    /// the bits of r), in the window-spec grammar (layout::parse_widths).  tests/test_msm_host.py checks it against
    /// the manifest.
    pub const fn board_windows(self) -> &'static str {
        match self {
            Curve::Bls12_377 => "13x13,12x7",
            Curve::Bn254 => "13x14,12x6",
            Curve::Bls12_381 => "13x15,12x5",
        }
    }

    /// bytes of one point in arkworks' uncompressed encoding of the curve
    pub fn point_bytes(self) -> usize {
        use crate::xyzz::point_bytes;
        match self {
            Curve::Bls12_377 => point_bytes::<ark_bls12_377::g1::Config>(),
            Curve::Bn254 => point_bytes::<ark_bn254::g1::Config>(),
            Curve::Bls12_381 => point_bytes::<ark_bls12_381::g1::Config>(),
        }
    }
}

// every curve's records fit the contract's (a wider field fails the build here)
const _: () = {
    let mut i = 0;
    while i < Curve::ALL.len() {
        let _ = Curve::ALL[i].records();
        i += 1;
    }
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_the_contracts() {
        assert_eq!(Curve::Bls12_377.code(), c::MSM_CURVE_BLS12_377);
        assert_eq!(Curve::Bn254.code(), c::MSM_CURVE_BN254);
        assert_eq!(Curve::Bls12_381.code(), c::MSM_CURVE_BLS12_381);
        for cv in Curve::ALL {
            assert_eq!(Curve::from_code(cv.code()), Some(cv));
            assert_eq!(Curve::parse(cv.name()).unwrap(), cv);
        }
        assert_eq!(Curve::from_code(0xffff), None);
        assert!(Curve::parse("p256").unwrap_err().0.contains("unknown curve"));
    }

    /// the C API's copy of the board layouts (a static C string per curve) is this one
    #[test]
    fn board_windows_c_api() {
        for cv in Curve::ALL {
            let p = crate::ffi::curve::zkmsm_curve_board_windows(cv.code() as i32);
            assert_eq!(unsafe { std::ffi::CStr::from_ptr(p) }.to_str().unwrap(), cv.board_windows());
            crate::layout::parse_widths(cv.board_windows()).unwrap();
        }
        assert!(crate::ffi::curve::zkmsm_curve_board_windows(7).is_null());
    }

    /// the record sizes of each curve: BLS12-377 three-beat points and buckets, BN254 two and three, BLS12-381 three
    /// and four (64-byte beats)
    #[test]
    fn record_sizes_per_curve() {
        let sizes: Vec<(u32, usize, usize, usize)> = Curve::ALL
            .iter()
            .map(|cv| (cv.field_bits(), cv.records().point_bytes, cv.records().bucket_bytes, cv.point_bytes()))
            .collect();
        let beat = c::MSM_RECORD_POINT.beat_bytes();
        assert_eq!(beat, 64);
        assert_eq!(sizes, vec![(377, 3 * beat, 3 * beat, 96), (254, 2 * beat, 3 * beat, 64), (381, 3 * beat, 4 * beat, 96)]);
    }
}

//! Curve constants of the Weierstrass -> twisted Edwards map, derived from arkworks' BLS12-377 G1 configuration the
//! same way reference_model/curves/twisted_edwards.py derives them (square roots: the smaller representative).

use std::sync::OnceLock;

use ark_bls12_377::{g1::Config, Fq};
use ark_ec::twisted_edwards::{MontCurveConfig, TECurveConfig};
use ark_ff::{Field, PrimeField};

pub struct Consts {
    /// Montgomery B: u = s*(x + 1) (alpha = -1)
    pub s: Fq,
    pub s_inv: Fq,
    /// sqrt(-a1): scales the first Edwards model to a = -1
    pub c: Fq,
    /// -x^2 + y^2 = 1 + d*x^2*y^2
    pub d: Fq,
    /// c*s: x_te = c*s*(x+1) / (v*(u+1)) * (u+1)
    pub cs: Fq,
    /// 2^-1 * 2^-7 and 4d * 2^-7: precomputed coordinates straight into hardware Montgomery form (see format.rs)
    pub half_hw: Fq,
    pub four_d_hw: Fq,
    pub inv_2_7: Fq,
    pub two_7: Fq,
}

fn smaller_root(x: Fq) -> Option<Fq> {
    let r = x.sqrt()?;
    let n = -r;
    Some(if r.into_bigint() <= n.into_bigint() { r } else { n })
}

pub fn consts() -> &'static Consts {
    static C: OnceLock<Consts> = OnceLock::new();
    C.get_or_init(|| {
        let s = <Config as MontCurveConfig>::COEFF_B;
        let s_check = smaller_root(Fq::from(3u64).inverse().unwrap()).unwrap();
        assert_eq!(s, s_check, "arkworks' Montgomery B is not 1/sqrt(3)");
        let mont_a = <Config as MontCurveConfig>::COEFF_A;
        let two = Fq::from(2u64);
        let s_inv = s.inverse().unwrap();
        let a1 = (mont_a + two) * s_inv;
        let d1 = (mont_a - two) * s_inv;
        let c = smaller_root(-a1).expect("-a1 is a square");
        let d = -d1 * a1.inverse().unwrap();
        assert_eq!(d, <Config as TECurveConfig>::COEFF_D, "derived d differs from arkworks' TE COEFF_D");
        let two_7 = Fq::from(128u64);
        let inv_2_7 = two_7.inverse().unwrap();
        Consts {
            s,
            s_inv,
            c,
            d,
            cs: c * s,
            half_hw: two.inverse().unwrap() * inv_2_7,
            four_d_hw: Fq::from(4u64) * d * inv_2_7,
            inv_2_7,
            two_7,
        }
    })
}

//! The curves the cards serve, as arkworks' G1 curve configurations: what the crate needs of each (the engine's
//! point records and the post-processing of its buckets, from the host library sw/host-msm).

use ark_ec::short_weierstrass::{Affine, Projective, SWCurveConfig};
use ark_ec::AffineRepr;
use ark_ff::PrimeField;
use zkmsm::curve::Curve;
use zkmsm::layout::WindowLayout;
use zkmsm::HostError;

/// A G1 curve an MSM card can serve: BLS12-377 (the twisted Edwards engine), BN254 and BLS12-381 (the XYZZ engine).
pub trait CardCurve: SWCurveConfig {
    /// the host library's curve (its code is the one an MSM card names in its identity)
    const CURVE: Curve;

    /// The engine's point records of `points` (records().point_bytes each) and the indices of the points the engine
    /// cannot take (their terms are added on the host: BLS12-377's points without a twisted Edwards image).
    fn point_records(points: &[Affine<Self>]) -> (Vec<u8>, Vec<usize>);

    /// The window layout of the card's engine: `widths`, its scalars below r (`scalar_bits` 0) or below
    /// 2^scalar_bits.
    fn layout(widths: &[u32], scalar_bits: u32) -> Result<WindowLayout, HostError>;

    /// The MSM from the engine's read-out (the layout's buckets, then its partial records) plus the host's terms.
    fn postprocess(layout: &WindowLayout, readout: &[u8], extra: &[(Affine<Self>, [u64; 4])])
        -> Result<Projective<Self>, HostError>;

    /// The read-out the engine gives for `points` and `scalars` (the host library's model of its accumulation; no
    /// partial records): for benchmarks of the post-processing without a card.
    fn model_readout(layout: &WindowLayout, points: &[Affine<Self>], scalars: &[[u64; 4]]) -> Vec<u8>;
}

impl CardCurve for ark_bls12_377::g1::Config {
    const CURVE: Curve = Curve::Bls12_377;

    fn point_records(points: &[Affine<Self>]) -> (Vec<u8>, Vec<usize>) {
        let mut out = vec![0u8; points.len() * Self::CURVE.records().point_bytes];
        // the subgroup was checked by the caller
        let exc = zkmsm::convert::precompute_points(points, &mut out, false);
        (out, exc)
    }

    fn layout(widths: &[u32], scalar_bits: u32) -> Result<WindowLayout, HostError> {
        WindowLayout::with_bound_bits(widths, scalar_bits).map_err(HostError::new)
    }

    fn postprocess(layout: &WindowLayout, readout: &[u8], extra: &[(Affine<Self>, [u64; 4])])
        -> Result<Projective<Self>, HostError> {
        Ok(zkmsm::post::postprocess(layout, readout, extra)?.into())
    }

    fn model_readout(layout: &WindowLayout, points: &[Affine<Self>], scalars: &[[u64; 4]]) -> Vec<u8> {
        let (records, _) = Self::point_records(points);
        let pre = zkmsm::accumulate::parse_point_records(&records).expect("records of our own conversion");
        zkmsm::accumulate::accumulate(layout, &pre, scalars)
    }
}

/// the XYZZ engine's records: every point has one (infinity is the all-zero record)
fn xyzz_records<P: SWCurveConfig>(points: &[Affine<P>]) -> (Vec<u8>, Vec<usize>)
where
    P::BaseField: PrimeField,
{
    (zkmsm::xyzz::point_records::<P>(points), Vec::new())
}

fn xyzz_post<P: SWCurveConfig>(layout: &WindowLayout, readout: &[u8], extra: &[(Affine<P>, [u64; 4])])
    -> Result<Projective<P>, HostError>
where
    P::BaseField: PrimeField,
{
    let mut r: Projective<P> = zkmsm::xyzz::postprocess::<P>(layout, readout)?.into();
    for (p, s) in extra {
        r += p.mul_bigint(s);
    }
    Ok(r)
}

macro_rules! xyzz_curve {
    ($cfg:ty, $curve:expr) => {
        impl CardCurve for $cfg {
            const CURVE: Curve = $curve;
            fn point_records(points: &[Affine<Self>]) -> (Vec<u8>, Vec<usize>) {
                xyzz_records(points)
            }
            fn layout(widths: &[u32], scalar_bits: u32) -> Result<WindowLayout, HostError> {
                zkmsm::xyzz::layout::<Self>(widths, scalar_bits)
            }
            fn postprocess(layout: &WindowLayout, readout: &[u8], extra: &[(Affine<Self>, [u64; 4])])
                -> Result<Projective<Self>, HostError> {
                xyzz_post(layout, readout, extra)
            }
            fn model_readout(layout: &WindowLayout, points: &[Affine<Self>], scalars: &[[u64; 4]]) -> Vec<u8> {
                zkmsm::xyzz::accumulate::<Self>(layout, points, scalars)
            }
        }
    };
}

xyzz_curve!(ark_bn254::g1::Config, Curve::Bn254);
xyzz_curve!(ark_bls12_381::g1::Config, Curve::Bls12_381);

/// a scalar as the engine reads it: 32 bytes, little-endian, canonical
pub fn scalar_words<F: PrimeField>(s: &F) -> [u64; 4] {
    let b = s.into_bigint();
    let limbs = b.as_ref();
    let mut w = [0u64; 4];
    w[..limbs.len().min(4)].copy_from_slice(&limbs[..limbs.len().min(4)]);
    w
}

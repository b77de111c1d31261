//! The XYZZ host side against arkworks, per curve: records -> the engine's accumulation -> post-processing equals
//! `VariableBaseMSM::msm`, on random and adversarial sets; encodings round-trip against arkworks; bad points refused.

use super::*;
use ark_ec::VariableBaseMSM;
use ark_std::{rand::SeedableRng, UniformRand};

type Rng = ark_std::rand::rngs::StdRng;

fn scalar<P: SWCurveConfig>(s: &P::ScalarField) -> [u64; 4] {
    let b = s.into_bigint();
    let mut o = [0u64; 4];
    o.copy_from_slice(&b.as_ref()[..4]);
    o
}

fn check<P: SWCurveConfig>(layout: &WindowLayout, pts: &[Affine<P>], sc: &[P::ScalarField])
where
    F<P>: PrimeField,
{
    let words: Vec<[u64; 4]> = sc.iter().map(scalar::<P>).collect();
    let want = Projective::<P>::msm(pts, sc).unwrap().into_affine();
    let buckets = accumulate::<P>(layout, pts, &words);
    assert_eq!(buckets.len(), layout.total_buckets() * records::<P>().bucket_bytes);
    assert_eq!(postprocess::<P>(layout, &buckets).unwrap(), want);
    // without records: the adder's buckets, the same sums
    let sums: Vec<Projective<P>> = accumulate_buckets::<P>(layout, pts, &words)
        .iter()
        .map(|w| window_sum(&w.iter().map(|b| bucket_to_point::<P>(b).unwrap()).collect::<Vec<_>>()))
        .collect();
    assert_eq!(combine(layout, &sums), want);
}

fn layouts<P: SWCurveConfig>() -> Vec<WindowLayout> {
    vec![
        WindowLayout::with_max_scalar(&[8; 32], r_minus_1::<P>()).unwrap(),
        WindowLayout::with_max_scalar(&[13; 20], r_minus_1::<P>()).unwrap(),
    ]
}

fn random_and_adversarial<P: SWCurveConfig>()
where
    F<P>: PrimeField,
{
    let mut rng = Rng::seed_from_u64(36);
    let g = Affine::<P>::generator();
    let p: Vec<Affine<P>> = (0..40).map(|_| Projective::<P>::rand(&mut rng).into_affine()).collect();
    let s: Vec<P::ScalarField> = (0..40).map(|_| P::ScalarField::rand(&mut rng)).collect();
    let one = P::ScalarField::one();
    let rm1 = -one;
    let edge = [P::ScalarField::zero(), one, rm1, P::ScalarField::from(2u64), -P::ScalarField::from(2u64)];
    let cases: Vec<(Vec<Affine<P>>, Vec<P::ScalarField>)> = vec![
        (p.clone(), s.clone()),
        (vec![p[0]; 30], s[..30].to_vec()),                              // one point: doublings
        (vec![p[0]; 30], vec![s[0]; 30]),                                // and equal scalars
        (vec![p[1], -p[1], p[1], -p[1], p[2]], vec![s[3]; 5]),           // P and -P: cancellations
        (vec![p[1], -p[1]], vec![s[4], s[4]]),                           // the result is infinity
        (vec![Affine::<P>::identity(), p[3], Affine::<P>::identity()], vec![s[5], s[6], one]),
        (vec![g; 5], edge.to_vec()),
        (p[..5].to_vec(), edge.to_vec()),
        (vec![p[7], p[7], -p[7]], vec![rm1, rm1, one]),
    ];
    for l in layouts::<P>() {
        for (pts, sc) in &cases {
            check::<P>(&l, pts, sc);
        }
    }
}

fn encodings<P: SWCurveConfig>()
where
    F<P>: PrimeField,
{
    let mut rng = Rng::seed_from_u64(7);
    let mut pts: Vec<Affine<P>> = (0..8).map(|_| Projective::<P>::rand(&mut rng).into_affine()).collect();
    pts.push(Affine::<P>::identity());
    let mut data = Vec::new();
    for p in &pts {
        encode_point(p, &mut data);
    }
    let mut ark = Vec::new();
    for p in &pts {
        p.serialize_uncompressed(&mut ark).unwrap();
    }
    assert_eq!(data, ark);
    assert_eq!(data.len(), pts.len() * point_bytes::<P>());
    assert_eq!(decode_points::<P>(&data).unwrap(), pts);
    // a point off the curve: y + 1
    let (x, y) = pts[0].xy().unwrap();
    let mut bad = Vec::new();
    Affine::<P>::new_unchecked(x, y + F::<P>::one()).serialize_uncompressed(&mut bad).unwrap();
    assert_eq!(decode_point::<P>(&bad).unwrap_err(), "not on the curve");
    let mut all = data.clone();
    all.extend_from_slice(&bad);
    assert_eq!(decode_points::<P>(&all).unwrap_err().0, format!("points[{}]: not on the curve", pts.len()));
    // words round trip
    let r_inv = r_hw::<P>().inverse().unwrap();
    assert_eq!(from_word::<P>(&to_word::<P>(&x), &r_inv), Some(x));
    let mut pw = [0u64; 6];
    let m = <F<P> as PrimeField>::MODULUS;
    pw[..m.as_ref().len()].copy_from_slice(m.as_ref());
    assert_eq!(from_word::<P>(&pw, &r_inv), None);
}

/// a point on the curve, outside the prime-order subgroup (BLS12-381's G1 has cofactor > 1)
fn off_subgroup<P: SWCurveConfig>() -> Affine<P>
where
    F<P>: PrimeField,
{
    let mut x = F::<P>::from(1u64);
    loop {
        if let Some(p) = Affine::<P>::get_point_from_x_unchecked(x, false) {
            if !p.is_in_correct_subgroup_assuming_on_curve() {
                return p;
            }
        }
        x += F::<P>::one();
    }
}

#[test]
fn bn254_msm_against_arkworks() {
    random_and_adversarial::<ark_bn254::g1::Config>();
}

#[test]
fn bls12_381_msm_against_arkworks() {
    random_and_adversarial::<ark_bls12_381::g1::Config>();
}

#[test]
fn bn254_encoding() {
    encodings::<ark_bn254::g1::Config>();
    assert_eq!(point_bytes::<ark_bn254::g1::Config>(), 64);
    assert_eq!(field_bits::<ark_bn254::g1::Config>(), 254);
}

#[test]
fn bls12_381_encoding_and_subgroup() {
    type P = ark_bls12_381::g1::Config;
    encodings::<P>();
    assert_eq!(point_bytes::<P>(), 96);
    let q = off_subgroup::<P>();
    let mut b = Vec::new();
    q.serialize_uncompressed(&mut b).unwrap();
    assert_eq!(decode_point::<P>(&b).unwrap_err(), "not in the prime-order subgroup");
    // zcash style: big-endian x first, flags in the top bits of byte 0 (uncompressed: compression bit clear)
    let g = Affine::<P>::generator();
    let mut gb = Vec::new();
    g.serialize_uncompressed(&mut gb).unwrap();
    assert_eq!(gb[0] & 0xe0, 0);
    assert_eq!(&gb[..4], &[0x17, 0xf1, 0xd3, 0xa7]);
}

#[test]
fn records_are_the_models() {
    // BN254 generator (1, 2): record (1, 2, 3) in Montgomery form at n = 254, in two beats
    type P = ark_bn254::g1::Config;
    let r = records::<P>();
    assert_eq!((r.n, r.point_bytes, r.bucket_bytes), (254, 2 * 64, 3 * 64));
    let mut out = vec![0u8; r.point_bytes];
    point_record::<P>(&Affine::<P>::generator(), &mut out);
    let rec = Rec::from_bytes(&out);
    for (f, v) in r.point.iter().zip([1u64, 2, 3]) {
        assert_eq!(rec.get(*f), to_word::<P>(&F::<P>::from(v)));
    }
    point_record::<P>(&Affine::<P>::identity(), &mut out);
    assert!(out.iter().all(|&b| b == 0));
    // BLS12-381: three-beat point records, four-beat bucket records
    type Q = ark_bls12_381::g1::Config;
    let r = records::<Q>();
    assert_eq!((r.n, r.point_bytes, r.bucket_bytes), (381, 3 * 64, 4 * 64));
}

/// BN254 precompute: every record two beats, its words the point's (x, y, 3x^2), zero above 3n; the records of a
/// set are the points' records back to back
#[test]
fn bn254_two_beat_precompute() {
    type P = ark_bn254::g1::Config;
    let (pts, _) = crate::gen::generate_sw::<P>(3, 11, false);
    let mut pts = pts;
    pts.push(Affine::<P>::identity());
    let r = records::<P>();
    let data = point_records::<P>(&pts);
    assert_eq!(data.len(), pts.len() * 128);
    let r_inv = r_hw::<P>().inverse().unwrap();
    for (i, p) in pts.iter().enumerate() {
        let rec = &data[i * r.point_bytes..(i + 1) * r.point_bytes];
        let back = Rec::from_bytes(rec);
        let xs: Vec<F<P>> = r.point.iter().map(|f| from_word::<P>(&back.get(*f), &r_inv).unwrap()).collect();
        match p.xy() {
            Some((x, y)) => assert_eq!(xs, vec![x, y, F::<P>::from(3u64) * x.square()]),
            None => assert!(rec.iter().all(|&b| b == 0)),
        }
        let end = 3 * r.n as usize;
        assert!((end..8 * r.point_bytes).all(|b| rec[b / 8] >> (b % 8) & 1 == 0), "record {i}: bits above 3n");
    }
}

/// A read-out with partial records, as the engine (shared windows: an adder's copy of a window) and zk-msm's window
/// split (another card's buckets) produce it: the buckets of `first`'s points, then as partial records every
/// non-empty bucket of `rest`'s points, tagged with its window and bucket, with unclaimed (0/0, all-zero) records
/// among them.
fn with_partials<P: SWCurveConfig>(layout: &WindowLayout, first: (&[Affine<P>], &[[u64; 4]]),
                                   rest: (&[Affine<P>], &[[u64; 4]])) -> (WindowLayout, Vec<u8>)
where
    F<P>: PrimeField,
{
    let mut data = accumulate::<P>(layout, first.0, first.1);
    let mut partials = 0;
    for (j, bk) in accumulate_buckets::<P>(layout, rest.0, rest.1).iter().enumerate() {
        for (k, b) in bk.iter().enumerate() {
            if !b[2].is_zero() {
                data.extend(bucket_record::<P>(b, j, k + 1));
                partials += 1;
            }
            if (j + k) % 7 == 0 {
                data.extend(bucket_record::<P>(&[F::<P>::zero(); 4], 0, 0)); // unclaimed
                partials += 1;
            }
        }
    }
    (layout.clone().with_partials(partials), data)
}

/// BLS12-381 (four-beat bucket records) and BN254 post-processing with partial records against arkworks' MSM on
/// small random sets
fn partial_records_against_arkworks<P: SWCurveConfig>()
where
    F<P>: PrimeField,
{
    let mut rng = Rng::seed_from_u64(381);
    let pts: Vec<Affine<P>> = (0..24).map(|_| Projective::<P>::rand(&mut rng).into_affine()).collect();
    let sc: Vec<P::ScalarField> = (0..24).map(|_| P::ScalarField::rand(&mut rng)).collect();
    let words: Vec<[u64; 4]> = sc.iter().map(scalar::<P>).collect();
    let want = Projective::<P>::msm(&pts, &sc).unwrap().into_affine();
    let rb = records::<P>().bucket_bytes;
    for l in layouts::<P>() {
        for cut in [0, 1, 13, 24] {
            let (lp, data) = with_partials::<P>(&l, (&pts[..cut], &words[..cut]), (&pts[cut..], &words[cut..]));
            assert_eq!(data.len(), lp.total_records() * rb);
            assert_eq!(postprocess::<P>(&lp, &data).unwrap(), want, "cut {cut}");
        }
        // a claimed partial record that is not infinity with tag 0/0 is refused; a tag outside the layout too
        let (lp, mut data) = with_partials::<P>(&l, (&pts[..5], &words[..5]), (&pts[5..], &words[5..]));
        let first_partial = lp.total_buckets();
        let (x, y) = pts[0].xy().unwrap();
        let g = [x, y, F::<P>::one(), F::<P>::one()];
        let bad = bucket_record::<P>(&g, 0, 0);
        data[first_partial * rb..(first_partial + 1) * rb].copy_from_slice(&bad);
        let e = postprocess::<P>(&lp, &data).unwrap_err().0;
        assert!(e.contains("unclaimed (tag 0/0) but not infinity"), "{e}");
        let bad = bucket_record::<P>(&g, l.num_windows(), 1);
        data[first_partial * rb..(first_partial + 1) * rb].copy_from_slice(&bad);
        let e = postprocess::<P>(&lp, &data).unwrap_err().0;
        assert!(e.contains("is outside the layout"), "{e}");
    }
}

#[test]
fn bls12_381_four_beat_buckets_with_partials() {
    type P = ark_bls12_381::g1::Config;
    assert_eq!(records::<P>().bucket_bytes, 256);
    partial_records_against_arkworks::<P>();
}

#[test]
fn bn254_buckets_with_partials() {
    partial_records_against_arkworks::<ark_bn254::g1::Config>();
}

#[test]
fn bad_buckets_refused() {
    type P = ark_bn254::g1::Config;
    let rb = records::<P>().bucket_bytes;
    let l = WindowLayout::with_max_scalar(&[8; 32], r_minus_1::<P>()).unwrap();
    let g = Affine::<P>::generator();
    let mut b = accumulate::<P>(&l, &[g], &[[5, 0, 0, 0]]);
    assert!(postprocess::<P>(&l, &b[..rb]).unwrap_err().0.contains("the layout needs"));
    b[4 * rb] ^= 1; // bucket 5 of window 0: X changes
    let e = postprocess::<P>(&l, &b).unwrap_err().0;
    assert!(e.contains("bucket record 4 (window 0 bucket 5)"), "{e}");
}

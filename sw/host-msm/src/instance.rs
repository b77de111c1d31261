//! The MSM instance file both engines read (`./run.sh msm --input FILE.json`, `zk-msm -i FILE.json`, the model
//! through reference_model/host_lib.py): a JSON object with
//!   "points":  [{"x": X, "y": Y} | "infinity", ...]   X, Y below p
//!   "scalars": [S, ...]                               S below r
//! where a number is a JSON integer or a "0x"-prefixed hex string (surrounding white space allowed).  Every other
//! key, at the top and inside a point, is ignored (files written by other tools carry a name, the curve, the
//! expected result).  Refused, with the place named: malformed JSON, a missing or non-array "points"/"scalars", a
//! point that is neither form, a number out of range or malformed, points not on the curve, unequal counts.
//! The grammar is one for every curve (`parse_sw`: coordinates below the curve's p, scalars below its r, points on
//! y^2 = x^3 + b); `parse` is BLS12-377's, the default.

use ark_ec::short_weierstrass::{Affine, SWCurveConfig};
use ark_ff::PrimeField;
use ark_serialize::{CanonicalSerialize, Compress};
use serde_json::Value;

use crate::format::SCALAR_BYTES;
use crate::HostError;

type F<P> = <P as ark_ec::CurveConfig>::BaseField;

/// A parsed instance of a curve: the points (arkworks' uncompressed encoding in `write`) and the scalars as 32-byte
/// LE words, the formats of the data-set files (io.rs) and of the C ABI.
pub struct SwInstance<P: SWCurveConfig> {
    pub points: Vec<Affine<P>>,
    pub scalars: Vec<[u64; 4]>,
}

/// BLS12-377's instance (`parse`)
pub type Instance = SwInstance<ark_bls12_377::g1::Config>;

impl<P: SWCurveConfig> SwInstance<P> {
    pub fn len(&self) -> usize {
        self.points.len()
    }
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }
    /// bytes of one encoded point (BLS12-377 and BLS12-381 96, BN254 64)
    pub fn point_bytes(&self) -> usize {
        crate::xyzz::point_bytes::<P>()
    }
    /// points (point_bytes each) and scalars (SCALAR_BYTES each) into the two buffers
    pub fn write(&self, points: &mut [u8], scalars: &mut [u8]) {
        for (p, out) in self.points.iter().zip(points.chunks_exact_mut(self.point_bytes())) {
            p.serialize_with_mode(out, Compress::No).expect("a buffer of the point's size");
        }
        for (s, out) in self.scalars.iter().zip(scalars.chunks_exact_mut(SCALAR_BYTES)) {
            for (i, l) in s.iter().enumerate() {
                out[8 * i..8 * i + 8].copy_from_slice(&l.to_le_bytes());
            }
        }
    }
}

/// Multiplies the little-endian limbs by `m` and adds `a`; false on overflow past the limbs.
fn mul_add(limbs: &mut [u64], m: u64, a: u64) -> bool {
    let mut carry = a as u128;
    for l in limbs.iter_mut() {
        let v = (*l as u128) * (m as u128) + carry;
        *l = v as u64;
        carry = v >> 64;
    }
    carry == 0
}

/// A JSON integer (its literal digits) or a "0x" hex string, as 6 little-endian limbs (384 bits).
fn number(v: &Value, what: &str) -> Result<[u64; 6], HostError> {
    let mut limbs = [0u64; 6];
    let too_wide = || HostError::new(format!("{what}: the number is wider than 384 bits"));
    match v {
        Value::Number(n) => {
            let text = n.to_string();
            if text.is_empty() || !text.bytes().all(|c| c.is_ascii_digit()) {
                return Err(HostError::new(format!("{what}: {text} is not a non-negative integer")));
            }
            for c in text.bytes() {
                if !mul_add(&mut limbs, 10, (c - b'0') as u64) {
                    return Err(too_wide());
                }
            }
        }
        Value::String(s) => {
            let t = s.trim();
            let digits = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X"))
                .ok_or_else(|| HostError::new(format!("{what}: '{s}' is not 0x-prefixed hex")))?;
            if digits.is_empty() {
                return Err(HostError::new(format!("{what}: '{s}' is not valid hex")));
            }
            for c in digits.chars() {
                let d = c.to_digit(16).ok_or_else(|| HostError::new(format!("{what}: '{s}' is not valid hex")))?;
                if !mul_add(&mut limbs, 16, d as u64) {
                    return Err(too_wide());
                }
            }
        }
        other => {
            let text = other.to_string();
            let short: String = text.chars().take(80).collect();
            return Err(HostError::new(format!("{what}: expected a hex string or an integer, got {short}")));
        }
    }
    Ok(limbs)
}

fn hex(limbs: &[u64]) -> String {
    let s: String = limbs.iter().rev().map(|l| format!("{l:016x}")).collect();
    let t = s.trim_start_matches('0');
    if t.is_empty() { "0".into() } else { t.into() }
}

/// the limbs of a prime field element's integer, or None when the number is not below the modulus
fn below<Fe: PrimeField>(l: &[u64; 6]) -> Option<Fe> {
    let mut b = Fe::BigInt::default();
    let n = b.as_ref().len();
    if l[n..].iter().any(|&v| v != 0) {
        return None;
    }
    b.as_mut().copy_from_slice(&l[..n]);
    Fe::from_bigint(b)
}

fn coordinate<Fe: PrimeField>(v: &Value, what: &str) -> Result<Fe, HostError> {
    let l = number(v, what)?;
    below::<Fe>(&l).ok_or_else(|| HostError::new(format!("{what}: 0x{} is not below p = 0x{}", hex(&l),
                                                         hex(Fe::MODULUS.as_ref()))))
}

fn scalar<Fs: PrimeField>(v: &Value, what: &str) -> Result<[u64; 4], HostError> {
    let l = number(v, what)?;
    let s = [l[0], l[1], l[2], l[3]];
    if below::<Fs>(&l).is_none() || l[4] != 0 || l[5] != 0 {
        return Err(HostError::new(format!("{what}: 0x{} is not below r = 0x{}", hex(&l), hex(Fs::MODULUS.as_ref()))));
    }
    Ok(s)
}

/// Parses a BLS12-377 instance from its JSON text (`parse_sw`).
pub fn parse(text: &[u8]) -> Result<Instance, HostError> {
    parse_sw(text)
}

/// Parses an instance of the curve P from its JSON text (the points are checked to lie on the curve y^2 = x^3 + b;
/// the subgroup is the precomputation's business).
pub fn parse_sw<P: SWCurveConfig>(text: &[u8]) -> Result<SwInstance<P>, HostError>
where
    F<P>: PrimeField,
{
    let doc: Value = serde_json::from_slice(text).map_err(|e| {
        HostError::new(format!("malformed JSON: {e}"))
    })?;
    let obj = doc.as_object().ok_or_else(|| HostError::new("top level: expected an object with 'points' and 'scalars'"))?;
    let list = |key: &str| -> Result<&Vec<Value>, HostError> {
        obj.get(key).ok_or_else(|| HostError::new(format!("missing key '{key}'")))?
            .as_array().ok_or_else(|| HostError::new(format!("{key}: expected a list")))
    };
    let (pts, scs) = (list("points")?, list("scalars")?);
    let mut points = Vec::with_capacity(pts.len());
    for (i, item) in pts.iter().enumerate() {
        let p = match item {
            Value::String(s) if s == "infinity" => Affine::<P>::identity(),
            Value::Object(m) if m.contains_key("x") && m.contains_key("y") => {
                let x = coordinate::<F<P>>(&m["x"], &format!("points[{i}].x"))?;
                let y = coordinate::<F<P>>(&m["y"], &format!("points[{i}].y"))?;
                let p = Affine::<P>::new_unchecked(x, y);
                if !p.is_on_curve() {
                    return Err(HostError::new(format!("points[{i}]: (0x{}, 0x{}) is not on the curve y^2 = x^3 + {}",
                                                      hex(x.into_bigint().as_ref()), hex(y.into_bigint().as_ref()),
                                                      hex(P::COEFF_B.into_bigint().as_ref()))));
                }
                p
            }
            other => {
                let short: String = other.to_string().chars().take(80).collect();
                return Err(HostError::new(format!("points[{i}]: expected {{\"x\": .., \"y\": ..}} or \"infinity\", got {short}")));
            }
        };
        points.push(p);
    }
    let scalars = scs.iter().enumerate().map(|(i, s)| scalar::<P::ScalarField>(s, &format!("scalars[{i}]")))
        .collect::<Result<Vec<_>, _>>()?;
    if points.len() != scalars.len() {
        return Err(HostError::new(format!("{} points but {} scalars", points.len(), scalars.len())));
    }
    Ok(SwInstance { points, scalars })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::POINT_BYTES;
    use ark_bls12_377::{Fq, Fr, G1Affine};
    use ark_ec::{AffineRepr, CurveGroup};

    fn gen_hex() -> (String, String) {
        let g = G1Affine::generator();
        let (x, y) = g.xy().unwrap();
        (format!("0x{}", hex(&x.into_bigint().0)), format!("0x{}", hex(&y.into_bigint().0)))
    }

    #[test]
    fn reads_both_number_forms_and_ignores_other_keys() {
        let (x, y) = gen_hex();
        let text = format!(r#"{{"name": "t", "curve": "bls12_377", "expected": [1, 2],
            "points": [{{"x": " {x} ", "y": "{y}", "note": 1}}, "infinity"], "scalars": ["0x5", 340282366920938463463374607431768211457]}}"#);
        let inst = parse(text.as_bytes()).unwrap();
        assert_eq!(inst.len(), 2);
        assert_eq!(inst.points[0], G1Affine::generator());
        assert!(inst.points[1].is_zero());
        assert_eq!(inst.scalars[0], [5, 0, 0, 0]);
        assert_eq!(inst.scalars[1], [1, 0, 1, 0]); // 2^128 + 1
        let mut p = vec![0u8; 2 * POINT_BYTES];
        let mut s = vec![0u8; 2 * SCALAR_BYTES];
        inst.write(&mut p, &mut s);
        assert_eq!(crate::format::decode_point(&p[..POINT_BYTES]).unwrap(), G1Affine::generator());
        assert_eq!(s[0], 5);
    }

    #[test]
    fn refuses_malformed_input_naming_the_place() {
        let (x, y) = gen_hex();
        let off = (G1Affine::generator() + G1Affine::generator()).into_affine().x().unwrap();
        let cases: Vec<(String, &str)> = vec![
            ("[1]".into(), "top level"),
            ("{\"points\": []}".into(), "missing key 'scalars'"),
            ("{\"points\": {}, \"scalars\": []}".into(), "points: expected a list"),
            ("{\"points\": [".into(), "malformed JSON"),
            (format!(r#"{{"points": [{{"x": "{x}"}}], "scalars": [1]}}"#), "points[0]: expected"),
            (format!(r#"{{"points": [{{"x": "{x}", "y": "{y}"}}], "scalars": ["5"]}}"#), "scalars[0]: '5' is not 0x-prefixed"),
            (format!(r#"{{"points": [{{"x": "{x}", "y": "{y}"}}], "scalars": ["0xg"]}}"#), "is not valid hex"),
            (format!(r#"{{"points": [{{"x": "{x}", "y": "{y}"}}], "scalars": [-1]}}"#), "not a non-negative integer"),
            (format!(r#"{{"points": [{{"x": "{x}", "y": "{y}"}}], "scalars": [true]}}"#), "expected a hex string or an integer"),
            (format!(r#"{{"points": [{{"x": "{x}", "y": "{y}"}}], "scalars": ["0x{}"]}}"#, hex(&Fr::MODULUS.0)), "is not below r"),
            (format!(r#"{{"points": [{{"x": "0x{}", "y": "{y}"}}], "scalars": [1]}}"#, hex(&Fq::MODULUS.0)), "points[0].x: 0x"),
            (format!(r#"{{"points": [{{"x": "0x{}", "y": "{y}"}}], "scalars": [1]}}"#, hex(&off.into_bigint().0)), "is not on the curve"),
            (format!(r#"{{"points": [{{"x": "{x}", "y": "{y}"}}], "scalars": []}}"#), "1 points but 0 scalars"),
        ];
        for (text, want) in cases {
            let e = parse(text.as_bytes()).err().unwrap_or_else(|| panic!("accepted {text}"));
            assert!(e.0.contains(want), "{text}: {e} (wanted {want})");
        }
    }

    /// the same grammar on BN254 and BLS12-381: their p, r, b; their point encodings in `write`
    #[test]
    fn other_curves() {
        type B = ark_bn254::g1::Config;
        let text = r#"{"points": [{"x": "0x1", "y": "0x2"}, "infinity"], "scalars": ["0x7", 3]}"#;
        let inst = parse_sw::<B>(text.as_bytes()).unwrap();
        assert_eq!(inst.points[0], Affine::<B>::generator());
        assert_eq!((inst.len(), inst.point_bytes()), (2, 64));
        let mut p = vec![0u8; 2 * 64];
        let mut s = vec![0u8; 2 * SCALAR_BYTES];
        inst.write(&mut p, &mut s);
        assert_eq!(crate::xyzz::decode_points::<B>(&p).unwrap(), inst.points);
        let e = parse_sw::<B>(br#"{"points": [{"x": "0x1", "y": "0x3"}], "scalars": [1]}"#).err().unwrap();
        assert!(e.0.contains("is not on the curve y^2 = x^3 + 3"), "{e}");
        let r = hex(<ark_bn254::Fr as PrimeField>::MODULUS.as_ref());
        let e = parse_sw::<B>(format!(r#"{{"points": ["infinity"], "scalars": ["0x{r}"]}}"#).as_bytes()).err().unwrap();
        assert!(e.0.contains("is not below r"), "{e}");
        // a BLS12-377 coordinate is too wide for BN254's p
        let (x, y) = gen_hex();
        let e = parse_sw::<B>(format!(r#"{{"points": [{{"x": "{x}", "y": "{y}"}}], "scalars": [1]}}"#).as_bytes())
            .err().unwrap();
        assert!(e.0.contains("points[0].x: 0x") && e.0.contains("is not below p"), "{e}");
        type G = ark_bls12_381::g1::Config;
        let g = Affine::<G>::generator();
        let (gx, gy) = g.xy().unwrap();
        let text = format!(r#"{{"points": [{{"x": "0x{}", "y": "0x{}"}}], "scalars": [5]}}"#,
                           hex(gx.into_bigint().as_ref()), hex(gy.into_bigint().as_ref()));
        let inst = parse_sw::<G>(text.as_bytes()).unwrap();
        assert_eq!((inst.points[0], inst.point_bytes()), (g, 96));
        let mut p = vec![0u8; 96];
        let mut s = vec![0u8; SCALAR_BYTES];
        inst.write(&mut p, &mut s);
        assert_eq!(crate::xyzz::decode_points::<G>(&p).unwrap(), vec![g]);
    }
}

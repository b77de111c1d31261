//! Data-set directories (`points`, `scalars`: arkworks CanonicalSerialize, uncompressed; the ZPrize harness
//! layout) and raw stream files.

use std::fs;
use std::path::Path;

use ark_bls12_377::G1Affine;
use ark_ff::BigInt;
use ark_serialize::{CanonicalDeserialize, CanonicalSerialize};
use rayon::prelude::*;

use crate::format::{decode_point, decode_scalar, POINT_BYTES, SCALAR_BYTES};
use crate::HostError;

fn read(path: &Path) -> Result<Vec<u8>, HostError> {
    fs::read(path).map_err(|e| HostError::new(format!("{}: {e}", path.display())))
}

pub fn write(path: &Path, data: &[u8]) -> Result<(), HostError> {
    fs::write(path, data).map_err(|e| HostError::new(format!("{}: {e}", path.display())))
}

/// the 96-byte point encodings of a `points` file (after its count), checked for size
pub fn points_payload(file: &[u8], path: &Path) -> Result<Vec<u8>, HostError> {
    Ok(counted(file, path, POINT_BYTES)?.to_vec())
}

/// The items of a data-set file: an 8-byte LE count, then exactly count items of `item` bytes.
fn counted<'a>(file: &'a [u8], path: &Path, item: usize) -> Result<&'a [u8], HostError> {
    if file.len() < 8 {
        return Err(HostError::new(format!("{}: shorter than its 8-byte count", path.display())));
    }
    let n = u64::from_le_bytes(file[..8].try_into().unwrap()) as usize;
    if file.len() != 8 + n * item {
        return Err(HostError::new(format!(
            "{}: count {n} needs {} bytes, file has {}", path.display(), 8 + n * item, file.len())));
    }
    Ok(&file[8..])
}

/// The scalars file, each scalar checked by `decode` (errors name the file and the scalar).
fn load_scalars(sf: &Path, decode: impl Fn(&[u8]) -> Result<[u64; 4], &'static str> + Sync)
    -> Result<Vec<[u64; 4]>, HostError> {
    let sdata = read(sf)?;
    counted(&sdata, sf, SCALAR_BYTES)?
        .par_chunks(SCALAR_BYTES)
        .enumerate()
        .map(|(i, b)| decode(b).map_err(|m| HostError::at("scalars", i, m)))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| HostError::new(format!("{}: {e}", sf.display())))
}

pub struct DataSet {
    /// raw 96-byte encodings (what the C API takes)
    pub point_bytes: Vec<u8>,
    pub points: Vec<G1Affine>,
    pub scalars: Vec<[u64; 4]>,
}

/// Loads and checks a data-set directory: every point on the curve, every scalar below r, equal counts.
pub fn load_dir(dir: &Path) -> Result<DataSet, HostError> {
    let pf = dir.join("points");
    let sf = dir.join("scalars");
    let point_bytes = points_payload(&read(&pf)?, &pf)?;
    let points: Vec<G1Affine> = point_bytes
        .par_chunks(POINT_BYTES)
        .enumerate()
        .map(|(i, b)| decode_point(b).map_err(|m| HostError::at("points", i, m)))
        .collect::<Result<_, _>>()
        .map_err(|e| HostError::new(format!("{}: {e}", pf.display())))?;
    let scalars = load_scalars(&sf, decode_scalar)?;
    if points.len() != scalars.len() {
        return Err(HostError::new(format!("{} points but {} scalars", points.len(), scalars.len())));
    }
    Ok(DataSet { point_bytes, points, scalars })
}

/// Reads the points file with arkworks' own deserializer and on-curve test (no subgroup test: the MSM is defined
/// for every curve point): the reference path shares no parsing code with the host path.
pub fn load_points_arkworks(dir: &Path) -> Result<Vec<G1Affine>, HostError> {
    let pf = dir.join("points");
    let data = read(&pf)?;
    let pts = Vec::<G1Affine>::deserialize_uncompressed_unchecked(&data[..])
        .map_err(|e| HostError::new(format!("{}: {e}", pf.display())))?;
    match pts.iter().position(|p| !p.is_on_curve()) {
        Some(i) => Err(HostError::new(format!("{}: points[{i}] is not on the curve", pf.display()))),
        None => Ok(pts),
    }
}

pub fn save_dir(dir: &Path, points: &[G1Affine], scalars: &[[u64; 4]]) -> Result<(), HostError> {
    fs::create_dir_all(dir).map_err(|e| HostError::new(format!("{}: {e}", dir.display())))?;
    let mut pbuf = Vec::with_capacity(8 + points.len() * POINT_BYTES);
    points.serialize_uncompressed(&mut pbuf).expect("in-memory write");
    write(&dir.join("points"), &pbuf)?;
    let big: Vec<BigInt<4>> = scalars.iter().map(|s| BigInt(*s)).collect();
    let mut sbuf = Vec::with_capacity(8 + scalars.len() * SCALAR_BYTES);
    big.serialize_uncompressed(&mut sbuf).expect("in-memory write");
    write(&dir.join("scalars"), &sbuf)
}

/// A data set on a short Weierstrass curve other than BLS12-377 (checked: on the curve, in the subgroup, scalars < r)
pub struct SwDataSet<P: ark_ec::short_weierstrass::SWCurveConfig> {
    pub points: Vec<ark_ec::short_weierstrass::Affine<P>>,
    pub scalars: Vec<[u64; 4]>,
}

pub fn load_dir_sw<P: ark_ec::short_weierstrass::SWCurveConfig>(dir: &Path) -> Result<SwDataSet<P>, HostError> {
    use crate::xyzz;
    let pf = dir.join("points");
    let sf = dir.join("scalars");
    let file = read(&pf)?;
    let payload = counted(&file, &pf, xyzz::point_bytes::<P>())?;
    let points = xyzz::decode_points::<P>(payload).map_err(|e| HostError::new(format!("{}: {e}", pf.display())))?;
    let scalars = load_scalars(&sf, xyzz::decode_scalar::<P>)?;
    if points.len() != scalars.len() {
        return Err(HostError::new(format!("{} points but {} scalars", points.len(), scalars.len())));
    }
    Ok(SwDataSet { points, scalars })
}

pub fn save_dir_sw<P: ark_ec::short_weierstrass::SWCurveConfig>(
    dir: &Path, points: &[ark_ec::short_weierstrass::Affine<P>], scalars: &[[u64; 4]]) -> Result<(), HostError> {
    fs::create_dir_all(dir).map_err(|e| HostError::new(format!("{}: {e}", dir.display())))?;
    let mut pbuf = Vec::new();
    points.serialize_uncompressed(&mut pbuf).expect("in-memory write");
    write(&dir.join("points"), &pbuf)?;
    let big: Vec<BigInt<4>> = scalars.iter().map(|s| BigInt(*s)).collect();
    let mut sbuf = Vec::new();
    big.serialize_uncompressed(&mut sbuf).expect("in-memory write");
    write(&dir.join("scalars"), &sbuf)
}

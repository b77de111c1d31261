//! host-msm: command line of the MSM host library (tests, benchmarks, data sets).
//!
//!   host-msm gen --npow K --seed S --out DIR [--trivial]       data set (same bits as the Python model's gen)
//!   host-msm precompute --dir DIR --out FILE [--check-subgroup] point records; prints the exception indices
//!   host-msm buckets --dir DIR --out FILE [--windows SPEC] [--check-subgroup]
//!                                                               the engine's bucket read-out (software model)
//!   host-msm post --dir DIR --buckets FILE [--windows SPEC] [--partials N] [--check-subgroup]
//!                                                               post-processing; prints the result
//!   host-msm msm --dir DIR                                      arkworks' own MSM; prints the result
//!   host-msm consts                                             the map's constants, for cross-checks
//!   host-msm bench (--npow K [--seed S] | --dir DIR) [--windows SPEC] [--reps R]
//!                                                               timings as one JSON line
//! `--curve bls12_377|bn254|bls12_381` (default bls12_377) selects the curve of gen, precompute, buckets, post and msm;
//! BN254 and BLS12-381 take the XYZZ adder's records (xyzz.rs: at their n, BN254 two-beat point records and three-beat
//! bucket records, BLS12-381 three and four), their own arkworks point encoding, and `--windows` covering their r
//! (default: the curve's board layout, Curve::board_windows: 13x14,12x6 and 13x15,12x5).
//! Results print as `0x<x> 0x<y>` (the field's hex digits each) or `infinity`.  Errors: `host-msm: error: ...` on stderr,
//! exit status 1 (bad input) or 2 (bad usage).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::exit;
use std::time::Instant;

use ark_bls12_377::{G1Affine, G1Projective};
use ark_ec::{CurveGroup, VariableBaseMSM};
use ark_ff::BigInt;

use zkmsm::accumulate::{accumulate, parse_point_records};
use zkmsm::consts::consts;
use zkmsm::convert::{identity_record, precompute_encoded};
use zkmsm::format::{format_result, hex96, POINT_RECORD_BYTES};
use zkmsm::layout::WindowLayout;
use zkmsm::post::postprocess;
use zkmsm::xyzz::{self, Curve};
use zkmsm::{gen, io, HostError};
use ark_ec::short_weierstrass::{Projective, SWCurveConfig};

const USAGE: &str = "usage: host-msm gen|precompute|buckets|post|msm|consts|bench [options] (see src/main.rs)";

struct Args {
    cmd: String,
    opts: HashMap<String, String>,
    flags: Vec<String>,
}

fn usage(msg: &str) -> ! {
    eprintln!("host-msm: {msg}\n{USAGE}");
    exit(2)
}

fn parse_args() -> Args {
    let mut it = std::env::args().skip(1);
    let cmd = it.next().unwrap_or_else(|| usage("missing command"));
    let (mut opts, mut flags) = (HashMap::new(), Vec::new());
    while let Some(a) = it.next() {
        match a.as_str() {
            "--trivial" | "--check-subgroup" => flags.push(a[2..].to_string()),
            s if s.starts_with("--") => {
                let v = it.next().unwrap_or_else(|| usage(&format!("{s} needs a value")));
                opts.insert(s[2..].to_string(), v);
            }
            _ => usage(&format!("unexpected argument {a:?}")),
        }
    }
    Args { cmd, opts, flags }
}

impl Args {
    fn get(&self, k: &str) -> &str {
        self.opts.get(k).map(String::as_str).unwrap_or_else(|| usage(&format!("missing --{k}")))
    }
    fn num<T: std::str::FromStr>(&self, k: &str, default: Option<T>) -> T {
        match self.opts.get(k) {
            Some(v) => v.parse().unwrap_or_else(|_| usage(&format!("--{k}: bad number {v:?}"))),
            None => default.unwrap_or_else(|| usage(&format!("missing --{k}"))),
        }
    }
    fn flag(&self, f: &str) -> bool {
        self.flags.iter().any(|x| x == f)
    }
    fn layout(&self) -> Result<WindowLayout, HostError> {
        let l = match self.opts.get("windows") {
            None => WindowLayout::hardcaml(),
            Some(s) => WindowLayout::parse(s).map_err(|e| HostError::new(format!("--windows: {e}")))?,
        };
        Ok(l.with_partials(self.num("partials", Some(0))))
    }
    fn dir(&self) -> PathBuf {
        PathBuf::from(self.get("dir"))
    }
}

fn records_and_exceptions(ds: &io::DataSet, check_subgroup: bool) -> Result<(Vec<u8>, Vec<usize>), HostError> {
    let mut rec = vec![0u8; ds.points.len() * POINT_RECORD_BYTES];
    let exc = precompute_encoded(&ds.point_bytes, &mut rec, check_subgroup)?;
    Ok((rec, exc))
}

fn extra_terms(ds: &io::DataSet, exc: &[usize]) -> Vec<(G1Affine, [u64; 4])> {
    exc.iter().map(|&i| (ds.points[i], ds.scalars[i])).collect()
}

fn arkworks_msm(points: &[G1Affine], scalars: &[[u64; 4]]) -> G1Affine {
    let big: Vec<BigInt<4>> = scalars.iter().map(|s| BigInt(*s)).collect();
    G1Projective::msm_bigint(points, &big).into_affine()
}

fn bench(a: &Args) -> Result<String, HostError> {
    let layout = a.layout()?;
    let reps: usize = a.num("reps", Some(3));
    let t = Instant::now();
    let (ds, source) = if a.opts.contains_key("dir") {
        (io::load_dir(&a.dir())?, a.get("dir").to_string())
    } else {
        let npow: u32 = a.num("npow", None);
        let (points, scalars) = gen::generate(npow, a.num("seed", Some(1)), false);
        let mut point_bytes = vec![0u8; points.len() * 96];
        for (p, o) in points.iter().zip(point_bytes.chunks_mut(96)) {
            zkmsm::format::encode_point(p, o);
        }
        (io::DataSet { point_bytes, points, scalars }, format!("gen npow {npow}"))
    };
    let gen_s = t.elapsed().as_secs_f64();
    let n = ds.points.len();
    let mut rec = vec![0u8; n * POINT_RECORD_BYTES];
    let mut convert_s = f64::INFINITY;
    let mut exc = Vec::new();
    for _ in 0..reps {
        let t = Instant::now();
        exc = precompute_encoded(&ds.point_bytes, &mut rec, false)?;
        convert_s = convert_s.min(t.elapsed().as_secs_f64());
    }
    let t = Instant::now();
    let pre = parse_point_records(&rec)?;
    let buckets = accumulate(&layout, &pre, &ds.scalars);
    let buckets_model_s = t.elapsed().as_secs_f64();
    let extra = extra_terms(&ds, &exc);
    let mut post_s = f64::INFINITY;
    let mut result = G1Affine::identity();
    for _ in 0..reps {
        let t = Instant::now();
        result = postprocess(&layout, &buckets, &extra)?;
        post_s = post_s.min(t.elapsed().as_secs_f64());
    }
    let mut msm_s = f64::INFINITY;
    let mut reference = G1Affine::identity();
    for _ in 0..reps {
        let t = Instant::now();
        reference = arkworks_msm(&ds.points, &ds.scalars);
        msm_s = msm_s.min(t.elapsed().as_secs_f64());
    }
    if result != reference {
        return Err(HostError::new(format!(
            "post-processed result {} differs from arkworks' {}", format_result(&result), format_result(&reference))));
    }
    Ok(format!(
        "{{\"source\": \"{source}\", \"points\": {n}, \"threads\": {}, \"windows\": \"{}\", \"buckets\": {}, \
         \"reps\": {reps}, \"gen_s\": {gen_s:.6}, \"convert_s\": {convert_s:.6}, \"convert_points_per_s\": {:.1}, \
         \"bucket_model_s\": {buckets_model_s:.6}, \"post_s\": {post_s:.6}, \"arkworks_msm_s\": {msm_s:.6}, \
         \"exceptions\": {}, \"result_matches_arkworks\": true}}",
        rayon::current_num_threads(),
        a.opts.get("windows").map(String::as_str).unwrap_or("13x13,12x7"),
        layout.total_buckets(),
        n as f64 / convert_s,
        exc.len()
    ))
}

fn sw_layout<P: SWCurveConfig>(a: &Args) -> Result<WindowLayout, HostError>
where
    P::BaseField: ark_ff::PrimeField,
{
    // the curve's board layout (its field width names the curve)
    let board = Curve::ALL.iter().find(|c| c.field_bits() == xyzz::field_bits::<P>()).map_or("13x20", |c| c.board_windows());
    let spec = a.opts.get("windows").map(String::as_str).unwrap_or(board);
    let widths = zkmsm::layout::parse_widths(spec).map_err(|e| HostError::new(format!("--windows: {e}")))?;
    let l = WindowLayout::with_max_scalar(&widths, xyzz::r_minus_1::<P>())
        .map_err(|e| HostError::new(format!("--windows: {e}")))?;
    Ok(l.with_partials(a.num("partials", Some(0))))
}

/// the commands on a short Weierstrass curve with the XYZZ adder (BN254, BLS12-381)
fn run_sw<P: SWCurveConfig>(a: &Args) -> Result<String, HostError>
where
    P::BaseField: ark_ff::PrimeField,
{
    match a.cmd.as_str() {
        "gen" => {
            let npow: u32 = a.num("npow", None);
            if npow > 30 {
                usage("--npow: use 0 .. 30");
            }
            let (p, s) = gen::generate_sw::<P>(npow, a.num("seed", Some(0)), a.flag("trivial"));
            io::save_dir_sw::<P>(Path::new(a.get("out")), &p, &s)?;
            Ok(format!("wrote {} points and scalars to {}", p.len(), a.get("out")))
        }
        "precompute" => {
            let ds = io::load_dir_sw::<P>(&a.dir())?;
            io::write(Path::new(a.get("out")), &xyzz::point_records::<P>(&ds.points))?;
            Ok("exceptions 0".to_string())
        }
        "buckets" => {
            let layout = sw_layout::<P>(a)?;
            let ds = io::load_dir_sw::<P>(&a.dir())?;
            io::write(Path::new(a.get("out")), &xyzz::accumulate::<P>(&layout, &ds.points, &ds.scalars))?;
            Ok(format!("{} bucket records, exceptions 0", layout.total_buckets()))
        }
        "post" => {
            let layout = sw_layout::<P>(a)?;
            let path = PathBuf::from(a.get("buckets"));
            let data = std::fs::read(&path).map_err(|e| HostError::new(format!("{}: {e}", path.display())))?;
            let r = xyzz::postprocess::<P>(&layout, &data)
                .map_err(|e| HostError::new(format!("{}: {e}", path.display())))?;
            Ok(xyzz::format_result(&r))
        }
        "msm" => {
            let ds = io::load_dir_sw::<P>(&a.dir())?;
            let big: Vec<BigInt<4>> = ds.scalars.iter().map(|s| BigInt(*s)).collect();
            let big: Vec<<P::ScalarField as ark_ff::PrimeField>::BigInt> = big.iter().map(|b| {
                let mut o = <P::ScalarField as ark_ff::PrimeField>::BigInt::default();
                o.as_mut()[..4].copy_from_slice(&b.0);
                o
            }).collect();
            Ok(xyzz::format_result(&Projective::<P>::msm_bigint(&ds.points, &big).into_affine()))
        }
        other => Err(HostError::new(format!("{other}: not available for --curve {}", a.get("curve")))),
    }
}

fn run(a: &Args) -> Result<String, HostError> {
    let curve = Curve::parse(a.opts.get("curve").map(String::as_str).unwrap_or("bls12_377"))?;
    match curve {
        Curve::Bn254 => return run_sw::<ark_bn254::g1::Config>(a),
        Curve::Bls12_381 => return run_sw::<ark_bls12_381::g1::Config>(a),
        Curve::Bls12_377 => {}
    }
    match a.cmd.as_str() {
        "gen" => {
            let npow: u32 = a.num("npow", None);
            if npow > 30 {
                usage("--npow: use 0 .. 30");
            }
            let (p, s) = gen::generate(npow, a.num("seed", Some(0)), a.flag("trivial"));
            io::save_dir(Path::new(a.get("out")), &p, &s)?;
            Ok(format!("wrote {} points and scalars to {}", p.len(), a.get("out")))
        }
        "precompute" => {
            let ds = io::load_dir(&a.dir())?;
            let (rec, exc) = records_and_exceptions(&ds, a.flag("check-subgroup"))?;
            io::write(Path::new(a.get("out")), &rec)?;
            Ok(format!("exceptions {}{}", exc.len(), exc.iter().map(|i| format!(" {i}")).collect::<String>()))
        }
        "buckets" => {
            let layout = a.layout()?;
            let ds = io::load_dir(&a.dir())?;
            let (rec, exc) = records_and_exceptions(&ds, a.flag("check-subgroup"))?;
            let out = accumulate(&layout, &parse_point_records(&rec)?, &ds.scalars);
            io::write(Path::new(a.get("out")), &out)?;
            Ok(format!("{} bucket records, exceptions {}", layout.total_buckets(), exc.len()))
        }
        "post" => {
            let layout = a.layout()?;
            let ds = io::load_dir(&a.dir())?;
            let (_, exc) = records_and_exceptions(&ds, a.flag("check-subgroup"))?;
            let path = PathBuf::from(a.get("buckets"));
            let data = std::fs::read(&path).map_err(|e| HostError::new(format!("{}: {e}", path.display())))?;
            let r = postprocess(&layout, &data, &extra_terms(&ds, &exc))
                .map_err(|e| HostError::new(format!("{}: {e}", path.display())))?;
            Ok(format_result(&r))
        }
        "msm" => {
            let dir = a.dir();
            let points = io::load_points_arkworks(&dir)?;
            let ds = io::load_dir(&dir)?;
            Ok(format_result(&arkworks_msm(&points, &ds.scalars)))
        }
        "consts" => {
            let k = consts();
            let ident: String = identity_record().iter().rev().map(|b| format!("{b:02x}")).collect();
            Ok(format!("s 0x{}\nc 0x{}\nd 0x{}\nidentity_record 0x{ident}", hex96(&k.s), hex96(&k.c), hex96(&k.d)))
        }
        "bench" => bench(a),
        other => usage(&format!("unknown command {other:?}")),
    }
}

fn main() {
    let args = parse_args();
    match run(&args) {
        Ok(out) => println!("{out}"),
        Err(e) => {
            eprintln!("host-msm: error: {e}");
            exit(1)
        }
    }
}

//! neptune-ref: Filecoin Poseidon digests (and the constants behind them) computed by the `neptune` crate, for
//! differential tests of reference_model/poseidon.
//!
//! usage: neptune-ref --arity N [--hash-type merkle|constant|encryption|custom|sponge] [--length L]
//!                    [--custom-id ID] [--mode correct|static] [--strength standard|strengthened] [--constants]
//!                    [--bench SECONDS]
//!
//! Hash mode (default): stdin holds one preimage per line, elements as 0x-prefixed big-endian hex separated by
//! blanks (N elements, or L for --hash-type constant); stdout gets one digest per line, 0x + 64 hex digits.
//! --constants: print neptune's constants for the instance instead: first `rounds <R_F> <R_P>`, then one value
//! per line as `<kind> 0x<hex>`: rc (round constants, round-major), mds (row-major), crc (compressed round constants), pre (pre-sparse matrix,
//! row-major), then per partial round sparse_w (the first column, t values) and sparse_v (first row without
//! its first entry, t-1 values).
//! --bench S: no input; hash distinct preimages on one thread for at least S seconds and print
//! `hashes <n> seconds <s> rate <hashes per second>` (the CPU baseline of the benchmark report).
//! Errors go to stderr with the line number; the exit status is 1 for bad input, 2 for bad usage.

use std::io::{self, BufRead, BufWriter, Write};
use std::process::exit;

use blstrs::Scalar;
use ff::PrimeField;
use generic_array::typenum::*;
use neptune::hash_type::{CType, HashType};
use neptune::poseidon::{HashMode, Poseidon, PoseidonConstants};
use neptune::{Arity, Strength};

struct Options {
    arity: usize,
    hash_type: String,
    length: Option<usize>,
    custom_id: u64,
    mode: HashMode,
    strength: Strength,
    constants: bool,
    bench: Option<f64>,
}

fn usage(msg: &str) -> ! {
    eprintln!("neptune-ref: {msg}");
    eprintln!(
        "usage: neptune-ref --arity N [--hash-type merkle|constant|encryption|custom|sponge] [--length L] \
         [--custom-id ID] [--mode correct|static] [--strength standard|strengthened] [--constants] [--bench S]"
    );
    exit(2)
}

fn parse_args() -> Options {
    let mut o = Options {
        arity: 0,
        hash_type: "merkle".into(),
        length: None,
        custom_id: 1,
        mode: HashMode::OptimizedStatic,
        strength: Strength::Standard,
        constants: false,
        bench: None,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    let value = |i: usize| -> &str {
        args.get(i + 1).map(|s| s.as_str()).unwrap_or_else(|| usage(&format!("{} needs a value", args[i])))
    };
    while i < args.len() {
        match args[i].as_str() {
            "--arity" => o.arity = value(i).parse().unwrap_or_else(|_| usage("--arity: not a number")),
            "--hash-type" => o.hash_type = value(i).to_string(),
            "--length" => o.length = Some(value(i).parse().unwrap_or_else(|_| usage("--length: not a number"))),
            "--custom-id" => o.custom_id = value(i).parse().unwrap_or_else(|_| usage("--custom-id: not a number")),
            "--mode" => {
                o.mode = match value(i) {
                    "correct" => HashMode::Correct,
                    "static" => HashMode::OptimizedStatic,
                    m => usage(&format!("unknown mode {m}")),
                }
            }
            "--strength" => {
                o.strength = match value(i) {
                    "standard" => Strength::Standard,
                    "strengthened" => Strength::Strengthened,
                    s => usage(&format!("unknown strength {s}")),
                }
            }
            "--constants" => {
                o.constants = true;
                i += 1;
                continue;
            }
            "--bench" => {
                let s: f64 = value(i).parse().unwrap_or_else(|_| usage("--bench: not a number of seconds"));
                if !(s > 0.0 && s <= 3600.0) {
                    usage("--bench: seconds must be in (0, 3600]");
                }
                o.bench = Some(s)
            }
            a => usage(&format!("unknown argument {a}")),
        }
        i += 2;
    }
    if !(1..=16).contains(&o.arity) {
        usage("--arity must be 1..16");
    }
    o
}

fn hex(x: &Scalar) -> String {
    let mut be = x.to_repr();
    be.reverse();
    let s: String = be.iter().map(|b| format!("{b:02x}")).collect();
    format!("0x{s}")
}

fn parse_element(tok: &str) -> Result<Scalar, String> {
    let digits = tok.strip_prefix("0x").ok_or_else(|| format!("{tok:?} is not 0x-prefixed hex"))?;
    if digits.is_empty() || digits.len() > 64 || !digits.bytes().all(|c| c.is_ascii_hexdigit()) {
        return Err(format!("{tok:?} is not hex of at most 64 digits"));
    }
    let padded = format!("{digits:0>64}");
    let mut le = [0u8; 32];
    for k in 0..32 {
        le[31 - k] = u8::from_str_radix(&padded[2 * k..2 * k + 2], 16).unwrap();
    }
    Option::from(Scalar::from_repr(le)).ok_or_else(|| format!("{tok} is not below the field modulus"))
}

fn run<A: Arity<Scalar>>(o: &Options) {
    let hash_type: HashType<Scalar, A> = match o.hash_type.as_str() {
        "merkle" => HashType::MerkleTree,
        "constant" => HashType::ConstantLength(o.length.unwrap_or(o.arity)),
        "encryption" => HashType::Encryption,
        "custom" => HashType::Custom(CType::Arbitrary(o.custom_id)),
        "sponge" => HashType::Sponge,
        h => usage(&format!("unknown hash type {h}")),
    };
    let width = match hash_type {
        HashType::ConstantLength(l) => l,
        _ => o.arity,
    };
    let constants = PoseidonConstants::<Scalar, A>::new_with_strength_and_type(o.strength, hash_type);
    let out = io::stdout();
    let mut out = BufWriter::new(out.lock());
    if o.constants {
        dump_constants(&constants, &mut out);
        return;
    }
    if let Some(seconds) = o.bench {
        bench(&constants, width, o.mode, seconds, &mut out);
        return;
    }
    for (n, line) in io::stdin().lock().lines().enumerate() {
        let line = line.unwrap_or_else(|e| {
            eprintln!("neptune-ref: reading stdin: {e}");
            exit(1)
        });
        let preimage: Result<Vec<Scalar>, String> = line.split_whitespace().map(parse_element).collect();
        let preimage = preimage.unwrap_or_else(|e| {
            eprintln!("neptune-ref: line {}: {e}", n + 1);
            exit(1)
        });
        if preimage.len() != width {
            eprintln!("neptune-ref: line {}: expected {width} elements, got {}", n + 1, preimage.len());
            exit(1);
        }
        let digest = Poseidon::<Scalar, A>::new_with_preimage(&preimage, &constants).hash_in_mode(o.mode);
        writeln!(out, "{}", hex(&digest)).unwrap();
    }
}

/// One thread hashing distinct preimages (element i of hash n is n * width + i + 1) in batches of 1,024 until
/// `seconds` have passed; the digests are folded into a sum that is printed, so no hash can be optimised away.
fn bench<A: Arity<Scalar>>(c: &PoseidonConstants<Scalar, A>, width: usize, mode: HashMode, seconds: f64,
                           out: &mut impl Write) {
    let start = std::time::Instant::now();
    let mut n: u64 = 0;
    let mut fold = Scalar::from(0u64);
    let mut preimage = vec![Scalar::from(0u64); width];
    while start.elapsed().as_secs_f64() < seconds {
        for _ in 0..1024 {
            for (i, x) in preimage.iter_mut().enumerate() {
                *x = Scalar::from(n * width as u64 + i as u64 + 1);
            }
            fold += Poseidon::<Scalar, A>::new_with_preimage(&preimage, c).hash_in_mode(mode);
            n += 1;
        }
    }
    let s = start.elapsed().as_secs_f64();
    writeln!(out, "hashes {n} seconds {s:.3} rate {:.1} fold {}", n as f64 / s, hex(&fold)).unwrap();
}

fn dump_constants<A: Arity<Scalar>>(c: &PoseidonConstants<Scalar, A>, out: &mut impl Write) {
    writeln!(out, "rounds {} {}", c.full_rounds, c.partial_rounds).unwrap();
    let mut put = |kind: &str, x: &Scalar| writeln!(out, "{kind} {}", hex(x)).unwrap();
    c.round_constants.as_ref().unwrap().iter().for_each(|x| put("rc", x));
    c.mds_matrices.m.iter().flatten().for_each(|x| put("mds", x));
    c.compressed_round_constants.iter().for_each(|x| put("crc", x));
    c.pre_sparse_matrix.iter().flatten().for_each(|x| put("pre", x));
    for s in &c.sparse_matrixes {
        s.w_hat.iter().for_each(|x| put("sparse_w", x));
        s.v_rest.iter().for_each(|x| put("sparse_v", x));
    }
}

fn main() {
    let o = parse_args();
    match o.arity {
        1 => run::<U1>(&o),
        2 => run::<U2>(&o),
        3 => run::<U3>(&o),
        4 => run::<U4>(&o),
        5 => run::<U5>(&o),
        6 => run::<U6>(&o),
        7 => run::<U7>(&o),
        8 => run::<U8>(&o),
        9 => run::<U9>(&o),
        10 => run::<U10>(&o),
        11 => run::<U11>(&o),
        12 => run::<U12>(&o),
        13 => run::<U13>(&o),
        14 => run::<U14>(&o),
        15 => run::<U15>(&o),
        16 => run::<U16>(&o),
        _ => unreachable!(),
    }
}

//! A Groth16 proof with the G1 MSMs on the cards (msm_fpga::groth16), checked against ark-groth16's own proof and
//! verifier (`./run.sh prove` runs it through the XDMA emulator).
//!
//!     prove CURVE DEVICES HASHES SEED [WINDOWS [TIMEOUT_MS]]
//!
//! The circuit: knowledge of a MiMC preimage through a chain of HASHES hashes (644 constraints each).  Steps: setup
//! on the CPU (ark-groth16, seeded), the key's G1 queries loaded into the cards, a proof on the cards, arkworks' proof
//! with the same r and s, the two compared byte for byte (compressed), `Groth16::verify` on the card's proof; every
//! step timed.  TIMEOUT_MS (default 600,000): a transfer making no progress for that long is a card error (a
//! simulated card with real multipliers needs more).  Exit 0, 1 (a card error), 2 (usage), 3 (the proofs differ or
//! verification fails).

#[path = "common/mimc.rs"]
mod mimc;

use std::process::exit;
use std::time::Instant;

use ark_ec::pairing::Pairing;
use ark_ec::short_weierstrass::{Affine, Projective};
use ark_ff::UniformRand;
use ark_groth16::Groth16;
use ark_relations::r1cs::{ConstraintSynthesizer, ConstraintSystem};
use ark_serialize::CanonicalSerialize;
use ark_snark::SNARK;
use msm_fpga::groth16::CardProver;
use msm_fpga::{CardCurve, Cards, Error, Options};
use rand::rngs::StdRng;
use rand::SeedableRng;

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn run<E, P>(devices: &str, hashes: usize, seed: u64, windows: Option<String>, timeout_ms: u32) -> Result<bool, Error>
where
    P: CardCurve,
    E: Pairing<G1Affine = Affine<P>, G1 = Projective<P>, ScalarField = P::ScalarField>,
{
    let mut rng = StdRng::seed_from_u64(seed);
    let c = mimc::constants::<E::ScalarField>();
    let (xl, xr) = (E::ScalarField::rand(&mut rng), E::ScalarField::rand(&mut rng));
    let image = mimc::image(xl, xr, hashes, &c);
    let circuit = mimc::MimcChain { xl: Some(xl), xr: Some(xr), image: Some(image), hashes, constants: c.clone() };
    let cs = ConstraintSystem::<E::ScalarField>::new_ref();
    circuit.clone().generate_constraints(cs.clone()).map_err(|e| Error::Input(e.to_string()))?;
    println!("circuit: MiMC chain of {hashes} hash(es) on {}, {} constraints, {} variables", P::CURVE.name(),
             cs.num_constraints(), cs.num_instance_variables() + cs.num_witness_variables());

    let t = Instant::now();
    let setup = mimc::MimcChain { xl: None, xr: None, image: None, hashes, constants: c };
    let (pk, vk) = Groth16::<E>::circuit_specific_setup(setup, &mut rng).map_err(|e| Error::Host(e.to_string()))?;
    println!("setup (CPU): {:.3} s; G1 queries: A {}, B {}, L {}, H {} points", t.elapsed().as_secs_f64(),
             pk.a_query.len(), pk.b_g1_query.len(), pk.l_query.len(), pk.h_query.len());

    let opts = Options { windows, timeout_ms, ..Options::default() };
    let cards = match devices.strip_prefix("all:") {
        Some(dir) => Cards::<P>::all(dir, opts)?,
        None => Cards::<P>::open_many(&devices.split(',').collect::<Vec<_>>(), opts)?,
    };
    let t = Instant::now();
    let prover = CardProver::new(&cards, &pk)?;
    println!("proving key's G1 queries resident on {}: {:.3} s", cards.prefixes().join(","), t.elapsed().as_secs_f64());

    let (r, s) = (E::ScalarField::rand(&mut rng), E::ScalarField::rand(&mut rng));
    let (proof, times) = prover.prove_with(circuit.clone(), r, s)?;
    let t = Instant::now();
    let reference = Groth16::<E>::create_proof_with_reduction(circuit, &pk, r, s).map_err(|e| Error::Host(e.to_string()))?;
    let cpu_s = t.elapsed().as_secs_f64();
    let (mut mine, mut theirs) = (Vec::new(), Vec::new());
    proof.serialize_compressed(&mut mine).map_err(|e| Error::Host(e.to_string()))?;
    reference.serialize_compressed(&mut theirs).map_err(|e| Error::Host(e.to_string()))?;
    println!("proof (card, compressed): {}", hex(&mine));
    let verified = Groth16::<E>::verify(&vk, &[image], &proof).map_err(|e| Error::Host(e.to_string()))?;
    println!("time (card proof): synthesis {:.3} s, witness map {:.3} s, G1 MSMs on the card(s) {:.3} s (B in G2 on the \
              CPU meanwhile {:.3} s), total {:.3} s; arkworks' CPU proof {:.3} s",
             times.synthesize_s, times.witness_map_s, times.g1_card_s, times.g2_cpu_s, times.total_s, cpu_s);
    let same = mine == theirs;
    println!("{} the proof bytes equal arkworks' ({} bytes)", if same { "ok" } else { "DIFFERS:" }, mine.len());
    println!("{} Groth16::verify", if verified { "ok" } else { "FAILED:" });
    Ok(same && verified)
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    if a.len() < 5 {
        eprintln!("usage: prove CURVE DEVICES HASHES SEED [WINDOWS [TIMEOUT_MS]]");
        exit(2);
    }
    let (hashes, seed) = match (a[3].parse::<usize>(), a[4].parse::<u64>()) {
        (Ok(h), Ok(s)) if h >= 1 => (h, s),
        _ => {
            eprintln!("prove: HASHES (>= 1) and SEED are numbers");
            exit(2);
        }
    };
    let w = a.get(5).filter(|w| !w.is_empty()).cloned();
    let timeout_ms = match a.get(6).map(|t| t.parse::<u32>()) {
        None => 600_000,
        Some(Ok(t)) if t >= 1 => t,
        _ => {
            eprintln!("prove: TIMEOUT_MS is a number of milliseconds (>= 1, < 2^32)");
            exit(2);
        }
    };
    let r = match a[1].as_str() {
        "bls12_377" => run::<ark_bls12_377::Bls12_377, ark_bls12_377::g1::Config>(&a[2], hashes, seed, w, timeout_ms),
        "bn254" => run::<ark_bn254::Bn254, ark_bn254::g1::Config>(&a[2], hashes, seed, w, timeout_ms),
        "bls12_381" => run::<ark_bls12_381::Bls12_381, ark_bls12_381::g1::Config>(&a[2], hashes, seed, w, timeout_ms),
        c => {
            eprintln!("prove: unknown curve {c}");
            exit(2);
        }
    };
    match r {
        Ok(true) => {}
        Ok(false) => exit(3),
        Err(e) => {
            eprintln!("prove: {e}");
            exit(1);
        }
    }
}

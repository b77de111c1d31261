//! What a Groth16 proof costs on this CPU, step by step, for the report's Groth16 row (zkspinal/bench/groth16.py):
//! arkworks' whole proof, and the steps a card-backed proof keeps on the host.
//!
//!     groth16_cost CURVE LOG2_CONSTRAINTS SEED
//!
//! The circuit is the MiMC hash chain of examples/prove.rs with ceil(2^LOG2 / 644) hashes.  Prints one JSON object:
//! the circuit's size, the G1 queries' lengths, seconds of the setup, of arkworks' proof (`prove_s`), and of its
//! steps measured apart: synthesis, the QAP witness map, each G1 MSM and the G2 MSM (arkworks' VariableBaseMSM on the
//! key's queries), and the host's post-processing of one read-out of the curve's board engine layout (`post_s`: the
//! buckets of one MSM to its result; the read-out comes from the host library's model of the engine).  The thread
//! count is rayon's (RAYON_NUM_THREADS=1: one core).

#[path = "common/mimc.rs"]
mod mimc;

use std::process::exit;
use std::time::Instant;

use ark_ec::pairing::Pairing;
use ark_ec::short_weierstrass::{Affine, Projective};
use ark_ec::{CurveGroup, VariableBaseMSM};
use ark_ff::UniformRand;
use ark_groth16::r1cs_to_qap::{LibsnarkReduction, R1CSToQAP};
use ark_groth16::Groth16;
use ark_poly::GeneralEvaluationDomain;
use ark_relations::r1cs::{ConstraintSynthesizer, ConstraintSystem, OptimizationGoal};
use ark_snark::SNARK;
use msm_fpga::CardCurve;
use rand::rngs::StdRng;
use rand::SeedableRng;

/// seconds of one read-out's post-processing on the board layout: buckets of a 2^12-point MSM from the host
/// library's engine model (the bucket count, not the points, sets the cost)
fn post_seconds<P: CardCurve>(rng: &mut StdRng) -> (f64, usize) {
    let widths = zkmsm::layout::parse_widths(P::CURVE.board_windows()).unwrap();
    let layout = P::layout(&widths, 0).unwrap();
    let pts: Vec<Affine<P>> = Projective::<P>::normalize_batch(&(0..4096).map(|_| Projective::<P>::rand(rng)).collect::<Vec<_>>());
    let sc: Vec<[u64; 4]> = (0..4096).map(|_| msm_fpga::curve::scalar_words(&P::ScalarField::rand(rng))).collect();
    let readout = P::model_readout(&layout, &pts, &sc);
    let t = Instant::now();
    let _ = P::postprocess(&layout, &readout, &[]).unwrap();
    (t.elapsed().as_secs_f64(), layout.total_records())
}

fn run<E, P>(log2: u32, seed: u64) -> String
where
    P: CardCurve,
    E: Pairing<G1Affine = Affine<P>, G1 = Projective<P>, ScalarField = P::ScalarField>,
{
    let mut rng = StdRng::seed_from_u64(seed);
    let hashes = (1usize << log2).div_ceil(2 * mimc::ROUNDS);
    let c = mimc::constants::<E::ScalarField>();
    let (xl, xr) = (E::ScalarField::rand(&mut rng), E::ScalarField::rand(&mut rng));
    let image = mimc::image(xl, xr, hashes, &c);
    let circuit = mimc::MimcChain { xl: Some(xl), xr: Some(xr), image: Some(image), hashes, constants: c.clone() };
    let t = Instant::now();
    let setup = mimc::MimcChain { xl: None, xr: None, image: None, hashes, constants: c };
    let (pk, _vk) = Groth16::<E>::circuit_specific_setup(setup, &mut rng).unwrap();
    let setup_s = t.elapsed().as_secs_f64();
    let (r, s) = (E::ScalarField::rand(&mut rng), E::ScalarField::rand(&mut rng));
    let t = Instant::now();
    let _proof = Groth16::<E>::create_proof_with_reduction(circuit.clone(), &pk, r, s).unwrap();
    let prove_s = t.elapsed().as_secs_f64();

    // the steps apart
    let t = Instant::now();
    let cs = ConstraintSystem::new_ref();
    cs.set_optimization_goal(OptimizationGoal::Constraints);
    circuit.generate_constraints(cs.clone()).unwrap();
    cs.finalize();
    let synthesize_s = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let h = LibsnarkReduction::witness_map::<E::ScalarField, GeneralEvaluationDomain<E::ScalarField>>(cs.clone()).unwrap();
    let witness_map_s = t.elapsed().as_secs_f64();
    let (constraints, input, aux) = {
        let b = cs.borrow().unwrap();
        (b.num_constraints, b.instance_assignment[1..].to_vec(), b.witness_assignment.clone())
    };
    let a = [&input[..], &aux[..]].concat();
    let time = |f: &dyn Fn()| {
        let t = Instant::now();
        f();
        t.elapsed().as_secs_f64()
    };
    let g1 = |q: &[Affine<P>], s: &[P::ScalarField]| {
        let _ = <Projective<P> as VariableBaseMSM>::msm_unchecked(q, s);
    };
    let msm_a = time(&|| g1(&pk.a_query[1..], &a));
    let msm_b = time(&|| g1(&pk.b_g1_query[1..], &a));
    let msm_l = time(&|| g1(&pk.l_query, &aux));
    let msm_h = time(&|| g1(&pk.h_query, &h));
    let msm_g2 = time(&|| {
        let _ = <E::G2 as VariableBaseMSM>::msm_unchecked(&pk.b_g2_query[1..], &a);
    });
    let (post_s, records) = post_seconds::<P>(&mut rng);
    format!("{{\"curve\": \"{}\", \"log2\": {log2}, \"hashes\": {hashes}, \"constraints\": {constraints}, \
             \"threads\": {}, \"sizes\": {{\"a\": {}, \"b\": {}, \"l\": {}, \"h\": {}}}, \"setup_s\": {setup_s:.4}, \
             \"prove_s\": {prove_s:.4}, \"synthesize_s\": {synthesize_s:.4}, \"witness_map_s\": {witness_map_s:.4}, \
             \"msm_s\": {{\"a\": {msm_a:.4}, \"b\": {msm_b:.4}, \"l\": {msm_l:.4}, \"h\": {msm_h:.4}, \"g2\": {msm_g2:.4}}}, \
             \"post_s\": {post_s:.4}, \"readout_records\": {records}}}",
            P::CURVE.name(), rayon::current_num_threads(), a.len(), a.len(), aux.len(), pk.h_query.len())
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let parsed = (a.get(2).and_then(|s| s.parse::<u32>().ok()), a.get(3).and_then(|s| s.parse::<u64>().ok()));
    let (log2, seed) = match parsed {
        (Some(l), Some(s)) if (4..=26).contains(&l) => (l, s),
        _ => {
            eprintln!("usage: groth16_cost CURVE LOG2_CONSTRAINTS (4..26) SEED");
            exit(2);
        }
    };
    let out = match a[1].as_str() {
        "bls12_377" => run::<ark_bls12_377::Bls12_377, ark_bls12_377::g1::Config>(log2, seed),
        "bn254" => run::<ark_bn254::Bn254, ark_bn254::g1::Config>(log2, seed),
        "bls12_381" => run::<ark_bls12_381::Bls12_381, ark_bls12_381::g1::Config>(log2, seed),
        c => {
            eprintln!("groth16_cost: unknown curve {c}");
            exit(2);
        }
    };
    println!("{out}");
}

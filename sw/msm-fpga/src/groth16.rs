//! Groth16 proofs with the G1 MSMs on the cards, over arkworks' public API (`ark-groth16`'s `ProvingKey` and its
//! R1CS-to-QAP witness map): the four G1 queries (A, B in G1, L, H) stay resident in the cards' point stores across
//! proofs, each proof sends only its scalars, and B in G2 is computed on the CPU while the cards run.
//!
//! The proof is ark-groth16's `create_proof_with_reduction` step for step (the same randomness r, s gives the same
//! group elements, hence the same bytes):
//!   A = alpha + sum_i a_i A_i + r delta,  B = beta + sum_i a_i B_i + s delta (G2, and in G1 for C),
//!   C = s A + r B_1 - r s delta + sum_{aux} a_i L_i + sum_j h_j H_j,
//! with a the full assignment (instance without its leading one, then witness) and h the QAP witness.

use std::time::Instant;

use ark_ec::pairing::Pairing;
use ark_ec::short_weierstrass::{Affine, Projective};
use ark_ec::{CurveGroup, VariableBaseMSM};
use ark_ff::{UniformRand, Zero};
use ark_groth16::r1cs_to_qap::{LibsnarkReduction, R1CSToQAP};
use ark_groth16::{Proof, ProvingKey};
use ark_poly::GeneralEvaluationDomain;
use ark_relations::r1cs::{ConstraintSynthesizer, ConstraintSystem, OptimizationGoal};
use ark_std::rand::Rng;

use crate::{Bases, CardCurve, Cards, Error};

/// Where a proof's time went (seconds).
#[derive(Debug, Clone, Copy, Default)]
pub struct ProveTimes {
    /// the circuit's constraints and assignment
    pub synthesize_s: f64,
    /// the QAP witness h (FFTs on the CPU)
    pub witness_map_s: f64,
    /// the four G1 MSMs through the cards (each: scalars out, buckets back, post-processing)
    pub g1_card_s: f64,
    /// B in G2 on the CPU (while the cards run the G1 MSMs)
    pub g2_cpu_s: f64,
    /// the whole proof
    pub total_s: f64,
}

/// A Groth16 proving key whose G1 queries are resident in the cards.
pub struct CardProver<'c, E, P>
where
    P: CardCurve,
    E: Pairing<G1Affine = Affine<P>, G1 = Projective<P>, ScalarField = P::ScalarField>,
{
    pk: &'c ProvingKey<E>,
    a: Bases<'c, P>,
    b: Bases<'c, P>,
    l: Bases<'c, P>,
    h: Bases<'c, P>,
}

fn g1_query<'c, P: CardCurve>(cards: &'c Cards<P>, q: &[Affine<P>], what: &str) -> Result<Bases<'c, P>, Error> {
    cards.load_bases(q).map_err(|e| match e {
        Error::Input(m) => Error::Input(format!("{what}: {m}")),
        e => e,
    })
}

impl<'c, E, P> CardProver<'c, E, P>
where
    P: CardCurve,
    E: Pairing<G1Affine = Affine<P>, G1 = Projective<P>, ScalarField = P::ScalarField>,
{
    /// Loads the key's G1 queries into the cards: A and B in G1 without their first entry (the one variable's,
    /// added on the host), L and H whole.
    pub fn new(cards: &'c Cards<P>, pk: &'c ProvingKey<E>) -> Result<Self, Error> {
        if pk.a_query.len() < 2 || pk.b_g1_query.len() != pk.a_query.len() || pk.h_query.is_empty() {
            return Err(Error::Input("a proving key without variables or without its H query".into()));
        }
        Ok(CardProver {
            pk,
            a: g1_query(cards, &pk.a_query[1..], "the A query")?,
            b: g1_query(cards, &pk.b_g1_query[1..], "the B query in G1")?,
            l: g1_query(cards, &pk.l_query, "the L query")?,
            h: g1_query(cards, &pk.h_query, "the H query")?,
        })
    }

    /// A proof of `circuit` with fresh randomness r, s from `rng` (as ark-groth16's `prove`).
    pub fn prove<C: ConstraintSynthesizer<E::ScalarField>, R: Rng>(&self, circuit: C, rng: &mut R)
        -> Result<(Proof<E>, ProveTimes), Error> {
        let r = E::ScalarField::rand(rng);
        let s = E::ScalarField::rand(rng);
        self.prove_with(circuit, r, s)
    }

    /// A proof of `circuit` with the randomness r, s (ark-groth16's `create_proof_with_reduction`).
    pub fn prove_with<C: ConstraintSynthesizer<E::ScalarField>>(&self, circuit: C, r: E::ScalarField, s: E::ScalarField)
        -> Result<(Proof<E>, ProveTimes), Error> {
        let syn = |e: ark_relations::r1cs::SynthesisError| Error::Input(format!("the circuit: {e}"));
        let mut t = ProveTimes::default();
        let t0 = Instant::now();
        let cs = ConstraintSystem::new_ref();
        cs.set_optimization_goal(OptimizationGoal::Constraints);
        circuit.generate_constraints(cs.clone()).map_err(syn)?;
        cs.finalize();
        if !cs.is_satisfied().map_err(syn)? {
            return Err(Error::Input("the circuit's assignment does not satisfy its constraints".into()));
        }
        t.synthesize_s = t0.elapsed().as_secs_f64();
        let t1 = Instant::now();
        let h = LibsnarkReduction::witness_map::<E::ScalarField, GeneralEvaluationDomain<E::ScalarField>>(cs.clone())
            .map_err(syn)?;
        t.witness_map_s = t1.elapsed().as_secs_f64();
        let (input, aux) = {
            let b = cs.borrow().ok_or_else(|| Error::Host("the constraint system is shared".into()))?;
            (b.instance_assignment[1..].to_vec(), b.witness_assignment.clone())
        };
        let assignment = [&input[..], &aux[..]].concat();
        if assignment.len() != self.a.len() || aux.len() != self.l.len() {
            return Err(Error::Input(format!("the circuit has {} variables ({} witness), the key {} ({})",
                                            assignment.len(), aux.len(), self.a.len(), self.l.len())));
        }
        let pk = self.pk;
        // B in G2 on the CPU while the cards run the G1 MSMs
        let (g1, g2) = std::thread::scope(|sc| {
            let g2 = sc.spawn(|| {
                let t = Instant::now();
                let acc = <E::G2 as VariableBaseMSM>::msm_unchecked(&pk.b_g2_query[1..], &assignment);
                (pk.vk.delta_g2 * s + pk.b_g2_query[0] + acc + pk.vk.beta_g2, t.elapsed().as_secs_f64())
            });
            let t = Instant::now();
            let g1 = (|| -> Result<_, Error> {
                let h_len = h.len().min(self.h.len());
                Ok((self.a.msm(&assignment)?, self.b.msm(&assignment)?, self.l.msm(&aux)?, self.h.msm(&h[..h_len])?))
            })();
            let g1_s = t.elapsed().as_secs_f64();
            (g1.map(|v| (v, g1_s)), g2.join())
        });
        let ((a_acc, b_acc, l_acc, h_acc), g1_s) = g1?;
        let (g2_b, g2_s) = g2.map_err(|_| Error::Host("a panic in the G2 MSM".into()))?;
        t.g1_card_s = g1_s;
        t.g2_cpu_s = g2_s;
        let g_a = pk.delta_g1 * r + pk.a_query[0] + a_acc + pk.vk.alpha_g1;
        let g1_b = if r.is_zero() { E::G1::zero() } else { pk.delta_g1 * s + pk.b_g1_query[0] + b_acc + pk.beta_g1 };
        let g_c = g_a * s + g1_b * r - pk.delta_g1 * (r * s) + l_acc + h_acc;
        t.total_s = t0.elapsed().as_secs_f64();
        Ok((Proof { a: g_a.into_affine(), b: g2_b.into_affine(), c: g_c.into_affine() }, t))
    }
}

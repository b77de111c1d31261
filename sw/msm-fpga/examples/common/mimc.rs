//! A MiMC hash chain as an R1CS circuit (ark-r1cs-std): knowledge of a preimage (xl, xr) whose image after `hashes`
//! applications of MiMC-2n/n (Feistel, x^3, 322 rounds: xl, xr <- (xl + c_i)^3 + xr, xl; the image is xl) is public.
//! Two constraints per round: 644 per hash, so 7 hashes pass 2^12.

use ark_ff::PrimeField;
use ark_r1cs_std::alloc::AllocVar;
use ark_r1cs_std::eq::EqGadget;
use ark_r1cs_std::fields::fp::FpVar;
use ark_r1cs_std::fields::FieldVar;
use ark_r1cs_std::R1CSVar;
use ark_relations::r1cs::{ConstraintSynthesizer, ConstraintSystemRef, SynthesisError};
use rand::rngs::StdRng;
use rand::SeedableRng;

pub const ROUNDS: usize = 322;

/// the round constants: fixed for the circuit (a seeded generator, as arkworks' MiMC example draws them)
pub fn constants<F: PrimeField>() -> Vec<F> {
    let mut rng = StdRng::seed_from_u64(0x6d69_6d63);
    (0..ROUNDS).map(|_| F::rand(&mut rng)).collect()
}

/// MiMC applied `hashes` times to (xl, xr), natively
pub fn image<F: PrimeField>(mut xl: F, mut xr: F, hashes: usize, c: &[F]) -> F {
    for _ in 0..hashes {
        for ci in c {
            let t = xl + ci;
            let next = t * t * t + xr;
            xr = xl;
            xl = next;
        }
        xr = F::zero(); // the next hash of the chain takes (image, 0)
    }
    xl
}

#[derive(Clone)]
pub struct MimcChain<F: PrimeField> {
    pub xl: Option<F>,
    pub xr: Option<F>,
    pub image: Option<F>,
    pub hashes: usize,
    pub constants: Vec<F>,
}

impl<F: PrimeField> ConstraintSynthesizer<F> for MimcChain<F> {
    fn generate_constraints(self, cs: ConstraintSystemRef<F>) -> Result<(), SynthesisError> {
        let image = FpVar::new_input(cs.clone(), || self.image.ok_or(SynthesisError::AssignmentMissing))?;
        let mut xl = FpVar::new_witness(cs.clone(), || self.xl.ok_or(SynthesisError::AssignmentMissing))?;
        let mut xr = FpVar::new_witness(cs.clone(), || self.xr.ok_or(SynthesisError::AssignmentMissing))?;
        for _ in 0..self.hashes {
            for ci in &self.constants {
                let t = &xl + *ci;
                let t2 = t.square()?;
                // the round's output is a variable of its own (t^2 * t = next - xr): as a sum `t^2 * t + xr` the
                // linear combinations would chain through the Feistel rounds and grow with each, quadratic memory
                // at setup
                let next = FpVar::new_witness(cs.clone(), || Ok(t2.value()? * t.value()? + xr.value()?))?;
                t2.mul_equals(&t, &(&next - &xr))?;
                xr = xl;
                xl = next;
            }
            xr = FpVar::zero();
        }
        xl.enforce_equal(&image)
    }
}

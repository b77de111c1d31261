//! neptune's [`BatchHasher`] on a zkspinal Poseidon card: PoseidonAxis behind the board's InbandLast adapter
//! (hw/src/zkspinal/system/PoseidonInband.scala), reached through the XDMA driver's device files by libzkxdma
//! (sw/lib), or through the XDMA emulator (sw/emu) with `LD_PRELOAD=libzkemu.so` and an emulator directory's prefix.
//!
//! A batch goes out as DMA jobs of up to `max_batch_size` preimages: each preimage is `A` beats of 32 bytes
//! (canonical little-endian, the in-band flag bit set on its last element: the end of frame), the digests come back one
//! 32-byte beat each, in order.  Hashes are MerkleTree hashes (domain tag 2^A - 1), which is what neptune's batch
//! hashers compute for tree building.  A frame the core rejects comes back as an all-zero beat and is an error.
//!
//! Several cards (`new_multi`, `all_cards`): a batch is spread over them by libzkxdma's `zk_spread` (one thread per
//! card, every card's DMA in flight at once, jobs of at most `max_batch_size` preimages sized by each card's measured
//! rate); the digests come back in input order.  A card that fails (no progress within the timeout, a DMA error, a
//! rejected or missing digest, the card gone) is reset, named on stderr, and its preimages are hashed by the others;
//! only when every card failed is the batch an error.
//!
//! Errors are `neptune::Error::Other` with libzkxdma's message (device path, what, strerror).
// neptune 13 takes generic-array 0.14 arrays, which that crate marks deprecated in favour of 1.x
#![allow(deprecated)]
pub mod tree;

use std::marker::PhantomData;
use std::sync::Mutex;

use blstrs::Scalar as Fr;
use ff::PrimeField;
use generic_array::GenericArray;
use neptune::{Arity, BatchHasher, Error};
pub use zkxdma::contract;
use zkxdma::{zk_c2h, zk_h2c, DmaBuf, Device, ZK_CORE_POSEIDON, ZK_MAX_CARDS, ZK_MAX_CHANNELS, ZK_USER};

/// bytes per beat (one field element)
const BEAT: usize = contract::POSEIDON_FRAME_BEAT.bytes(0);

/// The cards' Poseidon cores as one neptune batch hasher for arity `A`.
pub struct FpgaBatchHasher<A> {
    /// one lock per card: zk_spread runs each card's jobs on a thread of its own
    devs: Vec<Mutex<Device>>,
    channel: u32,
    max_batch: usize,
    shares: Vec<usize>,
    _arity: PhantomData<A>,
}

/// one DMA job on one card: preimages -> digests into `out` (same length)
fn job_on<A: Arity<Fr>>(dev: &mut Device, channel: u32, pre: &[GenericArray<Fr, A>], out: &mut [Fr]) -> Result<(), String> {
    let a = A::to_usize();
    let mut inb = DmaBuf::new(pre.len() * a * BEAT)?;
    let mut outb = DmaBuf::new(pre.len() * BEAT)?;
    {
        let b = inb.bytes_mut();
        for (i, p) in pre.iter().enumerate() {
            for (k, x) in p.iter().enumerate() {
                let at = (i * a + k) * BEAT;
                b[at..at + BEAT].copy_from_slice(x.to_repr().as_ref()); // canonical little-endian
                if k == a - 1 {
                    // the in-band end of this preimage (canonical values leave the flag's bit free)
                    contract::POSEIDON_FRAME_BEAT_LAST.at(0).put_bytes(&mut b[at..at + BEAT], &[1]);
                }
            }
        }
    }
    if let Err(e) = dev.job(channel, channel, &inb, &mut outb) {
        let _ = dev.soft_reset(); // leave the card reusable
        return Err(e);
    }
    let prefix = dev.prefix();
    for (i, d) in outb.bytes().chunks_exact(BEAT).enumerate() {
        if d.iter().all(|&x| x == 0) {
            return Err(format!("{prefix}: the card rejected preimage {i} of the job (an all-zero digest beat)"));
        }
        let mut repr = <Fr as PrimeField>::Repr::default();
        repr.as_mut().copy_from_slice(d);
        let f: Option<Fr> = Fr::from_repr(repr).into();
        out[i] = f.ok_or_else(|| format!("{prefix}: digest {i}: not a canonical field element"))?;
    }
    Ok(())
}

/// the digests of a spread batch: each job writes only its own disjoint range
struct Digests(*mut Fr);
unsafe impl Sync for Digests {}

impl<A: Arity<Fr>> FpgaBatchHasher<A> {
    /// Opens card `prefix` ("/dev/xdma0", or an emulator directory's "DIR/xdma0"), the core on DMA channel pair
    /// `channel`; `max_batch` preimages per DMA job; `timeout_ms` without progress aborts a job.  Fails when the
    /// core does not have arity `A`.
    pub fn new(prefix: &str, channel: u32, max_batch: usize, timeout_ms: u32) -> Result<Self, Error> {
        Self::new_multi(&[prefix], channel, max_batch, timeout_ms)
    }

    /// Several cards (prefixes as for `new`), each with the core on `channel` and arity `A`; a batch is spread over
    /// them.  Fails when any of them cannot be opened or lacks the arity.
    pub fn new_multi(prefixes: &[&str], channel: u32, max_batch: usize, timeout_ms: u32) -> Result<Self, Error> {
        if channel as usize >= ZK_MAX_CHANNELS || max_batch == 0 || prefixes.is_empty() || prefixes.len() > ZK_MAX_CARDS {
            return Err(Error::Other(format!("channel {channel} (0..3) / max_batch {max_batch} (>= 1) / {} cards (1..{ZK_MAX_CARDS})",
                                            prefixes.len())));
        }
        let mut devs = Vec::new();
        for prefix in prefixes {
            let mut dev = Device::open(prefix, zk_h2c(channel) | zk_c2h(channel) | ZK_USER, timeout_ms).map_err(Error::Other)?;
            let info = dev.read(contract::POSEIDON_INFO).map_err(Error::Other)?;
            let a = A::to_usize();
            if info == u32::MAX {
                return Err(Error::Other(format!("{prefix}_user: the core's registers read all ones (a hung core)")));
            }
            if a >= contract::POSEIDON_INFO_ARITIES.width as usize || contract::POSEIDON_INFO_ARITIES.get(info as u64) >> a & 1 == 0 {
                return Err(Error::Other(format!("{prefix}: the card's Poseidon core has no arity {a} (INFO 0x{info:08x})")));
            }
            devs.push(Mutex::new(dev));
        }
        Ok(FpgaBatchHasher { devs, channel, max_batch, shares: Vec::new(), _arity: PhantomData })
    }

    /// Every card of `dir` ("/dev", or an emulator directory) whose Poseidon core has arity `A` (libzkxdma's
    /// discovery, zk_cards_find); the others are left alone.  Fails when there is none.
    pub fn all_cards(dir: &str, channel: u32, max_batch: usize, timeout_ms: u32) -> Result<Self, Error> {
        let cards = zkxdma::cards_find(dir).map_err(Error::Other)?;
        let a = A::to_usize();
        let found: Vec<String> = cards.iter()
            .filter(|k| k.kind == ZK_CORE_POSEIDON && a < 16 && k.core_info[0] >> a & 1 == 1)
            .map(|k| k.prefix.clone()).collect();
        if found.is_empty() {
            return Err(Error::Other(format!("{dir}: no card with a Poseidon core of arity {a} ({} card(s) found)", cards.len())));
        }
        Self::new_multi(&found.iter().map(String::as_str).collect::<Vec<_>>(), channel, max_batch, timeout_ms)
    }

    /// the cards' prefixes
    pub fn cards(&self) -> Vec<String> {
        self.devs.iter().map(|d| d.lock().unwrap().prefix()).collect()
    }

    /// preimages each card hashed in the last `hash` call
    pub fn last_shares(&self) -> &[usize] {
        &self.shares
    }

    fn hash_spread(&mut self, pre: &[GenericArray<Fr, A>], out: &mut [Fr]) -> Result<(), Error> {
        let digests = Digests(out.as_mut_ptr());
        let (devs, channel) = (&self.devs, self.channel);
        let (r, stats) = zkxdma::spread(&self.cards(), pre.len(), self.max_batch, "preimages", |card, first, count| {
            let d = &digests;
            // disjoint ranges: each job writes only its own digests
            let out = unsafe { std::slice::from_raw_parts_mut(d.0.add(first), count) };
            job_on::<A>(&mut devs[card].lock().unwrap(), channel, &pre[first..first + count], out)
        });
        self.shares = stats.cards.iter().map(|c| c.items).collect();
        r.map_err(Error::Other)
    }
}

impl<A: Arity<Fr>> BatchHasher<Fr, A> for FpgaBatchHasher<A> {
    fn hash(&mut self, preimages: &[GenericArray<Fr, A>]) -> Result<Vec<Fr>, Error> {
        let mut out = vec![Fr::from(0u64); preimages.len()];
        if self.devs.len() == 1 {
            for (i, chunk) in preimages.chunks(self.max_batch).enumerate() {
                let at = i * self.max_batch;
                job_on::<A>(self.devs[0].get_mut().unwrap(), self.channel, chunk, &mut out[at..at + chunk.len()]).map_err(Error::Other)?;
            }
            self.shares = vec![preimages.len()];
        } else if !preimages.is_empty() {
            self.hash_spread(preimages, &mut out)?;
        }
        Ok(out)
    }

    fn max_batch_size(&self) -> usize {
        self.max_batch
    }
}

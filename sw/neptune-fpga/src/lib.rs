//! neptune's [`BatchHasher`] on a zkspinal Poseidon card: PoseidonAxis behind the board's InbandLast adapter
//! (hw/src/zkspinal/system/PoseidonInband.scala), reached through the XDMA driver's device files by libzkxdma
//! (sw/lib), or through the XDMA emulator (sw/emu) with `LD_PRELOAD=libzkemu.so` and an emulator directory's prefix.
//!
//! A batch goes out as DMA jobs of up to `max_batch_size` preimages: each preimage is `A` beats of 32 bytes
//! (canonical little-endian, bit 255 set on its last element: the in-band end of frame), the digests come back one
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
/// register offsets and codes, generated from the hardware (sw/lib/zk_contract.h in Rust)
pub mod contract;
mod ffi;
pub mod tree;

use std::ffi::{CStr, CString};
use std::marker::PhantomData;
use std::mem::MaybeUninit;
use std::os::raw::{c_char, c_int, c_void};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr;

use blstrs::Scalar as Fr;
use ff::PrimeField;
use generic_array::GenericArray;
use neptune::{Arity, BatchHasher, Error};

use ffi::*;

/// bytes per beat (one field element)
const BEAT: usize = 32;

/// The cards' Poseidon cores as one neptune batch hasher for arity `A`.
pub struct FpgaBatchHasher<A> {
    devs: Vec<Box<ZkDev>>,
    channel: i32,
    max_batch: usize,
    shares: Vec<usize>,
    _arity: PhantomData<A>,
}

// the device handles are used by one thread each at a time (&mut self; zk_spread gives each card its own thread);
// libzkxdma keeps no thread-bound state in them
unsafe impl<A> Send for FpgaBatchHasher<A> {}

fn dev_error(d: &ZkDev) -> String {
    unsafe { CStr::from_ptr(zk_error(d)) }.to_string_lossy().into_owned()
}

fn c_text(b: &[c_char]) -> String {
    unsafe { CStr::from_ptr(b.as_ptr()) }.to_string_lossy().into_owned()
}

/// page-aligned DMA buffer from zk_alloc
struct DmaBuf(*mut u8, usize);
impl DmaBuf {
    fn new(len: usize) -> Result<Self, String> {
        let p = unsafe { zk_alloc(len.max(1)) } as *mut u8;
        if p.is_null() {
            return Err(format!("zk_alloc({len}) failed"));
        }
        Ok(DmaBuf(p, len))
    }
    fn bytes(&mut self) -> &mut [u8] {
        unsafe { std::slice::from_raw_parts_mut(self.0, self.1) }
    }
}
impl Drop for DmaBuf {
    fn drop(&mut self) {
        unsafe { zk_free(self.0 as *mut _) }
    }
}

fn reg(dev: &mut ZkDev, off: u32) -> Result<u32, String> {
    let mut v = 0u32;
    if unsafe { zk_reg_read(dev, off, &mut v) } != 0 {
        return Err(dev_error(dev));
    }
    Ok(v)
}

/// one DMA job on one card: preimages -> digests into `out` (same length)
fn job_on<A: Arity<Fr>>(dev: &mut ZkDev, channel: i32, pre: &[GenericArray<Fr, A>], out: &mut [Fr]) -> Result<(), String> {
    let a = A::to_usize();
    let mut inb = DmaBuf::new(pre.len() * a * BEAT)?;
    let mut outb = DmaBuf::new(pre.len() * BEAT)?;
    {
        let b = inb.bytes();
        for (i, p) in pre.iter().enumerate() {
            for (k, x) in p.iter().enumerate() {
                let at = (i * a + k) * BEAT;
                b[at..at + BEAT].copy_from_slice(x.to_repr().as_ref()); // canonical little-endian
                if k == a - 1 {
                    b[at + 31] |= 0x80; // bit 255: end of this preimage (canonical values are < 2^255)
                }
            }
        }
    }
    let packet = ZkPacket { data: inb.0 as *const _, len: inb.1 };
    let job = ZkJob { h2c: channel, c2h: channel, inp: &packet, n_in: 1, out: outb.0 as *mut _, out_len: outb.1,
                      out_sizes: ptr::null(), n_out: 0, got_sizes: ptr::null_mut() };
    if unsafe { zk_run_job(dev, &job) } != 0 {
        let e = dev_error(dev);
        unsafe { zk_soft_reset(dev) }; // leave the card reusable
        return Err(e);
    }
    let prefix = c_text(&dev.prefix);
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

/// zk_spread's view of one hash call
struct Spread<'a, A: Arity<Fr>> {
    devs: Vec<*mut ZkDev>,
    channel: i32,
    pre: &'a [GenericArray<Fr, A>],
    out: *mut Fr,
}

/// zk_spread's job: preimages [first, first + count) on card `card`, from that card's thread
unsafe extern "C" fn run_share<A: Arity<Fr>>(ctx: *mut c_void, card: c_int, first: usize, count: usize, err: *mut c_char,
                                             errlen: usize) -> c_int {
    let s = &*(ctx as *const Spread<A>);
    let p: *mut ZkDev = s.devs[card as usize];
    let dev = &mut *p;
    // disjoint ranges: each job writes only its own digests
    let out = std::slice::from_raw_parts_mut(s.out.add(first), count);
    let r = catch_unwind(AssertUnwindSafe(|| job_on::<A>(dev, s.channel, &s.pre[first..first + count], out)));
    let msg = match r {
        Ok(Ok(())) => return 0,
        Ok(Err(e)) => e,
        Err(_) => format!("{}: panic in the job", c_text(&dev.prefix)),
    };
    if errlen > 0 {
        let n = msg.len().min(errlen - 1);
        ptr::copy_nonoverlapping(msg.as_ptr() as *const c_char, err, n);
        *err.add(n) = 0;
    }
    -1
}

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
        let mut h = FpgaBatchHasher { devs: Vec::new(), channel: channel as i32, max_batch, shares: Vec::new(),
                                      _arity: PhantomData };
        for prefix in prefixes {
            let c = CString::new(*prefix).map_err(|_| Error::Other("prefix contains NUL".into()))?;
            let mut dev: Box<ZkDev> = Box::new(unsafe { MaybeUninit::zeroed().assume_init() });
            if unsafe { zk_open(&mut *dev, c.as_ptr(), zk_h2c(channel) | zk_c2h(channel) | ZK_USER) } != 0 {
                return Err(Error::Other(dev_error(&dev))); // zk_open closes what it opened on failure
            }
            dev.timeout_ms = timeout_ms;
            h.devs.push(dev); // closed by Drop from here on
            let info = reg(h.devs.last_mut().unwrap(), contract::POSEIDON_INFO).map_err(Error::Other)?;
            let a = A::to_usize();
            if info == u32::MAX {
                return Err(Error::Other(format!("{prefix}_user: the core's registers read all ones (a hung core)")));
            }
            if a >= contract::POSEIDON_INFO_ARITIES.width as usize || contract::POSEIDON_INFO_ARITIES.get(info as u64) >> a & 1 == 0 {
                return Err(Error::Other(format!("{prefix}: the card's Poseidon core has no arity {a} (INFO 0x{info:08x})")));
            }
        }
        Ok(h)
    }

    /// Every card of `dir` ("/dev", or an emulator directory) whose Poseidon core has arity `A` (libzkxdma's
    /// discovery, zk_cards_find); the others are left alone.  Fails when there is none.
    pub fn all_cards(dir: &str, channel: u32, max_batch: usize, timeout_ms: u32) -> Result<Self, Error> {
        let c = CString::new(dir).map_err(|_| Error::Other("dir contains NUL".into()))?;
        let mut cards: Vec<ZkCard> = (0..ZK_MAX_CARDS).map(|_| unsafe { MaybeUninit::zeroed().assume_init() }).collect();
        let mut err = [0 as c_char; 512];
        let n = unsafe { zk_cards_find(c.as_ptr(), cards.as_mut_ptr(), ZK_MAX_CARDS as c_int, err.as_mut_ptr(), err.len()) };
        if n < 0 {
            return Err(Error::Other(c_text(&err)));
        }
        let a = A::to_usize();
        let found: Vec<String> = cards[..n as usize].iter()
            .filter(|k| k.kind == ZK_CORE_POSEIDON && a < 16 && k.core_info[0] >> a & 1 == 1)
            .map(|k| c_text(&k.prefix)).collect();
        if found.is_empty() {
            return Err(Error::Other(format!("{dir}: no card with a Poseidon core of arity {a} ({n} card(s) found)")));
        }
        Self::new_multi(&found.iter().map(String::as_str).collect::<Vec<_>>(), channel, max_batch, timeout_ms)
    }

    /// the cards' prefixes
    pub fn cards(&self) -> Vec<String> {
        self.devs.iter().map(|d| c_text(&d.prefix)).collect()
    }

    /// preimages each card hashed in the last `hash` call
    pub fn last_shares(&self) -> &[usize] {
        &self.shares
    }

    fn hash_spread(&mut self, pre: &[GenericArray<Fr, A>], out: &mut [Fr]) -> Result<(), Error> {
        let n = self.devs.len();
        let names_c: Vec<CString> = self.cards().into_iter().map(|s| CString::new(s).unwrap()).collect();
        let names: Vec<*const c_char> = names_c.iter().map(|s| s.as_ptr()).collect();
        let spread = Spread { devs: self.devs.iter_mut().map(|d| &mut **d as *mut ZkDev).collect(), channel: self.channel,
                              pre, out: out.as_mut_ptr() };
        let mut st: Vec<ZkSpreadCard> = (0..n).map(|_| unsafe { MaybeUninit::zeroed().assume_init() }).collect();
        let mut stats: ZkSpreadStats = unsafe { MaybeUninit::zeroed().assume_init() };
        let mut err = [0 as c_char; 1024];
        let what = CString::new("preimages").unwrap();
        let rc = unsafe {
            zk_spread(n as c_int, names.as_ptr(), pre.len(), self.max_batch, what.as_ptr(), run_share::<A>,
                      &spread as *const Spread<A> as *mut c_void, st.as_mut_ptr(), &mut stats, err.as_mut_ptr(), err.len())
        };
        self.shares = st.iter().map(|c| c.items).collect();
        if rc != 0 {
            return Err(Error::Other(c_text(&err)));
        }
        Ok(())
    }
}

impl<A: Arity<Fr>> BatchHasher<Fr, A> for FpgaBatchHasher<A> {
    fn hash(&mut self, preimages: &[GenericArray<Fr, A>]) -> Result<Vec<Fr>, Error> {
        let mut out = vec![Fr::from(0u64); preimages.len()];
        if self.devs.len() == 1 {
            for (i, chunk) in preimages.chunks(self.max_batch).enumerate() {
                let at = i * self.max_batch;
                job_on::<A>(&mut self.devs[0], self.channel, chunk, &mut out[at..at + chunk.len()]).map_err(Error::Other)?;
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

impl<A> Drop for FpgaBatchHasher<A> {
    fn drop(&mut self) {
        for d in self.devs.iter_mut() {
            unsafe { zk_close(&mut **d) }
        }
    }
}

//! neptune's [`BatchHasher`] on a zkspinal Poseidon card: PoseidonAxis behind the board's InbandLast adapter
//! (hw/src/zkspinal/system/PoseidonInband.scala), reached through the XDMA driver's device files by libzkxdma
//! (sw/lib), or through the XDMA emulator (sw/emu) with `LD_PRELOAD=libzkemu.so` and an emulator directory's prefix.
//!
//! A batch goes out as DMA jobs of up to `max_batch_size` preimages: each preimage is `A` beats of 32 bytes
//! (canonical little-endian, bit 255 set on its last element: the in-band end of frame), the digests come back one
//! 32-byte beat each, in order.  Hashes are MerkleTree hashes (domain tag 2^A - 1), which is what neptune's batch
//! hashers compute for tree building.  A frame the core rejects comes back as an all-zero beat and is an error.
//!
//! Errors are `neptune::Error::Other` with libzkxdma's message (device path, what, strerror).
// neptune 13 takes generic-array 0.14 arrays, which that crate marks deprecated in favour of 1.x
#![allow(deprecated)]
mod ffi;

use std::ffi::{CStr, CString};
use std::marker::PhantomData;
use std::mem::MaybeUninit;
use std::ptr;

use blstrs::Scalar as Fr;
use ff::PrimeField;
use generic_array::GenericArray;
use neptune::{Arity, BatchHasher, Error};

use ffi::*;

/// PoseidonRegs.info: [15:0] the arities built in (bit a = arity a)
const REG_INFO: u32 = 0x00;
/// bytes per beat (one field element)
const BEAT: usize = 32;

/// The card's Poseidon core as a neptune batch hasher for arity `A`.
pub struct FpgaBatchHasher<A> {
    dev: Box<ZkDev>,
    channel: i32,
    max_batch: usize,
    _arity: PhantomData<A>,
}

// the device handle is used by one thread at a time (&mut self); libzkxdma keeps no thread-bound state in it
unsafe impl<A> Send for FpgaBatchHasher<A> {}

fn dev_error(d: &ZkDev) -> Error {
    Error::Other(unsafe { CStr::from_ptr(zk_error(d)) }.to_string_lossy().into_owned())
}

/// page-aligned DMA buffer from zk_alloc
struct DmaBuf(*mut u8, usize);
impl DmaBuf {
    fn new(len: usize) -> Result<Self, Error> {
        let p = unsafe { zk_alloc(len.max(1)) } as *mut u8;
        if p.is_null() {
            return Err(Error::Other(format!("zk_alloc({len}) failed")));
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

impl<A: Arity<Fr>> FpgaBatchHasher<A> {
    /// Opens card `prefix` ("/dev/xdma0", or an emulator directory's "DIR/xdma0"), the core on DMA channel pair
    /// `channel`; `max_batch` preimages per DMA job; `timeout_ms` without progress aborts a job.  Fails when the
    /// core does not have arity `A`.
    pub fn new(prefix: &str, channel: u32, max_batch: usize, timeout_ms: u32) -> Result<Self, Error> {
        if channel as usize >= ZK_MAX_CHANNELS || max_batch == 0 {
            return Err(Error::Other(format!("channel {channel} (0..3) / max_batch {max_batch} (>= 1)")));
        }
        let c = CString::new(prefix).map_err(|_| Error::Other("prefix contains NUL".into()))?;
        let mut dev: Box<ZkDev> = Box::new(unsafe { MaybeUninit::zeroed().assume_init() });
        if unsafe { zk_open(&mut *dev, c.as_ptr(), zk_h2c(channel) | zk_c2h(channel) | ZK_USER) } != 0 {
            let e = dev_error(&dev);
            return Err(e); // zk_open closes what it opened on failure
        }
        dev.timeout_ms = timeout_ms;
        let mut h = FpgaBatchHasher { dev, channel: channel as i32, max_batch, _arity: PhantomData };
        let info = h.reg(REG_INFO)?;
        let a = A::to_usize();
        if info == u32::MAX {
            return Err(Error::Other(format!("{prefix}_user: the core's registers read all ones (a hung core)")));
        }
        if a >= 16 || info >> a & 1 == 0 {
            return Err(Error::Other(format!("{prefix}: the card's Poseidon core has no arity {a} (INFO 0x{info:08x})")));
        }
        Ok(h)
    }

    fn reg(&mut self, off: u32) -> Result<u32, Error> {
        let mut v = 0u32;
        if unsafe { zk_reg_read(&mut *self.dev, off, &mut v) } != 0 {
            return Err(dev_error(&self.dev));
        }
        Ok(v)
    }

    /// one DMA job: preimages -> digests appended to `out`
    fn job(&mut self, pre: &[GenericArray<Fr, A>], out: &mut Vec<Fr>) -> Result<(), Error> {
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
        let job = ZkJob { h2c: self.channel, c2h: self.channel, inp: &packet, n_in: 1, out: outb.0 as *mut _,
                          out_len: outb.1, out_sizes: ptr::null(), n_out: 0, got_sizes: ptr::null_mut() };
        if unsafe { zk_run_job(&mut *self.dev, &job) } != 0 {
            let e = dev_error(&self.dev);
            unsafe { zk_soft_reset(&mut *self.dev) }; // leave the card reusable
            return Err(e);
        }
        for (i, d) in outb.bytes().chunks_exact(BEAT).enumerate() {
            if d.iter().all(|&x| x == 0) {
                return Err(Error::Other(format!("the card rejected preimage {i} of the job (an all-zero digest beat)")));
            }
            let mut repr = <Fr as PrimeField>::Repr::default();
            repr.as_mut().copy_from_slice(d);
            let f: Option<Fr> = Fr::from_repr(repr).into();
            out.push(f.ok_or_else(|| Error::Other(format!("digest {i}: not a canonical field element")))?);
        }
        Ok(())
    }
}

impl<A: Arity<Fr>> BatchHasher<Fr, A> for FpgaBatchHasher<A> {
    fn hash(&mut self, preimages: &[GenericArray<Fr, A>]) -> Result<Vec<Fr>, Error> {
        let mut out = Vec::with_capacity(preimages.len());
        for chunk in preimages.chunks(self.max_batch) {
            self.job(chunk, &mut out)?;
        }
        Ok(out)
    }

    fn max_batch_size(&self) -> usize {
        self.max_batch
    }
}

impl<A> Drop for FpgaBatchHasher<A> {
    fn drop(&mut self) {
        unsafe { zk_close(&mut *self.dev) }
    }
}

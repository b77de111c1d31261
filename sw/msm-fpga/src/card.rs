//! One MSM card: its identity, its point store (base sets in blocks), the load of a base set and a resident job.
//! The registers are MsmAxis's (sw/lib/zk_contract.h, hw/REGISTERS.md); the protocol is zk-msm's
//! (sw/tools/zk_msm_cards.c), with BASE choosing the base set.

use std::time::{Duration, Instant};

use zkxdma::contract as c;
use zkxdma::{zk_c2h, zk_h2c, DmaBuf, Device, ZK_USER};

use crate::Error;

/// a soft reset of the engine (CONTROL bit 1), a start (bit 0), a load (bit 2)
const SOFT_RESET: u32 = 2;
const START: u32 = 1;
const LOAD: u32 = 4;
/// how long a load may take to finish after its last write (the memory's acknowledgements)
const LOAD_SETTLE: Duration = Duration::from_secs(10);

/// What one resident job did, from the engine's registers and the host's clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct JobStats {
    /// engine cycles from start to done (CYCLES)
    pub cycles: u32,
    /// additions issued (BUSY)
    pub additions: u32,
    /// the host's clock at the start register's write and when the last bucket record arrived: the card's busy
    /// interval
    pub start: Option<Instant>,
    pub end: Option<Instant>,
}

/// The blocks of a point store: a block is one 4 KiB page of every channel (BLOCK points), so a base set starts on
/// a block and takes ceil(points / BLOCK) of them.
#[derive(Debug, Clone)]
pub(crate) struct Blocks {
    total: u64,
    /// (first, count), sorted by first
    used: Vec<(u64, u64)>,
}

impl Blocks {
    pub fn new(total: u64) -> Blocks {
        Blocks { total, used: Vec::new() }
    }
    /// the first free run of `count` blocks, taken; None when no run is long enough
    pub fn take(&mut self, count: u64) -> Option<u64> {
        let mut at = 0u64;
        for (i, &(first, n)) in self.used.iter().enumerate() {
            if first - at >= count {
                self.used.insert(i, (at, count));
                return Some(at);
            }
            at = first + n;
        }
        if self.total - at >= count {
            self.used.push((at, count));
            return Some(at);
        }
        None
    }
    pub fn free(&mut self, first: u64) {
        self.used.retain(|&(f, _)| f != first);
    }
    pub fn used(&self) -> u64 {
        self.used.iter().map(|&(_, n)| n).sum()
    }
    pub fn sets(&self) -> usize {
        self.used.len()
    }
    pub fn total(&self) -> u64 {
        self.total
    }
}

/// One card with an MSM engine and a point store.
pub(crate) struct Card {
    dev: Device,
    pub prefix: String,
    channel: u32,
    /// points of the store, points per block
    pub capacity: u64,
    pub block: u64,
    /// partial records that follow the buckets in every read-out (PARTIALS)
    pub partials: usize,
    pub blocks: Blocks,
    /// why this card was dropped (its work went to the others)
    pub failed: Option<String>,
    /// the values this crate last wrote to COUNT, BASE, SOURCE and FRAMING (the engine keeps them until the system
    /// block's reset): a register that already holds its value is not written again, so the gap between two jobs
    /// is the start write and the reads of the job's outcome
    written: Vec<(u32, u32)>,
    /// the last job or load ended without an error: the next one needs no soft reset
    clean: bool,
}

fn err(device: &str, what: impl Into<String>) -> Error {
    Error::Card { device: device.to_string(), what: what.into() }
}

/// the names of the ERROR bits set
fn error_bits(e: u32) -> String {
    c::MSM_ERROR_CODES.iter().filter(|k| e & k.value != 0).map(|k| format!(" [{}]", k.doc)).collect()
}

impl Card {
    /// Opens the card at `prefix` (scalars on H2C `channel`, points on `channel` + 1, buckets on C2H `channel`) and
    /// checks it is an MSM engine for `curve` (the contract's code) with `windows` windows and a point store.
    pub fn open(prefix: &str, channel: u32, timeout_ms: u32, curve: u32, windows: usize) -> Result<Card, Error> {
        let what = zk_h2c(channel) | zk_h2c(channel + 1) | zk_c2h(channel) | ZK_USER;
        let mut dev = Device::open(prefix, what, timeout_ms).map_err(|e| err(prefix, e))?;
        let e = |m: String| err(prefix, m);
        let id = dev.read(c::USER_BAR_SYSTEM + c::SYSTEM_ID).map_err(e)?;
        if id != c::SYSTEM_MAGIC {
            return Err(err(prefix, format!("no zkspinal system block (ID 0x{id:08x}): not a zkspinal card")));
        }
        let info = dev.read(c::USER_BAR_SYSTEM + c::SYSTEM_INFO).map_err(e)?;
        // a system block without identity words (revision 0) comes from BLS12-377's first bitstreams
        let mut card_curve = c::MSM_CURVE_BLS12_377;
        if c::SYSTEM_INFO_REVISION.get(info as u64) >= 1 {
            let kind = dev.read(c::USER_BAR_SYSTEM + c::SYSTEM_KIND).map_err(e)?;
            if kind != c::CORE_KIND_MSM {
                return Err(err(prefix, format!("the card carries core kind {kind}, not an MSM engine ({})",
                                               c::CORE_KIND_MSM)));
            }
            let version = dev.read(c::USER_BAR_SYSTEM + c::SYSTEM_VERSION).map_err(e)?;
            card_curve = c::SYSTEM_VERSION_DETAIL.get(version as u64) as u32;
        }
        if card_curve != curve {
            let name = |k: u32| zkmsm::curve::Curve::from_code(k).map_or("an unknown curve", |v| v.name());
            return Err(err(prefix, format!("the card's engine is for {} (curve code {card_curve}), not {}: refused, \
                                            nothing sent", name(card_curve), name(curve))));
        }
        let minfo = dev.read(c::MSM_INFO).map_err(e)?;
        if minfo == u32::MAX {
            return Err(err(prefix, "the engine's registers read all ones (a hung core: reset the card)"));
        }
        let nw = c::MSM_INFO_WINDOWS.get(minfo as u64) as usize;
        if nw != windows {
            return Err(err(prefix, format!("the engine has {nw} windows, the layout asked for has {windows}")));
        }
        let capacity = dev.read(c::MSM_CAPACITY).map_err(e)? as u64;
        let block = dev.read(c::MSM_BLOCK).map_err(e)? as u64;
        if capacity == 0 || block == 0 {
            return Err(err(prefix, "the engine has no point store (CAPACITY 0): bases cannot stay on this card"));
        }
        let partials = dev.read(c::MSM_PARTIALS).map_err(e)? as usize;
        let adders = dev.read(c::MSM_ADDERS).map_err(e)?;
        if adders == 0 || adders > c::MSM_MAX_ADDERS || partials > adders as usize * (1 << 21) {
            return Err(err(prefix, format!("the engine reports {adders} adders and {partials} partial records: \
                                            not an MSM engine this crate knows")));
        }
        Ok(Card { dev, prefix: prefix.to_string(), channel, capacity, block, partials,
                  blocks: Blocks::new(capacity / block), failed: None, written: Vec::new(), clean: false })
    }

    fn fail(&mut self, what: String) -> Error {
        // leave the card reusable: the engine's soft reset, then the system block's reset (the registers' values go)
        let _ = self.dev.write(c::MSM_CONTROL, SOFT_RESET);
        let _ = self.dev.soft_reset();
        self.written.clear();
        self.clean = false;
        err(&self.prefix, what)
    }

    /// a parameter register (COUNT, BASE, SOURCE, FRAMING) set to v, written only when it holds another value
    fn param(&mut self, off: u32, v: u32) -> Result<(), Error> {
        if self.written.contains(&(off, v)) {
            return Ok(());
        }
        self.set(off, v)?;
        self.written.retain(|&(o, _)| o != off);
        self.written.push((off, v));
        Ok(())
    }

    /// before a job or a load: a soft reset unless the last one ended cleanly (it clears an error and empties the
    /// input FIFOs)
    fn settle(&mut self) -> Result<(), Error> {
        if !self.clean {
            self.set(c::MSM_CONTROL, SOFT_RESET)?;
        }
        self.clean = false;
        Ok(())
    }

    fn reg(&mut self, off: u32) -> Result<u32, Error> {
        let r = self.dev.read(off);
        r.map_err(|m| self.fail(m))
    }

    fn set(&mut self, off: u32, v: u32) -> Result<(), Error> {
        let r = self.dev.write(off, v);
        r.map_err(|m| self.fail(m))
    }

    /// the engine's ERROR after a job or a load: an error naming its bits, or Ok
    fn check_error(&mut self, what: &str) -> Result<(), Error> {
        let e = self.reg(c::MSM_ERROR)?;
        if e != 0 {
            let at = self.reg(c::MSM_ERROR_INDEX)?;
            return Err(self.fail(format!("{what}: the engine reports ERROR 0x{e:x} at element {at}:{}", error_bits(e))));
        }
        Ok(())
    }

    /// Loads `n` point records (`records`) as the base set at block `base`.
    pub fn load(&mut self, base: u64, records: &DmaBuf, n: usize) -> Result<(), Error> {
        self.settle()?;
        self.param(c::MSM_BASE, base as u32)?;
        self.param(c::MSM_COUNT, n as u32)?;
        self.param(c::MSM_FRAMING, 0)?;
        self.set(c::MSM_CONTROL, LOAD)?;
        let w = self.dev.write_stream(self.channel + 1, records);
        w.map_err(|m| self.fail(m))?;
        // the last writes are acknowledged by the memory before STORED counts them
        let until = Instant::now() + LOAD_SETTLE;
        while self.reg(c::MSM_CONTROL)? & c::MSM_STATUS_IDLE == 0 {
            if Instant::now() > until {
                return Err(self.fail(format!("the point store load did not finish within {} s", LOAD_SETTLE.as_secs())));
            }
        }
        self.check_error("the point store load")?;
        let stored = self.reg(c::MSM_STORED)?;
        if stored as usize != n {
            return Err(self.fail(format!("the point store load stored {stored} of {n} points")));
        }
        self.clean = true;
        Ok(())
    }

    /// Bytes of one read-out (the layout's buckets and the engine's partial records).
    pub fn readout_bytes(&self, buckets: usize, bucket_bytes: usize) -> usize {
        (buckets + self.partials) * bucket_bytes
    }

    /// A resident job: the first `n` points of the base set at block `base` with the scalar beats `scalars`
    /// (two scalars a beat), the read-out into `readout`.
    pub fn run(&mut self, base: u64, n: usize, scalars: &DmaBuf, readout: &mut DmaBuf) -> Result<JobStats, Error> {
        self.settle()?;
        self.param(c::MSM_COUNT, n as u32)?;
        self.param(c::MSM_FRAMING, 0)?;
        self.param(c::MSM_SOURCE, 1)?;
        self.param(c::MSM_BASE, base as u32)?;
        let mut st = JobStats::default();
        self.set(c::MSM_CONTROL, START)?;
        st.start = Some(Instant::now());
        let r = self.dev.job(self.channel, self.channel, scalars, readout);
        st.end = Some(Instant::now());
        if let Err(m) = r {
            // the engine's own view names the cause better than a timeout
            let e = self.dev.read(c::MSM_ERROR).unwrap_or(0);
            let why = if e != 0 && e != u32::MAX { format!("{m}; the engine reports ERROR 0x{e:x}:{}", error_bits(e)) } else { m };
            return Err(self.fail(why));
        }
        self.check_error("the MSM job")?;
        st.cycles = self.reg(c::MSM_CYCLES)?;
        st.additions = self.reg(c::MSM_BUSY)?;
        self.clean = true;
        Ok(st)
    }
}

#[cfg(test)]
mod tests {
    use super::Blocks;

    #[test]
    fn blocks_first_fit() {
        let mut b = Blocks::new(10);
        assert_eq!(b.take(4), Some(0));
        assert_eq!(b.take(4), Some(4));
        assert_eq!(b.take(3), None);
        assert_eq!(b.take(2), Some(8));
        b.free(0);
        assert_eq!(b.used(), 6);
        assert_eq!(b.take(5), None);
        assert_eq!(b.take(3), Some(0));
        assert_eq!(b.take(1), Some(3));
        assert_eq!(b.take(1), None);
        assert_eq!(b.sets(), 4);
        assert_eq!(b.total(), 10);
    }
}

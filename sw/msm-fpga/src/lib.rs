//! MSMs on zkspinal MSM cards (MsmAxis behind XDMA) for provers, in arkworks' types.
//!
//! ```no_run
//! use ark_bls12_377::{Fr, G1Affine};
//! use msm_fpga::{Cards, Options};
//! # fn run(bases: &[G1Affine], scalars: &[Fr]) -> Result<(), msm_fpga::Error> {
//! let cards = Cards::<ark_bls12_377::g1::Config>::all("/dev", Options::default())?; // every BLS12-377 card
//! let resident = cards.load_bases(bases)?;          // converted once, kept in each card's point store
//! let msm = resident.msm(scalars)?;                 // only the scalars go to the card
//! # Ok(()) }
//! ```
//!
//! * [`Cards`]: one card or several, each checked to serve the curve asked for (its identity) with the window layout
//!   of [`Options`].
//! * [`Bases`]: a base set resident in every card's point store: the points are converted to the engine's records
//!   once, checked (on the curve, in the subgroup) before any DMA, and loaded at a block of each store (register
//!   BASE) beside the other sets while they fit.
//! * [`Bases::msm`]: arkworks' `VariableBaseMSM::msm_unchecked` semantics: the first `scalars.len()` bases (fewer
//!   scalars than bases: a prefix), zero scalars and the point at infinity allowed; more scalars than bases is an
//!   error.  [`Bases::msm_batch`] runs several MSMs on the same bases, preparing the next MSM's scalars and
//!   post-processing the last one's buckets on the host while the card runs the current one.
//!
//! Several cards: a batch of at least as many MSMs as cards is split **by MSMs** (each card runs whole MSMs: every
//! card already holds every base, so no work is repeated); a single MSM (or a batch smaller than the cards) is split
//! **by windows** (each card takes a range of windows, its scalars masked to their bits; the ranges' buckets add up
//! on the host, costing each card one extra addition per point through the signed-digit carry).  A card that fails
//! is named in [`Cards::failures`], dropped, and its share is run on the others (libzkxdma's `zk_spread`); only when
//! every card failed is the MSM an error.
//!
//! Groth16 ([`groth16::CardProver`]): a proving key's four G1 queries resident in the cards, each proof's G1 MSMs on
//! them and B in G2 on the CPU at the same time; the proof is ark-groth16's for the same randomness, byte for byte.
//!
//! Errors are [`Error`] values naming the card's device prefix and what failed; nothing panics across the C
//! boundary.
mod card;
pub mod curve;
pub mod groth16;

use std::sync::Mutex;
use std::time::Instant;

use ark_ec::short_weierstrass::{Affine, Projective};
use ark_ff::Zero;
use rayon::prelude::*;
use zkmsm::layout::WindowLayout;
use zkxdma::contract as c;
use zkxdma::DmaBuf;

use card::Card;
pub use card::JobStats;
pub use curve::CardCurve;

/// What went wrong, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// a card (its device prefix) failed or refused
    Card { device: String, what: String },
    /// the input was refused before anything was sent
    Input(String),
    /// the host side (post-processing the buckets)
    Host(String),
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Card { device, what } => write!(f, "{device}: {what}"),
            Error::Input(m) => write!(f, "refused: {m}"),
            Error::Host(m) => write!(f, "host: {m}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<zkmsm::HostError> for Error {
    fn from(e: zkmsm::HostError) -> Self {
        Error::Host(e.0)
    }
}

/// How the cards are reached and what their engines are.
#[derive(Debug, Clone)]
pub struct Options {
    /// the engines' window layout (the window-spec grammar, e.g. "13x14,12x6"); None: the curve's board layout
    pub windows: Option<String>,
    /// the engines take scalars below 2^scalar_bits (0: below r, the board engines)
    pub scalar_bits: u32,
    /// the engine's DMA channels: scalars on H2C `channel`, points on `channel` + 1, buckets on C2H `channel`
    pub channel: u32,
    /// a transfer with no progress for this long fails the card
    pub timeout_ms: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options { windows: None, scalar_bits: 0, channel: 0, timeout_ms: 10_000 }
    }
}

/// One card's figures of an MSM run.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// one entry per card job: (card index, its stats)
    pub jobs: Vec<(usize, JobStats)>,
    /// seconds from the call to its return
    pub wall_s: f64,
    /// seconds in which no card was busy (host work outside the cards' busy intervals)
    pub host_only_s: f64,
}

/// One card's or several cards' MSM engines for curve `P` (an arkworks G1 configuration, e.g.
/// `ark_bn254::g1::Config`).
pub struct Cards<P: CardCurve> {
    cards: Vec<Mutex<Card>>,
    layout: WindowLayout,
    scalar_bits: u32,
    last: Mutex<Report>,
    _curve: std::marker::PhantomData<P>,
}

/// A base set resident in every card of a [`Cards`]: freed from the stores when dropped.
pub struct Bases<'a, P: CardCurve> {
    cards: &'a Cards<P>,
    /// the set's first block in each card's store
    base: Vec<u64>,
    n: usize,
    /// the bases the engine cannot take (added on the host), with their index
    extra: Vec<(usize, Affine<P>)>,
}

fn scalar_bytes() -> usize {
    c::MSM_RECORD_SCALARS.bytes(0) / 2
}

impl<P: CardCurve> Cards<P> {
    /// The card at `prefix` ("/dev/xdma0", or an emulator directory's "DIR/xdma0").
    pub fn open(prefix: &str, opts: Options) -> Result<Self, Error> {
        Self::open_many(&[prefix], opts)
    }

    /// The cards at `prefixes`, all of curve `P` and the layout of `opts`.
    pub fn open_many(prefixes: &[&str], opts: Options) -> Result<Self, Error> {
        if prefixes.is_empty() || prefixes.len() > zkxdma::ZK_MAX_CARDS {
            return Err(Error::Input(format!("{} cards: 1 to {} please", prefixes.len(), zkxdma::ZK_MAX_CARDS)));
        }
        if opts.channel as usize + 1 >= zkxdma::ZK_MAX_CHANNELS {
            return Err(Error::Input(format!("channel {}: the engine uses channels K and K + 1, K <= {}", opts.channel,
                                            zkxdma::ZK_MAX_CHANNELS - 2)));
        }
        let spec = opts.windows.clone().unwrap_or_else(|| P::CURVE.board_windows().to_string());
        let widths = zkmsm::layout::parse_widths(&spec).map_err(|e| Error::Input(format!("windows {spec:?}: {e}")))?;
        let layout = P::layout(&widths, opts.scalar_bits).map_err(|e| Error::Input(format!("windows {spec:?}: {e}")))?;
        let cards = prefixes.iter()
            .map(|p| Card::open(p, opts.channel, opts.timeout_ms, P::CURVE.code(), layout.num_windows()).map(Mutex::new))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Cards { cards, layout, scalar_bits: opts.scalar_bits, last: Mutex::new(Report::default()),
                   _curve: std::marker::PhantomData })
    }

    /// Every card of `dir` ("/dev", or an emulator directory) whose identity names an MSM engine of curve `P`;
    /// the others are left alone.  Fails when there is none.
    pub fn all(dir: &str, opts: Options) -> Result<Self, Error> {
        let found = zkxdma::cards_find(dir).map_err(|e| Error::Card { device: dir.to_string(), what: e })?;
        let mine: Vec<&str> = found.iter()
            .filter(|k| k.kind == zkxdma::ZK_CORE_MSM && c::SYSTEM_VERSION_DETAIL.get(k.ident[2] as u64) as u32 == P::CURVE.code())
            .map(|k| k.prefix.as_str()).collect();
        if mine.is_empty() {
            return Err(Error::Card { device: dir.to_string(),
                                     what: format!("no MSM card for {} among {} card(s)", P::CURVE.name(), found.len()) });
        }
        Self::open_many(&mine, opts)
    }

    /// the cards' device prefixes
    pub fn prefixes(&self) -> Vec<String> {
        self.cards.iter().map(|k| k.lock().unwrap().prefix.clone()).collect()
    }

    /// the cards dropped after a failure, and why
    pub fn failures(&self) -> Vec<(String, String)> {
        self.cards.iter().filter_map(|k| {
            let k = k.lock().unwrap();
            k.failed.clone().map(|w| (k.prefix.clone(), w))
        }).collect()
    }

    /// the figures of the last `msm` or `msm_batch`
    pub fn last_report(&self) -> Report {
        self.last.lock().unwrap().clone()
    }

    /// the engines' window layout
    pub fn layout(&self) -> &WindowLayout {
        &self.layout
    }

    /// points the stores still take as one more base set: the smallest over the cards
    pub fn free_points(&self) -> u64 {
        self.cards.iter().map(|k| {
            let k = k.lock().unwrap();
            k.blocks.total().saturating_sub(k.blocks.used()) * k.block
        }).min().unwrap_or(0)
    }

    /// the cards not dropped; an error naming every card's failure when none is left
    fn live(&self) -> Result<Vec<usize>, Error> {
        let live: Vec<usize> = (0..self.cards.len()).filter(|&i| self.cards[i].lock().unwrap().failed.is_none()).collect();
        if live.is_empty() {
            let why: Vec<String> = self.failures().into_iter().map(|(d, w)| format!("{d}: {w}")).collect();
            return Err(Error::Card { device: self.prefixes().join(","),
                                     what: format!("every card has failed ({})", why.join("; ")) });
        }
        Ok(live)
    }

    /// Converts `bases` to the engine's records once and loads them into every card's point store, beside the base
    /// sets already there.  Points off the curve or outside the prime-order subgroup are refused before any DMA; a
    /// set that does not fit a store is refused naming the card and what it holds.
    pub fn load_bases(&self, bases: &[Affine<P>]) -> Result<Bases<'_, P>, Error> {
        if bases.is_empty() {
            return Err(Error::Input("an empty base set".into()));
        }
        if let Some(i) = bases.par_iter().position_first(|p| !p.is_on_curve()) {
            return Err(Error::Input(format!("base {i} is not on {}", P::CURVE.name())));
        }
        if let Some(i) = bases.par_iter().position_first(|p| !p.is_in_correct_subgroup_assuming_on_curve()) {
            return Err(Error::Input(format!("base {i} is not in the prime-order subgroup of {}", P::CURVE.name())));
        }
        let (records, exc) = P::point_records(bases);
        let mut buf = DmaBuf::new(records.len()).map_err(Error::Host)?;
        buf.bytes_mut().copy_from_slice(&records);
        let live = self.live()?;
        // blocks in every store first (so a set that does not fit one card is refused before any load)
        let mut base = vec![u64::MAX; self.cards.len()];
        for &i in &live {
            let mut k = self.cards[i].lock().unwrap();
            let need = (bases.len() as u64).div_ceil(k.block);
            match k.blocks.take(need) {
                Some(b) => base[i] = b,
                None => {
                    let what = format!("{} bases need {need} blocks of {} points; the point store has {} blocks ({} \
                                        points), {} of them held by {} base set(s)", bases.len(), k.block,
                                       k.blocks.total(), k.capacity, k.blocks.used(), k.blocks.sets());
                    let device = k.prefix.clone();
                    drop(k);
                    self.release(&base);
                    return Err(Error::Card { device, what });
                }
            }
        }
        let loads: Vec<Result<(), Error>> = std::thread::scope(|s| {
            let hs: Vec<_> = live.iter().map(|&i| {
                let (buf, b) = (&buf, base[i]);
                s.spawn(move || self.cards[i].lock().unwrap().load(b, buf, bases.len()))
            }).collect();
            hs.into_iter().map(|h| h.join().unwrap_or_else(|_| Err(Error::Host("a panic in a load".into())))).collect()
        });
        let mut ok = 0;
        let mut first_err = None;
        for (&i, r) in live.iter().zip(loads) {
            match r {
                Ok(()) => ok += 1,
                Err(e) => {
                    self.cards[i].lock().unwrap().failed = Some(e.to_string());
                    first_err.get_or_insert(e);
                }
            }
        }
        if ok == 0 {
            self.release(&base);
            return Err(first_err.unwrap());
        }
        let extra = exc.into_iter().map(|i| (i, bases[i])).collect();
        Ok(Bases { cards: self, base, n: bases.len(), extra })
    }

    fn release(&self, base: &[u64]) {
        for (i, &b) in base.iter().enumerate() {
            if b != u64::MAX {
                self.cards[i].lock().unwrap().blocks.free(b);
            }
        }
    }

    /// scalar beats of `scalars` masked to bits [lo, hi) (the engine's two scalars a beat), checked against the
    /// engines' bound
    fn beats(&self, scalars: &[P::ScalarField], lo: u32, hi: u32) -> Result<DmaBuf, Error> {
        let sb = scalar_bytes();
        let mut buf = DmaBuf::new(scalars.len().div_ceil(2) * 2 * sb).map_err(Error::Host)?;
        let bound = self.scalar_bits;
        let bad = buf.bytes_mut().par_chunks_mut(sb).zip(scalars.par_iter()).enumerate().map(|(i, (o, s))| {
            let mut w = curve::scalar_words(s);
            if bound != 0 && !below(&w, bound) {
                return Some(i);
            }
            for (l, x) in w.iter_mut().enumerate() {
                let (a, b) = (l as u32 * 64, l as u32 * 64 + 64);
                let keep_lo = if lo > a { if lo >= b { 0 } else { u64::MAX << (lo - a) } } else { u64::MAX };
                let keep_hi = if hi < b { if hi <= a { 0 } else { u64::MAX >> (b - hi) } } else { u64::MAX };
                *x &= keep_lo & keep_hi;
            }
            for (l, x) in w.iter().enumerate() {
                o[l * 8..l * 8 + 8].copy_from_slice(&x.to_le_bytes());
            }
            None
        }).find_first(|b| b.is_some()).flatten();
        if let Some(i) = bad {
            return Err(Error::Input(format!("scalar {i} is not below 2^{bound}, the engines' bound")));
        }
        Ok(buf)
    }
}

/// the scalar's limbs are below 2^bits
fn below(w: &[u64; 4], bits: u32) -> bool {
    w.iter().enumerate().all(|(l, x)| {
        let a = l as u32 * 64;
        bits >= a + 64 || if bits <= a { *x == 0 } else { x >> (bits - a) == 0 }
    })
}

/// the seconds of [t0, t1] in which none of the intervals is
fn uncovered(t0: Instant, t1: Instant, mut iv: Vec<(Instant, Instant)>) -> f64 {
    iv.sort();
    let mut at = t0;
    let mut gap = 0.0;
    for (s, e) in iv {
        if s > at {
            gap += (s - at).as_secs_f64();
        }
        at = at.max(e);
    }
    if t1 > at {
        gap += (t1 - at).as_secs_f64();
    }
    gap
}

/// one window range's job: windows [w0, w1), its read-out
struct Range {
    w0: usize,
    w1: usize,
    readout: Mutex<Option<(Vec<u8>, usize)>>,
}

impl<P: CardCurve> Bases<'_, P> {
    /// the number of bases
    pub fn len(&self) -> usize {
        self.n
    }
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    fn check(&self, scalars: &[P::ScalarField]) -> Result<(), Error> {
        if scalars.len() > self.n {
            return Err(Error::Input(format!("{} scalars for {} bases", scalars.len(), self.n)));
        }
        Ok(())
    }

    /// the host's terms: the bases the engine cannot take, with their scalars
    fn extra(&self, scalars: &[P::ScalarField]) -> Vec<(Affine<P>, [u64; 4])> {
        self.extra.iter().filter(|(i, _)| *i < scalars.len()).map(|(i, p)| (*p, curve::scalar_words(&scalars[*i]))).collect()
    }

    fn bucket_bytes() -> usize {
        P::CURVE.records().bucket_bytes
    }

    /// one job of scalars `beats` on card `k`: its read-out and partial record count
    fn job(&self, k: usize, n: usize, beats: &DmaBuf) -> Result<(Vec<u8>, usize, JobStats), Error> {
        let mut card = self.cards.cards[k].lock().unwrap();
        let layout = &self.cards.layout;
        let len = card.readout_bytes(layout.total_buckets(), Self::bucket_bytes());
        let mut out = DmaBuf::new(len).map_err(Error::Host)?;
        let st = card.run(self.base[k], n, beats, &mut out)?;
        Ok((out.bytes().to_vec(), card.partials, st))
    }

    /// The MSM of the first `scalars.len()` bases with `scalars` (arkworks' `VariableBaseMSM::msm_unchecked`).
    pub fn msm(&self, scalars: &[P::ScalarField]) -> Result<Projective<P>, Error> {
        self.check(scalars)?;
        let t0 = Instant::now();
        if scalars.is_empty() {
            *self.cards.last.lock().unwrap() = Report::default();
            return Ok(Projective::zero());
        }
        let live = self.cards.live()?;
        let layout = &self.cards.layout;
        let nw = layout.num_windows();
        let nr = live.len().min(nw);
        let ranges: Vec<Range> = (0..nr).map(|t| Range { w0: t * nw / nr, w1: (t + 1) * nw / nr, readout: Mutex::new(None) }).collect();
        let offsets = layout.offsets();
        let jobs = Mutex::new(Vec::new());
        let run = |slot: usize, t: usize| -> Result<(), String> {
            let r = &ranges[t];
            let lo = offsets[r.w0];
            let hi = if r.w1 == nw { 256 } else { offsets[r.w1] };
            let k = live[slot];
            let beats = self.cards.beats(scalars, lo, hi).map_err(|e| e.to_string())?;
            match self.job(k, scalars.len(), &beats) {
                Ok((out, p, st)) => {
                    *r.readout.lock().unwrap() = Some((out, p));
                    jobs.lock().unwrap().push((k, st));
                    Ok(())
                }
                Err(e) => Err(e.to_string()),
            }
        };
        self.spread(&live, nr, 1, "window range(s)", |slot, first, count| (first..first + count).try_for_each(|t| run(slot, t)))?;
        // the first range's read-out is the bucket set; every other range's records follow as partial records
        let bb = Self::bucket_bytes();
        let mut all = Vec::new();
        for r in &ranges {
            let (out, _) = r.readout.lock().unwrap().take().ok_or_else(|| Error::Host("a window range without its read-out".into()))?;
            all.extend_from_slice(&out);
        }
        let partials = all.len() / bb - layout.total_buckets();
        let l = layout.clone().with_partials(partials);
        let result = P::postprocess(&l, &all, &self.extra(scalars))?;
        self.report(t0, jobs.into_inner().unwrap());
        Ok(result)
    }

    /// runs `run(slot, first, count)`, a job of items [first, first + count), over the live cards (slot: the index
    /// into `live`) with zk_spread; a failed card is marked failed, its items retried on the others
    fn spread<F>(&self, live: &[usize], items: usize, max_chunk: usize, what: &str, run: F) -> Result<(), Error>
    where
        F: Fn(usize, usize, usize) -> Result<(), String> + Sync,
    {
        let names: Vec<String> = live.iter().map(|&k| self.cards.cards[k].lock().unwrap().prefix.clone()).collect();
        let (r, stats) = zkxdma::spread(&names, items, max_chunk, what, run);
        for (slot, st) in stats.cards.iter().enumerate() {
            if let Some(why) = &st.failed {
                self.cards.cards[live[slot]].lock().unwrap().failed = Some(why.clone());
            }
        }
        r.map_err(|what| Error::Card { device: names.join(","), what })
    }

    fn report(&self, t0: Instant, jobs: Vec<(usize, JobStats)>) {
        let t1 = Instant::now();
        let iv = jobs.iter().filter_map(|(_, s)| Some((s.start?, s.end?))).collect();
        *self.cards.last.lock().unwrap() = Report { jobs, wall_s: (t1 - t0).as_secs_f64(), host_only_s: uncovered(t0, t1, iv) };
    }

    /// Several MSMs on these bases (each as [`Bases::msm`]).  On one card, and on each card of several, the next
    /// MSM's scalars are prepared and the previous MSM's buckets post-processed while the card runs the current one.
    /// With at least as many MSMs as cards, the MSMs are spread over the cards; else each runs split by windows.
    pub fn msm_batch(&self, batch: &[&[P::ScalarField]]) -> Result<Vec<Projective<P>>, Error> {
        for s in batch {
            self.check(s)?;
        }
        let live = self.cards.live()?;
        if batch.len() < live.len() {
            return batch.iter().map(|s| self.msm(s)).collect();
        }
        let t0 = Instant::now();
        let results: Vec<Mutex<Option<Projective<P>>>> = batch.iter().map(|_| Mutex::new(None)).collect();
        let jobs = Mutex::new(Vec::new());
        let layout = &self.cards.layout;
        let post = |m: usize, out: Vec<u8>, partials: usize| -> Result<(), String> {
            let l = layout.clone().with_partials(partials);
            let r = P::postprocess(&l, &out, &self.extra(batch[m])).map_err(|e| e.0)?;
            *results[m].lock().unwrap() = Some(r);
            Ok(())
        };
        // a job of MSMs [first, first + count) on one card: while the card runs MSM m, a host thread encodes the
        // scalars of m + 1 and post-processes m - 1
        let per = batch.len().div_ceil(live.len());
        self.spread(&live, batch.len(), per, "MSM(s)", |slot, first, count| {
            let k = live[slot];
            let prep = |m: usize| self.cards.beats(batch[m], 0, 256).map_err(|e| e.to_string());
            let mut next = Some(prep(first)?);
            let mut pending: Option<(usize, Vec<u8>, usize)> = None;
            for m in first..first + count {
                let beats = next.take().unwrap();
                let (ran, side) = std::thread::scope(|s| {
                    let prev = pending.take();
                    let h = s.spawn(move || -> Result<Option<DmaBuf>, String> {
                        if let Some((pm, out, p)) = prev {
                            post(pm, out, p)?;
                        }
                        if m + 1 < first + count { prep(m + 1).map(Some) } else { Ok(None) }
                    });
                    let ran = if batch[m].is_empty() { Ok(None) } else { self.job(k, batch[m].len(), &beats).map(Some) };
                    (ran, h.join().unwrap_or_else(|_| Err("a panic on the host thread".into())))
                });
                next = side?;
                match ran.map_err(|e| e.to_string())? {
                    Some((out, p, st)) => {
                        jobs.lock().unwrap().push((k, st));
                        pending = Some((m, out, p));
                    }
                    None => *results[m].lock().unwrap() = Some(Projective::zero()),
                }
            }
            if let Some((pm, out, p)) = pending {
                post(pm, out, p)?;
            }
            Ok(())
        })?;
        self.report(t0, jobs.into_inner().unwrap());
        results.into_iter().enumerate()
            .map(|(m, r)| r.into_inner().unwrap().ok_or_else(|| Error::Host(format!("MSM {m} of the batch has no result"))))
            .collect()
    }
}

impl<P: CardCurve> Drop for Bases<'_, P> {
    fn drop(&mut self) {
        self.cards.release(&self.base);
    }
}

/// arkworks' own MSM (the CPU reference the tests and examples compare with)
pub fn cpu_msm<P: CardCurve>(bases: &[Affine<P>], scalars: &[P::ScalarField]) -> Projective<P> {
    use ark_ec::VariableBaseMSM;
    let n = bases.len().min(scalars.len());
    <Projective<P> as VariableBaseMSM>::msm_unchecked(&bases[..n], &scalars[..n])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uncovered_time() {
        let t0 = Instant::now();
        let s = |ms: u64| t0 + std::time::Duration::from_millis(ms);
        let gap = uncovered(t0, s(100), vec![(s(10), s(30)), (s(20), s(50)), (s(60), s(90))]);
        assert!((gap - 0.030).abs() < 1e-9, "{gap}"); // [0, 10), [50, 60), [90, 100)
        assert!((uncovered(t0, s(10), vec![]) - 0.010).abs() < 1e-9);
    }

    #[test]
    fn scalar_bound() {
        assert!(below(&[0xff_ffff, 0, 0, 0], 24) && !below(&[0x100_0000, 0, 0, 0], 24));
        assert!(below(&[u64::MAX, 1, 0, 0], 65) && !below(&[0, 2, 0, 0], 65) && !below(&[0, 0, 0, 1 << 8], 200) && below(&[0, 0, 0, 1], 200));
    }

    #[test]
    fn errors_name_the_device() {
        let e = Error::Card { device: "/dev/xdma3".into(), what: "the point store load failed".into() };
        assert_eq!(e.to_string(), "/dev/xdma3: the point store load failed");
    }

    #[test]
    fn missing_card_is_an_error() {
        let e = Cards::<ark_bls12_377::g1::Config>::open("/nonexistent/xdma9", Options::default()).err().unwrap();
        match e {
            Error::Card { device, what } => {
                assert_eq!(device, "/nonexistent/xdma9");
                assert!(what.contains("No such file or directory"), "{what}");
            }
            e => panic!("{e}"),
        }
    }

    #[test]
    fn layout_from_options() {
        let bad = Options { windows: Some("13x3".into()), ..Options::default() };
        let e = Cards::<ark_bn254::g1::Config>::open("/nonexistent/xdma0", bad).err().unwrap();
        assert!(matches!(e, Error::Input(ref m) if m.contains("13x3")), "{e}");
    }
}

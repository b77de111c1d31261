//! The part of libzkxdma (sw/lib/zkxdma.h) the Rust crates call, as declared there.  `ZkDev` mirrors `struct zk_dev`
//! field by field; the other structs mirror theirs.
use std::os::raw::{c_char, c_int, c_uint, c_void};

pub const ZK_MAX_CHANNELS: usize = 4;
pub const ZK_USER: c_uint = 1 << 16;
pub const fn zk_h2c(k: u32) -> c_uint { 1 << k }
pub const fn zk_c2h(k: u32) -> c_uint { 1 << (8 + k) }

#[repr(C)]
pub struct ZkDev {
    pub prefix: [c_char; 256],
    pub h2c: [c_int; ZK_MAX_CHANNELS],
    pub c2h: [c_int; ZK_MAX_CHANNELS],
    pub user: c_int,
    pub regs: *mut u32,
    pub regs_bytes: usize,
    pub timeout_ms: c_uint,
    pub max_xfer: usize,
    pub err: [c_char; 1024],
}

#[repr(C)]
pub struct ZkPacket {
    pub data: *const c_void,
    pub len: usize,
}

#[repr(C)]
pub struct ZkJob {
    pub h2c: c_int,
    pub c2h: c_int,
    pub inp: *const ZkPacket,
    pub n_in: usize,
    pub out: *mut c_void,
    pub out_len: usize,
    pub out_sizes: *const usize,
    pub n_out: usize,
    pub got_sizes: *mut usize,
}

/// `struct zk_card` (zk_cards_find)
#[repr(C)]
pub struct ZkCard {
    pub index: c_int,
    pub prefix: [c_char; 256],
    pub h2c_mask: c_uint,
    pub c2h_mask: c_uint,
    pub kind: c_int, // zk_core_kind
    pub sys_info: u32,
    pub sys_bad: u32,
    pub ident: [u32; 3], // system block KIND, CONFIG, VERSION
    pub core_info: [u32; 3],
    pub err: [c_char; 512],
}
pub const ZK_CORE_POSEIDON: c_int = crate::contract::CORE_KIND_POSEIDON as c_int;
pub const ZK_CORE_MSM: c_int = crate::contract::CORE_KIND_MSM as c_int;
pub const ZK_MAX_CARDS: usize = 64;

/// `struct zk_spread_card`
#[repr(C)]
pub struct ZkSpreadCard {
    pub items: usize,
    pub jobs: usize,
    pub busy_s: f64,
    pub failed: c_int,
    pub err: [c_char; 1024],
}

/// `struct zk_spread_stats`
#[repr(C)]
pub struct ZkSpreadStats {
    pub wall_s: f64,
    pub busy_any_s: f64,
    pub busy_all_s: f64,
    pub retried: usize,
}

pub type ZkSpreadFn =
    unsafe extern "C" fn(ctx: *mut c_void, card: c_int, first: usize, count: usize, err: *mut c_char, errlen: usize) -> c_int;

extern "C" {
    pub fn zk_cards_find(dir: *const c_char, cards: *mut ZkCard, max: c_int, err: *mut c_char, errlen: usize) -> c_int;
    #[allow(clippy::too_many_arguments)]
    pub fn zk_spread(n_cards: c_int, names: *const *const c_char, n_items: usize, max_chunk: usize, what: *const c_char,
                     run: ZkSpreadFn, ctx: *mut c_void, cards: *mut ZkSpreadCard, stats: *mut ZkSpreadStats,
                     err: *mut c_char, errlen: usize) -> c_int;
    pub fn zk_open(d: *mut ZkDev, prefix: *const c_char, what: c_uint) -> c_int;
    pub fn zk_close(d: *mut ZkDev);
    pub fn zk_error(d: *const ZkDev) -> *const c_char;
    pub fn zk_alloc(bytes: usize) -> *mut c_void;
    pub fn zk_free(p: *mut c_void);
    pub fn zk_reg_read(d: *mut ZkDev, off: u32, val: *mut u32) -> c_int;
    pub fn zk_reg_write(d: *mut ZkDev, off: u32, val: u32) -> c_int;
    pub fn zk_write(d: *mut ZkDev, ch: c_int, buf: *const c_void, len: usize) -> c_int;
    pub fn zk_soft_reset(d: *mut ZkDev) -> c_int;
    pub fn zk_run_job(d: *mut ZkDev, job: *const ZkJob) -> c_int;
}

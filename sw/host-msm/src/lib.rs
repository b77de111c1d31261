//! zkmsm: host side of the zkspinal MSM engine (BLS12-377 G1).
//!
//! * `convert`    points -> the engine's precomputed twisted Edwards records (parallel, batched inversions)
//! * `post`       the engine's bucket read-out -> the MSM result (parallel over windows)
//! * `accumulate` a software model of the engine's bucket accumulation (tests, benchmarks)
//! * `gen`, `io`  data sets in the ZPrize harness layout; `reference` arkworks' own MSM
//! * `instance`   the JSON instance file both engines read
//! * `ffi`        the C ABI (include/zkmsm.h)
//! * `contract`   the generator's host contract (generated: the record tag's fields)
//! Formats and formulas: reference_model/msm_formats.md and reference_model/curves/precomputed.py.

pub mod accumulate;
pub mod consts;
pub mod contract;
pub mod convert;
pub mod ffi;
pub mod format;
pub mod gen;
pub mod instance;
pub mod io;
pub mod layout;
pub mod post;

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostError(pub String);

impl HostError {
    pub fn new(msg: impl Into<String>) -> Self {
        HostError(msg.into())
    }
    pub fn at(what: &str, index: usize, msg: &str) -> Self {
        HostError(format!("{what}[{index}]: {msg}"))
    }
}

impl fmt::Display for HostError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for HostError {}

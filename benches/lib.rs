//! Helpers for Sluice's benchmarks: the payloads (from `sluice-bench`) and the frame scenarios
//! of the renderer benchmarks.

pub mod frames;

pub use sluice_bench::payload::{PAYLOADS, payload};

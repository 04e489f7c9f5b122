//! Helpers for Sluice's benchmarks: the payloads (from `sluice-bench`), the frame scenarios
//! of the renderer benchmarks, and the clocks and medians the benchmark binaries report.

pub mod frames;
pub mod measure;

pub use sluice_bench::payload::{PAYLOADS, as_the_pty_delivers, payload};

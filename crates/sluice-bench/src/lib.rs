//! `sluice-bench`: tools for measuring any terminal.
//!
//! - [`mod@write`]: a terminal's read capacity, measured from inside it;
//! - [`reader`]: how a program behaves behind a slow, stalled or XOFF-ed reader;
//! - [`capacity`]: how much a PTY or a pipe holds with nobody reading;
//! - [`metro`]: a stand-in for a bundler's dev server, to see what the terminal costs a build;
//! - [`latency`]: keystroke-echo latency through Sluice's own pipeline, idle and under a flood;
//! - [`window`]: keys and frames through any terminal's window on X11;
//! - [`compare`]: terminals side by side, each against a bare PTY drain in the same round.

pub mod capacity;
pub mod compare;
pub mod latency;
pub mod metro;
pub mod payload;
pub mod reader;
pub mod report;
pub mod window;
pub mod write;

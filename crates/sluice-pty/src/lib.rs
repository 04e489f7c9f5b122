//! Sluice's PTY layer: the child process and the threads that talk to it.
//!
//! ```text
//! child ── PTY slave
//!           │
//! PTY master fd ──► thread "pty-reader" ──► byte ring (SPSC, lock-free) ──► consumer (the parser)
//!           ▲
//!           └── thread "pty-writer" ◄── channel ◄── keystrokes, pastes, replies
//! ```
//!
//! The reader waits only on the kernel (`poll(2)` on the master) or on a ring that holds its
//! read-ahead (the whole ring, or [`read_ahead::LEAN_READ_AHEAD`] under a sustained flood),
//! and on its own short pauses that let small writes gather in the kernel: a pause during a
//! trickle that input written to the program ends ([`trickle`]), a busy wait in a fast stream of short lines ([`short_writes`]);
//! in a flood it yields its CPU rather than poll an empty kernel, for a moment ([`keep_awake`]).
//! It never takes a lock and never waits on whoever consumes the ring. The writer never blocks on the
//! child either: the master is non-blocking, so a child that stops reading its input stalls
//! only the writer's queue, which can be cancelled. A third thread, `pty-prefault`, faults the
//! ring's pages in ahead of the reader during a burst, on idle CPU time only
//! (src/prefault.rs).
//!
//! This crate knows nothing about terminal emulation: it moves bytes.

mod child;
mod error;
mod fd;
mod guard;
pub mod keep_awake;
mod prefault;
pub mod read_ahead;
mod reader;
pub mod ring;
mod session;
pub mod short_writes;
mod stats;
pub mod terminfo;
pub mod trickle;
mod units;
mod writer;

pub use child::{ExitStatus, default_shell};
pub use error::{Error, Result};
pub use guard::panic_message;
pub use reader::RELEASE_AFTER_QUIET;
pub use ring::{RingConsumer, RingProducer};
pub use session::{Pty, PtyOptions, WinSize, program_path};
pub use stats::{PtyStats, PtyStatsSnapshot};
pub use units::{max_read_ahead, parse_bytes, read_ahead_too_large};
pub use writer::{MAX_PENDING_REPLIES, PtyWriter};

/// The ring's default capacity: how far the reader may read ahead of the parser.
///
/// Mature terminals cap read-ahead at 1 MiB (Alacritty, kitty, WezTerm) or 256 KiB (Ghostty);
/// past it the child blocks. A program that floods faster than the parser for more than a
/// moment then stalls with it. At the ~80 MB/s Sluice parses (docs/performance.md), 16 MiB is
/// 200 ms of a parser that has fallen fully behind, yet small next to any scrollback.
pub const DEFAULT_READ_AHEAD: usize = 16 * 1024 * 1024;

/// The most the reader asks the kernel for in one `read(2)`.
///
/// A Linux PTY hands out at most about 4 KiB a read whatever is asked for, so this only matters
/// on systems that return more; 64 KiB matches the parser's per-lock slice.
pub const MAX_READ: usize = 64 * 1024;

//! Sluice's terminal core: the parser thread, the terminal state and its events, and the
//! snapshots renderers draw from. No GPU, no window.
//!
//! ```text
//! ring (sluice-pty) ──► thread "parser" ──► Term (alacritty_terminal, behind a FairMutex)
//!                          │                   │
//!                          │ replies           └──► Snapshot (plain data, owned by the renderer)
//!                          ▼
//!                      PtyWriter
//! ```
//!
//! The parser takes whatever the reader has put in the ring, at most [`MAX_LOCK_SLICE`]
//! bytes per hold of the terminal lock, so the renderer is never kept waiting for long.

mod dump;
mod events;
mod feed;
mod hyperlink;
pub mod input;
pub mod limits;
mod listener;
pub mod marks;
pub mod notify;
pub mod palette;
mod parser;
mod replay;
pub mod scroll;
mod search;
mod select;
mod session;
mod snapshot;
mod terminal;
#[doc(hidden)]
pub mod testing;
pub mod vi;
mod x10;

pub use alacritty_terminal;
pub use alacritty_terminal::index::{Direction, Side};
pub use alacritty_terminal::term::cell::Flags as CellFlags;
pub use alacritty_terminal::vte::ansi::CursorShape;
pub use dump::DumpFormat;
pub use events::{ClipboardKind, TermEvent};
pub use feed::Feeder;
pub use hyperlink::Hyperlink;
pub use listener::TermListener;
pub use notify::Notification;
pub use palette::{Palette, Rgb};
pub use parser::{TermStatsSnapshot, fnv1a};
pub use replay::Replay;
pub use search::{RowSpan, Search, SearchError};
pub use select::{SelectionKind, ViewportPoint};
pub use session::{Session, SessionError};
pub use snapshot::{Cursor, Damage, RenderCell, Snapshot, SnapshotModes, ViewportSelection};
pub use terminal::{DEFAULT_WORD_SEPARATORS, Terminal, TerminalOptions, Wake};

/// The most bytes parsed under one hold of the terminal lock.
///
/// At ~80 MB/s this is under 1 ms of parsing, so a frame never waits longer than that for the
/// lock; larger slices bought nothing measurable (taking the lock costs ~20 ns).
pub const MAX_LOCK_SLICE: usize = 64 * 1024;

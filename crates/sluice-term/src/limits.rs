//! Every cap on what a program's output can make a terminal hold, in one place: docs, tests
//! and front ends name these. Each is defined, with the measurement that chose it, next to the
//! code that applies it.
//!
//! | what | cap | where |
//! |---|---|---|
//! | one OSC string (`]` to terminator) | [`MAX_OSC_BYTES`] | dropped whole before vte |
//! | a window title | [`MAX_TITLE_BYTES`] | cut at a character boundary |
//! | the title stack (`CSI 22 t`) | [`MAX_TITLE_STACK`] | further pushes ignored |
//! | combining marks on one cell | [`MAX_COMBINING_PER_CELL`] | further marks dropped |
//! | an OSC 8 link target or id | [`MAX_URI_BYTES`] | a longer link is not a link |
//! | replies waiting for a child that does not read | [`MAX_PENDING_REPLIES`] | dropped, counted |
//! | events waiting for the window | one of each kind | coalesced (last title, one bell) |
//! | lock held by one slice of parsing | about 4 ms | the rest waits in the ring |
//! | grid size | [`WinSize::MAX_COLS`](sluice_pty::WinSize::MAX_COLS) × [`WinSize::MAX_ROWS`](sluice_pty::WinSize::MAX_ROWS) | refused at start, clamped on resize |
//! | the kitty keyboard mode stack | 4,096 | the top is replaced |

pub use crate::feed::limits::{
    MAX_COMBINING_PER_CELL, MAX_TITLE_BYTES, MAX_TITLE_STACK, MAX_URI_BYTES,
};
pub use crate::feed::prescan::MAX_OSC_BYTES;
pub use sluice_pty::MAX_PENDING_REPLIES;

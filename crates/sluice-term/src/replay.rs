//! A terminal driven from bytes on the calling thread: no PTY, no parser thread.
//!
//! For recorded reference tests (a byte stream and the screen it must produce), renderer tests
//! and benchmarks, which need exact control over when each byte is parsed.

use alacritty_terminal::grid::Dimensions;
use alacritty_terminal::index::{Column, Line, Point, Side};
use alacritty_terminal::selection::{Selection, SelectionType};
use alacritty_terminal::term::Term;
use sluice_pty::WinSize;

use crate::dump::{self, DumpFormat};
use crate::feed::Feeder;
use crate::listener::EventQueue;
use crate::palette::Palette;
use crate::snapshot::Snapshot;
use crate::terminal::{GridSize, TerminalOptions, term_config};

/// A Term fed by hand.
pub struct Replay {
    term: Term<EventQueue>,
    feeder: Feeder,
    palette: Palette,
}

impl Replay {
    /// A terminal configured as a running [`Terminal`](crate::Terminal) with the default
    /// options is (the kitty keyboard protocol on, OSC 52 reads off), with `scrollback` lines.
    pub fn new(cols: u16, rows: u16, scrollback: usize) -> Self {
        let config = term_config(&TerminalOptions {
            scrollback,
            ..TerminalOptions::default()
        });
        let term = Term::new(
            config,
            &GridSize(WinSize::cells(cols, rows)),
            EventQueue::default(),
        );
        Self {
            term,
            feeder: Feeder::new(),
            palette: Palette::default(),
        }
    }

    /// Parses `bytes` as if the program had written them.
    pub fn feed(&mut self, bytes: &[u8]) {
        self.feeder.advance(&mut self.term, bytes);
    }

    pub fn resize(&mut self, cols: u16, rows: u16) {
        self.term.resize(GridSize(WinSize::cells(cols, rows)));
    }

    /// Selects from `start` to `end` (viewport row, column), inclusive; `block` for a
    /// rectangular selection. `None` clears it.
    pub fn select(&mut self, range: Option<((usize, usize), (usize, usize))>, block: bool) {
        self.term.selection = range.map(|((r0, c0), (r1, c1))| {
            let offset = self.term.grid().display_offset() as i32;
            let point = |r: usize, c: usize| Point::new(Line(r as i32 - offset), Column(c));
            let kind = if block {
                SelectionType::Block
            } else {
                SelectionType::Simple
            };
            let mut selection = Selection::new(kind, point(r0, c0), Side::Left);
            selection.update(point(r1, c1), Side::Right);
            selection
        });
    }

    /// Copies what changed into `snapshot`, as the UI thread does at each frame.
    pub fn update_snapshot(&mut self, snapshot: &mut Snapshot) -> bool {
        snapshot.update_from(&mut self.term, &self.palette)
    }

    pub fn dump(&self, format: DumpFormat, scrollback: bool) -> String {
        dump::dump(&self.term, &self.palette, format, scrollback, None)
    }

    /// The terminal itself, for tests and fuzz targets that compare it with another.
    pub fn term_mut(&mut self) -> &mut Term<EventQueue> {
        &mut self.term
    }

    pub fn columns(&self) -> usize {
        self.term.columns()
    }
}

//! Writing text beyond ASCII straight into the grid: one character at a time, as
//! `Term::input` would, for the characters whose cells that is a plain overwrite.
//!
//! A run of CJK, emoji or accented text went through vte and `Term::input` one character at a
//! time, which was a quarter of the parser thread on the `unicode` payload (`perf record`,
//! `sluice --headless -e flood unicode`, 2026-12-03: `Term::input` 21%, vte's UTF-8 dispatch
//! 8%). Here each character's width is looked up once and its cells written in place; whatever
//! is not a plain overwrite goes to the same `Handler::input` vte would have called.

use alacritty_terminal::event::EventListener;
use alacritty_terminal::grid::Dimensions;
use alacritty_terminal::index::Column;
use alacritty_terminal::term::Term;
use alacritty_terminal::term::cell::{Cell, Flags};
use alacritty_terminal::vte::ansi::Handler;
use unicode_width::UnicodeWidthChar;

use super::ascii;
use super::forward::Forward;
use super::limits::Mirror;

/// Writes `text` exactly as vte printing it through [`Forward`] would: same cells, same
/// attributes, same cursor, same wrapping, the combining-mark cap kept. The caller has checked
/// [`ascii::can_write`] (no insert mode, the ASCII charset) and that no mark is pending.
// Out of line: called once per stretch of text, it keeps its loop out of the inlined ASCII
// path in `Feeder::take_text`. (Measured only with that path: putting it out of line did not by
// itself win back the 7-10% plain lines had lost; inlining `take_run` and `take_text` did.)
#[inline(never)]
pub(super) fn write<L: EventListener>(term: &mut Term<L>, mirror: &mut Mirror, text: &str) {
    let columns = term.columns();
    for c in text.chars() {
        if !overwrite(term, columns, c) {
            // Wrapping, a wide character that does not fit, a cell holding half of a wide
            // character, a combining mark: left to `Term`, through what vte would call.
            if term.grid().cursor.input_needs_wrap {
                ascii::prefetch_recycled_row(term, columns);
            }
            Forward::new(term, mirror).input(c);
        }
    }
}

/// Writes `c`, one or two cells wide, at the cursor and moves the cursor past it; false,
/// having written nothing, when `Term::input` would do more than that: a wrap is pending, a
/// wide character does not fit on the line, a cell in the way holds half of a wide character,
/// or `c` is zero-width.
#[inline(always)]
fn overwrite<L: EventListener>(term: &mut Term<L>, columns: usize, c: char) -> bool {
    let width = match c.width() {
        Some(width @ 1..=2) => width,
        _ => return false,
    };
    let grid = term.grid_mut();
    let cursor = &grid.cursor;
    let (line, column) = (cursor.point.line, cursor.point.column.0);
    if cursor.input_needs_wrap || column + width > columns {
        return false;
    }
    let template = cursor.template.clone();
    let cells = &mut grid[line][Column(column)..Column(column + width)];
    if cells.iter().any(|cell| {
        cell.flags
            .intersects(Flags::WIDE_CHAR | Flags::WIDE_CHAR_SPACER)
    }) {
        return false;
    }
    if width == 1 {
        cells[0] = Cell { c, ..template };
    } else {
        let flags = template.flags;
        cells[0] = Cell {
            c,
            flags: flags | Flags::WIDE_CHAR,
            ..template.clone()
        };
        cells[1] = Cell {
            c: ' ',
            flags: flags | Flags::WIDE_CHAR_SPACER,
            ..template
        };
    }
    ascii::move_past(&mut grid.cursor, column + width, columns);
    true
}

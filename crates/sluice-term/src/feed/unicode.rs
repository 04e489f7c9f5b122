//! Writing text beyond ASCII straight into the grid, as `Term::input` would: a stretch of the
//! cursor's line at a time, for the characters whose cells that is a plain overwrite, and the
//! combining marks that join them.
//!
//! A run of CJK, emoji or accented text went through vte and `Term::input` one character at a
//! time, which was a quarter of the parser thread on the `unicode` payload (`perf record`,
//! `sluice --headless -e flood unicode`, 2026-12-03: `Term::input` 21%, vte's UTF-8 dispatch
//! 8%). Here each character's width is looked up once and its cells written in place; whatever
//! is not a plain overwrite goes to the same `Handler::input` vte would have called.
//!
//! Combining marks went to `Term::input` too until 2026-12-05, and each character looked its
//! row up again: writing marks here and a stretch of the line per row lookup took the
//! `unicode` payload from 112-116 to 148-151 MiB/s, at 100×30 and 200×60 alike
//! (`parse-ratio --sluice-only 5 8 all 10000 SIZE`, two alternated runs each; the other
//! payloads within the runs' spread, `progress`, whose bar is `█` and `░`, 12% faster).

use alacritty_terminal::event::EventListener;
use alacritty_terminal::grid::{Dimensions, Row};
use alacritty_terminal::index::Column;
use alacritty_terminal::term::Term;
use alacritty_terminal::term::cell::{Cell, CellExtra, Flags};
use alacritty_terminal::vte::ansi::{Color, Handler};
use unicode_width::UnicodeWidthChar;

use super::ascii;
use super::forward::Forward;
use super::limits::{self, Mirror};
use super::shared_marks::SharedMarks;

/// Writes `text` exactly as vte printing it through [`Forward`] would: same cells, same
/// attributes, same cursor, same wrapping, the combining-mark cap kept. The caller has checked
/// [`ascii::can_write`] (no insert mode, the ASCII charset) and that no mark is pending.
// Out of line: called once per stretch of text, it keeps its loop out of the inlined ASCII
// path in `Feeder::take_text`. (Measured only with that path: putting it out of line did not by
// itself win back the 7-10% plain lines had lost; inlining `take_run` and `take_text` did.)
#[inline(never)]
pub(super) fn write<L: EventListener>(
    term: &mut Term<L>,
    mirror: &mut Mirror,
    marks: &mut SharedMarks,
    mut text: &str,
) {
    let columns = term.columns();
    loop {
        let mut chars = overwrite(term, marks, columns, text).chars();
        let Some(c) = chars.next() else {
            return;
        };
        // Wrapping, a wide character that does not fit, a cell holding half of a wide
        // character, a combining mark with no written cell before it: left to `Term`, through
        // what vte would call.
        if term.grid().cursor.input_needs_wrap {
            ascii::prefetch_recycled_row(term, columns);
        }
        Forward::new(term, mirror).input(c);
        text = chars.as_str();
    }
}

/// Writes the characters `text` starts with into the cursor's line, as long as that is a plain
/// overwrite, and moves the cursor past them; returns the rest of `text`, which starts with the
/// first character for which `Term::input` would do more: a wrap is pending or would be, a
/// cell in the way holds half of a wide character, or a zero-width character has no cell
/// before it on the line.
///
/// A zero-width character (a combining mark) joins the cell before the cursor, as
/// `Term::input` does, unless that cell holds
/// [`MAX_COMBINING_PER_CELL`](limits::MAX_COMBINING_PER_CELL) marks already, when
/// it is dropped as [`Forward`] drops it.
///
/// The row is looked up once for the whole stretch, and each cell written field by field, as
/// `Term`'s `write_at_cursor` does. CJK at 200×60 parsed at 113.7–114.6 MiB/s with the row
/// looked up again for each character and each cell built whole on the stack and then stored,
/// 124.9–125.6 written field by field, and 144.6–149.2 with the row looked up once a stretch
/// (`parse-ratio --sluice-only 9 8 unicode 10000 200x60`, three alternated runs each).
#[inline(always)]
fn overwrite<'t, L: EventListener>(
    term: &mut Term<L>,
    marks: &mut SharedMarks,
    columns: usize,
    text: &'t str,
) -> &'t str {
    let grid = term.grid_mut();
    let cursor = &grid.cursor;
    if cursor.input_needs_wrap {
        return text;
    }
    let (line, start) = (cursor.point.line, cursor.point.column.0);
    let template = &cursor.template;
    let (fg, bg, flags, extra) = (
        template.fg,
        template.bg,
        template.flags,
        template.extra.clone(),
    );
    // Cell by cell, not as a slice of the row: a slice of all of it would count every cell as
    // written, and `Row::reset` would clear them all when scrolling recycles the row (44% of
    // the parser thread, measured so).
    let row = &mut grid[line];
    let widths = BmpWidths::get();
    let mut column = start;
    let mut chars = text.chars();
    let rest = loop {
        let rest = chars.as_str();
        let Some(c) = chars.next() else {
            break rest;
        };
        match width(widths, c) {
            Some(1) if column < columns && !ascii::is_half_wide(&row[Column(column)]) => {
                set(&mut row[Column(column)], c, fg, bg, flags, extra.clone());
                column += 1;
            }
            Some(2)
                if column + 2 <= columns
                    && !ascii::is_half_wide(&row[Column(column)])
                    && !ascii::is_half_wide(&row[Column(column + 1)]) =>
            {
                let spacer = flags | Flags::WIDE_CHAR_SPACER;
                set(
                    &mut row[Column(column + 1)],
                    ' ',
                    fg,
                    bg,
                    spacer,
                    extra.clone(),
                );
                set(
                    &mut row[Column(column)],
                    c,
                    fg,
                    bg,
                    flags | Flags::WIDE_CHAR,
                    extra.clone(),
                );
                column += 2;
            }
            Some(0) if column > 0 => combine(row, marks, column, c),
            _ => break rest,
        }
    };
    if column > start {
        ascii::move_past(&mut grid.cursor, column, columns);
    }
    rest
}

/// Adds the combining mark `c` to the cell before `column` (the wide character, if that cell
/// is its second half), as `Term::input` does, within
/// [`MAX_COMBINING_PER_CELL`](limits::MAX_COMBINING_PER_CELL), in storage it may share with
/// other cells given the same marks ([`SharedMarks`]).
#[inline(always)]
fn combine(row: &mut Row<Cell>, marks: &mut SharedMarks, column: usize, c: char) {
    let at = limits::mark_column(row, column);
    let cell = &mut row[at];
    if !limits::holds_most_marks(cell) {
        marks.push(cell, c);
    }
}

/// The width `Term::input` gives `c` (`UnicodeWidthChar::width`), looked up in one load for
/// a character of the Basic Multilingual Plane ([`BmpWidths`]).
#[inline(always)]
fn width(widths: &BmpWidths, c: char) -> Option<usize> {
    match widths.0.get(c as usize) {
        Some(&NO_WIDTH) => None,
        Some(&width) => Some(usize::from(width)),
        None => c.width(),
    }
}

/// Every character of the Basic Multilingual Plane's width as `UnicodeWidthChar::width`
/// gives it (0, 1, 2, or [`NO_WIDTH`] for a control), built once from those tables.
///
/// `width()` walks three dependent tables and then branches on what it found: the branch and
/// the loads were a quarter of `write`'s samples in a window taking the `unicode` payload
/// (`perf record`, 2026-12-06), after the CJK ideographs and Hangul syllables had been
/// answered by range (2026-12-05). The characters text uses are few, so their entries stay
/// in cache; what is beyond the plane (emoji, rarer CJK) still goes to the tables.
/// 64 KiB, built in under a millisecond the first time text beyond ASCII is written.
struct BmpWidths(Box<[u8]>);

/// The entry of a character that has no width (a control).
const NO_WIDTH: u8 = u8::MAX;

impl BmpWidths {
    fn build() -> BmpWidths {
        let widths = (0..=0xffff_u32)
            .map(|code| {
                char::from_u32(code)
                    .and_then(|c| c.width())
                    .map_or(NO_WIDTH, |w| w as u8)
            })
            .collect();
        BmpWidths(widths)
    }

    /// The table, built on first use.
    fn get() -> &'static BmpWidths {
        static WIDTHS: std::sync::LazyLock<BmpWidths> = std::sync::LazyLock::new(BmpWidths::build);
        &WIDTHS
    }
}

/// Writes a cell field by field, as `Term`'s `write_at_cursor` does.
#[inline(always)]
fn set(
    cell: &mut Cell,
    c: char,
    fg: Color,
    bg: Color,
    flags: Flags,
    extra: Option<std::sync::Arc<CellExtra>>,
) {
    cell.c = c;
    cell.fg = fg;
    cell.bg = bg;
    cell.flags = flags;
    cell.extra = extra;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_width_is_the_tables() {
        let widths = BmpWidths::get();
        for c in (0..=0x10ffff).filter_map(char::from_u32) {
            assert_eq!(width(widths, c), c.width(), "{:#x}", c as u32);
        }
    }
}

//! Writing printable ASCII straight into the grid, and warming the rows scrolling recycles.

use alacritty_terminal::event::EventListener;
use alacritty_terminal::grid::{Cursor, Dimensions};
use alacritty_terminal::index::{Column, Line};
use alacritty_terminal::term::cell::{Cell, Flags};
use alacritty_terminal::term::{Term, TermMode};
use alacritty_terminal::vte::ansi::{CharsetIndex, Handler, StandardCharset};

/// How many line feeds ahead the recycled row is prefetched.
///
/// `parse-ratio 7 8 plain` (fast path over vte alone, 100-byte lines, full scrollback): 1.21×
/// without the prefetch; with it 1.50–1.66× one line ahead, 1.78–1.79× two, 1.61–1.79× four,
/// 1.54–1.59× eight. Prefetching only the first 64 cells of the row gave 1.42–1.67×.
const PREFETCH_AHEAD: i32 = 2;

/// The fewest cells of a recycled row worth prefetching: below this the row is left to
/// `Row::reset` to fetch itself.
///
/// The prefetch was chosen on 100-byte lines at 160×50, and short lines lost by it: in a
/// `scrolling` run of vtebench (a character a line) 55% of the parser thread's samples were in
/// the function that prefetches, nearly all on the prefetch instruction. Lines that short come
/// faster than their rows' fetches complete; the prefetches queue behind one another and the
/// line's own loads wait on them. Without it for them (`parse-ratio --sluice-only 7 8 all
/// 10000 SIZE`, MiB/s, two alternated runs): short lines of 1–24 characters 170 and 184
/// against 141 and 144 at 100×30, 157 and 163 against 96 and 100 at 200×60; vtebench's `y`
/// lines 84 and 92 against 76 and 68, 84 and 78 against 41 and 31. Plain, colour and dense
/// lines, whose rows are prefetched as before, stayed within the runs' spread
/// (docs/performance.md, "No prefetch for short lines"). A terminal narrower than this never
/// prefetches: its rows are a few cache lines each.
pub(super) const PREFETCH_MIN_CELLS: usize = 32;

/// Whether [`fn@write`] may stand in for `Term::input`: the cases it does not handle (insert mode
/// shifting the row, a charset that maps ASCII to other glyphs) are off.
pub(super) fn can_write<L: EventListener>(term: &Term<L>, active_charset: CharsetIndex) -> bool {
    !term.mode().contains(TermMode::INSERT)
        && term.grid().cursor.charsets[active_charset] == StandardCharset::Ascii
}

/// Writes `text`, printable ASCII only, exactly as one `Term::input` call per byte would:
/// same cells, same attributes, same cursor, same wrapping.
///
/// Each row segment is written in one pass. What `Term::input` does beyond that is left to it:
/// the wrap onto the next line (the first character after the cursor reached the last column)
/// and overwriting half of a wide character, which clears the other half.
#[inline(always)]
pub(super) fn write<L: EventListener>(term: &mut Term<L>, mut text: &[u8]) {
    let columns = term.columns();
    while !text.is_empty() {
        let cursor = &term.grid().cursor;
        if cursor.input_needs_wrap {
            // A line that wraps is full.
            prefetch_recycled_row(term, columns);
            term.input(text[0] as char);
            text = &text[1..];
            continue;
        }
        let (line, column) = (cursor.point.line, cursor.point.column.0);
        let (segment, rest) = text.split_at(text.len().min(columns - column));
        if !overwrite(term, line, column, segment) {
            for &byte in segment {
                term.input(byte as char);
            }
        }
        text = rest;
    }
}

/// Writes `segment` into `line` from `column` on and moves the cursor past it; false, having
/// written nothing, if a cell in the way holds half of a wide character.
#[inline(always)]
fn overwrite<L: EventListener>(
    term: &mut Term<L>,
    line: Line,
    column: usize,
    segment: &[u8],
) -> bool {
    let columns = term.columns();
    let grid = term.grid_mut();
    let template = grid.cursor.template.clone();
    let end = column + segment.len();
    let cells = &mut grid[line][Column(column)..Column(end)];
    if cells.iter().any(is_half_wide) {
        return false;
    }
    fill(cells, segment, &template);
    move_past(&mut grid.cursor, end, columns);
    true
}

/// Writes `text` into `cells`, one byte a cell, each with `template`'s attributes, as
/// `Term::input` gives a character that overwrites a cell that is not half of a wide one.
#[inline(always)]
pub(super) fn fill(cells: &mut [Cell], text: &[u8], template: &Cell) {
    for (cell, &byte) in cells.iter_mut().zip(text) {
        *cell = Cell {
            c: byte as char,
            ..template.clone()
        };
    }
}

/// Whether `cell` holds half of a wide character, which `Term::input` would clear the other
/// half of before writing over it.
#[inline(always)]
pub(super) fn is_half_wide(cell: &Cell) -> bool {
    cell.flags
        .intersects(Flags::WIDE_CHAR | Flags::WIDE_CHAR_SPACER)
}

/// Moves the cursor to column `end`, just past what was written, as `Term::input` does after
/// each character: past the last column, it stays on the last with a wrap pending.
#[inline(always)]
pub(super) fn move_past(cursor: &mut Cursor<Cell>, end: usize, columns: usize) {
    if end < columns {
        cursor.point.column = Column(end);
    } else {
        cursor.point.column = Column(columns - 1);
        cursor.input_needs_wrap = true;
    }
}

/// Prefetches the part of the row that the [`PREFETCH_AHEAD`]th full-screen scroll from now
/// will recycle that its clear will touch: its first `extent` cells (see [`LineExtent`]) and
/// its last, which `Row::reset` reads first; nothing for lines shorter than
/// [`PREFETCH_MIN_CELLS`].
///
/// With the scrollback full, each scroll turns its oldest row into the new bottom line and
/// clears it (`Row::reset`); that row was last touched a whole scrollback ago, so without this
/// every line of a flood waits on main memory (`Row::reset` was 36% of the parser thread).
/// When the scrollback is not full yet, or the line feed does not scroll, the row fetched is
/// not the one recycled and the prefetch is wasted: at worst the time of one cold row's fetch
/// per line feed, the cost the prefetch removes when it is right.
pub(super) fn prefetch_recycled_row<L: EventListener>(term: &Term<L>, extent: usize) {
    if extent < PREFETCH_MIN_CELLS {
        return;
    }
    let grid = term.grid();
    let line = grid.topmost_line() + PREFETCH_AHEAD;
    if line < 0 {
        let cells = &grid[line][..];
        prefetch(&cells[..extent.min(cells.len())]);
        prefetch(&cells[cells.len() - 1..]);
    }
}

/// An estimate of how many cells at the start of a scrollback row `Row::reset` clears: those
/// written since it was last cleared (`Row::occ`, which alacritty_terminal keeps private).
///
/// Prefetching the whole of each recycled row cost short lines more than it saved: a line of
/// `ls -1` or `seq` fills a few cells, and fetching all 160 columns (60 cache lines) a line
/// feed starved the loads that mattered (`parse-ratio 5 8 short`: Sluice at 0.74 of vte alone
/// with the history in cache, `Row::reset` 49% of the samples with 10,000 lines, almost all of
/// it the first load of a cell). The rows a flood recycles were written by the same kind of
/// output as the lines it writes now, so the estimate is the longest of the recent lines,
/// forgetting an eighth a line: a long line among short ones is forgotten within about twenty.
/// A wrong estimate costs only speed: cells fetched for nothing, or cells the clear waits on.
#[derive(Debug, Default)]
pub(crate) struct LineExtent(usize);

impl LineExtent {
    /// Notes that the cursor's line has `cells` written at its start.
    #[inline(always)]
    pub(super) fn note(&mut self, cells: usize) {
        self.0 = cells.max(self.0 - self.0 / 8);
    }

    pub(super) fn cells(&self) -> usize {
        self.0
    }
}

/// Asks the CPU to bring `cells` into cache, without waiting for them.
fn prefetch(cells: &[Cell]) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        const LINE: usize = 64;
        let start = cells.as_ptr().cast::<i8>();
        for offset in (0..std::mem::size_of_val(cells)).step_by(LINE) {
            // SAFETY: a prefetch is a hint that never faults, and the address is inside `cells`.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(start.add(offset)) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = cells;
}

#[cfg(test)]
mod tests {
    use super::LineExtent;

    #[test]
    fn the_extent_is_the_longest_recent_line_forgotten_slowly() {
        let mut extent = LineExtent::default();
        for len in [3, 20, 7, 1] {
            extent.note(len);
        }
        assert_eq!(
            extent.cells(),
            20 - 20 / 8 - 18 / 8,
            "20, then two eighths forgotten"
        );
        extent.note(160);
        assert_eq!(extent.cells(), 160);
        for _ in 0..20 {
            extent.note(12);
        }
        assert!(
            (12..=16).contains(&extent.cells()),
            "a long line is forgotten within twenty short ones: {}",
            extent.cells()
        );
    }
}

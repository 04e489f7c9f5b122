//! Lines that scroll, written a region at a time: one scroll for as many lines as the region
//! has, instead of one per line.
//!
//! A flood of lines at the bottom of the screen (a log, `yes`, vtebench's scrolling
//! benchmarks) scrolls once per line, and each `Term::linefeed` that scrolls goes through
//! `Term::scroll_up_relative` and `Grid::scroll_up`: the selection and the vi cursor moved,
//! the whole storage rotated, and, in a region that does not start at the top, every line of
//! the region swapped one place up. For a line of a few characters that was most of its cost
//! (`parse-ratio` on `yes`, `perf`: the two scroll functions 32% of the thread, against 14%
//! for `Row::reset`, which clears the row each scroll brings in). `Term`'s own `scroll_up(k)`
//! (SU, `CSI k S`) does the same for `k` lines in one call, and `k` line feeds at the bottom of
//! a region leave the grid as it does, followed by the lines written into the rows it clears:
//! the same rows rotated, cleared with the same template, the selection and the vi cursor moved
//! as far, the screen damaged whole either way.
//!
//! What `Term` keeps private is where its scroll region is, so a run of lines finds out by
//! looking: a line feed that leaves the cursor on its line scrolled a region whose last line
//! is the cursor's (or did nothing, the cursor being below the region); [`probe`] executes the
//! next one with the rows' identities noted before it and reads the region off which rows
//! moved. Nothing is remembered between runs, so nothing can go stale (a resize, DECSTBM,
//! the other screen): a run of lines is text and line ends only, which move no region.

use alacritty_terminal::event::EventListener;
use alacritty_terminal::grid::Dimensions;
use alacritty_terminal::index::{Column, Line};
use alacritty_terminal::term::Term;
use alacritty_terminal::vte::ansi::Handler;

use super::ascii::{self, LineExtent};
use super::runs;

/// What a run of lines knows about the line feeds at the cursor's line (see the module's
/// documentation). The cursor never leaves that line once a line feed has left it there: text
/// that wraps does so by a line feed of the same line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum LineFeeds {
    /// No line feed of the run has left the cursor on its line yet.
    Unknown,
    /// One did: the next one is probed.
    StayedPut,
    /// Each scrolls a region of `height` lines whose last line is the cursor's, and that
    /// starts at the screen's top line or not (`from_top`: its scrolls recycle scrollback rows).
    Scroll { height: usize, from_top: bool },
    /// Each leaves the grid as it is (the cursor below the region), or scrolls a region of one
    /// line, which is cleared in place: nothing to gain.
    Other,
}

/// Where `line`'s cells are: which row it is, not what it holds.
#[inline(always)]
fn row_id<L: EventListener>(term: &Term<L>, line: Line) -> usize {
    term.grid()[line][..].as_ptr() as usize
}

/// Executes `line_feed` (a CR LF at the cursor, by the calls vte would make) and says what its
/// line feed did: how many lines the region it scrolled has, found from which rows moved one
/// place up. `ids` is scratch space, kept by the caller so that a probe allocates nothing.
#[inline(never)]
pub(super) fn probe<L: EventListener>(
    term: &mut Term<L>,
    ids: &mut Vec<usize>,
    line_feed: impl FnOnce(&mut Term<L>),
) -> LineFeeds {
    let line = term.grid().cursor.point.line;
    ids.clear();
    ids.extend((0..=line.0).map(|i| row_id(term, Line(i))));
    line_feed(term);
    let last = line.0 as usize;
    if term.grid().cursor.point.line != line || row_id(term, line) == ids[last] {
        return LineFeeds::Other;
    }
    // Rows above the region stay where they are; rows in it moved up one.
    let mut top = last;
    while top > 0 && row_id(term, Line(top as i32 - 1)) == ids[top] {
        top -= 1;
    }
    LineFeeds::Scroll {
        height: last + 1 - top,
        from_top: top == 0,
    }
}

/// Writes the lines `bytes` starts with, the cursor being on the last line of a region of
/// `height` lines that its line feeds scroll (`from_top`: see [`LineFeeds::Scroll`]): each
/// line a CR LF and then printable ASCII that fits in a row, at most `height` of them, after
/// one scroll of as many lines. Returns how many bytes it took (none when the first line does
/// not qualify, or when the lines are long enough for their line feeds to prefetch the rows
/// they recycle) and the last character it wrote. `spans` is scratch space, as `ids` is for
/// [`probe`].
///
/// Long lines scrolling into the scrollback are left to their line feeds. Each of those
/// prefetches the row the line feed two lines later recycles (`ascii::prefetch_recycled_row`),
/// where one scroll of many lines clears all its rows at once, each waiting on memory: on
/// 100-byte lines, batches of up to a region measured 0.84–0.95× the line feeds' rate, and
/// batches of one to eight lines, the next batch's rows prefetched after each scroll, no
/// better than the spread (`parse-ratio --sluice-only 3 8 plain 10000 SIZE`, 100×30 and
/// 200×60). A scroll within a region below the top clears a row of the region, in cache.
///
/// Out of line: called once for many lines, and inlined into the feed's loop it slowed the
/// payloads that never take it (cursor motion 0.92–0.95× in `parse-ratio --sluice-only`).
#[inline(never)]
pub(super) fn write_lines<L: EventListener>(
    term: &mut Term<L>,
    extent: &mut LineExtent,
    bytes: &[u8],
    (height, from_top): (usize, bool),
    spans: &mut Vec<(usize, usize)>,
) -> (usize, Option<u8>) {
    if from_top && extent.cells() >= ascii::PREFETCH_MIN_CELLS {
        return (0, None);
    }
    let columns = term.columns();
    spans.clear();
    let mut taken = 0;
    while spans.len() < height && bytes[taken..].starts_with(b"\r\n") {
        let (len, ascii) = runs::text_extent(&bytes[taken + 2..]);
        if !ascii || len > columns {
            break;
        }
        spans.push((taken + 2, len));
        taken += 2 + len;
    }
    let Some(&(_, last_len)) = spans.last() else {
        return (0, None);
    };
    // What the line feeds' prefetch estimates from (`ascii::LineExtent`): where each line
    // ended, at its carriage return.
    let column = term.grid().cursor.point.column.0;
    extent.note(column + 1);
    for &(_, len) in &spans[..spans.len() - 1] {
        extent.note(len.min(columns - 1) + 1);
    }
    term.carriage_return();
    term.scroll_up(spans.len());
    let grid = term.grid_mut();
    let template = grid.cursor.template.clone();
    let bottom = grid.cursor.point.line.0 as usize;
    let first = bottom + 1 - spans.len();
    for (row, &(start, len)) in (first..).zip(spans.iter()) {
        if len > 0 {
            let cells = &mut grid[Line(row as i32)][Column(0)..Column(len)];
            ascii::fill(cells, &bytes[start..start + len], &template);
        }
    }
    ascii::move_past(&mut grid.cursor, last_len, columns);
    let last = spans
        .iter()
        .rev()
        .find(|&&(_, len)| len > 0)
        .map(|&(start, len)| bytes[start + len - 1]);
    (taken, last)
}

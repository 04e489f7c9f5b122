//! Erasing a whole line without writing the cells that are blank already.
//!
//! A progress bar or a bundler's status clears its line every redraw (`CR CSI 2 K`, or
//! `CR CSI K`), and `Term::clear_line` writes every cell of the row for it, 200 at 200
//! columns. Worse, each write through the row's index marks the cell occupied
//! (`Row::occ`, private to alacritty_terminal), so when the row comes back from the far end
//! of the scrollback `Row::reset` clears all 200 cells again. `perf record -t` on the parser
//! thread of a 200×60 window over six Metro-like builds (`sluice-bench metro-sim --warm
//! --log-every 1`, whose every line and status clears its row first): `Row::reset` 18% of its
//! samples and `clear_line` 14%.
//!
//! [`clear_line`] clears such a line with `Row::reset`, which writes only the cells written
//! since the row was last cleared (all of them if the background differs) and leaves the row
//! unoccupied, and gets the rest of what `Term::clear_line` does (the selection on the line
//! dropped, the line's damage) through calls that write at most the cells up to the cursor.
//! The grid, the cursor and the damage come out as `Term::clear_line`'s (the tests below, and
//! the differential tests of the feed).

use alacritty_terminal::event::EventListener;
use alacritty_terminal::grid::Dimensions;
use alacritty_terminal::term::Term;
use alacritty_terminal::term::cell::Cell;
use alacritty_terminal::vte::ansi::{Handler, LineClearMode};

/// Executes `CSI mode K` on `term` as `Term::clear_line` does.
#[inline]
pub(super) fn clear_line<L: EventListener>(term: &mut Term<L>, mode: LineClearMode) {
    let cursor = &term.grid().cursor;
    let (line, column, wrap) = (
        cursor.point.line,
        cursor.point.column,
        cursor.input_needs_wrap,
    );
    // `Right` from the first column is the whole line, unless a wrap is pending: then
    // `Term::clear_line` does nothing.
    let whole = match mode {
        LineClearMode::All => true,
        LineClearMode::Right => column.0 == 0 && !wrap,
        LineClearMode::Left => false,
    };
    if !whole {
        return term.clear_line(mode);
    }
    let blank = Cell::from(cursor.template.bg);
    term.grid_mut()[line].reset(&blank);
    // The cells up to the cursor once more (one cell from the first column), for the
    // selection on the line and the damage from its first column to the cursor...
    term.clear_line(LineClearMode::Left);
    // ... and the damage from the cursor to the last column, which moving there gives.
    term.move_forward(term.columns());
    let cursor = &mut term.grid_mut().cursor;
    cursor.point.column = column;
    cursor.input_needs_wrap = wrap;
}

#[cfg(test)]
mod tests {
    use alacritty_terminal::index::{Column, Line, Point};
    use alacritty_terminal::term::test::TermSize;
    use alacritty_terminal::term::{Config, Term};
    use alacritty_terminal::vte::ansi::{Handler, LineClearMode, Processor, StdSyncHandler};

    use crate::testing::{selection, term_state};

    use alacritty_terminal::event::VoidListener as Void;

    fn term(cols: usize, rows: usize) -> Term<Void> {
        let config = Config {
            scrolling_history: 20,
            ..Config::default()
        };
        Term::new(config, &TermSize::new(cols, rows), Void)
    }

    fn feed(term: &mut Term<Void>, bytes: &[u8]) {
        let mut parser: Processor<StdSyncHandler> = Processor::new();
        parser.advance(term, bytes);
    }

    /// The three modes, by number (`LineClearMode` is not `Copy`).
    fn mode(i: usize) -> LineClearMode {
        match i {
            0 => LineClearMode::All,
            1 => LineClearMode::Right,
            _ => LineClearMode::Left,
        }
    }

    /// Two terminals given `setup`, then the erase in mode number `mode`, one through
    /// `Term::clear_line` and one through [`super::clear_line`]; then `after` on both. Their
    /// cells, cursors and damage (read after the erase and again after `after`) must be the
    /// same.
    fn same_as_term(setup: &[u8], mode_number: usize, after: &[u8], select: bool) {
        let (mut plain, mut ours) = (term(12, 4), term(12, 4));
        for t in [&mut plain, &mut ours] {
            feed(t, setup);
            // What was drawn before the erase is not the erase's damage.
            t.reset_damage();
            if select {
                t.selection = Some(selection(
                    Point::new(Line(0), Column(0)),
                    Point::new(Line(3), Column(5)),
                ));
            }
        }
        plain.clear_line(mode(mode_number));
        super::clear_line(&mut ours, mode(mode_number));
        let what = format!(
            "{:?} {:?} then {:?}",
            String::from_utf8_lossy(setup),
            mode(mode_number),
            String::from_utf8_lossy(after)
        );
        assert_eq!(
            term_state(&mut plain, usize::MAX),
            term_state(&mut ours, usize::MAX),
            "{what}"
        );
        assert_eq!(
            plain.selection.is_some(),
            ours.selection.is_some(),
            "{what}"
        );
        for t in [&mut plain, &mut ours] {
            feed(t, after);
        }
        assert_eq!(
            term_state(&mut plain, usize::MAX),
            term_state(&mut ours, usize::MAX),
            "{what}"
        );
    }

    #[test]
    fn a_whole_line_erased_as_term_erases_it() {
        // Rows written in colours, with wide characters, a wrap pending, on the first row
        // and the last; the erase in the default background and in another; from the first
        // column, the middle and the last.
        let setups: [&[u8]; 8] = [
            b"hello",
            b"hello\r",
            b"\x1b[41mred row\x1b[0m\r\n\x1b[44mblue\r",
            b"\x1b[42m\x1b[2K\x1b[0mgreen background row\r",
            b"0123456789ab",
            "wide 漢字 row\r".as_bytes(),
            b"a\r\nb\r\nc\r\nlast row text\x1b[3G",
            b"\x1b[45mtext\x1b[4;1Hbottom\x1b[1;1H\x1b[43m",
        ];
        // After the erase: text written over it; the row scrolled through the whole history
        // (20 lines) and back as a new row, cleared by `Row::reset` as far as it was written,
        // in the default background and in another; another erase.
        let through_history = "\r\n".repeat(30) + "x\x1b[44m" + &"\r\n".repeat(30) + "after";
        let afters: [&[u8]; 3] = [
            b"new text",
            through_history.as_bytes(),
            b"\x1b[46m\r\x1b[K\x1b[0mmore",
        ];
        for setup in setups {
            for mode in 0..3 {
                for after in afters {
                    for select in [false, true] {
                        same_as_term(setup, mode, after, select);
                    }
                }
            }
        }
    }

    #[test]
    fn an_erase_with_a_wrap_pending_keeps_it() {
        // Twelve characters in twelve columns leave the cursor on the last with a wrap
        // pending: the whole line's erase keeps it (the next character goes to the next
        // line), and an erase to the right does nothing.
        for mode in 0..2 {
            same_as_term(b"0123456789ab", mode, b"next", false);
            same_as_term(b"\r\n0123456789ab", mode, b"z", true);
        }
    }
}

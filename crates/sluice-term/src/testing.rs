//! For tests and fuzz targets that compare two terminals: everything a `Term` shows of itself
//! as text, so that two can be compared and the first difference named.

use alacritty_terminal::event::EventListener;
use alacritty_terminal::grid::Dimensions;
use alacritty_terminal::index::{Column, Line};
use alacritty_terminal::term::cell::{Cell, Flags};
use alacritty_terminal::term::{Term, TermDamage};
use alacritty_terminal::vte::ansi::{Handler, Processor, StdSyncHandler};

/// `Processor::advance`, with the UTF-8 continuation bytes at the start of `bytes` given alone
/// first, as Sluice's feed gives every call ([`crate::feed::finishing_split`]): the plain
/// terminal the differential tests compare against is vte without the bug that would make it
/// drop a character after one a read split (alacritty/vte#159).
pub fn advance_vte<H: Handler>(
    processor: &mut Processor<StdSyncHandler>,
    handler: &mut H,
    bytes: &[u8],
) {
    let (finishing, rest) = crate::feed::finishing_split(bytes);
    if !finishing.is_empty() {
        processor.advance(handler, finishing);
    }
    processor.advance(handler, rest);
}

/// Every row with its scrollback, the cursor (and the saved one), the modes and the damage
/// collected (which it resets).
///
/// Of each cell's combining marks only the first `marks` count: Sluice's feed keeps at most
/// [`MAX_COMBINING_PER_CELL`](crate::limits::MAX_COMBINING_PER_CELL) a cell (a cap), so a
/// plain `Term` is compared as if it had kept the same. A mark that points at nothing counts
/// as absent (see [`without_orphan_marks`]), and shell integration marks (`crate::marks`),
/// which a plain `Term` does not keep, are left out.
pub fn term_state<L: EventListener>(term: &mut Term<L>, marks: usize) -> String {
    let mut out = format!(
        "mode {:?}\ncursor {:?}\nsaved {:?}\n",
        term.mode(),
        term.grid().cursor,
        term.grid().saved_cursor
    );
    out += &match term.damage() {
        TermDamage::Full => "damage full\n".to_string(),
        TermDamage::Partial(lines) => format!("damage {:?}\n", lines.collect::<Vec<_>>()),
    };
    let grid = term.grid();
    let (top, bottom) = (grid.topmost_line().0, grid.bottommost_line().0);
    for line in top..=bottom {
        out += &format!("{line}");
        let row = &grid[Line(line)];
        let next = (line < bottom).then(|| &grid[Line(line + 1)]);
        for (column, cell) in row[..].iter().enumerate() {
            let zerowidth = cell.zerowidth().unwrap_or_default();
            let flags = without_orphan_marks(&row[..], column, next.map(|r| &r[Column(0)]));
            out += &format!(
                " [{:?} {:?} {:?} {:?} {:?} {:?} {:?}]",
                cell.c,
                cell.fg,
                cell.bg,
                flags,
                &zerowidth[..zerowidth.len().min(marks)],
                cell.underline_color(),
                cell.hyperlink().filter(|l| !crate::marks::is_mark_link(l)),
            );
        }
        out += "\n";
    }
    without_generated_link_ids(&out)
}

/// The flags of `row[column]` with any mark that points at nothing taken out: a
/// `WIDE_CHAR_SPACER` with no wide character to its left, and a `LEADING_WIDE_CHAR_SPACER`
/// (which says a wide character wrapped) at the end of a line whose next line (`next_first`,
/// its first cell) does not start with one. Both show as the blanks they hold.
///
/// `Term` leaves such orphans where DCH deletes the first half of a wide character. The feed
/// mends the one at column 0, where `Term` would underflow a column stepping left from it
/// (`limits::mend_orphan_spacer`); a plain `Term` keeps its orphan, and later moves it (insert
/// mode or ICH shift it right: the `feed` fuzz target found one at column 1,
/// the seed `regress-orphan-spacer-moved-right`). So orphans are compared as what they show, wherever
/// they end up, on both sides alike.
fn without_orphan_marks(row: &[Cell], column: usize, next_first: Option<&Cell>) -> Flags {
    let mut flags = row[column].flags;
    if flags.contains(Flags::WIDE_CHAR_SPACER)
        && (column == 0 || !row[column - 1].flags.contains(Flags::WIDE_CHAR))
    {
        flags.remove(Flags::WIDE_CHAR_SPACER);
    }
    if column == row.len() - 1
        && !next_first.is_some_and(|cell| cell.flags.contains(Flags::WIDE_CHAR))
    {
        flags.remove(Flags::LEADING_WIDE_CHAR_SPACER);
    }
    flags
}

/// `state` with every link id alacritty_terminal generated (`N_alacritty`, for a link without
/// an id or with one it cannot use) written `(generated)`: N comes from one counter for the
/// whole process, so two terminals fed the same bytes get different ones. (The `feed` fuzz
/// target found this, in cells and in the cursor's template.)
fn without_generated_link_ids(state: &str) -> String {
    const SUFFIX: &str = "_alacritty\"";
    let mut out = String::with_capacity(state.len());
    let mut rest = state;
    while let Some(at) = rest.find(SUFFIX) {
        let digits = rest[..at].len()
            - rest[..at]
                .trim_end_matches(|c: char| c.is_ascii_digit())
                .len();
        let (head, tail) = rest.split_at(at + SUFFIX.len());
        if digits > 0 && head[..at - digits].ends_with('"') {
            out.push_str(&head[..at - digits]);
            out.push_str("(generated)\"");
        } else {
            out.push_str(head);
        }
        rest = tail;
    }
    out.push_str(rest);
    out
}

/// The first line at which `expected` and `got` differ, both sides, for a failure message.
pub fn first_difference(expected: &str, got: &str) -> Option<String> {
    if expected == got {
        return None;
    }
    let line = expected
        .lines()
        .zip(got.lines())
        .position(|(a, b)| a != b)
        .unwrap_or(0);
    Some(format!(
        "first difference at line {line}\nplain: {}\nfast:  {}",
        expected.lines().nth(line).unwrap_or(""),
        got.lines().nth(line).unwrap_or("")
    ))
}

#[cfg(test)]
mod tests {
    #[test]
    fn generated_link_ids_compare_equal() {
        let a = r#"id: "12_alacritty", uri: "x" id: "mine" id: "a_alacritty""#;
        assert_eq!(
            super::without_generated_link_ids(a),
            r#"id: "(generated)", uri: "x" id: "mine" id: "a_alacritty""#
        );
    }
}

//! For tests and fuzz targets that compare two terminals: everything a `Term` shows of itself
//! as text, so that two can be compared and the first difference named.

use alacritty_terminal::event::EventListener;
use alacritty_terminal::grid::Dimensions;
use alacritty_terminal::index::{Line, Point, Side};
use alacritty_terminal::selection::{Selection, SelectionType};
use alacritty_terminal::term::{Term, TermDamage};
use alacritty_terminal::vte::ansi::{Handler, Processor, StdSyncHandler};

/// `Processor::advance`, with the UTF-8 continuation bytes at the start of `bytes` given alone
/// first, as Sluice's feed gives every call (`feed::finishing_split`): the plain
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

/// A selection from `start` to `end`, both cells in it, as dragging from one to the other
/// makes.
pub fn selection(start: Point, end: Point) -> Selection {
    let mut selection = Selection::new(SelectionType::Simple, start, Side::Left);
    selection.update(end, Side::Right);
    selection
}

/// What the differential tests compare Sluice's feed with: vte driving a `Term` through the
/// `Handler` the feed gives it (`Term`'s own, with the output caps and the mend of an orphan
/// spacer: `feed::forward`), without the feed's fast path, its prescan, its erase of whole
/// lines (`feed::erase`: here `Term` erases) or the pieces it cuts the bytes into, and each
/// call given as [`advance_vte`] gives it.
///
/// Before, the reference was `Term` alone, and every place where Sluice's terminal differs
/// from it on purpose needed a rule in the comparison. The mend did not fit one: a plain
/// `Term` keeps the spacer that DCH leaves at column 0, insert mode or ICH can shift it right,
/// and a character written over it there clears the character to its left, which Sluice's
/// mended terminal keeps (the `feed` fuzz target found both, one after the other; the seeds
/// `regress-orphan-spacer-moved-right` and `regress-orphan-spacer-overwritten`). What the caps
/// and the mend do is tested on their own (tests/limits.rs).
#[derive(Default)]
pub struct Reference {
    processor: Processor<StdSyncHandler>,
    mirror: crate::feed::limits::Mirror,
}

impl Reference {
    pub fn new() -> Self {
        Self::default()
    }

    /// Parses `bytes` into `term`.
    pub fn advance<L: EventListener>(&mut self, term: &mut Term<L>, bytes: &[u8]) {
        let mut forward = crate::feed::forward::Forward::reference(term, &mut self.mirror);
        advance_vte(&mut self.processor, &mut forward, bytes);
    }
}

/// Every row with its scrollback, the cursor (and the saved one), the modes and the damage
/// collected (which it resets).
///
/// Of each cell's combining marks only the first `marks` count: Sluice's feed keeps at most
/// [`MAX_COMBINING_PER_CELL`](crate::limits::MAX_COMBINING_PER_CELL) a cell (a cap), so a
/// plain `Term` is compared as if it had kept the same (a [`Reference`] keeps the cap itself).
/// Shell integration marks (`crate::marks`), which only the feed puts on cells, are left out.
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
        for cell in &grid[Line(line)][..] {
            let zerowidth = cell.zerowidth().unwrap_or_default();
            out += &format!(
                " [{:?} {:?} {:?} {:?} {:?} {:?} {:?}]",
                cell.c,
                cell.fg,
                cell.bg,
                cell.flags,
                &zerowidth[..zerowidth.len().min(marks)],
                cell.underline_color(),
                cell.hyperlink().filter(|l| !crate::marks::is_mark_link(l)),
            );
        }
        out += "\n";
    }
    without_generated_link_ids(&out)
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

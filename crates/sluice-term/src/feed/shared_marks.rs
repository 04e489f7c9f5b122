//! Combining marks whose cells share one copy of their marks.
//!
//! `Cell::push_zerowidth` gives every cell its marks in storage of its own (`CellExtra`, behind
//! an `Arc`): two allocations for each accented character written in decomposed form (`e` and
//! U+0301, as macOS file names and the `unicode` payload have them), and two frees when
//! scrolling recycles its row. Cells already share that storage when they share it with the
//! cursor's template (an underline colour, a link), and `Cell` copies it before changing it
//! (`Arc::make_mut`), so cells given the same mark over the same storage can share the
//! result. In the `unicode` payload, two of every ten pieces carry marks, and the allocator
//! and `push_zerowidth` were 6% of the samples of a `sluice` window parsing it at 200×60
//! (`perf record`, 2026-12-05): see docs/performance.md, "Marks shared".

use std::sync::Arc;

use alacritty_terminal::term::cell::{Cell, CellExtra};

/// How many recent (storage, mark) pairs are remembered. Text repeats few marks: an accent or
/// two per script, and a cell holding two marks makes two pairs.
const REMEMBERED: usize = 4;

/// The storage the last few marks made, to share with the next cell given the same mark over
/// the same storage.
#[derive(Default)]
pub(super) struct SharedMarks {
    remembered: [Option<Made>; REMEMBERED],
    /// The slot the next new pair goes to: the oldest.
    next: usize,
}

/// One mark pushed onto a cell: the storage before and after.
struct Made {
    /// Held, so that no other storage can be allocated at its address while it is
    /// remembered, and so that `push_zerowidth` copies it rather than changing it in place.
    before: Option<Arc<CellExtra>>,
    mark: char,
    after: Arc<CellExtra>,
}

impl SharedMarks {
    /// Adds `mark` to `cell`'s combining marks, as `Cell::push_zerowidth` does: the cell ends
    /// up with the same marks, underline colour and link, in storage it may share.
    #[inline(always)]
    pub(super) fn push(&mut self, cell: &mut Cell, mark: char) {
        let found = self
            .remembered
            .iter()
            .flatten()
            .find(|made| made.mark == mark && same_storage(&made.before, &cell.extra));
        if let Some(made) = found {
            cell.extra = Some(made.after.clone());
            return;
        }
        self.push_new(cell, mark);
    }

    #[inline(never)]
    fn push_new(&mut self, cell: &mut Cell, mark: char) {
        let before = cell.extra.clone();
        cell.push_zerowidth(mark);
        let after = cell
            .extra
            .clone()
            .expect("push_zerowidth gives the cell storage");
        self.remembered[self.next] = Some(Made {
            before,
            mark,
            after,
        });
        self.next = (self.next + 1) % REMEMBERED;
    }
}

fn same_storage(a: &Option<Arc<CellExtra>>, b: &Option<Arc<CellExtra>>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => Arc::ptr_eq(a, b),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marked(cell: &Cell) -> Vec<char> {
        cell.zerowidth().map(<[char]>::to_vec).unwrap_or_default()
    }

    #[test]
    fn cells_given_the_same_marks_share_them() {
        let mut shared = SharedMarks::default();
        let (mut a, mut b) = (Cell::default(), Cell::default());
        for cell in [&mut a, &mut b] {
            shared.push(cell, '\u{308}');
            shared.push(cell, '\u{304}');
        }
        assert_eq!(marked(&a), ['\u{308}', '\u{304}']);
        assert_eq!(a, b);
        assert!(Arc::ptr_eq(
            a.extra.as_ref().unwrap(),
            b.extra.as_ref().unwrap()
        ));
    }

    #[test]
    fn a_shared_copy_is_never_changed_in_place() {
        let mut shared = SharedMarks::default();
        let (mut a, mut b) = (Cell::default(), Cell::default());
        shared.push(&mut a, '\u{301}');
        shared.push(&mut b, '\u{301}');
        // `b` gets a second mark: `a`, which shared its storage, keeps one.
        shared.push(&mut b, '\u{302}');
        assert_eq!(marked(&a), ['\u{301}']);
        assert_eq!(marked(&b), ['\u{301}', '\u{302}']);
        // Alone in its storage, a cell still gets the mark as `push_zerowidth` gives it.
        let mut c = Cell::default();
        c.push_zerowidth('\u{300}');
        let mut d = c.clone();
        shared.push(&mut c, '\u{303}');
        d.push_zerowidth('\u{303}');
        assert_eq!(c, d);
    }

    #[test]
    fn storage_with_other_contents_is_not_mistaken_for_the_remembered() {
        let mut shared = SharedMarks::default();
        let mut plain = Cell::default();
        shared.push(&mut plain, '\u{301}');
        // The same mark over an underline colour: the colour stays, and the plain cell's copy
        // is not used.
        let mut linked = Cell::default();
        linked.set_underline_color(Some(alacritty_terminal::vte::ansi::Color::Indexed(1)));
        shared.push(&mut linked, '\u{301}');
        assert_eq!(marked(&linked), ['\u{301}']);
        assert_eq!(
            linked.underline_color(),
            Some(alacritty_terminal::vte::ansi::Color::Indexed(1))
        );
        assert!(!Arc::ptr_eq(
            plain.extra.as_ref().unwrap(),
            linked.extra.as_ref().unwrap()
        ));
        // More pairs than are remembered: the oldest is forgotten, nothing goes wrong.
        for (i, mark) in ('\u{300}'..='\u{30f}').enumerate() {
            let mut cell = Cell::default();
            shared.push(&mut cell, mark);
            assert_eq!(marked(&cell), [mark], "{i}");
        }
    }
}

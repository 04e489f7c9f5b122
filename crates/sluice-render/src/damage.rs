//! Which rows to draw: fingerprints of rows as drawn.
//!
//! The snapshot already says which rows changed and by how much the screen scrolled (see
//! `sluice_term::scroll`). The renderer adds what it draws on top of the cells (cursor,
//! selection, focus) and keeps a fingerprint of each row as it is in the frame texture, so a
//! row is drawn only when what it would show differs from what is there. When everything is
//! in question (a selection changed, the first frame), every row is fingerprinted and the
//! same shift search finds any scroll.
//!
//! Within a row, the software renderer also keeps a key for each cell as drawn
//! (`cell_key`), so that a changed row is drawn only from its first changed cell
//! (`unchanged_prefix` against `Frames::drawn_cells`, in `RowBuilder`, which builds no quad
//! that ends left of it).

use sluice_term::{Cursor, RenderCell, Snapshot, ViewportSelection};

use crate::decorations::Decorations;

use sluice_term::scroll::mix;
pub use sluice_term::scroll::{UNKNOWN as UNDRAWN, plan};

fn rgb(c: sluice_term::Rgb) -> u64 {
    (c.r as u64) << 16 | (c.g as u64) << 8 | c.b as u64
}

fn cell_hash(hash: u64, cell: &RenderCell) -> u64 {
    let mut h = mix(hash, cell.c as u64 | (cell.flags.bits() as u64) << 32);
    h = mix(h, rgb(cell.fg) << 24 | rgb(cell.bg));
    if let Some(u) = cell.underline {
        h = mix(h, rgb(u) | 1 << 40);
    }
    if let Some(marks) = &cell.zerowidth {
        for &m in marks.iter() {
            h = mix(h, m as u64);
        }
    }
    h
}

/// Where a row's blank tail starts: from there on every cell is a space in `background` with
/// nothing on it, which draws nothing but the background the row is blanked with. A build's
/// log line fills a fifth of a 200-column row; its blanks were a fifth of a frame of it
/// (docs/performance.md, "Blank tails").
pub(crate) fn blank_tail(cells: &[RenderCell], background: sluice_term::Rgb) -> usize {
    cells
        .iter()
        .rposition(|cell| {
            cell.c != ' '
                || !cell.flags.is_empty()
                || cell.bg != background
                || cell.zerowidth.is_some()
                || cell.underline.is_some()
        })
        .map_or(0, |last| last + 1)
}

/// Where the blank tail of `cells`, row `row` of `snapshot` as decorated, starts: the
/// snapshot's own cells are blank from [`Snapshot::blank_from`] on, so only the cells before
/// it are looked at; a decorated copy is looked at whole. Looking through a build's log line's
/// 150 blank cells was most of fingerprinting its row (`perf record` of the window's thread).
pub(crate) fn content_end(snapshot: &Snapshot, cells: &[RenderCell], row: usize) -> usize {
    let own = snapshot
        .lines
        .get(row)
        .is_some_and(|line| std::ptr::eq(line.as_slice(), cells));
    let known = if own {
        snapshot.blank_from(row).min(cells.len())
    } else {
        cells.len()
    };
    blank_tail(&cells[..known], snapshot.background)
}

/// A cell's key in [`unchanged_prefix`]: what it shows, exactly (character, flags, the
/// colours it is drawn in after selection and inverse), packed rather than hashed, so that no
/// two cells that look different share one. A cell with marks or an underline colour is
/// [`ALWAYS_REDRAWN`]: rare, and they do not fit.
pub(crate) fn cell_key(cell: &RenderCell, fg: sluice_term::Rgb, bg: sluice_term::Rgb) -> u128 {
    if cell.zerowidth.is_some() || cell.underline.is_some() {
        return ALWAYS_REDRAWN;
    }
    // A space without flags draws its background only, in any foreground: keyed as a blank
    // tail's cell is, so that text written after spaces into a blank row (an indented line)
    // is drawn from the text, not from the row's start.
    let fg = if cell.c == ' ' && cell.flags.is_empty() {
        0
    } else {
        rgb(fg)
    };
    cell.c as u128
        | (cell.flags.bits() as u128) << 32
        | (fg as u128) << 48
        | (rgb(bg) as u128) << 72
}

/// The key of a blank-tail cell ([`blank_tail`]) over `background`: a space without flags,
/// which draws the same in any foreground.
pub(crate) fn blank_key(background: sluice_term::Rgb) -> u128 {
    ' ' as u128 | (rgb(background) as u128) << 72
}

/// The key of a cell something is drawn over that its key does not say (the cursor, marks):
/// it matches nothing, not even itself (no character is `u32::MAX`).
pub(crate) const ALWAYS_REDRAWN: u128 = u128::MAX;

/// How many cells at the start of a row are the same in `old` (as drawn) and `new` (to be
/// drawn), by [`cell_key`]: the row need only be drawn from there on. A row that is the same
/// throughout (drawn again for something the keys do not cover) is drawn whole: 0.
pub(crate) fn unchanged_prefix(old: &[u128], new: &[u128]) -> usize {
    let same = old
        .iter()
        .zip(new)
        .take_while(|&(a, b)| a == b && *b != ALWAYS_REDRAWN)
        .count();
    if same == new.len() { 0 } else { same }
}

/// What the renderer draws on top of the cells, which fingerprints must cover too.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Overlay {
    pub cursor: Option<Cursor>,
    pub selection: Option<ViewportSelection>,
    pub focused: bool,
    pub colors: OverlayColors,
}

/// Colours of what is drawn over the cells, from the configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct OverlayColors {
    /// Selected cells' text and background; `None`: the cell's own, swapped.
    pub selection: Option<(sluice_term::Rgb, sluice_term::Rgb)>,
    /// The character under a block cursor; `None`: the cell's background.
    pub cursor_text: Option<sluice_term::Rgb>,
}

/// The columns of `row` the selection covers, as a half-open range.
pub fn selected_columns(
    selection: Option<ViewportSelection>,
    row: usize,
    cols: usize,
) -> Option<(usize, usize)> {
    let s = selection?;
    if row < s.start.0 || row > s.end.0 {
        return None;
    }
    if s.block {
        let (a, b) = (s.start.1.min(s.end.1), s.start.1.max(s.end.1));
        return Some((a, b + 1));
    }
    let start = if row == s.start.0 { s.start.1 } else { 0 };
    let end = if row == s.end.0 { s.end.1 + 1 } else { cols };
    Some((start, end.min(cols)))
}

/// The fingerprint of `row` as it would be drawn.
pub fn row_hash(
    snapshot: &Snapshot,
    overlay: &Overlay,
    decorations: &Decorations,
    row: usize,
) -> u64 {
    let cells = decorations.apply(&snapshot.lines[row], row);
    // The blank tail (which draws nothing, `RowBuilder::build`) is counted, not hashed.
    let end = content_end(snapshot, &cells, row);
    let mut h = mix(end as u64, rgb(snapshot.background));
    for cell in &cells[..end] {
        h = cell_hash(h, cell);
    }
    if let Some(cursor) = overlay.cursor.filter(|c| c.row == row) {
        h = mix(
            h,
            1 << 63 | (cursor.col as u64) << 32 | (cursor.shape as u64) << 24 | rgb(cursor.color),
        );
        h = mix(h, cursor.wide as u64 | (overlay.focused as u64) << 1);
        if let Some(c) = overlay.colors.cursor_text {
            h = mix(h, 1 << 61 | rgb(c));
        }
    }
    if let Some((a, b)) = selected_columns(overlay.selection, row, snapshot.cols) {
        h = mix(h, 1 << 62 | (a as u64) << 20 | b as u64);
        if let Some((fg, bg)) = overlay.colors.selection {
            h = mix(h, rgb(fg) << 24 | rgb(bg));
        }
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_is_drawn_from_its_first_changed_cell() {
        const X: u128 = ALWAYS_REDRAWN;
        for (old, new, from) in [
            (&[1, 2, 3][..], &[1, 2, 4][..], 2),
            (&[1, 2, 3], &[9, 2, 3], 0),
            (&[1, 2, 3], &[1, X, 3], 1),
            (&[1, X, 3], &[1, 2, 3], 1),
            (&[1, X, 3], &[1, X, 3], 1),
            // The same throughout: drawn again for something the keys do not say, whole.
            (&[1, 2, 3], &[1, 2, 3], 0),
        ] {
            assert_eq!(unchanged_prefix(old, new), from, "{old:?} → {new:?}");
        }
    }

    #[test]
    fn a_blank_tail_is_trusted_to_the_snapshot_only_for_its_own_cells() {
        let mut replay = sluice_term::Replay::new(20, 2, 0);
        replay.feed(b"hello");
        let mut snapshot = Snapshot::default();
        replay.update_snapshot(&mut snapshot);
        assert_eq!(snapshot.blank_from(0), 5);
        let row = &snapshot.lines[0];
        assert_eq!(content_end(&snapshot, row, 0), 5);
        // A decoration (a hint's label) past the text: the decorated cells are looked at whole.
        let mut decorated = row.clone();
        decorated[12].c = 'x';
        assert_eq!(content_end(&snapshot, &decorated, 0), 13);
        // Cells that are not a terminal's (a tab bar): nothing is known, all are looked at.
        let mut bar = row.clone();
        bar[15].c = '+';
        let (fg, bg) = (snapshot.foreground, snapshot.background);
        let bar = Snapshot::of_cells(vec![bar], fg, bg);
        assert_eq!(bar.blank_from(0), 20);
        assert_eq!(content_end(&bar, &bar.lines[0], 0), 16);
    }

    #[test]
    fn cells_that_look_different_have_different_keys() {
        let cell = RenderCell {
            c: 'a',
            fg: sluice_term::Rgb { r: 1, g: 2, b: 3 },
            bg: sluice_term::Rgb { r: 4, g: 5, b: 6 },
            ..RenderCell::default()
        };
        let key = |c: &RenderCell| cell_key(c, c.fg, c.bg);
        let mut others = vec![];
        for change in 0..5 {
            let mut other = cell.clone();
            match change {
                0 => other.c = 'b',
                1 => other.fg.b = 4,
                2 => other.bg.r = 5,
                3 => other.flags = sluice_term::CellFlags::BOLD,
                _ => other.c = ' ',
            }
            others.push(key(&other));
        }
        assert!(others.iter().all(|&k| k != key(&cell)));
        // A space without flags draws the same in any foreground: the blank tail's key.
        let space = RenderCell {
            c: ' ',
            ..cell.clone()
        };
        assert_eq!(
            cell_key(&space, sluice_term::Rgb::default(), space.bg),
            blank_key(space.bg)
        );
        assert_eq!(cell_key(&space, space.fg, space.bg), blank_key(space.bg));
        // An underlined one draws its foreground.
        let underlined = RenderCell {
            flags: sluice_term::CellFlags::UNDERLINE,
            ..space.clone()
        };
        assert_ne!(key(&underlined), blank_key(space.bg));
        assert_ne!(
            key(&underlined),
            cell_key(&underlined, sluice_term::Rgb::default(), space.bg)
        );
        let marked = RenderCell {
            zerowidth: Some(Box::new(['\u{301}'])),
            ..cell
        };
        assert_eq!(key(&marked), ALWAYS_REDRAWN);
    }
}

//! Which rows to draw: row fingerprints, and scroll detection.
//!
//! alacritty_terminal reports every scroll as full damage. Redrawing 50 rows because `cat`
//! printed one line would cost a full frame each time, so the renderer fingerprints each row
//! as drawn and, on full damage, looks for the shift that best lines the new rows up with the
//! drawn ones. The frame texture is then moved on the GPU and only rows whose fingerprint
//! still differs are drawn. Correctness never depends on the guess: a row is skipped only if
//! its fingerprint equals what is already in the texture at that place.

use sluice_term::{Cursor, RenderCell, Snapshot, ViewportSelection};

/// A fingerprint no row has: forces a redraw.
pub const UNDRAWN: u64 = u64::MAX;

/// FxHash's mixing step: fast, and plenty for telling rows apart (not adversarial input: a
/// collision would only leave one row stale until it changes again).
fn mix(hash: u64, value: u64) -> u64 {
    (hash.rotate_left(5) ^ value).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95)
}

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

/// What the renderer draws on top of the cells, which fingerprints must cover too.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Overlay {
    pub cursor: Option<Cursor>,
    pub selection: Option<ViewportSelection>,
    pub focused: bool,
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
pub fn row_hash(snapshot: &Snapshot, overlay: &Overlay, row: usize) -> u64 {
    let mut h = mix(0, rgb(snapshot.background));
    for cell in &snapshot.lines[row] {
        h = cell_hash(h, cell);
    }
    if let Some(cursor) = overlay.cursor.filter(|c| c.row == row) {
        h = mix(
            h,
            1 << 63 | (cursor.col as u64) << 32 | (cursor.shape as u64) << 24 | rgb(cursor.color),
        );
        h = mix(h, cursor.wide as u64 | (overlay.focused as u64) << 1);
    }
    if let Some((a, b)) = selected_columns(overlay.selection, row, snapshot.cols) {
        h = mix(h, 1 << 62 | (a as u64) << 20 | b as u64);
    }
    h
}

/// How to get from the drawn rows to the new ones.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// Rows the content moved up by (negative: down). The texture is shifted by this first.
    pub shift: i32,
    /// Rows to draw after the shift.
    pub rows: Vec<usize>,
}

/// Finds the shift that leaves the fewest rows to draw, then lists those rows.
///
/// Only called on full damage. Cost: O(rows²) comparisons of u64, a few µs at 50 rows.
pub fn plan(drawn: &[u64], new: &[u64]) -> Plan {
    let n = new.len();
    let matches = |shift: i32| -> usize {
        (0..n)
            .filter(|&i| {
                let from = i as i64 + shift as i64;
                from >= 0
                    && (from as usize) < n
                    && new[i] == drawn[from as usize]
                    && new[i] != UNDRAWN
            })
            .count()
    };
    let mut best = (0i32, matches(0));
    // Small shifts first: one line of output is by far the most common scroll, and a shift
    // that accounts for every row that stayed on screen cannot be beaten.
    'search: for shift in 1..n as i32 {
        if best.1 == n {
            break;
        }
        for s in [shift, -shift] {
            let m = matches(s);
            if m > best.1 {
                best = (s, m);
                if m == n - shift as usize {
                    break 'search;
                }
            }
        }
    }
    let shift = best.0;
    let rows = (0..n)
        .filter(|&i| {
            let from = i as i64 + shift as i64;
            !(from >= 0 && (from as usize) < n && new[i] == drawn[from as usize])
        })
        .collect();
    Plan { shift, rows }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_scroll_draws_one_row() {
        let drawn: Vec<u64> = (10..60).collect();
        let new: Vec<u64> = (11..61).collect();
        assert_eq!(
            plan(&drawn, &new),
            Plan {
                shift: 1,
                rows: vec![49]
            }
        );
    }

    #[test]
    fn unchanged_rows_are_not_drawn() {
        let drawn: Vec<u64> = (0..5).collect();
        let mut new = drawn.clone();
        new[3] = 99;
        assert_eq!(
            plan(&drawn, &new),
            Plan {
                shift: 0,
                rows: vec![3]
            }
        );
    }

    #[test]
    fn reverse_scroll_is_found() {
        let drawn: Vec<u64> = (10..20).collect();
        let mut new = vec![99];
        new.extend(10..19);
        assert_eq!(
            plan(&drawn, &new),
            Plan {
                shift: -1,
                rows: vec![0]
            }
        );
    }

    #[test]
    fn undrawn_rows_are_always_drawn() {
        let drawn = vec![UNDRAWN; 4];
        assert_eq!(plan(&drawn, &[1, 2, 3, 4]).rows, vec![0, 1, 2, 3]);
    }
}

//! Scroll detection: finding the shift that lines a new screen up with the previous one.
//!
//! alacritty_terminal reports every scroll as full damage. Copying and redrawing 50 rows
//! because `cat` printed one line would make scrolling cost a full frame, so rows are
//! fingerprinted and, on full damage, the shift that best matches new fingerprints to old is
//! found. Correctness never depends on the guess: a row is skipped only if its fingerprint
//! equals the one already at that place after the shift.

/// A fingerprint no row has: that row must be copied or drawn.
pub const UNKNOWN: u64 = u64::MAX;

/// FxHash's mixing step: fast, and plenty for telling rows apart. Not adversarial: a
/// collision would leave one row stale until it changes again.
pub fn mix(hash: u64, value: u64) -> u64 {
    (hash.rotate_left(5) ^ value).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95)
}

/// How to get from the old rows to the new ones.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// Rows the content moved up by (negative: down).
    pub shift: i32,
    /// Rows whose content is new after the shift, ascending.
    pub rows: Vec<usize>,
}

/// Finds the shift that leaves the fewest rows changed, then lists those rows.
///
/// O(rows²) comparisons of u64 at worst (a few µs at 50 rows); a one-line scroll is found
/// after four candidate shifts.
pub fn plan(old: &[u64], new: &[u64]) -> Plan {
    let n = new.len().min(old.len());
    let same = |i: usize, shift: i32| -> bool {
        let from = i as i64 + shift as i64;
        from >= 0 && (from as usize) < n && new[i] == old[from as usize] && new[i] != UNKNOWN
    };
    let matches = |shift: i32| (0..n).filter(|&i| same(i, shift)).count();
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
    Plan {
        shift,
        rows: (0..new.len()).filter(|&i| !same(i, shift)).collect(),
    }
}

/// Moves per-row values along with a shift of `shift` rows up; rows that come into view
/// get `fill`.
pub fn shift_rows<T: Clone>(rows: &mut [T], shift: i32, fill: T) {
    let n = rows.len();
    let k = (shift.unsigned_abs() as usize).min(n);
    if shift > 0 {
        rows.rotate_left(k);
        rows[n - k..].fill(fill);
    } else if shift < 0 {
        rows.rotate_right(k);
        rows[..k].fill(fill);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_scroll_changes_one_row() {
        let old: Vec<u64> = (10..60).collect();
        let new: Vec<u64> = (11..61).collect();
        assert_eq!(
            plan(&old, &new),
            Plan {
                shift: 1,
                rows: vec![49]
            }
        );
    }

    #[test]
    fn unchanged_rows_are_not_listed() {
        let old: Vec<u64> = (0..5).collect();
        let mut new = old.clone();
        new[3] = 99;
        assert_eq!(
            plan(&old, &new),
            Plan {
                shift: 0,
                rows: vec![3]
            }
        );
    }

    #[test]
    fn reverse_scroll_is_found() {
        let old: Vec<u64> = (10..20).collect();
        let mut new = vec![99];
        new.extend(10..19);
        assert_eq!(
            plan(&old, &new),
            Plan {
                shift: -1,
                rows: vec![0]
            }
        );
    }

    #[test]
    fn unknown_rows_are_always_listed() {
        assert_eq!(plan(&[UNKNOWN; 4], &[1, 2, 3, 4]).rows, vec![0, 1, 2, 3]);
    }

    #[test]
    fn shifting_rows_fills_the_exposed_ones() {
        let mut rows = vec![1, 2, 3, 4];
        shift_rows(&mut rows, 1, 0);
        assert_eq!(rows, [2, 3, 4, 0]);
        shift_rows(&mut rows, -2, 9);
        assert_eq!(rows, [9, 9, 2, 3]);
    }
}

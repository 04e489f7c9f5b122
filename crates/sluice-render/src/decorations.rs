//! What a front end draws over the terminal's cells: search matches, a hovered link, and
//! text of its own (an input method's preedit, the search prompt, the metrics overlay).
//!
//! Decorations are applied to a copy of each affected row before it is fingerprinted and
//! drawn, so they go through the same damage tracking as cells: a row is redrawn when its
//! decorations change, and only then.

use std::borrow::Cow;

use sluice_term::{CellFlags, RenderCell, Rgb, RowSpan};
use unicode_width::UnicodeWidthChar;

/// How a span of cells is marked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    /// Drawn in these colours (search matches).
    Colors { fg: Rgb, bg: Rgb },
    /// Underlined (a link under the pointer).
    Underline,
}

/// Text drawn over the cells from (`row`, `col`) on, clipped at the row's end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    pub row: usize,
    pub col: usize,
    pub text: String,
    pub fg: Rgb,
    pub bg: Rgb,
    /// Underlined, as input methods show uncommitted text.
    pub underline: bool,
}

/// Everything drawn over the cells this frame.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Decorations {
    pub marks: Vec<(RowSpan, Mark)>,
    pub labels: Vec<Label>,
}

impl Decorations {
    fn touches(&self, row: usize) -> bool {
        self.marks.iter().any(|(s, _)| s.row == row) || self.labels.iter().any(|l| l.row == row)
    }

    /// Row `row`'s cells with the decorations applied (borrowed when there are none).
    pub fn apply<'a>(&self, cells: &'a [RenderCell], row: usize) -> Cow<'a, [RenderCell]> {
        if !self.touches(row) {
            return Cow::Borrowed(cells);
        }
        let mut cells = cells.to_vec();
        for (span, mark) in self.marks.iter().filter(|(s, _)| s.row == row) {
            let end = span.end.min(cells.len());
            for cell in cells
                .get_mut(span.start.min(end)..end)
                .into_iter()
                .flatten()
            {
                match *mark {
                    Mark::Colors { fg, bg } => {
                        (cell.fg, cell.bg) = (fg, bg);
                        cell.flags.remove(CellFlags::INVERSE | CellFlags::DIM);
                    }
                    Mark::Underline => cell.flags.insert(CellFlags::UNDERLINE),
                }
            }
        }
        for label in self.labels.iter().filter(|l| l.row == row) {
            write_label(&mut cells, label);
        }
        Cow::Owned(cells)
    }
}

/// Writes a label's characters into cells, wide characters taking two.
fn write_label(cells: &mut [RenderCell], label: &Label) {
    let mut col = label.col;
    let flags = if label.underline {
        CellFlags::UNDERLINE
    } else {
        CellFlags::empty()
    };
    let blank = |c: char, flags: CellFlags| RenderCell {
        c,
        zerowidth: None,
        fg: label.fg,
        bg: label.bg,
        underline: None,
        flags,
    };
    for c in label.text.chars() {
        let width = c.width().unwrap_or(0);
        if width == 0 || c.is_control() {
            continue;
        }
        if col + width > cells.len() {
            break;
        }
        if width == 2 {
            cells[col] = blank(c, flags | CellFlags::WIDE_CHAR);
            cells[col + 1] = blank(' ', flags | CellFlags::WIDE_CHAR_SPACER);
        } else {
            cells[col] = blank(c, flags);
        }
        col += width;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(text: &str) -> Vec<RenderCell> {
        text.chars()
            .map(|c| RenderCell {
                c,
                zerowidth: None,
                fg: Rgb {
                    r: 200,
                    g: 200,
                    b: 200,
                },
                bg: Rgb { r: 0, g: 0, b: 0 },
                underline: None,
                flags: CellFlags::empty(),
            })
            .collect()
    }

    #[test]
    fn marks_and_labels_change_only_their_cells() {
        let yellow = Rgb {
            r: 255,
            g: 255,
            b: 0,
        };
        let d = Decorations {
            marks: vec![
                (
                    RowSpan {
                        row: 0,
                        start: 1,
                        end: 3,
                    },
                    Mark::Colors {
                        fg: Rgb { r: 0, g: 0, b: 0 },
                        bg: yellow,
                    },
                ),
                (
                    RowSpan {
                        row: 0,
                        start: 4,
                        end: 99,
                    },
                    Mark::Underline,
                ),
            ],
            labels: vec![Label {
                row: 1,
                col: 2,
                text: "日本x".into(),
                fg: yellow,
                bg: Rgb { r: 0, g: 0, b: 0 },
                underline: true,
            }],
        };
        let cells = row("abcdef");
        let out = d.apply(&cells, 0);
        let bgs: Vec<bool> = out.iter().map(|c| c.bg == yellow).collect();
        assert_eq!(bgs, [false, true, true, false, false, false]);
        let underlined: Vec<bool> = out
            .iter()
            .map(|c| c.flags.contains(CellFlags::UNDERLINE))
            .collect();
        assert_eq!(underlined, [false, false, false, false, true, true]);

        // Wide characters take two cells; what does not fit is dropped.
        let out = d.apply(&cells, 1);
        let text: String = out.iter().map(|c| c.c).collect();
        assert_eq!(text, "ab日 本 ");
        assert!(out[2].flags.contains(CellFlags::WIDE_CHAR));
        assert!(out[3].flags.contains(CellFlags::WIDE_CHAR_SPACER));

        assert!(matches!(d.apply(&cells, 2), Cow::Borrowed(_)));
    }
}

//! OSC 8 hyperlinks: the link under a cell, and the cells it covers.

use alacritty_terminal::grid::Dimensions;
use alacritty_terminal::index::{Column, Point};
use alacritty_terminal::term::viewport_to_point;

use crate::search::RowSpan;
use crate::select::ViewportPoint;
use crate::terminal::Terminal;

/// A link a program printed with OSC 8.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hyperlink {
    pub uri: String,
    /// The cells of the visible rows that carry the same link.
    pub spans: Vec<RowSpan>,
}

impl Terminal {
    /// The OSC 8 hyperlink under a viewport cell, with every visible cell that shares it.
    pub fn hyperlink_at(&self, at: ViewportPoint) -> Option<Hyperlink> {
        self.with_term(|term| {
            let grid = term.grid();
            let (rows, cols) = (grid.screen_lines(), grid.columns());
            if at.row >= rows || at.col >= cols {
                return None;
            }
            let offset = grid.display_offset();
            let point = viewport_to_point(offset, Point::new(at.row, Column(at.col)));
            // A shell integration mark rides on a link with no target (crate::marks).
            let link = grid[point]
                .hyperlink()
                .filter(|link| !crate::marks::is_mark_link(link))?;
            let mut spans = Vec::new();
            for row in 0..rows {
                let line = viewport_to_point(offset, Point::new(row, Column(0))).line;
                let mut col = 0;
                while col < cols {
                    if grid[line][Column(col)].hyperlink().as_ref() != Some(&link) {
                        col += 1;
                        continue;
                    }
                    let start = col;
                    while col < cols && grid[line][Column(col)].hyperlink().as_ref() == Some(&link)
                    {
                        col += 1;
                    }
                    spans.push(RowSpan {
                        row,
                        start,
                        end: col,
                    });
                }
            }
            Some(Hyperlink {
                uri: link.uri().to_owned(),
                spans,
            })
        })
    }
}

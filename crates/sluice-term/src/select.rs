//! Selecting text with the mouse: the four kinds users know from xterm and Alacritty, kept
//! by alacritty_terminal so a selection follows its text as the screen scrolls.

use alacritty_terminal::grid::Dimensions;
use alacritty_terminal::index::{Column, Point, Side};
use alacritty_terminal::selection::{Selection, SelectionType};
use alacritty_terminal::term::viewport_to_point;

use crate::terminal::Terminal;

/// A cell on the screen as shown: row 0 is the top of the view, wherever it is in history.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ViewportPoint {
    pub row: usize,
    pub col: usize,
}

/// What a selection grows by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SelectionKind {
    /// Cell by cell (a click and drag).
    Simple,
    /// A rectangle (Ctrl+drag).
    Block,
    /// Whole words, ended by the configured separators (double-click).
    Word,
    /// Whole lines (triple-click).
    Line,
}

impl From<SelectionKind> for SelectionType {
    fn from(kind: SelectionKind) -> Self {
        match kind {
            SelectionKind::Simple => SelectionType::Simple,
            SelectionKind::Block => SelectionType::Block,
            SelectionKind::Word => SelectionType::Semantic,
            SelectionKind::Line => SelectionType::Lines,
        }
    }
}

impl Terminal {
    /// The grid point under a viewport cell, given where the view is in history.
    fn grid_point<T>(term: &alacritty_terminal::Term<T>, at: ViewportPoint) -> Point {
        let grid = term.grid();
        let row = at.row.min(grid.screen_lines().saturating_sub(1));
        let col = at.col.min(grid.columns().saturating_sub(1));
        viewport_to_point(grid.display_offset(), Point::new(row, Column(col)))
    }

    /// Starts a selection at `at`; `side` is the half of the cell the pointer is on.
    pub fn start_selection(&self, kind: SelectionKind, at: ViewportPoint, side: Side) {
        self.with_term(|term| {
            let point = Self::grid_point(term, at);
            term.selection = Some(Selection::new(kind.into(), point, side));
        });
    }

    /// Moves the selection's moving end to `at` (a drag, or Shift+click). Starts a simple
    /// selection if there is none.
    pub fn extend_selection(&self, at: ViewportPoint, side: Side) {
        self.with_term(|term| {
            let point = Self::grid_point(term, at);
            match &mut term.selection {
                Some(selection) => selection.update(point, side),
                None => term.selection = Some(Selection::new(SelectionType::Simple, point, side)),
            }
        });
    }

    pub fn clear_selection(&self) {
        self.with_term(|term| term.selection = None);
    }

    /// Whether a non-empty selection exists.
    pub fn has_selection(&self) -> bool {
        self.with_term(|term| term.selection.as_ref().is_some_and(|s| !s.is_empty()))
    }

    /// The selected text, with wrapped lines joined and trailing blanks trimmed.
    pub fn selection_text(&self) -> Option<String> {
        self.with_term(|term| term.selection_to_string())
            .filter(|text| !text.is_empty())
    }
}

//! Regex search through the screen and its history.

use alacritty_terminal::grid::{Dimensions, Scroll};
use alacritty_terminal::index::{Boundary, Column, Direction, Line, Point, Side};
use alacritty_terminal::term::search::{Match, RegexIter, RegexSearch};
use alacritty_terminal::term::{Term, point_to_viewport};

use crate::terminal::Terminal;

/// A pattern that does not compile.
#[derive(Debug, thiserror::Error)]
#[error("invalid search pattern: {0}")]
pub struct SearchError(String);

/// Part of one screen row, `start..end` in columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RowSpan {
    pub row: usize,
    pub start: usize,
    pub end: usize,
}

/// A search in progress: the pattern and the match the user is on.
pub struct Search {
    regex: RegexSearch,
    focused: Option<Match>,
}

impl std::fmt::Debug for Search {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Search")
            .field("focused", &self.focused)
            .finish()
    }
}

impl Search {
    /// Compiles `pattern`. A pattern with no upper-case letter matches either case, as in
    /// Alacritty and most editors ("smart case").
    pub fn new(pattern: &str) -> Result<Self, SearchError> {
        let regex = RegexSearch::new(pattern).map_err(|e| SearchError(e.to_string()))?;
        Ok(Self {
            regex,
            focused: None,
        })
    }

    /// Moves to the next match in `direction` (Left: older, up the screen), wrapping around,
    /// and scrolls the view to show it. Returns false when there is no match anywhere.
    pub fn advance(&mut self, terminal: &Terminal, direction: Direction) -> bool {
        self.advance_from(terminal, None, direction)
    }

    /// The match after `from` (`Right`), or before it (`Left`), as [`advance`] goes on
    /// from the focused match: how vi mode's `/` and `?` search from its cursor.
    ///
    /// [`advance`]: Self::advance
    pub fn advance_from(
        &mut self,
        terminal: &Terminal,
        from: Option<Point>,
        direction: Direction,
    ) -> bool {
        terminal.with_term(|term| {
            let origin = match (from, &self.focused, direction) {
                (Some(from), _, Direction::Right) => from.add(term, Boundary::None, 1),
                (Some(from), _, Direction::Left) => from.sub(term, Boundary::None, 1),
                (None, focused, direction) => origin(term, focused, direction),
            };
            let side = match direction {
                Direction::Right => Side::Left,
                Direction::Left => Side::Right,
            };
            self.focused = term.search_next(&mut self.regex, origin, direction, side, None);
            if let Some(m) = &self.focused {
                term.scroll_to_point(*m.start());
                // Scroll a little further, so the match is not on the very edge of the view.
                let offset = term.grid().display_offset();
                if point_to_viewport(offset, *m.start()).is_some_and(|p| p.line == 0)
                    && offset < term.grid().history_size()
                {
                    term.scroll_display(Scroll::Delta(1));
                }
            }
            self.focused.is_some()
        })
    }

    /// Where the focused match begins.
    pub fn focused_start(&self) -> Option<Point> {
        self.focused.as_ref().map(|m| *m.start())
    }

    /// The matches in view, as row spans, and the spans of the focused match.
    pub fn visible(&mut self, terminal: &Terminal) -> (Vec<RowSpan>, Vec<RowSpan>) {
        terminal.with_term(|term| {
            let offset = term.grid().display_offset();
            let rows = term.screen_lines();
            let cols = term.columns();
            let top = Point::new(Line(-(offset as i32)), Column(0));
            let bottom = Point::new(Line(rows as i32 - 1 - offset as i32), Column(cols - 1));
            // Begin a line early, so a match that wraps onto the top row is found.
            let start = top.sub(term, Boundary::Grid, cols);
            let mut all = Vec::new();
            for m in RegexIter::new(start, bottom, Direction::Right, term, &mut self.regex) {
                spans(&m, offset, rows, cols, &mut all);
            }
            let mut focused = Vec::new();
            if let Some(m) = &self.focused {
                spans(m, offset, rows, cols, &mut focused);
            }
            (all, focused)
        })
    }
}

/// Where a search goes on from: past the focused match, else the edge of the view.
fn origin<T>(term: &Term<T>, focused: &Option<Match>, direction: Direction) -> Point {
    match (focused, direction) {
        (Some(m), Direction::Right) => m.end().add(term, Boundary::None, 1),
        (Some(m), Direction::Left) => m.start().sub(term, Boundary::None, 1),
        // Nothing focused yet: start from the bottom of the view going up, or from
        // its top going down, so the first match is the nearest one in sight.
        (None, Direction::Left) => {
            let offset = term.grid().display_offset() as i32;
            Point::new(
                Line(term.screen_lines() as i32 - 1 - offset),
                term.last_column(),
            )
        }
        (None, Direction::Right) => {
            let offset = term.grid().display_offset() as i32;
            Point::new(Line(-offset), Column(0))
        }
    }
}

/// Splits a match into the row spans it covers on screen.
fn spans(m: &Match, offset: usize, rows: usize, cols: usize, out: &mut Vec<RowSpan>) {
    let (start, end) = (*m.start(), *m.end());
    for line in start.line.0..=end.line.0 {
        let Some(p) = point_to_viewport(offset, Point::new(Line(line), Column(0))) else {
            continue;
        };
        if p.line >= rows {
            continue;
        }
        let from = if line == start.line.0 {
            start.column.0
        } else {
            0
        };
        let to = if line == end.line.0 {
            end.column.0 + 1
        } else {
            cols
        };
        out.push(RowSpan {
            row: p.line,
            start: from,
            end: to.min(cols),
        });
    }
}

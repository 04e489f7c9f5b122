//! The search bar: a regex typed on the bottom row, matches highlighted, Enter for the next
//! (older) match and Shift+Enter for the previous one, Escape to close.

use sluice_render::{Label, Mark};
use sluice_term::{Direction, Rgb, RowSpan, Search, Terminal};

/// Match colours: amber for every match, orange for the one the user is on (as in most
/// editors), with black text so both read on any theme.
const MATCH: Mark = Mark::Colors {
    fg: Rgb { r: 0, g: 0, b: 0 },
    bg: Rgb {
        r: 0xe6,
        g: 0xc5,
        b: 0x47,
    },
};
const FOCUSED: Mark = Mark::Colors {
    fg: Rgb { r: 0, g: 0, b: 0 },
    bg: Rgb {
        r: 0xf0,
        g: 0x8d,
        b: 0x49,
    },
};

#[derive(Debug, Default)]
pub struct SearchBar {
    query: String,
    search: Option<Search>,
    status: Status,
}

#[derive(Debug, Default, PartialEq)]
enum Status {
    #[default]
    Typing,
    Found,
    NotFound,
    /// The pattern does not compile (yet: half-typed patterns are normal).
    Invalid,
}

impl SearchBar {
    /// Adds typed text and searches again from the bottom of the view.
    pub fn push(&mut self, text: &str, terminal: &Terminal) {
        self.query.push_str(text);
        self.recompile(terminal);
    }

    /// Removes the last character and searches again.
    pub fn backspace(&mut self, terminal: &Terminal) {
        self.query.pop();
        self.recompile(terminal);
    }

    fn recompile(&mut self, terminal: &Terminal) {
        self.search = None;
        self.status = Status::Typing;
        if self.query.is_empty() {
            return;
        }
        match Search::new(&self.query) {
            Ok(search) => {
                self.search = Some(search);
                self.advance(terminal, Direction::Left);
            }
            // Half-typed patterns ("foo(") are normal while typing: say so, do not complain.
            Err(_) => self.status = Status::Invalid,
        }
    }

    /// Moves to the next match: `Left` is older (up), `Right` newer (down).
    pub fn advance(&mut self, terminal: &Terminal, direction: Direction) {
        if let Some(search) = &mut self.search {
            self.status = if search.advance(terminal, direction) {
                Status::Found
            } else {
                Status::NotFound
            };
        }
    }

    /// Highlights for the matches in view.
    pub fn marks(&mut self, terminal: &Terminal) -> Vec<(RowSpan, Mark)> {
        let Some(search) = &mut self.search else {
            return Vec::new();
        };
        let (all, focused) = search.visible(terminal);
        let mut marks: Vec<_> = all.into_iter().map(|s| (s, MATCH)).collect();
        marks.extend(focused.into_iter().map(|s| (s, FOCUSED)));
        marks
    }

    /// The prompt, across the bottom row.
    pub fn label(&self, rows: usize, cols: usize, fg: Rgb, bg: Rgb) -> Label {
        let note = match &self.status {
            Status::Typing | Status::Found => String::new(),
            Status::NotFound => "  (no match)".to_owned(),
            Status::Invalid => "  (incomplete pattern)".to_owned(),
        };
        let text = format!("Search: {}{note}", self.query);
        super::bar::bar(rows.saturating_sub(1), text, cols, fg, bg)
    }
}

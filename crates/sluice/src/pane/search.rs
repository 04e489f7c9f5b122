//! The search bar: a regex typed on the bottom row, matches highlighted, Enter for the next
//! (older) match and Shift+Enter for the previous one, Escape to close.

use sluice_render::{Label, Mark};
use sluice_term::{Direction, Rgb, RowSpan, Search, Terminal};

/// How matches are drawn (`colors.search_*`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MatchColors {
    pub all: Mark,
    pub focused: Mark,
}

impl MatchColors {
    pub fn of(config: &crate::config::Config) -> Self {
        let colors = &config.colors;
        Self {
            all: Mark::Colors {
                fg: colors.search_match_text.0,
                bg: colors.search_match.0,
            },
            focused: Mark::Colors {
                fg: colors.search_focused_text.0,
                bg: colors.search_focused.0,
            },
        }
    }
}

#[derive(Debug)]
pub struct SearchBar {
    /// Opened from vi mode by `/` (true: down) or `?`: Enter puts its cursor on the match.
    pub vi_forward: Option<bool>,
    colors: MatchColors,
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

    /// What has been typed.
    pub fn query(&self) -> &str {
        &self.query
    }

    /// Highlights for the matches in view.
    /// An empty search, its matches to be drawn in `colors`.
    pub fn new(colors: MatchColors) -> Self {
        Self {
            vi_forward: None,
            colors,
            query: String::new(),
            search: None,
            status: Status::default(),
        }
    }

    pub fn marks(&mut self, terminal: &Terminal) -> Vec<(RowSpan, Mark)> {
        let colors = self.colors;
        let Some(search) = &mut self.search else {
            return Vec::new();
        };
        let (all, focused) = search.visible(terminal);
        let mut marks: Vec<_> = all.into_iter().map(|s| (s, colors.all)).collect();
        marks.extend(focused.into_iter().map(|s| (s, colors.focused)));
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

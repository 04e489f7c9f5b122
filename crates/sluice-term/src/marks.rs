//! Shell integration marks (OSC 133, as FinalTerm defined them and kitty, Ghostty, WezTerm and
//! foot use them): where each prompt (`A`), command line (`B`), command output (`C`) begins,
//! and where a command finished (`D`, with its exit status).
//!
//! # Where a mark is kept, and why
//!
//! Marks must stay on their line through scrolling, resize reflow and history trimming. Those
//! terminals keep a flag on the row; alacritty_terminal's rows have no room for one, and every
//! bit of a cell's flags is taken. What moves with a cell through all three is the cell's
//! extra data, so a mark rides on the *first cell printed after it*, as an OSC 8 hyperlink
//! whose id no program can write (`ID_PREFIX` starts with a C0 control, which an OSC string
//! cannot hold). The link has no target: [`Terminal::hyperlink_at`](crate::Terminal) does not
//! see it, and nothing else reads links. A mark is lost when its cell is overwritten, which
//! is what happens to the prompt it marks; a shell that redraws its prompt sends the mark
//! again. A cell that already carries a program's link keeps the link, and the mark is
//! dropped (a prompt that starts inside a hyperlink is the rare case that loses).
//!
//! Finding the marks is a scan of the grid for cells with extra data: most cells have none, so
//! 10,000 lines of 100 columns take about a millisecond, done only when something asks (a jump
//! key, a copy, `--dump json`).

use alacritty_terminal::grid::Dimensions;
use alacritty_terminal::index::{Column, Line, Point};
use alacritty_terminal::term::Term;
use alacritty_terminal::term::cell::Hyperlink;
use serde::Serialize;

/// What a mark marks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum MarkKind {
    /// `OSC 133 ; A`: a prompt begins.
    #[serde(rename = "A")]
    Prompt,
    /// `OSC 133 ; B`: the prompt ends and the command line begins.
    #[serde(rename = "B")]
    Command,
    /// `OSC 133 ; C`: the command runs; its output begins.
    #[serde(rename = "C")]
    Output,
    /// `OSC 133 ; D [; status]`: the command finished.
    #[serde(rename = "D")]
    Finished,
}

impl MarkKind {
    fn letter(self) -> char {
        match self {
            MarkKind::Prompt => 'A',
            MarkKind::Command => 'B',
            MarkKind::Output => 'C',
            MarkKind::Finished => 'D',
        }
    }

    fn from_letter(letter: u8) -> Option<MarkKind> {
        Some(match letter {
            b'A' => MarkKind::Prompt,
            b'B' => MarkKind::Command,
            b'C' => MarkKind::Output,
            b'D' => MarkKind::Finished,
            _ => return None,
        })
    }
}

/// One mark as a program sent it, before it has a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PendingMark {
    pub kind: MarkKind,
    /// The exit status a `D` mark reported, if it did.
    pub status: Option<i32>,
}

/// A mark where it is now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Mark {
    /// The line, counted from the top of the scrollback (0 is the oldest line kept).
    pub line: usize,
    /// The column of the cell the mark rides on.
    #[serde(skip)]
    pub column: usize,
    pub kind: MarkKind,
    /// For `D`: the exit status, if the shell reported one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<i32>,
}

impl Mark {
    /// Where the mark is in `term`'s grid.
    pub fn point<T>(&self, term: &Term<T>) -> Point {
        let top = term.grid().topmost_line().0;
        Point::new(Line(top + self.line as i32), Column(self.column))
    }
}

/// Starts every mark's link id: a C0 control, so that no OSC 8 a program sends can forge one.
const ID_PREFIX: &str = "\u{1}sluice-mark:";

/// The OSC 133 mark an OSC string (`]133;…`, as the prescan holds it) sends, if it is one.
pub fn parse_osc133(osc: &[u8]) -> Option<PendingMark> {
    let body = crate::feed::prescan::osc_body(osc)?.strip_prefix(b"133;")?;
    let mut fields = body.split(|&b| b == b';');
    let kind = match fields.next()? {
        [letter] => MarkKind::from_letter(*letter)?,
        _ => return None,
    };
    // `D;STATUS`; kitty and others also add `key=value` options, which are ignored.
    let status = (kind == MarkKind::Finished)
        .then(|| fields.next())
        .flatten()
        .and_then(|s| std::str::from_utf8(s).ok()?.parse().ok());
    Some(PendingMark { kind, status })
}

/// The link that carries `marks` on a cell.
pub(crate) fn link_of(marks: &[PendingMark]) -> Hyperlink {
    let mut id = String::from(ID_PREFIX);
    for (i, mark) in marks.iter().enumerate() {
        if i > 0 {
            id.push(',');
        }
        id.push(mark.kind.letter());
        if let Some(status) = mark.status {
            id.push_str(&status.to_string());
        }
    }
    Hyperlink::new(Some(id), String::new())
}

/// Whether a cell's link is the carrier of marks rather than a program's OSC 8 link.
pub fn is_mark_link(link: &Hyperlink) -> bool {
    link.id().starts_with(ID_PREFIX)
}

/// The marks a carrier link holds, in the order they were sent.
fn marks_of(link: &Hyperlink) -> impl Iterator<Item = PendingMark> + '_ {
    link.id()
        .strip_prefix(ID_PREFIX)
        .unwrap_or_default()
        .split(',')
        .filter_map(|field| {
            let kind = MarkKind::from_letter(*field.as_bytes().first()?)?;
            let status = field[1..].parse().ok();
            Some(PendingMark { kind, status })
        })
}

/// Every mark in `term`, the screen and the scrollback, from the top.
pub fn marks<T>(term: &Term<T>) -> Vec<Mark> {
    let grid = term.grid();
    let top = grid.topmost_line().0;
    let mut found = Vec::new();
    for line in top..=grid.bottommost_line().0 {
        for (column, cell) in grid[Line(line)][..].iter().enumerate() {
            if cell.extra.is_none() {
                continue;
            }
            let Some(link) = cell.hyperlink().filter(is_mark_link) else {
                continue;
            };
            found.extend(marks_of(&link).map(|mark| Mark {
                line: (line - top) as usize,
                column,
                kind: mark.kind,
                status: mark.status,
            }));
        }
    }
    found
}

/// The line (counted from the top of the scrollback) of the prompt nearest `from` in
/// `direction`, not counting `from` itself.
pub fn prompt_line(marks: &[Mark], from: usize, direction: crate::Direction) -> Option<usize> {
    let prompts = marks.iter().filter(|m| m.kind == MarkKind::Prompt);
    match direction {
        crate::Direction::Left => prompts.map(|m| m.line).rfind(|&line| line < from),
        crate::Direction::Right => prompts.map(|m| m.line).find(|&line| line > from),
    }
}

/// Where the output of the last command that finished begins and ends (end exclusive), in
/// marks: its `C` and the `D` (or, from a shell that sends no `D`, the `A`) after it.
pub fn last_output(marks: &[Mark]) -> Option<(Mark, Mark)> {
    marks.iter().enumerate().rev().find_map(|(i, start)| {
        if start.kind != MarkKind::Output {
            return None;
        }
        let end = marks[i + 1..]
            .iter()
            .find(|m| matches!(m.kind, MarkKind::Finished | MarkKind::Prompt))?;
        Some((*start, *end))
    })
}

impl crate::Terminal {
    /// Every shell integration mark, from the top of the scrollback.
    pub fn marks(&self) -> Vec<Mark> {
        self.with_term(|term| marks(term))
    }

    /// The marks on the rows in view, each with its row in the view (for drawing them):
    /// a scan of the screen's cells only, so it can be done every frame.
    pub fn marks_in_view(&self) -> Vec<(usize, Mark)> {
        self.with_term(|term| {
            let grid = term.grid();
            let offset = grid.display_offset() as i32;
            let top = grid.topmost_line().0;
            let mut found = Vec::new();
            for row in 0..grid.screen_lines() {
                let line = row as i32 - offset;
                for (column, cell) in grid[Line(line)][..].iter().enumerate() {
                    let Some(link) = cell.extra.as_ref().and(cell.hyperlink()) else {
                        continue;
                    };
                    if !is_mark_link(&link) {
                        continue;
                    }
                    found.extend(marks_of(&link).map(|mark| {
                        let mark = Mark {
                            line: (line - top) as usize,
                            column,
                            kind: mark.kind,
                            status: mark.status,
                        };
                        (row, mark)
                    }));
                }
            }
            found
        })
    }

    /// Scrolls the view so that the previous (`Left`) or next (`Right`) prompt is at its top;
    /// past the last prompt, back to the bottom. False if there was nowhere to go.
    pub fn scroll_to_prompt(&self, direction: crate::Direction) -> bool {
        self.with_term(|term| {
            let found = marks(term);
            let grid = term.grid();
            let history = grid.history_size();
            let top = history - grid.display_offset();
            let offset = match prompt_line(&found, top, direction) {
                // A prompt on the screen's own lines cannot go to the top: as far as it goes.
                Some(line) => history.saturating_sub(line),
                None if direction == crate::Direction::Right => 0,
                None => return false,
            };
            let delta = offset as i32 - grid.display_offset() as i32;
            term.scroll_display(alacritty_terminal::grid::Scroll::Delta(delta));
            delta != 0
        })
    }

    /// The text the last command that finished printed (see [`last_output`]), without its
    /// final line break.
    pub fn last_output_text(&self) -> Option<String> {
        self.with_term(|term| {
            let (start, end) = last_output(&marks(term))?;
            let (start, end) = (start.point(term), end.point(term));
            if end <= start {
                return Some(String::new());
            }
            let last = end.sub(term, alacritty_terminal::index::Boundary::Grid, 1);
            let text = term.bounds_to_string(start, last);
            Some(text.trim_end_matches('\n').to_owned())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn osc133_strings_give_their_mark() {
        let parse = |s: &str| parse_osc133(s.as_bytes());
        let mark = |kind, status| Some(PendingMark { kind, status });
        assert_eq!(parse("]133;A\x07"), mark(MarkKind::Prompt, None));
        assert_eq!(parse("]133;B\x1b\\"), mark(MarkKind::Command, None));
        assert_eq!(parse("]133;C\x07"), mark(MarkKind::Output, None));
        assert_eq!(parse("]133;D;0\x07"), mark(MarkKind::Finished, Some(0)));
        assert_eq!(parse("]133;D;130\x07"), mark(MarkKind::Finished, Some(130)));
        assert_eq!(parse("]133;D\x07"), mark(MarkKind::Finished, None));
        assert_eq!(parse("]133;A;aid=42\x07"), mark(MarkKind::Prompt, None));
        assert_eq!(parse("]133;D;x\x07"), mark(MarkKind::Finished, None));
        assert_eq!(parse("]133;E\x07"), None);
        assert_eq!(parse("]133;AB\x07"), None);
        assert_eq!(parse("]7;file:///\x07"), None);
    }

    #[test]
    fn a_link_carries_its_marks_and_is_told_from_a_programs_link() {
        let sent = [
            PendingMark {
                kind: MarkKind::Finished,
                status: Some(-1),
            },
            PendingMark {
                kind: MarkKind::Prompt,
                status: None,
            },
        ];
        let link = link_of(&sent);
        assert!(is_mark_link(&link));
        assert_eq!(marks_of(&link).collect::<Vec<_>>(), sent);
        let program = Hyperlink::new(Some("sluice-mark:A"), "https://x".into());
        assert!(!is_mark_link(&program));
    }

    #[test]
    fn prompts_and_the_last_output_are_found_among_marks() {
        let at = |line, kind| Mark {
            line,
            column: 0,
            kind,
            status: None,
        };
        use MarkKind::*;
        let marks = [
            at(0, Prompt),
            at(0, Command),
            at(1, Output),
            at(4, Finished),
            at(4, Prompt),
            at(4, Command),
            at(5, Output),
        ];
        use crate::Direction::{Left, Right};
        assert_eq!(prompt_line(&marks, 4, Left), Some(0));
        assert_eq!(prompt_line(&marks, 3, Right), Some(4));
        assert_eq!(prompt_line(&marks, 4, Right), None);
        assert_eq!(prompt_line(&marks, 0, Left), None);
        // The output at line 5 has not finished: the last finished one is lines 1 to 4.
        assert_eq!(last_output(&marks), Some((marks[2], marks[3])));
    }
}

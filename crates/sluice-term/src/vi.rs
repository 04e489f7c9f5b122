//! Vi mode: a keyboard cursor over the screen and the scrollback, with vim's motions, for
//! selecting and copying without a mouse (as Alacritty's vi mode; its building blocks are
//! alacritty_terminal's: `TermMode::VI`, the vi cursor and [`ViMotion`]).
//!
//! The keys are the application's (`crates/sluice/src/pane/vi.rs` turns them into
//! [`ViCommand`]s); this is what each command does to the terminal. Every move goes through
//! `Term::vi_goto_point`, which scrolls the view to keep the cursor in it and stretches a
//! selection to follow it. The vi cursor is the cursor a snapshot draws while vi mode is on,
//! so it is drawn and damage-tracked like the terminal's own; an idle vi mode costs nothing.

use alacritty_terminal::grid::{Dimensions, Scroll};
use alacritty_terminal::index::{Column, Direction, Line, Point, Side};
use alacritty_terminal::selection::{Selection, SelectionType};
use alacritty_terminal::term::{Term, TermMode};
pub use alacritty_terminal::vi_mode::ViMotion;

use crate::Terminal;

/// The character searches of a line: `f`, `F`, `t`, `T`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FindKind {
    /// `f`: onto the next `c` to the right.
    To,
    /// `F`: onto the previous `c` to the left.
    BackTo,
    /// `t`: just before the next `c`.
    Till,
    /// `T`: just after the previous `c`.
    BackTill,
}

impl FindKind {
    /// The search `;` repeats as `,` (the other way).
    pub fn reversed(self) -> FindKind {
        match self {
            FindKind::To => FindKind::BackTo,
            FindKind::BackTo => FindKind::To,
            FindKind::Till => FindKind::BackTill,
            FindKind::BackTill => FindKind::Till,
        }
    }
}

/// What a vi key asks of the terminal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ViCommand {
    /// One of alacritty_terminal's motions, `count` times.
    Motion(ViMotion, usize),
    /// `gg`: the top of the scrollback (or line `count` from it).
    Top(Option<usize>),
    /// `G`: the bottom (or line `count` from the top).
    Bottom(Option<usize>),
    /// Ctrl+u / Ctrl+d (half a screen), Ctrl+b / Ctrl+f (a screen): lines up (positive).
    Scroll(i32),
    /// `f`, `F`, `t`, `T` and a character, `count` times.
    Find(FindKind, char, usize),
    /// `v`, `V`, Ctrl+v: start (or end) a selection of this kind at the cursor.
    Select(SelectionType),
}

impl Terminal {
    /// Whether vi mode is on.
    pub fn vi_active(&self) -> bool {
        self.with_term(|term| term.mode().contains(TermMode::VI))
    }

    /// Turns vi mode on (the cursor starts where the terminal's is, or at the top of the view
    /// when that is out of it) or off (the selection goes, the view goes back to the bottom).
    pub fn set_vi(&self, on: bool) {
        self.with_term(|term| {
            if term.mode().contains(TermMode::VI) == on {
                return;
            }
            term.toggle_vi_mode();
            if !on {
                term.selection = None;
                term.scroll_display(Scroll::Bottom);
            }
        })
    }

    /// Runs `command`; false if vi mode is off.
    pub fn vi(&self, command: ViCommand) -> bool {
        self.with_term(|term| {
            if !term.mode().contains(TermMode::VI) {
                return false;
            }
            let cursor = term.vi_mode_cursor;
            let point = match command {
                ViCommand::Motion(motion, count) => {
                    let mut moved = cursor;
                    for _ in 0..count.max(1) {
                        moved = moved.motion(term, motion);
                    }
                    moved.point
                }
                ViCommand::Top(line) => line_from_top(term, line.unwrap_or(1)),
                ViCommand::Bottom(None) => {
                    let line = term.bottommost_line();
                    first_occupied(term, line)
                }
                ViCommand::Bottom(Some(line)) => line_from_top(term, line),
                ViCommand::Scroll(lines) => {
                    // The view moves with the cursor, as in vim and Alacritty.
                    term.scroll_display(Scroll::Delta(lines));
                    cursor.scroll(term, lines).point
                }
                ViCommand::Find(kind, c, count) => {
                    let mut point = cursor.point;
                    for _ in 0..count.max(1) {
                        match find(term, point, kind, c) {
                            Some(found) => point = found,
                            None => break,
                        }
                    }
                    point
                }
                ViCommand::Select(kind) => {
                    toggle_selection(term, kind);
                    cursor.point
                }
            };
            term.vi_goto_point(point);
            true
        })
    }

    /// Moves the vi cursor to `point` (a search match), scrolling it into view.
    pub fn vi_goto(&self, point: Point) {
        self.with_term(|term| {
            if term.mode().contains(TermMode::VI) {
                term.vi_goto_point(point);
            }
        })
    }

    /// Where the vi cursor is in the grid, if vi mode is on.
    pub fn vi_cursor(&self) -> Option<Point> {
        self.with_term(|term| {
            term.mode()
                .contains(TermMode::VI)
                .then_some(term.vi_mode_cursor.point)
        })
    }

    /// Where the vi cursor is, in the view (row, column), if vi mode is on and it is in view.
    pub fn vi_cursor_in_view(&self) -> Option<(usize, usize)> {
        self.with_term(|term| {
            if !term.mode().contains(TermMode::VI) {
                return None;
            }
            let point = term.vi_mode_cursor.point;
            let row = point.line.0 + term.grid().display_offset() as i32;
            (row >= 0 && (row as usize) < term.screen_lines())
                .then_some((row as usize, point.column.0))
        })
    }
}

/// Line `n` (1-based) counted from the top of the scrollback, at its first occupied cell.
fn line_from_top<T>(term: &Term<T>, n: usize) -> Point {
    let top = term.topmost_line().0;
    let line = (top + n.saturating_sub(1) as i32).min(term.bottommost_line().0);
    first_occupied(term, Line(line))
}

fn first_occupied<T>(term: &Term<T>, line: Line) -> Point {
    let row = &term.grid()[line];
    let column = (0..term.columns())
        .find(|&c| row[Column(c)].c != ' ')
        .unwrap_or(0);
    Point::new(line, Column(column))
}

/// The point `kind` lands on for `c` on the cursor's line, if `c` is there.
fn find<T>(term: &Term<T>, from: Point, kind: FindKind, c: char) -> Option<Point> {
    let row = &term.grid()[from.line];
    let last = term.columns() - 1;
    let at = |col: usize| row[Column(col)].c == c;
    let col = from.column.0;
    let found = match kind {
        // `t` from just before a `c` would find the same one again: look one further.
        FindKind::To => (col + 1..=last).find(|&i| at(i)),
        FindKind::Till => (col + 2..=last).find(|&i| at(i)).map(|i| i - 1),
        FindKind::BackTo => (0..col).rev().find(|&i| at(i)),
        FindKind::BackTill => (0..col.saturating_sub(1))
            .rev()
            .find(|&i| at(i))
            .map(|i| i + 1),
    }?;
    Some(Point::new(from.line, Column(found)))
}

/// `v`, `V` or Ctrl+v: a selection of `kind` starts at the vi cursor; the same key again
/// ends it, another kind changes it.
fn toggle_selection<T>(term: &mut Term<T>, kind: SelectionType) {
    let point = term.vi_mode_cursor.point;
    match &mut term.selection {
        Some(selection) if selection.ty == kind && !selection.is_empty() => {
            term.selection = None;
        }
        Some(selection) if !selection.is_empty() => selection.ty = kind,
        _ => {
            let mut selection = Selection::new(kind, point, Side::Left);
            // A character selection holds the cell under the cursor from the start, as in vim.
            selection.update(point, Side::Right);
            selection.include_all();
            term.selection = Some(selection);
        }
    }
}

/// The directions a search runs from vi mode (`/` down, `?` up), as `Search` takes them.
pub fn search_direction(forward: bool) -> crate::Direction {
    if forward {
        Direction::Right
    } else {
        Direction::Left
    }
}

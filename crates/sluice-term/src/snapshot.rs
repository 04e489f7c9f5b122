//! The renderer's copy of what is on screen.
//!
//! A [`Snapshot`] lives as long as the renderer and is updated in place: at each frame,
//! [`Terminal::update_snapshot`](crate::Terminal::update_snapshot) copies the rows that changed
//! since the last frame into it, with colours already resolved to RGB, then lets go of the
//! terminal lock. Everything after that (shaping, drawing, presenting) works on this copy.

use alacritty_terminal::grid::Dimensions;
use alacritty_terminal::index::{Column, Line};
use alacritty_terminal::term::cell::Cell;
use alacritty_terminal::term::{Term, TermDamage, TermMode};
use alacritty_terminal::vte::ansi::CursorShape;

use crate::CellFlags;
use crate::palette::{Palette, Rgb};

/// One cell, ready to draw.
#[derive(Debug, Clone, PartialEq)]
pub struct RenderCell {
    pub c: char,
    /// Combining marks and other zero-width characters drawn over `c`.
    pub zerowidth: Option<Box<[char]>>,
    /// Foreground, after dim; inverse is left to the renderer (see `flags`).
    pub fg: Rgb,
    pub bg: Rgb,
    /// The underline's own colour (SGR 58), if set.
    pub underline: Option<Rgb>,
    pub flags: CellFlags,
}

impl Default for RenderCell {
    fn default() -> Self {
        Self {
            c: ' ',
            zerowidth: None,
            fg: Rgb::default(),
            bg: Rgb::default(),
            underline: None,
            flags: CellFlags::empty(),
        }
    }
}

/// The cursor as it should be drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cursor {
    pub row: usize,
    pub col: usize,
    /// `Hidden` when the program hid it (DECTCEM) or it is scrolled out of view.
    pub shape: CursorShape,
    pub color: Rgb,
    /// It sits on the first half of a wide character.
    pub wide: bool,
}

/// Terminal modes a front end needs (mouse reporting, bracketed paste, alt screen, …).
pub type SnapshotModes = TermMode;

/// A selected span in viewport coordinates, rows top to bottom.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ViewportSelection {
    pub start: (usize, usize),
    pub end: (usize, usize),
    pub block: bool,
}

/// What is on screen, as plain data.
#[derive(Debug, Clone, Default)]
pub struct Snapshot {
    pub cols: usize,
    pub rows: usize,
    /// Viewport rows, top to bottom, each `cols` cells long.
    pub lines: Vec<Vec<RenderCell>>,
    /// Rows copied since the renderer last called [`take_damage`](Self::take_damage), by
    /// index. Sorted, no duplicates.
    pub damaged: Vec<usize>,
    /// Every row was recopied (resize, scroll, alt screen, palette change, …).
    pub full_damage: bool,
    pub cursor: Option<Cursor>,
    pub selection: Option<ViewportSelection>,
    pub modes: SnapshotModes,
    /// How many lines the view is scrolled back into history.
    pub display_offset: usize,
    pub history_size: usize,
    pub background: Rgb,
    pub foreground: Rgb,
    /// Increases each time the snapshot is updated with changes.
    pub generation: u64,
}

impl Snapshot {
    /// Hands the renderer the rows changed since its last call, and forgets them.
    pub fn take_damage(&mut self) -> (bool, Vec<usize>) {
        (
            std::mem::take(&mut self.full_damage),
            std::mem::take(&mut self.damaged),
        )
    }

    /// The text of row `row`, wide-character spacers left out and trailing blanks trimmed.
    pub fn row_text(&self, row: usize) -> String {
        let mut text = String::new();
        for cell in &self.lines[row] {
            if cell.flags.contains(CellFlags::WIDE_CHAR_SPACER) {
                continue;
            }
            text.push(cell.c);
            if let Some(marks) = &cell.zerowidth {
                text.extend(marks.iter());
            }
        }
        text.truncate(text.trim_end().len());
        text
    }

    /// Copies damaged rows and the rest of the visible state out of `term`, then resets its
    /// damage. Returns whether anything changed. Runs under the terminal lock: it only copies.
    pub(crate) fn update_from<T: alacritty_terminal::event::EventListener>(
        &mut self,
        term: &mut Term<T>,
        palette: &Palette,
    ) -> bool {
        let (cols, rows) = (term.columns(), term.screen_lines());
        let resized = cols != self.cols || rows != self.rows;
        if resized {
            self.cols = cols;
            self.rows = rows;
            self.lines.resize_with(rows, Vec::new);
            for line in &mut self.lines {
                line.resize_with(cols, RenderCell::default);
            }
        }

        let mut changed = false;
        match term.damage() {
            TermDamage::Full => {
                self.full_damage = true;
                self.damaged.clear();
                changed = true;
            }
            TermDamage::Partial(lines) => {
                for bounds in lines {
                    if bounds.line < rows && !self.full_damage {
                        self.damaged.push(bounds.line);
                    }
                    changed = true;
                }
            }
        }
        if resized {
            self.full_damage = true;
            self.damaged.clear();
        }
        self.damaged.sort_unstable();
        self.damaged.dedup();

        let display_offset = term.grid().display_offset();
        if self.full_damage {
            for row in 0..rows {
                self.copy_row(term, palette, row, display_offset);
            }
        } else {
            for i in 0..self.damaged.len() {
                let row = self.damaged[i];
                self.copy_row(term, palette, row, display_offset);
            }
        }
        term.reset_damage();

        changed |= self.update_state(term, palette, display_offset);
        if changed {
            self.generation += 1;
        }
        changed
    }

    fn copy_row<T>(
        &mut self,
        term: &Term<T>,
        palette: &Palette,
        row: usize,
        display_offset: usize,
    ) {
        let line = Line(row as i32 - display_offset as i32);
        let grid_row = &term.grid()[line];
        let colors = term.colors();
        for (col, out) in self.lines[row].iter_mut().enumerate() {
            let cell: &Cell = &grid_row[Column(col)];
            out.c = cell.c;
            out.flags = cell.flags;
            out.fg = palette.foreground(colors, cell.fg, cell.flags);
            out.bg = palette.background(colors, cell.bg);
            out.underline = cell
                .underline_color()
                .map(|c| palette.background(colors, c));
            out.zerowidth = cell.zerowidth().map(Box::from);
        }
    }

    /// Copies what damage does not track (cursor, selection, modes); reports a change.
    fn update_state<T: alacritty_terminal::event::EventListener>(
        &mut self,
        term: &Term<T>,
        palette: &Palette,
        display_offset: usize,
    ) -> bool {
        let content = term.renderable_content();
        let colors = content.colors;
        let point = content.cursor.point;
        let visible_row = point.line.0 + display_offset as i32;
        let cursor = (content.cursor.shape != CursorShape::Hidden
            && visible_row >= 0
            && (visible_row as usize) < self.rows)
            .then(|| Cursor {
                row: visible_row as usize,
                col: point.column.0,
                shape: content.cursor.shape,
                color: palette.effective(
                    colors,
                    alacritty_terminal::vte::ansi::NamedColor::Cursor as usize,
                ),
                wide: term.grid()[point].flags.contains(CellFlags::WIDE_CHAR),
            });
        let selection = content.selection.and_then(|range| {
            let to_view = |line: Line| line.0 + display_offset as i32;
            let (start, end) = (to_view(range.start.line), to_view(range.end.line));
            if end < 0 || start >= self.rows as i32 {
                return None;
            }
            let start = if start < 0 {
                (0, 0)
            } else {
                (start as usize, range.start.column.0)
            };
            let end = if end >= self.rows as i32 {
                (self.rows - 1, self.cols - 1)
            } else {
                (end as usize, range.end.column.0)
            };
            Some(ViewportSelection {
                start,
                end,
                block: range.is_block,
            })
        });
        let background = palette.effective(
            colors,
            alacritty_terminal::vte::ansi::NamedColor::Background as usize,
        );
        let foreground = palette.effective(
            colors,
            alacritty_terminal::vte::ansi::NamedColor::Foreground as usize,
        );

        let changed = cursor != self.cursor
            || selection != self.selection
            || content.mode != self.modes
            || display_offset != self.display_offset
            || background != self.background
            || foreground != self.foreground;
        self.cursor = cursor;
        self.selection = selection;
        self.modes = content.mode;
        self.display_offset = display_offset;
        self.history_size = term.grid().history_size();
        self.background = background;
        self.foreground = foreground;
        changed
    }
}

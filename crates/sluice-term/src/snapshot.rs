//! The renderer's copy of what is on screen.
//!
//! A [`Snapshot`] lives as long as the renderer and is updated in place: at each frame,
//! [`Terminal::update_snapshot`](crate::Terminal::update_snapshot) copies the rows that changed
//! since the last frame into it, with colours already resolved to RGB, then lets go of the
//! terminal lock. Everything after that (shaping, drawing, presenting) works on this copy.

use alacritty_terminal::grid::{Dimensions, Row};
use alacritty_terminal::index::Line;
use alacritty_terminal::term::cell::Cell;
use alacritty_terminal::term::color::Colors;
use alacritty_terminal::term::{Term, TermDamage, TermMode};
use alacritty_terminal::vte::ansi::{Color, CursorShape};

use crate::CellFlags;
use crate::palette::{COUNT, Palette, Rgb};
use crate::scroll::{self, UNKNOWN, mix};

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
    /// The program asked for a blinking cursor (DECSCUSR). Blinking is the front end's.
    pub blinking: bool,
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

/// What changed since the renderer last looked: see [`Snapshot::take_damage`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Damage {
    /// Everything must be drawn again (first frame, resize, palette change).
    pub full: bool,
    /// Rows the content moved up (negative: down) since the last look: a scroll. The
    /// renderer can move what it drew instead of drawing it again.
    pub scroll: i32,
    /// Rows with new content, after the scroll, ascending.
    pub rows: Vec<usize>,
}

/// What is on screen, as plain data.
#[derive(Debug, Clone, Default)]
pub struct Snapshot {
    pub cols: usize,
    pub rows: usize,
    /// Viewport rows, top to bottom, each `cols` cells long.
    pub lines: Vec<Vec<RenderCell>>,
    /// What changed since the renderer last called [`take_damage`](Self::take_damage).
    damage: Damage,
    /// Fingerprints of the terminal's rows as last copied (before colours are resolved).
    fingerprints: Vec<u64>,
    /// Where each of `lines` is known blank from: every cell from there on is the blank
    /// [`copy_row`](Self::copy_row) writes, in the colours of `palette`. `cols` (or more) where
    /// that is not known. A build's log line fills a fifth of a 200-column row, and writing
    /// the other four fifths again every frame was half of copying it (docs/performance.md,
    /// "Blank tails known").
    blank_from: Vec<usize>,
    /// The program's colour overrides as last copied; a change recolours everything.
    program_colors: Vec<Option<Rgb>>,
    /// The palette the rows were last resolved with; a new one (configuration) recolours
    /// everything too.
    palette: Option<Palette>,
    pub cursor: Option<Cursor>,
    pub selection: Option<ViewportSelection>,
    pub modes: SnapshotModes,
    /// X10 mouse compatibility mode (9), which `modes` cannot hold: presses only.
    pub mouse_x10: bool,
    /// How many lines the view is scrolled back into history.
    pub display_offset: usize,
    pub history_size: usize,
    pub background: Rgb,
    pub foreground: Rgb,
}

fn same_colors(copied: &[Option<Rgb>], colors: &Colors) -> bool {
    copied.len() == COUNT && (0..COUNT).all(|i| copied[i] == colors[i])
}

fn color_bits(color: Color) -> u64 {
    match color {
        Color::Named(named) => named as u64,
        Color::Spec(c) => 1 << 32 | (c.r as u64) << 16 | (c.g as u64) << 8 | c.b as u64,
        Color::Indexed(i) => 2 << 32 | i as u64,
    }
}

/// Where the row's blank tail starts: the cells from there on are as erasing leaves them, a
/// space in the default colours with nothing else ([`Cell::default`]). A build's log line
/// fills a fifth of a 200-column row, and its blanks were most of copying and fingerprinting
/// the row (docs/performance.md, "Blank tails").
fn blank_tail(cells: &[Cell]) -> usize {
    let blank = Cell::default();
    cells
        .iter()
        .rposition(|cell| *cell != blank)
        .map_or(0, |last| last + 1)
}

/// The terminal's line shown in viewport row `row`.
fn view_line(row: usize, display_offset: usize) -> Line {
    Line(row as i32 - display_offset as i32)
}

/// A terminal row's cells, and where its blank tail starts ([`blank_tail`]): found once a
/// copy, for both its fingerprint and the copy (looking for it was most of fingerprinting a
/// row of a build's log, `perf record` of the window's thread).
fn cells_and_end(row: &Row<Cell>) -> (&[Cell], usize) {
    let cells = row.into_iter().as_slice();
    (cells, blank_tail(cells))
}

/// A fingerprint of a terminal row, its blank tail from `end` on: characters, attributes and
/// colours as the program set them. Cheaper than copying the row, which is the point: on a
/// scroll only rows whose fingerprint changed after the shift are copied.
fn fingerprint((cells, end): (&[Cell], usize)) -> u64 {
    // Four independent hash chains over groups of four cells, joined at the end, so that each
    // multiply need not wait for the previous cell's. What is left is reading the cells:
    // ~35 µs for 160×50 (190 KB), ~90 µs for 300×80.
    // The blank tail is counted, not hashed: finding where it starts costs a comparison a
    // cell, hashing it a multiply.
    let cells = &cells[..end];
    let mut lanes = [end as u64, 0, 0, 0];
    let mut groups = cells.chunks_exact(4);
    for group in &mut groups {
        for (lane, cell) in lanes.iter_mut().zip(group) {
            *lane = mix(*lane, cell_value(cell));
        }
    }
    for (lane, cell) in lanes.iter_mut().zip(groups.remainder()) {
        *lane = mix(*lane, cell_value(cell));
    }
    lanes.iter().fold(0, |h, &lane| mix(h, lane))
}

/// Everything about a cell that shows, folded into 64 bits.
#[inline(always)]
fn cell_value(cell: &Cell) -> u64 {
    let colors = color_bits(cell.fg).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ color_bits(cell.bg);
    let mut value = (cell.c as u64 | (cell.flags.bits() as u64) << 32) ^ colors.rotate_left(21);
    if cell.extra.is_some() {
        for &m in cell.zerowidth().unwrap_or_default() {
            value = mix(value, m as u64);
        }
        if let Some(color) = cell.underline_color() {
            value = mix(value, color_bits(color) | 1 << 40);
        }
    }
    value
}

/// What decides how a cell's colours resolve: its foreground, background and flags.
type CellLook = (Color, Color, CellFlags);

impl Snapshot {
    /// A snapshot of cells that are not a terminal's (a tab bar, a split's border), drawn by
    /// the same renderer. Its damage is "everything": the renderer compares each row with
    /// what it drew and draws only rows that differ, so an unchanged bar costs no drawing.
    pub fn of_cells(lines: Vec<Vec<RenderCell>>, foreground: Rgb, background: Rgb) -> Snapshot {
        let mut snapshot = Snapshot {
            cols: lines.first().map_or(0, Vec::len),
            rows: lines.len(),
            lines,
            foreground,
            background,
            ..Snapshot::default()
        };
        snapshot.mark_full();
        snapshot
    }

    /// Where viewport row `row` is known blank from, as last copied: every cell from there on
    /// is a space in the default colours (its background is [`background`](Self::background))
    /// with no flags, marks or underline colour. The row's length where that is not known.
    pub fn blank_from(&self, row: usize) -> usize {
        self.blank_from
            .get(row)
            .map_or(self.cols, |&from| from.min(self.cols))
    }

    /// Colour `index` of the palette the rows were resolved with (the configured one; what a
    /// program set with OSC 4 is not included), for what the window draws over the cells.
    pub fn palette_color(&self, index: usize) -> Rgb {
        self.palette
            .as_ref()
            .map_or_else(|| Palette::default().get(index), |p| p.get(index))
    }

    /// Hands the renderer what changed since its last call, and forgets it.
    pub fn take_damage(&mut self) -> Damage {
        std::mem::take(&mut self.damage)
    }

    /// Whether a full redraw is pending.
    pub fn full_damage(&self) -> bool {
        self.damage.full
    }

    fn mark_full(&mut self) {
        self.damage = Damage {
            full: true,
            scroll: 0,
            rows: Vec::new(),
        };
    }

    /// Records rows with new content (after any scroll recorded before).
    fn mark_rows(&mut self, rows: impl IntoIterator<Item = usize>) {
        if !self.damage.full {
            self.damage.rows.extend(rows);
            self.damage.rows.sort_unstable();
            self.damage.rows.dedup();
        }
    }

    /// Records a scroll: rows already marked move with the content.
    fn mark_scroll(&mut self, shift: i32) {
        if self.damage.full || shift == 0 {
            return;
        }
        let n = self.rows as i64;
        self.damage.scroll += shift;
        self.damage.rows = self
            .damage
            .rows
            .iter()
            .filter_map(|&r| {
                let moved = r as i64 - shift as i64;
                (0..n).contains(&moved).then_some(moved as usize)
            })
            .collect();
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

    /// Copies what changed and the rest of the visible state out of `term`, then resets its
    /// damage. Returns whether anything changed. Runs under the terminal lock: it only reads
    /// the grid and copies (on a scroll, only the rows that came into view).
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
            self.fingerprints = vec![UNKNOWN; rows];
            self.blank_from = vec![cols; rows];
        }
        let mut recolored = !same_colors(&self.program_colors, term.colors());
        if recolored {
            self.program_colors = (0..COUNT).map(|i| term.colors()[i]).collect();
        }
        if self.palette.as_ref() != Some(palette) {
            self.palette = Some(palette.clone());
            recolored = true;
        }

        let damaged: Option<Vec<usize>> = match term.damage() {
            TermDamage::Full => None,
            TermDamage::Partial(lines) => {
                Some(lines.map(|b| b.line).filter(|&l| l < rows).collect())
            }
        };
        let display_offset = term.grid().display_offset();
        let mut changed = false;
        match damaged {
            _ if resized || recolored => {
                // The blanks were written in the palette's colours before.
                self.blank_from.fill(cols);
                for row in 0..rows {
                    let row_end = cells_and_end(&term.grid()[view_line(row, display_offset)]);
                    self.copy_row(term, palette, (row, row_end.1), display_offset);
                    self.fingerprints[row] = fingerprint(row_end);
                }
                self.mark_full();
                changed = true;
            }
            None => {
                let (new, ends): (Vec<u64>, Vec<usize>) = (0..rows)
                    .map(|row| {
                        let row_end = cells_and_end(&term.grid()[view_line(row, display_offset)]);
                        (fingerprint(row_end), row_end.1)
                    })
                    .unzip();
                let plan = scroll::plan(&self.fingerprints, &new);
                if plan.shift != 0 {
                    let k = (plan.shift.unsigned_abs() as usize).min(rows);
                    if plan.shift > 0 {
                        self.lines.rotate_left(k);
                        self.blank_from.rotate_left(k);
                    } else {
                        self.lines.rotate_right(k);
                        self.blank_from.rotate_right(k);
                    }
                    self.mark_scroll(plan.shift);
                }
                for &row in &plan.rows {
                    self.copy_row(term, palette, (row, ends[row]), display_offset);
                }
                self.mark_rows(plan.rows.iter().copied());
                changed |= plan.shift != 0 || !plan.rows.is_empty();
                self.fingerprints = new;
            }
            Some(lines) => {
                for &row in &lines {
                    let row_end = cells_and_end(&term.grid()[view_line(row, display_offset)]);
                    self.copy_row(term, palette, (row, row_end.1), display_offset);
                    self.fingerprints[row] = fingerprint(row_end);
                }
                changed |= !lines.is_empty();
                self.mark_rows(lines);
            }
        }
        term.reset_damage();

        changed |= self.update_state(term, palette, display_offset);
        changed
    }

    /// Copies viewport row `row`, whose blank tail starts at `end` ([`cells_and_end`]).
    fn copy_row<T>(
        &mut self,
        term: &Term<T>,
        palette: &Palette,
        (row, end): (usize, usize),
        display_offset: usize,
    ) {
        let cells = term.grid()[view_line(row, display_offset)]
            .into_iter()
            .as_slice();
        let colors = term.colors();
        // The blank tail is written without looking each cell up.
        let blank = Cell::default();
        let out = &mut self.lines[row];
        let end = end.min(out.len());
        let (fg, bg) = (
            palette.foreground(colors, blank.fg, blank.flags),
            palette.background(colors, blank.bg),
        );
        // Cells the row's last copy left blank are blank still.
        let known = std::mem::replace(&mut self.blank_from[row], end).clamp(end, out.len());
        for out in &mut out[end..known] {
            (out.c, out.flags, out.fg, out.bg) = (blank.c, blank.flags, fg, bg);
            out.underline = None;
            out.zerowidth = None;
        }
        // Neighbouring cells nearly always share their colours and flags: resolved once a
        // stretch rather than once a cell (the palette's lookups were a quarter of copying a
        // row of a build's log, `perf record -t` on the window's thread).
        let mut resolved: Option<(CellLook, (Rgb, Rgb))> = None;
        for (cell, out) in cells[..end].iter().zip(out.iter_mut()) {
            out.c = crate::dump::displayed(cell.c);
            out.flags = cell.flags;
            let key = (cell.fg, cell.bg, cell.flags);
            let (fg, bg) = match resolved {
                Some((known, rgb)) if known == key => rgb,
                _ => {
                    let rgb = (
                        palette.foreground(colors, cell.fg, cell.flags),
                        palette.background(colors, cell.bg),
                    );
                    resolved = Some((key, rgb));
                    rgb
                }
            };
            (out.fg, out.bg) = (fg, bg);
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
        let colors = term.colors();
        let mode = *term.mode();
        let (point, shape) = cursor_of(term);
        let visible_row = point.line.0 + display_offset as i32;
        let cursor = (shape != CursorShape::Hidden
            && visible_row >= 0
            && (visible_row as usize) < self.rows)
            .then(|| Cursor {
                row: visible_row as usize,
                col: point.column.0,
                shape,
                color: palette.effective(
                    colors,
                    alacritty_terminal::vte::ansi::NamedColor::Cursor as usize,
                ),
                wide: term.grid()[point].flags.contains(CellFlags::WIDE_CHAR),
                blinking: term.cursor_style().blinking,
            });
        let selection = term.selection.as_ref().and_then(|s| s.to_range(term));
        let selection = selection.and_then(|range| {
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
            || mode != self.modes
            || display_offset != self.display_offset
            || background != self.background
            || foreground != self.foreground;
        self.cursor = cursor;
        self.selection = selection;
        self.modes = mode;
        self.display_offset = display_offset;
        self.history_size = term.grid().history_size();
        self.background = background;
        self.foreground = foreground;
        changed
    }
}

/// Where the cursor is drawn and its shape, as `Term::renderable_content` has them, but
/// without its step left from a wide character's spacer at column 0 (which underflows in
/// alacritty_terminal 0.26): the feed mends the one way output makes that state
/// (`limits::mend_orphan_spacer`), and a snapshot must not panic if another is found.
fn cursor_of<T>(term: &Term<T>) -> (alacritty_terminal::index::Point, CursorShape) {
    let mode = term.mode();
    let vi_mode = mode.contains(TermMode::VI);
    let mut point = if vi_mode {
        term.vi_mode_cursor.point
    } else {
        term.grid().cursor.point
    };
    if term.grid()[point]
        .flags
        .contains(CellFlags::WIDE_CHAR_SPACER)
    {
        point.column.0 = point.column.0.saturating_sub(1);
    }
    let shape = if !vi_mode && !mode.contains(TermMode::SHOW_CURSOR) {
        CursorShape::Hidden
    } else {
        term.cursor_style().shape
    };
    (point, shape)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Replay;

    /// A cell as erasing leaves it, as the snapshot shows it.
    fn erased(snapshot: &Snapshot) -> RenderCell {
        RenderCell {
            fg: snapshot.foreground,
            bg: snapshot.background,
            ..RenderCell::default()
        }
    }

    #[test]
    fn a_blank_tail_replaces_whatever_the_row_showed_before() {
        let mut replay = Replay::new(20, 3, 0);
        let mut snapshot = Snapshot::default();
        // Colours, a bold cell and a combining mark where the tail will be.
        replay.feed("\x1b[41;1mred text\x1b[0m e\u{301}\x1b[4:3mwavy\x1b[0m".as_bytes());
        replay.update_snapshot(&mut snapshot);
        assert!(snapshot.lines[0][9].zerowidth.is_some());
        assert_ne!(snapshot.lines[0][0].bg, snapshot.background);

        replay.feed(b"\r\x1b[2Kab");
        replay.update_snapshot(&mut snapshot);
        assert_eq!((snapshot.lines[0][0].c, snapshot.lines[0][1].c), ('a', 'b'));
        let blank = erased(&snapshot);
        for (col, cell) in snapshot.lines[0].iter().enumerate().skip(2) {
            assert_eq!(*cell, blank, "column {col}");
        }
    }

    /// Rows copied over rows, scrolled, recoloured and resized show what a snapshot copied
    /// afresh shows, cell for cell: the tails a copy skips as known blank are blank.
    #[test]
    fn tails_known_blank_match_a_fresh_copy() {
        let mut replay = Replay::new(40, 6, 100);
        let mut kept = Snapshot::default();
        let long = "0123456789abcdefghijklmnopqrstuvwxyz";
        let steps: Vec<Vec<u8>> = vec![
            format!("{long}\r\n{long}\r\nshort\r\n").into_bytes(),
            b"ab\r\ncd\r\n".to_vec(),
            // A scroll of a few lines and of more than the screen.
            format!("{long}\r\n{long}\r\nx\r\n").repeat(4).into_bytes(),
            b"\x1b[H\x1b[2Kshort on a long row".to_vec(),
            // Blanks in another background are no blank tail; then erased in the default.
            b"\x1b[3;1H\x1b[44m\x1b[K\x1b[0m\r\n".to_vec(),
            b"\x1b[3;1H\x1b[2K".to_vec(),
            // The program recolours the default background: every blank changes colour.
            b"\x1b]11;#203040\x07".to_vec(),
            b"\x1b[6;1Hend\r\n".to_vec(),
            b"\x1b]111\x07".to_vec(),
            b"\x1b[2J\x1b[Hafter clearing\r\n".to_vec(),
        ];
        for (i, step) in steps.iter().enumerate() {
            replay.feed(step);
            replay.update_snapshot(&mut kept);
            let mut fresh = Snapshot::default();
            replay.update_snapshot(&mut fresh);
            assert_eq!(kept.lines, fresh.lines, "after step {i}");
        }
        replay.resize(50, 4);
        replay.feed(b"wider\r\n");
        replay.update_snapshot(&mut kept);
        let mut fresh = Snapshot::default();
        replay.update_snapshot(&mut fresh);
        assert_eq!(kept.lines, fresh.lines, "after a resize");
    }

    #[test]
    fn spaces_erased_in_another_background_are_not_a_blank_tail() {
        let mut replay = Replay::new(20, 3, 0);
        let mut snapshot = Snapshot::default();
        replay.feed(b"x\x1b[44m\x1b[K\x1b[0m");
        replay.update_snapshot(&mut snapshot);
        let tail = &snapshot.lines[0][1..];
        assert!(tail.iter().all(|cell| cell.c == ' '));
        assert!(tail.iter().all(|cell| cell.bg != snapshot.background));
        // Erased again in the default background, the row changes (its fingerprint too).
        replay.feed(b"\x1b[K");
        replay.update_snapshot(&mut snapshot);
        assert!(
            snapshot.lines[0][1..]
                .iter()
                .all(|c| *c == erased(&snapshot))
        );
    }
}

//! The screen (and history) as text, ANSI or JSON: what `sluice --headless --dump` prints.

use std::fmt::Write as _;

use alacritty_terminal::grid::{Dimensions, Row};
use alacritty_terminal::index::Line;
use alacritty_terminal::term::Term;
use alacritty_terminal::term::cell::Cell;
use alacritty_terminal::vte::ansi::{Color, NamedColor};
use serde::Serialize;

use crate::CellFlags;
use crate::palette::{Palette, Rgb};

/// How to print the screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DumpFormat {
    /// Plain text: trailing blanks and trailing empty lines trimmed.
    Text,
    /// Text with SGR sequences that reproduce colours and attributes, one row per line.
    Ansi,
    /// Every row with its styled spans, colours resolved to `#rrggbb`, and the cursor.
    Json,
}

impl std::str::FromStr for DumpFormat {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "text" => Ok(DumpFormat::Text),
            "ansi" => Ok(DumpFormat::Ansi),
            "json" => Ok(DumpFormat::Json),
            other => Err(format!(
                "unknown dump format {other:?}: expected text, ansi or json"
            )),
        }
    }
}

pub(crate) fn dump<T>(
    term: &Term<T>,
    palette: &Palette,
    format: DumpFormat,
    scrollback: bool,
    working_directory: Option<&std::path::Path>,
) -> String {
    let first = if scrollback {
        -(term.grid().history_size() as i32)
    } else {
        0
    };
    let lines = (first..term.screen_lines() as i32).map(|l| &term.grid()[Line(l)]);
    match format {
        DumpFormat::Text => text(lines),
        DumpFormat::Ansi => ansi(lines),
        DumpFormat::Json => json(term, palette, lines, first, working_directory),
    }
}

/// The character a cell shows. alacritty_terminal keeps a tab's `\t` in the first cell it
/// spans, so that copying text gives the tab back; on screen it is blank.
pub(crate) fn displayed(c: char) -> char {
    if c == '\t' { ' ' } else { c }
}

/// Visible cells of a row: wide-character spacers are not characters of their own.
fn cells(row: &Row<Cell>) -> impl Iterator<Item = &Cell> {
    row.into_iter().filter(|cell| {
        !cell
            .flags
            .intersects(CellFlags::WIDE_CHAR_SPACER | CellFlags::LEADING_WIDE_CHAR_SPACER)
    })
}

fn push_cell_text(out: &mut String, cell: &Cell) {
    out.push(displayed(cell.c));
    if let Some(marks) = cell.zerowidth() {
        out.extend(marks);
    }
}

fn text<'a>(lines: impl Iterator<Item = &'a Row<Cell>>) -> String {
    let mut out = String::new();
    for row in lines {
        let start = out.len();
        for cell in cells(row) {
            push_cell_text(&mut out, cell);
        }
        out.truncate(start + out[start..].trim_end_matches(' ').len());
        out.push('\n');
    }
    out.truncate(out.trim_end_matches('\n').len());
    out.push('\n');
    out
}

/// The SGR parameters that select `color` as a foreground (`base` 30) or background (40).
fn sgr_color(out: &mut String, color: Color, base: u8) {
    match color {
        Color::Named(NamedColor::Foreground | NamedColor::Background) => {}
        Color::Named(named) if (named as usize) < 8 => {
            let _ = write!(out, ";{}", base + named as u8);
        }
        Color::Named(named) if (named as usize) < 16 => {
            let _ = write!(out, ";{}", base + 60 + (named as u8 - 8));
        }
        Color::Named(_) => {}
        Color::Indexed(i) => {
            let _ = write!(out, ";{};5;{i}", base + 8);
        }
        Color::Spec(Rgb { r, g, b }) => {
            let _ = write!(out, ";{};2;{r};{g};{b}", base + 8);
        }
    }
}

fn sgr(cell: &Cell) -> String {
    let mut out = String::from("\x1b[0");
    let flags = cell.flags;
    for (flag, code) in [
        (CellFlags::BOLD, "1"),
        (CellFlags::DIM, "2"),
        (CellFlags::ITALIC, "3"),
        (CellFlags::UNDERLINE, "4"),
        (CellFlags::DOUBLE_UNDERLINE, "4:2"),
        (CellFlags::UNDERCURL, "4:3"),
        (CellFlags::DOTTED_UNDERLINE, "4:4"),
        (CellFlags::DASHED_UNDERLINE, "4:5"),
        (CellFlags::INVERSE, "7"),
        (CellFlags::HIDDEN, "8"),
        (CellFlags::STRIKEOUT, "9"),
    ] {
        if flags.contains(flag) {
            out.push(';');
            out.push_str(code);
        }
    }
    sgr_color(&mut out, cell.fg, 30);
    sgr_color(&mut out, cell.bg, 40);
    if let Some(color) = cell.underline_color() {
        // 58 takes the same forms as 38.
        let mut underline = String::new();
        sgr_color(&mut underline, color, 50);
        out.push_str(&underline);
    }
    out.push('m');
    out
}

fn ansi<'a>(lines: impl Iterator<Item = &'a Row<Cell>>) -> String {
    let mut out = String::new();
    const PLAIN: &str = "\x1b[0m";
    for row in lines {
        let mut style = String::from(PLAIN);
        let mut line = String::new();
        let mut styled_len = 0;
        for cell in cells(row) {
            let next = sgr(cell);
            if next != style {
                line.push_str(&next);
                style = next;
            }
            push_cell_text(&mut line, cell);
            if cell.c != ' ' || style != PLAIN {
                styled_len = line.len();
            }
        }
        line.truncate(styled_len);
        out.push_str(&line);
        out.push_str(PLAIN);
        out.push('\n');
    }
    out
}

#[derive(Serialize)]
struct JsonScreen {
    cols: usize,
    rows: usize,
    /// Rows of history included above the screen.
    history: usize,
    cursor: JsonCursor,
    lines: Vec<JsonLine>,
    /// The directory the program last reported with OSC 7, if it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    working_directory: Option<String>,
    /// Shell integration marks (OSC 133) in the whole scrollback, from the top.
    marks: Vec<crate::marks::Mark>,
}

#[derive(Serialize)]
struct JsonCursor {
    row: usize,
    col: usize,
    visible: bool,
}

#[derive(Serialize)]
struct JsonLine {
    text: String,
    spans: Vec<JsonSpan>,
}

#[derive(Serialize, PartialEq)]
struct JsonSpan {
    col: usize,
    text: String,
    fg: String,
    bg: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    attrs: Vec<&'static str>,
}

fn hex(c: Rgb) -> String {
    format!("#{:02x}{:02x}{:02x}", c.r, c.g, c.b)
}

fn attrs(flags: CellFlags) -> Vec<&'static str> {
    [
        (CellFlags::BOLD, "bold"),
        (CellFlags::DIM, "dim"),
        (CellFlags::ITALIC, "italic"),
        (CellFlags::UNDERLINE, "underline"),
        (CellFlags::DOUBLE_UNDERLINE, "double-underline"),
        (CellFlags::UNDERCURL, "curly-underline"),
        (CellFlags::DOTTED_UNDERLINE, "dotted-underline"),
        (CellFlags::DASHED_UNDERLINE, "dashed-underline"),
        (CellFlags::INVERSE, "inverse"),
        (CellFlags::HIDDEN, "hidden"),
        (CellFlags::STRIKEOUT, "strikethrough"),
        (CellFlags::WIDE_CHAR, "wide"),
    ]
    .into_iter()
    .filter(|(flag, _)| flags.contains(*flag))
    .map(|(_, name)| name)
    .collect()
}

fn json<'a, T>(
    term: &Term<T>,
    palette: &Palette,
    lines: impl Iterator<Item = &'a Row<Cell>>,
    first: i32,
    working_directory: Option<&std::path::Path>,
) -> String {
    let colors = term.colors();
    let mut out_lines = Vec::new();
    for row in lines {
        let mut spans: Vec<JsonSpan> = Vec::new();
        let mut text = String::new();
        for (col, cell) in row.into_iter().enumerate() {
            if cell
                .flags
                .intersects(CellFlags::WIDE_CHAR_SPACER | CellFlags::LEADING_WIDE_CHAR_SPACER)
            {
                continue;
            }
            let fg = hex(palette.foreground(colors, cell.fg, cell.flags));
            let bg = hex(palette.background(colors, cell.bg));
            let attrs = attrs(cell.flags);
            let mut glyph = String::new();
            push_cell_text(&mut glyph, cell);
            text.push_str(&glyph);
            match spans.last_mut() {
                Some(span) if span.fg == fg && span.bg == bg && span.attrs == attrs => {
                    span.text.push_str(&glyph)
                }
                _ => spans.push(JsonSpan {
                    col,
                    text: glyph,
                    fg,
                    bg,
                    attrs,
                }),
            }
        }
        text.truncate(text.trim_end_matches(' ').len());
        out_lines.push(JsonLine { text, spans });
    }
    let cursor = term.grid().cursor.point;
    let screen = JsonScreen {
        cols: term.columns(),
        rows: term.screen_lines(),
        history: (-first) as usize,
        cursor: JsonCursor {
            row: cursor.line.0 as usize,
            col: cursor.column.0,
            visible: term
                .mode()
                .contains(alacritty_terminal::term::TermMode::SHOW_CURSOR),
        },
        lines: out_lines,
        working_directory: working_directory.map(|d| d.to_string_lossy().into_owned()),
        marks: crate::marks::marks(term),
    };
    serde_json::to_string_pretty(&screen).expect("plain data serialises") + "\n"
}

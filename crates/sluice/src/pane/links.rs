//! Links on screen: URLs found in the text, and OSC 8 hyperlinks programs print.
//!
//! A link under the pointer is underlined; Ctrl+click opens it with the configured opener,
//! but only if its scheme is in the allowed list (see `Config::link_schemes`). An OSC 8 link's
//! text can say anything, so its target is shown in a status line while it is hovered, before
//! the click.

use std::process::{Command, Stdio};
use std::sync::LazyLock;

use regex::Regex;
use sluice_render::Label;
use sluice_term::{CellFlags, RenderCell, Rgb, RowSpan};

/// URLs as they appear in text (`sluice_config::hints::URL_PATTERN`, which hints use too).
static URL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(sluice_config::hints::URL_PATTERN).expect("the URL pattern compiles")
});

/// A link and the cells it covers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    pub uri: String,
    pub spans: Vec<RowSpan>,
    /// An OSC 8 hyperlink, whose text need not be its target (a URL in the text is its own).
    pub hyperlink: bool,
}

impl Link {
    /// The status line that shows where an OSC 8 link goes: across the bottom row, or the top
    /// one when the link itself is on the bottom row. `None` for a URL in the text.
    pub fn target_label(&self, rows: usize, cols: usize, fg: Rgb, bg: Rgb) -> Option<Label> {
        if !self.hyperlink || cols == 0 {
            return None;
        }
        let bottom = rows.saturating_sub(1);
        let row = if self.spans.iter().any(|s| s.row == bottom) {
            0
        } else {
            bottom
        };
        // Shown as text, never as controls: a C1 character is a '?'.
        let target: String = self
            .uri
            .chars()
            .map(|c| if c.is_control() { '?' } else { c })
            .collect();
        let mut text = format!(" {target} ");
        if text.chars().count() > cols {
            text = text.chars().take(cols - 1).chain(['…']).collect();
        }
        Some(super::bar::bar(row, text, cols, fg, bg))
    }
}

/// The URL under cell (`col`, `row`) of the screen, if any. A URL wrapped across rows (the
/// program printed one long line) is found whole, from any of its rows.
pub fn url_at(lines: &[Vec<RenderCell>], row: usize, col: usize) -> Option<Link> {
    let line = LogicalLine::around(lines, row);
    URL.find_iter(&line.text).find_map(|m| {
        let uri = trim_trailing(m.as_str());
        let (start, end) = line.cells_of(m.start(), uri.len());
        ((start..=end).contains(&(row, col))).then(|| Link {
            uri: uri.to_owned(),
            spans: spans(start, end, lines),
            hyperlink: false,
        })
    })
}

/// A line as the program printed it: the screen rows it wraps across, as one text, with the
/// cell each character starts at. How a URL or a hint wrapped across rows is found whole.
pub struct LogicalLine {
    pub text: String,
    /// (byte offset in `text`, row, column), one per character.
    cells: Vec<(usize, usize, usize)>,
    /// The last screen row it covers.
    pub last_row: usize,
}

impl LogicalLine {
    /// The logical line that screen row `row` is part of.
    pub fn around(lines: &[Vec<RenderCell>], row: usize) -> LogicalLine {
        let wrapped = |r: usize| {
            lines
                .get(r)
                .and_then(|l| l.last())
                .is_some_and(|c| c.flags.contains(CellFlags::WRAPLINE))
        };
        // Back while the row above wraps into this one, on while this one wraps.
        let mut first = row;
        while first > 0 && wrapped(first - 1) {
            first -= 1;
        }
        let mut last = row;
        while last + 1 < lines.len() && wrapped(last) {
            last += 1;
        }
        let mut text = String::new();
        let mut cells = Vec::new();
        for (r, line) in lines.iter().enumerate().take(last + 1).skip(first) {
            for (c, cell) in line.iter().enumerate() {
                if cell.flags.contains(CellFlags::WIDE_CHAR_SPACER) {
                    continue;
                }
                cells.push((text.len(), r, c));
                text.push(cell.c);
            }
        }
        LogicalLine {
            text,
            cells,
            last_row: last,
        }
    }

    /// Every logical line of the screen, top to bottom.
    pub fn all(lines: &[Vec<RenderCell>]) -> Vec<LogicalLine> {
        let mut out = Vec::new();
        let mut row = 0;
        while row < lines.len() {
            let line = LogicalLine::around(lines, row);
            row = line.last_row + 1;
            out.push(line);
        }
        out
    }

    /// The first and last cells (row, column) of the `len` bytes from byte `start`.
    pub fn cells_of(&self, start: usize, len: usize) -> ((usize, usize), (usize, usize)) {
        let cell_at = |byte: usize| {
            let i = self
                .cells
                .partition_point(|&(b, _, _)| b <= byte)
                .saturating_sub(1);
            (self.cells[i].1, self.cells[i].2)
        };
        (cell_at(start), cell_at(start + len.max(1) - 1))
    }
}

/// The cells from `start` to `end` (inclusive, row-major), as one span per row.
pub fn spans(
    start: (usize, usize),
    end: (usize, usize),
    lines: &[Vec<RenderCell>],
) -> Vec<RowSpan> {
    (start.0..=end.0)
        .map(|row| RowSpan {
            row,
            start: if row == start.0 { start.1 } else { 0 },
            end: if row == end.0 {
                end.1 + 1
            } else {
                lines[row].len()
            },
        })
        .collect()
}

/// Drops punctuation that ends the sentence rather than the URL, and a closing parenthesis
/// that has no opening one in the URL (`(see https://x.org/a)`).
pub fn trim_trailing(mut uri: &str) -> &str {
    loop {
        let trimmed = uri.trim_end_matches(['.', ',', ':', ';', '!', '?']);
        let trimmed = match trimmed.strip_suffix(')') {
            Some(inner) if inner.matches('(').count() < inner.matches(')').count() + 1 => inner,
            _ => trimmed,
        };
        if trimmed.len() == uri.len() {
            return uri;
        }
        uri = trimmed;
    }
}

/// Whether `uri`'s scheme is one the user allows to be opened.
///
/// A `mailto:` link that attaches a file (`attach=`, `attachment=`, which some mail clients
/// honour) is never opened: one click would mail a local file, `~/.ssh/id_ed25519` say, to
/// whoever printed the link.
pub fn allowed(uri: &str, schemes: &[String]) -> bool {
    let Some((scheme, rest)) = uri.split_once(':') else {
        return false;
    };
    if scheme.eq_ignore_ascii_case("mailto") && attaches_a_file(rest) {
        return false;
    }
    schemes.iter().any(|s| s.eq_ignore_ascii_case(scheme))
}

/// Whether a mailto link's query names an attachment.
fn attaches_a_file(mailto: &str) -> bool {
    let Some((_, query)) = mailto.split_once('?') else {
        return false;
    };
    query.split('&').any(|field| {
        let name = field.split_once('=').map_or(field, |(name, _)| name);
        name.eq_ignore_ascii_case("attach") || name.eq_ignore_ascii_case("attachment")
    })
}

/// Opens `uri` with `opener`, detached; the child is reaped by a thread of its own.
pub fn open(opener: &str, uri: &str) {
    let child = Command::new(opener)
        .arg(uri)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn();
    match child {
        Ok(mut child) => {
            let _ = std::thread::Builder::new()
                .name("link-opener".into())
                .spawn(move || child.wait());
        }
        Err(err) => tracing::warn!(%err, opener, "cannot run the link opener"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sluice_term::Rgb;

    fn cells(text: &str) -> Vec<RenderCell> {
        text.chars()
            .map(|c| RenderCell {
                c,
                zerowidth: None,
                fg: Rgb { r: 0, g: 0, b: 0 },
                bg: Rgb { r: 0, g: 0, b: 0 },
                underline: None,
                flags: CellFlags::empty(),
            })
            .collect()
    }

    #[test]
    fn finds_the_url_under_a_column() {
        let lines = vec![cells("see (https://example.com/a_(b)) and mailto:x@y.org.")];
        let link = url_at(&lines, 0, 10).unwrap();
        assert_eq!(link.uri, "https://example.com/a_(b)");
        let span = RowSpan {
            row: 0,
            start: 5,
            end: 30,
        };
        assert_eq!(link.spans, [span]);
        assert_eq!(url_at(&lines, 0, 2), None);
        let prose = url_at(&lines, 0, 31);
        assert_eq!(prose, None, "the closing parenthesis is prose");
        assert_eq!(url_at(&lines, 0, 40).unwrap().uri, "mailto:x@y.org");
    }

    fn span(row: usize, start: usize, end: usize) -> RowSpan {
        RowSpan { row, start, end }
    }

    #[test]
    fn a_url_wrapped_across_rows_is_found_from_any_of_them() {
        let mut lines = vec![
            cells("plain row   "),
            cells("go https://e"),
            cells("xample.com/l"),
            cells("ong ok      "),
        ];
        for line in &mut lines[1..3] {
            let last = line.last_mut().unwrap();
            last.flags.insert(CellFlags::WRAPLINE);
        }
        let expected = Link {
            uri: "https://example.com/long".into(),
            spans: vec![span(1, 3, 12), span(2, 0, 12), span(3, 0, 3)],
            hyperlink: false,
        };
        for (row, col) in [(1, 5), (2, 0), (3, 2)] {
            let found = url_at(&lines, row, col);
            assert_eq!(found.as_ref(), Some(&expected), "({row}, {col})");
        }
        assert_eq!(url_at(&lines, 3, 4), None);
        assert_eq!(
            url_at(&lines, 0, 2),
            None,
            "the row above does not wrap into it"
        );
    }

    #[test]
    fn only_allowed_schemes_open() {
        let schemes = ["https".to_owned(), "mailto".to_owned()];
        assert!(allowed("HTTPS://example.com", &schemes));
        assert!(allowed("mailto:a@b", &schemes));
        assert!(!allowed("file:///etc/passwd", &schemes));
        assert!(!allowed("javascript:alert(1)", &schemes));
        assert!(!allowed("no-scheme", &schemes));
        assert!(allowed("mailto:a@b?subject=hi&body=x", &schemes));
        assert!(!allowed(
            "mailto:a@b?subject=hi&attach=/home/u/.ssh/id_rsa",
            &schemes
        ));
        assert!(!allowed(
            "MAILTO:a@b?ATTACHMENT=file:///etc/shadow",
            &schemes
        ));
    }

    #[test]
    fn an_osc8_target_is_shown_away_from_the_link_and_as_text() {
        let black = Rgb { r: 0, g: 0, b: 0 };
        let link = |row, uri: &str, hyperlink| Link {
            uri: uri.to_owned(),
            spans: vec![span(row, 0, 4)],
            hyperlink,
        };
        let label = link(2, "https://evil.example/\u{9b}x", true)
            .target_label(10, 40, black, black)
            .unwrap();
        assert_eq!(
            (label.row, label.text.trim_end()),
            (9, " https://evil.example/?x")
        );
        assert_eq!(label.text.chars().count(), 40, "across the row");
        let on_bottom = link(9, "https://a", true).target_label(10, 40, black, black);
        assert_eq!(on_bottom.unwrap().row, 0, "not over the link itself");
        let long = link(0, &"x".repeat(100), true).target_label(10, 20, black, black);
        assert_eq!(long.unwrap().text.chars().count(), 20);
        assert!(
            link(0, "https://a", false)
                .target_label(10, 40, black, black)
                .is_none()
        );
    }
}

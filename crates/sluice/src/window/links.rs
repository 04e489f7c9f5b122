//! Links on screen: URLs found in the text, and OSC 8 hyperlinks programs print.
//!
//! A link under the pointer is underlined; Ctrl+click opens it with the configured opener,
//! but only if its scheme is in the allowed list (see `Config::link_schemes`).

use std::process::{Command, Stdio};
use std::sync::LazyLock;

use regex::Regex;
use sluice_term::{CellFlags, RenderCell, RowSpan};

/// URLs as they appear in text: a known scheme, then anything but blanks, controls, quotes
/// and the brackets that usually enclose a URL in prose.
static URL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?i)(?:https?://|ftp://|mailto:|gemini://|gopher://|file://|ssh://|git://)[^\s<>"'`{}|\\^\x00-\x1f\x7f]+"#,
    )
    .expect("the URL pattern compiles")
});

/// A link and the cells it covers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    pub uri: String,
    pub spans: Vec<RowSpan>,
}

/// The URL in `cells` (one screen row) that covers column `col`, if any.
pub fn url_at(cells: &[RenderCell], row: usize, col: usize) -> Option<Link> {
    // The row as text, with the column each character starts at.
    let mut text = String::with_capacity(cells.len());
    let mut columns = Vec::with_capacity(cells.len());
    for (i, cell) in cells.iter().enumerate() {
        if cell.flags.contains(CellFlags::WIDE_CHAR_SPACER) {
            continue;
        }
        columns.push((text.len(), i));
        text.push(cell.c);
    }
    let column_of = |byte: usize| {
        columns
            .iter()
            .take_while(|&&(b, _)| b < byte)
            .last()
            .map_or(0, |&(_, c)| c)
    };
    URL.find_iter(&text).find_map(|m| {
        let uri = trim_trailing(m.as_str());
        let (start, end) = (
            column_of(m.start() + 1),
            column_of(m.start() + uri.len()) + 1,
        );
        (start..end).contains(&col).then(|| Link {
            uri: uri.to_owned(),
            spans: vec![RowSpan { row, start, end }],
        })
    })
}

/// Drops punctuation that ends the sentence rather than the URL, and a closing parenthesis
/// that has no opening one in the URL (`(see https://x.org/a)`).
fn trim_trailing(mut uri: &str) -> &str {
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
pub fn allowed(uri: &str, schemes: &[String]) -> bool {
    let Some((scheme, _)) = uri.split_once(':') else {
        return false;
    };
    schemes.iter().any(|s| s.eq_ignore_ascii_case(scheme))
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
        let row = cells("see (https://example.com/a_(b)) and mailto:x@y.org.");
        let link = url_at(&row, 3, 10).unwrap();
        assert_eq!(link.uri, "https://example.com/a_(b)");
        assert_eq!(
            link.spans,
            [RowSpan {
                row: 3,
                start: 5,
                end: 30
            }]
        );
        assert_eq!(url_at(&row, 3, 2), None);
        assert_eq!(
            url_at(&row, 3, 31),
            None,
            "the closing parenthesis is prose"
        );
        assert_eq!(url_at(&row, 3, 40).unwrap().uri, "mailto:x@y.org");
    }

    #[test]
    fn only_allowed_schemes_open() {
        let schemes = ["https".to_owned(), "mailto".to_owned()];
        assert!(allowed("HTTPS://example.com", &schemes));
        assert!(allowed("mailto:a@b", &schemes));
        assert!(!allowed("file:///etc/passwd", &schemes));
        assert!(!allowed("javascript:alert(1)", &schemes));
        assert!(!allowed("no-scheme", &schemes));
    }
}

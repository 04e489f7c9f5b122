//! Keyboard hints (Ctrl+Shift+O opens a URL, Ctrl+Shift+Y copies a URL, path, hash or
//! address; `hints.sets`): every match of a set's patterns on screen gets a label, and typing a
//! label runs the set's action on its match. Matches wrapped across rows are found whole
//! ([`LogicalLine`]).
//!
//! Labels all have the same length (one letter while there are no more matches than letters,
//! two up to the alphabet's square, …), so none is the start of another and a label is
//! chosen the moment it is typed whole.

use regex::Regex;
use sluice_config::hints::{HintAction, HintSet, is_hash};
use sluice_render::{Label, Mark};
use sluice_term::{RenderCell, Rgb, RowSpan};

use super::links::{LogicalLine, spans, trim_trailing};

/// Labels shown at most: past this, matches go unlabelled (a screen rarely holds a tenth).
const MAX_HINTS: usize = 1024;

/// A match on screen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HintMatch {
    pub text: String,
    /// Whether it is a path (what `Open` treats as a `file` URL).
    pub path: bool,
    pub spans: Vec<RowSpan>,
}

/// Hints on screen, waiting for a label.
#[derive(Debug)]
pub struct Hints {
    pub action: HintAction,
    matches: Vec<HintMatch>,
    labels: Vec<String>,
    typed: String,
}

/// What a key typed while hints are shown does.
#[derive(Debug, PartialEq, Eq)]
pub enum HintKey {
    /// More to type (or a letter no label goes on with: ignored).
    Pending,
    /// A whole label: run the action on this match.
    Chosen(HintMatch),
    /// Escape: hints go away.
    Cancel,
}

impl Hints {
    /// Labels every match of `set` in `lines`; `None` when there is none (nothing to show).
    pub fn start(set: &HintSet, alphabet: &str, lines: &[Vec<RenderCell>]) -> Option<Hints> {
        let regex = set.regex().ok()?;
        let matches = find(&regex, lines);
        if matches.is_empty() {
            return None;
        }
        let labels = labels(matches.len(), alphabet);
        Some(Hints {
            action: set.action,
            matches,
            labels,
            typed: String::new(),
        })
    }

    /// A letter typed (`None` for Escape, `Some("\u{8}")` is not used: Backspace is
    /// [`backspace`](Self::backspace)).
    pub fn key(&mut self, text: Option<&str>) -> HintKey {
        let Some(text) = text else {
            return HintKey::Cancel;
        };
        let mut typed = self.typed.clone();
        typed.push_str(text);
        if !self.labels.iter().any(|l| l.starts_with(&typed)) {
            return HintKey::Pending;
        }
        self.typed = typed;
        match self.labels.iter().position(|l| *l == self.typed) {
            Some(i) => HintKey::Chosen(self.matches[i].clone()),
            None => HintKey::Pending,
        }
    }

    pub fn backspace(&mut self) {
        self.typed.pop();
    }

    /// The matches underlined, and each label still possible over its match's first cell.
    pub fn decorations(&self, fg: Rgb, bg: Rgb) -> (Vec<(RowSpan, Mark)>, Vec<Label>) {
        let mut marks = Vec::new();
        let mut labels = Vec::new();
        for (m, label) in self.matches.iter().zip(&self.labels) {
            let Some(rest) = label.strip_prefix(&self.typed) else {
                continue;
            };
            marks.extend(m.spans.iter().map(|&s| (s, Mark::Underline)));
            let first = m.spans[0];
            labels.push(Label {
                row: first.row,
                col: first.start,
                text: rest.to_owned(),
                fg: bg,
                bg: fg,
                underline: false,
            });
        }
        (marks, labels)
    }
}

/// Every match of `regex` on screen, top to bottom.
fn find(regex: &Regex, lines: &[Vec<RenderCell>]) -> Vec<HintMatch> {
    let mut found = Vec::new();
    for line in LogicalLine::all(lines) {
        for caps in regex.captures_iter(&line.text) {
            let whole = caps.get(0).expect("a match has group 0");
            if caps.name("hash").is_some_and(|h| !is_hash(h.as_str())) {
                continue;
            }
            let text = if caps.name("url").is_some() {
                trim_trailing(whole.as_str())
            } else {
                whole.as_str()
            };
            if text.trim().is_empty() {
                continue;
            }
            let (start, end) = line.cells_of(whole.start(), text.len());
            found.push(HintMatch {
                text: text.to_owned(),
                path: caps.name("path").is_some(),
                spans: spans(start, end, lines),
            });
            if found.len() == MAX_HINTS {
                return found;
            }
        }
    }
    found
}

/// `n` labels of equal length from `alphabet`.
fn labels(n: usize, alphabet: &str) -> Vec<String> {
    let letters: Vec<char> = alphabet.chars().collect();
    let base = letters.len().max(2);
    let mut len = 1;
    while base.pow(len) < n {
        len += 1;
    }
    (0..n)
        .map(|mut i| {
            let mut label = vec![' '; len as usize];
            for slot in label.iter_mut().rev() {
                *slot = letters[i % base];
                i /= base;
            }
            label.into_iter().collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use sluice_term::CellFlags;

    /// Rows of `cols` cells; a `true` row wraps into the next (the program's line goes on).
    fn screen(rows: &[(&str, bool)], cols: usize) -> Vec<Vec<RenderCell>> {
        rows.iter()
            .map(|&(text, wraps)| {
                let mut row: Vec<RenderCell> = text
                    .chars()
                    .chain(std::iter::repeat(' '))
                    .take(cols)
                    .map(|c| RenderCell {
                        c,
                        ..RenderCell::default()
                    })
                    .collect();
                if wraps {
                    row[cols - 1].flags |= CellFlags::WRAPLINE;
                }
                row
            })
            .collect()
    }

    fn copy_all() -> HintSet {
        sluice_config::hints::HintSets::default().sets[1].clone()
    }

    #[test]
    fn every_kind_is_found_and_a_wrapped_url_whole() {
        // 20 columns: the URL on row 1 runs on into row 2.
        let lines = screen(
            &[
                ("see /etc/hosts now", false),
                ("at https://example.", true),
                ("org/page. fin", false),
                ("3f2a9c1 10.1.2.3", false),
            ],
            19,
        );
        let hints = Hints::start(&copy_all(), "jfk", &lines).expect("matches");
        let texts: Vec<&str> = hints.matches.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "/etc/hosts",
                "https://example.org/page",
                "3f2a9c1",
                "10.1.2.3"
            ]
        );
        assert!(hints.matches[0].path && !hints.matches[1].path);
        assert_eq!(hints.matches[1].spans.len(), 2, "across two rows");
    }

    #[test]
    fn labels_are_equal_length_and_chosen_when_typed_whole() {
        assert_eq!(labels(3, "jfk"), ["j", "f", "k"]);
        assert_eq!(labels(4, "jfk"), ["jj", "jf", "jk", "fj"]);
        let lines = screen(&[("a/b c/d e/f g/h", false)], 20);
        let mut hints = Hints::start(&copy_all(), "jfk", &lines).unwrap();
        assert_eq!(hints.decorations(Rgb::default(), Rgb::default()).1.len(), 4);
        assert_eq!(hints.key(Some("x")), HintKey::Pending, "no label starts so");
        assert_eq!(hints.key(Some("j")), HintKey::Pending);
        let (_, shown) = hints.decorations(Rgb::default(), Rgb::default());
        assert_eq!(shown.len(), 3, "only the labels that go on from j");
        assert_eq!(shown[1].text, "f");
        match hints.key(Some("f")) {
            HintKey::Chosen(m) => assert_eq!(m.text, "c/d"),
            other => panic!("{other:?}"),
        }
        hints.backspace();
        hints.backspace();
        assert_eq!(hints.key(None), HintKey::Cancel);
    }
}

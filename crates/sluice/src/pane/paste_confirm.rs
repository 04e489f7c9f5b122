//! Asking before a paste that could run commands: a bar across the bottom row.
//!
//! Without bracketed paste, every line break in pasted text is an Enter, so pasting text copied
//! from a web page (or put on the clipboard by a program through OSC 52) can run commands the
//! user never saw. kitty and Ghostty ask first; so does Sluice, by default only when the paste
//! could do that (`paste.confirm = "if-unsafe"`).

use sluice_render::Label;
use sluice_term::Rgb;
use winit::keyboard::{Key, NamedKey};

/// What the user chose.
#[derive(Debug, PartialEq, Eq)]
pub enum Choice {
    Paste(String),
    Cancel,
}

/// A paste waiting for the user's answer.
#[derive(Debug)]
pub struct PasteConfirm {
    text: String,
}

impl PasteConfirm {
    pub fn new(text: String) -> Self {
        Self { text }
    }

    /// The answer a key gives, if it is one: Enter or `p` pastes the text as it is, `o` pastes
    /// it as one line, Escape or `c` cancels. Other keys are ignored while the bar is open.
    pub fn answer(&mut self, key: &Key) -> Option<Choice> {
        let choice = match key {
            Key::Named(NamedKey::Enter) => Choice::Paste(std::mem::take(&mut self.text)),
            Key::Named(NamedKey::Escape) => Choice::Cancel,
            Key::Character(c) => match c.as_str() {
                "p" => Choice::Paste(std::mem::take(&mut self.text)),
                "o" => Choice::Paste(one_line(&self.text)),
                "c" => Choice::Cancel,
                _ => return None,
            },
            _ => return None,
        };
        Some(choice)
    }

    /// The question, across the bottom row, in inverted colours like the search bar.
    pub fn label(&self, rows: usize, cols: usize, fg: Rgb, bg: Rgb) -> Label {
        let lines = self.text.lines().count().max(1);
        let controls = self
            .text
            .chars()
            .any(|c| c.is_control() && !matches!(c, '\t' | '\n' | '\r'));
        let what = match (lines, controls) {
            (1, false) => "Paste this?".to_owned(),
            (1, true) => "Paste text with control characters?".to_owned(),
            (n, false) => format!("Paste {n} lines?"),
            (n, true) => format!("Paste {n} lines with control characters?"),
        };
        let text = format!("{what}  Enter/p: paste  o: as one line  Esc/c: cancel");
        super::bar::bar(rows.saturating_sub(1), text, cols, fg, bg)
    }
}

/// `text` with its line breaks as spaces and none at the end: pasted, it runs nothing by itself.
fn one_line(text: &str) -> String {
    text.lines()
        .map(|l| l.trim_end_matches('\r'))
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_answer_the_question() {
        let key = |s: &str| Key::Character(s.into());
        let mut bar = PasteConfirm::new("echo a\necho b\n".into());
        assert_eq!(bar.answer(&key("x")), None, "other keys wait");
        assert_eq!(
            bar.answer(&key("o")),
            Some(Choice::Paste("echo a echo b".into()))
        );
        assert_eq!(
            bar.answer(&Key::Named(NamedKey::Enter)),
            Some(Choice::Paste("echo a\necho b\n".into()))
        );
        assert_eq!(
            PasteConfirm::new("x".into()).answer(&Key::Named(NamedKey::Escape)),
            Some(Choice::Cancel)
        );
    }

    #[test]
    fn the_bar_says_what_is_pasted() {
        let black = Rgb { r: 0, g: 0, b: 0 };
        let label = PasteConfirm::new("a\nb\nc".into()).label(10, 80, black, black);
        assert_eq!(label.row, 9);
        assert!(label.text.starts_with("Paste 3 lines?"), "{}", label.text);
        assert_eq!(label.text.chars().count(), 80);
        let label = PasteConfirm::new("a\x03".into()).label(10, 40, black, black);
        assert!(
            label
                .text
                .starts_with("Paste text with control characters?")
        );
    }
}

//! Vi mode's keys (Ctrl+Shift+Space, as in Alacritty): vim's motions with counts, character
//! searches, visual selections, search, yank. A small state machine (a count being typed, a
//! `g` or `f` waiting for its second key, the last `f`/`t` for `;` and `,`) that turns keys
//! into what the pane does; what each motion does to the terminal is `sluice_term::vi`'s.

use sluice_term::alacritty_terminal::selection::SelectionType;
use sluice_term::vi::{FindKind, ViCommand, ViMotion};
use winit::keyboard::{Key, NamedKey};

/// What a key in vi mode asks the pane for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ViAction {
    /// Taken (a count digit, the first key of `gg` or `f x`, or a key with no meaning).
    None,
    Command(ViCommand),
    /// `y`: copy the selection to the clipboard (and the primary selection), end it.
    Yank,
    /// `i`: leave vi mode.
    Exit,
    /// Escape: end the selection, or leave vi mode when there is none.
    Escape,
    /// `/` (down) or `?` (up): open the search bar; Enter puts the cursor on the match.
    Search {
        forward: bool,
    },
    /// `n` (the same way as the last search) or `N` (the other way).
    SearchAgain {
        reverse: bool,
    },
    /// `o`: open the link under the cursor.
    OpenLink,
}

/// A key waiting for the next one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Pending {
    #[default]
    Nothing,
    /// `g`, waiting for `g`.
    G,
    /// `f`, `F`, `t` or `T`, waiting for the character.
    Find(FindKind),
}

#[derive(Debug, Default)]
pub struct ViKeys {
    count: Option<usize>,
    pending: Pending,
    last_find: Option<(FindKind, char)>,
}

/// The largest count kept: more is typing, not a count (and a count runs a motion that often).
const MAX_COUNT: usize = 9_999;

impl ViKeys {
    /// What `key` (with `ctrl` held) does in a view of `rows` rows.
    pub fn key(&mut self, key: &Key, ctrl: bool, rows: usize) -> ViAction {
        // Shift on its way to `(` or `F` is a key too: it must not cancel an `f` or a count.
        if let Key::Named(named) = key
            && is_modifier(*named)
        {
            return ViAction::None;
        }
        let pending = std::mem::take(&mut self.pending);
        let c = match key {
            Key::Character(s) => s.chars().next(),
            _ => None,
        };
        if let (Pending::Find(kind), Some(c)) = (pending, c) {
            self.last_find = Some((kind, c));
            return self.command(ViCommand::Find(kind, c, self.count.unwrap_or(1)));
        }
        if let Key::Named(named) = key {
            return self.named(*named);
        }
        let Some(c) = c else {
            return ViAction::None;
        };
        if ctrl {
            let half = (rows / 2).max(1) as i32;
            let page = rows.max(1) as i32;
            let lines = match c.to_ascii_lowercase() {
                'u' => half,
                'd' => -half,
                'b' => page,
                'f' => -page,
                'v' => return self.command(ViCommand::Select(SelectionType::Block)),
                _ => return ViAction::None,
            };
            let count = self.count.take().unwrap_or(1) as i32;
            return self.command(ViCommand::Scroll(lines * count));
        }
        if let Some(digit) = c.to_digit(10)
            && (digit != 0 || self.count.is_some())
        {
            let count = self.count.unwrap_or(0) * 10 + digit as usize;
            self.count = Some(count.min(MAX_COUNT));
            return ViAction::None;
        }
        self.character(c, pending)
    }

    fn named(&mut self, key: NamedKey) -> ViAction {
        let motion = match key {
            NamedKey::Escape => {
                self.count = None;
                return ViAction::Escape;
            }
            NamedKey::ArrowLeft => ViMotion::Left,
            NamedKey::ArrowRight => ViMotion::Right,
            NamedKey::ArrowUp => ViMotion::Up,
            NamedKey::ArrowDown => ViMotion::Down,
            NamedKey::Home => ViMotion::First,
            NamedKey::End => ViMotion::Last,
            _ => return ViAction::None,
        };
        self.motion(motion)
    }

    fn character(&mut self, c: char, pending: Pending) -> ViAction {
        let motion = match c {
            'h' => ViMotion::Left,
            'j' => ViMotion::Down,
            'k' => ViMotion::Up,
            'l' | ' ' => ViMotion::Right,
            'w' => ViMotion::SemanticRight,
            'b' => ViMotion::SemanticLeft,
            'e' => ViMotion::SemanticRightEnd,
            'W' => ViMotion::WordRight,
            'B' => ViMotion::WordLeft,
            'E' => ViMotion::WordRightEnd,
            '0' => ViMotion::First,
            '^' => ViMotion::FirstOccupied,
            '$' => ViMotion::Last,
            'H' => ViMotion::High,
            'M' => ViMotion::Middle,
            'L' => ViMotion::Low,
            '{' => ViMotion::ParagraphUp,
            '}' => ViMotion::ParagraphDown,
            '%' => ViMotion::Bracket,
            'g' if pending == Pending::G => {
                let line = self.count.take();
                return self.command(ViCommand::Top(line));
            }
            'g' => {
                self.pending = Pending::G;
                return ViAction::None;
            }
            'G' => {
                let line = self.count.take();
                return self.command(ViCommand::Bottom(line));
            }
            'f' | 'F' | 't' | 'T' => {
                self.pending = Pending::Find(match c {
                    'f' => FindKind::To,
                    'F' => FindKind::BackTo,
                    't' => FindKind::Till,
                    _ => FindKind::BackTill,
                });
                return ViAction::None;
            }
            ';' | ',' => {
                let Some((kind, target)) = self.last_find else {
                    return self.plain(ViAction::None);
                };
                let kind = if c == ',' { kind.reversed() } else { kind };
                let count = self.count.take().unwrap_or(1);
                return self.command(ViCommand::Find(kind, target, count));
            }
            'v' => return self.command(ViCommand::Select(SelectionType::Simple)),
            'V' => return self.command(ViCommand::Select(SelectionType::Lines)),
            'y' => return self.plain(ViAction::Yank),
            'i' | 'q' => return self.plain(ViAction::Exit),
            '/' => return self.plain(ViAction::Search { forward: true }),
            '?' => return self.plain(ViAction::Search { forward: false }),
            'n' => return self.plain(ViAction::SearchAgain { reverse: false }),
            'N' => return self.plain(ViAction::SearchAgain { reverse: true }),
            'o' => return self.plain(ViAction::OpenLink),
            _ => return self.plain(ViAction::None),
        };
        self.motion(motion)
    }

    fn motion(&mut self, motion: ViMotion) -> ViAction {
        let count = self.count.take().unwrap_or(1);
        ViAction::Command(ViCommand::Motion(motion, count))
    }

    fn command(&mut self, command: ViCommand) -> ViAction {
        self.count = None;
        ViAction::Command(command)
    }

    fn plain(&mut self, action: ViAction) -> ViAction {
        self.count = None;
        action
    }
}

fn is_modifier(key: NamedKey) -> bool {
    use NamedKey::*;
    matches!(
        key,
        Shift | Control | Alt | AltGraph | Super | Meta | Hyper | CapsLock | NumLock | Fn
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ch(s: &str) -> Key {
        Key::Character(s.into())
    }

    /// The actions a sequence of plain keys gives, the ones that only wait left out.
    fn keys(typed: &str) -> Vec<ViAction> {
        let mut vi = ViKeys::default();
        typed
            .chars()
            .map(|c| vi.key(&ch(&c.to_string()), false, 24))
            .filter(|a| *a != ViAction::None)
            .collect()
    }

    fn motion(m: ViMotion, count: usize) -> ViAction {
        ViAction::Command(ViCommand::Motion(m, count))
    }

    #[test]
    fn motions_take_counts() {
        use ViMotion::*;
        assert_eq!(keys("j"), [motion(Down, 1)]);
        assert_eq!(keys("3j"), [motion(Down, 3)]);
        assert_eq!(keys("12l"), [motion(Right, 12)]);
        assert_eq!(
            keys("10w"),
            [motion(SemanticRight, 10)],
            "0 after a digit counts"
        );
        assert_eq!(keys("0"), [motion(First, 1)], "0 alone is the line's start");
        assert_eq!(
            keys("2kj"),
            [motion(Up, 2), motion(Down, 1)],
            "a count is used once"
        );
        assert_eq!(keys("99999999j"), [motion(Down, MAX_COUNT)]);
        let table = [
            ("h", Left),
            ("k", Up),
            ("b", SemanticLeft),
            ("e", SemanticRightEnd),
            ("W", WordRight),
            ("B", WordLeft),
            ("E", WordRightEnd),
            ("^", FirstOccupied),
            ("$", Last),
            ("H", High),
            ("M", Middle),
            ("L", Low),
            ("{", ParagraphUp),
            ("}", ParagraphDown),
            ("%", Bracket),
        ];
        for (key, m) in table {
            assert_eq!(keys(key), [motion(m, 1)], "{key}");
        }
    }

    #[test]
    fn two_key_commands_wait_for_their_second() {
        use ViCommand::*;
        assert_eq!(keys("gg"), [ViAction::Command(Top(None))]);
        assert_eq!(keys("5gg"), [ViAction::Command(Top(Some(5)))]);
        assert_eq!(keys("G"), [ViAction::Command(Bottom(None))]);
        assert_eq!(keys("fx"), [ViAction::Command(Find(FindKind::To, 'x', 1))]);
        assert_eq!(
            keys("2t;"),
            [ViAction::Command(Find(FindKind::Till, ';', 2))],
            "the character after t is the target, even ;"
        );
        assert_eq!(
            keys("Fa;,"),
            [
                ViAction::Command(Find(FindKind::BackTo, 'a', 1)),
                ViAction::Command(Find(FindKind::BackTo, 'a', 1)),
                ViAction::Command(Find(FindKind::To, 'a', 1)),
            ]
        );
        assert_eq!(keys(";"), [], "nothing to repeat yet");
        let mut vi = ViKeys::default();
        vi.key(&ch("f"), false, 24);
        vi.key(&Key::Named(NamedKey::Shift), false, 24);
        assert_eq!(
            vi.key(&ch("("), false, 24),
            ViAction::Command(Find(FindKind::To, '(', 1)),
            "Shift on the way to ( is not the target"
        );
        assert_eq!(
            keys("gj"),
            [motion(ViMotion::Down, 1)],
            "g then another key: that key"
        );
    }

    #[test]
    fn selections_searches_and_leaving() {
        use ViCommand::Select;
        assert_eq!(
            keys("v"),
            [ViAction::Command(Select(SelectionType::Simple))]
        );
        assert_eq!(keys("V"), [ViAction::Command(Select(SelectionType::Lines))]);
        let mut vi = ViKeys::default();
        assert_eq!(
            vi.key(&ch("v"), true, 24),
            ViAction::Command(Select(SelectionType::Block))
        );
        assert_eq!(
            vi.key(&ch("d"), true, 24),
            ViAction::Command(ViCommand::Scroll(-12))
        );
        assert_eq!(vi.key(&ch("2"), false, 24), ViAction::None);
        assert_eq!(
            vi.key(&ch("b"), true, 24),
            ViAction::Command(ViCommand::Scroll(48))
        );
        assert_eq!(keys("y"), [ViAction::Yank]);
        assert_eq!(keys("i"), [ViAction::Exit]);
        assert_eq!(keys("/"), [ViAction::Search { forward: true }]);
        assert_eq!(keys("?"), [ViAction::Search { forward: false }]);
        assert_eq!(
            keys("nN"),
            [
                ViAction::SearchAgain { reverse: false },
                ViAction::SearchAgain { reverse: true }
            ]
        );
        assert_eq!(keys("o"), [ViAction::OpenLink]);
        assert_eq!(
            vi.key(&Key::Named(NamedKey::Escape), false, 24),
            ViAction::Escape
        );
        assert_eq!(
            vi.key(&Key::Named(NamedKey::ArrowUp), false, 24),
            motion(ViMotion::Up, 1)
        );
    }
}

//! Key presses to bytes: xterm's encoding, and the kitty keyboard protocol when a program
//! asks for it.
//!
//! Legacy (xterm) encoding, as xterm's ctlseqs documents it and Alacritty, kitty and Ghostty
//! send it by default:
//! - text as UTF-8; Alt is Meta, an ESC prefix; Ctrl folds letters and the usual symbols to
//!   C0 controls (Ctrl+Space and Ctrl+2 to NUL, Ctrl+[ to ESC, Ctrl+/ to US, Ctrl+8 to DEL);
//! - cursor keys as `CSI X`, `SS3 X` in application cursor mode, `CSI 1;m X` with modifiers,
//!   where m is 1 + Shift(1) + Alt(2) + Ctrl(4) + Super(8);
//! - editing and function keys as `CSI n ~` and `CSI n;m ~`, F1 to F4 as `SS3 P` to `SS3 S`;
//! - the keypad as text, or `SS3 p` to `SS3 y` and friends in application keypad mode.
//!
//! Super with a text key sends nothing in legacy mode: such combinations are the desktop's and
//! the application's shortcuts, and typing the letter into the shell would surprise.
//!
//! The kitty protocol (<https://sw.kovidgoyal.net/kitty/keyboard-protocol/>) is driven by the
//! flags a program pushes with `CSI > flags u`; alacritty_terminal tracks them in [`TermMode`].

use alacritty_terminal::term::TermMode;

/// Modifier keys held.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct Mods {
    pub shift: bool,
    pub alt: bool,
    pub ctrl: bool,
    pub super_key: bool,
}

impl Mods {
    pub const NONE: Mods = Mods {
        shift: false,
        alt: false,
        ctrl: false,
        super_key: false,
    };

    /// The modifier parameter xterm and kitty share: 1 + Shift + 2 Alt + 4 Ctrl + 8 Super.
    pub fn param(self) -> u8 {
        1 + self.shift as u8 + 2 * self.alt as u8 + 4 * self.ctrl as u8 + 8 * self.super_key as u8
    }

    pub fn is_empty(self) -> bool {
        self == Mods::NONE
    }
}

/// Keys with a name rather than a character.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum Named {
    Enter,
    Tab,
    Backspace,
    Escape,
    Up,
    Down,
    Left,
    Right,
    Home,
    End,
    Insert,
    Delete,
    PageUp,
    PageDown,
    /// F1 to F35.
    F(u8),
    CapsLock,
    ScrollLock,
    NumLock,
    PrintScreen,
    Pause,
    Menu,
}

/// Keys on the numeric keypad (with Num Lock on; without it they are [`Named`] keys).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum Keypad {
    Digit(u8),
    Decimal,
    Divide,
    Multiply,
    Subtract,
    Add,
    Enter,
    Equal,
}

/// The modifier keys themselves, which only the kitty protocol reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum Modifier {
    LeftShift,
    LeftCtrl,
    LeftAlt,
    LeftSuper,
    RightShift,
    RightCtrl,
    RightAlt,
    RightSuper,
}

/// A key, as the layout names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum Key {
    /// A key that types a character: the character it types without modifiers ('a' for
    /// Shift+A, '1' for Shift+1).
    Char(char),
    Named(Named),
    Keypad(Keypad),
    Modifier(Modifier),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum KeyAction {
    #[default]
    Press,
    Repeat,
    Release,
}

/// One key event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyPress<'a> {
    pub key: Key,
    /// The text the key types with Shift (and the layout's other levels) applied, if any.
    pub text: Option<&'a str>,
    pub mods: Mods,
    pub action: KeyAction,
}

/// The bytes a key event sends to the program, or `None` when it sends nothing.
pub fn encode_key(press: &KeyPress<'_>, modes: TermMode) -> Option<Vec<u8>> {
    let bytes = if modes.intersects(TermMode::KITTY_KEYBOARD_PROTOCOL) {
        kitty::encode(press, modes)
    } else if press.action == KeyAction::Release {
        None
    } else {
        legacy::encode(press, modes)
    };
    // A key whose text is empty (the fuzz target found Shift+Super+keypad '=' with text ""
    // in application keypad mode) sends nothing, and says so.
    bytes.filter(|b| !b.is_empty())
}

/// How a functional key is written in xterm's encoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Functional {
    /// `CSI X`, `SS3 X` or `CSI 1;m X`. `ss3` says whether the unmodified key uses SS3
    /// always (F1 to F4) or only in application cursor mode (false: arrows, Home, End).
    Letter { letter: u8, ss3: bool },
    /// `CSI n ~` or `CSI n;m ~`.
    Tilde(u8),
}

/// The xterm encoding of a named key other than Enter, Tab, Backspace and Escape.
fn functional(named: Named) -> Option<Functional> {
    use Functional::{Letter, Tilde};
    let cursor = |letter| Some(Letter { letter, ss3: false });
    let pf = |letter| Some(Letter { letter, ss3: true });
    match named {
        Named::Up => cursor(b'A'),
        Named::Down => cursor(b'B'),
        Named::Right => cursor(b'C'),
        Named::Left => cursor(b'D'),
        Named::Home => cursor(b'H'),
        Named::End => cursor(b'F'),
        Named::F(1) => pf(b'P'),
        Named::F(2) => pf(b'Q'),
        Named::F(3) => pf(b'R'),
        Named::F(4) => pf(b'S'),
        Named::Insert => Some(Tilde(2)),
        Named::Delete => Some(Tilde(3)),
        Named::PageUp => Some(Tilde(5)),
        Named::PageDown => Some(Tilde(6)),
        Named::F(n @ 5..=20) => {
            // The VT220 numbering xterm keeps, with its gaps (16, 22, 27, 30).
            const CODES: [u8; 16] = [
                15, 17, 18, 19, 20, 21, 23, 24, 25, 26, 28, 29, 31, 32, 33, 34,
            ];
            Some(Tilde(CODES[n as usize - 5]))
        }
        _ => None,
    }
}

mod legacy {
    use super::*;

    pub(super) fn encode(press: &KeyPress<'_>, modes: TermMode) -> Option<Vec<u8>> {
        let mods = press.mods;
        let alt_prefixed = |bytes: &[u8]| {
            let mut out = Vec::with_capacity(bytes.len() + 1);
            if mods.alt {
                out.push(0x1b);
            }
            out.extend_from_slice(bytes);
            out
        };
        match press.key {
            Key::Named(Named::Enter) if modes.contains(TermMode::LINE_FEED_NEW_LINE) => {
                Some(alt_prefixed(b"\r\n"))
            }
            Key::Named(Named::Enter) => Some(alt_prefixed(b"\r")),
            Key::Named(Named::Tab) if mods.shift => Some(b"\x1b[Z".to_vec()),
            Key::Named(Named::Tab) => Some(alt_prefixed(b"\t")),
            Key::Named(Named::Backspace) if mods.ctrl => Some(alt_prefixed(b"\x08")),
            Key::Named(Named::Backspace) => Some(alt_prefixed(b"\x7f")),
            Key::Named(Named::Escape) => Some(alt_prefixed(b"\x1b")),
            Key::Named(named) => functional(named).map(|f| write_functional(f, mods, modes)),
            Key::Keypad(key) => Some(keypad(key, press.text, mods, modes)),
            Key::Modifier(_) => None,
            Key::Char(_) if mods.super_key => None,
            Key::Char(c) => {
                if mods.ctrl
                    && let Some(control) = control_byte(c)
                {
                    return Some(alt_prefixed(&[control]));
                }
                let mut buf = [0; 4];
                let text = match press.text {
                    Some(text) if !text.is_empty() => text,
                    _ => c.encode_utf8(&mut buf),
                };
                Some(alt_prefixed(text.as_bytes()))
            }
        }
    }

    pub(super) fn write_functional(f: Functional, mods: Mods, modes: TermMode) -> Vec<u8> {
        let m = mods.param();
        match f {
            Functional::Letter { letter, .. } if m > 1 => {
                format!("\x1b[1;{m}{}", letter as char).into_bytes()
            }
            Functional::Letter { letter, ss3 } if ss3 || modes.contains(TermMode::APP_CURSOR) => {
                vec![0x1b, b'O', letter]
            }
            Functional::Letter { letter, .. } => vec![0x1b, b'[', letter],
            Functional::Tilde(n) if m > 1 => format!("\x1b[{n};{m}~").into_bytes(),
            Functional::Tilde(n) => format!("\x1b[{n}~").into_bytes(),
        }
    }

    /// The keypad: text normally; `SS3` codes in application keypad mode (DECKPAM).
    fn keypad(key: Keypad, text: Option<&str>, mods: Mods, modes: TermMode) -> Vec<u8> {
        if modes.contains(TermMode::APP_KEYPAD) && mods.is_empty() {
            let code = match key {
                Keypad::Digit(d) => b'p' + d.min(9),
                Keypad::Decimal => b'n',
                Keypad::Divide => b'o',
                Keypad::Multiply => b'j',
                Keypad::Subtract => b'm',
                Keypad::Add => b'k',
                Keypad::Enter => b'M',
                Keypad::Equal => b'X',
            };
            return vec![0x1b, b'O', code];
        }
        match key {
            Keypad::Enter => b"\r".to_vec(),
            _ => text
                .map(|t| t.as_bytes().to_vec())
                .unwrap_or_else(|| vec![keypad_char(key)]),
        }
    }

    fn keypad_char(key: Keypad) -> u8 {
        match key {
            Keypad::Digit(d) => b'0' + d.min(9),
            Keypad::Decimal => b'.',
            Keypad::Divide => b'/',
            Keypad::Multiply => b'*',
            Keypad::Subtract => b'-',
            Keypad::Add => b'+',
            Keypad::Enter => b'\r',
            Keypad::Equal => b'=',
        }
    }

    /// What Ctrl makes of a key, as xterm and the VT220 before it do.
    pub(super) fn control_byte(c: char) -> Option<u8> {
        Some(match c.to_ascii_lowercase() {
            c @ 'a'..='z' => c as u8 - b'a' + 1,
            '@' | ' ' | '2' => 0,
            '[' | '3' => 0x1b,
            '\\' | '4' => 0x1c,
            ']' | '5' => 0x1d,
            '^' | '~' | '6' => 0x1e,
            '_' | '/' | '-' | '7' => 0x1f,
            '?' | '8' => 0x7f,
            _ => return None,
        })
    }
}

mod kitty {
    use super::*;

    /// Kitty's key codes for keys without a Unicode code point.
    fn private_code(key: Key) -> Option<u32> {
        Some(match key {
            Key::Named(Named::CapsLock) => 57358,
            Key::Named(Named::ScrollLock) => 57359,
            Key::Named(Named::NumLock) => 57360,
            Key::Named(Named::PrintScreen) => 57361,
            Key::Named(Named::Pause) => 57362,
            Key::Named(Named::Menu) => 57363,
            Key::Named(Named::F(n @ 13..=35)) => 57376 + (n as u32 - 13),
            Key::Keypad(Keypad::Digit(d)) => 57399 + d.min(9) as u32,
            Key::Keypad(Keypad::Decimal) => 57409,
            Key::Keypad(Keypad::Divide) => 57410,
            Key::Keypad(Keypad::Multiply) => 57411,
            Key::Keypad(Keypad::Subtract) => 57412,
            Key::Keypad(Keypad::Add) => 57413,
            Key::Keypad(Keypad::Enter) => 57414,
            Key::Keypad(Keypad::Equal) => 57415,
            Key::Modifier(Modifier::LeftShift) => 57441,
            Key::Modifier(Modifier::LeftCtrl) => 57442,
            Key::Modifier(Modifier::LeftAlt) => 57443,
            Key::Modifier(Modifier::LeftSuper) => 57444,
            Key::Modifier(Modifier::RightShift) => 57447,
            Key::Modifier(Modifier::RightCtrl) => 57448,
            Key::Modifier(Modifier::RightAlt) => 57449,
            Key::Modifier(Modifier::RightSuper) => 57450,
            _ => return None,
        })
    }

    /// The `:event` suffix of the modifier field, when event types are reported.
    fn event_suffix(action: KeyAction, modes: TermMode) -> &'static str {
        match action {
            _ if !modes.contains(TermMode::REPORT_EVENT_TYPES) => "",
            KeyAction::Press => "",
            KeyAction::Repeat => ":2",
            KeyAction::Release => ":3",
        }
    }

    pub(super) fn encode(press: &KeyPress<'_>, modes: TermMode) -> Option<Vec<u8>> {
        let report_all = modes.contains(TermMode::REPORT_ALL_KEYS_AS_ESC);
        let mods = press.mods;
        let release = press.action == KeyAction::Release;
        if release && !modes.contains(TermMode::REPORT_EVENT_TYPES) {
            return None;
        }
        let text = press.text.filter(|t| t.chars().all(|c| !c.is_control()));

        // Keys that keep their legacy bytes so that a shell stays usable if a program dies
        // without popping its flags: text typed with at most Shift, and unmodified Enter, Tab
        // and Backspace. Their release is not reported.
        if !report_all {
            let plain_text = matches!(press.key, Key::Char(_))
                && !(mods.ctrl || mods.alt || mods.super_key)
                && text.is_some();
            let plain_control = matches!(
                press.key,
                Key::Named(Named::Enter | Named::Tab | Named::Backspace)
            ) && mods.is_empty();
            if plain_text || plain_control {
                return if release {
                    None
                } else {
                    legacy::encode(press, modes)
                };
            }
        }

        let m = mods.param();
        let suffix = event_suffix(press.action, modes);
        let code = match press.key {
            Key::Named(Named::F(3)) => {
                // CSI R is a cursor position report; kitty moved F3 to 13 ~.
                return Some(tilde(13, m, suffix));
            }
            // Kitty gives F13 and above private code points instead of xterm's numbers.
            Key::Named(Named::F(13..)) => private_code(press.key)?,
            Key::Named(named) if functional(named).is_some() => {
                let f = functional(named)?;
                return Some(match f {
                    Functional::Tilde(n) => tilde(n, m, suffix),
                    Functional::Letter { letter, .. } if m > 1 || !suffix.is_empty() => {
                        format!("\x1b[1;{m}{suffix}{}", letter as char).into_bytes()
                    }
                    Functional::Letter { .. } => legacy::write_functional(f, mods, modes),
                });
            }
            Key::Named(Named::Enter) => 13,
            Key::Named(Named::Tab) => 9,
            Key::Named(Named::Backspace) => 127,
            Key::Named(Named::Escape) => 27,
            Key::Modifier(_) if !report_all => return None,
            Key::Char(c) => c.to_lowercase().next().unwrap_or(c) as u32,
            key => private_code(key)?,
        };

        let mut out = format!("\x1b[{code}");
        if modes.contains(TermMode::REPORT_ALTERNATE_KEYS)
            && mods.shift
            && let Some(shifted) = text.and_then(single_char)
            && shifted as u32 != code
        {
            out.push_str(&format!(":{}", shifted as u32));
        }
        let associated = text
            .filter(|_| report_all && !release && modes.contains(TermMode::REPORT_ASSOCIATED_TEXT));
        if m > 1 || !suffix.is_empty() || associated.is_some() {
            out.push_str(&format!(";{m}{suffix}"));
        }
        if let Some(text) = associated {
            let points: Vec<String> = text.chars().map(|c| (c as u32).to_string()).collect();
            out.push(';');
            out.push_str(&points.join(":"));
        }
        out.push('u');
        Some(out.into_bytes())
    }

    fn tilde(n: u8, m: u8, suffix: &str) -> Vec<u8> {
        if m > 1 || !suffix.is_empty() {
            format!("\x1b[{n};{m}{suffix}~").into_bytes()
        } else {
            format!("\x1b[{n}~").into_bytes()
        }
    }

    fn single_char(text: &str) -> Option<char> {
        let mut chars = text.chars();
        let c = chars.next()?;
        chars.next().is_none().then_some(c)
    }
}

#[cfg(test)]
mod tests;

//! Keyboard input to bytes for the program: the common xterm encodings.
//!
//! This covers what a shell and the usual TUIs need (text, Ctrl and Alt combinations, arrows
//! in normal and application cursor mode, editing and function keys). The full xterm modifier
//! matrix and the kitty keyboard protocol come with the keyboard work.

use sluice_term::SnapshotModes;
use winit::event::KeyEvent;
use winit::keyboard::{Key, ModifiersState, NamedKey};
use winit::platform::modifier_supplement::KeyEventExtModifierSupplement;

/// xterm's modifier parameter: 1 + Shift(1) + Alt(2) + Ctrl(4).
fn modifier_param(mods: ModifiersState) -> u8 {
    1 + mods.shift_key() as u8 + 2 * mods.alt_key() as u8 + 4 * mods.control_key() as u8
}

/// `CSI 1 ; m X` with modifiers, else `SS3 X` in application mode, else `CSI X`.
fn cursor_key(letter: char, mods: ModifiersState, app_cursor: bool) -> Vec<u8> {
    let m = modifier_param(mods);
    if m > 1 {
        format!("\x1b[1;{m}{letter}").into_bytes()
    } else if app_cursor {
        format!("\x1bO{letter}").into_bytes()
    } else {
        format!("\x1b[{letter}").into_bytes()
    }
}

/// `CSI n ~` with modifiers as `CSI n ; m ~`.
fn tilde_key(n: u8, mods: ModifiersState) -> Vec<u8> {
    let m = modifier_param(mods);
    if m > 1 {
        format!("\x1b[{n};{m}~").into_bytes()
    } else {
        format!("\x1b[{n}~").into_bytes()
    }
}

/// The bytes a key press sends, or `None` when it sends nothing.
pub fn encode(event: &KeyEvent, mods: ModifiersState, modes: SnapshotModes) -> Option<Vec<u8>> {
    let app_cursor = modes.contains(SnapshotModes::APP_CURSOR);
    let bytes = match &event.logical_key {
        Key::Named(named) => match named {
            NamedKey::Enter => b"\r".to_vec(),
            NamedKey::Backspace if mods.control_key() => b"\x08".to_vec(),
            NamedKey::Backspace => b"\x7f".to_vec(),
            NamedKey::Tab if mods.shift_key() => b"\x1b[Z".to_vec(),
            NamedKey::Tab => b"\t".to_vec(),
            NamedKey::Escape => b"\x1b".to_vec(),
            NamedKey::ArrowUp => cursor_key('A', mods, app_cursor),
            NamedKey::ArrowDown => cursor_key('B', mods, app_cursor),
            NamedKey::ArrowRight => cursor_key('C', mods, app_cursor),
            NamedKey::ArrowLeft => cursor_key('D', mods, app_cursor),
            NamedKey::Home => cursor_key('H', mods, app_cursor),
            NamedKey::End => cursor_key('F', mods, app_cursor),
            NamedKey::Insert => tilde_key(2, mods),
            NamedKey::Delete => tilde_key(3, mods),
            NamedKey::PageUp => tilde_key(5, mods),
            NamedKey::PageDown => tilde_key(6, mods),
            NamedKey::F1 => cursor_key('P', mods, true),
            NamedKey::F2 => cursor_key('Q', mods, true),
            NamedKey::F3 => cursor_key('R', mods, true),
            NamedKey::F4 => cursor_key('S', mods, true),
            NamedKey::F5 => tilde_key(15, mods),
            NamedKey::F6 => tilde_key(17, mods),
            NamedKey::F7 => tilde_key(18, mods),
            NamedKey::F8 => tilde_key(19, mods),
            NamedKey::F9 => tilde_key(20, mods),
            NamedKey::F10 => tilde_key(21, mods),
            NamedKey::F11 => tilde_key(23, mods),
            NamedKey::F12 => tilde_key(24, mods),
            NamedKey::Space if mods.control_key() => vec![0],
            _ => text(event, mods)?,
        },
        _ => text(event, mods)?,
    };
    Some(bytes)
}

/// Text keys: Ctrl folds letters to control characters; Alt is Meta, an ESC prefix.
fn text(event: &KeyEvent, mods: ModifiersState) -> Option<Vec<u8>> {
    let text = event.text_with_all_modifiers()?;
    if text.is_empty() {
        return None;
    }
    let mut bytes = Vec::with_capacity(text.len() + 1);
    if mods.alt_key() {
        bytes.push(0x1b);
    }
    bytes.extend_from_slice(text.as_bytes());
    Some(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursor_keys_follow_xterm() {
        let none = ModifiersState::empty();
        assert_eq!(cursor_key('A', none, false), b"\x1b[A");
        assert_eq!(cursor_key('A', none, true), b"\x1bOA");
        assert_eq!(
            cursor_key('C', ModifiersState::CONTROL, false),
            b"\x1b[1;5C"
        );
        assert_eq!(
            cursor_key('D', ModifiersState::SHIFT | ModifiersState::ALT, true),
            b"\x1b[1;4D"
        );
        assert_eq!(tilde_key(3, none), b"\x1b[3~");
        assert_eq!(tilde_key(5, ModifiersState::SHIFT), b"\x1b[5;2~");
    }
}

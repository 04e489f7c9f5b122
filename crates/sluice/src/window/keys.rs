//! winit's key events as `sluice_term::input` key presses. The encoding itself (xterm and
//! kitty) lives in `sluice_term::input::keyboard`, where it is tested table-wise.

use sluice_term::input::{Key, KeyAction, KeyPress, Keypad, Modifier, Mods, Named};
use winit::event::{ElementState, KeyEvent};
use winit::keyboard::{self, KeyLocation, ModifiersState, NamedKey};
use winit::platform::modifier_supplement::KeyEventExtModifierSupplement;

/// What the input code needs of a key event, as plain data: winit's `KeyEvent` cannot be
/// built outside winit, this can, so key handling is tested without a window.
#[derive(Debug, Clone, PartialEq)]
pub struct KeyInput {
    /// The key as the layout and modifiers make it (what search and the paste bar read).
    pub logical_key: keyboard::Key,
    /// The key as the layout makes it without modifiers (what bindings and encoding read).
    pub key_without_modifiers: keyboard::Key,
    pub text: Option<String>,
    pub location: KeyLocation,
    pub state: ElementState,
    pub repeat: bool,
}

impl KeyInput {
    pub fn from_event(event: &KeyEvent) -> Self {
        Self {
            logical_key: event.logical_key.clone(),
            key_without_modifiers: event.key_without_modifiers(),
            text: event.text.as_ref().map(|t| t.to_string()),
            location: event.location,
            state: event.state,
            repeat: event.repeat,
        }
    }

    pub fn pressed(&self) -> bool {
        self.state == ElementState::Pressed
    }
}

pub fn mods(state: ModifiersState) -> Mods {
    Mods {
        shift: state.shift_key(),
        alt: state.alt_key(),
        ctrl: state.control_key(),
        super_key: state.super_key(),
    }
}

/// The key press `event` describes, or `None` for keys the encoder has no name for.
pub fn key_press(event: &KeyInput, state: ModifiersState) -> Option<KeyPress<'_>> {
    let numpad = event.location == KeyLocation::Numpad;
    let right = event.location == KeyLocation::Right;
    let key = match event.key_without_modifiers.clone() {
        keyboard::Key::Character(s) => {
            let mut chars = s.chars();
            let c = chars.next()?;
            if chars.next().is_some() {
                // A dead key or a layout that types several characters: send the text.
                return text_only(event, state);
            }
            if numpad { keypad(c)? } else { Key::Char(c) }
        }
        keyboard::Key::Named(named) => match named_key(named, numpad, right) {
            Some(key) => key,
            None => return text_only(event, state),
        },
        _ => return text_only(event, state),
    };
    Some(KeyPress {
        key,
        text: text(event),
        mods: mods(state),
        action: action(event),
    })
}

fn action(event: &KeyInput) -> KeyAction {
    match (event.state, event.repeat) {
        (ElementState::Released, _) => KeyAction::Release,
        (ElementState::Pressed, true) => KeyAction::Repeat,
        (ElementState::Pressed, false) => KeyAction::Press,
    }
}

/// The text the key types, without control characters (Ctrl's folding is the encoder's).
fn text(event: &KeyInput) -> Option<&str> {
    event
        .text
        .as_deref()
        .filter(|t| !t.is_empty() && !t.chars().any(char::is_control))
}

/// A key winit cannot name but that types text (compose results, dead keys, IME-less
/// input methods): sent as the text it types.
fn text_only(event: &KeyInput, state: ModifiersState) -> Option<KeyPress<'_>> {
    let text = text(event)?;
    Some(KeyPress {
        key: Key::Char(text.chars().next()?),
        text: Some(text),
        mods: mods(state),
        action: action(event),
    })
}

fn keypad(c: char) -> Option<Key> {
    Some(Key::Keypad(match c {
        '0'..='9' => Keypad::Digit(c as u8 - b'0'),
        '.' | ',' => Keypad::Decimal,
        '/' => Keypad::Divide,
        '*' => Keypad::Multiply,
        '-' => Keypad::Subtract,
        '+' => Keypad::Add,
        '=' => Keypad::Equal,
        _ => return None,
    }))
}

fn named_key(named: NamedKey, numpad: bool, right: bool) -> Option<Key> {
    let side = |left, right_key| Key::Modifier(if right { right_key } else { left });
    Some(match named {
        NamedKey::Enter if numpad => Key::Keypad(Keypad::Enter),
        NamedKey::Space => Key::Char(' '),
        NamedKey::Enter => Key::Named(Named::Enter),
        NamedKey::Tab => Key::Named(Named::Tab),
        NamedKey::Backspace => Key::Named(Named::Backspace),
        NamedKey::Escape => Key::Named(Named::Escape),
        NamedKey::ArrowUp => Key::Named(Named::Up),
        NamedKey::ArrowDown => Key::Named(Named::Down),
        NamedKey::ArrowLeft => Key::Named(Named::Left),
        NamedKey::ArrowRight => Key::Named(Named::Right),
        NamedKey::Home => Key::Named(Named::Home),
        NamedKey::End => Key::Named(Named::End),
        NamedKey::Insert => Key::Named(Named::Insert),
        NamedKey::Delete => Key::Named(Named::Delete),
        NamedKey::PageUp => Key::Named(Named::PageUp),
        NamedKey::PageDown => Key::Named(Named::PageDown),
        NamedKey::CapsLock => Key::Named(Named::CapsLock),
        NamedKey::ScrollLock => Key::Named(Named::ScrollLock),
        NamedKey::NumLock => Key::Named(Named::NumLock),
        NamedKey::PrintScreen => Key::Named(Named::PrintScreen),
        NamedKey::Pause => Key::Named(Named::Pause),
        NamedKey::ContextMenu => Key::Named(Named::Menu),
        NamedKey::Shift => side(Modifier::LeftShift, Modifier::RightShift),
        NamedKey::Control => side(Modifier::LeftCtrl, Modifier::RightCtrl),
        NamedKey::Alt => side(Modifier::LeftAlt, Modifier::RightAlt),
        NamedKey::Super | NamedKey::Meta => side(Modifier::LeftSuper, Modifier::RightSuper),
        other => Key::Named(Named::F(function_number(other)?)),
    })
}

fn function_number(named: NamedKey) -> Option<u8> {
    use NamedKey::*;
    const KEYS: [NamedKey; 35] = [
        F1, F2, F3, F4, F5, F6, F7, F8, F9, F10, F11, F12, F13, F14, F15, F16, F17, F18, F19, F20,
        F21, F22, F23, F24, F25, F26, F27, F28, F29, F30, F31, F32, F33, F34, F35,
    ];
    KEYS.iter().position(|&k| k == named).map(|i| i as u8 + 1)
}

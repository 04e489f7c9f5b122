//! Keys that act on the window instead of going to the program.
//!
//! The defaults are the ones users bring from Alacritty, kitty and Ghostty: Ctrl+Shift for
//! clipboard and search (plain Ctrl+C must stay SIGINT), Shift for scrolling (plain PageUp
//! belongs to the program), Ctrl with =, - and 0 for the font size.

use winit::keyboard::{Key, ModifiersState, NamedKey};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Copy,
    Paste,
    PastePrimary,
    ScrollPageUp,
    ScrollPageDown,
    ScrollLineUp,
    ScrollLineDown,
    ScrollToTop,
    ScrollToBottom,
    FontBigger,
    FontSmaller,
    FontReset,
    Search,
    /// Freeze the view while output keeps being read and parsed (Scroll Lock).
    ToggleFreeze,
    ToggleMetricsOverlay,
}

/// The action bound to `key` (as typed without modifiers) with `mods` held, if any.
pub fn action(key: &Key, mods: ModifiersState) -> Option<Action> {
    let ctrl_shift = ModifiersState::CONTROL | ModifiersState::SHIFT;
    let m = mods & (ModifiersState::CONTROL | ModifiersState::SHIFT | ModifiersState::ALT);
    let action = match key {
        Key::Character(c) => match (m, c.as_str()) {
            (m, "c") if m == ctrl_shift => Action::Copy,
            (m, "v") if m == ctrl_shift => Action::Paste,
            (m, "f") if m == ctrl_shift => Action::Search,
            (m, "m") if m == ctrl_shift => Action::ToggleMetricsOverlay,
            (m, "=" | "+") if m.control_key() && !m.alt_key() => Action::FontBigger,
            (ModifiersState::CONTROL, "-") => Action::FontSmaller,
            (ModifiersState::CONTROL, "0") => Action::FontReset,
            _ => return None,
        },
        Key::Named(named) => match (m, named) {
            (ModifiersState::SHIFT, NamedKey::PageUp) => Action::ScrollPageUp,
            (ModifiersState::SHIFT, NamedKey::PageDown) => Action::ScrollPageDown,
            (ModifiersState::SHIFT, NamedKey::Home) => Action::ScrollToTop,
            (ModifiersState::SHIFT, NamedKey::End) => Action::ScrollToBottom,
            (ModifiersState::SHIFT, NamedKey::Insert) => Action::PastePrimary,
            (m, NamedKey::ArrowUp) if m == ctrl_shift => Action::ScrollLineUp,
            (m, NamedKey::ArrowDown) if m == ctrl_shift => Action::ScrollLineDown,
            (_, NamedKey::ScrollLock) => Action::ToggleFreeze,
            _ => return None,
        },
        _ => return None,
    };
    Some(action)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ch(s: &str) -> Key {
        Key::Character(s.into())
    }

    #[test]
    fn defaults() {
        let cs = ModifiersState::CONTROL | ModifiersState::SHIFT;
        assert_eq!(action(&ch("c"), cs), Some(Action::Copy));
        // Plain Ctrl+C is the program's (SIGINT), Ctrl+V too (readline's quoted insert).
        assert_eq!(action(&ch("c"), ModifiersState::CONTROL), None);
        assert_eq!(action(&ch("v"), ModifiersState::CONTROL), None);
        assert_eq!(action(&ch("v"), cs), Some(Action::Paste));
        assert_eq!(
            action(&ch("="), ModifiersState::CONTROL),
            Some(Action::FontBigger)
        );
        assert_eq!(action(&ch("+"), cs), Some(Action::FontBigger));
        assert_eq!(
            action(&ch("-"), ModifiersState::CONTROL),
            Some(Action::FontSmaller)
        );
        assert_eq!(
            action(&ch("0"), ModifiersState::CONTROL),
            Some(Action::FontReset)
        );
        let page_up = Key::Named(NamedKey::PageUp);
        assert_eq!(
            action(&page_up, ModifiersState::SHIFT),
            Some(Action::ScrollPageUp)
        );
        assert_eq!(action(&page_up, ModifiersState::empty()), None);
        let scroll_lock = Key::Named(NamedKey::ScrollLock);
        assert_eq!(
            action(&scroll_lock, ModifiersState::empty()),
            Some(Action::ToggleFreeze)
        );
    }
}

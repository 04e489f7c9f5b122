//! Keys that act on the window instead of going to the program.
//!
//! The defaults are the ones users bring from Alacritty, kitty and Ghostty: Ctrl+Shift for
//! clipboard and search (plain Ctrl+C must stay SIGINT), Shift for scrolling (plain PageUp
//! belongs to the program), Ctrl with =, - and 0 for the font size.

use winit::keyboard::{Key, ModifiersState, NamedKey};

use super::layout::Towards;

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
    NewWindow,
    NewTab,
    /// Close the focused pane (and its tab or window with it, if it was the last).
    ClosePane,
    NextTab,
    PreviousTab,
    /// Go to tab N (0-based).
    GoToTab(usize),
    SplitRight,
    SplitDown,
    Focus(Towards),
    ResizeSplit(Towards),
    ToggleZoom,
}

/// The action bound to `key` (as typed without modifiers) with `mods` held, if any.
pub fn action(key: &Key, mods: ModifiersState) -> Option<Action> {
    let ctrl_shift = ModifiersState::CONTROL | ModifiersState::SHIFT;
    let ctrl_alt = ModifiersState::CONTROL | ModifiersState::ALT;
    let ctrl_alt_shift = ctrl_alt | ModifiersState::SHIFT;
    let m = mods & (ModifiersState::CONTROL | ModifiersState::SHIFT | ModifiersState::ALT);
    let towards = |named: &NamedKey| match named {
        NamedKey::ArrowLeft => Some(Towards::Left),
        NamedKey::ArrowRight => Some(Towards::Right),
        NamedKey::ArrowUp => Some(Towards::Up),
        NamedKey::ArrowDown => Some(Towards::Down),
        _ => None,
    };
    let action = match key {
        Key::Character(c) => match (m, c.as_str()) {
            (
                ModifiersState::ALT,
                digit @ ("1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9"),
            ) => Action::GoToTab(digit.parse::<usize>().expect("a digit") - 1),
            (m, "n") if m == ctrl_shift => Action::NewWindow,
            (m, "t") if m == ctrl_shift => Action::NewTab,
            (m, "w") if m == ctrl_shift => Action::ClosePane,
            (m, "d") if m == ctrl_shift => Action::SplitRight,
            (m, "e") if m == ctrl_shift => Action::SplitDown,
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
            (m, named) if m == ctrl_alt && towards(named).is_some() => {
                Action::Focus(towards(named).expect("an arrow"))
            }
            (m, named) if m == ctrl_alt_shift && towards(named).is_some() => {
                Action::ResizeSplit(towards(named).expect("an arrow"))
            }
            (ModifiersState::CONTROL, NamedKey::Tab | NamedKey::PageDown) => Action::NextTab,
            (m, NamedKey::Tab) if m == ctrl_shift => Action::PreviousTab,
            (ModifiersState::CONTROL, NamedKey::PageUp) => Action::PreviousTab,
            (m, NamedKey::Enter) if m == ctrl_shift => Action::ToggleZoom,
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
        assert_eq!(action(&ch("t"), cs), Some(Action::NewTab));
        assert_eq!(action(&ch("n"), cs), Some(Action::NewWindow));
        assert_eq!(action(&ch("w"), cs), Some(Action::ClosePane));
        assert_eq!(action(&ch("d"), cs), Some(Action::SplitRight));
        assert_eq!(action(&ch("e"), cs), Some(Action::SplitDown));
        assert_eq!(
            action(&ch("3"), ModifiersState::ALT),
            Some(Action::GoToTab(2))
        );
        assert_eq!(action(&ch("0"), ModifiersState::ALT), None);
        let tab = Key::Named(NamedKey::Tab);
        assert_eq!(action(&tab, ModifiersState::CONTROL), Some(Action::NextTab));
        assert_eq!(action(&tab, cs), Some(Action::PreviousTab));
        assert_eq!(
            action(&tab, ModifiersState::empty()),
            None,
            "Tab is the shell's"
        );
        assert_eq!(
            action(&Key::Named(NamedKey::PageUp), ModifiersState::CONTROL),
            Some(Action::PreviousTab)
        );
        let left = Key::Named(NamedKey::ArrowLeft);
        let ca = ModifiersState::CONTROL | ModifiersState::ALT;
        assert_eq!(action(&left, ca), Some(Action::Focus(Towards::Left)));
        assert_eq!(
            action(&left, ca | ModifiersState::SHIFT),
            Some(Action::ResizeSplit(Towards::Left))
        );
        assert_eq!(action(&left, ModifiersState::CONTROL), None, "word motion");
        assert_eq!(
            action(&Key::Named(NamedKey::Enter), cs),
            Some(Action::ToggleZoom)
        );
        let scroll_lock = Key::Named(NamedKey::ScrollLock);
        assert_eq!(
            action(&scroll_lock, ModifiersState::empty()),
            Some(Action::ToggleFreeze)
        );
    }
}

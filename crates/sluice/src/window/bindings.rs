//! Keys that act on the window instead of going to the program: the defaults
//! (`sluice_config::DEFAULT_BINDINGS`) with the configuration's `keyboard.bindings` over them.
//!
//! The defaults are the ones users bring from Alacritty, kitty and Ghostty: Ctrl+Shift for
//! clipboard and search (plain Ctrl+C must stay SIGINT), Shift for scrolling (plain PageUp
//! belongs to the program), Ctrl with =, - and 0 for the font size.
//!
//! Windows, tabs and splits: Ctrl+Shift+N, T and W (kitty, Ghostty, GNOME Terminal);
//! Ctrl+Tab and Ctrl+PageDown to move through tabs (browsers, GNOME Terminal, kitty), Alt+1…9
//! to go to one (GNOME Terminal, Konsole); Ctrl+Shift+D and Ctrl+Shift+E to split right and
//! down (Ctrl+Shift+O, Ghostty's split key, is kept for hints as in kitty); Ctrl+Alt+arrows to
//! move between panes and Ctrl+Alt+Shift+arrows to move a border (Ghostty's goto and resize,
//! with Ctrl for Super so the desktop keeps its own); Ctrl+Shift+Enter zooms (Ghostty).
//!
//! Shell integration, as kitty binds it: Ctrl+Shift+Z and Ctrl+Shift+X jump to the previous
//! and next prompt, Ctrl+Shift+G copies the last command's output (kitty shows it in a pager),
//! Ctrl+Shift+H shows the scrollback in a pager. Ctrl+Shift+Space enters vi mode (Alacritty).

use sluice_config::hints::HintSet;
use sluice_config::{BindingSpec, MouseBindingSpec};
use sluice_term::input::MouseButton;
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
    /// A new Sluice process (its own windows, its own GPU device), in the focused pane's
    /// directory.
    NewInstance,
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
    /// Scroll the previous (`Left`) or next (`Right`) shell prompt to the top of the view
    /// (OSC 133 marks).
    ScrollToPrompt(sluice_term::Direction),
    /// Copy the output of the last command that finished (OSC 133 marks) to the clipboard.
    CopyLastOutput,
    /// Open the scrollback, with its colours, in a pager in a new tab.
    ShowScrollback,
    /// Enter or leave vi mode: a keyboard cursor over the screen and the scrollback.
    ToggleViMode,
    /// Label the matches of hint set N (`hints.sets`, 0-based) for the keyboard.
    Hints(usize),
}

impl Action {
    /// The action called `name` in the configuration (Alacritty's names where it has the
    /// action).
    pub fn from_name(name: &str) -> Option<Action> {
        use Towards::*;
        let action = match name {
            "Copy" => Action::Copy,
            "Paste" => Action::Paste,
            "PasteSelection" => Action::PastePrimary,
            "ScrollPageUp" => Action::ScrollPageUp,
            "ScrollPageDown" => Action::ScrollPageDown,
            "ScrollLineUp" => Action::ScrollLineUp,
            "ScrollLineDown" => Action::ScrollLineDown,
            "ScrollToTop" => Action::ScrollToTop,
            "ScrollToBottom" => Action::ScrollToBottom,
            "IncreaseFontSize" => Action::FontBigger,
            "DecreaseFontSize" => Action::FontSmaller,
            "ResetFontSize" => Action::FontReset,
            "Search" => Action::Search,
            "ToggleFreeze" => Action::ToggleFreeze,
            "ToggleMetricsOverlay" => Action::ToggleMetricsOverlay,
            "CreateNewWindow" => Action::NewWindow,
            "SpawnNewInstance" => Action::NewInstance,
            "CreateNewTab" => Action::NewTab,
            "ClosePane" => Action::ClosePane,
            "SelectNextTab" => Action::NextTab,
            "SelectPreviousTab" => Action::PreviousTab,
            "SplitRight" => Action::SplitRight,
            "SplitDown" => Action::SplitDown,
            "FocusLeft" => Action::Focus(Left),
            "FocusRight" => Action::Focus(Right),
            "FocusUp" => Action::Focus(Up),
            "FocusDown" => Action::Focus(Down),
            "ResizeLeft" => Action::ResizeSplit(Left),
            "ResizeRight" => Action::ResizeSplit(Right),
            "ResizeUp" => Action::ResizeSplit(Up),
            "ResizeDown" => Action::ResizeSplit(Down),
            "ToggleZoom" => Action::ToggleZoom,
            "ScrollToPreviousPrompt" => Action::ScrollToPrompt(sluice_term::Direction::Left),
            "ScrollToNextPrompt" => Action::ScrollToPrompt(sluice_term::Direction::Right),
            "CopyLastCommandOutput" => Action::CopyLastOutput,
            "ShowScrollback" => Action::ShowScrollback,
            "ToggleViMode" => Action::ToggleViMode,
            other => {
                let n: usize = other.strip_prefix("SelectTab")?.parse().ok()?;
                return (1..=9).contains(&n).then_some(Action::GoToTab(n - 1));
            }
        };
        Some(action)
    }
}

/// What a bound key does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    Action(Action),
    /// Text for the program, as if typed.
    Chars(String),
    /// A program to start (and leave running).
    Command(Vec<String>),
}

/// The modes a binding can be limited to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct KeyModes {
    pub alt_screen: bool,
    pub app_cursor: bool,
    pub app_keypad: bool,
    pub search: bool,
}

#[derive(Debug, Clone, PartialEq)]
struct Binding {
    key: Key,
    mods: ModifiersState,
    /// (mode, whether it must be on).
    modes: Vec<(Mode, bool)>,
    /// `None`: unbound (the key goes to the program).
    target: Option<Target>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    AltScreen,
    AppCursor,
    AppKeypad,
    Search,
}

impl Mode {
    fn on(self, modes: KeyModes) -> bool {
        match self {
            Mode::AltScreen => modes.alt_screen,
            Mode::AppCursor => modes.app_cursor,
            Mode::AppKeypad => modes.app_keypad,
            Mode::Search => modes.search,
        }
    }
}

/// The modifiers bindings compare; others (Caps Lock, Num Lock) never matter.
const MODS: ModifiersState = ModifiersState::CONTROL
    .union(ModifiersState::SHIFT)
    .union(ModifiersState::ALT)
    .union(ModifiersState::SUPER);

/// Every binding in force: the configuration's first, so they win, then the defaults.
#[derive(Debug, Clone, PartialEq)]
pub struct Bindings {
    bindings: Vec<Binding>,
    mouse: Vec<MouseBinding>,
}

impl Default for Bindings {
    fn default() -> Self {
        Bindings::new(&[], &sluice_config::hints::HintSets::default().sets, &[]).0
    }
}

impl Bindings {
    /// The defaults with `user` over them, and what was wrong with `user`'s entries (each
    /// bad entry is dropped alone).
    pub fn new(
        user: &[BindingSpec],
        hints: &[HintSet],
        mouse_user: &[MouseBindingSpec],
    ) -> (Bindings, Vec<String>) {
        let mut problems = Vec::new();
        let mut bindings = Vec::new();
        // Later entries of the file win over earlier ones: look them up first.
        for (i, spec) in user.iter().enumerate().rev() {
            match parse(spec) {
                Ok(binding) => bindings.push(binding),
                Err(why) => problems.push(format!("keyboard.bindings[{i}]: {why}; ignored")),
            }
        }
        // Each hint set's key, under the user's bindings and over the defaults.
        for (i, set) in hints.iter().enumerate() {
            let spec = BindingSpec {
                key: set.key.clone(),
                mods: set.mods.clone(),
                action: Some("None".into()),
                chars: None,
                command: None,
                mode: String::new(),
            };
            match parse(&spec) {
                Ok(mut binding) => {
                    binding.target = Some(Target::Action(Action::Hints(i)));
                    bindings.push(binding);
                }
                Err(why) => problems.push(format!("hints.sets[{i}]: {why}; ignored")),
            }
        }
        for &(key, mods, action) in sluice_config::DEFAULT_BINDINGS {
            let spec = BindingSpec {
                key: key.into(),
                mods: mods.into(),
                action: Some(action.into()),
                chars: None,
                command: None,
                mode: String::new(),
            };
            bindings.push(parse(&spec).expect("the default bindings parse"));
        }
        let mut mouse = Vec::new();
        for (i, spec) in mouse_user.iter().enumerate().rev() {
            match parse_mouse(spec) {
                Ok(binding) => mouse.push(binding),
                Err(why) => problems.push(format!("mouse.bindings[{i}]: {why}; ignored")),
            }
        }
        for &(button, mods, action) in sluice_config::DEFAULT_MOUSE_BINDINGS {
            let spec = MouseBindingSpec {
                mouse: button.into(),
                mods: mods.into(),
                action: Some(action.into()),
                chars: None,
                command: None,
            };
            mouse.push(parse_mouse(&spec).expect("the default mouse bindings parse"));
        }
        (Bindings { bindings, mouse }, problems)
    }

    /// What pressing `button` with `mods` held does, if it is bound (`None` also for a
    /// default unbound with `action = "None"`).
    pub fn mouse(&self, button: MouseButton, mods: ModifiersState) -> Option<&Target> {
        let mods = mods & MODS;
        self.mouse
            .iter()
            .find(|b| b.button == button && b.mods == mods)
            .and_then(|b| b.target.as_ref())
    }

    /// What `key` (as typed without modifiers) with `mods` held does in `modes`, if it is
    /// bound; `None` for keys that go to the program (unbound, or unbinding a default).
    pub fn lookup(&self, key: &Key, mods: ModifiersState, modes: KeyModes) -> Option<&Target> {
        let mods = mods & MODS;
        let key = normalise(key);
        self.bindings
            .iter()
            .find(|b| {
                b.key == key
                    && b.mods == mods
                    && b.modes.iter().all(|&(mode, on)| mode.on(modes) == on)
            })
            .and_then(|b| b.target.as_ref())
    }
}

/// Letters compare in lower case: what a layout reports for a key without modifiers.
fn normalise(key: &Key) -> Key {
    match key {
        Key::Character(c) => Key::Character(c.to_lowercase().into()),
        other => other.clone(),
    }
}

fn parse(spec: &BindingSpec) -> Result<Binding, String> {
    let key = parse_key(&spec.key).ok_or_else(|| format!("no key {:?}", spec.key))?;
    let mods = parse_mods(&spec.mods)?;
    let mut modes = Vec::new();
    for name in spec
        .mode
        .split('|')
        .map(str::trim)
        .filter(|m| !m.is_empty())
    {
        let (on, name) = match name.strip_prefix('~') {
            Some(rest) => (false, rest),
            None => (true, name),
        };
        let mode = match name {
            "AltScreen" => Mode::AltScreen,
            "AppCursor" => Mode::AppCursor,
            "AppKeypad" => Mode::AppKeypad,
            "Search" => Mode::Search,
            other => return Err(format!("no mode {other:?}")),
        };
        modes.push((mode, on));
    }
    let target = parse_target(&spec.action, &spec.chars, &spec.command)?;
    Ok(Binding {
        key,
        mods,
        modes,
        target,
    })
}

/// "Control|Shift" and the like.
fn parse_mods(names: &str) -> Result<ModifiersState, String> {
    let mut mods = ModifiersState::empty();
    for name in names.split('|').map(str::trim).filter(|m| !m.is_empty()) {
        mods |= match name {
            "Control" | "Ctrl" => ModifiersState::CONTROL,
            "Shift" => ModifiersState::SHIFT,
            "Alt" | "Option" => ModifiersState::ALT,
            "Super" | "Command" => ModifiersState::SUPER,
            other => return Err(format!("no modifier {other:?}")),
        };
    }
    Ok(mods)
}

/// What a binding does; `None` for `action = "None"` (unbound).
fn parse_target(
    action: &Option<String>,
    chars: &Option<String>,
    command: &Option<Vec<String>>,
) -> Result<Option<Target>, String> {
    Ok(match (action, chars, command) {
        (Some(name), _, _) if name == "None" => None,
        (Some(name), _, _) => Some(Target::Action(
            Action::from_name(name).ok_or_else(|| format!("no action {name:?}"))?,
        )),
        (None, Some(chars), _) => Some(Target::Chars(chars.clone())),
        (None, None, Some(command)) if !command.is_empty() => {
            Some(Target::Command(command.clone()))
        }
        _ => return Err("no action, chars or command".into()),
    })
}

/// A mouse button bound to a target (`mouse.bindings`).
#[derive(Debug, Clone, PartialEq)]
struct MouseBinding {
    button: MouseButton,
    mods: ModifiersState,
    target: Option<Target>,
}

fn parse_mouse(spec: &MouseBindingSpec) -> Result<MouseBinding, String> {
    let button = match spec.mouse.as_str() {
        "Left" => MouseButton::Left,
        "Right" => MouseButton::Right,
        "Middle" => MouseButton::Middle,
        "Back" => MouseButton::Back,
        "Forward" => MouseButton::Forward,
        other => return Err(format!("no mouse button {other:?}")),
    };
    Ok(MouseBinding {
        button,
        mods: parse_mods(&spec.mods)?,
        target: parse_target(&spec.action, &spec.chars, &spec.command)?,
    })
}

fn parse_key(name: &str) -> Option<Key> {
    let mut chars = name.chars();
    if let (Some(c), None) = (chars.next(), chars.clone().next()) {
        return Some(Key::Character(c.to_lowercase().to_string().into()));
    }
    let named = match name {
        "Enter" | "Return" => NamedKey::Enter,
        "Tab" => NamedKey::Tab,
        "Space" => NamedKey::Space,
        "Backspace" | "Back" => NamedKey::Backspace,
        "Escape" => NamedKey::Escape,
        "Insert" => NamedKey::Insert,
        "Delete" => NamedKey::Delete,
        "Home" => NamedKey::Home,
        "End" => NamedKey::End,
        "PageUp" => NamedKey::PageUp,
        "PageDown" => NamedKey::PageDown,
        "ArrowUp" | "Up" => NamedKey::ArrowUp,
        "ArrowDown" | "Down" => NamedKey::ArrowDown,
        "ArrowLeft" | "Left" => NamedKey::ArrowLeft,
        "ArrowRight" | "Right" => NamedKey::ArrowRight,
        "ScrollLock" => NamedKey::ScrollLock,
        "Pause" => NamedKey::Pause,
        "PrintScreen" => NamedKey::PrintScreen,
        f => {
            use NamedKey::*;
            const F: [NamedKey; 24] = [
                F1, F2, F3, F4, F5, F6, F7, F8, F9, F10, F11, F12, F13, F14, F15, F16, F17, F18,
                F19, F20, F21, F22, F23, F24,
            ];
            let n: usize = f.strip_prefix('F')?.parse().ok()?;
            *F.get(n.checked_sub(1)?)?
        }
    };
    Some(Key::Named(named))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ch(s: &str) -> Key {
        Key::Character(s.into())
    }

    fn action(key: &Key, mods: ModifiersState) -> Option<Action> {
        match Bindings::default().lookup(key, mods, KeyModes::default()) {
            Some(Target::Action(a)) => Some(*a),
            _ => None,
        }
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
        assert_eq!(
            action(&ch("T"), cs),
            Some(Action::NewTab),
            "a layout's capital"
        );
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
        use sluice_term::Direction;
        assert_eq!(
            action(&ch("Z"), cs),
            Some(Action::ScrollToPrompt(Direction::Left))
        );
        assert_eq!(
            action(&ch("X"), cs),
            Some(Action::ScrollToPrompt(Direction::Right))
        );
        assert_eq!(action(&ch("G"), cs), Some(Action::CopyLastOutput));
        assert_eq!(action(&ch("H"), cs), Some(Action::ShowScrollback));
        assert_eq!(
            action(&ch("z"), ModifiersState::CONTROL),
            None,
            "^Z suspends"
        );
        assert_eq!(
            action(&Key::Named(NamedKey::Space), cs),
            Some(Action::ToggleViMode)
        );
        assert_eq!(action(&ch("O"), cs), Some(Action::Hints(0)));
        assert_eq!(action(&ch("Y"), cs), Some(Action::Hints(1)));
        let scroll_lock = Key::Named(NamedKey::ScrollLock);
        assert_eq!(
            action(&scroll_lock, ModifiersState::empty()),
            Some(Action::ToggleFreeze)
        );
    }

    fn spec(key: &str, mods: &str) -> BindingSpec {
        BindingSpec {
            key: key.into(),
            mods: mods.into(),
            action: None,
            chars: None,
            command: None,
            mode: String::new(),
        }
    }

    #[test]
    fn the_configuration_goes_over_the_defaults_entry_by_entry() {
        let cs = ModifiersState::CONTROL | ModifiersState::SHIFT;
        let user = vec![
            // Text, only on the alternate screen.
            BindingSpec {
                chars: Some("\x1b[A".into()),
                mode: "AltScreen".into(),
                ..spec("k", "Control|Shift")
            },
            // Unbinding a default: the key goes to the program.
            BindingSpec {
                action: Some("None".into()),
                ..spec("t", "Control|Shift")
            },
            BindingSpec {
                action: Some("CreateNewTab".into()),
                ..spec("F5", "")
            },
            BindingSpec {
                command: Some(vec!["notify-send".into(), "hi".into()]),
                ..spec("Enter", "Super")
            },
            BindingSpec {
                action: Some("Explode".into()),
                ..spec("x", "Control")
            },
            BindingSpec {
                action: Some("Copy".into()),
                ..spec("x", "Hyper")
            },
            BindingSpec {
                action: Some("Copy".into()),
                ..spec("NoSuchKey", "")
            },
        ];
        let (b, problems) = Bindings::new(&user, &[], &[]);
        assert_eq!(problems.len(), 3, "{problems:?}");
        assert!(problems.iter().any(|p| p.contains("no action \"Explode\"")));
        assert!(problems.iter().any(|p| p.contains("no modifier \"Hyper\"")));
        assert!(problems.iter().any(|p| p.contains("no key \"NoSuchKey\"")));
        let alt = KeyModes {
            alt_screen: true,
            ..KeyModes::default()
        };
        assert_eq!(
            b.lookup(&ch("k"), cs, alt),
            Some(&Target::Chars("\x1b[A".into()))
        );
        assert_eq!(b.lookup(&ch("k"), cs, KeyModes::default()), None);
        assert_eq!(b.lookup(&ch("t"), cs, KeyModes::default()), None, "unbound");
        assert_eq!(
            b.lookup(&Key::Named(NamedKey::F5), ModifiersState::empty(), alt),
            Some(&Target::Action(Action::NewTab))
        );
        assert!(matches!(
            b.lookup(&Key::Named(NamedKey::Enter), ModifiersState::SUPER, alt),
            Some(Target::Command(_))
        ));
        // The rest of the defaults are still there.
        assert_eq!(
            b.lookup(&ch("c"), cs, KeyModes::default()),
            Some(&Target::Action(Action::Copy))
        );
    }

    #[test]
    fn every_default_names_a_real_action() {
        for (key, mods, action) in sluice_config::DEFAULT_BINDINGS {
            assert!(Action::from_name(action).is_some(), "{action}");
            assert!(parse_key(key).is_some(), "{key}");
            assert!(parse(&spec(key, mods)).is_err(), "a spec needs a target");
        }
    }
}

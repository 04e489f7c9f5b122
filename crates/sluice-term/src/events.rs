//! What the terminal tells the application (as opposed to what it answers the program).

use std::fmt;
use std::sync::Arc;

pub use alacritty_terminal::term::ClipboardType as ClipboardKind;

/// An event for the application: the window, the clipboard, the bell.
///
/// Replies to the program (device attributes, cursor position, colour queries, the text area
/// size) never come here: the parser thread builds them from terminal state and sends them to
/// the PTY writer itself.
#[derive(Clone)]
pub enum TermEvent {
    /// OSC 0/2 set the title.
    Title(String),
    /// The title went back to its default.
    ResetTitle,
    Bell,
    /// OSC 52 asked to put text on a clipboard.
    ClipboardStore(ClipboardKind, String),
    /// OSC 52 asked to read a clipboard. Only sent when configuration allows it (off by
    /// default); the application formats the reply with the function and writes it.
    ClipboardLoad(ClipboardKind, Arc<dyn Fn(&str) -> String + Send + Sync>),
    /// The cursor's blinking was turned on or off.
    CursorBlinkingChange,
    /// The mouse cursor's shape may need to change (mouse mode changed).
    MouseCursorDirty,
}

impl fmt::Debug for TermEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TermEvent::Title(t) => write!(f, "Title({t:?})"),
            TermEvent::ResetTitle => write!(f, "ResetTitle"),
            TermEvent::Bell => write!(f, "Bell"),
            TermEvent::ClipboardStore(kind, text) => {
                write!(f, "ClipboardStore({kind:?}, {} bytes)", text.len())
            }
            TermEvent::ClipboardLoad(kind, _) => write!(f, "ClipboardLoad({kind:?})"),
            TermEvent::CursorBlinkingChange => write!(f, "CursorBlinkingChange"),
            TermEvent::MouseCursorDirty => write!(f, "MouseCursorDirty"),
        }
    }
}

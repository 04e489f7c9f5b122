//! What the terminal tells the application (as opposed to what it answers the program).

use std::fmt;
use std::sync::Arc;

pub use alacritty_terminal::term::ClipboardType as ClipboardKind;

/// Formats the reply to an OSC 52 read from the clipboard's text.
pub type ClipboardReply = Arc<dyn Fn(&str) -> String + Send + Sync>;

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
    ClipboardLoad(ClipboardKind, ClipboardReply),
    /// The cursor's blinking was turned on or off.
    CursorBlinkingChange,
    /// The mouse cursor's shape may need to change (mouse mode changed).
    MouseCursorDirty,
    /// The program reported its working directory (OSC 7, on this host).
    WorkingDirectory(std::path::PathBuf),
    /// The program asked for a desktop notification (OSC 9, 777 or 99).
    Notification(crate::Notification),
    /// A command marked by shell integration (OSC 133 C to D) finished.
    CommandFinished {
        status: Option<i32>,
        duration: std::time::Duration,
    },
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
            TermEvent::WorkingDirectory(dir) => write!(f, "WorkingDirectory({dir:?})"),
            TermEvent::Notification(n) => write!(f, "Notification({n:?})"),
            TermEvent::CommandFinished { status, duration } => {
                write!(f, "CommandFinished({status:?}, {duration:?})")
            }
        }
    }
}

/// Events waiting for the application, coalesced so that output alone cannot grow them.
///
/// A program can raise events far faster than any window handles them: one second of BELs was
/// 1.5–2 GB in an unbounded channel, and the text after it waited 20 s. What a window does with
/// each kind depends only on the latest one (the title shown is the last title set; a flood of
/// bells is one bell; a clipboard ends up holding the last text stored), so each kind keeps one
/// slot, and the mailbox holds at most one event of each kind whatever the output.
#[derive(Default)]
pub(crate) struct Mailbox {
    pending: std::sync::Mutex<Pending>,
}

#[derive(Default)]
struct Pending {
    /// `Some(None)`: the title was reset.
    title: Option<Option<String>>,
    bell: bool,
    /// The last text stored on each clipboard, in the order the clipboards were last written.
    stores: Vec<(ClipboardKind, String)>,
    /// One read per clipboard: later ones in a flood get the same answer.
    loads: Vec<(ClipboardKind, ClipboardReply)>,
    cursor_blinking_change: bool,
    mouse_cursor_dirty: bool,
    directory: Option<std::path::PathBuf>,
    notification: Option<crate::Notification>,
    command_finished: Option<(Option<i32>, std::time::Duration)>,
}

impl Mailbox {
    /// Adds `event`, replacing the pending one of its kind.
    pub(crate) fn post(&self, event: TermEvent) {
        let mut p = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        match event {
            TermEvent::Title(title) => p.title = Some(Some(title)),
            TermEvent::ResetTitle => p.title = Some(None),
            TermEvent::Bell => p.bell = true,
            TermEvent::ClipboardStore(kind, text) => {
                p.stores.retain(|(k, _)| *k != kind);
                p.stores.push((kind, text));
            }
            TermEvent::ClipboardLoad(kind, format) => {
                if !p.loads.iter().any(|(k, _)| *k == kind) {
                    p.loads.push((kind, format));
                }
            }
            TermEvent::CursorBlinkingChange => p.cursor_blinking_change = true,
            TermEvent::MouseCursorDirty => p.mouse_cursor_dirty = true,
            TermEvent::WorkingDirectory(dir) => p.directory = Some(dir),
            TermEvent::Notification(n) => p.notification = Some(n),
            TermEvent::CommandFinished { status, duration } => {
                p.command_finished = Some((status, duration))
            }
        }
    }

    /// Takes everything pending: the title first, then clipboard writes before reads (a read
    /// after a write in the same burst sees the write), then the rest.
    pub(crate) fn take(&self) -> Vec<TermEvent> {
        let p = std::mem::take(&mut *self.pending.lock().unwrap_or_else(|e| e.into_inner()));
        let mut events = Vec::new();
        match p.title {
            Some(Some(title)) => events.push(TermEvent::Title(title)),
            Some(None) => events.push(TermEvent::ResetTitle),
            None => {}
        }
        events.extend(
            p.stores
                .into_iter()
                .map(|(kind, text)| TermEvent::ClipboardStore(kind, text)),
        );
        events.extend(
            p.loads
                .into_iter()
                .map(|(kind, format)| TermEvent::ClipboardLoad(kind, format)),
        );
        if p.bell {
            events.push(TermEvent::Bell);
        }
        if p.cursor_blinking_change {
            events.push(TermEvent::CursorBlinkingChange);
        }
        if p.mouse_cursor_dirty {
            events.push(TermEvent::MouseCursorDirty);
        }
        events.extend(p.directory.map(TermEvent::WorkingDirectory));
        events.extend(p.notification.map(TermEvent::Notification));
        events.extend(
            p.command_finished
                .map(|(status, duration)| TermEvent::CommandFinished { status, duration }),
        );
        events
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flood_is_one_event_of_each_kind_with_the_latest_value() {
        let mailbox = Mailbox::default();
        for i in 0..10_000 {
            mailbox.post(TermEvent::Bell);
            mailbox.post(TermEvent::Title(format!("t{i}")));
            mailbox.post(TermEvent::ClipboardStore(
                ClipboardKind::Clipboard,
                format!("c{i}"),
            ));
            mailbox.post(TermEvent::ClipboardLoad(
                ClipboardKind::Clipboard,
                Arc::new(|s| s.to_owned()),
            ));
        }
        mailbox.post(TermEvent::ClipboardStore(
            ClipboardKind::Selection,
            "s".into(),
        ));
        let events: Vec<String> = mailbox.take().iter().map(|e| format!("{e:?}")).collect();
        assert_eq!(
            events,
            [
                "Title(\"t9999\")",
                "ClipboardStore(Clipboard, 5 bytes)",
                "ClipboardStore(Selection, 1 bytes)",
                "ClipboardLoad(Clipboard)",
                "Bell"
            ]
        );
        assert!(mailbox.take().is_empty(), "taking empties it");
    }

    #[test]
    fn a_reset_after_a_title_wins() {
        let mailbox = Mailbox::default();
        mailbox.post(TermEvent::Title("a".into()));
        mailbox.post(TermEvent::ResetTitle);
        assert!(matches!(mailbox.take()[..], [TermEvent::ResetTitle]));
    }
}

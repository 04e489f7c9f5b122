//! The system clipboard and, on X11 and Wayland, the primary selection.

use sluice_term::ClipboardKind;

/// The clipboards, or nothing if the desktop offers none (then copy and paste do nothing
/// and say so once in the log).
pub struct Clipboard {
    inner: Option<arboard::Clipboard>,
}

impl Clipboard {
    pub fn new() -> Self {
        let inner = arboard::Clipboard::new()
            .map_err(|err| tracing::warn!(%err, "no clipboard; copy and paste are off"))
            .ok();
        Self { inner }
    }

    pub fn set(&mut self, kind: ClipboardKind, text: String) {
        let Some(inner) = &mut self.inner else {
            return;
        };
        if let Err(err) = set(inner, kind, text) {
            tracing::warn!(%err, ?kind, "cannot set the clipboard");
        }
    }

    pub fn get(&mut self, kind: ClipboardKind) -> Option<String> {
        let inner = self.inner.as_mut()?;
        get(inner, kind)
            .map_err(|err| tracing::debug!(%err, ?kind, "nothing to paste"))
            .ok()
    }
}

#[cfg(all(unix, not(target_os = "macos")))]
fn linux_kind(kind: ClipboardKind) -> arboard::LinuxClipboardKind {
    match kind {
        ClipboardKind::Clipboard => arboard::LinuxClipboardKind::Clipboard,
        ClipboardKind::Selection => arboard::LinuxClipboardKind::Primary,
    }
}

#[cfg(all(unix, not(target_os = "macos")))]
fn set(
    c: &mut arboard::Clipboard,
    kind: ClipboardKind,
    text: String,
) -> Result<(), arboard::Error> {
    use arboard::SetExtLinux;
    c.set().clipboard(linux_kind(kind)).text(text)
}

#[cfg(all(unix, not(target_os = "macos")))]
fn get(c: &mut arboard::Clipboard, kind: ClipboardKind) -> Result<String, arboard::Error> {
    use arboard::GetExtLinux;
    c.get().clipboard(linux_kind(kind)).text()
}

/// Elsewhere there is no primary selection; it is kept out of the system clipboard.
#[cfg(not(all(unix, not(target_os = "macos"))))]
fn set(
    c: &mut arboard::Clipboard,
    kind: ClipboardKind,
    text: String,
) -> Result<(), arboard::Error> {
    match kind {
        ClipboardKind::Clipboard => c.set_text(text),
        ClipboardKind::Selection => Ok(()),
    }
}

#[cfg(not(all(unix, not(target_os = "macos"))))]
fn get(c: &mut arboard::Clipboard, kind: ClipboardKind) -> Result<String, arboard::Error> {
    match kind {
        ClipboardKind::Clipboard => c.get_text(),
        ClipboardKind::Selection => Err(arboard::Error::ContentNotAvailable),
    }
}

//! The scrollback in a pager (Ctrl+Shift+H, as kitty's `show_scrollback`): the pane's whole
//! history with its colours, written to a private file and opened in `$PAGER` (else
//! `less -R +G`, which keeps the colours and starts at the end, where the user was) in a new
//! tab. The file is removed when the pager exits.
//!
//! The file goes in the private runtime directory (0700, the file 0600): scrollback can hold
//! whatever was on screen, passwords and tokens included.

use std::ffi::OsString;
use std::io::Write as _;
use std::os::unix::fs::OpenOptionsExt as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

use anyhow::Context as _;

use super::Spawn;

/// Runs the pager on `$1` and removes it after. `$PAGER` is a shell command, as git and man
/// read it (quotes and all). `LESS` gains `-R` so that a `$PAGER` of plain `less` shows the
/// colours instead of their escape codes.
const SCRIPT: &str = r#"f=$1
export LESS="-R${LESS:+ $LESS}"
if [ -n "$PAGER" ]; then eval "$PAGER" '"$f"'; else less +G -- "$f"; fi
rm -f -- "$f""#;

/// Writes `text` to a new private file and returns `spawn` running the pager on it.
pub fn spawn_for(text: String, spawn: Spawn) -> anyhow::Result<Spawn> {
    let path = write_private(text.as_bytes())?;
    let command = ["sh", "-c", SCRIPT, "sluice-pager"]
        .into_iter()
        .map(OsString::from)
        .chain([path.into_os_string()])
        .collect();
    Ok(Spawn {
        command: Some(command),
        ..spawn
    })
}

fn write_private(bytes: &[u8]) -> anyhow::Result<PathBuf> {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let name = format!(
        "scrollback-{}-{}.txt",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    );
    let path = crate::ipc::private_dir()?.join(name);
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&path)
        .with_context(|| format!("cannot create {}", path.display()))?;
    file.write_all(bytes)
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(path)
}

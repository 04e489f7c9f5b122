//! Live reload: the configuration file is watched (inotify, through `notify`) and the window
//! re-reads it when it changes.
//!
//! The directory is watched rather than the file: editors save by writing a new file and
//! renaming it over the old one, which would end a watch on the file itself.

use std::path::{Path, PathBuf};

use notify::{EventKind, RecursiveMode, Watcher as _};

/// Keeps the watch alive; dropping it stops watching.
pub struct ConfigWatcher {
    _watcher: notify::RecommendedWatcher,
}

/// Calls `changed` (on the watcher's thread) whenever `file` is created, written, renamed or
/// removed. Fails if the file's directory cannot be watched (for example, it does not exist).
pub fn watch(file: &Path, changed: impl Fn() + Send + 'static) -> notify::Result<ConfigWatcher> {
    let dir = file
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
        .to_path_buf();
    let name = file.file_name().map(PathBuf::from);
    let mut watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        let Ok(event) = event else {
            return;
        };
        let relevant = matches!(
            event.kind,
            EventKind::Create(_) | EventKind::Modify(_) | EventKind::Remove(_)
        ) && event
            .paths
            .iter()
            .any(|p| p.file_name().map(PathBuf::from) == name);
        if relevant {
            changed();
        }
    })?;
    watcher.watch(&dir, RecursiveMode::NonRecursive)?;
    Ok(ConfigWatcher { _watcher: watcher })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;
    use std::time::Duration;

    #[test]
    fn a_replaced_file_is_noticed_and_its_neighbours_are_not() {
        let dir = std::env::temp_dir().join(format!("sluice-watch-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("sluice.toml");
        let (tx, rx) = mpsc::channel();
        let _watch = watch(&file, move || {
            let _ = tx.send(());
        })
        .unwrap();
        std::fs::write(dir.join("other.toml"), "x").unwrap();
        assert!(rx.recv_timeout(Duration::from_millis(300)).is_err());
        // Saved as editors do: a new file renamed over the old one.
        std::fs::write(dir.join("sluice.toml.tmp"), "[font]\nsize = 13\n").unwrap();
        std::fs::rename(dir.join("sluice.toml.tmp"), &file).unwrap();
        assert!(rx.recv_timeout(Duration::from_secs(5)).is_ok());
        let _ = std::fs::remove_dir_all(&dir);
    }
}

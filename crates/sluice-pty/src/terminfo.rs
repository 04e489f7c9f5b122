//! Which TERM the child gets: `sluice` when its terminfo entry is installed where ncurses
//! looks, else `xterm-256color`, which every host knows (so ssh to a host without the entry
//! keeps working).

use std::path::{Path, PathBuf};

/// Sluice's own entry (assets/terminfo/sluice.terminfo).
pub const SLUICE_TERM: &str = "sluice";
/// The fallback, which Sluice is compatible with.
pub const FALLBACK_TERM: &str = "xterm-256color";

/// The TERM for a new child, looked up in ncurses' search order: `$TERMINFO`,
/// `~/.terminfo`, each of `$TERMINFO_DIRS` (an empty element is the system's), then the
/// system's directories.
pub fn default_term() -> String {
    let env = |name| std::env::var_os(name).filter(|v| !v.is_empty());
    let mut dirs: Vec<PathBuf> = Vec::new();
    dirs.extend(env("TERMINFO").map(PathBuf::from));
    dirs.extend(env("HOME").map(|h| PathBuf::from(h).join(".terminfo")));
    let system = [
        "/etc/terminfo",
        "/lib/terminfo",
        "/usr/share/terminfo",
        "/usr/lib/terminfo",
    ];
    if let Some(list) = env("TERMINFO_DIRS") {
        for dir in std::env::split_paths(&list) {
            if dir.as_os_str().is_empty() {
                dirs.extend(system.iter().map(PathBuf::from));
            } else {
                dirs.push(dir);
            }
        }
    }
    dirs.extend(system.iter().map(PathBuf::from));
    if dirs.iter().any(|dir| has_entry(dir, SLUICE_TERM)) {
        SLUICE_TERM.to_owned()
    } else {
        FALLBACK_TERM.to_owned()
    }
}

/// `$TERMINFO`, if it holds Sluice's entry: then it is the child's too. (A `TERMINFO` that
/// does not is a parent terminal's, kitty's say, and is not passed on.)
pub fn own_terminfo_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(std::env::var_os("TERMINFO").filter(|v| !v.is_empty())?);
    has_entry(&dir, SLUICE_TERM).then_some(dir)
}

/// Whether `dir` holds a compiled entry for `name`: `s/sluice` (Linux), or `73/sluice`
/// (the hexadecimal layout macOS and some BSDs use).
fn has_entry(dir: &Path, name: &str) -> bool {
    let first = name.as_bytes()[0];
    [
        dir.join((first as char).to_string()).join(name),
        dir.join(format!("{first:02x}")).join(name),
    ]
    .iter()
    .any(|p| p.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_is_found_in_either_layout() {
        let dir = std::env::temp_dir().join(format!("sluice-terminfo-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("s")).unwrap();
        assert!(!has_entry(&dir, "sluice"));
        std::fs::write(dir.join("s/sluice"), b"x").unwrap();
        assert!(has_entry(&dir, "sluice"));
        std::fs::remove_dir_all(dir.join("s")).unwrap();
        std::fs::create_dir_all(dir.join("73")).unwrap();
        std::fs::write(dir.join("73/sluice"), b"x").unwrap();
        assert!(has_entry(&dir, "sluice"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

//! OSC 7: the shell reports its working directory as a `file://HOST/PATH` URL, so a new tab,
//! split or window can start where the user is, even inside programs that do not change
//! their own directory (a shell over `ssh` reports another host: that one is not used).
//! alacritty_terminal ignores OSC 7; the feed sees every OSC string before vte does.

use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;
use std::path::PathBuf;

/// The directory an OSC string reports, if it is an OSC 7 for this machine. `osc` is the
/// string as the prescan holds it: from `]` to its terminator (BEL, or ESC `\`).
pub fn working_directory(osc: &[u8]) -> Option<PathBuf> {
    let body = super::prescan::osc_body(osc)?.strip_prefix(b"7;")?;
    let rest = body.strip_prefix(b"file://")?;
    let slash = rest.iter().position(|&b| b == b'/')?;
    let (host, path) = rest.split_at(slash);
    if !is_this_host(host) {
        return None;
    }
    let path = percent_decode(path)?;
    // Only absolute, NUL-free paths: what a directory can be.
    (!path.contains(&0)).then(|| PathBuf::from(OsString::from_vec(path)))
}

/// Whether `host` names this machine: empty, `localhost`, or the kernel's host name.
fn is_this_host(host: &[u8]) -> bool {
    if host.is_empty() || host.eq_ignore_ascii_case(b"localhost") {
        return true;
    }
    // Read once: a shell reports at every prompt, inside the terminal lock.
    static HOSTNAME: std::sync::OnceLock<Option<Vec<u8>>> = std::sync::OnceLock::new();
    let name = HOSTNAME.get_or_init(|| {
        std::fs::read("/proc/sys/kernel/hostname")
            .ok()
            .map(|n| n.trim_ascii().to_vec())
    });
    match name {
        Some(name) => name.eq_ignore_ascii_case(host),
        // Where the host name cannot be read (not Linux), trust the report.
        None => true,
    }
}

/// `%XX` escapes decoded; `None` for a malformed one.
fn percent_decode(bytes: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes.get(i + 1..i + 3)?;
            let hex = std::str::from_utf8(hex).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_urls_of_this_host_give_their_path() {
        let dir = |s: &str| working_directory(s.as_bytes());
        assert_eq!(dir("]7;file:///tmp\x07"), Some("/tmp".into()));
        assert_eq!(dir("]7;file://localhost/a%20b\x1b\\"), Some("/a b".into()));
        let host = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap();
        let url = format!("]7;file://{}/srv/x\x07", host.trim());
        assert_eq!(dir(&url), Some("/srv/x".into()));
        assert_eq!(
            dir("]7;file://elsewhere.example/tmp\x07"),
            None,
            "another host"
        );
        assert_eq!(dir("]7;https://example.com/tmp\x07"), None);
        assert_eq!(dir("]7;file:///bad%zz\x07"), None);
        assert_eq!(dir("]7;file:///nul%00\x07"), None);
        assert_eq!(dir("]2;file:///tmp\x07"), None, "a title");
    }
}

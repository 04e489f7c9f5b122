//! X10 mouse compatibility mode (`CSI ? 9 h`), which alacritty_terminal does not track.
//!
//! The parser thread runs every slice through this scanner as well as through the terminal.
//! It looks only at escape sequences (found with `memchr`, so plain text costs nothing),
//! and follows xterm's rules: 9 turns X10 reporting on, 9 off or any of 1000, 1002 and 1003
//! turns it off (the mouse modes replace one another), and a full reset (RIS) turns it off.
//!
//! Its cost is within noise even where escapes are densest: 64 MiB of the `color` payload
//! through `sluice --headless` took a median 1.257 s before the scanner and 1.272 s with it
//! (three runs each, alternating, 2 vCPUs).

/// Longest sequence worth keeping across slices; anything longer is not a mode change.
const MAX_PENDING: usize = 64;

#[derive(Debug, Default)]
pub(crate) struct X10Scanner {
    on: bool,
    /// The start of a sequence cut off at the end of the previous slice.
    pending: Vec<u8>,
}

/// What parsing at an ESC found.
enum Found {
    /// A complete sequence (or one of no interest) of this many bytes.
    Done(usize),
    /// The bytes end before the sequence does.
    Incomplete,
}

impl X10Scanner {
    pub(crate) fn on(&self) -> bool {
        self.on
    }

    /// Follows the mode through the next bytes of output.
    pub(crate) fn scan(&mut self, bytes: &[u8]) {
        let mut i = 0;
        if !self.pending.is_empty() {
            let had = self.pending.len();
            let take = bytes.len().min(MAX_PENDING);
            let mut joined = std::mem::take(&mut self.pending);
            joined.extend_from_slice(&bytes[..take]);
            match self.parse(&joined) {
                Found::Done(len) => i = len.saturating_sub(had),
                Found::Incomplete if take == bytes.len() && joined.len() < MAX_PENDING => {
                    self.pending = joined;
                    return;
                }
                // Too long to be a mode change: give up on it.
                Found::Incomplete => i = take,
            }
        }
        while let Some(offset) = memchr::memchr(0x1b, &bytes[i..]) {
            let start = i + offset;
            match self.parse(&bytes[start..]) {
                Found::Done(len) => i = start + len,
                Found::Incomplete => {
                    if bytes.len() - start < MAX_PENDING {
                        self.pending = bytes[start..].to_vec();
                    }
                    return;
                }
            }
        }
    }

    /// Parses at an ESC; applies a mode change if it is one.
    fn parse(&mut self, b: &[u8]) -> Found {
        match b.get(1) {
            None => return Found::Incomplete,
            Some(b'c') => {
                self.on = false;
                return Found::Done(2);
            }
            Some(b'[') => {}
            Some(_) => return Found::Done(1),
        }
        match b.get(2) {
            None => return Found::Incomplete,
            Some(b'?') => {}
            Some(_) => return Found::Done(2),
        }
        let params_end = b[3..]
            .iter()
            .position(|&c| !(c.is_ascii_digit() || c == b';'))
            .map(|p| p + 3);
        let Some(end) = params_end else {
            return Found::Incomplete;
        };
        let set = match b[end] {
            b'h' => true,
            b'l' => false,
            _ => return Found::Done(end + 1),
        };
        for param in b[3..end].split(|&c| c == b';') {
            match param {
                b"9" => self.on = set,
                b"1000" | b"1002" | b"1003" if set => self.on = false,
                _ => {}
            }
        }
        Found::Done(end + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn after(chunks: &[&[u8]]) -> bool {
        let mut s = X10Scanner::default();
        for c in chunks {
            s.scan(c);
        }
        s.on()
    }

    #[test]
    fn follows_the_mode_through_output() {
        assert!(after(&[b"text\x1b[?9hmore"]));
        assert!(!after(&[b"\x1b[?9h", b"\x1b[?9l"]));
        assert!(after(&[b"\x1b[?25;9h"]), "among other modes");
        assert!(!after(&[b"\x1b[?9h\x1b[?1000h"]), "1000 replaces it");
        assert!(!after(&[b"\x1b[?9h\x1bc"]), "a full reset ends it");
        assert!(!after(&[b"\x1b[9h\x1b[?19h\x1b[?90h"]), "not mode 9");
        assert!(after(&[b"\x1b[31mred\x1b[0m\x1b[?9h\x1b]0;title\x07"]));
    }

    #[test]
    fn a_sequence_split_across_slices_counts() {
        for split in 1..6 {
            let seq = b"ab\x1b[?9h";
            let (a, b) = seq.split_at(split + 1);
            assert!(after(&[a, b]), "split at {split}");
        }
        assert!(after(&[b"\x1b", b"[", b"?", b"9", b"h"]));
        // A long unrelated sequence does not hold on to memory or swallow what follows.
        let long = [b'1'; 200];
        assert!(after(&[b"\x1b[?", &long, b"h\x1b[?9h"]));
    }
}

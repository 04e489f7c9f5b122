//! Finding the runs of printable ASCII the fast path can take.

use std::ops::Range;

/// The shortest run worth the fast path.
///
/// Taking a run costs up to two extra calls into vte (the split before it, and the probe unless
/// vte is known to be in ground) and saves a `Term::input` call per byte. Measured with a probe
/// on every run, `parse-ratio 9 4 PAYLOAD` (fast path over vte alone, medians):
///
/// | MIN_RUN | plain | color | progress |
/// |---|---|---|---|
/// | 8 | 1.61 | 0.94 | 0.93 |
/// | 16 | 1.71 | 1.02 | 0.96 |
/// | 32 | 1.78 | 1.06 | 0.99 |
/// | 64 | 1.86 | 1.04 | 0.96 |
///
/// Short runs between SGR sequences (the color and progress payloads) lose at 8; from 32 up the
/// differences are within this machine's noise, and 32 still takes a typical log line.
const MIN_RUN: usize = 32;

const ESC: u8 = 0x1b;

/// Whether `byte` is printable ASCII: printed by vte in its ground state, one cell wide.
fn is_printable(byte: u8) -> bool {
    (0x20..0x7f).contains(&byte)
}

/// Whether vte, in its ground state, stays there through `bytes`: printable ASCII is printed,
/// and C0 controls other than ESC are executed without leaving ground (CAN and SUB return to
/// it from anywhere). Anything else may start a sequence, or a UTF-8 character that the next
/// byte would finish.
pub(super) fn keeps_ground(bytes: &[u8]) -> bool {
    bytes.iter().all(|&b| b <= 0x7e && b != ESC)
}

/// The first run of at least [`MIN_RUN`] printable bytes in `bytes`.
///
/// A run that starts right after ESC usually begins with the rest of an escape sequence
/// (`ESC [ 1 ; 3 1 m` then text): the sequence's bytes are left out of the run, so the probe
/// lands on the text. This is only a guess that saves a failed probe; the probe is what makes
/// the fast path safe.
pub(super) fn next_run(bytes: &[u8]) -> Option<Range<usize>> {
    let mut from = 0;
    while from < bytes.len() {
        let start = from + bytes[from..].iter().position(|&b| is_printable(b))?;
        let end = start + printable_prefix(&bytes[start..]);
        let text_start = if start > 0 && bytes[start - 1] == ESC {
            after_escape(&bytes[start..end]).map_or(end, |n| start + n)
        } else {
            start
        };
        if end - text_start >= MIN_RUN {
            return Some(text_start..end);
        }
        from = end;
    }
    None
}

/// How many bytes at the start of `bytes` are printable, eight at a time.
///
/// This scan runs over every searched byte, so it is done on whole words. (It went in together
/// with the search's back-off and the longer [`MIN_RUN`], which between them took the
/// SGR-heavy payloads from 0.83–0.94 of vte alone to 0.97–1.09; they were not measured apart.)
pub(super) fn printable_prefix(bytes: &[u8]) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut chunks = bytes.chunks_exact(8);
    let mut done = 0;
    for chunk in &mut chunks {
        let word = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
        // A byte's high bit is set here if it is below 0x20 (a borrow out of `byte - 0x20`,
        // for bytes without their own high bit), 0x7f (`(byte & 0x7f) + 1` reaches 0x80),
        // or 0x80 and above. The lowest flagged byte is exact; higher ones may be borrow noise.
        let below_space = word.wrapping_sub(0x20 * ONES) & !word;
        let del_or_high = ((word & !HIGH) + ONES) | word;
        let flagged = (below_space | del_or_high) & HIGH;
        if flagged != 0 {
            return done + (flagged.trailing_zeros() / 8) as usize;
        }
        done += 8;
    }
    done + chunks
        .remainder()
        .iter()
        .position(|&b| !is_printable(b))
        .unwrap_or(chunks.remainder().len())
}

/// Where the text starts in `run`, which follows an ESC: after a CSI's final byte, or after an
/// escape's intermediates and final byte. `None` for strings (OSC, DCS, ...), which run on to
/// their terminator.
fn after_escape(run: &[u8]) -> Option<usize> {
    match run[0] {
        b'[' => run[1..]
            .iter()
            .position(|b| (0x40..=0x7e).contains(b))
            .map(|n| n + 2),
        b']' | b'P' | b'X' | b'^' | b'_' => None,
        _ => run
            .iter()
            .position(|b| !(0x20..=0x2f).contains(b))
            .map(|n| n + 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_text(bytes: &[u8]) -> Option<&[u8]> {
        next_run(bytes).map(|r| &bytes[r])
    }

    /// `len` bytes of text.
    fn text(len: usize) -> Vec<u8> {
        (0..len).map(|i| b'a' + (i % 26) as u8).collect()
    }

    fn cat(parts: &[&[u8]]) -> Vec<u8> {
        parts.concat()
    }

    #[test]
    fn a_plain_line_is_one_run() {
        let line = cat(&[&text(80), b"\r\n"]);
        assert_eq!(run_text(&line), Some(&text(80)[..]));
    }

    #[test]
    fn short_runs_are_left_to_vte() {
        let short = text(MIN_RUN - 1);
        assert_eq!(run_text(&cat(&[&short, b"\r\n", &short, b"\n"])), None);
        let long = text(MIN_RUN);
        assert_eq!(
            run_text(&cat(&[&short, b"\r\n", &long, b"\n"])),
            Some(&long[..])
        );
    }

    #[test]
    fn escape_sequences_are_skipped() {
        let long = text(MIN_RUN);
        let sgr = cat(&[b"\x1b[1;31m", &long, b"\x1b[0m"]);
        assert_eq!(run_text(&sgr), Some(&long[..]));
        let charset = cat(&[b"\x1b(B", &long]);
        assert_eq!(run_text(&charset), Some(&long[..]));
        let short = cat(&[b"\x1b[31m\x1b[1m", &text(MIN_RUN - 1)]);
        assert_eq!(run_text(&short), None);
    }

    #[test]
    fn strings_are_not_runs() {
        let long = text(MIN_RUN);
        assert_eq!(run_text(&cat(&[b"\x1b]0;", &long, b"\x07"])), None);
        let after = cat(&[b"\x1b]0;", &long, b"\x07", &long]);
        assert_eq!(run_text(&after), Some(&long[..]));
    }

    #[test]
    fn the_word_scan_agrees_with_the_byte_test() {
        for byte in 0..=255u8 {
            for at in 0..20 {
                let mut bytes = vec![b'a'; 20];
                bytes[at] = byte;
                let expected = if is_printable(byte) { 20 } else { at };
                assert_eq!(printable_prefix(&bytes), expected, "byte {byte:#x} at {at}");
            }
        }
    }

    #[test]
    fn utf8_ends_a_run() {
        let long = text(MIN_RUN);
        let mixed = cat(&[&long, "€".as_bytes(), &text(3)]);
        assert_eq!(run_text(&mixed), Some(&long[..]));
    }
}

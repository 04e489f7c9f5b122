//! Finding the runs of text the fast path can take, and splitting them into what it writes and
//! what vte must see.

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
/// differences are within this machine's noise, and 32 still takes a typical log line. A run
/// with characters beyond ASCII must have this many characters, not only bytes; its line ends
/// (CR, LF) count as characters, so that a stretch of short lines is a run.
const MIN_RUN: usize = 32;

const ESC: u8 = 0x1b;

/// Whether `byte` can be part of text: printable ASCII, or a byte of a UTF-8 character (0xff
/// never is). Whether the UTF-8 bytes really make characters, and which, is for [`split_at_c1`]
/// and `str::utf8_chunks` to say once a run is found.
#[inline(always)]
pub(super) fn is_text_byte(byte: u8) -> bool {
    (0x20..0x7f).contains(&byte) || (0x80..0xff).contains(&byte)
}

/// Whether vte, in its ground state, stays there through `bytes`: characters are printed, and
/// controls other than ESC (C0, and C1 encoded in UTF-8) are executed without leaving ground
/// (CAN and SUB return to it from anywhere). ESC may start a sequence, and bytes that are not
/// whole UTF-8 characters may leave one unfinished for the next byte to finish.
pub(super) fn keeps_ground(bytes: &[u8]) -> bool {
    if bytes.iter().all(|&b| b <= 0x7e && b != ESC) {
        return true;
    }
    // The last character of a run of text, then a line feed, say.
    !bytes.contains(&ESC) && std::str::from_utf8(bytes).is_ok()
}

/// A run of text found by [`next_run`].
pub(super) struct Run {
    /// Where it is; it may go on past the bytes searched, if it reaches their end.
    pub(super) bytes: Range<usize>,
    /// Whether it is all ASCII (only escape sequences' bytes can be before it in the same
    /// stretch of text bytes, and they are ASCII).
    pub(super) ascii: bool,
}

/// The first run of at least [`MIN_RUN`] characters of text in `bytes`.
///
/// A run that starts right after ESC usually begins with the rest of an escape sequence
/// (`ESC [ 1 ; 3 1 m` then text): the sequence's bytes are left out of the run, so the probe
/// lands on the text. This is only a guess that saves a failed probe; the probe is what makes
/// the fast path safe.
pub(super) fn next_run(bytes: &[u8]) -> Option<Run> {
    let mut from = 0;
    while from < bytes.len() {
        let start = from + bytes[from..].iter().position(|&b| is_text_byte(b))?;
        let (len, ascii) = lines_extent(&bytes[start..]);
        let end = start + len;
        let text_start = if start > 0 && bytes[start - 1] == ESC {
            let after = after_escape(&bytes[start..end]).map_or(end, |n| start + n);
            // A run starts on a character, which the probe can print.
            after + line_ends(&bytes[after..end])
        } else {
            start
        };
        // Counted in characters: a progress bar of 16 block characters is 48 bytes, but taking
        // it costs more calls into vte than its characters save, and stops the search from
        // backing off on such output (`parse-ratio 7 8 progress`: 0.72-0.82 of vte alone
        // when bars counted as runs, 0.85-0.91 before).
        if end - text_start >= MIN_RUN && (ascii || characters(&bytes[text_start..end]) >= MIN_RUN)
        {
            return Some(Run {
                bytes: text_start..end,
                ascii,
            });
        }
        from = end;
    }
    None
}

/// Whether `byte` ends a line: CR or LF, which vte executes in its ground state without leaving
/// it, and which a run takes in its stride (see [`lines_extent`]).
#[inline(always)]
pub(super) fn is_line_end(byte: u8) -> bool {
    byte == b'\r' || byte == b'\n'
}

/// How many line ends `bytes` starts with.
#[inline(always)]
pub(super) fn line_ends(bytes: &[u8]) -> usize {
    bytes.iter().take_while(|&&b| is_line_end(b)).count()
}

/// How many bytes at the start of `bytes` are text bytes or line ends, and whether they are
/// all ASCII: a run goes on from one line to the next.
///
/// Lines shorter than [`MIN_RUN`] (`ls -1`, `seq`, vtebench's scrolling benchmarks) went
/// through vte and `Term::input` a character at a time, as did the line end of every long
/// line, one call into vte a line.
#[inline(always)]
pub(super) fn lines_extent(bytes: &[u8]) -> (usize, bool) {
    let (mut len, mut ascii) = text_extent(bytes);
    loop {
        let ends = line_ends(&bytes[len..]);
        if ends == 0 {
            return (len, ascii);
        }
        len += ends;
        let (more, more_ascii) = text_extent(&bytes[len..]);
        len += more;
        ascii &= more_ascii;
    }
}

/// How many bytes at the start of `bytes` are text bytes, eight at a time, and whether those
/// are all ASCII (which the same pass sees for free, and saves looking at a log line again).
///
/// This scan runs over every searched byte, so it is done on whole words. (It went in together
/// with the search's back-off and the longer [`MIN_RUN`], which between them took the
/// SGR-heavy payloads from 0.83–0.94 of vte alone to 0.97–1.09; they were not measured apart.)
#[inline(always)]
fn text_extent(bytes: &[u8]) -> (usize, bool) {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut chunks = bytes.chunks_exact(8);
    let mut done = 0;
    let mut high = 0;
    for chunk in &mut chunks {
        let word = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
        // A byte's high bit is set here if it is below 0x20 (a borrow out of `byte - 0x20`,
        // for bytes without their own high bit), or 0x7f or 0xff (`(byte & 0x7f) + 1` reaches
        // 0x80). The lowest flagged byte is exact; higher ones may be borrow noise.
        let below_space = word.wrapping_sub(0x20 * ONES) & !word;
        let del = (word & !HIGH) + ONES;
        let flagged = (below_space | del) & HIGH;
        if flagged != 0 {
            let text = (flagged.trailing_zeros() / 8) as usize;
            high |= word & ((1u64 << (text * 8)) - 1);
            return (done + text, high & HIGH == 0);
        }
        high |= word;
        done += 8;
    }
    let tail = chunks.remainder();
    let text = tail
        .iter()
        .position(|&b| !is_text_byte(b))
        .unwrap_or(tail.len());
    let ascii = high & HIGH == 0 && tail[..text].is_ascii();
    (done + text, ascii)
}

/// Whether `byte` continues a UTF-8 character rather than starting one.
#[inline(always)]
pub(super) fn is_continuation(byte: u8) -> bool {
    (0x80..0xc0).contains(&byte)
}

/// How many characters `bytes` would make: its bytes that are not UTF-8 continuation bytes.
fn characters(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| !is_continuation(b)).count()
}

/// `text` up to its first control, and that control: a C1 control (U+0080 to U+009F, which
/// vte executes rather than prints; two bytes) or the line ends there (CR and LF, as many as
/// follow each other). Both are empty if there is none.
pub(super) fn split_at_control(text: &str) -> (&str, &str) {
    let bytes = text.as_bytes();
    let mut from = 0;
    // In UTF-8 every C1 control is 0xc2 followed by 0x80..=0x9f.
    while let Some(at) = memchr::memchr3(0xc2, b'\r', b'\n', &bytes[from..]) {
        let at = from + at;
        if is_line_end(bytes[at]) {
            let ends = line_ends(&bytes[at..]);
            return (&text[..at], &text[at..at + ends]);
        }
        if bytes.get(at + 1).is_some_and(|&b| b <= 0x9f) {
            return (&text[..at], &text[at..at + 2]);
        }
        from = at + 1;
    }
    (text, "")
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
        next_run(bytes).map(|r| &bytes[r.bytes])
    }

    /// `len` bytes of text.
    fn text(len: usize) -> Vec<u8> {
        (0..len).map(|i| b'a' + (i % 26) as u8).collect()
    }

    fn cat(parts: &[&[u8]]) -> Vec<u8> {
        parts.concat()
    }

    #[test]
    fn a_plain_line_is_one_run_with_its_line_end() {
        let line = cat(&[&text(80), b"\r\n"]);
        assert_eq!(run_text(&line), Some(&line[..]));
        let tab = cat(&[&text(80), b"\t"]);
        assert_eq!(run_text(&tab), Some(&text(80)[..]));
    }

    #[test]
    fn short_lines_make_one_run() {
        let lines = b"a\r\nbb\nccc\r\r\n\n1\r\n22\r\n333\r\n4444\r\n55555\r\n".as_slice();
        assert!(lines.len() >= MIN_RUN);
        assert_eq!(run_text(lines), Some(lines));
        assert_eq!(run_text(&lines[..MIN_RUN - 1]), None);
    }

    #[test]
    fn short_runs_between_sequences_are_left_to_vte() {
        let short = text(MIN_RUN / 2 - 2);
        let between = cat(&[&short, b"\x1b[1m", &short, b"\r\n\x1b[m", &short]);
        assert_eq!(run_text(&between), None);
    }

    #[test]
    fn a_run_after_a_sequence_starts_on_a_character() {
        let long = text(MIN_RUN);
        let bytes = cat(&[b"\x1b[40;1H\r\n", &long]);
        assert_eq!(run_text(&bytes), Some(&long[..]));
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
                let expected = if is_text_byte(byte) { 20 } else { at };
                assert_eq!(text_extent(&bytes).0, expected, "byte {byte:#x} at {at}");
            }
        }
    }

    #[test]
    fn the_extent_says_whether_the_text_is_ascii() {
        for len in 0..20 {
            let ascii = text(len);
            assert_eq!(text_extent(&cat(&[&ascii, b"\n"])), (len, true));
            for at in 0..len {
                let mut mixed = ascii.clone();
                mixed[at] = 0xc3;
                assert_eq!(text_extent(&cat(&[&mixed, b"\n"])), (len, false), "{at}");
                // Past the end of the text, a high byte does not count.
                let after = cat(&[&ascii[..at], b"\n\xc3\xa9"]);
                assert_eq!(text_extent(&after), (at, true), "{at}");
            }
        }
    }

    #[test]
    fn utf8_is_part_of_a_run() {
        let long = text(MIN_RUN);
        let mixed = cat(&[&long, "€".as_bytes(), &text(3), b"\r\n"]);
        assert_eq!(run_text(&mixed), Some(&mixed[..]));
        let cjk = "漢字かな表示".repeat(6);
        assert_eq!(run_text(cjk.as_bytes()), Some(cjk.as_bytes()));
        // DEL and 0xff (never UTF-8) end a run as controls do.
        assert_eq!(run_text(&cat(&[&long, b"\x7f", &text(3)])), Some(&long[..]));
        assert_eq!(run_text(&cat(&[&long, b"\xff", &text(3)])), Some(&long[..]));
    }

    #[test]
    fn what_keeps_vte_in_ground() {
        assert!(keeps_ground(b"abc\r\n\x07\x7f"));
        assert!(keeps_ground("漢\r\n\u{85}".as_bytes()));
        assert!(!keeps_ground(b"abc\x1b"));
        assert!(!keeps_ground("漢\x1b[m".as_bytes()));
        // An unfinished character, or a byte that is not UTF-8.
        assert!(!keeps_ground(b"ab\xe6\xbc"));
        assert!(!keeps_ground(b"ab\xff\n"));
    }

    #[test]
    fn runs_are_counted_in_characters() {
        // 16 block characters, 48 bytes: a progress bar, not a run.
        let bar = "█".repeat(8) + &"░".repeat(8);
        assert_eq!(run_text(bar.as_bytes()), None);
        let long = "漢".repeat(MIN_RUN);
        assert_eq!(run_text(long.as_bytes()), Some(long.as_bytes()));
    }

    #[test]
    fn c1_controls_and_line_ends_are_split_off() {
        assert_eq!(split_at_control("abc"), ("abc", ""));
        assert_eq!(split_at_control("ab\u{85}cd"), ("ab", "\u{85}"));
        assert_eq!(split_at_control("\u{9f}"), ("", "\u{9f}"));
        // Other characters led by 0xc2 are text.
        assert_eq!(split_at_control("\u{a0}é\u{bf}"), ("\u{a0}é\u{bf}", ""));
        assert_eq!(split_at_control("\u{a9}\u{80}x"), ("\u{a9}", "\u{80}"));
        assert_eq!(split_at_control("漢\r\n\r字"), ("漢", "\r\n\r"));
        assert_eq!(split_at_control("\n\u{85}"), ("", "\n"));
    }

    #[test]
    fn the_lines_extent_goes_over_line_ends() {
        assert_eq!(lines_extent(b"ab\r\ncd\n\x1b[m"), (7, true));
        assert_eq!(lines_extent("ab\n\r漢\t".as_bytes()), (7, false));
        assert_eq!(lines_extent(b"\r\n"), (2, true));
        assert_eq!(lines_extent(b"\x07ab"), (0, true));
    }
}

//! Measuring runs of text and line ends, and splitting them into what the fast path writes and
//! what vte must see.

const ESC: u8 = 0x1b;

/// Whether `byte` can be part of text: printable ASCII, or a byte of a UTF-8 character (0xff
/// never is). Whether the UTF-8 bytes really make characters, and which, is for
/// [`split_at_control`] and `str::utf8_chunks` to say once a run is measured.
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

/// How many bytes at the start of `bytes` are text bytes or line ends: a run goes on from one
/// line to the next.
///
/// Short lines (`ls -1`, `seq`, vtebench's scrolling benchmarks) are one run, which the fast
/// path takes whole; before runs went over line ends, each line end was a call into vte.
#[inline(always)]
pub(super) fn lines_extent(bytes: &[u8]) -> usize {
    let mut len = text_extent(bytes).0;
    loop {
        let ends = line_ends(&bytes[len..]);
        if ends == 0 {
            return len;
        }
        len += ends;
        len += text_extent(&bytes[len..]).0;
    }
}

/// How many bytes at the start of `bytes` are text bytes, eight at a time, and whether those
/// are all ASCII (which the same pass sees for free, and saves looking at a log line again).
///
/// This scan runs over every byte of text, so it is done on whole words. (It went in together
/// with a search for runs of at least 32 characters and its back-off, since removed, which
/// between them took the SGR-heavy payloads from 0.83–0.94 of vte alone to 0.97–1.09; they
/// were not measured apart.)
#[inline(always)]
pub(super) fn text_extent(bytes: &[u8]) -> (usize, bool) {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// `len` bytes of text.
    fn text(len: usize) -> Vec<u8> {
        (0..len).map(|i| b'a' + (i % 26) as u8).collect()
    }

    fn cat(parts: &[&[u8]]) -> Vec<u8> {
        parts.concat()
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
        let lines = b"a\r\nbb\nccc\r\r\n\n1\r\n22\r\n".as_slice();
        assert_eq!(lines_extent(lines), lines.len());
        let mixed = cat(&[&text(40), "€".as_bytes(), &text(3), b"\r\n"]);
        assert_eq!(lines_extent(&mixed), mixed.len());
        // DEL, 0xff (never UTF-8), tabs and ESC end it as other controls do.
        for end in [b"\x7f", b"\xff", b"\t", b"\x1b"] {
            assert_eq!(lines_extent(&cat(&[&text(40), end, &text(3)])), 40);
        }
        assert_eq!(lines_extent(b"ab\r\ncd\n\x1b[m"), 7);
        assert_eq!(lines_extent("ab\n\r漢\t".as_bytes()), 7);
        assert_eq!(lines_extent(b"\r\n"), 2);
        assert_eq!(lines_extent(b"\x07ab"), 0);
    }
}

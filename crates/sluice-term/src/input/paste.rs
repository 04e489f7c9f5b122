//! Pasted text, made safe for the program.
//!
//! What is pasted often comes from a program or a web page the user does not control (OSC 52
//! lets any program's output set the clipboard), so a paste must not be able to do more than
//! insert its text. The line discipline and readline act on control characters even inside a
//! bracketed paste: with bash 5.2, `echo harmless\x03\ntouch /tmp/x\n` pasted ran `touch`,
//! because ^C cancelled the bracketed line and the rest was typed as commands.

/// Bracketed paste markers (DECSET 2004).
const PASTE_START: &str = "\x1b[200~";
const PASTE_END: &str = "\x1b[201~";

/// Encodes pasted text for the program.
///
/// Every control character but tab, line feed and carriage return becomes a space, in every
/// mode: the C0 controls (^C interrupts, ^Z suspends, ^D ends input, ^U and ^W erase, ESC
/// starts key sequences and could end a bracketed paste early), DEL, and the C1 controls
/// (U+0080–U+009F, which some programs read as escape sequences). A space keeps the text's
/// shape where a control stood, as Ghostty does. With bracketed paste on, the text is wrapped
/// in the markers, and any end marker in it is removed first. Without it, newlines become
/// carriage returns, as typed Enter keys are; a paste with newlines outside bracketed paste is
/// for the front end to confirm first (see [`is_unsafe_paste`]).
pub fn encode_paste(text: &str, bracketed: bool) -> Vec<u8> {
    let text = text.replace(PASTE_END, "");
    let clean = text.chars().map(|c| if is_stripped(c) { ' ' } else { c });
    let mut out = String::with_capacity(text.len() + PASTE_START.len() + PASTE_END.len());
    if bracketed {
        out.push_str(PASTE_START);
        out.extend(clean);
        out.push_str(PASTE_END);
    } else {
        out.extend(clean);
        out = out.replace("\r\n", "\r").replace('\n', "\r");
    }
    out.into_bytes()
}

/// Whether pasting `text` without bracketed paste could run something the user has not seen
/// whole: it holds a line break (each one is Enter) or a control character (which
/// [`encode_paste`] would replace). Front ends ask before such a paste.
pub fn is_unsafe_paste(text: &str) -> bool {
    text.chars()
        .any(|c| c == '\n' || c == '\r' || is_stripped(c))
}

/// The characters a paste never carries.
fn is_stripped(c: char) -> bool {
    c.is_control() && !matches!(c, '\t' | '\n' | '\r')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bracketed_paste_cannot_end_early() {
        let encoded = encode_paste("a\x1b[201~rm -rf ~\nb", true);
        let s = String::from_utf8(encoded).unwrap();
        assert_eq!(s, "\x1b[200~arm -rf ~\nb\x1b[201~");
        assert_eq!(s.matches(PASTE_END).count(), 1);
        // A marker split by an ESC cannot reassemble: the ESC is a space.
        let s = String::from_utf8(encode_paste("\x1b[20\x1b1~x", true)).unwrap();
        assert_eq!(s, "\x1b[200~ [20 1~x\x1b[201~");
        assert_eq!(s.matches(PASTE_END).count(), 1);
    }

    #[test]
    fn plain_paste_sends_carriage_returns() {
        assert_eq!(encode_paste("a\nb\r\nc", false), b"a\rb\rc");
    }

    /// Every control a shell or the line discipline acts on, in both modes.
    #[test]
    fn controls_become_spaces_in_both_modes() {
        let cases: &[(&str, &str)] = &[
            (
                "echo harmless\x03\ntouch /tmp/x\n",
                "echo harmless \ntouch /tmp/x\n",
            ),
            ("a\x1ab\x04c\x00d", "a b c d"),        // ^Z, ^D, NUL
            ("a\x15b\x17c\x7fd\x08e", "a b c d e"), // ^U, ^W, DEL, BS
            ("a\x12b\x16c\x0fd\x11e\x13f", "a b c d e f"), // ^R, ^V, ^O, ^Q, ^S
            ("\u{9b}31m\u{9d}0;x\u{9c}", " 31m 0;x "), // C1 CSI, OSC, ST
            ("tab\tstays", "tab\tstays"),
            ("é — 漢字 😀", "é — 漢字 😀"),
        ];
        for &(input, expected) in cases {
            let bracketed = String::from_utf8(encode_paste(input, true)).unwrap();
            assert_eq!(
                bracketed,
                format!("{PASTE_START}{expected}{PASTE_END}"),
                "{input:?}"
            );
            let plain = String::from_utf8(encode_paste(input, false)).unwrap();
            assert_eq!(plain, expected.replace('\n', "\r"), "{input:?}");
        }
    }

    #[test]
    fn newlines_and_controls_make_a_paste_unsafe() {
        for unsafe_text in ["ls\n", "a\rb", "x\x03", "\x1b[201~", "\u{9b}"] {
            assert!(is_unsafe_paste(unsafe_text), "{unsafe_text:?}");
        }
        for safe in ["ls -la", "tab\there", "漢字", ""] {
            assert!(!is_unsafe_paste(safe), "{safe:?}");
        }
    }
}

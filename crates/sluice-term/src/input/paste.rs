//! Pasted text, made safe for the program.

/// Bracketed paste markers (DECSET 2004).
const PASTE_START: &str = "\x1b[200~";
const PASTE_END: &str = "\x1b[201~";

/// Encodes pasted text for the program.
///
/// With bracketed paste on, the text is wrapped in the markers, and every end marker and then
/// every remaining ESC is removed from it, so pasted text can never end the paste early and
/// smuggle in commands (a malicious web page's `\e[201~rm -rf ~\n`). Without it, newlines become carriage returns, as typed Enter
/// keys are, and ESC is left alone: the program asked for no protection, and keys like ESC
/// are legitimately pasted into editors that way.
pub fn encode_paste(text: &str, bracketed: bool) -> Vec<u8> {
    if bracketed {
        let mut out = String::with_capacity(text.len() + PASTE_START.len() + PASTE_END.len());
        out.push_str(PASTE_START);
        out.extend(text.replace(PASTE_END, "").chars().filter(|&c| c != '\x1b'));
        out.push_str(PASTE_END);
        out.into_bytes()
    } else {
        text.replace("\r\n", "\r").replace('\n', "\r").into_bytes()
    }
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
        // A marker split by an ESC that is itself removed cannot reassemble.
        let s = String::from_utf8(encode_paste("\x1b[20\x1b1~x", true)).unwrap();
        assert_eq!(s, "\x1b[200~[201~x\x1b[201~");
        assert_eq!(s.matches(PASTE_END).count(), 1);
    }

    #[test]
    fn plain_paste_sends_carriage_returns() {
        assert_eq!(encode_paste("a\nb\r\nc", false), b"a\rb\rc");
    }
}

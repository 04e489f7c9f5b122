//! Paste sanitising over any text: the result never carries a control character a shell or
//! the line discipline acts on, a bracketed paste has exactly its own two markers, and a paste
//! that is not "unsafe" goes through unchanged.

#![no_main]

use libfuzzer_sys::fuzz_target;
use sluice_term::input::{encode_paste, is_unsafe_paste};

const START: &str = "\x1b[200~";
const END: &str = "\x1b[201~";

fuzz_target!(|text: &str| {
    let bracketed = String::from_utf8(encode_paste(text, true)).expect("UTF-8 in, UTF-8 out");
    let body = bracketed
        .strip_prefix(START)
        .and_then(|b| b.strip_suffix(END))
        .expect("wrapped in the markers");
    assert!(
        body.chars()
            .all(|c| !c.is_control() || matches!(c, '\t' | '\n' | '\r')),
        "{body:?}"
    );
    let plain = String::from_utf8(encode_paste(text, false)).expect("UTF-8 in, UTF-8 out");
    assert!(
        plain
            .chars()
            .all(|c| !c.is_control() || matches!(c, '\t' | '\r')),
        "{plain:?}"
    );
    if !is_unsafe_paste(text) && !text.contains(END) {
        assert_eq!(plain, text, "a safe paste is sent as it is");
    }
});

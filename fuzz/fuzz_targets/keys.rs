//! Key and mouse encoding over any event and any terminal modes: no panic, and what is sent is
//! well formed (a release without the kitty protocol sends nothing; a mouse report is an
//! escape sequence).

#![no_main]

use alacritty_terminal::term::TermMode;
use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use sluice_term::input::{
    Key, KeyAction, KeyPress, Mods, MouseEvent, encode_key, encode_mouse, reporting,
};

#[derive(Debug, Arbitrary)]
struct Input {
    key: Key,
    text: Option<String>,
    mods: Mods,
    action: KeyAction,
    modes: u32,
    mouse: MouseEvent,
    col: u16,
    row: u16,
    x10: bool,
}

fuzz_target!(|input: Input| {
    let modes = TermMode::from_bits_truncate(input.modes);
    let press = KeyPress {
        key: input.key,
        text: input.text.as_deref(),
        mods: input.mods,
        action: input.action,
    };
    let sent = encode_key(&press, modes);
    if input.action == KeyAction::Release && !modes.intersects(TermMode::KITTY_KEYBOARD_PROTOCOL) {
        assert_eq!(
            sent, None,
            "a release is only reported under the kitty protocol"
        );
    }
    if let Some(bytes) = &sent {
        assert!(
            !bytes.is_empty(),
            "Some means something is sent: {press:?} {modes:?}"
        );
    }
    let report = encode_mouse(
        input.mouse,
        input.mods,
        input.col as usize,
        input.row as usize,
        modes,
        input.x10,
    );
    if let Some(bytes) = report {
        assert!(reporting(modes, input.x10), "reports only when asked for");
        assert_eq!(bytes.first(), Some(&0x1b), "a report is an escape sequence");
    }
});

//! Key encodings checked table-wise against xterm's ctlseqs ("PC-Style Function Keys",
//! "VT220-Style Function Keys", "Alt and Meta Keys") and kitty's keyboard-protocol document.

use super::*;

const S: Mods = Mods {
    shift: true,
    ..Mods::NONE
};
const A: Mods = Mods {
    alt: true,
    ..Mods::NONE
};
const C: Mods = Mods {
    ctrl: true,
    ..Mods::NONE
};
const SUP: Mods = Mods {
    super_key: true,
    ..Mods::NONE
};
const CS: Mods = Mods {
    ctrl: true,
    shift: true,
    ..Mods::NONE
};
const CA: Mods = Mods {
    ctrl: true,
    alt: true,
    ..Mods::NONE
};
const N: Mods = Mods::NONE;

fn named(n: Named) -> Key {
    Key::Named(n)
}

struct Row {
    key: Key,
    text: Option<&'static str>,
    mods: Mods,
    modes: TermMode,
    expected: &'static [u8],
}

fn row(key: Key, text: Option<&'static str>, mods: Mods, expected: &'static [u8]) -> Row {
    Row {
        key,
        text,
        mods,
        modes: TermMode::empty(),
        expected,
    }
}

fn check(rows: &[Row], action: KeyAction) {
    let mut failures = Vec::new();
    for r in rows {
        let press = KeyPress {
            key: r.key,
            text: r.text,
            mods: r.mods,
            action,
        };
        let got = encode_key(&press, r.modes).unwrap_or_default();
        if got != r.expected {
            failures.push(format!(
                "{:?} {:?} {:?} {:?}: got {:?}, want {:?}",
                r.key,
                r.text,
                r.mods,
                r.modes,
                String::from_utf8_lossy(&got),
                String::from_utf8_lossy(r.expected)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn xterm_pc_style_function_keys() {
    let mut rows = Vec::new();
    // Cursor keys: CSI in normal mode, SS3 in application mode, CSI 1;m with modifiers.
    for (key, letter) in [
        (Named::Up, "A"),
        (Named::Down, "B"),
        (Named::Right, "C"),
        (Named::Left, "D"),
        (Named::Home, "H"),
        (Named::End, "F"),
    ] {
        let leak = |s: String| -> &'static [u8] { Box::leak(s.into_bytes().into_boxed_slice()) };
        rows.push(row(named(key), None, N, leak(format!("\x1b[{letter}"))));
        rows.push(Row {
            modes: TermMode::APP_CURSOR,
            ..row(named(key), None, N, leak(format!("\x1bO{letter}")))
        });
        for (mods, m) in [(S, 2), (A, 3), (C, 5), (CS, 6), (CA, 7), (SUP, 9)] {
            rows.push(row(
                named(key),
                None,
                mods,
                leak(format!("\x1b[1;{m}{letter}")),
            ));
            // Modifiers win over application cursor mode.
            rows.push(Row {
                modes: TermMode::APP_CURSOR,
                ..row(named(key), None, mods, leak(format!("\x1b[1;{m}{letter}")))
            });
        }
    }
    check(&rows, KeyAction::Press);
}

#[test]
fn xterm_vt220_style_function_keys() {
    check(
        &[
            row(named(Named::F(1)), None, N, b"\x1bOP"),
            row(named(Named::F(2)), None, N, b"\x1bOQ"),
            row(named(Named::F(3)), None, N, b"\x1bOR"),
            row(named(Named::F(4)), None, N, b"\x1bOS"),
            row(named(Named::F(1)), None, S, b"\x1b[1;2P"),
            row(named(Named::F(4)), None, C, b"\x1b[1;5S"),
            row(named(Named::F(5)), None, N, b"\x1b[15~"),
            row(named(Named::F(6)), None, N, b"\x1b[17~"),
            row(named(Named::F(7)), None, N, b"\x1b[18~"),
            row(named(Named::F(8)), None, N, b"\x1b[19~"),
            row(named(Named::F(9)), None, N, b"\x1b[20~"),
            row(named(Named::F(10)), None, N, b"\x1b[21~"),
            row(named(Named::F(11)), None, N, b"\x1b[23~"),
            row(named(Named::F(12)), None, N, b"\x1b[24~"),
            row(named(Named::F(13)), None, N, b"\x1b[25~"),
            row(named(Named::F(20)), None, N, b"\x1b[34~"),
            row(named(Named::F(5)), None, S, b"\x1b[15;2~"),
            row(named(Named::F(12)), None, CA, b"\x1b[24;7~"),
            row(named(Named::Insert), None, N, b"\x1b[2~"),
            row(named(Named::Delete), None, N, b"\x1b[3~"),
            row(named(Named::PageUp), None, N, b"\x1b[5~"),
            row(named(Named::PageDown), None, N, b"\x1b[6~"),
            row(named(Named::Delete), None, C, b"\x1b[3;5~"),
            row(named(Named::PageUp), None, S, b"\x1b[5;2~"),
            row(named(Named::PageDown), None, A, b"\x1b[6;3~"),
            // Keys xterm does not send.
            row(named(Named::CapsLock), None, N, b""),
            row(Key::Modifier(Modifier::LeftShift), None, S, b""),
        ],
        KeyAction::Press,
    );
}

#[test]
fn xterm_text_ctrl_and_meta() {
    check(
        &[
            row(Key::Char('a'), Some("a"), N, b"a"),
            row(Key::Char('a'), Some("A"), S, b"A"),
            row(Key::Char('é'), Some("é"), N, "é".as_bytes()),
            row(Key::Char('1'), Some("!"), S, b"!"),
            // Alt is Meta: an ESC prefix (xterm's metaSendsEscape, the default everywhere).
            row(Key::Char('b'), Some("b"), A, b"\x1bb"),
            row(
                Key::Char('b'),
                Some("B"),
                Mods { shift: true, ..A },
                b"\x1bB",
            ),
            // Ctrl folds letters and the VT220's symbols to C0.
            row(Key::Char('a'), Some("a"), C, b"\x01"),
            row(Key::Char('c'), Some("c"), C, b"\x03"),
            row(Key::Char('z'), Some("z"), C, b"\x1a"),
            row(Key::Char('c'), Some("C"), CS, b"\x03"),
            row(Key::Char(' '), Some(" "), C, b"\x00"),
            row(Key::Char('2'), Some("2"), C, b"\x00"),
            row(Key::Char('['), Some("["), C, b"\x1b"),
            row(Key::Char('\\'), Some("\\"), C, b"\x1c"),
            row(Key::Char(']'), Some("]"), C, b"\x1d"),
            row(Key::Char('6'), Some("6"), C, b"\x1e"),
            row(Key::Char('/'), Some("/"), C, b"\x1f"),
            row(Key::Char('-'), Some("-"), C, b"\x1f"),
            row(Key::Char('8'), Some("8"), C, b"\x7f"),
            // Ctrl with a key that has no control character types the key.
            row(Key::Char('1'), Some("1"), C, b"1"),
            row(Key::Char('.'), Some("."), C, b"."),
            // Ctrl+Alt: ESC and the control character.
            row(Key::Char('x'), Some("x"), CA, b"\x1b\x18"),
            // Super shortcuts type nothing.
            row(Key::Char('c'), Some("c"), SUP, b""),
            // Special keys.
            row(named(Named::Enter), None, N, b"\r"),
            row(named(Named::Enter), None, A, b"\x1b\r"),
            Row {
                modes: TermMode::LINE_FEED_NEW_LINE,
                ..row(named(Named::Enter), None, N, b"\r\n")
            },
            row(named(Named::Tab), None, N, b"\t"),
            row(named(Named::Tab), None, S, b"\x1b[Z"),
            row(named(Named::Backspace), None, N, b"\x7f"),
            row(named(Named::Backspace), None, C, b"\x08"),
            row(named(Named::Backspace), None, A, b"\x1b\x7f"),
            row(named(Named::Escape), None, N, b"\x1b"),
            row(named(Named::Escape), None, A, b"\x1b\x1b"),
        ],
        KeyAction::Press,
    );
}

#[test]
fn xterm_keypad() {
    let app = |key, text, expected| Row {
        modes: TermMode::APP_KEYPAD,
        ..row(Key::Keypad(key), text, N, expected)
    };
    check(
        &[
            row(Key::Keypad(Keypad::Digit(5)), Some("5"), N, b"5"),
            row(Key::Keypad(Keypad::Add), Some("+"), N, b"+"),
            row(Key::Keypad(Keypad::Enter), None, N, b"\r"),
            app(Keypad::Digit(0), Some("0"), b"\x1bOp"),
            app(Keypad::Digit(9), Some("9"), b"\x1bOy"),
            app(Keypad::Decimal, Some("."), b"\x1bOn"),
            app(Keypad::Divide, Some("/"), b"\x1bOo"),
            app(Keypad::Multiply, Some("*"), b"\x1bOj"),
            app(Keypad::Subtract, Some("-"), b"\x1bOm"),
            app(Keypad::Add, Some("+"), b"\x1bOk"),
            app(Keypad::Enter, None, b"\x1bOM"),
            app(Keypad::Equal, Some("="), b"\x1bOX"),
        ],
        KeyAction::Press,
    );
}

#[test]
fn releases_send_nothing_without_kitty_event_types() {
    check(
        &[
            row(Key::Char('a'), Some("a"), N, b""),
            row(named(Named::Up), None, N, b""),
        ],
        KeyAction::Release,
    );
}

const DISAMBIGUATE: TermMode = TermMode::DISAMBIGUATE_ESC_CODES;

fn kitty(
    modes: TermMode,
    key: Key,
    text: Option<&'static str>,
    mods: Mods,
    expected: &'static [u8],
) -> Row {
    Row {
        modes,
        ..row(key, text, mods, expected)
    }
}

#[test]
fn kitty_disambiguate() {
    let d = DISAMBIGUATE;
    check(
        &[
            // Text and unmodified Enter/Tab/Backspace keep their legacy bytes.
            kitty(d, Key::Char('a'), Some("a"), N, b"a"),
            kitty(d, Key::Char('a'), Some("A"), S, b"A"),
            kitty(d, named(Named::Enter), None, N, b"\r"),
            kitty(d, named(Named::Tab), None, N, b"\t"),
            kitty(d, named(Named::Backspace), None, N, b"\x7f"),
            // Everything ambiguous becomes CSI code;mods u.
            kitty(d, named(Named::Escape), None, N, b"\x1b[27u"),
            kitty(d, Key::Char('a'), Some("a"), C, b"\x1b[97;5u"),
            kitty(d, Key::Char('a'), Some("a"), A, b"\x1b[97;3u"),
            kitty(d, Key::Char('a'), Some("A"), CS, b"\x1b[97;6u"),
            kitty(d, Key::Char('i'), Some("i"), C, b"\x1b[105;5u"),
            kitty(d, named(Named::Enter), None, S, b"\x1b[13;2u"),
            kitty(d, named(Named::Tab), None, C, b"\x1b[9;5u"),
            kitty(d, named(Named::Backspace), None, A, b"\x1b[127;3u"),
            kitty(d, Key::Char('c'), Some("c"), SUP, b"\x1b[99;9u"),
            // Functional keys keep their CSI forms; F3 moves to 13 ~.
            kitty(d, named(Named::Up), None, N, b"\x1b[A"),
            kitty(d, named(Named::Up), None, C, b"\x1b[1;5A"),
            kitty(d, named(Named::F(1)), None, N, b"\x1bOP"),
            kitty(d, named(Named::F(3)), None, N, b"\x1b[13~"),
            kitty(d, named(Named::F(5)), None, S, b"\x1b[15;2~"),
            kitty(d, named(Named::F(13)), None, N, b"\x1b[57376u"),
            kitty(
                d,
                Key::Keypad(Keypad::Digit(1)),
                Some("1"),
                N,
                b"\x1b[57400u",
            ),
            kitty(d, Key::Keypad(Keypad::Enter), None, N, b"\x1b[57414u"),
            // Modifier keys alone are reported only with "report all keys".
            kitty(d, Key::Modifier(Modifier::LeftCtrl), None, C, b""),
        ],
        KeyAction::Press,
    );
}

#[test]
fn kitty_event_types() {
    let e = DISAMBIGUATE | TermMode::REPORT_EVENT_TYPES;
    check(
        &[
            kitty(e, Key::Char('a'), Some("a"), C, b"\x1b[97;5:3u"),
            kitty(e, named(Named::Escape), None, N, b"\x1b[27;1:3u"),
            kitty(e, named(Named::Up), None, N, b"\x1b[1;1:3A"),
            kitty(e, named(Named::PageDown), None, S, b"\x1b[6;2:3~"),
            // Text keys and plain Enter are not reported released unless all keys are.
            kitty(e, Key::Char('a'), Some("a"), N, b""),
            kitty(e, named(Named::Enter), None, N, b""),
        ],
        KeyAction::Release,
    );
    check(
        &[
            kitty(e, Key::Char('a'), Some("a"), C, b"\x1b[97;5:2u"),
            kitty(e, Key::Char('a'), Some("a"), N, b"a"),
        ],
        KeyAction::Repeat,
    );
}

#[test]
fn kitty_report_all_keys() {
    let all = DISAMBIGUATE | TermMode::REPORT_ALL_KEYS_AS_ESC;
    let alternates = all | TermMode::REPORT_ALTERNATE_KEYS;
    let text = all | TermMode::REPORT_ASSOCIATED_TEXT;
    check(
        &[
            kitty(all, Key::Char('a'), Some("a"), N, b"\x1b[97u"),
            kitty(all, Key::Char('a'), Some("A"), S, b"\x1b[97;2u"),
            kitty(all, named(Named::Enter), None, N, b"\x1b[13u"),
            kitty(all, named(Named::Tab), None, N, b"\x1b[9u"),
            kitty(all, named(Named::Backspace), None, N, b"\x1b[127u"),
            kitty(
                all,
                Key::Modifier(Modifier::LeftShift),
                None,
                S,
                b"\x1b[57441;2u",
            ),
            kitty(
                all,
                Key::Modifier(Modifier::RightAlt),
                None,
                A,
                b"\x1b[57449;3u",
            ),
            kitty(alternates, Key::Char('a'), Some("A"), S, b"\x1b[97:65;2u"),
            kitty(alternates, Key::Char('1'), Some("!"), S, b"\x1b[49:33;2u"),
            kitty(text, Key::Char('a'), Some("a"), N, b"\x1b[97;1;97u"),
            kitty(text, Key::Char('a'), Some("A"), S, b"\x1b[97;2;65u"),
        ],
        KeyAction::Press,
    );
}

/// Found by the `keys` fuzz target: a key whose text is empty encoded to `Some([])`.
#[test]
fn a_key_that_types_nothing_sends_nothing() {
    let press = KeyPress {
        key: Key::Keypad(Keypad::Equal),
        text: Some(""),
        mods: Mods {
            shift: true,
            super_key: true,
            ..Mods::NONE
        },
        action: KeyAction::Press,
    };
    for modes in [TermMode::APP_KEYPAD, TermMode::empty()] {
        assert_eq!(encode_key(&press, modes), None, "{modes:?}");
    }
}

//! Input through a real window under Xvfb, as the program receives it: xdotool's key and
//! mouse events go through the X server, winit, Sluice's encoders and the PTY to a program
//! in raw mode that records every byte (`head -c N > FILE`).

use std::time::Duration;

mod x11;
use x11::{Sluice, wait_until};

/// A program that puts its terminal in raw mode, prints `setup` (modes to ask for), then
/// records the next `len` bytes of input into `file`.
fn recorder(setup: &str, len: usize, file: &str) -> String {
    format!("stty raw -echo; printf '{setup}'; head -c {len} > {file}; sleep 30")
}

/// Sends each xdotool key and returns the concatenation of the bytes xterm documents for it.
fn press_all(s: &Sluice, table: &[(&str, &[u8])]) -> Vec<u8> {
    let mut expected = Vec::new();
    for (key, bytes) in table {
        s.xdotool(&["key", key]);
        expected.extend_from_slice(bytes);
    }
    expected
}

#[test]
fn keys_reach_the_program_as_xterm_and_kitty_encode_them() {
    // Application cursor mode on (DECCKM), as readline and vim set it.
    let table: &[(&str, &[u8])] = &[
        ("Up", b"\x1bOA"),
        ("ctrl+Left", b"\x1b[1;5D"),
        ("F5", b"\x1b[15~"),
        ("alt+b", b"\x1bb"),
        ("ctrl+c", b"\x03"),
        ("shift+Tab", b"\x1b[Z"),
        ("Delete", b"\x1b[3~"),
        ("Home", b"\x1bOH"),
        ("a", b"a"),
        ("BackSpace", b"\x7f"),
        ("ctrl+space", b"\x00"),
        ("F1", b"\x1bOP"),
        ("shift+F6", b"\x1b[17;2~"),
        ("ctrl+bracketleft", b"\x1b"),
        ("KP_Enter", b"\r"),
    ];
    let kitty: &[(&str, &[u8])] = &[
        ("ctrl+a", b"\x1b[97;5u"),
        ("Escape", b"\x1b[27u"),
        ("a", b"a"),
        ("shift+Return", b"\x1b[13;2u"),
    ];
    let len: usize = table.iter().map(|(_, b)| b.len()).sum();
    let kitty_len: usize = kitty.iter().map(|(_, b)| b.len()).sum();
    // After the first recording, the program pushes kitty's "disambiguate" flag.
    let script = format!(
        "stty raw -echo; printf '\\033[?1h'; head -c {len} > keys.bin; printf '\\033[>1u'; head -c {kitty_len} > kitty.bin; sleep 30"
    );
    let s = Sluice::start("keys", &["-e", "sh", "-c", &script]);

    let expected = press_all(&s, table);
    let got = s.wait_for_file("keys.bin", len);
    assert_eq!(
        String::from_utf8_lossy(&got),
        String::from_utf8_lossy(&expected)
    );

    std::thread::sleep(Duration::from_millis(300));
    let expected = press_all(&s, kitty);
    let got = s.wait_for_file("kitty.bin", kitty_len);
    assert_eq!(
        String::from_utf8_lossy(&got),
        String::from_utf8_lossy(&expected)
    );
}

#[test]
fn mouse_reports_reach_the_program_and_shift_bypasses_them() {
    // Clicks and drags (1000, 1002) in SGR encoding (1006).
    let expected: &[u8] = b"\x1b[<0;4;3M\x1b[<0;4;3m\
        \x1b[<64;4;3M\x1b[<64;4;3M\
        \x1b[<2;4;3M\x1b[<2;4;3m\
        \x1b[<0;4;3M\x1b[<32;7;5M\x1b[<0;7;5m";
    let script = recorder(
        r"\033[?1000h\033[?1002h\033[?1006h",
        expected.len(),
        "mouse.bin",
    );
    let s = Sluice::start("mouse", &["-e", "sh", "-c", &script]);

    s.point_at(3, 2);
    s.xdotool(&["click", "1"]);
    // With Shift held the click selects instead of being reported.
    s.xdotool(&["keydown", "shift"]);
    s.xdotool(&["click", "1"]);
    s.xdotool(&["keyup", "shift"]);
    // Wheel up. xdotool's click is a press and a release of button 4, and winit reports
    // each as a notch (a real wheel's emulated button events are filtered out), so the
    // program gets two reports.
    s.xdotool(&["click", "4"]);
    s.xdotool(&["click", "3"]);
    // A drag: press, move three cells right and two down, release.
    s.xdotool(&["mousedown", "1"]);
    s.point_at(6, 4);
    s.xdotool(&["mouseup", "1"]);

    let got = s.wait_for_file("mouse.bin", expected.len());
    assert_eq!(
        String::from_utf8_lossy(&got),
        String::from_utf8_lossy(expected)
    );
}

#[test]
fn a_selection_is_copied_to_the_clipboards_and_pasted_back() {
    let s = Sluice::start("select", &["--size", "60x10", "-e", "sh"]);
    s.type_line("printf 'alpha bravo charlie\\n'");
    std::thread::sleep(Duration::from_millis(500));

    // Row 1 holds the output. A double-click selects "bravo"; Ctrl+Shift+C copies it.
    s.point_at(7, 1);
    s.xdotool(&["click", "--repeat", "2", "--delay", "80", "1"]);
    s.xdotool(&["key", "ctrl+shift+c"]);
    // A drag from "alpha" to the "c" of "charlie" goes to the primary selection.
    s.point_at(0, 1);
    s.xdotool(&["mousedown", "1"]);
    s.point_after(12, 1);
    s.xdotool(&["mouseup", "1"]);

    // Paste both back into cat: the clipboard with Ctrl+Shift+V, the primary selection
    // with a middle click.
    s.type_line("cat > clip.txt");
    std::thread::sleep(Duration::from_millis(300));
    s.xdotool(&["key", "ctrl+shift+v"]);
    s.xdotool(&["key", "Return"]);
    s.xdotool(&["click", "2"]);
    s.xdotool(&["key", "Return", "ctrl+d"]);
    let expected = b"bravo\nalpha bravo c\n";
    let got = s.wait_for_file("clip.txt", expected.len());
    assert_eq!(
        String::from_utf8_lossy(&got),
        String::from_utf8_lossy(expected)
    );
}

#[test]
fn bracketed_paste_arrives_intact_and_cannot_end_early() {
    // The program puts hostile text on the clipboard with OSC 52 (writing is allowed), then
    // asks for bracketed paste and records what a Ctrl+Shift+V delivers.
    let expected: &[u8] = b"\x1b[200~one two\nthree\x1b[201~";
    let script = format!(
        "printf '\\033]52;c;%s\\a' \"$(printf 'one \\033[201~two\\nthree' | base64 -w0)\"; {}",
        recorder(r"\033[?2004h", expected.len(), "paste.bin")
    );
    let s = Sluice::start("paste", &["-e", "sh", "-c", &script]);
    s.xdotool(&["key", "ctrl+shift+v"]);
    let got = s.wait_for_file("paste.bin", expected.len());
    assert_eq!(
        String::from_utf8_lossy(&got),
        String::from_utf8_lossy(expected)
    );
}

#[test]
fn x10_mode_reports_presses_only_without_modifiers() {
    // Mode 9: a press of the left button with Ctrl held, then of the right one; no releases.
    let expected: &[u8] = b"\x1b[M $#\x1b[M\"$#";
    let script = recorder(r"\033[?9h", expected.len(), "x10.bin");
    let s = Sluice::start("x10", &["-e", "sh", "-c", &script]);
    s.point_at(3, 2);
    s.xdotool(&["keydown", "ctrl"]);
    s.xdotool(&["click", "1"]);
    s.xdotool(&["keyup", "ctrl"]);
    s.xdotool(&["click", "3"]);
    let got = s.wait_for_file("x10.bin", expected.len());
    assert_eq!(
        String::from_utf8_lossy(&got),
        String::from_utf8_lossy(expected)
    );
}

#[test]
fn ctrl_c_gets_through_a_paste_the_program_never_reads() {
    // A megabyte on the clipboard (OSC 52), pasted into a program that never reads, with the
    // terminal in non-canonical mode (as a busy TUI leaves it): the kernel's input buffer
    // fills after a few KiB, the rest waits in Sluice's writer, and nothing more can be
    // written, not even a ^C. ^C must drop the paste so the interrupt gets through, and what
    // reads next (here cat, for 3 s) must not receive the rest of it.
    let script = "printf '\\033]52;c;%s\\a' \"$(head -c 1000000 /dev/zero | tr '\\0' a | base64 -w0)\"; \
                  stty -icanon -echo isig; trap : INT; touch ready; sleep 60; \
                  stty raw; timeout 3 cat > rest.bin; touch done; sleep 60";
    let s = Sluice::start("interrupt", &["-e", "sh", "-c", script]);
    wait_until(Duration::from_secs(20), || s.dir.join("ready").exists()).unwrap();
    std::thread::sleep(Duration::from_millis(500));
    s.xdotool(&["key", "ctrl+shift+v"]);
    std::thread::sleep(Duration::from_millis(500));
    s.xdotool(&["key", "ctrl+c"]);
    wait_until(Duration::from_secs(15), || s.dir.join("done").exists())
        .unwrap_or_else(|()| panic!("^C did not reach sleep; log:\n{}", s.log()));
    let rest = std::fs::metadata(s.dir.join("rest.bin")).unwrap().len();
    assert!(rest < 4096, "{rest} bytes of the paste arrived after ^C");
}

/// `mouse.bindings`: a button sends text, a modified one runs an action, and the middle
/// button's default paste can be unbound.
#[test]
fn mouse_bindings_from_the_file_do_what_they_say() {
    let config = r#"
[mouse]
bindings = [
    { mouse = "Right", chars = "right\n" },
    { mouse = "Right", mods = "Control", action = "PasteSelection" },
    { mouse = "Middle", action = "None" },
]
"#;
    let s = Sluice::start_with_config("mouse-bindings", &["--size", "60x10", "-e", "sh"], config);
    s.type_line("printf 'alpha\\n'; stty -echo; cat > out.txt");
    std::thread::sleep(Duration::from_millis(500));
    // "alpha" into the primary selection (row 1: the command line is row 0).
    s.point_at(2, 1);
    s.xdotool(&["click", "--repeat", "2", "--delay", "80", "1"]);
    std::thread::sleep(Duration::from_millis(200));
    // Middle: unbound, pastes nothing. Right: types "right". Ctrl+Right: pastes "alpha".
    s.xdotool(&["click", "2"]);
    s.xdotool(&["click", "3"]);
    std::thread::sleep(Duration::from_millis(200));
    s.xdotool(&["keydown", "ctrl", "click", "3", "keyup", "ctrl"]);
    std::thread::sleep(Duration::from_millis(200));
    s.xdotool(&["key", "Return", "ctrl+d"]);
    let got = s.wait_for_file("out.txt", 12);
    assert_eq!(
        String::from_utf8_lossy(&got),
        "right\nalpha\n",
        "{}",
        s.log()
    );
}

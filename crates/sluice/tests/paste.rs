//! Pasting in a real window: what a program puts on the clipboard (OSC 52) cannot run
//! commands when the user pastes it, and a paste that could is confirmed first.

use std::time::Duration;

mod x11;
use x11::{Sluice, wait_until};

/// Has the program in the window put `text` on the clipboard, through OSC 52 (allowed by
/// default), from a script so that xdotool types only plain ASCII.
fn set_clipboard_from_the_program(s: &Sluice, text: &str) {
    let encoded = base64(text.as_bytes());
    std::fs::write(
        s.dir.join("clip.sh"),
        format!("printf '\\033]52;c;{encoded}\\007'\n"),
    )
    .unwrap();
    s.type_line("sh clip.sh");
    std::thread::sleep(Duration::from_millis(500));
}

fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().fold(0u32, |n, &b| n << 8 | b as u32) << (8 * (3 - chunk.len()));
        for i in 0..=chunk.len() {
            out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
        }
        out.extend(std::iter::repeat_n('=', 3 - chunk.len()));
    }
    out
}

/// bash 5.2 with bracketed paste: a ^C in the pasted text cancelled the line and what came
/// after the next newline ran at once. Sanitised, the paste stays on the command line until
/// the user presses Enter.
#[test]
fn a_pasted_interrupt_cannot_run_what_follows_it() {
    let s = Sluice::start(
        "paste-injection",
        &["--size", "80x10", "-e", "bash", "--norc", "--noprofile"],
    );
    set_clipboard_from_the_program(&s, "echo harmless\x03\ntouch pwned\n");
    s.xdotool(&["key", "ctrl+shift+v"]);
    std::thread::sleep(Duration::from_millis(1500));
    assert!(
        !s.dir.join("pwned").exists(),
        "the pasted text ran by itself\n{}",
        s.log()
    );
    // It did arrive, whole but for the interrupt: Enter runs it, as the user now chose.
    s.xdotool(&["key", "Return"]);
    wait_until(Duration::from_secs(10), || s.dir.join("pwned").exists())
        .expect("the pasted lines run when the user presses Enter");
}

/// Without bracketed paste (dash), a paste with a newline asks first: Escape cancels, Enter
/// pastes.
#[test]
fn a_paste_with_newlines_asks_first_without_bracketed_paste() {
    let s = Sluice::start("paste-confirm", &["--size", "80x10", "-e", "sh"]);
    set_clipboard_from_the_program(&s, "touch confirmed\n");
    let confirmed = s.dir.join("confirmed");

    s.xdotool(&["key", "ctrl+shift+v"]);
    std::thread::sleep(Duration::from_millis(1000));
    assert!(!confirmed.exists(), "nothing is pasted before the answer");
    s.xdotool(&["key", "Escape"]);
    std::thread::sleep(Duration::from_millis(500));
    assert!(!confirmed.exists(), "Escape cancels the paste");

    s.xdotool(&["key", "ctrl+shift+v"]);
    std::thread::sleep(Duration::from_millis(500));
    s.xdotool(&["key", "Return"]);
    wait_until(Duration::from_secs(10), || confirmed.exists())
        .unwrap_or_else(|()| panic!("Enter pastes and the shell runs it\n{}", s.log()));
}

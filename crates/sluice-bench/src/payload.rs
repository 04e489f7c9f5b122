//! Deterministic payloads: the same bytes on every run and every machine, so results from
//! different terminals and different days compare. Shared by `sluice-bench write`, the
//! criterion benches and the `flood` helper of the end-to-end scripts.
//!
//! Each payload stands for a kind of output a terminal meets:
//! - `plain`: 100-byte log lines;
//! - `short`: lines of 1–24 characters, as `ls -1`, `seq` or `yes` print, and vtebench's
//!   scrolling benchmarks write: a line feed every few bytes;
//! - `color`: lines with 256-colour and truecolor SGR every few words;
//! - `progress`: Metro-style status redraws (`\r ESC[2K` plus a coloured ~100-byte status,
//!   some with cursor-up);
//! - `unicode`: CJK, emoji and combining marks;
//! - `scroll`: a scroll region worked with IL, DL and RI;
//! - `dense`: every character with its own truecolor foreground and background, the worst
//!   case for a parser and a renderer alike;
//! - `cursor`: one character at each cell of an 80×24 area, each placed by its own cursor
//!   position (`CSI row ; col H`), as a TUI redraws and vtebench's `cursor_motion` writes.

use std::fmt::Write as _;

/// The payloads by name, in the order reports list them.
pub const PAYLOADS: &[&str] = &[
    "plain", "short", "color", "progress", "unicode", "scroll", "dense", "cursor",
];

/// Builds at least `len` bytes of payload `name` (whole records, so a little more).
pub fn payload(name: &str, len: usize) -> Option<Vec<u8>> {
    let record: fn(usize, &mut String) = match name {
        "plain" => plain_line,
        "short" => short_line,
        "color" => color_line,
        "progress" => progress_redraw,
        "unicode" => unicode_line,
        "scroll" => scroll_region_step,
        "dense" => dense_line,
        "cursor" => cursor_placed,
        _ => return None,
    };
    let mut out = String::with_capacity(len + 4096);
    if name == "scroll" {
        // Confine scrolling to rows 5–40 of the screen, as a pager or a TUI's log pane would.
        out.push_str("\x1b[2J\x1b[5;40r");
    }
    let mut i = 0;
    while out.len() < len {
        record(i, &mut out);
        i += 1;
    }
    if name == "scroll" {
        out.push_str("\x1b[r");
    }
    Some(out.into_bytes())
}

/// `bytes` with each `\n` made `\r\n`, as the PTY's line discipline (`ONLCR`) delivers a
/// program's output to its terminal. Payloads are built with bare `\n`, as programs write
/// them; `sluice-bench write` and the compare probe leave the conversion to the kernel, and
/// what feeds a parser directly (`parse-ratio`, the criterion `parse` bench) does it here. (Before 2026-12-03 the probe and
/// `parse-ratio` passed bare line feeds on, so each line began where the last ended.)
pub fn as_the_pty_delivers(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len() + bytes.len() / 8);
    for &byte in bytes {
        if byte == b'\n' {
            out.push(b'\r');
        }
        out.push(byte);
    }
    out
}

const WORDS: &[&str] = &[
    "bundle",
    "transform",
    "module",
    "resolve",
    "cache",
    "worker",
    "asset",
    "graph",
];

/// A 100-byte log line, 99 characters and a newline.
fn plain_line(i: usize, out: &mut String) {
    let start = out.len();
    let _ = write!(out, "{i:08} INFO ");
    let mut w = i;
    while out.len() - start < 99 {
        out.push_str(WORDS[w % WORDS.len()]);
        out.push(' ');
        w = w.wrapping_mul(31).wrapping_add(7);
    }
    out.truncate(start + 99);
    out.push('\n');
}

/// A line of 1 to 24 characters (12.5 on average), names and numbers.
fn short_line(i: usize, out: &mut String) {
    let start = out.len();
    let len = 1 + i.wrapping_mul(7_919) % 24;
    let _ = write!(out, "{}-{i:024}", WORDS[i % WORDS.len()]);
    out.truncate(start + len);
    out.push('\n');
}

fn color_line(i: usize, out: &mut String) {
    let _ = write!(out, "{i:08} ");
    for k in 0..6 {
        let word = WORDS[(i + k) % WORDS.len()];
        if k % 2 == 0 {
            let _ = write!(out, "\x1b[38;5;{}m{word}\x1b[0m ", (i + k * 37) % 256);
        } else {
            let _ = write!(
                out,
                "\x1b[1;38;2;{};{};{}m{word}\x1b[0m ",
                (i * 7) % 256,
                (k * 50) % 256,
                (i + k) % 256
            );
        }
    }
    out.push('\n');
}

fn progress_redraw(i: usize, out: &mut String) {
    if i % 10 == 9 {
        // Every tenth redraw also rewrites the line above, as a two-line status does.
        out.push_str("\x1b[1A\r\x1b[2K");
        let _ = writeln!(out, "\x1b[1mBUNDLE\x1b[0m index.js");
    }
    let done = i % 7317;
    let bar = "█".repeat(done * 16 / 7317) + &"░".repeat(16 - done * 16 / 7317);
    let _ = write!(
        out,
        "\r\x1b[2K\x1b[42;30m BUNDLE \x1b[0m index.js \x1b[32m{bar}\x1b[0m {:5.1}% ({done}/7317)",
        done as f64 * 100.0 / 7317.0
    );
}

fn unicode_line(i: usize, out: &mut String) {
    const PIECES: &[&str] = &[
        "漢字",
        "かな",
        "한국어",
        "😀",
        "🚀",
        "e\u{301}",
        "a\u{308}\u{304}",
        "→",
        "Ω",
        "ｆｕｌｌ",
    ];
    let _ = write!(out, "{i:06} ");
    for k in 0..12 {
        out.push_str(PIECES[(i + k) % PIECES.len()]);
        out.push(' ');
    }
    out.push('\n');
}

/// Record `i`: the character for its pass, at the `i`th cell of an 80×24 area (within any
/// screen a benchmark runs at), placed there by a cursor position of its own. Each pass
/// writes the area again with the next letter, so every record changes a cell.
fn cursor_placed(i: usize, out: &mut String) {
    const COLS: usize = 80;
    const ROWS: usize = 24;
    let cell = i % (COLS * ROWS);
    let letter = char::from(b'A' + (i / (COLS * ROWS) % 26) as u8);
    let _ = write!(out, "\x1b[{};{}H{letter}", cell / COLS + 1, cell % COLS + 1);
}

fn scroll_region_step(i: usize, out: &mut String) {
    match i % 4 {
        // Insert a line at the top of the region and write into it.
        0 => {
            let _ = write!(
                out,
                "\x1b[5;1H\x1b[L{i:08} inserted at the top of the region"
            );
        }
        // Delete a line from the middle.
        1 => out.push_str("\x1b[20;1H\x1b[M"),
        // Reverse index at the region's top scrolls it down.
        2 => {
            let _ = write!(out, "\x1b[5;1H\x1bM{i:08} after reverse index");
        }
        // A normal line at the bottom scrolls the region up.
        _ => {
            let _ = write!(out, "\x1b[40;1H\n{i:08} appended at the bottom");
        }
    }
}

/// 80 characters, each with its own colours.
fn dense_line(i: usize, out: &mut String) {
    for k in 0..80usize {
        let v = i.wrapping_mul(80).wrapping_add(k);
        let c = (b'!' + (v % 94) as u8) as char;
        let _ = write!(
            out,
            "\x1b[38;2;{};{};{};48;2;{};{};{}m{c}",
            v % 256,
            (v / 3) % 256,
            (v * 7) % 256,
            255 - v % 256,
            (v / 5) % 256,
            (v * 3) % 256
        );
    }
    out.push_str("\x1b[0m\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payloads_are_deterministic_and_long_enough() {
        for name in PAYLOADS {
            let a = payload(name, 10_000).unwrap();
            assert!(a.len() >= 10_000);
            assert_eq!(a, payload(name, 10_000).unwrap());
        }
        assert!(payload("nope", 10).is_none());
    }

    #[test]
    fn short_lines_are_1_to_24_characters() {
        let p = payload("short", 10_000).unwrap();
        let lines: Vec<_> = p.split(|&b| b == b'\n').filter(|l| !l.is_empty()).collect();
        assert!(lines.iter().all(|l| (1..=24).contains(&l.len())));
        let mean = (p.len() - lines.len()) as f64 / lines.len() as f64;
        assert!((10.0..15.0).contains(&mean), "{mean}");
    }

    #[test]
    fn the_pty_delivers_each_line_feed_after_a_carriage_return() {
        assert_eq!(as_the_pty_delivers(b"a\nb\r\n\n"), b"a\r\nb\r\r\n\r\n");
        assert_eq!(as_the_pty_delivers(b""), b"");
    }

    #[test]
    fn plain_lines_are_100_bytes() {
        let p = payload("plain", 1000).unwrap();
        assert!(
            p.split(|&b| b == b'\n')
                .filter(|l| !l.is_empty())
                .all(|l| l.len() == 99)
        );
    }
}

//! The fast path for text (`sluice_term::Feeder`) against alacritty_terminal as it comes: the
//! same bytes, cut at the same places, must leave the same terminal behind.
//!
//! Streams mix what the fast path takes (long runs of ASCII, and of text beyond it) with
//! everything that must make it
//! step aside or that it must leave exactly as `Term::input` would: wrapping, wide characters
//! overwritten half-way, insert mode, DEC line-drawing charsets, autowrap off, REP, synchronized
//! updates, hyperlinks and underline colours (cells with extras), scroll regions, scrollback
//! recycling and random bytes.

use alacritty_terminal::event::VoidListener;
use alacritty_terminal::grid::Dimensions;
use alacritty_terminal::term::test::TermSize;
use alacritty_terminal::term::{Config, Term};
use alacritty_terminal::vte::ansi::{Processor, StdSyncHandler};
use sluice_term::testing::{Reference, first_difference, term_state};
use sluice_term::{Feeder, limits};

/// xorshift64*: deterministic, so a failure names its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    /// `a` or `b`, at even odds.
    fn either<'a>(&mut self, a: &'a [u8], b: &'a [u8]) -> &'a [u8] {
        if self.below(2) == 0 { a } else { b }
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn ascii_text(rng: &mut Rng, len: usize) -> Vec<u8> {
    (0..len).map(|_| b' ' + rng.below(95) as u8).collect()
}

/// Text that mixes what the fast path writes a character at a time (accented Latin, Greek,
/// box drawing, CJK and emoji two cells wide, fullwidth forms) with what it must leave to vte
/// and `Term`: combining marks (over the cap, too), zero-width joiners and variation
/// selectors, C1 controls, and bytes that are not UTF-8 (each followed by a character, so
/// that vte has shown them by the time the two sides are compared).
fn unicode_text(rng: &mut Rng, len: usize) -> Vec<u8> {
    const TEXT: &[&str] = &[
        "a",
        "Z",
        " ",
        "7",
        "é",
        "ß",
        "Ω",
        "→",
        "─",
        "█",
        "\u{a0}",
        "漢",
        "字",
        "か",
        "한",
        "😀",
        "🚀",
        "Ｆ",
        "ｕ",
        "\u{301}",
        "\u{308}\u{304}",
        "\u{200d}",
        "\u{fe0f}",
        "\u{85}",
        "\u{9b}",
        "\u{fffd}",
    ];
    const NOT_UTF8: &[&[u8]] = &[b"\xff", b"\xe6\xbc", b"\x80", b"\xf0\x9f\x98", b"\xc0\xaf"];
    let mut out = Vec::new();
    while out.len() < len {
        if rng.below(40) == 0 {
            out.extend_from_slice(NOT_UTF8[rng.below(NOT_UTF8.len())]);
        }
        out.extend_from_slice(TEXT[rng.below(TEXT.len())].as_bytes());
    }
    out
}

/// An SGR of up to five parameters: the forms the feed executes itself (with an unknown code,
/// or a colour out of range or cut short, which vte skips) and the ones it must leave to vte
/// (sub-parameters, more digits than any code), and an empty parameter.
fn sgr(rng: &mut Rng) -> Vec<u8> {
    const CODES: &[&str] = &[
        "",
        "0",
        "1",
        "2",
        "3",
        "4",
        "5",
        "7",
        "8",
        "9",
        "21",
        "22",
        "24",
        "27",
        "29",
        "31",
        "37",
        "39",
        "42",
        "49",
        "59",
        "93",
        "104",
        "53",
        "38;5;300",
        "48;5;353",
        "38;2;300",
        "38;2;1",
        "4:3",
        "38:2::1:2:3",
        "0001",
        "38;7",
    ];
    let params: Vec<String> = (0..rng.below(6))
        .map(|_| match rng.below(CODES.len() + 4) {
            n if n < CODES.len() => CODES[n].to_string(),
            n if n == CODES.len() => format!("38;5;{}", rng.below(256)),
            n if n == CODES.len() + 1 => format!("48;5;{}", rng.below(256)),
            n if n == CODES.len() + 2 => format!("58;5;{}", rng.below(256)),
            _ => format!(
                "{};2;{};{};{}",
                [38, 48, 58][rng.below(3)],
                rng.below(256),
                rng.below(256),
                rng.below(256)
            ),
        })
        .collect();
    format!("\x1b[{}m", params.join(";")).into_bytes()
}

/// Output that colours and places what it prints (compilers, loggers, progress bars, `ls
/// --color`): short words between SGRs, now and then another sequence (cursor motion, erase,
/// insert and delete lines, save and restore, a charset, REP, a private mode) or a line end.
fn coloured_words(rng: &mut Rng, rows: usize, cols: usize) -> Vec<u8> {
    let mut out = Vec::new();
    for _ in 0..rng.below(30) + 1 {
        out.extend(sgr(rng));
        let len = rng.below(9);
        if rng.below(4) == 0 {
            out.extend(unicode_text(rng, len));
        } else {
            out.extend(ascii_text(rng, len));
        }
        match rng.below(12) {
            0 => out.extend_from_slice(b"\r\n"),
            1 => out.extend(format!("\x1b[{}K", rng.below(3)).bytes()),
            2 => out.extend(format!("\x1b[{}A\r", rng.below(3)).bytes()),
            3 => out.extend(cursor_csi(rng, rows, cols)),
            4 => out.extend_from_slice(rng.either(b"\x1b[L", b"\x1b[2M")),
            5 => out.extend_from_slice(rng.either(b"\x1b7", b"\x1b8")),
            6 => out.extend_from_slice(rng.either(b"\x1b(0", b"\x1b(B")),
            7 => out.extend(format!("\x1b[{}b", rng.below(5) + 1).bytes()),
            8 => out.extend_from_slice(rng.either(b"\x1b[?25l", b"\x1b[4l")),
            _ => {}
        }
    }
    out
}

/// A CSI that moves the cursor or erases, inserts or deletes, as TUIs and progress bars send
/// them: every final the feed executes itself and a few it leaves to vte, with parameters
/// left out, empty, zero, past the screen's edge, of four digits, one too many, or an erase
/// mode vte does not know.
fn cursor_csi(rng: &mut Rng, rows: usize, cols: usize) -> Vec<u8> {
    const FINALS: &[u8] = b"@ABeCaDdG`HfJKLMPXEFST";
    let action = FINALS[rng.below(FINALS.len())] as char;
    let param = |rng: &mut Rng| match rng.below(8) {
        0 => String::new(),
        1 => "0".to_string(),
        2 => (rows + rng.below(5)).to_string(),
        3 => "1000".to_string(),
        4 => rng.below(5).to_string(),
        _ => (rng.below(rows.max(cols)) + 1).to_string(),
    };
    let params = match rng.below(6) {
        0 => String::new(),
        1 | 2 => param(rng),
        3 => format!("{};", param(rng)),
        4 => format!("{};{}", param(rng), param(rng)),
        _ => format!("{};{};{}", param(rng), param(rng), param(rng)),
    };
    format!("\x1b[{params}{action}").into_bytes()
}

/// One piece of a test stream.
fn piece(rng: &mut Rng, cols: usize, rows: usize) -> Vec<u8> {
    let mut out = Vec::new();
    match rng.below(28) {
        0..=5 => {
            let len = rng.below(cols * 2 + 100);
            out.extend(ascii_text(rng, len));
            out.extend_from_slice(rng.either(b"\r\n", b"\n"));
        }
        6 => {
            let sgr = [
                "1",
                "0",
                "31",
                "4",
                "38;5;208",
                "48;2;10;20;30",
                "7",
                "39;49",
            ];
            out.extend(format!("\x1b[{}m", sgr[rng.below(sgr.len())]).bytes());
        }
        7 => out.extend("漢字かな表示🎉é\u{301}".repeat(rng.below(4) + 1).bytes()),
        8 => out.extend(cursor_csi(rng, rows, cols)),
        9 => out.extend_from_slice(rng.either(b"\x1b[4h", b"\x1b[4l")),
        10 => {
            let charset: &[&[u8]] = &[b"\x1b(0", b"\x1b(B", b"\x1b)0", b"\x0e", b"\x0f"];
            out.extend_from_slice(charset[rng.below(charset.len())]);
        }
        11 => out.extend_from_slice(rng.either(b"\x1b[?7l", b"\x1b[?7h")),
        12 => out.extend(format!("\x1b[{}b", rng.below(30) + 1).bytes()),
        13 => out.extend_from_slice(rng.either(b"\x1b[?2026h", b"\x1b[?2026l")),
        14 => {
            if rng.below(2) == 0 {
                out.extend_from_slice(b"\x1b]8;id=docs;https://example.com/page\x1b\\");
            } else {
                out.extend_from_slice(b"\x1b]8;;\x1b\\");
            }
        }
        15 => out.extend_from_slice(rng.either(b"\x1b[58;5;1m", b"\x1b[59m")),
        16 => {
            let top = rng.below(rows / 2) + 1;
            out.extend(format!("\x1b[{top};{}r", top + rng.below(rows / 2) + 1).bytes());
        }
        17 => {
            out.extend_from_slice(b"\x1b[r\x1b[K\x1b[2J\x1b[3L\x1b[2M\x1b[5@\x1b[4P\x1bM\x1b7\x1b8")
        }
        18 => {
            out.extend((0..rng.below(64)).map(|_| rng.next() as u8));
            // vte holds an unfinished UTF-8 sequence until the next byte, and when a
            // synchronized update buffers that byte, until the update ends: earlier or later
            // depending on where its `advance` calls end, which the two sides cut differently.
            // Ending on ASCII keeps the comparison about the fast path.
            out.push(b'.');
        }
        19 => {
            // Shell integration marks ride on the next cell printed, off the fast path.
            let marks: &[&[u8]] = &[b"\x1b]133;A\x07", b"\x1b]133;C\x1b\\", b"\x1b]133;D;1\x07"];
            out.extend_from_slice(marks[rng.below(marks.len())]);
        }
        20 => out.extend_from_slice(b"\x1b]0;a title long enough to look like a run\x07"),
        21 | 22 => {
            // Short lines (`ls -1`, `seq`), taken by the fast path line end and all, with
            // every way a line can end, blank lines, and text past the margin.
            const ENDS: &[&[u8]] = &[b"\r\n", b"\n", b"\r", b"\r\r\n", b"\n\n"];
            for _ in 0..rng.below(40) + 1 {
                let len = if rng.below(10) == 0 {
                    rng.below(cols * 2)
                } else {
                    rng.below(12)
                };
                out.extend(ascii_text(rng, len));
                out.extend_from_slice(ENDS[rng.below(ENDS.len())]);
            }
        }
        23..=25 => out.extend(coloured_words(rng, rows, cols)),
        _ => {
            let len = rng.below(cols * 3 + 100);
            out.extend(unicode_text(rng, len));
            out.extend_from_slice(rng.either(b"\r\n", b"\n"));
        }
    }
    out
}

fn stream(seed: u64, pieces: usize, cols: usize, rows: usize) -> Vec<u8> {
    let mut rng = Rng(seed);
    (0..pieces)
        .flat_map(|_| piece(&mut rng, cols, rows))
        .collect()
}

fn new_term(cols: usize, rows: usize, scrollback: usize) -> Term<VoidListener> {
    let config = Config {
        scrolling_history: scrollback,
        ..Config::default()
    };
    Term::new(config, &TermSize::new(cols, rows), VoidListener)
}

/// The two sides' states, the plain one within the feed's caps.
fn states(plain: &mut Term<VoidListener>, fast: &mut Term<VoidListener>) -> (String, String) {
    (
        term_state(plain, limits::MAX_COMBINING_PER_CELL),
        term_state(fast, usize::MAX),
    )
}

/// Feeds `bytes` to both sides in the same pieces, cut at random as PTY reads cut output (a
/// quarter of them at most 8 bytes, the rest at most 4 KiB), calling `check` after each.
fn feed_both_in_pieces(
    rng: &mut Rng,
    bytes: &[u8],
    (plain, reference): (&mut Term<VoidListener>, &mut Reference),
    (fast, feeder): (&mut Term<VoidListener>, &mut Feeder),
    mut check: impl FnMut(&Term<VoidListener>, &Term<VoidListener>),
) {
    let mut rest = bytes;
    while !rest.is_empty() {
        let most = if rng.below(4) == 0 { 8 } else { 4096 };
        let cut = rest.len().min(1 + rng.below(most));
        let (chunk, tail) = rest.split_at(cut);
        reference.advance(plain, chunk);
        feeder.advance(fast, chunk);
        check(plain, fast);
        rest = tail;
    }
}

fn assert_same(seed: u64, cols: usize, rows: usize, scrollback: usize) {
    let bytes = stream(seed, 3000, cols, rows);
    let mut plain = new_term(cols, rows, scrollback);
    let mut fast = new_term(cols, rows, scrollback);
    let mut reference = Reference::new();
    let mut feeder = Feeder::new();
    feed_both_in_pieces(
        &mut Rng(seed ^ 0xfeed),
        &bytes,
        (&mut plain, &mut reference),
        (&mut fast, &mut feeder),
        |_, _| {},
    );
    let (expected, got) = states(&mut plain, &mut fast);
    if let Some(difference) = first_difference(&expected, &got) {
        panic!("seed {seed}, {cols}x{rows}: {difference}");
    }
    // A comparison in which the fast path never ran would prove nothing about it.
    assert!(
        feeder.fast_path_bytes() > 0,
        "seed {seed}: the fast path never ran"
    );
    assert!(
        feeder.escapes_executed() > 0,
        "seed {seed}: the feed executed no escape sequence itself"
    );
}

#[test]
fn the_fast_path_leaves_the_same_terminal_as_term_input() {
    for seed in 1..=40 {
        assert_same(seed, 80, 24, 200);
    }
}

#[test]
fn the_fast_path_agrees_on_narrow_and_wide_screens() {
    for seed in 100..=110 {
        assert_same(seed, 7, 5, 20);
        assert_same(seed, 300, 10, 50);
    }
}

#[test]
fn plain_output_that_recycles_the_scrollback_is_the_same() {
    let mut bytes = Vec::new();
    let mut rng = Rng(7);
    for i in 0..20_000 {
        let len = 60 + rng.below(60);
        bytes.extend(format!("{i:6} ").bytes());
        bytes.extend(ascii_text(&mut rng, len));
        bytes.extend_from_slice(b"\r\n");
    }
    let mut plain = new_term(100, 30, 1000);
    let mut fast = new_term(100, 30, 1000);
    let mut reference = Reference::new();
    let mut feeder = Feeder::new();
    for chunk in bytes.chunks(65536) {
        reference.advance(&mut plain, chunk);
        feeder.advance(&mut fast, chunk);
    }
    assert_eq!(plain.grid().history_size(), 1000);
    let (expected, got) = states(&mut plain, &mut fast);
    assert_eq!(expected, got);
}

/// Feeds `bytes` whole to both and compares.
/// The same terminal from `bytes` through the feed as through vte and `Term` alone, with the
/// fast path having written at least `fast` bytes of it.
fn assert_same_bytes_fast(bytes: &[u8], fast_bytes: u64) {
    let mut plain = new_term(80, 24, 100);
    let mut fast = new_term(80, 24, 100);
    Reference::new().advance(&mut plain, bytes);
    let mut feeder = Feeder::new();
    feeder.advance(&mut fast, bytes);
    let (expected, got) = states(&mut plain, &mut fast);
    assert_eq!(expected, got);
    assert!(
        feeder.fast_path_bytes() >= fast_bytes,
        "the fast path wrote {} bytes, fewer than {fast_bytes}",
        feeder.fast_path_bytes()
    );
}

fn assert_same_bytes(bytes: &[u8]) {
    assert_same_bytes_fast(bytes, 0);
}

#[test]
fn a_synchronized_update_holds_back_long_runs_too() {
    // Were the run written while vte holds the update back, it would land before the bytes
    // buffered ahead of it.
    let mut fast = new_term(80, 24, 100);
    let mut feeder = Feeder::new();
    feeder.advance(
        &mut fast,
        b"hello\x1b[?2026habcdefghijklmnopqrstuvwxyz0123456789\r\n",
    );
    assert_eq!(
        fast.grid().cursor.point.column.0,
        5,
        "nothing shown until the update ends"
    );
    assert_same_bytes(b"hello\x1b[?2026habcdefghijklmnopqrstuvwxyz0123456789\r\n\x1b[?2026lxyz");
}

#[test]
fn rep_repeats_the_last_character_of_a_run() {
    // Long runs, which the fast path writes, last character and all: REP must still find
    // that character, which vte is told before it sees the REP.
    let bytes = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ\x1b[5b|\
                  0123456789abcdefghijklmnopqrstuvwxyz0123456789\x1b[b";
    assert_same_bytes_fast(bytes, 2 * 40);
}

/// The same terminal from `pieces` fed one call each through the feed as through vte and
/// `Term` alone.
fn assert_same_pieces(pieces: &[&[u8]]) {
    let mut plain = new_term(80, 24, 100);
    let mut fast = new_term(80, 24, 100);
    let mut reference = Reference::new();
    let mut feeder = Feeder::new();
    for piece in pieces {
        reference.advance(&mut plain, piece);
        feeder.advance(&mut fast, piece);
    }
    let (expected, got) = states(&mut plain, &mut fast);
    assert_eq!(expected, got, "{pieces:?}");
    assert!(feeder.fast_path_bytes() > 0, "{pieces:?}");
}

#[test]
fn rep_after_a_word_repeats_its_last_character_however_it_reaches_vte() {
    let word = b"\x1b[1mword\x1b[0m";
    // Whole, after an SGR the feed executed, after a line end, cut by a read, with a control
    // inside, and inside a synchronized update.
    assert_same_pieces(&[word, b"\x1b[3b"]);
    assert_same_pieces(&[word, b"\x1b[32m\x1b[2b"]);
    assert_same_pieces(&[word, b"\r\n\x1b[2b"]);
    assert_same_pieces(&[word, b"\x1b[", b"3b"]);
    assert_same_pieces(&[word, b"\x1b[2\r", b"b"]);
    assert_same_pieces(&[word, b"\x1b[?2026h\x1b[2b\x1b[?2026l"]);
    // A character beyond ASCII, and one printed by vte after the word.
    assert_same_pieces(&["\x1b[1m漢字\x1b[m".as_bytes(), b"\x1b[2b"]);
    assert_same_pieces(&[word, b"x\x1b[2b"]);
}

#[test]
fn short_lines_take_the_fast_path() {
    let lines: String = (0..400).map(|i| format!("{}\r\n", i * 37)).collect();
    // Most of it: all but the first line's probe.
    assert_same_bytes_fast(lines.as_bytes(), lines.len() as u64 * 9 / 10);
    // A REP after them repeats the last character printed, which vte must be told.
    assert_same_bytes_fast(
        format!("{lines}x\x1b[3b").as_bytes(),
        lines.len() as u64 * 9 / 10,
    );
    // Line ends alone, blank lines and a line that wraps.
    let mixed = format!("{}\n\n\r\r\n{}\r\nok\r\n", "a".repeat(50), "w".repeat(170));
    assert_same_bytes_fast(mixed.repeat(20).as_bytes(), 1000);
}

/// Lines at the bottom of a scroll region, written after one scroll for as many lines as the
/// region has (`feed/scrolled.rs`), against a line feed at a time: each region vtebench's
/// scrolling benchmarks set (the whole screen, all but the last line, the lower half), a top
/// region on the main screen, a region of two lines, and the cursor below its region (whose
/// line feeds do nothing: never batched); lines of every length to the width and past it, cut
/// anywhere by the reads, a selection and the vi cursor in the way.
#[test]
fn lines_that_scroll_a_region_are_the_same_written_a_region_at_a_time() {
    use alacritty_terminal::index::{Column, Line, Point};
    use sluice_term::testing::selection;
    let setups: &[(&str, &[u8], bool)] = &[
        ("the whole screen", b"", true),
        ("the whole other screen", b"\x1b[?1049h", true),
        ("all but the last line", b"\x1b[?1049h\x1b[1;23r", true),
        ("the lower half", b"\x1b[?1049h\x1b[12;24r", true),
        ("a top region on the main screen", b"\x1b[1;10r", true),
        ("two lines", b"\x1b[5;6r", true),
        ("below the region", b"\x1b[1;10r\x1b[24;1H", false),
    ];
    for &(name, setup, batched) in setups {
        for seed in 1..=3 {
            let mut rng = Rng(seed);
            let mut bytes = Vec::new();
            for _ in 0..2000 {
                let len = match rng.below(10) {
                    0 => rng.below(200),
                    1 => 80,
                    _ => rng.below(4),
                };
                bytes.extend(ascii_text(&mut rng, len));
                bytes.extend_from_slice(b"\r\n");
            }
            let mut plain = new_term(80, 24, 100);
            let mut fast = new_term(80, 24, 100);
            let mut reference = Reference::new();
            let mut feeder = Feeder::new();
            reference.advance(&mut plain, setup);
            feeder.advance(&mut fast, setup);
            for term in [&mut plain, &mut fast] {
                term.selection = Some(selection(
                    Point::new(Line(20), Column(3)),
                    Point::new(Line(22), Column(9)),
                ));
                term.vi_mode_cursor.point = Point::new(Line(21), Column(0));
            }
            feed_both_in_pieces(
                &mut rng,
                &bytes,
                (&mut plain, &mut reference),
                (&mut fast, &mut feeder),
                |plain, fast| {
                    assert_eq!(
                        plain.selection.as_ref().and_then(|s| s.to_range(plain)),
                        fast.selection.as_ref().and_then(|s| s.to_range(fast)),
                        "{name}, seed {seed}: the selection"
                    );
                    assert_eq!(
                        plain.vi_mode_cursor.point, fast.vi_mode_cursor.point,
                        "{name}, seed {seed}: the vi cursor"
                    );
                },
            );
            let (expected, got) = states(&mut plain, &mut fast);
            if let Some(difference) = first_difference(&expected, &got) {
                panic!("{name}, seed {seed}: {difference}");
            }
            let together = feeder.lines_scrolled_together();
            assert_eq!(
                together > 0,
                batched,
                "{name}, seed {seed}: {together} lines batched"
            );
        }
    }
}

/// Lines handed to vte whole while a shell integration mark waits for the next character
/// (or the fast path cannot write), the last of them cut inside a character by the read: vte
/// holds the cut character, so it is not in ground, and the CR that comes next must reach it
/// (it prints U+FFFD there). The feed kept believing vte in ground and executed the CR itself,
/// and the U+FFFD landed at the start of the line (the `feed` fuzz target found it; the seed
/// `regress-mark-pending-cut-character`).
#[test]
fn lines_given_to_vte_cut_inside_a_character_leave_it_out_of_ground() {
    assert_same_pieces(&[b"\x1b]133;A\x07ab\r\nlrw\xe5", b"\rxyz"]);
    assert_same_pieces(&[b"abc\x1b(0ab\r\nlrw\xe5", b"\rxyz"]);
}

/// A run whose last character is followed by many line ends, vte known to be in ground: left
/// to the caller with its line ends, it was found again as a run, for ever (the `feed` fuzz
/// target found the loop; the seed `regress-line-ends-run-loops`). Were it back, the feed
/// would not return: the test fails after a minute rather than wait for ever.
#[test]
fn a_run_ending_in_many_line_ends_is_taken_once() {
    let (done, finished) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let bytes = format!("{}\r\nx{}", "a".repeat(40), "\n".repeat(40));
        assert_same_bytes(bytes.as_bytes());
        assert_same_bytes(format!("{bytes}\x1b[2b").as_bytes());
        done.send(()).expect("the test waits");
    });
    finished
        .recv_timeout(std::time::Duration::from_secs(60))
        .expect("the feed returned (a panic above, or a loop if it timed out)");
}

#[test]
fn text_beyond_ascii_takes_the_fast_path() {
    // Two lines of CJK, emoji and accents, the first wrapping a wide character at the margin
    // (80 columns: 41 wide characters do not fit), the second with combining marks between.
    let mut bytes = "漢字かな表示🎉".repeat(6).into_bytes();
    bytes.extend_from_slice(b"\r\n");
    bytes.extend("ß→e\u{301}Ω─ｆｕｌｌa\u{308}\u{304}".repeat(4).bytes());
    bytes.extend_from_slice(b"\x1b[3b\r\n");
    // All but the probe and the wide character that wraps, which go to `Term`.
    assert_same_bytes_fast(&bytes, 200);
}

#[test]
fn combining_marks_over_the_cap_are_dropped_on_the_fast_path() {
    // Marks on a narrow character, on a wide one (they go on its first half) and on the last
    // column with a wrap pending, each more than a cell keeps, within one stretch of text.
    let marks = "\u{301}".repeat(limits::MAX_COMBINING_PER_CELL + 5);
    let bytes = format!("ab{marks}漢{marks}c\r\n{}y{marks}z\r\n", "x".repeat(79));
    assert_same_bytes_fast(bytes.as_bytes(), 200);
    let mut fast = new_term(80, 24, 100);
    Feeder::new().advance(&mut fast, bytes.as_bytes());
    use alacritty_terminal::index::{Column, Line};
    for (line, column) in [(0, 1), (0, 2), (1, 79)] {
        let cell = &fast.grid()[Line(line)][Column(column)];
        assert_eq!(
            cell.zerowidth().map_or(0, <[char]>::len),
            limits::MAX_COMBINING_PER_CELL,
            "the marks on {:?} at {line}:{column}",
            cell.c
        );
    }
}

#[test]
fn marks_shared_between_cells_keep_each_cell_its_own_attributes() {
    // Cells given the same marks share their storage (feed::shared_marks): over plain cells,
    // cells with an underline colour and cells in a link, in turn, each keeps its own, and a
    // cell given a second mark does not change the first mark's other cells.
    let word = "e\u{301}a\u{308}\u{304} 漢\u{301}e\u{301}\u{302}";
    let line = format!(
        "{word}\x1b[58;5;1m{word}\x1b]8;;http://x/\x1b\\{word}\x1b]8;;\x1b\\\x1b[59m{word}\r\n"
    );
    assert_same_bytes_fast(line.repeat(40).as_bytes(), 1000);
}

#[test]
fn text_cut_inside_a_character_is_the_same() {
    // The PTY's reads cut the stream anywhere, inside a character too: vte holds the start and
    // the fast path must not write past it.
    let line =
        "0123 漢字かな表示🎉 ｆｕｌｌ 한국어 é\u{301} → Ω, ß, 漢字 ｆｕｌｌ 한국어\r\n".repeat(50);
    for cut in [1, 2, 3, 5, 7, 64, 200, 1000] {
        let mut plain = new_term(80, 24, 100);
        let mut fast = new_term(80, 24, 100);
        let mut reference = Reference::new();
        let mut feeder = Feeder::new();
        for chunk in line.as_bytes().chunks(cut) {
            reference.advance(&mut plain, chunk);
            feeder.advance(&mut fast, chunk);
        }
        let (expected, got) = states(&mut plain, &mut fast);
        if let Some(difference) = first_difference(&expected, &got) {
            panic!("cut every {cut} bytes: {difference}");
        }
        // Past the first slices' probes, text takes the fast path.
        if cut >= 200 {
            assert!(feeder.fast_path_bytes() > 0, "cut every {cut} bytes");
        }
    }
}

/// The first row's characters, as far as `len` columns.
fn first_row(term: &Term<VoidListener>, len: usize) -> String {
    use alacritty_terminal::index::{Column, Line};
    (0..len)
        .map(|c| term.grid()[Line(0)][Column(c)].c)
        .collect()
}

#[test]
fn a_character_split_across_reads_loses_nothing_after_it() {
    // vte 0.15 alone, given "café à" in two reads split inside the "é", loses the space after
    // it (alacritty/vte#159). Should this start failing, vte no longer needs the feed's
    // `finishing_split`, nor the tests' reference its `advance_vte`.
    let text = "café àb";
    let split = 4; // between the two bytes of "é"
    let mut plain = new_term(20, 3, 10);
    let mut processor: Processor<StdSyncHandler> = Processor::new();
    processor.advance(&mut plain, &text.as_bytes()[..split]);
    processor.advance(&mut plain, &text.as_bytes()[split..]);
    assert_eq!(first_row(&plain, 7), "caféàb ", "vte as it comes");

    // The feed loses nothing, wherever the reads split the text.
    for split in 1..text.len() {
        let mut fast = new_term(20, 3, 10);
        let mut feeder = Feeder::new();
        feeder.advance(&mut fast, &text.as_bytes()[..split]);
        feeder.advance(&mut fast, &text.as_bytes()[split..]);
        assert_eq!(first_row(&fast, 7), text, "split at byte {split}");
    }
}

#[test]
fn a_long_run_of_ascii_then_other_text_is_taken_whole() {
    // A run of 5,000 ASCII bytes then text beyond ASCII: the word scan's ASCII flag must not
    // carry over to the text after it (the feed once searched 4 KiB windows, and a run that
    // reached a window's end went on past it).
    let mut bytes = b"x".repeat(5000);
    bytes.extend("漢字かな表示🎉é\u{301}".repeat(300).bytes());
    bytes.extend_from_slice(b"\r\n");
    bytes.extend("漢字かな".repeat(1500).bytes());
    bytes.extend(b"y".repeat(3000));
    bytes.extend_from_slice(b"\r\n");
    assert_same_bytes_fast(&bytes, 20_000);
}

/// DCH at column 0 deleting the first half of a wide character leaves its spacer there, which
/// the feed mends (`limits::mend_orphan_spacer`); insert mode and ICH then shift the line, and
/// text goes over where the orphan would be. The `feed` fuzz target found a plain `Term`
/// differing here twice (its orphan shifted right, then written over, clearing the character
/// to its left), which is why the tests compare with a [`Reference`] that mends as the feed
/// does; the fast path must still agree with it.
#[test]
fn an_orphan_spacer_shifted_and_overwritten_is_the_same() {
    // Insert mode: '>' goes in before the orphan, which moves to column 1.
    assert_same_bytes("漢字 after\r\x1b[P\x1b[4h>".as_bytes());
    // ICH twice, then text written over part of the shifted line.
    assert_same_bytes("漢字 after\r\x1b[P\x1b[2@ab\x1b[4l".as_bytes());
    // The same on a wrapped line, whose line above ends in a leading spacer.
    assert_same_bytes(format!("{}漢字\r\x1b[P\x1b[@", "x".repeat(79)).as_bytes());
    // Shifted one column right, then written over from the start of the line.
    let line = "abcdefghijklmnopqrstuvwxyz0123456789";
    assert_same_bytes(format!("漢字 after\r\x1b[P\x1b[@\r{line}{line}").as_bytes());
}

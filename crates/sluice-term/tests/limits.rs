//! The caps of `sluice_term::limits`, through the `Feeder` into a real `Term`: what output asks
//! beyond them is refused without a panic, and what is within them behaves as before.

use alacritty_terminal::event::VoidListener;
use alacritty_terminal::term::test::TermSize;
use alacritty_terminal::term::{Config, Term, TermMode};
use sluice_term::{Feeder, limits};

fn term() -> Term<VoidListener> {
    let config = Config {
        kitty_keyboard: true,
        ..Config::default()
    };
    Term::new(config, &TermSize::new(20, 5), VoidListener)
}

fn push(times: usize, flags: u8) -> Vec<u8> {
    format!("\x1b[>{flags}u").repeat(times).into_bytes()
}

/// alacritty_terminal 0.26 panicked on the 4,097th push (it removed from the empty title
/// stack). Sluice keeps the stack below that, with the newest push active.
#[test]
fn pushing_past_the_keyboard_stack_panics_no_more() {
    let mut term = term();
    let mut feeder = Feeder::new();
    feeder.advance(&mut term, &push(5000, 1));
    feeder.advance(&mut term, &push(1, 8));
    assert!(
        term.mode().contains(TermMode::REPORT_ALL_KEYS_AS_ESC),
        "the last push is the active mode"
    );
    feeder.advance(&mut term, b"\x1b[<1u");
    assert!(term.mode().contains(TermMode::DISAMBIGUATE_ESC_CODES));
    assert!(!term.mode().contains(TermMode::REPORT_ALL_KEYS_AS_ESC));
}

/// Each screen has its own stack in `Term`; the mirror follows the switch both ways, or a full
/// main stack seen as empty after coming back from the alternate screen would panic again.
#[test]
fn the_keyboard_stacks_follow_the_screen_switch() {
    let mut term = term();
    let mut feeder = Feeder::new();
    // Fill the alternate screen's stack, empty the main one's, then push on the alternate
    // screen again: counted as one stack, this push would reach Term's broken branch.
    feeder.advance(&mut term, b"\x1b[?1049h");
    feeder.advance(&mut term, &push(4096, 1));
    feeder.advance(&mut term, b"\x1b[?1049l\x1b[<4096u\x1b[?1049h");
    feeder.advance(&mut term, &push(1, 4));
    assert!(term.mode().contains(TermMode::REPORT_ALTERNATE_KEYS));
    feeder.advance(&mut term, b"\x1b[?1049l");
    feeder.advance(&mut term, &push(4100, 2));
    assert!(term.mode().contains(TermMode::REPORT_EVENT_TYPES));
    // RIS empties both stacks, as in Term.
    feeder.advance(&mut term, b"\x1bc");
    feeder.advance(&mut term, &push(4097, 1));
}

#[test]
fn titles_and_links_over_their_caps_are_cut_or_dropped() {
    let mut term = term();
    let mut feeder = Feeder::new();
    let long_uri = format!("https://x/{}", "a".repeat(limits::MAX_URI_BYTES));
    let bytes = format!("\x1b]8;;{long_uri}\x1b\\L\x1b]8;;https://ok\x1b\\K");
    feeder.advance(&mut term, bytes.as_bytes());
    let row = &term.grid()[alacritty_terminal::index::Line(0)];
    assert!(
        row[alacritty_terminal::index::Column(0)]
            .hyperlink()
            .is_none()
    );
    assert_eq!(
        row[alacritty_terminal::index::Column(1)]
            .hyperlink()
            .map(|l| l.uri().to_owned()),
        Some("https://ok".to_owned())
    );
}

#[test]
fn work_is_counted_and_a_budget_stops_after_rep() {
    let mut term = term();
    let mut feeder = Feeder::new();
    let bytes = b"x\x1b[60000by\x1b[60000bz";
    // The first REP goes over a budget of 1,000: parsing stops right after it.
    let parsed = feeder.advance_within(&mut term, bytes, 1000);
    assert_eq!(&bytes[..parsed], b"x\x1b[60000b");
    assert!(feeder.take_work() >= 60_000);
    let rest = feeder.advance_within(&mut term, &bytes[parsed..], u64::MAX);
    assert_eq!(parsed + rest, bytes.len());
}

/// Deleting the first half of a wide character at column 0 (`CSI P`) left its spacer there, and
/// alacritty_terminal 0.26 underflowed stepping left from it when the next snapshot placed the
/// cursor (the `feed` fuzz target found it). The spacer becomes a blank; the snapshot, a copy
/// of the line and a selection from column 0 work.
#[test]
fn deleting_half_a_wide_character_at_column_zero_panics_no_more() {
    use alacritty_terminal::index::{Column, Line, Point};
    use alacritty_terminal::term::cell::Flags;
    use sluice_term::testing::selection;
    use sluice_term::{Replay, Snapshot};

    let mut replay = Replay::new(20, 5, 10);
    replay.feed("漢字 after\r\x1b[P".as_bytes());
    let mut snapshot = Snapshot::default();
    replay.update_snapshot(&mut snapshot);
    let cursor = snapshot.cursor.expect("the cursor is shown");
    assert_eq!((cursor.row, cursor.col), (0, 0));

    let term = replay.term_mut();
    let row = &term.grid()[Line(0)];
    assert!(!row[Column(0)].flags.contains(Flags::WIDE_CHAR_SPACER));
    assert!(
        row[Column(1)].flags.contains(Flags::WIDE_CHAR),
        "the next one moved up"
    );
    term.selection = Some(selection(
        Point::new(Line(0), Column(0)),
        Point::new(Line(0), Column(9)),
    ));
    assert_eq!(term.selection_to_string().as_deref(), Some(" 字 after"));
}

/// The same at the start of a wrapped line: the wide character that wrapped there (the line
/// above ends in a `LEADING_WIDE_CHAR_SPACER`) loses its first half. The mark at the end of the
/// line above goes with it, as `Term` removes it once the spacer is written over (the `feed`
/// fuzz target found the two differing when it stayed).
#[test]
fn deleting_half_a_wrapped_wide_character_clears_the_line_above_too() {
    use alacritty_terminal::index::{Column, Line};
    use alacritty_terminal::term::cell::Flags;
    use sluice_term::Replay;

    let mut replay = Replay::new(3, 4, 10);
    // "ab" and 漢 does not fit in the last column: it wraps, leaving a leading spacer.
    replay.feed("ab漢".as_bytes());
    let leading = |r: &mut Replay| {
        r.term_mut().grid()[Line(0)][Column(2)]
            .flags
            .contains(Flags::LEADING_WIDE_CHAR_SPACER)
    };
    assert!(leading(&mut replay), "the wrap is marked");
    replay.feed(b"\r\x1b[P");
    assert!(
        !leading(&mut replay),
        "and unmarked with the wide character gone"
    );
    let term = replay.term_mut();
    assert!(
        !term.grid()[Line(1)][Column(0)]
            .flags
            .contains(Flags::WIDE_CHAR_SPACER)
    );
}

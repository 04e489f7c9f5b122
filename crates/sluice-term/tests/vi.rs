//! Vi mode's commands on a real terminal (PTY, parser thread): motions with counts, `gg`/`G`,
//! character searches, the three kinds of selection and what they copy, scrolling with the
//! cursor, and leaving, which puts the view back at the bottom.

use std::time::Duration;

use sluice_pty::WinSize;
use sluice_term::alacritty_terminal::selection::SelectionType;
use sluice_term::vi::{FindKind, ViCommand, ViMotion};

mod common;
use common::Harness;

fn started() -> Harness {
    // Three known lines, then enough to push them into the scrollback of a 5-row screen.
    let script = r#"printf 'alpha bravo charlie\nline two here\nthird (x y) z\n'; seq 1 20; printf 'end'; sleep 30"#;
    let mut s = Harness::start(script, WinSize::cells(30, 5));
    s.wait_for(Duration::from_secs(10), |t| t.contains("end"))
        .expect("the script runs");
    s
}

#[test]
fn motions_selections_and_copies() {
    use ViCommand::*;
    use ViMotion::*;
    let s = started();
    let t = &s.terminal;
    t.set_vi(true);
    assert!(t.vi_active());
    // gg: the first line of the scrollback, "alpha bravo charlie".
    t.vi(Top(None));
    let top = t.vi_cursor().unwrap();
    assert_eq!(top.column.0, 0);
    // w moves a word: onto "bravo"; v e selects it.
    t.vi(Motion(SemanticRight, 1));
    t.vi(Select(SelectionType::Simple));
    t.vi(Motion(SemanticRightEnd, 1));
    assert_eq!(t.selection_text().as_deref(), Some("bravo"));
    // v again ends it; 2j then V selects the third line whole.
    t.vi(Select(SelectionType::Simple));
    assert!(!t.has_selection());
    t.vi(Motion(Down, 2));
    t.vi(Select(SelectionType::Lines));
    assert_eq!(
        t.selection_text().as_deref().map(str::trim_end),
        Some("third (x y) z")
    );
    t.clear_selection();
    // f( then % to the matching bracket; a block from "(x" up a line and three right.
    t.vi(Motion(First, 1));
    t.vi(Find(FindKind::To, '(', 1));
    assert_eq!(t.vi_cursor().unwrap().column.0, 6);
    t.vi(Motion(Bracket, 1));
    assert_eq!(t.vi_cursor().unwrap().column.0, 10);
    t.vi(Find(FindKind::BackTill, '(', 1));
    assert_eq!(t.vi_cursor().unwrap().column.0, 7);
    t.vi(Select(SelectionType::Block));
    t.vi(Motion(Up, 1));
    t.vi(Motion(Right, 2));
    assert_eq!(
        t.selection_text().as_deref(),
        Some("o h\nx y"),
        "columns 7 to 9"
    );
    t.clear_selection();
    // G: the last line; the view followed the cursor down and up.
    t.vi(Bottom(None));
    assert_eq!(t.vi_cursor_in_view().map(|(row, _)| row), Some(4));
    t.vi(Top(None));
    assert_eq!(t.vi_cursor_in_view().map(|(row, _)| row), Some(0));
    t.set_vi(false);
    assert!(!t.vi_active() && t.vi_cursor().is_none());
    let offset = t.with_term(|term| term.grid().display_offset());
    assert_eq!(
        offset, 0,
        "leaving vi mode brings the view back to the bottom"
    );
}

//! What a front end does with the screen on the user's behalf: selecting, searching and
//! following links, on real output from a real shell.

use std::time::Duration;

use sluice_pty::WinSize;
use sluice_term::{Direction, SelectionKind, Side, ViewportPoint};

mod common;
use common::Harness;

const WAIT: Duration = Duration::from_secs(10);

fn at(row: usize, col: usize) -> ViewportPoint {
    ViewportPoint { row, col }
}

#[test]
fn selections_of_each_kind_copy_the_right_text() {
    let mut h = Harness::start(
        r#"printf 'alpha /usr/lib/x.so gamma\r\nsecond line here\r\nthird\r\n'; sleep 30"#,
        WinSize::cells(40, 6),
    );
    h.wait_for(WAIT, |s| s.contains("third")).unwrap();
    let t = &h.terminal;

    // A drag from the middle of "alpha" to the middle of "second".
    t.start_selection(SelectionKind::Simple, at(0, 2), Side::Left);
    t.extend_selection(at(1, 2), Side::Right);
    assert_eq!(
        t.selection_text().as_deref(),
        Some("pha /usr/lib/x.so gamma\nsec")
    );

    // A double-click on a path selects the whole path: '/' and '.' do not end words.
    t.start_selection(SelectionKind::Word, at(0, 9), Side::Left);
    t.extend_selection(at(0, 9), Side::Left);
    assert_eq!(t.selection_text().as_deref(), Some("/usr/lib/x.so"));

    // A triple-click selects the line.
    t.start_selection(SelectionKind::Line, at(1, 3), Side::Left);
    t.extend_selection(at(1, 3), Side::Left);
    assert_eq!(t.selection_text().as_deref(), Some("second line here\n"));

    // A block takes the same columns from each row.
    t.start_selection(SelectionKind::Block, at(0, 0), Side::Left);
    t.extend_selection(at(2, 2), Side::Right);
    assert_eq!(t.selection_text().as_deref(), Some("alp\nsec\nthi"));

    // The selection reaches the snapshot, for the renderer to draw.
    h.terminal.update_snapshot(&mut h.snapshot);
    let s = h.snapshot.selection.expect("selection in snapshot");
    assert_eq!((s.start, s.end, s.block), ((0, 0), (2, 2), true));

    h.terminal.clear_selection();
    assert!(!h.terminal.has_selection());
    assert_eq!(h.terminal.selection_text(), None);
}

#[test]
fn search_finds_matches_in_history_and_scrolls_to_them() {
    let mut h = Harness::start(
        r#"echo 'needle-1'; seq 1 100; echo 'needle-2'; seq 1 3; sleep 30"#,
        WinSize::cells(30, 5),
    );
    h.wait_for(WAIT, |s| {
        s.contains("needle-2") && s.lines().any(|l| l == "3")
    })
    .unwrap();
    let mut search = sluice_term::Search::new(r"needle-\d").unwrap();

    // Visible: only needle-2.
    let (all, focused) = search.visible(&h.terminal);
    assert_eq!(all.len(), 1, "{all:?}");
    assert_eq!((all[0].start, all[0].end), (0, 8));
    assert!(focused.is_empty());

    // Searching up finds needle-2 first, then needle-1 far back in history.
    assert!(search.advance(&h.terminal, Direction::Left));
    let (_, focused) = search.visible(&h.terminal);
    assert_eq!(focused.len(), 1);
    assert!(search.advance(&h.terminal, Direction::Left));
    let screen = h.screen();
    assert!(screen.contains("needle-1"), "{screen}");
    assert!(h.snapshot.display_offset > 90);
    let (_, focused) = search.visible(&h.terminal);
    let row = focused[0].row;
    assert_eq!(h.snapshot.row_text(row), "needle-1");

    // And wraps around to needle-2 again.
    assert!(search.advance(&h.terminal, Direction::Left));
    assert!(h.screen().contains("needle-2"));

    assert!(sluice_term::Search::new("(unclosed").is_err());
    let mut none = sluice_term::Search::new("absent-text").unwrap();
    assert!(!none.advance(&h.terminal, Direction::Right));
}

#[test]
fn osc8_hyperlinks_are_found_with_their_cells() {
    let mut h = Harness::start(
        r#"printf 'see \033]8;;https://example.com/doc\033\\the docs\033]8;;\033\\ now\r\n'; sleep 30"#,
        WinSize::cells(40, 4),
    );
    h.wait_for(WAIT, |s| s.contains("the docs now")).unwrap();
    let link = h
        .terminal
        .hyperlink_at(at(0, 6))
        .expect("a link under 'e' of 'the'");
    assert_eq!(link.uri, "https://example.com/doc");
    assert_eq!(link.spans.len(), 1);
    assert_eq!(
        (link.spans[0].row, link.spans[0].start, link.spans[0].end),
        (0, 4, 12)
    );
    assert_eq!(h.terminal.hyperlink_at(at(0, 1)), None);
    assert_eq!(h.terminal.hyperlink_at(at(0, 13)), None);
}

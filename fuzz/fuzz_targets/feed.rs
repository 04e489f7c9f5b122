//! The byte stream through Sluice's feed (vte with the fast path and the output caps), the
//! Term and a snapshot, against vte driving the same `Handler` without the feed
//! (`sluice_term::testing::Reference`) fed the same pieces: no panic, and the same terminal,
//! as tests/feed.rs checks on random streams.
//!
//! Input: two bytes choose the size (2–81 columns, 1–25 rows), two more seed where the rest is
//! cut into pieces (as PTY reads cut output anywhere).

#![no_main]

use alacritty_terminal::event::VoidListener;
use alacritty_terminal::term::test::TermSize;
use alacritty_terminal::term::{Config, Term};
use libfuzzer_sys::fuzz_target;
use sluice_term::testing::{Reference, first_difference, term_state};
use sluice_term::{Replay, Snapshot, limits};

const HISTORY: usize = 50;

fuzz_target!(|data: &[u8]| {
    let [c, r, s0, s1, bytes @ ..] = data else {
        return;
    };
    let (cols, rows) = (2 + (*c as usize % 80), 1 + (*r as usize % 25));
    let mut replay = Replay::new(cols as u16, rows as u16, HISTORY);
    let config = Config {
        scrolling_history: HISTORY,
        kitty_keyboard: true,
        ..Config::default()
    };
    let mut plain = Term::new(config, &TermSize::new(cols, rows), VoidListener);
    let mut reference = Reference::new();
    let mut snapshot = Snapshot::default();
    let mut seed = u16::from_le_bytes([*s0, *s1]) as usize | 1;
    let mut rest = bytes;
    while !rest.is_empty() {
        seed = seed.wrapping_mul(31_421).wrapping_add(6_927) % 65_521;
        let cut = rest.len().min(1 + seed % 97);
        let (piece, tail) = rest.split_at(cut);
        replay.feed(piece);
        reference.advance(&mut plain, piece);
        // The snapshot takes (and resets) the damage on Sluice's side, as each frame does;
        // the plain side's is reset with it, so the damage compared is the last piece's.
        replay.update_snapshot(&mut snapshot);
        drop(plain.damage());
        plain.reset_damage();
        rest = tail;
    }
    let expected = term_state(&mut plain, limits::MAX_COMBINING_PER_CELL);
    let got = term_state(replay.term_mut(), usize::MAX);
    if let Some(difference) = first_difference(&expected, &got) {
        panic!("{cols}x{rows}: {difference}");
    }
});

//! A trickle of small writes is recognised and read through pauses, whole and in order, and
//! output that answers input is never held back: real PTYs, a real program writing 100-byte
//! lines 100 µs apart (about as often as a build logs), and `cat` echoing keys.

mod common;

use std::time::{Duration, Instant};

use common::{read_all, read_some, spawn, trickle_output, trickle_script};
use sluice_pty::trickle::TRICKLE_AFTER;

const LINES: usize = 2_000;

#[test]
fn a_trickle_is_gathered_and_nothing_is_lost() {
    let (pty, mut ring) = spawn(&trickle_script(LINES));
    let expected = trickle_output(LINES);
    let received = read_all(&mut ring, expected.len());
    assert!(received == expected, "the lines came whole and in order");
    let stats = pty.stats().snapshot();
    assert!(
        stats.gathered > 0,
        "{} reads for {LINES} writes and no pause: a trickle (after {TRICKLE_AFTER} wake-ups) \
         is gathered",
        stats.reads
    );
}

#[test]
fn echoes_of_keys_sent_one_after_another_are_never_held_back() {
    let (pty, mut ring) = spawn("stty raw -echo && printf ready && exec cat");
    let mut received = Vec::new();
    let started = Instant::now();
    while !received.ends_with(b"ready") {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "cat never started"
        );
        read_some(&mut ring, &mut received);
    }
    // Each key sent the moment the last one's echo is in: as fast a trickle as the chain
    // allows, but every piece of it an answer to input.
    let writer = pty.writer();
    for i in 0..(4 * TRICKLE_AFTER as usize) {
        received.clear();
        writer.write(vec![b'a' + (i % 26) as u8]);
        while received.is_empty() {
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "no echo of key {i}"
            );
            read_some(&mut ring, &mut received);
        }
    }
    assert_eq!(pty.stats().snapshot().gathered, 0, "an echo was held back");
}

//! A young flood is read ahead without waking the parser, and that never loses output or holds
//! it back, and a build's log is never read so: real PTYs, real programs, a consumer that only
//! ever waits to be woken (as the parser does), never polls on a deadline of its own.

mod common;

use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use sluice_pty::read_ahead::{DEFER_ABOVE, DEFER_FOR};
use sluice_pty::ring::{KEEP_RESIDENT, RELEASE_ABOVE, Wait};
use sluice_pty::{Pty, RingConsumer};

/// Consumes the ring on a thread of its own, woken only by the reader, until `until` says the
/// bytes so far are enough; sends each batch it took.
fn consume_until(
    mut ring: RingConsumer,
    until: impl Fn(&[u8]) -> bool + Send + 'static,
) -> mpsc::Receiver<Vec<u8>> {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let mut all = Vec::new();
        while !until(&all) {
            match ring.wait(None) {
                Wait::Data => {
                    let mut batch = Vec::new();
                    ring.consume(usize::MAX, |a, b| {
                        batch.extend_from_slice(a);
                        batch.extend_from_slice(b);
                        a.len() + b.len()
                    });
                    all.extend_from_slice(&batch);
                    if tx.send(batch).is_err() {
                        return;
                    }
                }
                Wait::Closed => return,
                Wait::Timeout | Wait::Interrupted => {}
            }
        }
    });
    rx
}

/// The next batch the consumer took, before `deadline`. Past it, fails the test, leaving the
/// PTY undropped: its reader may be parked on a ring the stuck consumer will never free, and
/// dropping it would then hang the test instead of failing it.
fn next_batch(
    rx: &mpsc::Receiver<Vec<u8>>,
    deadline: Instant,
    pty: &mut Option<Pty>,
    failure: impl FnOnce() -> String,
) -> Vec<u8> {
    match rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
        Ok(batch) => batch,
        Err(_) => {
            std::mem::forget(pty.take());
            panic!("{}", failure())
        }
    }
}

#[test]
fn a_flood_larger_than_the_ring_arrives_whole_with_the_parser_only_ever_woken() {
    // 8 MiB through a 2 MiB ring: the reader fills the ring without waking the parser (the
    // flood is young and past DEFER_ABOVE), so it must wake it before it parks for room, or
    // both wait for ever. Then a line after a pause, which must not wait for anything.
    const FLOOD: usize = 8 << 20;
    const RING: usize = 2 << 20;
    const { assert!(RING > DEFER_ABOVE && FLOOD > RING) };
    let script = format!(
        "stty raw -echo && head -c {FLOOD} /dev/zero | tr '\\0' x && sleep 0.3 && echo done"
    );
    let (pty, ring) = common::spawn_reading_ahead(&script, RING);
    let mut pty = Some(pty);
    let expected_end = b"done\n";
    let rx = consume_until(ring, move |all: &[u8]| all.ends_with(expected_end));
    let started = Instant::now();
    let deadline = started + Duration::from_secs(30);
    let mut received = Vec::new();
    while !received.ends_with(expected_end) {
        let batch = next_batch(&rx, deadline, &mut pty, || {
            format!(
                "{} of {FLOOD} bytes after {:?}: the parser was left asleep",
                received.len(),
                started.elapsed()
            )
        });
        received.extend_from_slice(&batch);
    }
    let (flood, tail) = received.split_at(FLOOD);
    assert!(flood.iter().all(|&b| b == b'x'), "the flood came whole");
    assert_eq!(tail, expected_end, "and then the line, once");
    let young = pty.as_ref().map(|pty| pty.stats().snapshot().young_floods);
    assert!(
        young >= Some(1),
        "the flood was read with the parser asleep ({young:?} young floods)"
    );
}

#[test]
fn a_builds_log_is_never_read_with_the_parser_asleep() {
    // 3,000 100-byte lines 100 µs apart, each written on its own: 300 KB, far past
    // DEFER_ABOVE within DEFER_FOR, but at a build's pace, far below DEFER_RATE. Each line
    // must reach the parser as it comes.
    const LINES: usize = 3_000;
    let expected = common::trickle_output(LINES);
    let (pty, mut ring) = common::spawn(&common::trickle_script(LINES));
    let received = common::read_all(&mut ring, expected.len());
    assert!(received == expected, "the lines came whole and in order");
    let stats = pty.stats().snapshot();
    assert_eq!(
        stats.young_floods, 0,
        "{} reads of {LINES} lines: a build's log must not hold the screen back",
        stats.reads
    );
}

#[test]
fn output_after_a_young_flood_reaches_the_parser_at_once() {
    // A burst past DEFER_ABOVE, then silence: the reader must wake the parser within its
    // grace, not when the program next writes. The burst stays short of what the reader gives
    // back after a quiet spell: that timer would wake the parser too (by leaning, once the
    // unparsed bytes have waited 500 ms), and hide a missing wake-up.
    const BURST: usize = DEFER_ABOVE + (128 << 10);
    const { assert!(BURST > DEFER_ABOVE && BURST <= KEEP_RESIDENT + RELEASE_ABOVE) };
    // One write(2) of the whole burst (perl is in every Debian, perl-base): the kernel refills
    // the PTY as fast as the reader drains it, so the grace expires at the burst's end, not in
    // the middle (where the reads after it would wake the parser anyway).
    let script =
        format!("stty raw -echo && perl -e 'syswrite STDOUT, \"x\" x {BURST}' && sleep 30");
    let (pty, ring) = common::spawn(&script);
    let mut pty = Some(pty);
    let rx = consume_until(ring, |all: &[u8]| all.len() >= BURST);
    // The burst takes a fraction of a second to write, even on a loaded machine; the program
    // then sleeps for 30 s, so nothing but the reader's grace can wake the parser for its end.
    let deadline = Instant::now() + Duration::from_secs(5);
    let mut received = 0;
    while received < BURST {
        let batch = next_batch(&rx, deadline, &mut pty, || {
            format!(
                "{received} of {BURST} bytes reached the parser in 5 s (deferral: at most \
                 {DEFER_FOR:?})"
            )
        });
        received += batch.len();
    }
    assert_eq!(received, BURST);
}

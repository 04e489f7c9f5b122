//! A trickle of small writes is recognised and read through pauses, whole and in order: a
//! real PTY, `cat` in raw mode echoing 100-byte chunks sent with 50 µs sleeps between (about
//! three a millisecond come back here, as often as a build logs).

use std::ffi::OsString;
use std::time::{Duration, Instant};

use sluice_pty::ring::Wait;
use sluice_pty::trickle::TRICKLE_AFTER;
use sluice_pty::{Pty, PtyOptions};

#[test]
fn a_trickle_is_gathered_and_nothing_is_lost() {
    const CHUNKS: usize = 2_000;
    const CHUNK: usize = 100;
    let options = PtyOptions {
        command: Some(
            ["sh", "-c", "stty raw -echo && printf ready && exec cat"]
                .map(OsString::from)
                .to_vec(),
        ),
        ..PtyOptions::default()
    };
    let (pty, mut ring) = Pty::spawn(&options).expect("spawn sh");
    let mut received = Vec::new();
    let read_some = |ring: &mut sluice_pty::RingConsumer, received: &mut Vec<u8>| {
        if let Wait::Data = ring.wait(Some(Instant::now() + Duration::from_millis(50))) {
            ring.consume(usize::MAX, |a, b| {
                received.extend_from_slice(a);
                received.extend_from_slice(b);
                a.len() + b.len()
            });
        }
    };
    let started = Instant::now();
    while !received.ends_with(b"ready") {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "cat never started"
        );
        read_some(&mut ring, &mut received);
    }
    received.clear();
    let before = pty.stats().snapshot();

    let writer = pty.writer();
    let sender = std::thread::spawn(move || {
        for i in 0..CHUNKS {
            let digit = b'0' + (i % 10) as u8;
            writer.write(vec![digit; CHUNK]);
            std::thread::sleep(Duration::from_micros(50));
        }
    });
    let expected = CHUNKS * CHUNK;
    let started = Instant::now();
    while received.len() < expected {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "{} of {expected} bytes came back",
            received.len()
        );
        read_some(&mut ring, &mut received);
    }
    sender.join().unwrap();
    let digits = (0..CHUNKS).flat_map(|i| [b'0' + (i % 10) as u8; CHUNK]);
    assert!(
        received.iter().copied().eq(digits),
        "the echo came back whole and in order"
    );

    // How often the chain delivers decides how much each read gathers (here 1,384–1,798
    // reads for the 2,000 writes without the pauses, 833–968 with them), so what is required
    // is only that the trickle was recognised and read through its pauses.
    let after = pty.stats().snapshot();
    assert!(
        after.gathered > before.gathered,
        "{} reads for {CHUNKS} writes and no pause: a trickle (after {TRICKLE_AFTER} wake-ups) \
         is gathered",
        after.reads - before.reads
    );
}

//! What the PTY tests share: a program run by `sh -c` on a real PTY, and the ring read as the
//! parser would read it.

// Each test file is a crate of its own that compiles this module and uses part of it.
#![allow(dead_code)]

use std::ffi::OsString;
use std::time::{Duration, Instant};

use sluice_pty::ring::Wait;
use sluice_pty::{Pty, PtyOptions, RingConsumer};

/// `script` run by `sh -c` on a new PTY, with the default read-ahead.
pub fn spawn(script: &str) -> (Pty, RingConsumer) {
    spawn_reading_ahead(script, PtyOptions::default().read_ahead)
}

/// `script` run by `sh -c` on a new PTY whose reader reads at most `read_ahead` bytes ahead
/// of the ring's consumer.
pub fn spawn_reading_ahead(script: &str, read_ahead: usize) -> (Pty, RingConsumer) {
    let options = PtyOptions {
        command: Some(["sh", "-c", script].map(OsString::from).to_vec()),
        read_ahead,
        ..PtyOptions::default()
    };
    Pty::spawn(&options).expect("spawn sh")
}

/// Reads what the ring has within 50 ms into `received`.
pub fn read_some(ring: &mut RingConsumer, received: &mut Vec<u8>) {
    if let Wait::Data = ring.wait(Some(Instant::now() + Duration::from_millis(50))) {
        ring.consume(usize::MAX, |a, b| {
            received.extend_from_slice(a);
            received.extend_from_slice(b);
            a.len() + b.len()
        });
    }
}

/// Everything the program writes, `expected_len` bytes, as the ring delivers it; fails the
/// test if it takes more than a minute.
pub fn read_all(ring: &mut RingConsumer, expected_len: usize) -> Vec<u8> {
    let mut received = Vec::with_capacity(expected_len);
    let started = Instant::now();
    while received.len() < expected_len {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "{} of {expected_len} bytes came",
            received.len()
        );
        read_some(ring, &mut received);
    }
    received
}

/// A script that prints `lines` 100-byte lines (99 digits, the line's number mod 10, and a
/// line feed) each in a write of its own, 100 µs apart: about as often as a build logs. The
/// PTY is raw, so what arrives is exactly [`trickle_output`]. perl is in every Debian
/// (perl-base); select() sleeps for a fraction of a second.
pub fn trickle_script(lines: usize) -> String {
    format!(
        "stty raw -echo && exec perl -e '$|=1; for my $i (0..{}) {{ print chr(48 + $i % 10) x 99, \"\\n\"; select(undef, undef, undef, 0.0001) }}'",
        lines - 1
    )
}

/// What [`trickle_script`] prints.
pub fn trickle_output(lines: usize) -> Vec<u8> {
    (0..lines)
        .flat_map(|i| {
            let mut line = vec![b'0' + (i % 10) as u8; 99];
            line.push(b'\n');
            line
        })
        .collect()
}

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

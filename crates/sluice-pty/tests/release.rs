//! The reader gives a burst's ring memory back once the program has been quiet: a real PTY, a
//! real program, the ring drained as the parser drains it.

mod common;

use std::time::{Duration, Instant};

use sluice_pty::ring::{KEEP_RESIDENT, RELEASE_ABOVE, Wait};
use sluice_pty::{PtyOptions, RELEASE_AFTER_QUIET};

#[test]
fn a_burst_is_given_back_after_the_program_falls_quiet() {
    const BURST: usize = 4 << 20;
    const {
        assert!(
            BURST > KEEP_RESIDENT + RELEASE_ABOVE,
            "the burst is worth a release"
        )
    };
    let script = format!("head -c {BURST} /dev/zero | tr '\\0' x; sleep 30");
    let (pty, mut ring) = common::spawn(&script);
    let stats = pty.stats();
    let started = Instant::now();
    let mut consumed = 0;
    let mut burst_read_at = None;
    let limit = RELEASE_AFTER_QUIET * 5;
    while stats.snapshot().ring_released == 0 {
        assert!(
            started.elapsed() < limit,
            "nothing given back {limit:?} after the start ({consumed} bytes read)"
        );
        if let Wait::Data = ring.wait(Some(Instant::now() + Duration::from_millis(50))) {
            consumed += ring.consume(usize::MAX, |a, b| a.len() + b.len());
        }
        if consumed >= BURST && burst_read_at.is_none() {
            burst_read_at = Some(Instant::now());
        }
    }
    let burst_read_at = burst_read_at.expect("the whole burst was read before the release");
    assert!(
        burst_read_at.elapsed() >= RELEASE_AFTER_QUIET - Duration::from_millis(100),
        "released {:?} after the burst, before the quiet spell was over",
        burst_read_at.elapsed()
    );
    let released = stats.snapshot().ring_released as usize;
    let ring = PtyOptions::default().read_ahead;
    assert!(
        released >= ring - KEEP_RESIDENT - (64 << 10),
        "released {released} bytes of a {ring} byte ring"
    );
}

//! Keeping the reader's CPU awake through a flood: when the kernel is empty for a moment,
//! yield, do not sleep.
//!
//! A Linux PTY hands its output over about 4 KiB at a time: the program's `write(2)` queues it,
//! the kernel's flush worker moves it into the line discipline's buffer, the reader's
//! `read(2)` empties that buffer and kicks the worker for the next 4 KiB. A reader that has
//! caught up and sleeps in `poll(2)` until the next piece lets its CPU halt, and on a virtual
//! machine whose idle CPUs halt at once (the guest idle driver of the machine this was
//! measured on polled for 0 ns, `/sys/module/haltpoll/parameters/guest_halt_poll_ns`) every
//! hand-over then waits for a CPU to come back through the host. How much that costs depends
//! on how long the CPUs were idle before: in one run of compare's probe on a bare PTY (16 MiB
//! of dense colour, 12 tries each), the blocking drain read 178.5 MB/s (median) with its tries
//! back to back and 133 with 400 ms of quiet before each, as `compare` writes them; a drain
//! that yields while the kernel is empty read 191.5 and 164.5 (docs/performance.md, "A CPU
//! that halts between hand-overs"). Sluice's reader, which polls, read as the blocking drain
//! did. On a later machine of this kind whose idle driver polls 200 µs before halting, the
//! blocking drain was the faster style for dense colour at 200×60, and Sluice's reader read as
//! the yielding drain did (docs/performance.md, "Dense colour at 200×60: storing, blocking
//! reads and the host's idle driver").
//!
//! So while the program writes faster than [`FLOOD_RATE`], a reader that finds the kernel
//! empty yields its CPU (`sched_yield(2)`) and reads again, rather than sleeping, for up to
//! [`YIELD_FOR`] after its last read. A yield hands the CPU to whoever is runnable on it (the
//! flush worker, the program, the parser) and otherwise returns at once, so the CPU does not
//! halt while the flood runs. A busy loop without the yield takes the CPU from them instead:
//! a drain that spun on `EAGAIN` read at 0.57–0.65× the blocking one ("The drain is not the
//! limit here").
//!
//! The yields come before the young flood's wait for more output (`read_ahead::GRACE`), so a
//! program that pauses in the middle of a young flood has what it wrote parsed up to
//! [`YIELD_FOR`] later than the grace alone would make it.
//!
//! Only in a flood: a build logs a line at a time, each a read of its own a fraction of a
//! millisecond after the last, and a reader that yielded for a millisecond after any output
//! spent 1.15–1.21 s of CPU on the Metro-like build, against 0.05–0.06 s without. With the
//! rule as shipped it spent 0.06 s, and `compare` read dense colour at 0.94× the drain
//! against 0.77× for the build before in the same run, the other payloads within the spread.

use std::time::{Duration, Instant};

/// How long after its last read the reader yields instead of sleeping: long past any gap in a
/// flood while the program has a CPU (microseconds), and no more than a millisecond of a CPU
/// spent once the flood has stopped. The yielding drain of `sluice-bench compare` uses the same
/// (crates/sluice-bench/src/compare/drain.rs).
pub const YIELD_FOR: Duration = Duration::from_millis(1);

/// The slowest stream the reader yields for, in bytes a second: below the slowest pace at
/// which the kernel passes a flood through a PTY here (70–240 MB/s), and far above a build's
/// log (the Metro-like build writes well under 1 MB/s, a line every 180 µs or so) or a stream
/// of short lines, which the line discipline slows to 25–50 MB/s and `short_writes.rs`
/// gathers.
pub const FLOOD_RATE: f64 = 64.0e6;

/// How fast the rate forgets: the bytes read are decayed with this time constant, so the
/// rate is that of the last millisecond or so, and a burst of a few log lines written at once
/// (kilobytes in microseconds) does not count as a flood.
const RATE_MEMORY: f64 = 1e-3;

/// The state, owned by the reader thread.
#[derive(Debug, Default)]
pub(crate) struct KeepAwake {
    /// Bytes read, decayed with [`RATE_MEMORY`] as of `last_read`.
    bytes: f64,
    /// When the last read ended.
    last_read: Option<Instant>,
}

impl KeepAwake {
    /// The reader read `n` bytes at `now`; returns the stream's rate over the last
    /// millisecond or so, those bytes included, in bytes a second: also what decides whether
    /// the reader may leave the parser asleep ([`crate::read_ahead::DEFER_RATE`]).
    pub(crate) fn read(&mut self, n: usize, now: Instant) -> f64 {
        self.bytes = self.bytes_at(now) + n as f64;
        self.last_read = Some(now);
        self.bytes / RATE_MEMORY
    }

    /// The reader found the kernel empty at `now`: whether to yield and read again rather
    /// than wait for the kernel.
    pub(crate) fn yields(&self, now: Instant) -> bool {
        self.last_read
            .is_some_and(|last| now.saturating_duration_since(last) < YIELD_FOR)
            && self.flooding(now)
    }

    /// Whether the stream runs at a flood's rate ([`FLOOD_RATE`]) as of `now`.
    fn flooding(&self, now: Instant) -> bool {
        self.bytes_at(now) / RATE_MEMORY >= FLOOD_RATE
    }

    /// The decayed bytes as of `now`: for a steady stream, its rate × [`RATE_MEMORY`].
    fn bytes_at(&self, now: Instant) -> f64 {
        let Some(last) = self.last_read else {
            return 0.0;
        };
        let elapsed = now.saturating_duration_since(last).as_secs_f64();
        self.bytes * (-elapsed / RATE_MEMORY).exp()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `reads` reads of `n` bytes, `every` µs apart from time zero; then the kernel runs dry
    /// `dry_after` µs after the last.
    fn stream(n: usize, reads: usize, every: f64, dry_after: f64) -> bool {
        let t0 = Instant::now();
        let us = |x: f64| t0 + Duration::from_secs_f64(x / 1e6);
        let mut awake = KeepAwake::default();
        for i in 0..reads {
            awake.read(n, us(i as f64 * every));
        }
        awake.yields(us((reads.max(1) - 1) as f64 * every + dry_after))
    }

    #[test]
    fn yields_in_a_flood_and_nowhere_else() {
        // (what, bytes a read, reads, µs apart, dry µs after the last read, yields?)
        let cases: &[(&str, usize, usize, f64, f64, bool)] = &[
            ("nothing read yet", 0, 0, 0.0, 0.0, false),
            // 4 KiB every 25 µs: 160 MB/s, a flood as the kernel passes it.
            ("a flood, just now", 4_096, 400, 25.0, 5.0, true),
            ("a flood, 0.5 ms ago", 4_096, 400, 25.0, 500.0, true),
            ("a flood, 1 ms ago", 4_096, 400, 25.0, 1_000.0, false),
            ("a flood's first 100 µs", 4_096, 5, 25.0, 5.0, false),
            ("a flood's first 600 µs", 4_096, 25, 25.0, 5.0, true),
            // 100-byte lines every 180 µs: the Metro-like build.
            ("a build's log", 100, 5_000, 180.0, 5.0, false),
            // Forty lines written at once, 2 µs apart.
            ("a burst of log lines", 100, 40, 2.0, 5.0, false),
            // Short lines, 2.5 KiB a read at 40 MB/s: short_writes.rs's.
            ("a stream of short lines", 2_560, 1_000, 64.0, 5.0, false),
            ("one full read", 4_096, 1, 0.0, 5.0, false),
            ("two big reads", 64 << 10, 2, 100.0, 5.0, true),
        ];
        for &(what, n, reads, every, dry_after, expected) in cases {
            assert_eq!(stream(n, reads, every, dry_after), expected, "{what}");
        }
    }
}

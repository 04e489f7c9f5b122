//! How far the reader may read ahead of the parser: the whole ring for a burst, about a
//! frame's parse work under a sustained flood.
//!
//! A deep ring is what lets a program write a burst at the kernel's speed while the parser
//! catches up behind it. Under a flood that never ends, the same depth buys nothing: the
//! parser is the bottleneck either way, so the program writes at the parser's rate whatever
//! the ring holds, and all a full ring adds is its own depth to the latency of every byte.
//! Through a window, `sluice-bench window-latency` put output on screen 178 ms (p50) and
//! 291 ms (p99) after it was written, with the 16 MiB ring full (docs/performance.md).
//!
//! So the limit drops to [`LEAN_READ_AHEAD`] once the ring has held more than that for
//! [`SUSTAINED`] in all during one flood, and returns to the whole ring once the parser has
//! caught up with everything and the program has been quiet for [`QUIET`], which also ends
//! the flood. The time behind adds up over the flood rather than having to be one stretch: a
//! flood the parser keeps up with on average still falls behind by megabytes whenever the
//! parser is descheduled, and those moments were the p99 (docs/architecture.md, "Read-ahead
//! under a flood"). The price: a program that writes much more than a burst before it pauses
//! finishes later, because it can no longer leave the ring's depth behind unparsed; the bytes
//! reach the screen no later than before.

use std::time::{Duration, Instant};

/// The read-ahead under a sustained flood: a fraction of a frame's parse work. The parser
/// takes 256 KiB in 2–6 ms (plain lines at ~110 MiB/s, dense colour at ~40 MiB/s;
/// docs/performance.md), so a byte written under a flood waits that long to be parsed and then
/// for the next frame. With 1 MiB (9–25 ms of parsing), output reached the screen 22–28 ms
/// (p50) after it was written through a 100×30 window; with 256 KiB 17–20 ms, and a flood of
/// 128 MiB of plain or dense lines was written as fast, headless and in a window, within
/// the rounds' spread (`sluice-bench window-latency --mode flood`, three alternated runs each;
/// docs/performance.md, "A fresh screen under floods"). Ghostty reads ahead 256 KiB too.
pub const LEAN_READ_AHEAD: usize = 256 << 10;

/// How long the parser must have been behind (the ring holding more than the lean limit), in
/// all during one flood, before the limit drops. A 16 MiB burst reaches the ring in
/// 70–170 ms here (the kernel passes 100–240 MB/s through a PTY, `benches/drain.sh` and
/// `sluice-bench compare`'s drain arm) and, with the parser at half the kernel's speed, is
/// parsed 170 ms after that: well inside this, so a burst of up to the whole ring is still
/// absorbed in full.
pub const SUSTAINED: Duration = Duration::from_millis(500);

/// How long the program must have been silent, with everything it wrote parsed, before its
/// flood counts as over and the whole ring is given back: longer than a scheduling hiccup of
/// the writer on a loaded machine (a few ms to tens of ms), shorter than the pauses between a
/// build's bursts.
pub const QUIET: Duration = Duration::from_millis(100);

/// The policy's state, owned by the reader thread.
#[derive(Debug, Clone)]
pub(crate) struct ReadAhead {
    capacity: usize,
    lean: usize,
    /// How long the ring has held more than `lean` during this flood, in all.
    behind: Duration,
    /// When the limit was last asked for, and whether the ring then held more than `lean`:
    /// the time since counts as behind if it did.
    last: Option<(Instant, bool)>,
}

impl ReadAhead {
    pub(crate) fn new(capacity: usize) -> Self {
        Self {
            capacity,
            lean: LEAN_READ_AHEAD.min(capacity),
            behind: Duration::ZERO,
            last: None,
        }
    }

    /// The most the ring may hold now, given that it holds `filled` bytes at `now`.
    pub(crate) fn limit(&mut self, filled: usize, now: Instant) -> usize {
        let over = filled > self.lean;
        let was_leaning = self.is_leaning();
        if let Some((then, true)) = self.last {
            self.behind += now.saturating_duration_since(then);
        }
        self.last = Some((now, over));
        if !was_leaning && self.is_leaning() {
            tracing::debug!(filled, "pty-reader: the parser is behind; read-ahead lean");
        }
        if self.is_leaning() {
            self.lean
        } else {
            self.capacity
        }
    }

    /// The reader found the kernel empty and waited `waited` for more; the ring now holds
    /// `filled` bytes. A quiet spell ([`QUIET`] or more) with the ring empty means the
    /// parser has caught up with everything and the program has paused: the next burst gets
    /// the whole ring again. (Touching empty is not enough: under a flood the kernel runs dry
    /// for a moment whenever the program is descheduled, and going back to the whole ring then
    /// let the backlog grow back to 16 MiB for [`SUSTAINED`] every few seconds.)
    pub(crate) fn kernel_quiet(&mut self, waited: Duration, filled: usize) {
        if filled == 0 && waited >= QUIET {
            if self.is_leaning() {
                tracing::debug!("pty-reader: the parser caught up; read-ahead back to the ring");
            }
            self.behind = Duration::ZERO;
            // The wait just ended was the program's silence, not the parser being behind.
            self.last = None;
        }
    }

    /// Lean once the parser has been behind for [`SUSTAINED`] in all during this flood: the
    /// sum only grows until the flood ends, so there is no flag to keep beside it.
    fn is_leaning(&self) -> bool {
        self.behind >= SUSTAINED
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIB: usize = 1 << 20;
    const LEAN: usize = LEAN_READ_AHEAD;

    fn at(start: Instant, ms: u64) -> Instant {
        start + Duration::from_millis(ms)
    }

    #[test]
    fn a_burst_gets_the_whole_ring() {
        let t0 = Instant::now();
        let mut r = ReadAhead::new(16 * MIB);
        // 16 MiB arriving over 170 ms and parsed over the next 200: behind, but not for long.
        for ms in (0..370).step_by(10) {
            assert_eq!(r.limit(8 * MIB, at(t0, ms)), 16 * MIB, "{ms} ms");
        }
        assert_eq!(r.limit(0, at(t0, 380)), 16 * MIB);
        r.kernel_quiet(QUIET, 0);
        assert!(!r.is_leaning());
    }

    #[test]
    fn a_sustained_flood_leans_and_the_catch_up_restores_the_ring() {
        let t0 = Instant::now();
        let mut r = ReadAhead::new(16 * MIB);
        assert_eq!(r.limit(2 * MIB, t0), 16 * MIB);
        assert_eq!(r.limit(16 * MIB, at(t0, 499)), 16 * MIB);
        assert_eq!(r.limit(16 * MIB, at(t0, 500)), LEAN, "behind for 500 ms");
        // Draining towards the lean limit, then hovering around it: still lean, even when
        // the ring touches empty with the kernel's buffer still full behind it.
        assert_eq!(r.limit(4 * MIB, at(t0, 600)), LEAN);
        assert_eq!(r.limit(MIB / 2, at(t0, 700)), LEAN);
        assert_eq!(r.limit(0, at(t0, 800)), LEAN);
        assert_eq!(r.limit(MIB, at(t0, 5000)), LEAN);
        // The kernel runs dry for a moment, or for long while the ring still holds some:
        // still lean.
        r.kernel_quiet(Duration::from_millis(5), 0);
        assert_eq!(r.limit(0, at(t0, 5010)), LEAN);
        r.kernel_quiet(QUIET, MIB / 4);
        assert_eq!(r.limit(MIB / 4, at(t0, 5050)), LEAN);
        // The flood ends; the parser empties the ring and the program stays quiet.
        r.kernel_quiet(QUIET, 0);
        assert_eq!(r.limit(0, at(t0, 5100)), 16 * MIB);
        // And the next flood starts its 500 ms afresh.
        assert_eq!(r.limit(2 * MIB, at(t0, 5200)), 16 * MIB);
        assert_eq!(r.limit(2 * MIB, at(t0, 5600)), 16 * MIB);
        assert_eq!(r.limit(2 * MIB, at(t0, 5700)), LEAN);
    }

    #[test]
    fn time_behind_adds_up_over_a_flood() {
        // A flood the parser keeps up with on average, falling behind by megabytes for 20 ms
        // in every 100 (as when it is descheduled): 500 ms behind in all after 2.4 s.
        let t0 = Instant::now();
        let mut r = ReadAhead::new(16 * MIB);
        for period in 0..24 {
            let ms = period * 100;
            assert_eq!(r.limit(2 * MIB, at(t0, ms)), 16 * MIB, "{ms} ms");
            assert_eq!(r.limit(LEAN / 2, at(t0, ms + 20)), 16 * MIB, "{ms} ms");
            // The kernel runs dry for a moment between the program's writes: the flood goes on.
            r.kernel_quiet(Duration::from_millis(5), 0);
            assert_eq!(r.limit(0, at(t0, ms + 60)), 16 * MIB, "{ms} ms");
        }
        assert_eq!(r.limit(2 * MIB, at(t0, 2400)), 16 * MIB, "480 ms behind");
        assert_eq!(r.limit(2 * MIB, at(t0, 2420)), LEAN, "500 ms behind in all");
    }

    #[test]
    fn a_pause_ends_the_flood_and_its_time_behind() {
        let t0 = Instant::now();
        let mut r = ReadAhead::new(16 * MIB);
        assert_eq!(r.limit(2 * MIB, t0), 16 * MIB);
        assert_eq!(r.limit(2 * MIB, at(t0, 400)), 16 * MIB);
        // Everything parsed and the program silent for a while: its next output is a new
        // burst, and the silence itself is not time behind, though the ring held more than
        // the lean limit when it began.
        r.kernel_quiet(QUIET, 0);
        assert_eq!(r.limit(2 * MIB, at(t0, 600)), 16 * MIB);
        assert_eq!(
            r.limit(2 * MIB, at(t0, 1000)),
            16 * MIB,
            "behind for 400 ms in this flood"
        );
        assert_eq!(r.limit(2 * MIB, at(t0, 1100)), LEAN);
    }

    #[test]
    fn a_silence_while_the_ring_still_holds_output_does_not_end_the_flood() {
        let t0 = Instant::now();
        let mut r = ReadAhead::new(16 * MIB);
        assert_eq!(r.limit(2 * MIB, t0), 16 * MIB);
        r.kernel_quiet(QUIET, MIB);
        assert_eq!(r.limit(2 * MIB, at(t0, 400)), 16 * MIB);
        assert_eq!(r.limit(2 * MIB, at(t0, 500)), LEAN);
    }

    #[test]
    fn a_ring_smaller_than_the_lean_limit_is_never_cut() {
        let t0 = Instant::now();
        let mut r = ReadAhead::new(LEAN / 2);
        for ms in (0..2000).step_by(100) {
            assert_eq!(r.limit(LEAN / 2, at(t0, ms)), LEAN / 2);
        }
    }
}

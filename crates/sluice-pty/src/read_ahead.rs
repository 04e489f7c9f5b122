//! How far the reader may read ahead of the parser: the whole ring for a burst, about a
//! frame's parse work under a sustained flood; and, while a flood is young, without waking the
//! parser at all.
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
//!
//! **A young flood is read without the parser.** On two cores the kernel's side of a bare drain
//! (the writer's `write(2)`, the flush worker, the reader's `read(2)`) keeps both cores nearly
//! busy, so a parser that runs beside it takes its time from the writer: in a 100×30 window a
//! 16 MiB burst after a quiet spell was written at 0.45–0.58× a bare drain's rate (cursor motion,
//! dense colour, plain lines) with the parser woken by every read, at 0.58–0.73× with it left
//! asleep for the burst's first 100 ms, and at 0.88–0.99× (progress bars 0.67×) with it left asleep
//! for up to 250 ms, which covers the whole burst here (docs/performance.md, "A young flood is read
//! without the parser" and "The whole burst without the parser"). So once a flood has brought
//! [`DEFER_ABOVE`] and runs at the kernel's pace ([`DEFER_RATE`]) the reader stops waking the
//! parser, for at most [`DEFER_FOR`] from the flood's start, and wakes it as soon as the program
//! pauses for [`GRACE`] or the ring reaches its limit. The price is the screen: it holds its last
//! frame (which shows the flood's first 64 KiB or so) for up to [`DEFER_FOR`] at the start of a
//! flood, and the burst's last frame comes 10–25 ms later (headless, 16 MiB), as the parser then
//! does the same work alone on one core once the program is done rather than beside it on two
//! (docs/performance.md).

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

/// How much a flood must have brought, at [`DEFER_RATE`] or faster, before the reader stops
/// waking the parser. A prompt, an echo, a TUI's redraw (a 200×60 screen of source code with
/// its colours is 20–60 KB) and a build's log lines are parsed as they arrive, with the
/// parser woken by every read; a redraw bigger than this, written in one go, reaches the
/// parser up to [`GRACE`] (and the reader's [`YIELD_FOR`](crate::keep_awake::YIELD_FOR))
/// after its last byte.
///
/// 64 KiB, not the 1 MiB it was until 2026-12-05: parsing a flood's first MiB takes the
/// parser 9–25 ms, and a window draws frames of it, both on the program's cores. In a 100×30
/// window, 16 MiB bursts each after 0.4 s of quiet (`sluice-bench write` in `sluice-bench
/// run-in`, five or six alternated rounds of six bursts, a bare drain in the same rounds),
/// three runs that set 64 KiB against 1 MiB wrote dense colour 8–12% faster in each, plain
/// lines 2–22%, cursor motion −2 to +21% and scroll regions −12 to +42% (docs/performance.md,
/// "The first MiB on the program's cores").
pub const DEFER_ABOVE: usize = 64 << 10;

/// The slowest stream, in bytes a second over the last millisecond or so, that the reader
/// leaves the parser asleep for once it has brought [`DEFER_ABOVE`]: the slowest pace at
/// which the kernel passes a flood (short lines, whose `\r\n` the line discipline adds one
/// by one on the writer's side, 21–27 MB/s through `sluice-bench compare`'s drain), with
/// room, and far above a build's log (the Metro-like build writes under 1 MB/s; a burst of
/// forty lines written at once is 4 KB) or a program printing 4 KiB a millisecond as it
/// computes. Without it, a build logging half a megabyte a second would bring 64 KiB in
/// 130 ms and have its screen held for the rest of [`DEFER_FOR`]. With the flood rate at
/// which the reader yields (64 MB/s, keep_awake.rs) instead, short lines were no longer
/// deferred, and one `compare` run read them at 0.87× the drain against 1.00× for the build
/// before, which deferred them past 1 MiB; at 16 MB/s they are deferred as before, and two
/// later runs put them level with that build (22.2 against 21.3 and 23.8 MB/s a try;
/// docs/performance.md, "The first MiB on the program's cores").
pub const DEFER_RATE: f64 = 16.0e6;

/// For how long from a flood's start the parser may be left asleep: long enough for the
/// kernel to deliver a whole ring's burst, which takes 70–240 ms here (16 MiB at the 70–240
/// MB/s a bare drain reads through a PTY on this machine), so that the program writes all of
/// it without the parser on its cores. In a 100×30 window, 16 MiB bursts after a quiet spell
/// were written at these multiples of the drain with 100 ms and with 250 ms (medians of eight
/// alternated rounds, docs/performance.md, "The whole burst without the parser"): dense colour
/// 0.80 → 0.99, colour 0.64 → 0.88, cursor motion 0.76 → 0.89, plain lines 0.84 → 0.89,
/// scroll regions 0.81 → 0.90, CJK and emoji 0.88 → 0.94. The price: during a flood's first
/// quarter second the screen holds the frame that shows its first 64 KiB or so
/// ([`DEFER_ABOVE`]), where it used to move again after a tenth. Text scrolling at megabytes
/// a second is not read either way, and a program that stops writing has its last output
/// parsed within [`GRACE`].
pub const DEFER_FOR: Duration = Duration::from_millis(250);

/// How long a deferring reader that finds the kernel empty waits for more before it wakes the
/// parser. A program in the middle of a burst refills the kernel's buffer within microseconds
/// when it has a core, but on two busy cores it can wait more than a millisecond for one: with
/// 1 ms, the deferral of a 16 MiB burst of plain lines ended after its first 2 MiB in one run
/// of `sluice-bench write`; with 5 ms it lasted its full 100 ms (then [`DEFER_FOR`]) in each
/// of seven runs (plain lines and dense colour), and with 250 ms it lasted until each of three
/// 16 MiB bursts of dense colour had been read. Silence this long ends the deferral for the
/// flood: the last output before a pause reaches the parser at most this late, once a flood.
pub const GRACE: Duration = Duration::from_millis(5);

/// What the reader does after a read, as [`ReadAhead::read`] decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AfterRead {
    /// Wake the parser for what was read.
    WakeParser,
    /// Leave the parser asleep: the young flood has brought `deferred` bytes since it
    /// started (the reader starts the page-fault helper from that); `started` on the read
    /// that began the deferral, once a flood (what `PtyStats` counts as a young flood).
    LeaveAsleep { deferred: usize, started: bool },
}

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
    /// Where this flood is in its deferral of the parser.
    young: Young,
}

/// A flood's deferral of the parser: the flood's start and what it has brought while the
/// deferral may still run, or that it has ended for this flood.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Young {
    /// No byte yet since the last flood ended.
    NotStarted,
    /// The flood started at `since` and has brought `read` bytes; the parser is woken by
    /// every read.
    Since { since: Instant, read: usize },
    /// The flood has brought [`DEFER_ABOVE`] and ran at [`DEFER_RATE`] or faster: the parser
    /// is left asleep.
    Deferring { since: Instant, read: usize },
    /// The parser has been woken for good in this flood: [`DEFER_FOR`] passed, or the program
    /// paused.
    Over,
}

impl ReadAhead {
    pub(crate) fn new(capacity: usize) -> Self {
        Self {
            capacity,
            lean: LEAN_READ_AHEAD.min(capacity),
            behind: Duration::ZERO,
            last: None,
            young: Young::NotStarted,
        }
    }

    /// The reader put `n` bytes in the ring at `now`, the stream running at `rate` bytes a
    /// second ([`KeepAwake::read`](crate::keep_awake::KeepAwake::read)): whether to wake the
    /// parser for them.
    pub(crate) fn read(&mut self, n: usize, now: Instant, rate: f64) -> AfterRead {
        let was_deferring = self.defers_parser();
        let young = match self.young {
            Young::NotStarted => Young::Since {
                since: now,
                read: 0,
            },
            young => young,
        };
        self.young = match young {
            Young::Since { since, .. } | Young::Deferring { since, .. }
                if now.saturating_duration_since(since) >= DEFER_FOR =>
            {
                Young::Over
            }
            Young::Since { since, read } if rate >= DEFER_RATE && read + n >= DEFER_ABOVE => {
                Young::Deferring {
                    since,
                    read: read + n,
                }
            }
            Young::Since { since, read } => Young::Since {
                since,
                read: read + n,
            },
            Young::Deferring { since, read } => Young::Deferring {
                since,
                read: read + n,
            },
            young @ (Young::NotStarted | Young::Over) => young,
        };
        match self.young {
            Young::Deferring { read, .. } => {
                if !was_deferring {
                    tracing::debug!("pty-reader: a young flood; the parser left asleep");
                }
                AfterRead::LeaveAsleep {
                    deferred: read,
                    started: !was_deferring,
                }
            }
            _ => {
                if was_deferring {
                    tracing::debug!("pty-reader: the flood is no longer young; the parser woken");
                }
                AfterRead::WakeParser
            }
        }
    }

    /// How long to wait for more output before waking the parser, when the reader finds the
    /// kernel empty: [`GRACE`] while the parser is being left asleep, `None` when it is awake.
    pub(crate) fn grace(&self) -> Option<Duration> {
        self.defers_parser().then_some(GRACE)
    }

    /// The reader woke the parser after the program paused: the parser stays awake for the
    /// rest of this flood.
    pub(crate) fn parser_woken(&mut self) {
        if let Young::Deferring { read, .. } = self.young {
            tracing::debug!(read, "pty-reader: the program paused; the parser woken");
            self.young = Young::Over;
        }
    }

    /// Whether the reader is leaving the parser asleep: the flood has brought [`DEFER_ABOVE`]
    /// at [`DEFER_RATE`] or faster within [`DEFER_FOR`] of its start. (A reader never leans
    /// while it defers: the time behind starts with the flood too, and leaning takes longer.)
    fn defers_parser(&self) -> bool {
        const { assert!(DEFER_FOR.as_millis() < SUSTAINED.as_millis()) };
        matches!(self.young, Young::Deferring { .. })
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
            self.young = Young::NotStarted;
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
    use crate::keep_awake::KeepAwake;

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

    /// The reader's view of a stream: the read-ahead with the rate the reader gives it
    /// ([`KeepAwake`]), as reader.rs composes them.
    struct Stream {
        read_ahead: ReadAhead,
        rate: KeepAwake,
        t0: Instant,
    }

    impl Stream {
        fn new() -> Self {
            Self {
                read_ahead: ReadAhead::new(16 * MIB),
                rate: KeepAwake::default(),
                t0: Instant::now(),
            }
        }

        /// Reads `total` bytes in reads of `n` (a PTY hands over 4 KiB at a time), one every
        /// `every_us` µs from `from_ms`; returns what the read-ahead said after each.
        fn outcomes(
            &mut self,
            from_ms: u64,
            total: usize,
            n: usize,
            every_us: u64,
        ) -> Vec<AfterRead> {
            (0..total / n)
                .map(|i| {
                    let now = at(self.t0, from_ms) + Duration::from_micros(i as u64 * every_us);
                    let rate = self.rate.read(n, now);
                    self.read_ahead.read(n, now, rate)
                })
                .collect()
        }

        /// As [`Self::outcomes`]: whether each read would wake the parser.
        fn reads(&mut self, from_ms: u64, total: usize, n: usize, every_us: u64) -> Vec<bool> {
            woken(&self.outcomes(from_ms, total, n, every_us))
        }
    }

    /// Whether each read woke the parser.
    fn woken(outcomes: &[AfterRead]) -> Vec<bool> {
        outcomes
            .iter()
            .map(|&after| after == AfterRead::WakeParser)
            .collect()
    }

    /// 4 KiB every 25 µs: 164 MB/s, a flood as the kernel passes it through a PTY here.
    const FLOOD_EVERY_US: u64 = 25;

    /// The read from which a flood at [`FLOOD_EVERY_US`] leaves the parser asleep: it must
    /// have brought [`DEFER_ABOVE`], at [`DEFER_RATE`], which the rate's memory reaches within
    /// a millisecond of the flood's start.
    fn first_deferred(woken: &[bool]) -> usize {
        let first = woken.iter().position(|&w| !w).expect("never deferred");
        let warm_up = 1_000 / FLOOD_EVERY_US as usize;
        assert!(
            (DEFER_ABOVE / 4096 - 1..DEFER_ABOVE / 4096 + warm_up).contains(&first),
            "deferred from read {first}"
        );
        first
    }

    #[test]
    fn a_young_flood_is_read_without_waking_the_parser_until_the_program_pauses() {
        let mut s = Stream::new();
        // The first 64 KiB or so wake the parser read by read; from there on it sleeps.
        let outcomes = s.outcomes(0, 4 * MIB, 4096, FLOOD_EVERY_US);
        let woken = woken(&outcomes);
        let first = first_deferred(&woken);
        // The deferral starts once, at its first read, and counts what the flood brought.
        let started: Vec<usize> = outcomes
            .iter()
            .enumerate()
            .filter(|(_, after)| matches!(after, AfterRead::LeaveAsleep { started: true, .. }))
            .map(|(i, _)| i)
            .collect();
        assert_eq!(started, [first]);
        assert_eq!(
            outcomes[first],
            AfterRead::LeaveAsleep {
                deferred: (first + 1) * 4096,
                started: true
            }
        );
        assert!(woken[..first].iter().all(|&w| w), "below DEFER_ABOVE");
        assert!(
            woken[first..].iter().all(|&w| !w),
            "above it, within DEFER_FOR"
        );
        assert_eq!(
            s.read_ahead.read(4096, at(s.t0, 110), 1e9),
            AfterRead::LeaveAsleep {
                deferred: 4 * MIB + 4096,
                started: false
            }
        );
        assert_eq!(s.read_ahead.grace(), Some(GRACE));
        // The program pauses for the grace: the reader wakes the parser, which stays awake
        // for the rest of the flood, pauses shorter than QUIET included.
        s.read_ahead.parser_woken();
        assert_eq!(s.read_ahead.grace(), None);
        assert!(
            s.reads(70, 2 * MIB, 4096, FLOOD_EVERY_US)
                .iter()
                .all(|&w| w)
        );
        s.read_ahead.kernel_quiet(Duration::from_millis(20), 0);
        assert!(
            s.reads(250, 2 * MIB, 4096, FLOOD_EVERY_US)
                .iter()
                .all(|&w| w)
        );
        // A quiet spell with everything parsed ends the flood: the next one is young again.
        s.read_ahead.kernel_quiet(QUIET, 0);
        assert!(!s.reads(1000, 2 * MIB, 4096, FLOOD_EVERY_US).last().unwrap());
    }

    #[test]
    fn the_parser_is_left_asleep_for_at_most_defer_for() {
        // A writer that never pauses, for twice DEFER_FOR: asleep from the first 64 KiB or so
        // until DEFER_FOR from the flood's start, awake from then on.
        let mut s = Stream::new();
        let reads = 2 * DEFER_FOR.as_micros() as usize / FLOOD_EVERY_US as usize;
        let woken = s.reads(0, reads * 4096, 4096, FLOOD_EVERY_US);
        let first = first_deferred(&woken);
        for (i, &w) in woken.iter().enumerate() {
            let young = (i as u64 * FLOOD_EVERY_US) < DEFER_FOR.as_micros() as u64;
            assert_eq!(w, !(young && i >= first), "read {i}");
        }
        assert_eq!(s.read_ahead.grace(), None);
    }

    #[test]
    fn output_that_grows_slowly_is_never_held_back() {
        // A prompt, a build logging for seconds, a TUI redrawing: the flood never brings
        // DEFER_ABOVE within DEFER_FOR of its start, so every read wakes the parser. Here a
        // read every 10 ms that would bring DEFER_ABOVE in twice DEFER_FOR.
        const EVERY_10_MS: usize = DEFER_ABOVE / (DEFER_FOR.as_millis() as usize / 10) / 2;
        let mut s = Stream::new();
        assert!(s.reads(0, 40, 40, 1)[0]);
        assert!(
            s.reads(50, EVERY_10_MS * 500, EVERY_10_MS, 10_000)
                .iter()
                .all(|&w| w)
        );
        assert_eq!(s.read_ahead.grace(), None);
    }

    #[test]
    fn only_a_flood_at_the_kernels_pace_is_held_back() {
        // (what, bytes a read, µs apart, bytes in all): the first two bring DEFER_ABOVE or
        // more within DEFER_FOR but below a flood's rate, the last at a flood's rate but less
        // than DEFER_ABOVE. Each read must wake the parser.
        let cases: &[(&str, usize, u64, usize)] = &[
            // A build logging 100-byte lines every 50 µs (2 MB/s) for 200 ms.
            ("a busy build's log", 100, 50, 400_000),
            // 4 KiB reads every millisecond: a program that computes what it prints (4 MB/s).
            (
                "a program printing as it computes",
                4096,
                1_000,
                8 * DEFER_ABOVE,
            ),
            // A TUI redrawing a big screen at once, below DEFER_ABOVE, as the kernel passes it.
            (
                "a screen's redraw",
                4096,
                FLOOD_EVERY_US,
                DEFER_ABOVE - 4096,
            ),
        ];
        for &(what, n, every_us, total) in cases {
            let mut s = Stream::new();
            assert!(s.reads(0, total, n, every_us).iter().all(|&w| w), "{what}");
            assert_eq!(s.read_ahead.grace(), None, "{what}");
        }
    }

    #[test]
    fn short_lines_at_the_kernels_pace_are_held_back_too() {
        // `yes` or vtebench's scrolling: 680 bytes a read every 27 µs (25 MB/s, the line
        // discipline's pace for two-byte lines), deferred once they have brought DEFER_ABOVE.
        let mut s = Stream::new();
        let woken = s.reads(0, 2 * MIB, 680, 27);
        let first = woken.iter().position(|&w| !w).expect("never deferred");
        assert_eq!(first, DEFER_ABOVE.div_ceil(680) - 1);
        assert!(woken[first..].iter().all(|&w| !w));
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

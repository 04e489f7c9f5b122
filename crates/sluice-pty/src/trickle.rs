//! Letting a trickle of small writes gather in the kernel before the reader reads it.
//!
//! A bundler logging a line per module writes ~7,300 times in 1.3 s, ~100 bytes a time.
//! Read as it comes, each write costs three wake-ups (reader, parser, and the UI's frame
//! mark): through a 100×30 window the reader and the parser spent 0.11 s of CPU on that
//! build, a third of the terminal's whole cost, most of it in context switches
//! (docs/performance.md, "A trickle of small writes"). Reading such a trickle once every
//! [`GATHER`] instead changes nothing anyone can see (frames come at most once a refresh)
//! and wakes every thread a fraction as often.
//!
//! Interactive output is untouched: the pause only starts after [`TRICKLE_AFTER`] wake-ups in
//! a row, each finding data again within [`GATHER`] of the reader catching up, none reading
//! [`TRICKLE_BYTES`] or more and none after input was written to the program, so a key's echo, an answer to a query and a full-screen
//! program's redraw (a handful of writes) are read the moment they come. (Without the input
//! rule, `sluice-bench latency`, which sends the next key as soon as the last echo is in,
//! had its p50 echo go from 0.1 to 0.4 ms: after 16 echoes it was a trickle.)
//! And a pause never lets the kernel's buffer fill: it is cut to the time the output seen
//! since the last wake-up would take to fill half of it ([`KERNEL_SLACK`]), so the program
//! writing never waits for it (that is, unless its rate jumps tenfold within a pause, when it
//! waits for what is left of one).
//!
//! Once in a trickle the reader sleeps its pause as soon as it catches up with the kernel
//! (`Trickle::pause_on_catching_up`) instead of waiting for the next write to wake it and
//! then pausing: a wake-up a cycle instead of two (the reader was switched out 418–432 times
//! in a Metro-like build at 200×60 against 684–692, `perf record -e sched:sched_switch`). A
//! line written during the pause waits no longer than before, at most [`GATHER`]. Input
//! written to the program ends a pause (the writer unparks the reader), so that the answer,
//! which may come during it, is read as it comes: beside a build's log a key's echo took 3.9
//! ms (p50) when it waited out the pause, and 0.2 ms now (`sluice-bench latency --mode
//! trickle`).

use std::time::{Duration, Instant};

/// The longest pause: reads at most 250 times a second during a trickle. A quarter of a
/// 60 Hz refresh: a line of a trickle reaches the screen at most that much later, on average
/// half of it (on a 144 Hz display, at most one more frame). Measured with
/// `benches/metro-cpu.sh 3` on the Metro-like build: with 1 ms the reader took 3–4 clock
/// ticks and the parser 3–4, with 4 ms 1 and 2–3; the whole terminal 22–23 against 19–20
/// (docs/performance.md, "A trickle of small writes"). The build's writes took as long.
pub const GATHER: Duration = Duration::from_millis(4);

/// Wake-ups in a row, each less than [`GATHER`] after the reader caught up, that make a
/// trickle: more than any interactive burst (a redraw is a few writes), a small fraction of
/// the thousands of a build's log.
pub const TRICKLE_AFTER: u32 = 16;

/// What a pause may let pile up in the kernel: half of the 17,408 bytes a cooked PTY takes
/// before a writer blocks (`sluice-bench pty-capacity`, docs/benchmarks.md).
pub const KERNEL_SLACK: usize = 8 << 10;

/// What one wake-up may have read for the output to count as a trickle: a build's log line
/// is ~100 bytes, a flood comes in reads of 4 KiB and more. A bigger read ends the trickle,
/// so a flood whose reader keeps up is never paused.
pub const TRICKLE_BYTES: usize = 4 << 10;

/// Pauses shorter than this are not worth a sleep of their own.
const SHORTEST: Duration = Duration::from_micros(50);

/// The state, owned by the reader thread.
#[derive(Debug)]
pub(crate) struct Trickle {
    /// Wake-ups in a row that found data soon after the reader caught up.
    streak: u32,
    /// Bytes read since the last wake-up.
    read: usize,
    last_wake: Instant,
    /// The writer's count of input writes at the last wake-up (`PtyStats::input_writes`).
    inputs: u64,
}

impl Trickle {
    /// The state for a reader starting at `now`, the writer having written `inputs` times.
    pub(crate) fn new(now: Instant, inputs: u64) -> Self {
        Self {
            streak: 0,
            read: 0,
            last_wake: now,
            inputs,
        }
    }

    /// The kernel woke the reader at `now` after it waited `waited`, the writer's count of
    /// input writes being `inputs`: how long to let more gather before reading it
    /// ([`Trickle::woken`], with the cycle and whether input came since derived here).
    pub(crate) fn woken_at(&mut self, now: Instant, waited: Duration, inputs: u64) -> Duration {
        let cycle = now.duration_since(std::mem::replace(&mut self.last_wake, now));
        // Output after input may be the answer to it: never held back.
        let after_input = std::mem::replace(&mut self.inputs, inputs) != inputs;
        self.woken(waited, cycle, after_input)
    }

    /// The reader read `bytes`.
    pub(crate) fn read(&mut self, bytes: usize) {
        self.read += bytes;
    }

    /// The reader, having caught up with the kernel, waited `waited` for more, and the time
    /// since its last wake-up is `cycle`; `after_input` when input was written to the program
    /// since then. How long to let more gather before reading it.
    fn woken(&mut self, waited: Duration, cycle: Duration, after_input: bool) -> Duration {
        let read = std::mem::take(&mut self.read);
        if waited >= GATHER || after_input || read >= TRICKLE_BYTES {
            self.streak = 0;
            return Duration::ZERO;
        }
        self.streak = self.streak.saturating_add(1);
        if self.streak <= TRICKLE_AFTER || read == 0 {
            return Duration::ZERO;
        }
        pause(read, cycle)
    }

    /// The reader caught up with the kernel at `now`, the writer's count of input writes
    /// being `inputs`: in a trickle, how long to sleep before reading again, straight away
    /// (`None`: wait for the kernel to wake it, as outside a trickle).
    ///
    /// In a trickle the kernel's wake-up only leads to a pause ([`Trickle::woken_at`]), so
    /// the reader woke twice a cycle: once for the output, once after the pause. Sleeping the
    /// pause as soon as it catches up, sized by the same rule from what it read since its last
    /// wake-up, wakes it once. Whatever ends a trickle sends it back to waiting: nothing read
    /// since the last wake-up (the program paused; the wake-up that ends that wait counts the
    /// streak again), a read of [`TRICKLE_BYTES`] or more, or input written to the program.
    pub(crate) fn pause_on_catching_up(&self, now: Instant, inputs: u64) -> Option<Duration> {
        let in_trickle = self.streak > TRICKLE_AFTER
            && self.inputs == inputs
            && (1..TRICKLE_BYTES).contains(&self.read);
        if !in_trickle {
            return None;
        }
        Some(pause(
            self.read,
            now.saturating_duration_since(self.last_wake),
        ))
        .filter(|pause| !pause.is_zero())
    }

    /// The reader slept a pause of [`pause_on_catching_up`](Self::pause_on_catching_up)
    /// from `started`, when it caught up. The next cycle counts from there, so that what came
    /// during the pause is measured over the pause (its rate sizes the next one).
    pub(crate) fn slept(&mut self, started: Instant) {
        self.last_wake = started;
        self.read = 0;
    }
}

/// How long to let output gather after `read` bytes came over `cycle`: [`GATHER`], or less
/// where that rate would fill the kernel's [`KERNEL_SLACK`] sooner; zero where the pause would
/// be too short to sleep.
fn pause(read: usize, cycle: Duration) -> Duration {
    // The time the output seen over the last cycle would take to fill the slack.
    let fill = cycle.mul_f64(KERNEL_SLACK as f64 / read as f64);
    let pause = GATHER.min(fill);
    if pause < SHORTEST {
        Duration::ZERO
    } else {
        pause
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOON: Duration = Duration::from_micros(150);

    /// Wakes `t` `times` as a trickle of `bytes` per wake-up, `cycle` apart.
    fn trickle(t: &mut Trickle, times: u32, bytes: usize, cycle: Duration) -> Vec<Duration> {
        (0..times)
            .map(|_| {
                t.read(bytes);
                t.woken(SOON, cycle, false)
            })
            .collect()
    }

    impl Default for Trickle {
        fn default() -> Self {
            Trickle::new(Instant::now(), 0)
        }
    }

    #[test]
    fn an_interactive_burst_is_read_at_once() {
        let mut t = Trickle::default();
        let pauses = trickle(&mut t, TRICKLE_AFTER, 100, SOON);
        assert!(pauses.iter().all(Duration::is_zero), "{pauses:?}");
    }

    #[test]
    fn a_sustained_trickle_is_read_once_every_gather() {
        let mut t = Trickle::default();
        trickle(&mut t, TRICKLE_AFTER, 100, SOON);
        // 100 bytes every 180 µs (a build's log): 8 KiB would take 15 ms to come.
        t.read(100);
        assert_eq!(t.woken(SOON, Duration::from_micros(180), false), GATHER);
        t.read(600);
        assert_eq!(t.woken(SOON, GATHER, false), GATHER);
    }

    #[test]
    fn a_pause_never_outlasts_the_kernels_slack() {
        let mut t = Trickle::default();
        trickle(&mut t, TRICKLE_AFTER + 1, 100, SOON);
        // 2 KiB over a whole pause: the slack takes four pauses to fill, so a whole pause.
        t.read(2 << 10);
        assert_eq!(t.woken(SOON, GATHER, false), GATHER);
        // 4 KiB - 1 over a pause: the slack fills in about two, so a whole pause again.
        t.read((4 << 10) - 1);
        assert_eq!(t.woken(SOON, GATHER, false), GATHER);
        // 2 KiB every 1 ms (2 MB/s): 8 KiB come in 4 ms, so at most that (or a whole pause,
        // were it shorter).
        t.read(2 << 10);
        assert_eq!(
            t.woken(SOON, Duration::from_millis(1), false),
            Duration::from_millis(4).min(GATHER)
        );
        // 2 KiB every 100 µs (20 MB/s): 8 KiB come in 400 µs.
        t.read(2 << 10);
        assert_eq!(
            t.woken(SOON, Duration::from_micros(100), false),
            Duration::from_micros(400)
        );
        // 3 KiB every 10 µs: a pause would be shorter than a sleep is worth.
        t.read(3 << 10);
        assert_eq!(
            t.woken(SOON, Duration::from_micros(10), false),
            Duration::ZERO
        );
    }

    #[test]
    fn a_big_read_ends_the_trickle() {
        let mut t = Trickle::default();
        trickle(&mut t, TRICKLE_AFTER + 1, 100, SOON);
        t.read(TRICKLE_BYTES);
        assert_eq!(
            t.woken(SOON, GATHER, false),
            Duration::ZERO,
            "a flood's read"
        );
        let pauses = trickle(&mut t, TRICKLE_AFTER, 100, SOON);
        assert!(pauses.iter().all(Duration::is_zero), "{pauses:?}");
    }

    #[test]
    fn output_after_input_is_read_at_once() {
        let mut t = Trickle::default();
        trickle(&mut t, TRICKLE_AFTER + 1, 100, SOON);
        t.read(100);
        assert_eq!(t.woken(SOON, SOON, true), Duration::ZERO, "an answer");
        let pauses = trickle(&mut t, TRICKLE_AFTER, 100, SOON);
        assert!(pauses.iter().all(Duration::is_zero), "{pauses:?}");
    }

    #[test]
    fn woken_at_derives_the_cycle_and_input_since_the_last_wake_up() {
        let t0 = Instant::now();
        let mut t = Trickle::new(t0, 7);
        let mut at = t0;
        for _ in 0..TRICKLE_AFTER {
            at += SOON;
            t.read(100);
            assert_eq!(t.woken_at(at, SOON, 7), Duration::ZERO);
        }
        t.read(100);
        assert_eq!(
            t.woken_at(at + SOON, SOON, 7),
            GATHER,
            "a trickle, no input"
        );
        t.read(100);
        assert_eq!(
            t.woken_at(at + 2 * SOON, SOON, 8),
            Duration::ZERO,
            "input came"
        );
    }

    #[test]
    fn a_quiet_spell_ends_the_trickle() {
        let mut t = Trickle::default();
        trickle(&mut t, TRICKLE_AFTER + 1, 100, SOON);
        t.read(100);
        assert_eq!(
            t.woken(GATHER, Duration::from_millis(2), false),
            Duration::ZERO
        );
        let pauses = trickle(&mut t, TRICKLE_AFTER, 100, GATHER);
        assert!(pauses.iter().all(Duration::is_zero), "{pauses:?}");
    }

    /// A trickle as `woken_at` sees it, `TRICKLE_AFTER + 1` wake-ups of 100 bytes `SOON`
    /// apart from `t0`, input written 7 times: the reader now pauses on catching up.
    fn in_a_trickle(t0: Instant) -> (Trickle, Instant) {
        let mut t = Trickle::new(t0, 7);
        let mut at = t0;
        for _ in 0..=TRICKLE_AFTER {
            at += SOON;
            t.read(100);
            t.woken_at(at, SOON, 7);
        }
        (t, at)
    }

    #[test]
    fn a_trickle_is_paused_on_catching_up_by_the_same_rule() {
        let t0 = Instant::now();
        let (mut t, mut at) = in_a_trickle(t0);
        // 100 bytes 180 µs after the wake-up (a build's log): a whole pause.
        t.read(100);
        at += Duration::from_micros(180);
        assert_eq!(t.pause_on_catching_up(at, 7), Some(GATHER));
        // The pause slept, the next cycle counts from its start: 2 KiB over 1 ms (2 MB/s)
        // fill the slack in 4 ms.
        t.slept(at);
        t.read(2 << 10);
        let caught_up = at + Duration::from_millis(1);
        assert_eq!(
            t.pause_on_catching_up(caught_up, 7),
            Some(Duration::from_millis(4).min(GATHER))
        );
        // 2 KiB over 100 µs: 400 µs; 3 KiB over 10 µs: too short to sleep.
        t.slept(caught_up);
        t.read(2 << 10);
        assert_eq!(
            t.pause_on_catching_up(caught_up + Duration::from_micros(100), 7),
            Some(Duration::from_micros(400))
        );
        t.slept(caught_up);
        t.read(3 << 10);
        assert_eq!(
            t.pause_on_catching_up(caught_up + Duration::from_micros(10), 7),
            None
        );
    }

    #[test]
    fn what_ends_a_trickle_sends_the_reader_back_to_waiting() {
        let t0 = Instant::now();
        let (mut t, at) = in_a_trickle(t0);
        let later = at + Duration::from_micros(180);
        assert_eq!(t.pause_on_catching_up(later, 7), None, "nothing read yet");
        t.read(100);
        assert_eq!(t.pause_on_catching_up(later, 8), None, "input came");
        assert_eq!(t.pause_on_catching_up(later, 7), Some(GATHER));
        t.read(TRICKLE_BYTES);
        assert_eq!(t.pause_on_catching_up(later, 7), None, "a flood's read");
        // Not yet a trickle: the first TRICKLE_AFTER wake-ups read at once.
        let mut fresh = Trickle::new(t0, 7);
        fresh.read(100);
        assert_eq!(fresh.pause_on_catching_up(later, 7), None);
    }
}

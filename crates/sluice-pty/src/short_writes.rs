//! Letting a fast stream of short writes gather in the kernel, the reader's CPU kept awake.
//!
//! A program that prints short lines as fast as it can (vtebench's `scrolling`, `seq`, a
//! log replayed) hands the master's side each line on its own: the line discipline turns
//! `\n` into `\r\n` and queues the kernel's flush worker once per line. A reader that takes
//! whatever is there the moment it comes (680 bytes a read, as Sluice's did before this wait)
//! lets that worker run dry after every few lines, so the program's next line pays to wake
//! it, and on a virtual machine whose idle CPUs halt at once, that wake-up is a round trip
//! through the host. st wrote `scrolling` 1.4–1.5× as fast as Sluice without the wait for
//! that reason: it parses and draws between its reads, so its CPU never halts and each read
//! takes 2.6 KiB. A drain that busy-waits 200 µs after each short read writes it as fast as
//! st; one that sleeps instead (the CPU halts) is slower than one that does not wait at all
//! (docs/performance.md, "A reader whose CPU stays busy").
//!
//! So after a short read in the middle of such a stream the reader waits, busy, until
//! [`GATHER_BYTES`] should have come at the stream's rate, at most [`LONGEST_WAIT`]. Only
//! there: not in a trickle (slower than [`SLOWEST_STREAM`], which `trickle.rs` paces by
//! sleeping), and not in a flood that outruns the reader. A flood brings full reads
//! ([`FULL_READ`]) every few reads, with short ones between them while the kernel holds more
//! (the line discipline hands its buffer over in pieces), and a wait then makes the program
//! block on a full kernel: a prototype that waited after any short read cost a flood of
//! cursor motion a third of its speed. Hence the wait only after [`CALM_READS`] reads in a
//! row none of which was full.
//!
//! The price is CPU the reader spends spinning, at most [`LONGEST_WAIT`] a read, only while a
//! program writes short lines faster than [`SLOWEST_STREAM`]: 78–87 ms over the 0.4–0.55 s
//! that two million short lines printed by perl took (`sluice --headless --stats`). The
//! Metro-like build (well under 1 MB/s) never makes it wait; an idle window never reads.

use std::time::{Duration, Instant};

/// What a wait lets gather: three quarters of the line discipline's 4 KiB buffer, and about
/// what st takes a read (2.6 KiB) on vtebench's `scrolling`. With 3 KiB Sluice wrote it at
/// 94.5–115.5 ms a sample against st's 98.5–103 and 132–141.5 without the wait (three
/// alternated rounds, 2026-12-04); 2 KiB read progress bars slower in six rounds of fresh
/// windows (0.73× the build without the wait, against 1.04× for 3 KiB).
pub const GATHER_BYTES: f64 = 3.0 * 1024.0;

/// The longest wait after one read. A fixed 300 µs after every short read wrote `scrolling`
/// level with st (median 103 ms a sample against 99, nine rounds); 500 µs was slower (126–135
/// ms against 96–99), the kernel then holding more than the program could queue.
pub const LONGEST_WAIT: Duration = Duration::from_micros(300);

/// Streams slower than this (bytes a second) are never waited for: at 6 MB/s a wait of
/// [`LONGEST_WAIT`] gathers 1.8 KiB, less below it, and a build logging a line at a time
/// (well under 1 MB/s) is a trickle, which the reader paces by sleeping (`trickle.rs`).
pub const SLOWEST_STREAM: f64 = 6.0e6;

/// A read this long found the line discipline's buffer full (a full read of a Linux master is
/// 3,841 bytes here): the program writes faster than the reader reads, and must not wait.
pub const FULL_READ: usize = 3_500;

/// Reads in a row without a full one before the reader waits. In a traced flood of cursor
/// motion full reads came every few reads, and `sluice --headless --stats` counted no wait in
/// 16 MiB of it; two million short lines printed by perl were waited after in 778–1,105 of
/// their 2,743–3,175 reads. (Later, on a host whose idle CPUs poll, 16 MiB bursts of cursor
/// motion at 100×30 did meet 50–160 waits each, 1–4 ms of spinning a burst; switching the
/// wait off while a young flood is read changed their rate by less than the rounds' spread:
/// docs/performance.md, "A longer deferral for slow hours, and no short-write waits in a
/// young flood".)
pub const CALM_READS: u32 = 8;

/// How fast the rate forgets: bytes and time read are each decayed with this time constant,
/// so the rate is that of the last half millisecond or so, steadier than one read's (which
/// comes in pieces: 2 bytes, then 3,841) and quick to follow the stream.
///
/// The time counted is the reader's own between reads, not its waits: what came during a wait
/// is credited to the moment after it, so after waits the rate reads high and the next waits
/// come out shorter. That is what keeps the waits from filling the kernel's buffer: counted
/// over the waits, the rate of a 10 MB/s stream asks for the whole 300 µs, whose 3.6 KiB make
/// a full read and end the calm, every ninth read. Measured this way (the prototype of
/// docs/performance.md, "A reader whose CPU stays busy").
const RATE_MEMORY: f64 = 500e-6;

/// The state, owned by the reader thread.
#[derive(Debug, Default)]
pub(crate) struct ShortWrites {
    /// The end of the last read (or of the wait after it), while the stream runs.
    last_read: Option<Instant>,
    /// Decayed bytes and seconds of the stream so far.
    bytes: f64,
    seconds: f64,
    /// Reads since the last full one.
    since_full: u32,
}

impl ShortWrites {
    /// The reader read `n` bytes, the read ending at `now`: how long to wait, busy, before
    /// reading again (zero: read at once). The next read's interval starts after the wait.
    pub(crate) fn read(&mut self, n: usize, now: Instant) -> Duration {
        self.since_full = if n >= FULL_READ {
            0
        } else {
            self.since_full.saturating_add(1)
        };
        let Some(last) = self.last_read.replace(now) else {
            return Duration::ZERO; // the first read after the kernel ran dry: no rate yet
        };
        let interval = now.saturating_duration_since(last).as_secs_f64().max(1e-7);
        let keep = (-interval / RATE_MEMORY).exp();
        self.bytes = self.bytes * keep + n as f64;
        self.seconds = self.seconds * keep + interval;
        let rate = self.bytes / self.seconds;
        if self.since_full < CALM_READS || rate < SLOWEST_STREAM {
            return Duration::ZERO;
        }
        let wait = Duration::from_secs_f64(GATHER_BYTES / rate).min(LONGEST_WAIT);
        // The next read's interval starts after the wait: see RATE_MEMORY.
        self.last_read = Some(now + wait);
        wait
    }

    /// The kernel ran dry: whatever comes next starts a new stream.
    pub(crate) fn ran_dry(&mut self) {
        self.last_read = None;
        self.bytes = 0.0;
        self.seconds = 0.0;
    }
}

/// Waits until `until` without giving up the CPU, so that it does not halt (see the module's
/// documentation for why a sleep would not do).
pub(crate) fn busy_wait(until: Instant) {
    while Instant::now() < until {
        std::hint::spin_loop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const US: Duration = Duration::from_micros(1);

    /// Feeds `reads` (bytes, µs since the last read ended) to `s` from `start`, returning the
    /// wait after each.
    fn feed(s: &mut ShortWrites, start: Instant, reads: &[(usize, u64)]) -> Vec<Duration> {
        let mut now = start;
        reads
            .iter()
            .map(|&(n, gap)| {
                now += Duration::from_micros(gap);
                let wait = s.read(n, now);
                now += wait;
                wait
            })
            .collect()
    }

    /// `count` reads of `n` bytes, `gap` µs apart.
    fn steady(count: usize, n: usize, gap: u64) -> Vec<(usize, u64)> {
        vec![(n, gap); count]
    }

    #[test]
    fn a_fast_stream_of_short_reads_waits_once_calm() {
        let mut s = ShortWrites::default();
        // 680 bytes every 65 µs: ~10 MB/s, Sluice's reads of `scrolling` without the wait.
        let waits = feed(&mut s, Instant::now(), &steady(12, 680, 65));
        let calm = CALM_READS as usize;
        assert!(waits[..calm - 1].iter().all(Duration::is_zero), "{waits:?}");
        // 3 KiB at ~10.5 MB/s is ~290 µs.
        for wait in &waits[calm - 1..] {
            assert!(*wait > 250 * US && *wait <= LONGEST_WAIT, "{waits:?}");
        }
    }

    #[test]
    fn a_wait_is_sized_by_the_rate_and_capped() {
        // 2 KiB every 20 µs (~100 MB/s, never a full read): 3 KiB comes in ~30 µs.
        let mut s = ShortWrites::default();
        let waits = feed(&mut s, Instant::now(), &steady(10, 2048, 20));
        let last = *waits.last().unwrap();
        assert!(last > 20 * US && last < 40 * US, "{waits:?}");
        // 1 KiB every 150 µs (~6.8 MB/s): 3 KiB would take 450 µs; the wait stops at 300.
        let mut s = ShortWrites::default();
        let waits = feed(&mut s, Instant::now(), &steady(10, 1024, 150));
        assert_eq!(*waits.last().unwrap(), LONGEST_WAIT, "{waits:?}");
    }

    #[test]
    fn a_trickle_never_waits() {
        // A build's log: 100 bytes every 180 µs, about 0.55 MB/s.
        let mut s = ShortWrites::default();
        let waits = feed(&mut s, Instant::now(), &steady(64, 100, 180));
        assert!(waits.iter().all(Duration::is_zero), "{waits:?}");
    }

    #[test]
    fn a_flood_with_full_reads_never_waits() {
        // A flood of cursor motion as traced: full reads with short pieces between them.
        let pattern = [(3_841, 6), (3, 3), (258, 1), (3_841, 6), (2, 3), (3_841, 5)];
        let reads: Vec<_> = pattern.iter().copied().cycle().take(120).collect();
        let mut s = ShortWrites::default();
        let waits = feed(&mut s, Instant::now(), &reads);
        assert!(waits.iter().all(Duration::is_zero), "{waits:?}");
    }

    #[test]
    fn a_full_read_ends_the_calm_and_running_dry_the_stream() {
        let mut s = ShortWrites::default();
        let start = Instant::now();
        let waits = feed(&mut s, start, &steady(CALM_READS as usize, 680, 65));
        assert!(!waits.last().unwrap().is_zero(), "{waits:?}");
        // One full read: the next CALM_READS - 1 short ones do not wait.
        let mut reads = vec![(4_000, 10)];
        reads.extend(steady(CALM_READS as usize - 1, 680, 65));
        let waits = feed(&mut s, start + Duration::from_millis(10), &reads);
        assert!(waits.iter().all(Duration::is_zero), "{waits:?}");
        // The kernel ran dry: the first read after it has no rate, so does not wait.
        s.ran_dry();
        let first = s.read(680, start + Duration::from_millis(20));
        assert!(first.is_zero());
        assert!(
            !s.read(680, start + Duration::from_millis(20) + 65 * US)
                .is_zero()
        );
    }

    #[test]
    fn busy_wait_returns_at_its_deadline() {
        let start = Instant::now();
        busy_wait(start + 200 * US);
        assert!(start.elapsed() >= 200 * US);
        busy_wait(start); // a deadline passed already returns at once
    }
}

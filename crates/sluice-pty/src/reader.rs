//! The reader thread: drains the PTY master into the ring as fast as the kernel allows.
//!
//! **Each read lands in a small buffer of the reader's own, then is copied into the ring.**
//! A Linux PTY hands output over 4 KiB at a time, and the kernel's flush worker refills its
//! buffer only once a read has emptied it, so each read's copy to user memory is on the
//! program's path: the longer it takes, the later the next 4 KiB moves. Into a ring that a
//! burst fills (16 MiB, far out of cache and past what a 32 MiB L3 shared with the program
//! keeps), that copy misses the cache on every line. In three sets of rounds, a bare drain
//! reading into 16 MiB wrote dense colour at 200×60 at 0.87–0.95 of one that reads into
//! 64 KiB, and one reading into 64 KiB and copying each read into 16 MiB at 0.95–1.11
//! (`memcpy`; streaming stores 1.00 in one set): the copy then overlaps the worker's refill
//! instead of delaying it (docs/performance.md, "Reads land in a small buffer"). The landing
//! buffer is [`MAX_READ`] long and stays in the reader's cache.

use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::MAX_READ;
use crate::fd::{Ready, Stopper, wait_for};
use crate::keep_awake::KeepAwake;
use crate::prefault::{PREFAULT_ABOVE, Prefaulter};
use crate::read_ahead::{AfterRead, ReadAhead};
use crate::ring::{RingProducer, Room};
use crate::short_writes::{ShortWrites, busy_wait};
use crate::stats::PtyStats;
use crate::trickle::Trickle;

/// How long the program must have been quiet, after a burst, before the ring's memory is
/// given back ([`RingProducer::release_idle_memory`]). Long enough that a build's bursts a
/// moment apart reuse the pages they faulted in (refaulting 16 MiB costs ~4,000 page faults
/// and as many zeroed pages), short enough that a window is back to its idle size soon
/// after the output stops. The wait costs one wake-up per burst, none while idle. The next
/// burst pays the page faults that a new pane's first burst pays (its ring starts untouched
/// too), which every burst benchmark, each run in a fresh Sluice, already includes.
pub const RELEASE_AFTER_QUIET: Duration = Duration::from_secs(2);

/// A trickle's pause (`trickle.rs`), ended early by input written to the program: the writer
/// unparks the reader after each write, so that the answer to a key, which may come during
/// the pause, is read as soon as it comes rather than after the rest of the pause. Parking
/// may also end early for the ring's own wake-ups or spuriously: the reader then reads a
/// little sooner, no harm done.
fn pause_unless_input(pause: Duration) {
    std::thread::park_timeout(pause);
}

/// One `read(2)` of the master into `buf`.
fn read_into(fd: libc::c_int, buf: &mut [u8]) -> io::Result<usize> {
    // SAFETY: `buf` is writable memory of `buf.len()` bytes.
    let n = unsafe { libc::read(fd, buf.as_mut_ptr().cast(), buf.len()) };
    if n < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(n as usize)
    }
}

/// Why the reader stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ReaderEnd {
    /// Every slave descriptor is closed: the child and anything it left behind are gone.
    Eof,
    /// Sluice asked it to stop.
    Stopped,
    /// The ring's consumer went away.
    Abandoned,
    /// `read(2)` or `poll(2)` failed in a way that is not end-of-file.
    Failed,
}

/// Runs the reader loop until the stream ends. The producer is dropped on return, which tells
/// the consumer the stream is over.
pub(crate) fn run(
    master: OwnedFd,
    mut ring: RingProducer,
    stop: Arc<Stopper>,
    stats: Arc<PtyStats>,
) -> ReaderEnd {
    let fd = master.as_raw_fd();
    let mut read_ahead = ReadAhead::new(ring.capacity());
    let mut trickle = Trickle::new(Instant::now(), stats.input_writes());
    let mut short_writes = ShortWrites::default();
    let mut keep_awake = KeepAwake::default();
    let mut landing = vec![0u8; MAX_READ].into_boxed_slice();
    // Declared after `ring`, so dropped (and its helper joined) before it.
    let mut prefault = Prefaulter::start(&mut ring);
    loop {
        if stop.requested() {
            return ReaderEnd::Stopped;
        }
        let now = Instant::now();
        let limit = read_ahead.limit(ring.filled(), now);
        let room = match ring.wait_for_room_below(limit) {
            Room::Free(room) => room,
            Room::Abandoned => return ReaderEnd::Abandoned,
        };
        let result = read_into(fd, &mut landing[..MAX_READ.min(room)]);
        match result {
            Ok(0) => return ReaderEnd::Eof,
            Ok(n) => {
                // The ring had `room` for it: only this thread fills it.
                let pushed = ring.push(&landing[..n]);
                debug_assert_eq!(pushed, n);
                stats.record_read(n);
                trickle.read(n);
                // Before the parser is woken: the order measured (docs/performance.md, "A
                // reader whose CPU stays busy").
                let read_at = Instant::now();
                let rate = keep_awake.read(n, read_at);
                let wait = short_writes.read(n, read_at);
                if !wait.is_zero() {
                    stats.record_short_writes_wait(wait);
                    busy_wait(read_at + wait);
                }
                match read_ahead.read(n, now, rate) {
                    AfterRead::WakeParser => {
                        ring.wake_consumer();
                        if let Some(prefault) = &mut prefault {
                            prefault.flood_over();
                        }
                    }
                    AfterRead::LeaveAsleep { deferred, started } => {
                        if started {
                            stats.record_young_flood();
                        }
                        if let Some(prefault) = &mut prefault
                            && deferred >= PREFAULT_ABOVE
                        {
                            prefault.flood_at(&mut ring);
                        }
                    }
                }
            }
            Err(err) if err.kind() == io::ErrorKind::WouldBlock => {
                short_writes.ran_dry();
                if keep_awake.yields(Instant::now()) {
                    // In a flood the next 4 KiB comes within microseconds: keep the CPU from
                    // halting meanwhile (keep_awake.rs).
                    stats.record_flood_yield();
                    std::thread::yield_now();
                    continue;
                }
                if let Some(grace) = read_ahead.grace() {
                    // The parser is asleep while a young flood is read ahead: more output within
                    // the grace goes on with the flood; silence means the program paused, and
                    // its output should reach the screen.
                    match wait_for(fd, libc::POLLIN, &stop.pipe, Some(grace)) {
                        Ok(Ready::Fd) => continue,
                        Ok(Ready::Timeout) => {}
                        Ok(Ready::Woken) => return ReaderEnd::Stopped,
                        Err(err) => {
                            tracing::error!(%err, "pty-reader: poll failed");
                            return ReaderEnd::Failed;
                        }
                    }
                    read_ahead.parser_woken();
                    ring.wake_consumer();
                    if let Some(prefault) = &mut prefault {
                        prefault.flood_over();
                    }
                }
                // In a trickle, sleep the pause now rather than after the kernel's wake-up:
                // one wake-up a cycle instead of two (trickle.rs).
                let caught_up = Instant::now();
                if let Some(pause) = trickle.pause_on_catching_up(caught_up, stats.input_writes()) {
                    stats.record_gathering();
                    pause_unless_input(pause);
                    trickle.slept(caught_up);
                    continue;
                }
                let waiting = caught_up;
                let release_at = ring.holds_idle_memory().then_some(RELEASE_AFTER_QUIET);
                match wait_for(fd, libc::POLLIN, &stop.pipe, release_at) {
                    Ok(ready @ (Ready::Fd | Ready::Timeout)) => {
                        if ready == Ready::Timeout {
                            // Does nothing while the parser is still behind: then the next
                            // quiet spell tries again.
                            ring.release_idle_memory();
                        }
                        let (waited, now) = (waiting.elapsed(), Instant::now());
                        read_ahead.kernel_quiet(waited, ring.filled());
                        let pause = match ready {
                            Ready::Fd => trickle.woken_at(now, waited, stats.input_writes()),
                            _ => Duration::ZERO,
                        };
                        if !pause.is_zero() {
                            stats.record_gathering();
                            pause_unless_input(pause);
                        }
                    }
                    Ok(Ready::Woken) => return ReaderEnd::Stopped,
                    Err(err) => {
                        tracing::error!(%err, "pty-reader: poll failed");
                        return ReaderEnd::Failed;
                    }
                }
            }
            Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
            // Linux reports a master whose slaves are all closed as EIO: that is end-of-file.
            Err(err) if err.raw_os_error() == Some(libc::EIO) => return ReaderEnd::Eof,
            Err(err) => {
                tracing::error!(%err, "pty-reader: read failed");
                return ReaderEnd::Failed;
            }
        }
    }
}

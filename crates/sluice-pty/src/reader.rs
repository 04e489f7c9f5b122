//! The reader thread: drains the PTY master into the ring as fast as the kernel allows.

use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::sync::Arc;
use std::time::Instant;

use crate::MAX_READ;
use crate::fd::{Ready, Stopper, wait_for};
use crate::read_ahead::ReadAhead;
use crate::ring::{RingProducer, Room};
use crate::stats::PtyStats;

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
    loop {
        if stop.requested() {
            return ReaderEnd::Stopped;
        }
        let limit = read_ahead.limit(ring.filled(), Instant::now());
        let room = match ring.wait_for_room_below(limit) {
            Room::Free(room) => room,
            Room::Abandoned => return ReaderEnd::Abandoned,
        };
        let result = ring.fill_with(MAX_READ.min(room), |space| {
            // SAFETY: `space` is writable memory of `space.len()` bytes that read(2) may fill;
            // MaybeUninit<u8> has the layout of u8.
            let n = unsafe { libc::read(fd, space.as_mut_ptr().cast(), space.len()) };
            if n < 0 {
                Err(io::Error::last_os_error())
            } else {
                Ok(n as usize)
            }
        });
        match result {
            Ok(0) => return ReaderEnd::Eof,
            Ok(n) => stats.record_read(n),
            Err(err) if err.kind() == io::ErrorKind::WouldBlock => {
                let waiting = Instant::now();
                match wait_for(fd, libc::POLLIN, &stop.pipe, None) {
                    Ok(Ready::Fd | Ready::Timeout) => {
                        read_ahead.kernel_quiet(waiting.elapsed(), ring.filled());
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

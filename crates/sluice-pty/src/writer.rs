//! The writer thread: everything Sluice sends to the child, in order.
//!
//! Keystrokes, pastes and the terminal's replies to the program all go through one channel
//! to one thread, so they reach the child in the order they were produced. The master is
//! non-blocking: when the child stops reading and the kernel's queue is full, the thread waits
//! in `poll(2)`, where it can still be woken to cancel a paste or to shut down. Nothing else in
//! Sluice ever waits for the child to read.

use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crossbeam_channel::{Receiver, Sender};

use crate::fd::{WakePipe, flush_slave_input, wait_for};
use crate::stats::PtyStats;

/// The most bytes of terminal replies waiting for the child at once; past it, replies are
/// dropped and counted.
///
/// A program that asks (DA, DSR, a colour) reads the answer before it asks again, so real
/// programs have a few dozen bytes of replies outstanding at most. A child that never reads
/// its input, fed a file of `ESC [ c`, had 1.5 GB of replies queued without a cap. 64 KiB is
/// thousands of replies.
pub const MAX_PENDING_REPLIES: u64 = 64 * 1024;

enum WriteOp {
    Bytes(Vec<u8>),
    Reply(Vec<u8>),
    Paste { bytes: Vec<u8>, generation: u64 },
    Shutdown,
}

/// State shared by every [`PtyWriter`] handle and the thread.
#[derive(Debug)]
struct Shared {
    wake: WakePipe,
    /// Pastes queued with a generation below this are dropped.
    paste_cancel_generation: AtomicU64,
    shutdown: AtomicBool,
    /// Bytes waiting in the channel or being written: how far behind the child's reading is.
    queued: AtomicU64,
    /// The part of `queued` that is replies.
    replies_queued: AtomicU64,
    /// Replies dropped because the child was not reading them.
    replies_dropped: AtomicU64,
}

/// A handle for sending bytes to the child. Cheap to clone; never blocks.
#[derive(Debug, Clone)]
pub struct PtyWriter {
    tx: Sender<WriteOp>,
    shared: Arc<Shared>,
}

impl std::fmt::Debug for WriteOp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WriteOp::Bytes(b) => write!(f, "Bytes({})", b.len()),
            WriteOp::Reply(b) => write!(f, "Reply({})", b.len()),
            WriteOp::Paste { bytes, generation } => {
                write!(f, "Paste({}, {generation})", bytes.len())
            }
            WriteOp::Shutdown => write!(f, "Shutdown"),
        }
    }
}

impl PtyWriter {
    /// Queues input (keystrokes, terminal replies). It is never dropped, only delayed behind
    /// what is already queued.
    pub fn write(&self, bytes: impl Into<Vec<u8>>) {
        let bytes = bytes.into();
        if bytes.is_empty() {
            return;
        }
        self.shared
            .queued
            .fetch_add(bytes.len() as u64, Ordering::Relaxed);
        // The thread only hangs up at shutdown, when there is nobody left to write to.
        let _ = self.tx.send(WriteOp::Bytes(bytes));
    }

    /// Queues a terminal reply (to DA, DSR, a colour query, …). Unlike input, a reply is dropped
    /// (and counted) when [`MAX_PENDING_REPLIES`] bytes of replies are already waiting for a
    /// child that is not reading them, so a program's output cannot grow this queue.
    pub fn reply(&self, bytes: impl Into<Vec<u8>>) {
        let bytes = bytes.into();
        let len = bytes.len() as u64;
        if len == 0 {
            return;
        }
        let pending = self.shared.replies_queued.fetch_add(len, Ordering::AcqRel);
        if pending + len > MAX_PENDING_REPLIES {
            self.shared.replies_queued.fetch_sub(len, Ordering::AcqRel);
            self.shared.replies_dropped.fetch_add(1, Ordering::Relaxed);
            return;
        }
        self.shared.queued.fetch_add(len, Ordering::Relaxed);
        let _ = self.tx.send(WriteOp::Reply(bytes));
    }

    /// Replies dropped so far because the child did not read them.
    pub fn replies_dropped(&self) -> u64 {
        self.shared.replies_dropped.load(Ordering::Relaxed)
    }

    /// Queues a paste: like [`write`](Self::write), but [`cancel_pastes`](Self::cancel_pastes)
    /// can abandon it part-way.
    pub fn paste(&self, bytes: impl Into<Vec<u8>>) {
        let bytes = bytes.into();
        if bytes.is_empty() {
            return;
        }
        let generation = self.shared.paste_cancel_generation.load(Ordering::Acquire);
        self.shared
            .queued
            .fetch_add(bytes.len() as u64, Ordering::Relaxed);
        let _ = self.tx.send(WriteOp::Paste { bytes, generation });
    }

    /// Abandons every paste queued so far, including one part-written, and discards what the
    /// child has not yet read of it, so that what is typed next (^C, say) gets through.
    pub fn cancel_pastes(&self) {
        self.shared
            .paste_cancel_generation
            .fetch_add(1, Ordering::AcqRel);
        self.shared.wake.wake();
    }

    /// Bytes queued and not yet accepted by the kernel.
    pub fn queued_bytes(&self) -> u64 {
        self.shared.queued.load(Ordering::Relaxed)
    }

    pub(crate) fn shutdown(&self) {
        self.shared.shutdown.store(true, Ordering::Release);
        let _ = self.tx.send(WriteOp::Shutdown);
        self.shared.wake.wake();
    }
}

/// Creates the writer's handle and the loop its thread runs.
pub(crate) fn writer(
    master: OwnedFd,
    tty: Option<PathBuf>,
    stats: Arc<PtyStats>,
) -> io::Result<(PtyWriter, WriterLoop)> {
    let (tx, rx) = crossbeam_channel::unbounded();
    let shared = Arc::new(Shared {
        wake: WakePipe::new()?,
        paste_cancel_generation: AtomicU64::new(0),
        shutdown: AtomicBool::new(false),
        queued: AtomicU64::new(0),
        replies_queued: AtomicU64::new(0),
        replies_dropped: AtomicU64::new(0),
    });
    Ok((
        PtyWriter {
            tx,
            shared: shared.clone(),
        },
        WriterLoop {
            master,
            tty,
            rx,
            shared,
            stats,
            reader: None,
            child_gone: false,
        },
    ))
}

/// The writer thread's state.
pub(crate) struct WriterLoop {
    master: OwnedFd,
    tty: Option<PathBuf>,
    rx: Receiver<WriteOp>,
    shared: Arc<Shared>,
    /// Where input writes are counted, for the reader ([`crate::trickle`]).
    stats: Arc<PtyStats>,
    /// The reader's thread, woken after each input write so that a trickle's pause does not
    /// hold back the answer ([`crate::trickle`]); `None` until the session sets it.
    reader: Option<std::thread::Thread>,
    /// The slave side is closed: further bytes have no reader and are discarded.
    child_gone: bool,
}

/// How writing one buffer ended.
enum Outcome {
    Written,
    Cancelled,
    Shutdown,
}

impl WriterLoop {
    /// Wakes `reader` after each input write (see the field).
    pub(crate) fn wake_after_input(&mut self, reader: std::thread::Thread) {
        self.reader = Some(reader);
    }

    pub(crate) fn run(mut self) {
        while let Ok(op) = self.rx.recv() {
            let (bytes, generation, reply) = match op {
                WriteOp::Shutdown => return,
                WriteOp::Bytes(bytes) => (bytes, None, false),
                WriteOp::Reply(bytes) => (bytes, None, true),
                WriteOp::Paste { bytes, generation } => (bytes, Some(generation), false),
            };
            let outcome = self.write_all(&bytes, generation);
            let len = bytes.len() as u64;
            self.shared.queued.fetch_sub(len, Ordering::Relaxed);
            if reply {
                self.shared.replies_queued.fetch_sub(len, Ordering::AcqRel);
            }
            match outcome {
                Outcome::Written => {}
                Outcome::Cancelled => self.discard_child_input(),
                Outcome::Shutdown => return,
            }
        }
    }

    fn paste_cancelled(&self, generation: Option<u64>) -> bool {
        generation.is_some_and(|g| g < self.shared.paste_cancel_generation.load(Ordering::Acquire))
    }

    fn write_all(&mut self, bytes: &[u8], generation: Option<u64>) -> Outcome {
        let fd = self.master.as_raw_fd();
        let mut written = 0;
        while written < bytes.len() {
            if self.shared.shutdown.load(Ordering::Acquire) {
                return Outcome::Shutdown;
            }
            if self.paste_cancelled(generation) {
                return Outcome::Cancelled;
            }
            if self.child_gone {
                return Outcome::Written;
            }
            let rest = &bytes[written..];
            // SAFETY: writes from a valid slice to a descriptor we hold.
            let n = unsafe { libc::write(fd, rest.as_ptr().cast(), rest.len()) };
            if n >= 0 {
                written += n as usize;
                self.stats.record_input_write();
                if let Some(reader) = &self.reader {
                    reader.unpark();
                }
                continue;
            }
            let err = io::Error::last_os_error();
            match err.kind() {
                io::ErrorKind::WouldBlock => {
                    // Woken or writable, the loop re-checks shutdown and cancellation first.
                    if let Err(err) = wait_for(fd, libc::POLLOUT, &self.shared.wake, None) {
                        tracing::error!(%err, "pty-writer: poll failed");
                        self.child_gone = true;
                    }
                }
                io::ErrorKind::Interrupted => {}
                _ => {
                    // EIO: the slave is closed. Nothing will ever read these bytes.
                    tracing::debug!(%err, "pty-writer: child no longer reads; discarding input");
                    self.child_gone = true;
                }
            }
        }
        Outcome::Written
    }

    fn discard_child_input(&self) {
        if let Some(tty) = &self.tty
            && let Err(err) = flush_slave_input(tty)
        {
            tracing::warn!(%err, "pty-writer: cannot flush the child's pending input");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::fd::FromRawFd;
    use std::time::{Duration, Instant};

    /// The writer unparks the reader after an input write: a trickle's pause (a
    /// `park_timeout`) ends there, so the answer is read as it comes (`crate::trickle`).
    #[test]
    fn an_input_write_unparks_the_reader() {
        let mut fds = [0; 2];
        // SAFETY: `fds` has room for the two descriptors pipe2(2) returns.
        assert_eq!(unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) }, 0);
        // SAFETY: both descriptors were just created and are owned here alone.
        let (read_end, write_end) =
            unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
        let stats = Arc::new(PtyStats::default());
        let (handle, mut writer_loop) = writer(write_end, None, stats.clone()).unwrap();
        // This thread stands for the reader.
        writer_loop.wake_after_input(std::thread::current());
        let thread = std::thread::spawn(move || writer_loop.run());
        handle.write(b"x".to_vec());
        let start = Instant::now();
        std::thread::park_timeout(Duration::from_secs(30));
        assert!(
            start.elapsed() < Duration::from_secs(15),
            "the pause was not ended"
        );
        while stats.input_writes() == 0 {
            std::thread::sleep(Duration::from_millis(1));
        }
        handle.shutdown();
        thread.join().unwrap();
        drop(read_end);
    }
}

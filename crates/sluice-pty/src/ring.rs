//! The byte ring between the reader thread and the parser thread.
//!
//! A single-producer/single-consumer lock-free ring ([`rtrb`]) that the reader fills straight
//! from `read(2)` and the parser drains in slices. Neither side ever takes a lock:
//!
//! - The consumer parks only when the ring is empty; the producer unparks it only if it is
//!   parked, so a busy parser costs the reader one relaxed flag check per read.
//! - The producer parks only when the ring holds the reader's read-ahead (the memory cap, or
//!   less under a sustained flood: [`crate::read_ahead`]); the consumer unparks it as
//!   soon as it frees space. The time spent there is counted, because it is the only time the
//!   child can feel back-pressure from Sluice.
//!
//! Lost wake-ups are ruled out by the usual Dekker pattern: each side publishes "I am parked",
//! issues a SeqCst fence, then re-checks the ring; the other side makes its change visible,
//! fences, then reads the flag. `thread::park` keeps a token, so an unpark that lands just
//! before the park is not lost either.

use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicBool, Ordering, fence};
use std::sync::{Arc, OnceLock};
use std::thread::{self, Thread};
use std::time::Instant;

use crate::stats::PtyStats;

/// State both ends share, apart from the ring itself.
#[derive(Debug)]
struct Shared {
    consumer_parked: AtomicBool,
    producer_parked: AtomicBool,
    /// The producer will write no more (EOF, error or shutdown).
    closed: AtomicBool,
    /// The consumer is gone; the producer should stop.
    abandoned: AtomicBool,
    /// Someone asked the consumer to look up from the ring (see [`ConsumerWaker`]).
    interrupted: AtomicBool,
    consumer_thread: OnceLock<Thread>,
    producer_thread: OnceLock<Thread>,
    capacity: usize,
}

/// Creates a ring of `capacity` bytes and its two ends.
pub fn ring(capacity: usize, stats: Arc<PtyStats>) -> (RingProducer, RingConsumer) {
    let capacity = capacity.max(4096);
    let (producer, consumer) = rtrb::RingBuffer::new(capacity);
    let shared = Arc::new(Shared {
        consumer_parked: AtomicBool::new(false),
        producer_parked: AtomicBool::new(false),
        closed: AtomicBool::new(false),
        abandoned: AtomicBool::new(false),
        interrupted: AtomicBool::new(false),
        consumer_thread: OnceLock::new(),
        producer_thread: OnceLock::new(),
        capacity,
    });
    (
        RingProducer {
            inner: producer,
            shared: shared.clone(),
            stats,
        },
        RingConsumer {
            inner: consumer,
            shared,
        },
    )
}

/// The reader's end.
#[derive(Debug)]
pub struct RingProducer {
    inner: rtrb::Producer<u8>,
    shared: Arc<Shared>,
    stats: Arc<PtyStats>,
}

/// What happened while the producer waited for room.
#[derive(Debug, PartialEq, Eq)]
pub enum Room {
    /// At least one byte is free.
    Free(usize),
    /// The consumer is gone: nothing will ever be read again.
    Abandoned,
}

impl RingProducer {
    /// The most the ring can hold: the read-ahead it was made with.
    pub fn capacity(&self) -> usize {
        self.shared.capacity
    }

    /// Bytes written and not yet consumed.
    pub fn filled(&self) -> usize {
        self.shared.capacity - self.inner.slots()
    }

    /// Parks until at least one byte is free (or the consumer is gone).
    pub fn wait_for_room(&mut self) -> Room {
        self.wait_for_room_below(self.shared.capacity)
    }

    /// Parks until the ring holds fewer than `limit` bytes (or the consumer is gone); returns
    /// the room left under `limit`. The reader's read-ahead policy sets `limit` below the
    /// capacity under a sustained flood ([`crate::read_ahead`]).
    ///
    /// This is the only wait in the reader besides the kernel. The time spent here is added to
    /// [`PtyStats::full_ring_wait`].
    pub fn wait_for_room_below(&mut self, limit: usize) -> Room {
        let limit = limit.clamp(1, self.shared.capacity);
        let room = |p: &Self| limit.saturating_sub(p.filled());
        let free = room(self);
        if free > 0 {
            return Room::Free(free);
        }
        self.shared.producer_thread.get_or_init(thread::current);
        let started = Instant::now();
        self.stats.set_waiting_for_room(true);
        let result = loop {
            if self.shared.abandoned.load(Ordering::Acquire) {
                break Room::Abandoned;
            }
            self.shared.producer_parked.store(true, Ordering::SeqCst);
            fence(Ordering::SeqCst);
            let free = room(self);
            if free > 0 || self.shared.abandoned.load(Ordering::Acquire) {
                self.shared.producer_parked.store(false, Ordering::Relaxed);
                if free > 0 {
                    break Room::Free(free);
                }
                continue;
            }
            thread::park();
            self.shared.producer_parked.store(false, Ordering::Relaxed);
        };
        self.stats.set_waiting_for_room(false);
        self.stats.record_full_ring_wait(started.elapsed());
        result
    }

    /// Lends out up to `max` bytes of contiguous free space to `fill`, which returns how many
    /// bytes it wrote (or an error). Those bytes are published to the consumer at once.
    ///
    /// The space is uninitialised memory handed straight to `read(2)`: no copy, no zeroing.
    pub fn fill_with<E>(
        &mut self,
        max: usize,
        fill: impl FnOnce(&mut [MaybeUninit<u8>]) -> Result<usize, E>,
    ) -> Result<usize, E> {
        let want = self.inner.slots().min(max);
        if want == 0 {
            return Ok(0);
        }
        let mut chunk = self
            .inner
            .write_chunk_uninit(want)
            .expect("slots() bytes are free");
        let (first, _) = chunk.as_mut_slices();
        let written = fill(first)?;
        let written = written.min(first.len());
        // SAFETY: `fill` reported that it initialised the first `written` bytes of `first`,
        // which is the start of the chunk.
        unsafe { chunk.commit(written) };
        if written > 0 {
            self.stats.record_fill(self.filled());
            self.wake_consumer();
        }
        Ok(written)
    }

    fn wake_consumer(&self) {
        fence(Ordering::SeqCst);
        if self.shared.consumer_parked.swap(false, Ordering::Relaxed)
            && let Some(consumer) = self.shared.consumer_thread.get()
        {
            consumer.unpark();
        }
    }
}

/// Dropping the producer ends the stream: the consumer drains what is left, then sees `Closed`.
impl Drop for RingProducer {
    fn drop(&mut self) {
        self.shared.closed.store(true, Ordering::Release);
        fence(Ordering::SeqCst);
        if let Some(consumer) = self.shared.consumer_thread.get() {
            consumer.unpark();
        }
    }
}

/// The parser's end.
#[derive(Debug)]
pub struct RingConsumer {
    inner: rtrb::Consumer<u8>,
    shared: Arc<Shared>,
}

/// What a consumer's wait ended with.
#[derive(Debug, PartialEq, Eq)]
pub enum Wait {
    /// Bytes are there to read.
    Data,
    /// The deadline passed with the ring still empty.
    Timeout,
    /// The ring is empty and the producer is gone: the stream has ended.
    Closed,
    /// A [`ConsumerWaker`] asked the consumer to look at something else.
    Interrupted,
}

impl RingConsumer {
    /// Bytes ready to read.
    pub fn available(&self) -> usize {
        self.inner.slots()
    }

    /// Whether the producer has finished. Bytes may still be waiting in the ring.
    pub fn is_closed(&self) -> bool {
        self.shared.closed.load(Ordering::Acquire)
    }

    /// Parks until there are bytes, the stream ends, or `deadline` passes.
    ///
    /// Returns at once if bytes are already there: after a quiet spell the first byte is
    /// handled the moment it arrives, never after a batching delay.
    pub fn wait(&mut self, deadline: Option<Instant>) -> Wait {
        self.shared.consumer_thread.get_or_init(thread::current);
        loop {
            if self.shared.interrupted.swap(false, Ordering::AcqRel) {
                return Wait::Interrupted;
            }
            if !self.inner.is_empty() {
                return Wait::Data;
            }
            if self.is_closed() {
                // The producer may have published its last bytes just before closing.
                return if self.inner.is_empty() {
                    Wait::Closed
                } else {
                    Wait::Data
                };
            }
            self.shared.consumer_parked.store(true, Ordering::SeqCst);
            fence(Ordering::SeqCst);
            if !self.inner.is_empty()
                || self.is_closed()
                || self.shared.interrupted.load(Ordering::Acquire)
            {
                self.shared.consumer_parked.store(false, Ordering::Relaxed);
                continue;
            }
            match deadline {
                Some(deadline) => {
                    let now = Instant::now();
                    if now >= deadline {
                        self.shared.consumer_parked.store(false, Ordering::Relaxed);
                        return Wait::Timeout;
                    }
                    thread::park_timeout(deadline - now);
                }
                None => thread::park(),
            }
            self.shared.consumer_parked.store(false, Ordering::Relaxed);
        }
    }

    /// Hands up to `max` contiguous-or-split bytes to `consume`, then frees as many of them as
    /// it says it used (at most all; the rest stay for the next call).
    ///
    /// The ring may wrap, so `consume` gets the bytes as up to two slices, in order. Returns
    /// how many bytes were consumed.
    pub fn consume(&mut self, max: usize, consume: impl FnOnce(&[u8], &[u8]) -> usize) -> usize {
        let n = self.inner.slots().min(max);
        if n == 0 {
            return 0;
        }
        let chunk = self
            .inner
            .read_chunk(n)
            .expect("slots() bytes are readable");
        let (first, second) = chunk.as_slices();
        let used = consume(first, second).min(n);
        chunk.commit(used);
        self.wake_producer();
        used
    }

    fn wake_producer(&self) {
        fence(Ordering::SeqCst);
        if self.shared.producer_parked.swap(false, Ordering::Relaxed)
            && let Some(producer) = self.shared.producer_thread.get()
        {
            producer.unpark();
        }
    }

    /// A handle that can wake this consumer from another thread (for shutdown or timers).
    pub fn waker(&self) -> ConsumerWaker {
        ConsumerWaker {
            shared: self.shared.clone(),
        }
    }
}

impl Drop for RingConsumer {
    fn drop(&mut self) {
        self.shared.abandoned.store(true, Ordering::Release);
        fence(Ordering::SeqCst);
        if let Some(producer) = self.shared.producer_thread.get() {
            producer.unpark();
        }
    }
}

/// Makes the consumer's current or next [`RingConsumer::wait`] return
/// [`Wait::Interrupted`], so its thread looks at something other than the ring (shutdown).
#[derive(Debug, Clone)]
pub struct ConsumerWaker {
    shared: Arc<Shared>,
}

impl ConsumerWaker {
    pub fn wake(&self) {
        self.shared.interrupted.store(true, Ordering::Release);
        fence(Ordering::SeqCst);
        if let Some(consumer) = self.shared.consumer_thread.get() {
            consumer.unpark();
        }
    }
}

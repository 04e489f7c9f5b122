//! The byte ring between the reader thread and the parser thread.
//!
//! A single-producer/single-consumer lock-free ring ([`rtrb`]) that the reader fills with
//! each `read(2)`, copied from a small buffer of its own (`reader.rs` says why), and the
//! parser drains in slices. Neither side ever takes a lock:
//!
//! - The consumer parks only when the ring is empty; the producer unparks it only if it is
//!   parked, so a busy parser costs the reader one relaxed flag check per read. The reader may
//!   also leave it parked while a flood is young ([`crate::read_ahead`]), and always wakes it
//!   before parking itself.
//! - The producer parks only when the ring holds the reader's read-ahead (the memory cap, or
//!   less under a sustained flood: [`crate::read_ahead`]); the consumer unparks it as
//!   soon as it frees space. The time spent there is counted, because it is the only time the
//!   child can feel back-pressure from Sluice.
//!
//! - After a burst, once the program has been quiet for a while with everything parsed, the
//!   reader gives back the memory the burst touched ([`RingProducer::release_idle_memory`]):
//!   the ring is virtual memory that only costs what has been written into it, and a burst
//!   touches all of it.
//!
//! Lost wake-ups are ruled out by the usual Dekker pattern: each side publishes "I am parked",
//! issues a SeqCst fence, then re-checks the ring; the other side makes its change visible,
//! fences, then reads the flag. `thread::park` keeps a token, so an unpark that lands just
//! before the park is not lost either.

use rtrb::CopyToUninit;
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
    let (mut producer, consumer) = rtrb::RingBuffer::new(capacity);
    // rtrb keeps the bytes in one allocation of `capacity`, whose slot for position `p` is
    // `p % capacity`: a new ring's free space starts at its first byte.
    let base = {
        let mut chunk = producer
            .write_chunk_uninit(capacity)
            .expect("a new ring is empty");
        chunk.as_mut_slices().0.as_ptr() as usize
    };
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
            touched: 0,
            base,
            written: 0,
            huge: false,
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
    /// Bytes written since the ring's memory was last released, at most the capacity: an
    /// upper bound on how much of the ring is resident.
    touched: usize,
    /// The address of the ring's memory, `capacity` bytes.
    base: usize,
    /// Bytes written since the ring was made: the next write lands at this modulo the capacity.
    written: usize,
    /// Whether the ring's memory is marked for transparent huge pages
    /// ([`use_huge_pages`](Self::use_huge_pages)).
    huge: bool,
}

/// What [`RingProducer::release_idle_memory`] keeps ahead of the next write: the ring a
/// sustained flood cycles through ([`crate::read_ahead::LEAN_READ_AHEAD`]), so that neither
/// the next keystroke's echo nor the start of the next burst meets a page fault. Not after a
/// flood in huge pages, which is given back whole.
pub const KEEP_RESIDENT: usize = crate::read_ahead::LEAN_READ_AHEAD;

/// How much more than [`KEEP_RESIDENT`] must have been touched for a release to be worth its
/// system call: a burst, not a prompt's worth of output.
pub const RELEASE_ABOVE: usize = 1 << 20;

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
    /// [`PtyStatsSnapshot::full_ring_wait`](crate::stats::PtyStatsSnapshot::full_ring_wait).
    pub fn wait_for_room_below(&mut self, limit: usize) -> Room {
        let limit = limit.clamp(1, self.shared.capacity);
        let room = |p: &Self| limit.saturating_sub(p.filled());
        let free = room(self);
        if free > 0 {
            return Room::Free(free);
        }
        self.shared.producer_thread.get_or_init(thread::current);
        // The consumer frees the room, so it must be awake: the reader may have left it asleep
        // while the ring filled.
        self.wake_consumer();
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

    /// Copies as much of `bytes` as fits into the free space, wrapping round the end of the
    /// ring, and returns how many. Those bytes are published to the consumer at once; a parked
    /// consumer sees them once [`wake_consumer`](Self::wake_consumer) is called (the reader
    /// leaves the parser asleep while a flood is young: [`crate::read_ahead`]).
    ///
    /// The reader reads into a small buffer of its own and copies each read in here, rather
    /// than reading into the ring: the module doc of `reader.rs` says why.
    pub fn push(&mut self, bytes: &[u8]) -> usize {
        let n = self.inner.slots().min(bytes.len());
        if n == 0 {
            return 0;
        }
        let mut chunk = self
            .inner
            .write_chunk_uninit(n)
            .expect("slots() bytes are free");
        let (first, second) = chunk.as_mut_slices();
        let (head, tail) = bytes[..n].split_at(first.len());
        head.copy_to_uninit(first);
        tail.copy_to_uninit(second);
        // SAFETY: both slices, `n` bytes in all, were written just above.
        unsafe { chunk.commit_all() };
        self.written += n;
        self.will_touch(n);
        self.stats.record_fill(self.filled());
        n
    }

    /// The ring's memory: its address and length ([`crate::prefault`] faults it in ahead).
    pub(crate) fn memory(&self) -> (usize, usize) {
        (self.base, self.shared.capacity)
    }

    /// Bytes written since the ring was made; the next write lands at this modulo the
    /// capacity.
    pub(crate) fn written(&self) -> usize {
        self.written
    }

    /// Marks the ring's memory for transparent huge pages (`MADV_HUGEPAGE`), or no longer
    /// (`MADV_NOHUGEPAGE`); pages already faulted in keep their size. On for a young flood
    /// whose pages [`crate::prefault`] faults in, so that a 16 MiB ring takes 7 faults of 2 MiB
    /// and a few hundred of 4 KiB (where the allocation is not 2 MiB aligned, or the reader
    /// wrote before the flood turned young: 264 in all, measured) instead of 4,096; off again
    /// when the memory is given back, so that neither a pane's next few writes nor
    /// `khugepaged` make 2 MiB of a few KiB while it is quiet. Where the kernel has no huge
    /// pages the call fails, harmlessly: the pages stay 4 KiB. Where its `defrag` setting is
    /// `madvise` (Debian's default) a huge page's fault may compact memory first; the helper
    /// takes those faults, unless the reader overtakes it.
    pub(crate) fn use_huge_pages(&mut self, on: bool) {
        if self.huge == on {
            return;
        }
        self.huge = on;
        let Some((start, len)) = whole_pages(self.all_memory()) else {
            return;
        };
        let advice = if on {
            libc::MADV_HUGEPAGE
        } else {
            libc::MADV_NOHUGEPAGE
        };
        // SAFETY: the range is whole pages of the ring's own memory; the advice changes how
        // they are backed, never a byte of them.
        let rc = unsafe { libc::madvise(start as *mut libc::c_void, len, advice) };
        if rc != 0 {
            tracing::debug!(err = %std::io::Error::last_os_error(), on, "madvise(MADV_[NO]HUGEPAGE) failed");
        }
    }

    /// Counts `bytes` more of the ring as possibly resident (written, or faulted in ahead by
    /// [`crate::prefault`]), so that [`release_idle_memory`](Self::release_idle_memory) gives
    /// them back after the burst.
    pub(crate) fn will_touch(&mut self, bytes: usize) {
        self.touched = (self.touched + bytes).min(self.shared.capacity);
    }

    /// How much of the ring's memory is resident (`mincore(2)`), in bytes.
    #[cfg(test)]
    pub(crate) fn resident_bytes(&self) -> usize {
        resident_pages(self.all_memory())
    }

    /// The ring's whole allocation, for asking the kernel about its pages or advising it on
    /// them; never read or written through.
    fn all_memory(&self) -> &[MaybeUninit<u8>] {
        // SAFETY: the ring's own allocation, `capacity` bytes from `base`, alive with `self`;
        // MaybeUninit<u8> may hold any bytes, and the slice is shared, so nothing writes
        // through it.
        unsafe {
            std::slice::from_raw_parts(self.base as *const MaybeUninit<u8>, self.shared.capacity)
        }
    }

    /// Whether a burst has touched enough of the ring that [`release_idle_memory`] would give
    /// memory back.
    ///
    /// [`release_idle_memory`]: Self::release_idle_memory
    pub fn holds_idle_memory(&self) -> bool {
        self.touched > KEEP_RESIDENT + RELEASE_ABOVE
    }

    /// Gives the ring's memory back to the kernel, all but [`KEEP_RESIDENT`] bytes from the
    /// next write on, if the ring is empty; returns how many bytes were released (0 when the
    /// parser has not caught up yet, or there was nothing worth releasing).
    ///
    /// An empty ring's memory is all free space, lent to the producer alone: the consumer has
    /// given every byte it read back. `MADV_DONTNEED` drops those pages, and the next write to
    /// one of them faults in a zeroed page (it is uninitialised space to the ring either way).
    ///
    /// A ring backed by huge pages for a flood (`use_huge_pages`) is
    /// given back whole, [`KEEP_RESIDENT`] too: dropping part of a 2 MiB page unmaps that part
    /// but leaves the page allocated, uncounted in the process's RSS, until the kernel runs
    /// short of memory and splits it (`thp_deferred_split_page` in `/proc/vmstat` counted one
    /// per release that kept 256 KiB of one). The next write then faults its pages in again,
    /// 4 KiB at a time.
    pub fn release_idle_memory(&mut self) -> usize {
        let capacity = self.shared.capacity;
        if !self.holds_idle_memory() || self.inner.slots() != capacity {
            return 0;
        }
        let Ok(mut chunk) = self.inner.write_chunk_uninit(capacity) else {
            return 0;
        };
        let (released, kept) = if self.huge {
            // In one call: two, meeting at the next write, would split the huge page there.
            // SAFETY: the ring is empty and `chunk` lends all of it to this thread; nothing
            // else refers to its bytes while this slice lives.
            let all = unsafe {
                std::slice::from_raw_parts_mut(self.base as *mut MaybeUninit<u8>, capacity)
            };
            (drop_pages(all), 0)
        } else {
            // The next write lands at the start of `first`, then wraps into `second`; the two
            // make up the capacity, which is over KEEP_RESIDENT (`holds_idle_memory`).
            let (first, second) = chunk.as_mut_slices();
            let released = if first.len() > KEEP_RESIDENT {
                drop_pages(&mut first[KEEP_RESIDENT..]) + drop_pages(second)
            } else {
                drop_pages(&mut second[KEEP_RESIDENT - first.len()..])
            };
            (released, KEEP_RESIDENT)
        };
        // The chunk goes uncommitted: nothing is published, and the ring stays empty.
        self.use_huge_pages(false);
        self.touched = kept;
        self.stats.record_release(released);
        tracing::debug!(released, "pty-reader: ring memory given back after a burst");
        released
    }

    /// How much of the ring's free space is resident (`mincore(2)`), in bytes; `None` unless
    /// the ring is empty.
    #[cfg(test)]
    fn resident_free_space(&mut self) -> Option<usize> {
        let capacity = self.shared.capacity;
        if self.inner.slots() != capacity {
            return None;
        }
        let mut chunk = self.inner.write_chunk_uninit(capacity).ok()?;
        let (first, second) = chunk.as_mut_slices();
        Some(resident_pages(first) + resident_pages(second))
    }

    /// Unparks the consumer if it is parked: a flag check when it is busy.
    pub fn wake_consumer(&self) {
        fence(Ordering::SeqCst);
        if self.shared.consumer_parked.swap(false, Ordering::Relaxed)
            && let Some(consumer) = self.shared.consumer_thread.get()
        {
            consumer.unpark();
        }
    }
}

/// The whole pages inside `space`, as an address and a length; `None` if there is none.
fn whole_pages(space: &[MaybeUninit<u8>]) -> Option<(usize, usize)> {
    let page = page_size();
    let start = (space.as_ptr() as usize).next_multiple_of(page);
    let end = (space.as_ptr() as usize + space.len()) / page * page;
    // Lazily: for a space inside one page `end` is below `start`.
    (end > start).then(|| (start, end - start))
}

pub(crate) fn page_size() -> usize {
    // SAFETY: sysconf has no preconditions.
    unsafe { libc::sysconf(libc::_SC_PAGESIZE) as usize }
}

/// Drops the whole pages inside `space` (see [`RingProducer::release_idle_memory`]); returns
/// the bytes dropped.
fn drop_pages(space: &mut [MaybeUninit<u8>]) -> usize {
    let Some((start, len)) = whole_pages(space) else {
        return 0;
    };
    // SAFETY: the range lies inside `space`, memory this thread alone may write and that holds
    // no value (it is uninitialised space): dropping its pages changes nothing but residency.
    let rc = unsafe { libc::madvise(start as *mut libc::c_void, len, libc::MADV_DONTNEED) };
    if rc == 0 {
        len
    } else {
        tracing::debug!(err = %std::io::Error::last_os_error(), "madvise(MADV_DONTNEED) failed");
        0
    }
}

/// How many bytes of the whole pages inside `space` are resident.
#[cfg(test)]
fn resident_pages(space: &[MaybeUninit<u8>]) -> usize {
    let Some((start, len)) = whole_pages(space) else {
        return 0;
    };
    let page = page_size();
    let mut map = vec![0u8; len / page];
    // SAFETY: `map` has one byte per page of the range, which is mapped memory of this process.
    let rc = unsafe { libc::mincore(start as *mut libc::c_void, len, map.as_mut_ptr()) };
    if rc != 0 {
        return 0;
    }
    map.iter().filter(|&&b| b & 1 != 0).count() * page
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

#[cfg(test)]
mod tests {
    use super::*;

    const MIB: usize = 1 << 20;

    fn new_ring() -> (RingProducer, RingConsumer) {
        ring(16 * MIB, Arc::new(PtyStats::default()))
    }

    /// Writes all of `bytes` into the ring, which must have room for them.
    fn push(producer: &mut RingProducer, bytes: &[u8]) {
        assert_eq!(producer.push(bytes), bytes.len(), "the ring is full");
        producer.wake_consumer();
    }

    fn drain(consumer: &mut RingConsumer) -> Vec<u8> {
        let mut out = Vec::new();
        while consumer.consume(usize::MAX, |a, b| {
            out.extend_from_slice(a);
            out.extend_from_slice(b);
            a.len() + b.len()
        }) > 0
        {}
        out
    }

    fn pattern(len: usize, seed: usize) -> Vec<u8> {
        (0..len).map(|i| (i * 31 + seed) as u8).collect()
    }

    /// A burst parsed as it arrives: 8 MiB through the ring in 64 KiB reads.
    fn burst(producer: &mut RingProducer, consumer: &mut RingConsumer) {
        let piece = pattern(64 << 10, 0);
        for _ in 0..128 {
            push(producer, &piece);
            assert_eq!(drain(consumer), piece);
        }
    }

    #[test]
    fn a_burst_is_given_back_once_parsed_but_the_next_mib() {
        let (mut producer, mut consumer) = new_ring();
        assert!(!producer.holds_idle_memory(), "nothing written yet");
        burst(&mut producer, &mut consumer);
        assert!(producer.holds_idle_memory());
        let resident = producer.resident_free_space().unwrap();
        assert!(
            resident >= 7 * MIB,
            "the burst's pages are resident: {resident}"
        );

        let released = producer.release_idle_memory();
        assert!(released >= 14 * MIB, "all but what is kept: {released}");
        let resident = producer.resident_free_space().unwrap();
        assert!(resident <= KEEP_RESIDENT, "{resident} bytes still resident");
        assert!(!producer.holds_idle_memory());
        assert_eq!(producer.release_idle_memory(), 0, "nothing more to give");

        // Writing on, through the kept MiB and into released pages, loses nothing.
        let next = pattern(3 * MIB, 7);
        push(&mut producer, &next);
        assert_eq!(drain(&mut consumer), next);
    }

    #[test]
    fn a_push_wraps_round_the_end_and_stops_when_full() {
        let (mut producer, mut consumer) = ring(4096, Arc::new(PtyStats::default()));
        let first = pattern(3000, 1);
        push(&mut producer, &first);
        assert_eq!(drain(&mut consumer), first);
        // 1,096 bytes fit before the end of the allocation, the rest wrap to its start.
        let wrapping = pattern(3000, 2);
        push(&mut producer, &wrapping);
        assert_eq!(producer.filled(), 3000);
        // Only the 1,096 bytes of room left are taken; the caller keeps the rest.
        let more = pattern(2000, 3);
        assert_eq!(producer.push(&more), 1096);
        assert_eq!(producer.push(&more), 0, "full");
        let mut expected = wrapping;
        expected.extend_from_slice(&more[..1096]);
        assert_eq!(drain(&mut consumer), expected);
        assert_eq!(producer.written(), 7096);
    }

    #[test]
    fn nothing_is_given_back_while_the_parser_is_behind() {
        let (mut producer, mut consumer) = new_ring();
        burst(&mut producer, &mut consumer);
        let unparsed = pattern(4 * MIB, 3);
        push(&mut producer, &unparsed);
        assert!(producer.holds_idle_memory());
        assert_eq!(producer.release_idle_memory(), 0);
        assert_eq!(producer.resident_free_space(), None);
        assert_eq!(drain(&mut consumer), unparsed, "the backlog is intact");
        assert!(
            producer.release_idle_memory() > 0,
            "and then it is given back"
        );
    }
}

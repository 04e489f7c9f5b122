//! Counters the reader keeps, readable from any thread without locking.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

/// Live counters of one PTY session. Updated with relaxed atomics: a reader of these numbers
/// may see them a moment late, never torn.
#[derive(Debug, Default)]
pub struct PtyStats {
    bytes_read: AtomicU64,
    reads: AtomicU64,
    ring_fill: AtomicUsize,
    ring_high_water: AtomicUsize,
    full_ring_waits: AtomicU64,
    full_ring_wait_ns: AtomicU64,
    /// The reader is parked on the ring (the parser is behind), not waiting on the kernel.
    waiting_for_room: AtomicBool,
    ring_released: AtomicU64,
    /// Pauses taken to let a trickle gather (`trickle.rs`).
    gathered: AtomicU64,
    /// Busy waits for a fast stream of short writes to gather (`short_writes.rs`).
    short_writes_waits: AtomicU64,
    short_writes_wait_ns: AtomicU64,
    /// Yields in a flood, where the kernel was empty (`keep_awake.rs`).
    flood_yields: AtomicU64,
    /// Floods read with the parser left asleep (`read_ahead.rs`).
    young_floods: AtomicU64,
    /// Writes of input to the program (keys, pastes, replies), by the writer thread.
    input_writes: AtomicU64,
}

/// A copy of [`PtyStats`] at one moment.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PtyStatsSnapshot {
    /// Bytes read from the PTY master.
    pub bytes_read: u64,
    /// Successful `read(2)` calls that returned data.
    pub reads: u64,
    /// Bytes in the ring after the most recent read.
    pub ring_fill: usize,
    /// The most bytes the ring has held at once.
    pub ring_high_water: usize,
    /// How many times the reader found the ring full and had to wait.
    pub full_ring_waits: u64,
    /// Total time the reader waited on a full ring (or one at its lean read-ahead under a
    /// sustained flood): the only back-pressure Sluice applies.
    pub full_ring_wait: Duration,
    /// Bytes of the ring's memory given back after bursts, in all
    /// (`RingProducer::release_idle_memory`).
    pub ring_released: u64,
    /// Pauses the reader took to let a trickle of small writes gather (`trickle.rs`).
    pub gathered: u64,
    /// Busy waits the reader took to let a fast stream of short writes gather
    /// (`short_writes.rs`).
    pub short_writes_waits: u64,
    /// Their total time: CPU the reader spent spinning.
    pub short_writes_wait: Duration,
    /// Times the reader found the kernel empty in a flood and yielded its CPU rather than
    /// sleep (`keep_awake.rs`).
    pub flood_yields: u64,
    /// Floods whose start the reader read without waking the parser, as a young flood
    /// (`read_ahead.rs`).
    pub young_floods: u64,
}

impl PtyStats {
    pub(crate) fn record_read(&self, bytes: usize) {
        self.bytes_read.fetch_add(bytes as u64, Ordering::Relaxed);
        self.reads.fetch_add(1, Ordering::Relaxed);
    }

    pub(crate) fn record_fill(&self, fill: usize) {
        self.ring_fill.store(fill, Ordering::Relaxed);
        // A plain load first: the high-water mark rarely moves, and fetch_max always writes.
        if fill > self.ring_high_water.load(Ordering::Relaxed) {
            self.ring_high_water.fetch_max(fill, Ordering::Relaxed);
        }
    }

    pub(crate) fn set_waiting_for_room(&self, waiting: bool) {
        self.waiting_for_room.store(waiting, Ordering::Relaxed);
    }

    /// Whether the reader is parked on the ring right now: output may be waiting in the
    /// kernel although nothing has been read for a while.
    pub(crate) fn is_waiting_for_room(&self) -> bool {
        self.waiting_for_room.load(Ordering::Relaxed)
    }

    pub(crate) fn record_full_ring_wait(&self, waited: Duration) {
        self.full_ring_waits.fetch_add(1, Ordering::Relaxed);
        self.full_ring_wait_ns
            .fetch_add(waited.as_nanos() as u64, Ordering::Relaxed);
    }

    pub(crate) fn record_release(&self, bytes: usize) {
        self.ring_released
            .fetch_add(bytes as u64, Ordering::Relaxed);
    }

    pub(crate) fn record_input_write(&self) {
        self.input_writes.fetch_add(1, Ordering::Relaxed);
    }

    /// Input writes so far: output that follows one may be the program's answer to it.
    pub(crate) fn input_writes(&self) -> u64 {
        self.input_writes.load(Ordering::Relaxed)
    }

    pub(crate) fn record_gathering(&self) {
        self.gathered.fetch_add(1, Ordering::Relaxed);
    }

    pub(crate) fn record_short_writes_wait(&self, waited: Duration) {
        self.short_writes_waits.fetch_add(1, Ordering::Relaxed);
        self.short_writes_wait_ns
            .fetch_add(waited.as_nanos() as u64, Ordering::Relaxed);
    }

    pub(crate) fn record_flood_yield(&self) {
        self.flood_yields.fetch_add(1, Ordering::Relaxed);
    }

    pub(crate) fn record_young_flood(&self) {
        self.young_floods.fetch_add(1, Ordering::Relaxed);
    }

    /// Reads every counter.
    pub fn snapshot(&self) -> PtyStatsSnapshot {
        PtyStatsSnapshot {
            bytes_read: self.bytes_read.load(Ordering::Relaxed),
            reads: self.reads.load(Ordering::Relaxed),
            ring_fill: self.ring_fill.load(Ordering::Relaxed),
            ring_high_water: self.ring_high_water.load(Ordering::Relaxed),
            full_ring_waits: self.full_ring_waits.load(Ordering::Relaxed),
            full_ring_wait: Duration::from_nanos(self.full_ring_wait_ns.load(Ordering::Relaxed)),
            ring_released: self.ring_released.load(Ordering::Relaxed),
            gathered: self.gathered.load(Ordering::Relaxed),
            short_writes_waits: self.short_writes_waits.load(Ordering::Relaxed),
            short_writes_wait: Duration::from_nanos(
                self.short_writes_wait_ns.load(Ordering::Relaxed),
            ),
            flood_yields: self.flood_yields.load(Ordering::Relaxed),
            young_floods: self.young_floods.load(Ordering::Relaxed),
        }
    }
}

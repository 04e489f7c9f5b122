//! Faulting the ring's pages in ahead of the reader, on CPU time nobody else wants.
//!
//! The ring is virtual memory that costs only what has been written into it, and after a
//! burst the reader gives it back ([`crate::ring::RingProducer::release_idle_memory`]). So
//! every burst after a quiet spell, and a new pane's first, writes into pages the kernel has
//! to fault in and zero: 4,096 faults for 16 MiB, taken by the reader (inside its `read(2)`
//! until 2026-12-07, in its copy from the landing buffer since: `reader.rs`) while the program
//! waits for it. Through a 100×30 window, a 16 MiB burst of progress bars (the
//! fastest payload, ~200 MB/s through a bare drain) 1 s after the window opened was read at
//! 0.74× the drain without the helper and 0.90× with it (B/A 1.26; medians of ten alternated
//! rounds; docs/performance.md, "The ring's pages faulted in ahead").
//!
//! The helper runs under `SCHED_IDLE`, so it only takes a CPU that would otherwise idle: on
//! two cores a burst leaves them idle a quarter of the time, every 4 KiB waiting for a hand-over
//! between the program, the kernel's flush worker and the reader. At normal priority the same
//! helper took the program's CPU and lost (progress 0.73×, plain lines 0.83× against 0.77 and
//! 0.91 without it, six rounds). It uses `MADV_POPULATE_WRITE`, which makes pages resident and
//! writable without touching their contents, so it never races the reader's data. It starts
//! once a young flood, read with the parser left asleep ([`crate::read_ahead`]), has brought
//! [`PREFAULT_ABOVE`], and faults in the whole ring from the reader's write position on: a
//! helper that kept 4 MiB ahead of the reader instead, moved on every MiB, gained less on
//! progress bars in the same runs (0.81–0.82× against 0.84–0.90×). The price is memory: a
//! flood of a few MiB leaves the whole ring resident, not only what it used, until the reader
//! gives it back with the rest after [`crate::reader::RELEASE_AFTER_QUIET`].
//!
//! For the flood the ring asks for transparent huge pages
//! ([`RingProducer::use_huge_pages`]), so the helper faults most of it in 2 MiB at a time:
//! 264 faults for a 16 MiB burst instead of 3,840. Where memory the kernel has not handed
//! out lately is slow to fault in, as in the virtual machines Sluice is measured on (a
//! 16 MiB first touch took 115–150 ms with 4 KiB pages and 45–66 ms with huge pages), that
//! is what decides how far the helper keeps ahead of the reader: plain lines went from
//! 0.58× to 0.72× the drain (B/A 1.14, 12 rounds of 14) and dense colour 0.66× to 0.71×
//! (B/A 1.11), progress bars unchanged (docs/performance.md, "Huge pages for a young
//! flood").

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread::JoinHandle;

use crate::ring::RingProducer;

/// How much a young flood must have brought before the helper faults the ring in: a burst,
/// not a screen. The parser is left asleep from 64 KiB on
/// ([`crate::read_ahead::DEFER_ABOVE`]), but a TUI that redraws 100–300 KB at once should not
/// leave the whole 16 MiB ring resident for [`crate::reader::RELEASE_AFTER_QUIET`]. The
/// helper started at 1 MiB until the parser's deferral moved to 64 KiB, and the bursts that
/// moved it were measured with it still there (docs/performance.md, "The first MiB on the
/// program's cores").
pub(crate) const PREFAULT_ABOVE: usize = 1 << 20;

/// How much the helper faults in per system call: small enough that a cancelled request
/// (the flood over) is followed by at most this much more (a whole huge page, 2 MiB, where
/// the call lands in one not yet faulted in), large enough to cost few calls.
const CHUNK: usize = 256 << 10;

/// The helper's thread and what it shares with the reader.
#[derive(Debug)]
pub(crate) struct Prefaulter {
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
    /// Whether the reader has asked for this flood's pages.
    active: bool,
}

/// A request, in positions counted in bytes the reader has written since the ring was made
/// (the ring's offset is the position modulo its capacity). The reader stores `from` and
/// `until` before it bumps `generation`; the helper reads `generation` first.
#[derive(Debug)]
struct Shared {
    base: usize,
    capacity: usize,
    from: AtomicUsize,
    until: AtomicUsize,
    generation: AtomicUsize,
    stop: AtomicBool,
    /// False once the helper has given up (no `SCHED_IDLE` or no `MADV_POPULATE_WRITE`).
    working: AtomicBool,
}

impl Prefaulter {
    /// Starts the helper for `ring`'s memory; `None` if no thread can be made. Where the
    /// system refuses `SCHED_IDLE` or `MADV_POPULATE_WRITE` the helper ends at once and the
    /// reader faults pages in itself, as before (its requests then cost an unpark each, one
    /// per flood).
    pub(crate) fn start(ring: &mut RingProducer) -> Option<Self> {
        let (base, capacity) = ring.memory();
        let shared = Arc::new(Shared {
            base,
            capacity,
            from: AtomicUsize::new(0),
            until: AtomicUsize::new(0),
            generation: AtomicUsize::new(0),
            stop: AtomicBool::new(false),
            working: AtomicBool::new(true),
        });
        let helper = shared.clone();
        let thread = std::thread::Builder::new()
            .name("pty-prefault".into())
            .stack_size(64 << 10)
            .spawn(move || run(&helper))
            .map_err(|err| tracing::debug!(%err, "pty-prefault: no thread; the reader faults"))
            .ok()?;
        Some(Self {
            shared,
            thread: Some(thread),
            active: false,
        })
    }

    /// The reader is reading a young flood and has written up to `ring.written()`: at the
    /// flood's start, has the helper fault in the whole ring ahead of it, and counts it as
    /// touched, so that it is given back with the rest after the burst.
    pub(crate) fn flood_at(&mut self, ring: &mut RingProducer) {
        if self.active {
            return;
        }
        self.active = true;
        let at = ring.written();
        ring.will_touch(self.shared.capacity);
        // Huge pages only where the helper faults them in: a reader that faulted 2 MiB pages
        // in itself would stop for each (the ring with huge pages and no helper read progress
        // bars at 0.64× the drain, against 0.72× with 4 KiB pages).
        if self.shared.working.load(Ordering::Relaxed) {
            ring.use_huge_pages(true);
        }
        self.shared.from.store(at, Ordering::Relaxed);
        self.shared
            .until
            .store(at + self.shared.capacity, Ordering::Relaxed);
        self.shared.generation.fetch_add(1, Ordering::Release);
        self.wake();
    }

    /// The flood is no longer young: the helper stops after the chunk it is on.
    pub(crate) fn flood_over(&mut self) {
        if self.active {
            self.active = false;
            self.shared.until.store(0, Ordering::Relaxed);
            self.shared.generation.fetch_add(1, Ordering::Release);
        }
    }

    fn wake(&self) {
        if let Some(thread) = &self.thread {
            thread.thread().unpark();
        }
    }
}

impl Drop for Prefaulter {
    /// Stops and joins the helper, so it never works on the ring's memory after the ring is
    /// gone (the reader drops its end after this).
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::Release);
        self.wake();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The helper's thread: works until told to stop or until the system refuses, then says it
/// no longer works, so that the reader stops asking for huge pages it would fault in itself.
fn run(shared: &Shared) {
    work(shared);
    shared.working.store(false, Ordering::Relaxed);
}

/// The helper's loop: fault in what the latest request asks for, chunk by chunk, rereading the
/// request between chunks; park when there is nothing left to do.
fn work(shared: &Shared) {
    if !run_idle() {
        return;
    }
    let (mut seen, mut from, mut done) = (0, None, 0);
    loop {
        if shared.stop.load(Ordering::Acquire) {
            return;
        }
        let generation = shared.generation.load(Ordering::Acquire);
        let until = shared.until.load(Ordering::Relaxed);
        if generation != seen {
            seen = generation;
            // A new flood starts from where the reader is: what an earlier one faulted in may
            // have been given back since.
            let start = shared.from.load(Ordering::Relaxed);
            if from != Some(start) {
                (from, done) = (Some(start), start);
            }
        }
        if done >= until {
            std::thread::park();
            continue;
        }
        let offset = done % shared.capacity;
        let len = CHUNK.min(until - done).min(shared.capacity - offset);
        if !populate(shared.base + offset, len) {
            return;
        }
        done += len;
    }
}

/// Puts the calling thread under `SCHED_IDLE`; false if the system refuses.
fn run_idle() -> bool {
    let param = libc::sched_param { sched_priority: 0 };
    // SAFETY: `param` is a valid sched_param; pid 0 is the calling thread.
    let rc = unsafe { libc::sched_setscheduler(0, libc::SCHED_IDLE, &param) };
    if rc != 0 {
        tracing::debug!(err = %std::io::Error::last_os_error(), "pty-prefault: no SCHED_IDLE; off");
    }
    rc == 0
}

/// Faults in the whole pages of `[start, start + len)` writable; false if the kernel refuses
/// (before Linux 5.14 there is no `MADV_POPULATE_WRITE`), which ends the helper.
fn populate(start: usize, len: usize) -> bool {
    let page = crate::ring::page_size();
    let (first, end) = (start / page * page, (start + len).next_multiple_of(page));
    // SAFETY: MADV_POPULATE_WRITE changes no byte of memory, only which pages are resident;
    // the range lies in the ring's allocation, which outlives the helper (`Prefaulter::drop`).
    let rc = unsafe {
        libc::madvise(
            first as *mut libc::c_void,
            end - first,
            libc::MADV_POPULATE_WRITE,
        )
    };
    if rc != 0 {
        tracing::debug!(err = %std::io::Error::last_os_error(), "pty-prefault: madvise failed; off");
    }
    rc == 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ring::{KEEP_RESIDENT, ring};
    use crate::stats::PtyStats;
    use std::time::{Duration, Instant};

    const MIB: usize = 1 << 20;
    /// A 4 MiB ring's whole pages, at the least: its allocation need not start on a page.
    const WHOLE: usize = 4 * MIB - 2 * 4096;

    fn resident_when(
        producer: &mut RingProducer,
        done: impl Fn(usize) -> bool,
    ) -> Result<usize, usize> {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let resident = producer.resident_bytes();
            if done(resident) {
                return Ok(resident);
            }
            if Instant::now() > deadline {
                return Err(resident);
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    #[test]
    fn a_young_flood_has_the_whole_ring_faulted_in_and_counted() {
        let (mut producer, _consumer) = ring(4 * MIB, Arc::new(PtyStats::default()));
        let mut prefault = Prefaulter::start(&mut producer).expect("SCHED_IDLE and a thread");
        assert!(
            producer.resident_bytes() < MIB,
            "a new ring is not resident"
        );
        assert!(!producer.holds_idle_memory());
        prefault.flood_at(&mut producer);
        resident_when(&mut producer, |r| r >= WHOLE)
            .unwrap_or_else(|r| panic!("only {r} bytes faulted in"));
        assert!(
            producer.holds_idle_memory(),
            "faulted-in pages count as touched, so they are given back after the burst"
        );
        assert!(producer.release_idle_memory() >= WHOLE - KEEP_RESIDENT);
        assert!(producer.resident_bytes() <= KEEP_RESIDENT + 4096);
    }

    #[test]
    fn each_flood_starts_from_the_reader_and_asks_once() {
        let (mut producer, mut consumer) = ring(4 * MIB, Arc::new(PtyStats::default()));
        let mut prefault = Prefaulter::start(&mut producer).expect("SCHED_IDLE and a thread");
        prefault.flood_at(&mut producer);
        resident_when(&mut producer, |r| r >= WHOLE).expect("the first flood");
        prefault.flood_over();
        // The reader writes 1 MiB and the consumer takes it; then the memory is given back.
        for _ in 0..MIB / 4096 {
            producer.push(&[b'x'; 4096]);
            consumer.consume(usize::MAX, |a, b| a.len() + b.len());
        }
        producer.release_idle_memory();
        let released = producer.resident_bytes();
        assert!(
            released <= KEEP_RESIDENT + 4096,
            "{released} bytes still resident"
        );
        // A second flood, from 1 MiB on, wraps around the ring's end: all of it again.
        prefault.flood_at(&mut producer);
        resident_when(&mut producer, |r| r >= WHOLE).expect("the second flood");
        // Asking again within the flood sends nothing more.
        let generation = prefault.shared.generation.load(Ordering::Relaxed);
        prefault.flood_at(&mut producer);
        assert_eq!(
            prefault.shared.generation.load(Ordering::Relaxed),
            generation
        );
    }

    /// The `VmFlags` of the mapping that holds `addr`, from `/proc/self/smaps`.
    fn vm_flags(addr: usize) -> Vec<String> {
        let smaps = std::fs::read_to_string("/proc/self/smaps").expect("/proc/self/smaps");
        let mut inside = false;
        for line in smaps.lines() {
            let range = line.split_whitespace().next().unwrap_or("");
            if let Some((start, end)) = range.split_once('-')
                && let (Ok(start), Ok(end)) = (
                    usize::from_str_radix(start, 16),
                    usize::from_str_radix(end, 16),
                )
            {
                inside = (start..end).contains(&addr);
            } else if inside && let Some(flags) = line.strip_prefix("VmFlags:") {
                return flags.split_whitespace().map(str::to_owned).collect();
            }
        }
        panic!("no mapping holds {addr:#x}");
    }

    #[test]
    fn a_young_flood_asks_for_huge_pages_until_its_memory_is_given_back() {
        let (mut producer, _consumer) = ring(4 * MIB, Arc::new(PtyStats::default()));
        let inside = producer.memory().0.next_multiple_of(4096) + 4096;
        let huge = |flags: &[String]| flags.iter().any(|f| f == "hg");
        assert!(!huge(&vm_flags(inside)), "a quiet ring has 4 KiB pages");
        let mut prefault = Prefaulter::start(&mut producer).expect("SCHED_IDLE and a thread");
        prefault.flood_at(&mut producer);
        assert!(huge(&vm_flags(inside)), "{:?}", vm_flags(inside));
        resident_when(&mut producer, |r| r >= WHOLE).expect("the flood's pages");
        prefault.flood_over();
        assert!(producer.release_idle_memory() > 0);
        assert_eq!(
            producer.resident_bytes(),
            0,
            "given back whole: no huge page is left split, part of it still mapped"
        );
        let flags = vm_flags(inside);
        assert!(
            !huge(&flags) && flags.iter().any(|f| f == "nh"),
            "given back, the ring goes back to 4 KiB pages: {flags:?}"
        );
    }
}

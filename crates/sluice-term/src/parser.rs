//! The parser thread: drains the ring into the terminal.
//!
//! It parses the moment bytes arrive when it is idle, so a keystroke's echo is never held back
//! by a batching timer. While output keeps coming it simply finds more bytes waiting each time
//! round, which is all the coalescing there is: the renderer, not the parser, decides how often
//! to draw.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use alacritty_terminal::event::{Event, WindowSize};
use alacritty_terminal::sync::FairMutex;
use alacritty_terminal::term::Term;
use sluice_pty::{PtyWriter, RingConsumer, ring::Wait};

use crate::MAX_LOCK_SLICE;
use crate::events::{Mailbox, TermEvent};
use crate::feed::Feeder;
use crate::listener::EventQueue;
use crate::palette::SharedPalette;
use crate::terminal::Wake;
use crate::x10::X10Scanner;

/// Counters the parser keeps.
#[derive(Debug, Default)]
pub(crate) struct ParserStats {
    pub(crate) bytes_parsed: AtomicU64,
    pub(crate) slices: AtomicU64,
    pub(crate) longest_lock_ns: AtomicU64,
    pub(crate) busy_ns: AtomicU64,
    /// FNV-1a of every byte parsed, when `digest` is on (tests: "arrived whole and in order").
    pub(crate) digest: AtomicU64,
    /// OSC strings dropped for their length (see `feed::prescan`).
    pub(crate) osc_dropped: AtomicU64,
    /// Bytes thrown away after the parser failed, so the program is not blocked forever.
    pub(crate) discarded_after_failure: AtomicU64,
}

/// A copy of the parser's counters.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TermStatsSnapshot {
    pub bytes_parsed: u64,
    /// Lock holds taken to parse.
    pub slices: u64,
    /// The longest single hold of the terminal lock by the parser.
    pub longest_lock_hold: Duration,
    /// Time spent parsing, lock held.
    pub busy: Duration,
    /// FNV-1a 64 of the parsed stream, if the digest was asked for; otherwise the FNV offset.
    pub digest: u64,
    /// OSC strings dropped because they were longer than the cap.
    pub osc_dropped: u64,
    /// Output discarded unparsed because the parser had failed.
    pub discarded_after_failure: u64,
}

impl ParserStats {
    pub(crate) fn snapshot(&self) -> TermStatsSnapshot {
        TermStatsSnapshot {
            bytes_parsed: self.bytes_parsed.load(Ordering::Relaxed),
            slices: self.slices.load(Ordering::Relaxed),
            longest_lock_hold: Duration::from_nanos(self.longest_lock_ns.load(Ordering::Relaxed)),
            busy: Duration::from_nanos(self.busy_ns.load(Ordering::Relaxed)),
            digest: self.digest.load(Ordering::Relaxed),
            osc_dropped: self.osc_dropped.load(Ordering::Relaxed),
            discarded_after_failure: self.discarded_after_failure.load(Ordering::Relaxed),
        }
    }
}

pub(crate) const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// Folds `bytes` into a running FNV-1a 64 digest.
pub fn fnv1a(mut hash: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        hash = (hash ^ b as u64).wrapping_mul(FNV_PRIME);
    }
    hash
}

/// Everything the parser thread owns or shares.
pub(crate) struct Parser {
    pub(crate) ring: RingConsumer,
    pub(crate) term: Arc<FairMutex<Term<EventQueue>>>,
    pub(crate) queue: EventQueue,
    pub(crate) writer: PtyWriter,
    pub(crate) mailbox: Arc<Mailbox>,
    pub(crate) reported_directory: Arc<std::sync::Mutex<Option<std::path::PathBuf>>>,
    /// Set, with the panic's message, if parsing panicked.
    pub(crate) failure: Arc<OnceLock<String>>,
    pub(crate) wake: Wake,
    pub(crate) frame_pending: Arc<AtomicBool>,
    pub(crate) palette: Arc<SharedPalette>,
    pub(crate) window_size: Arc<std::sync::Mutex<WindowSize>>,
    pub(crate) stats: Arc<ParserStats>,
    pub(crate) shutdown: Arc<AtomicBool>,
    pub(crate) digest: bool,
    /// Whether X10 mouse mode is on, which the terminal does not track (see `x10`).
    pub(crate) x10: Arc<AtomicBool>,
    /// Test-only: parse at most this many bytes per second, to study a parser that falls behind.
    pub(crate) throttle: Option<u64>,
    /// Test-only: panic on the first output (see `TerminalOptions::debug_parser_panic`).
    pub(crate) panic_on_output: bool,
}

/// The longest the parser means to hold the terminal lock for one slice, whatever the bytes
/// ask for: a quarter of a 60 Hz frame, so the renderer always gets the lock in time for its
/// frame. Plain output reaches [`MAX_LOCK_SLICE`] well before this (under 1 ms).
const MAX_LOCK_HOLD: Duration = Duration::from_millis(4);

/// The work (cells written, see `Feeder::take_work`) parsed between looks at the clock.
///
/// Plain output does about a cell of work per byte, so a whole slice is one call. REP and
/// DECALN do far more for few bytes: a 64 KiB slice of `CSI 65535 b` held the lock for over a
/// second before the feed stopped after each of them once over this. One REP of 65,535
/// characters takes ~2 ms here (200x50, debug build); the budget is about as much again.
const WORK_PER_CHECK: u64 = 64 * 1024;

impl Parser {
    /// Parses until the ring closes or the terminal shuts down. A panic while parsing does not
    /// take the process down: it is recorded as the terminal's failure (the window and
    /// headless mode report it), and the rest of the output is discarded so that the program
    /// is not left blocked on a terminal that no longer reads.
    pub(crate) fn run(mut self) {
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.parse_all()));
        let Err(panic) = outcome else {
            return;
        };
        let message = sluice_pty::panic_message(&*panic);
        tracing::error!(%message, "the parser thread panicked; this terminal stops showing output");
        let _ = self.failure.set(message);
        (self.wake)();
        self.discard_all();
    }

    /// After a failure: frees the ring as output arrives, until it closes.
    fn discard_all(&mut self) {
        loop {
            if self.shutdown.load(Ordering::Acquire) {
                return;
            }
            match self.ring.wait(None) {
                Wait::Data => {
                    let n = self.ring.consume(usize::MAX, |a, b| a.len() + b.len());
                    self.stats
                        .discarded_after_failure
                        .fetch_add(n as u64, Ordering::Relaxed);
                }
                Wait::Timeout | Wait::Interrupted => {}
                Wait::Closed => return,
            }
        }
    }

    fn parse_all(&mut self) {
        let mut feeder = Feeder::new();
        let mut x10 = X10Scanner::default();
        let mut routed = Vec::new();
        let mut digest = FNV_OFFSET;
        self.stats.digest.store(digest, Ordering::Relaxed);
        loop {
            if self.shutdown.load(Ordering::Acquire) {
                return;
            }
            // A synchronized update (mode 2026) holds output back until it ends or times out;
            // the deadline is ours to honour, or a program that never ends it freezes the screen.
            let deadline = feeder.sync_deadline();
            match self.ring.wait(deadline) {
                Wait::Data => {
                    if self.panic_on_output {
                        panic!("the parser was asked to panic (--debug-parser-panic)");
                    }
                    self.parse_slice(&mut feeder, &mut x10, &mut routed, &mut digest);
                }
                Wait::Timeout => {
                    if deadline.is_some_and(|d| Instant::now() >= d) {
                        feeder.stop_sync(&mut *self.term.lock());
                        self.after_slice(&mut routed);
                    }
                }
                Wait::Interrupted => {}
                Wait::Closed => {
                    if feeder.sync_deadline().is_some() {
                        feeder.stop_sync(&mut *self.term.lock());
                    }
                    self.after_slice(&mut routed);
                    return;
                }
            }
        }
    }

    /// Parses one slice of what is waiting, holding the lock only for `advance`.
    fn parse_slice(
        &mut self,
        feeder: &mut Feeder,
        x10: &mut X10Scanner,
        routed: &mut Vec<Event>,
        digest: &mut u64,
    ) {
        let term = &self.term;
        let stats = &self.stats;
        let x10_on = &self.x10;
        let with_digest = self.digest;
        let parsed = self.ring.consume(MAX_LOCK_SLICE, |first, second| {
            let started = Instant::now();
            let (a, b) = {
                let mut term = term.lock();
                let a = parse_bounded(feeder, &mut term, first, started);
                let b = if a == first.len() {
                    parse_bounded(feeder, &mut term, second, started)
                } else {
                    0
                };
                x10.scan(&first[..a]);
                x10.scan(&second[..b]);
                // Stored under the lock, so a snapshot sees it with the modes it goes with.
                x10_on.store(x10.on(), Ordering::Relaxed);
                (a, b)
            };
            let held = started.elapsed().as_nanos() as u64;
            stats.busy_ns.fetch_add(held, Ordering::Relaxed);
            if held > stats.longest_lock_ns.load(Ordering::Relaxed) {
                stats.longest_lock_ns.store(held, Ordering::Relaxed);
            }
            if with_digest {
                *digest = fnv1a(fnv1a(*digest, &first[..a]), &second[..b]);
                stats.digest.store(*digest, Ordering::Relaxed);
            }
            a + b
        });
        self.stats
            .bytes_parsed
            .fetch_add(parsed as u64, Ordering::Relaxed);
        self.stats
            .osc_dropped
            .store(feeder.osc_dropped(), Ordering::Relaxed);
        if let Some(dir) = feeder.take_reported_directory() {
            *self
                .reported_directory
                .lock()
                .unwrap_or_else(|e| e.into_inner()) = Some(dir.clone());
            self.mailbox.post(TermEvent::WorkingDirectory(dir));
            (self.wake)();
        }
        let notification = feeder.take_notification().map(TermEvent::Notification);
        let finished = feeder
            .take_finished_command()
            .map(|(status, duration)| TermEvent::CommandFinished { status, duration });
        for event in notification.into_iter().chain(finished) {
            self.mailbox.post(event);
            (self.wake)();
        }
        self.stats.slices.fetch_add(1, Ordering::Relaxed);
        self.after_slice(routed);
        if let Some(rate) = self.throttle {
            std::thread::sleep(Duration::from_secs_f64(parsed as f64 / rate.max(1) as f64));
        }
    }

    /// Routes what the terminal asked for, then tells the UI there is a frame to draw.
    fn after_slice(&self, routed: &mut Vec<Event>) {
        self.queue.drain_into(routed);
        if !routed.is_empty() {
            self.route_events(routed);
        }
        // At most one wake-up pending: the UI clears the flag when it takes the snapshot.
        if !self.frame_pending.swap(true, Ordering::AcqRel) {
            (self.wake)();
        }
    }

    fn route_events(&self, events: &mut Vec<Event>) {
        let mut notify_app = false;
        for event in events.drain(..) {
            let for_app = match event {
                Event::PtyWrite(text) => {
                    self.writer.reply(text.into_bytes());
                    None
                }
                Event::ColorRequest(index, format) => {
                    let color = {
                        let term = self.term.lock();
                        self.palette.get().effective(term.colors(), index)
                    };
                    self.writer.reply(format(color).into_bytes());
                    None
                }
                Event::TextAreaSizeRequest(format) => {
                    let size = *self.window_size.lock().unwrap_or_else(|p| p.into_inner());
                    self.writer.reply(format(size).into_bytes());
                    None
                }
                Event::Title(title) => Some(TermEvent::Title(title)),
                Event::ResetTitle => Some(TermEvent::ResetTitle),
                Event::Bell => Some(TermEvent::Bell),
                Event::ClipboardStore(kind, text) => Some(TermEvent::ClipboardStore(kind, text)),
                Event::ClipboardLoad(kind, format) => Some(TermEvent::ClipboardLoad(kind, format)),
                Event::CursorBlinkingChange => Some(TermEvent::CursorBlinkingChange),
                Event::MouseCursorDirty => Some(TermEvent::MouseCursorDirty),
                // Term never sends these; they are the embedder's to send.
                Event::Wakeup | Event::Exit | Event::ChildExit(_) => None,
            };
            if let Some(event) = for_app {
                self.mailbox.post(event);
                notify_app = true;
            }
        }
        if notify_app {
            (self.wake)();
        }
    }
}

/// Parses from the start of `bytes` until all are parsed or the lock has been held for
/// [`MAX_LOCK_HOLD`] since `started`; returns how many bytes were parsed. The rest is left in
/// the ring for the next hold.
fn parse_bounded<L: alacritty_terminal::event::EventListener>(
    feeder: &mut Feeder,
    term: &mut Term<L>,
    bytes: &[u8],
    started: Instant,
) -> usize {
    let mut parsed = 0;
    while parsed < bytes.len() {
        parsed += feeder.advance_within(term, &bytes[parsed..], WORK_PER_CHECK);
        feeder.take_work();
        if started.elapsed() >= MAX_LOCK_HOLD {
            break;
        }
    }
    parsed
}

//! The parser thread: drains the ring into the terminal.
//!
//! It parses the moment bytes arrive when it is idle, so a keystroke's echo is never held back
//! by a batching timer. While output keeps coming it simply finds more bytes waiting each time
//! round, which is all the coalescing there is: the renderer, not the parser, decides how often
//! to draw.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use alacritty_terminal::event::{Event, WindowSize};
use alacritty_terminal::sync::FairMutex;
use alacritty_terminal::term::Term;
use crossbeam_channel::Sender;
use sluice_pty::{PtyWriter, RingConsumer, ring::Wait};

use crate::MAX_LOCK_SLICE;
use crate::events::TermEvent;
use crate::feed::Feeder;
use crate::listener::EventQueue;
use crate::palette::Palette;
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
}

impl ParserStats {
    pub(crate) fn snapshot(&self) -> TermStatsSnapshot {
        TermStatsSnapshot {
            bytes_parsed: self.bytes_parsed.load(Ordering::Relaxed),
            slices: self.slices.load(Ordering::Relaxed),
            longest_lock_hold: Duration::from_nanos(self.longest_lock_ns.load(Ordering::Relaxed)),
            busy: Duration::from_nanos(self.busy_ns.load(Ordering::Relaxed)),
            digest: self.digest.load(Ordering::Relaxed),
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
    pub(crate) events: Sender<TermEvent>,
    pub(crate) wake: Wake,
    pub(crate) frame_pending: Arc<AtomicBool>,
    pub(crate) palette: Arc<Palette>,
    pub(crate) window_size: Arc<std::sync::Mutex<WindowSize>>,
    pub(crate) stats: Arc<ParserStats>,
    pub(crate) shutdown: Arc<AtomicBool>,
    pub(crate) digest: bool,
    /// Whether X10 mouse mode is on, which the terminal does not track (see `x10`).
    pub(crate) x10: Arc<AtomicBool>,
    /// Test-only: parse at most this many bytes per second, to study a parser that falls behind.
    pub(crate) throttle: Option<u64>,
}

impl Parser {
    pub(crate) fn run(mut self) {
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
            {
                let mut term = term.lock();
                feeder.advance(&mut term, first);
                feeder.advance(&mut term, second);
                x10.scan(first);
                x10.scan(second);
                // Stored under the lock, so a snapshot sees it with the modes it goes with.
                x10_on.store(x10.on(), Ordering::Relaxed);
            }
            let held = started.elapsed().as_nanos() as u64;
            stats.busy_ns.fetch_add(held, Ordering::Relaxed);
            if held > stats.longest_lock_ns.load(Ordering::Relaxed) {
                stats.longest_lock_ns.store(held, Ordering::Relaxed);
            }
            if with_digest {
                *digest = fnv1a(fnv1a(*digest, first), second);
                stats.digest.store(*digest, Ordering::Relaxed);
            }
        });
        self.stats
            .bytes_parsed
            .fetch_add(parsed as u64, Ordering::Relaxed);
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
            match event {
                Event::PtyWrite(text) => self.writer.write(text.into_bytes()),
                Event::ColorRequest(index, format) => {
                    let color = {
                        let term = self.term.lock();
                        self.palette.effective(term.colors(), index)
                    };
                    self.writer.write(format(color).into_bytes());
                }
                Event::TextAreaSizeRequest(format) => {
                    let size = *self.window_size.lock().unwrap_or_else(|p| p.into_inner());
                    self.writer.write(format(size).into_bytes());
                }
                Event::Title(title) => {
                    notify_app |= self.events.send(TermEvent::Title(title)).is_ok()
                }
                Event::ResetTitle => notify_app |= self.events.send(TermEvent::ResetTitle).is_ok(),
                Event::Bell => notify_app |= self.events.send(TermEvent::Bell).is_ok(),
                Event::ClipboardStore(kind, text) => {
                    notify_app |= self
                        .events
                        .send(TermEvent::ClipboardStore(kind, text))
                        .is_ok()
                }
                Event::ClipboardLoad(kind, format) => {
                    notify_app |= self
                        .events
                        .send(TermEvent::ClipboardLoad(kind, format))
                        .is_ok()
                }
                Event::CursorBlinkingChange => {
                    notify_app |= self.events.send(TermEvent::CursorBlinkingChange).is_ok()
                }
                Event::MouseCursorDirty => {
                    notify_app |= self.events.send(TermEvent::MouseCursorDirty).is_ok()
                }
                // Term never sends these; they are the embedder's to send.
                Event::Wakeup | Event::Exit | Event::ChildExit(_) => {}
            }
        }
        if notify_app {
            (self.wake)();
        }
    }
}

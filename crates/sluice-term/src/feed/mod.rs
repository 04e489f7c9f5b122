//! Feeding bytes to the terminal: vte's parser, with a fast path for runs of printable ASCII.
//!
//! Profiling `sluice --headless` draining 100-byte lines (`perf record`, 64 MiB) put the parser
//! thread's time in two places inside alacritty_terminal: `Term::input`, called once per
//! character (48% of the thread), and `Row::reset` (36%), which clears the row that scrolling
//! recycles from the far end of the scrollback, memory untouched since ten thousand lines ago.
//! This module takes both down without changing what the grid ends up holding (within the caps
//! below):
//!
//! - A run of printable ASCII is written into its row a row-segment at a time ([`ascii`]), with
//!   the attributes `Term::input` would give each character, once the parser is known to be in
//!   its ground state (see `Feeder::advance_text`). Everything else still goes through vte and
//!   `Term`, so escape sequences, wide characters, insert mode, charsets and wrapping behave
//!   exactly as alacritty_terminal defines them.
//! - Each line feed prefetches the scrollback row that a later line feed will recycle
//!   ([`ascii::prefetch_recycled_row`]), so the reset finds it in cache.
//!
//!
//! It puts shell integration marks (OSC 133) on the cell printed after them ([`crate::marks`]).
//!
//! It also keeps what output can make the terminal hold within caps ([`limits`]: titles, the
//! title and keyboard stacks, combining marks, link targets), holds OSC strings back before vte
//! and drops overlong ones whole ([`prescan`]), and counts the work each call asks for, so
//! that the parser can stop after a REP or DECALN and let go of the lock
//! ([`Feeder::advance_within`]).
//!
//! The reference tests (`tests/reference.rs`) and a differential test against plain vte and
//! `Term` (`tests/feed.rs`, and the `feed` fuzz target) hold the two paths to the same grid,
//! the plain side compared within the combining-mark cap.

mod ascii;
mod forward;
pub(crate) mod limits;
mod osc7;
pub(crate) mod prescan;
mod runs;

use std::time::Instant;

use alacritty_terminal::event::EventListener;
use alacritty_terminal::term::Term;
use alacritty_terminal::vte::ansi::{Processor, StdSyncHandler};

use self::forward::Forward;
use self::limits::Mirror;
use self::prescan::{Prescan, Step};

/// How many bytes are searched for a run at a time.
const SCAN_WINDOW: usize = 4096;

/// After this many windows in a row without a run, the search backs off the longest.
///
/// Output made of escape sequences (a colour per character, CJK text) has no runs worth taking,
/// and searching all of it cost the "dense" payload 9–12% of its parse rate (`parse-ratio 9 4
/// dense`: 0.91 and 0.88 of vte alone, against 0.96 and 0.99 with the back-off). Each window
/// without a run lets the next `misses × SCAN_WINDOW` bytes go to vte unsearched, so such output
/// is searched a ninth of the time at most, and plain text is found again within 32 KiB of its
/// start.
const MAX_MISSES: usize = 8;

/// vte's parser and what the fast path needs to remember between calls.
#[derive(Default)]
pub struct Feeder {
    processor: Processor<StdSyncHandler>,
    /// What `Term` keeps private and the feed needs (the active charset, stack depths, work).
    mirror: Mirror,
    /// Holds OSC strings back so that overlong ones are dropped before vte buffers them, and
    /// finds the sequences after which parsing may pause.
    prescan: Prescan,
    /// Windows in a row searched without finding a run.
    misses: usize,
    /// Bytes still to go to vte without a search (see [`MAX_MISSES`]).
    unsearched: usize,
    /// Whether vte is known to be in its ground state: a probe or a run showed it, and only
    /// bytes that keep it there have gone to vte since (see [`runs::keeps_ground`]).
    in_ground: bool,
    /// The working directory the program last reported (OSC 7), not yet taken.
    reported_directory: Option<std::path::PathBuf>,
    /// The last desktop notification asked for (OSC 9, 777, 99), not yet taken: a flood is
    /// its last one.
    notification: Option<crate::Notification>,
    kitty_chunks: crate::notify::KittyChunks,
    /// When the running command's output began (OSC 133 C), for its duration at its D.
    command_started: Option<Instant>,
    /// The last command that finished (OSC 133 D) since the last take: status and duration.
    finished_command: Option<(Option<i32>, std::time::Duration)>,
    /// Bytes written into the grid by the fast path, not through vte: what the differential
    /// tests check was exercised at all.
    fast_path_bytes: u64,
}

impl Feeder {
    pub fn new() -> Self {
        Self::default()
    }

    /// Bytes the fast path has written so far (the rest went through vte and `Term`).
    pub fn fast_path_bytes(&self) -> u64 {
        self.fast_path_bytes
    }

    /// The working directory the program reported (OSC 7) since the last call, if any.
    pub fn take_reported_directory(&mut self) -> Option<std::path::PathBuf> {
        self.reported_directory.take()
    }

    /// The desktop notification the program asked for since the last call, if any.
    pub fn take_notification(&mut self) -> Option<crate::Notification> {
        self.notification.take()
    }

    /// The command (OSC 133) that finished since the last call, if one did: its exit status
    /// and how long it ran from its C mark.
    pub fn take_finished_command(&mut self) -> Option<(Option<i32>, std::time::Duration)> {
        self.finished_command.take()
    }

    /// When a synchronized update (mode 2026) left open must be shown anyway.
    pub fn sync_deadline(&self) -> Option<Instant> {
        self.processor.sync_timeout().sync_timeout()
    }

    /// Ends a synchronized update, showing what it held back.
    pub fn stop_sync<L: EventListener>(&mut self, term: &mut Term<L>) {
        self.in_ground = false;
        let mut forward = Forward::new(term, &mut self.mirror);
        self.processor.stop_sync(&mut forward);
    }

    /// The work parsing asked of the terminal since the last call, in cells (see
    /// [`Mirror::take_work`]): how the parser bounds a hold of the lock whatever a sequence
    /// asks for.
    pub fn take_work(&mut self) -> u64 {
        self.mirror.take_work()
    }

    /// OSC strings dropped so far for being longer than [`prescan::MAX_OSC_BYTES`].
    pub fn osc_dropped(&self) -> u64 {
        self.prescan.dropped
    }

    /// Parses `bytes` into `term`, as `Processor::advance` would, within the caps of
    /// [`limits`] and [`prescan`].
    pub fn advance<L: EventListener>(&mut self, term: &mut Term<L>, bytes: &[u8]) {
        self.advance_within(term, bytes, u64::MAX);
    }

    /// Parses the start of `bytes` until they are all parsed or the work done (see
    /// [`take_work`](Self::take_work)) is over `budget`; returns how many bytes were parsed.
    /// The work is checked after each REP and DECALN, the sequences that do much for few
    /// bytes, so one call does at most `budget` plus one such sequence's work.
    pub fn advance_within<L: EventListener>(
        &mut self,
        term: &mut Term<L>,
        bytes: &[u8],
        budget: u64,
    ) -> usize {
        let mut parsed = 0;
        while parsed < bytes.len() {
            let rest = &bytes[parsed..];
            parsed += match self.prescan.step(rest) {
                Step::Pass(n) => {
                    self.advance_text(term, &rest[..n]);
                    n
                }
                Step::Held(n) | Step::Skip(n) => n,
                Step::Release(n) => {
                    let held = self.prescan.take_held();
                    self.observe_osc(&held);
                    self.parse_unknown(term, &held);
                    self.prescan.recycle(held);
                    n
                }
                Step::Abort(n) => {
                    self.parse_unknown(term, prescan::ABORT);
                    n
                }
            };
            if self.mirror.work() > budget {
                break;
            }
        }
        parsed
    }

    /// Takes what alacritty_terminal ignores from an OSC string before vte sees it: the
    /// working directory (OSC 7), shell integration marks (OSC 133), notifications.
    fn observe_osc(&mut self, osc: &[u8]) {
        if let Some(dir) = osc7::working_directory(osc) {
            self.reported_directory = Some(dir);
        } else if let Some(mark) = crate::marks::parse_osc133(osc) {
            self.time_command(mark);
            // Inside a synchronized update vte holds the text before the mark back, and the
            // mark would land before it: it is dropped instead.
            if self.sync_deadline().is_none() {
                self.mirror.mark_sent(mark);
            }
        } else if let Some(notification) = crate::notify::parse(osc, &mut self.kitty_chunks) {
            self.notification = Some(notification);
        }
    }

    fn time_command(&mut self, mark: crate::marks::PendingMark) {
        use crate::marks::MarkKind;
        match mark.kind {
            MarkKind::Output => self.command_started = Some(Instant::now()),
            MarkKind::Finished => {
                if let Some(started) = self.command_started.take() {
                    self.finished_command = Some((mark.status, started.elapsed()));
                }
            }
            MarkKind::Prompt | MarkKind::Command => {}
        }
    }

    /// Parses `bytes` (no OSC string in them) into `term`, as `Processor::advance` would.
    ///
    /// Runs of printable ASCII long enough to be worth it are found first ([`runs`]). Whatever
    /// precedes a run goes to vte; then the run's first byte goes to vte *alone*, and if vte
    /// printed it, the parser is in its ground state (a byte is only ever printed there, and a
    /// sequence that ends on it ends in ground too), so the rest of the run can only be printed
    /// one character after another: the fast path does that. The run's last byte goes back to
    /// vte, which then remembers it as the character a later REP (`CSI b`) repeats. If vte did
    /// not print the probe (it was inside a sequence, or a synchronized update is holding
    /// output back), the run goes to vte like everything else. Once vte is known to be in
    /// ground, the next run needs no probe if only bytes that keep it there came in between:
    /// the common case, a line of text, then `\r\n`, then the next line.
    ///
    /// vte is handed the bytes in more pieces than one call, which it is built for: the PTY's
    /// reads cut the stream anywhere. The one thing piece boundaries change in vte is *when*
    /// an unfinished UTF-8 sequence at the end of a piece is shown (with the next byte), never
    /// what is shown.
    fn advance_text<L: EventListener>(&mut self, term: &mut Term<L>, bytes: &[u8]) {
        let mut rest = bytes;
        while !rest.is_empty() {
            if self.unsearched > 0 {
                let (skipped, tail) = rest.split_at(rest.len().min(self.unsearched));
                self.parse_unknown(term, skipped);
                self.unsearched -= skipped.len();
                rest = tail;
                continue;
            }
            let window = &rest[..rest.len().min(SCAN_WINDOW)];
            let Some(run) = runs::next_run(window) else {
                if window.len() < SCAN_WINDOW {
                    // The end of what has arrived (often the start of a line the next slice
                    // finishes), not a sign that the output has no runs.
                    self.in_ground &= runs::keeps_ground(window);
                    self.parse(term, window);
                } else {
                    self.parse_unknown(term, window);
                    self.misses = (self.misses + 1).min(MAX_MISSES);
                    self.unsearched = self.misses * SCAN_WINDOW;
                }
                rest = &rest[window.len()..];
                continue;
            };
            self.misses = 0;
            // The run may go on past the window.
            let end = run.start + runs::printable_prefix(&rest[run.start..]);
            let before = &rest[..run.start];
            let in_ground = self.in_ground && runs::keeps_ground(before);
            self.parse(term, before);
            let text = if in_ground {
                &rest[run.start..end - 1]
            } else if self.probe(term, rest[run.start]) {
                &rest[run.start + 1..end - 1]
            } else {
                self.parse_unknown(term, &rest[run.start + 1..end - 1]);
                rest = &rest[end - 1..];
                continue;
            };
            self.in_ground = true;
            // A pending mark goes on the next character `Term::input` prints.
            if ascii::can_write(term, self.mirror.active_charset) && !self.mirror.marks_pending() {
                ascii::write(term, text);
                self.fast_path_bytes += text.len() as u64;
            } else {
                self.parse(term, text);
            }
            rest = &rest[end - 1..];
        }
    }

    /// Parses `bytes` through vte and `Term`.
    fn parse<L: EventListener>(&mut self, term: &mut Term<L>, bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        let mut forward = Forward::new(term, &mut self.mirror);
        self.processor.advance(&mut forward, bytes);
    }

    /// Parses `bytes` through vte, after which its state is not known.
    fn parse_unknown<L: EventListener>(&mut self, term: &mut Term<L>, bytes: &[u8]) {
        self.in_ground = false;
        self.parse(term, bytes);
    }

    /// Parses one printable byte alone; true if vte printed it (so it is now in ground state).
    fn probe<L: EventListener>(&mut self, term: &mut Term<L>, byte: u8) -> bool {
        let mut forward = Forward::new(term, &mut self.mirror);
        forward.watch_for(byte as char);
        self.processor.advance(&mut forward, &[byte]);
        forward.saw_watched()
    }
}

//! Feeding bytes to the terminal: vte's parser, with a fast path for text and SGR.
//!
//! Profiling `sluice --headless` draining 100-byte lines (`perf record`, 64 MiB) put the parser
//! thread's time in two places inside alacritty_terminal: `Term::input`, called once per
//! character (48% of the thread), and `Row::reset` (36%), which clears the row that scrolling
//! recycles from the far end of the scrollback, memory untouched since ten thousand lines ago.
//! This module takes both down without changing what the grid ends up holding (within the caps
//! below):
//!
//! - A run of text, however short, is written into its row once the parser is known to be in
//!   its ground state (see `Feeder::take_text`), with the attributes `Term::input` would give
//!   each character: printable ASCII a row segment at a time ([`ascii`]), other characters
//!   a stretch of the line at a time ([`unicode`]), where their cells are a plain overwrite,
//!   with the combining marks that join them (in storage that cells given the same marks
//!   share, [`shared_marks`]). A run goes on over line ends (CR, LF), which are
//!   executed through the calls vte would make, so that short lines take the fast path too.
//!   Wide characters that wrap or overwrite half of another, insert mode, charsets and wrapping
//!   still go to `Term`, and behave exactly as alacritty_terminal defines them.
//! - While vte is known to be in ground, an SGR of plain decimal parameters, and a cursor
//!   motion or erase of at most two, is executed here ([`escapes`]), and every other whole
//!   escape sequence goes to vte on its own, after which vte is in ground again: output that
//!   colours or places its text every few characters does not go through vte whole.
//!   Everything else does.
//! - Short lines at the bottom of a scroll region are written after one scroll for as many
//!   as the region has ([`scrolled`]), not one scroll each.
//! - A whole line's erase (`CSI 2 K`, or `CSI K` from the first column) writes only the cells
//!   written since the row was last cleared, and leaves the row unoccupied, so that its reset
//!   when scrolling recycles it does not write every cell either ([`erase`]).
//! - While recent lines are long enough to be worth it, each line feed prefetches the
//!   scrollback row that a later line feed will recycle ([`ascii::prefetch_recycled_row`]),
//!   so the reset finds it in cache.
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
mod erase;
mod escapes;
pub(crate) mod forward;
pub(crate) mod limits;
mod osc7;
pub(crate) mod prescan;
mod runs;
mod scrolled;
mod shared_marks;
mod unicode;

use std::time::Instant;

use alacritty_terminal::event::EventListener;
use alacritty_terminal::term::Term;
use alacritty_terminal::vte::ansi::{Handler, Processor, StdSyncHandler};

use self::escapes::Escape;
use self::forward::Forward;
use self::limits::Mirror;
use self::prescan::{Prescan, Step};
use self::scrolled::LineFeeds;
use self::shared_marks::SharedMarks;

const ESC: u8 = 0x1b;

/// `bytes` cut after the UTF-8 continuation bytes it starts with (at most three: all a
/// character vte holds unfinished from its last call can need), when more follows them.
///
/// Given alone, they finish the held character and nothing else. vte 0.15, given them with
/// more, finishes the character from the first bytes of the call and then skips as many bytes
/// as were valid among the first four, printed or not (alacritty/vte#159): "café à" read as
/// "caf\xc3" and "\xa9 à" shows "caféà". A PTY read can end anywhere, so any output that is
/// not ASCII can meet it; the feed gives every call to vte this way, and the differential
/// tests give their plain vte the same ([`crate::testing::advance_vte`]).
pub(crate) fn finishing_split(bytes: &[u8]) -> (&[u8], &[u8]) {
    let finishing = bytes
        .iter()
        .take(3)
        .take_while(|&&b| runs::is_continuation(b))
        .count();
    if finishing == bytes.len() {
        (&[], bytes)
    } else {
        bytes.split_at(finishing)
    }
}

/// vte's parser and what the fast path needs to remember between calls.
#[derive(Default)]
pub struct Feeder {
    processor: Processor<StdSyncHandler>,
    /// What `Term` keeps private and the feed needs (the active charset, stack depths, work).
    mirror: Mirror,
    /// Holds OSC strings back so that overlong ones are dropped before vte buffers them, and
    /// finds the sequences after which parsing may pause.
    prescan: Prescan,
    /// The storage of recent combining marks, for cells given the same marks to share.
    marks: SharedMarks,
    /// Whether vte is known to be in its ground state: a probe or a run showed it, and only
    /// bytes that keep it there have gone to vte since (see [`runs::keeps_ground`] and
    /// [`escapes::Escape`]).
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
    /// Escape sequences executed by the feed, not through vte (see [`escapes`]).
    escapes_executed: u64,
    /// The character the fast path printed last, when vte has not printed one since: what a
    /// REP must repeat, which vte does not know yet (see [`tell_vte_last_printed`]).
    ///
    /// [`tell_vte_last_printed`]: Self::tell_vte_last_printed
    unseen_last: Option<char>,
    /// Lines written after one scroll for many ([`scrolled`]), not each after its own.
    lines_scrolled_together: u64,
    /// Scratch space for [`scrolled`]: rows' identities, and the lines of a region's batch.
    row_ids: Vec<usize>,
    spans: Vec<(usize, usize)>,
}

impl Feeder {
    pub fn new() -> Self {
        Self::default()
    }

    /// Bytes the fast path has written so far (the rest went through vte and `Term`).
    pub fn fast_path_bytes(&self) -> u64 {
        self.fast_path_bytes
    }

    /// Escape sequences the feed has executed itself so far (the rest went through vte).
    pub fn escapes_executed(&self) -> u64 {
        self.escapes_executed
    }

    /// Lines written so far after one scroll for many (`scrolled`): what the differential
    /// tests check was exercised.
    pub fn lines_scrolled_together(&self) -> u64 {
        self.lines_scrolled_together
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
        self.tell_vte_last_printed(0);
        self.in_ground = false;
        let mut forward = Forward::new(term, &mut self.mirror);
        self.processor.stop_sync(&mut forward);
    }

    /// The work parsing asked of the terminal since the last call, in cells (see
    /// `Mirror::take_work`): how the parser bounds a hold of the lock whatever a sequence
    /// asks for.
    pub fn take_work(&mut self) -> u64 {
        self.mirror.take_work()
    }

    /// OSC strings dropped so far for being longer than [`prescan::MAX_OSC_BYTES`].
    pub fn osc_dropped(&self) -> u64 {
        self.prescan.dropped
    }

    /// Parses `bytes` into `term`, as `Processor::advance` would, within the caps of
    /// `feed::limits` and `feed::prescan`.
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

    /// Parses `bytes` (no OSC string in them) into `term`, as `Processor::advance` would, a
    /// piece at a time: text and line ends through [`take_run`](Self::take_run), which writes
    /// them itself once vte is known to be in ground, however short; SGR, cursor motion and
    /// erasing executed here while it is ([`escapes`]); every other escape sequence through
    /// vte whole, after which vte is in ground again; other controls through vte. While vte is
    /// known to be in ground, text needs no probe: the common case, a line of text, then
    /// `\r\n`, then the next line, or a word between two colours.
    ///
    /// Output that colours or places what it prints (the color, progress, dense and scroll
    /// payloads) sends an escape sequence every few characters; through vte whole, a
    /// character of it cost a `Term::input` call and a byte of a sequence a step of vte's
    /// state machine. (Until 2026-12-03 the feed first searched for runs of 32 characters and
    /// gave vte everything else whole; once the pieces between runs went this way, the search
    /// measured no faster than none: docs/performance.md, "Escape sequences between runs".)
    ///
    /// vte is handed the bytes in more pieces than one call, which it is built for: the PTY's
    /// reads cut the stream anywhere. The one thing piece boundaries change in vte is *when*
    /// an unfinished UTF-8 sequence at the end of a piece is shown (with the next byte), never
    /// what is shown, once the bytes that finish it go alone ([`finishing_split`]).
    fn advance_text<L: EventListener>(&mut self, term: &mut Term<L>, mut bytes: &[u8]) {
        while let Some(&first) = bytes.first() {
            let taken = match first {
                ESC => self.take_escape(term, bytes),
                b'\r' | b'\n' => {
                    let ends = runs::line_ends(bytes);
                    self.execute_line_ends(term, &bytes[..ends]);
                    ends
                }
                _ if runs::is_text_byte(first) => self.take_lines(term, bytes),
                _ => {
                    // C0 controls and DEL, executed or ignored, keep vte in ground; 0xff, never
                    // UTF-8, is printed as U+FFFD, which is left to vte to say.
                    let controls = bytes
                        .iter()
                        .take_while(|&&b| {
                            b != ESC && !runs::is_line_end(b) && !runs::is_text_byte(b)
                        })
                        .count();
                    let controls = &bytes[..controls];
                    if self.in_ground && !controls.contains(&0xff) {
                        self.parse_without_printing(term, controls);
                    } else {
                        self.in_ground &= runs::keeps_ground(controls);
                        self.parse(term, controls);
                    }
                    controls.len()
                }
            };
            bytes = &bytes[taken..];
        }
    }

    /// Takes the escape sequence `bytes` starts with; returns its length. An SGR, a cursor
    /// motion or an erase is executed here when vte is known to be in ground; other whole sequences go to vte alone; the rest
    /// (strings, sequences cut by the read or with a control inside) go to vte with what
    /// follows up to the next ESC, after which vte's state is not known.
    fn take_escape<L: EventListener>(&mut self, term: &mut Term<L>, bytes: &[u8]) -> usize {
        match escapes::scan(bytes) {
            Escape::Sgr(sgr, len) if self.in_ground => {
                let mut forward = Forward::new(term, &mut self.mirror);
                sgr.attrs(|attr| forward.terminal_attribute(attr));
                self.escapes_executed += 1;
                len
            }
            Escape::Csi(csi, len) if self.in_ground => {
                csi.execute(&mut Forward::new(term, &mut self.mirror));
                self.escapes_executed += 1;
                len
            }
            Escape::Sgr(_, len) | Escape::Csi(_, len) | Escape::Whole(len) => {
                let sequence = &bytes[..len];
                if self.in_ground && !escapes::is_rep(sequence) {
                    self.parse_without_printing(term, sequence);
                } else {
                    self.parse(term, sequence);
                }
                len
            }
            Escape::MayHoldBack(len) => {
                self.parse_unknown(term, &bytes[..len]);
                len
            }
            Escape::Other => {
                let len = memchr::memchr(ESC, &bytes[1..]).map_or(bytes.len(), |at| at + 1);
                self.parse_unknown(term, &bytes[..len]);
                len
            }
        }
    }

    /// Takes the lines of text `bytes` starts with (text bytes and line ends); returns how many
    /// bytes it took. Lines of printable ASCII go through
    /// [`take_ascii_lines`](Self::take_ascii_lines) for as long as they come; from the first
    /// line that is not all ASCII, the run goes to [`take_run`](Self::take_run) whole.
    // Inlined, with `take_text`: out of line, the two cost plain lines 7-10% (`parse-ratio 5 8
    // plain`, interleaved with the build before them).
    #[inline(always)]
    fn take_lines<L: EventListener>(&mut self, term: &mut Term<L>, bytes: &[u8]) -> usize {
        let (line, ascii) = runs::text_extent(bytes);
        if ascii {
            return self.take_ascii_lines(term, bytes, line);
        }
        let len = runs::lines_extent(bytes);
        self.take_run(term, &bytes[..len]);
        len
    }

    /// Takes a run of text bytes and line ends (CR, LF): its characters go to
    /// [`take_text`](Self::take_text) a stretch at a time, and what is not text after all goes
    /// to vte: bytes that are not UTF-8 (vte prints U+FFFD, or keeps an unfinished character
    /// for the next call) and C1 controls (which vte executes). All of it is taken, so hostile
    /// output cannot make the search go over the same bytes twice.
    ///
    /// The run is checked with SIMD a stretch of valid UTF-8 at a time: after each byte that is
    /// not UTF-8 (or a character cut by the end of the read), the check starts again from the
    /// byte after it. Until 2026-12-06 everything after the first such byte went through
    /// `utf8_chunks`, which checks a byte at a time, and a read that began inside a character
    /// (its first bytes continuation bytes, which a read cut in the middle of CJK text has
    /// two times in three) was checked a byte at a time all the way to its end: 7% of the
    /// parser's samples in a window taking the `unicode` payload (docs/performance.md, "Reads
    /// that begin inside a character").
    #[inline(always)]
    fn take_run<L: EventListener>(&mut self, term: &mut Term<L>, run: &[u8]) {
        match simdutf8::compat::from_utf8(run) {
            Ok(valid) => self.take_valid(term, valid),
            Err(error) => self.take_broken_run(term, run, error),
        }
    }

    /// [`take_run`](Self::take_run) for a run that is not all UTF-8, `error` saying where it
    /// first is not. Out of line, as it was when it went through `utf8_chunks`: inlined into
    /// the path every line takes, this loop cost plain lines a tenth of their parse rate
    /// (`parse-ratio --sluice-only 3 8 plain 10000 200x60`, six alternated runs: 194–209
    /// against 208–229 MiB/s).
    #[inline(never)]
    fn take_broken_run<L: EventListener>(
        &mut self,
        term: &mut Term<L>,
        mut run: &[u8],
        mut error: simdutf8::compat::Utf8Error,
    ) {
        loop {
            let (valid, rest) = run.split_at(error.valid_up_to());
            // SAFETY: the check found these bytes valid UTF-8.
            self.take_valid(term, unsafe { std::str::from_utf8_unchecked(valid) });
            // Bytes that are not UTF-8 (printed as U+FFFD), or a character the end of the run
            // cuts (kept by vte for the next call): vte's to say.
            let invalid = error.error_len().map_or(rest.len(), usize::from);
            self.parse_unknown(term, &rest[..invalid]);
            run = &rest[invalid..];
            error = match simdutf8::compat::from_utf8(run) {
                Ok(valid) => return self.take_valid(term, valid),
                Err(error) => error,
            };
        }
    }

    /// Takes UTF-8 text and line ends: its text through [`take_text`](Self::take_text), its
    /// controls (line ends, C1) as vte would execute them.
    #[inline(always)]
    fn take_valid<L: EventListener>(&mut self, term: &mut Term<L>, mut valid: &str) {
        while !valid.is_empty() {
            let (text, control) = runs::split_at_control(valid);
            if !text.is_empty() {
                self.take_text(term, text, false);
            }
            if !control.is_empty() {
                self.execute(term, control);
            }
            valid = &valid[text.len() + control.len()..];
        }
    }

    /// Takes the lines of printable ASCII `bytes` starts with, its first `first` bytes being
    /// the first line's text: that line through [`take_text`](Self::take_text) (and its
    /// probe), then the lines after it through [`write_ascii_lines`](Self::write_ascii_lines)
    /// with no call into vte. Returns how many bytes it took.
    ///
    /// Each line is scanned once, by the scan that finds its end and sees that it is ASCII.
    /// (Until 2026-12-05 the whole run was measured first and each line found again as it
    /// was written, and vtebench's `y` lines parsed at 0.69x vte and `Term` alone:
    /// docs/performance.md, "Lines scanned once".)
    #[inline(always)]
    fn take_ascii_lines<L: EventListener>(
        &mut self,
        term: &mut Term<L>,
        bytes: &[u8],
        first: usize,
    ) -> usize {
        // SAFETY: ASCII is UTF-8.
        self.take_text(
            term,
            unsafe { std::str::from_utf8_unchecked(&bytes[..first]) },
            true,
        );
        let rest = &bytes[first..];
        if runs::line_ends(rest) == 0 {
            return first;
        }
        if !self.in_ground
            || !ascii::can_write(term, self.mirror.active_charset)
            || self.mirror.marks_pending()
        {
            // The probe found vte inside a sequence, or the fast path cannot write: the rest
            // of the run goes to vte. A run cut inside a character by the read leaves vte
            // holding it, out of ground (`lines_given_to_vte_cut_inside_a_character_…`).
            let run = &rest[..runs::lines_extent(rest)];
            if self.in_ground && runs::keeps_ground(run) {
                self.parse(term, run);
            } else {
                self.parse_unknown(term, run);
            }
            return first + run.len();
        }
        first + self.write_ascii_lines(term, rest)
    }

    /// Writes the line ends and lines of printable ASCII that `bytes` starts with, vte being
    /// in ground and the fast path able to write ([`ascii::can_write`], no mark pending): each
    /// line a row segment at a time ([`ascii::write`]), each line end as vte would execute it,
    /// or, once the line feeds are known to scroll a region, a region's worth of lines after
    /// one scroll ([`scrolled`]). Stops before the first line that is not all ASCII and at the
    /// first byte that is neither text nor a line end; returns how many bytes it took.
    // Out of line: inlined into the feed's loop with the batching's state it slowed the
    // payloads that seldom come here (progress redraws and cursor motion 0.93-0.96x,
    // `parse-ratio --sluice-only 3 8 PAYLOAD 10000 100x30`, three alternations), and out of it
    // those came back level (0.98-1.05x) with lines no slower (short 1.11-1.34x, `yes`
    // 1.02-1.03x the inlined build).
    #[inline(never)]
    fn write_ascii_lines<L: EventListener>(&mut self, term: &mut Term<L>, bytes: &[u8]) -> usize {
        let mut taken = 0;
        let mut last_text = None;
        let mut feeds = LineFeeds::Unknown;
        loop {
            let rest = &bytes[taken..];
            let ends = runs::line_ends(rest);
            if ends == 0 {
                break;
            }
            let crlf = ends == 2 && rest[0] == b'\r' && rest[1] == b'\n';
            if crlf && let LineFeeds::Scroll { height, from_top } = feeds {
                let (len, last) = scrolled::write_lines(
                    term,
                    &mut self.mirror.line_extent,
                    rest,
                    (height, from_top),
                    &mut self.spans,
                );
                if len > 0 {
                    taken += len;
                    last_text = last.or(last_text);
                    self.lines_scrolled_together += self.spans.len() as u64;
                    continue;
                }
            }
            if crlf && feeds == LineFeeds::StayedPut {
                let mirror = &mut self.mirror;
                feeds = scrolled::probe(term, &mut self.row_ids, |term| {
                    end_lines(term, mirror, b"\r\n")
                });
            } else {
                let line = term.grid().cursor.point.line;
                self.end_lines(term, &rest[..ends]);
                if crlf && feeds == LineFeeds::Unknown && term.grid().cursor.point.line == line {
                    feeds = LineFeeds::StayedPut;
                }
            }
            taken += ends;
            let (line, ascii) = runs::text_extent(&bytes[taken..]);
            if !ascii {
                break;
            }
            if line > 0 {
                ascii::write(term, &bytes[taken..taken + line]);
                taken += line;
                last_text = Some(bytes[taken - 1]);
            }
        }
        self.fast_path_bytes += taken as u64;
        if let Some(last) = last_text {
            self.unseen_last = Some(last as char);
        }
        taken
    }

    /// Executes `ends`, CRs and LFs, as vte in its ground state would: through the same
    /// `Handler` calls.
    #[inline(always)]
    fn end_lines<L: EventListener>(&mut self, term: &mut Term<L>, ends: &[u8]) {
        end_lines(term, &mut self.mirror, ends);
    }

    /// Executes a control [`runs::split_at_control`] split off a run: line ends directly when
    /// vte is known to be in ground (they keep it there), through vte otherwise; C1 controls
    /// through vte, after which its state is not known.
    fn execute<L: EventListener>(&mut self, term: &mut Term<L>, control: &str) {
        if runs::is_line_end(control.as_bytes()[0]) {
            self.execute_line_ends(term, control.as_bytes());
        } else {
            self.parse_unknown(term, control.as_bytes());
        }
    }

    /// Executes `ends` (CRs and LFs) directly when vte is known to be in ground, which they
    /// keep it in, and through vte otherwise.
    fn execute_line_ends<L: EventListener>(&mut self, term: &mut Term<L>, ends: &[u8]) {
        if self.in_ground {
            self.end_lines(term, ends);
        } else {
            self.parse(term, ends);
        }
    }

    /// Prints `text`, characters that vte would print one after another once in its ground
    /// state, on the fast path where it can: printable ASCII a row segment at a time
    /// ([`ascii`]), other text a stretch of the line at a time ([`unicode`]). vte is told the
    /// last character before it could repeat it
    /// ([`tell_vte_last_printed`](Self::tell_vte_last_printed)).
    ///
    /// Unless vte is known to be in ground, the first character goes to vte *alone*: if vte
    /// printed it, vte is in ground (a character is only ever printed there, and a sequence
    /// that ends on it ends in ground too); if not (it was inside a sequence, or a
    /// synchronized update is holding output back), the rest goes to vte like everything
    /// else. `ascii` says that `text` is known to be ASCII.
    #[inline(always)]
    fn take_text<L: EventListener>(&mut self, term: &mut Term<L>, mut text: &str, ascii: bool) {
        if !self.in_ground {
            let Some(first) = text.chars().next() else {
                return;
            };
            let (probe, after) = text.split_at(first.len_utf8());
            if !self.probe(term, probe) {
                return self.parse_unknown(term, after.as_bytes());
            }
            self.in_ground = true;
            text = after;
        }
        // A pending mark goes on the next character `Term::input` prints.
        if text.is_empty()
            || !ascii::can_write(term, self.mirror.active_charset)
            || self.mirror.marks_pending()
        {
            return self.parse(term, text.as_bytes());
        }
        if ascii || text.is_ascii() {
            ascii::write(term, text.as_bytes());
        } else {
            unicode::write(term, &mut self.mirror, &mut self.marks, text);
        }
        self.fast_path_bytes += text.len() as u64;
        self.unseen_last = text.chars().next_back();
    }

    /// Parses `bytes` through vte and `Term`, the bytes that may finish a character vte
    /// holds from its last call first and alone ([`finishing_split`]).
    fn parse<L: EventListener>(&mut self, term: &mut Term<L>, bytes: &[u8]) {
        let Some(&first) = bytes.first() else {
            return;
        };
        self.tell_vte_last_printed(first);
        if runs::is_continuation(first) {
            return self.parse_finishing(term, bytes);
        }
        self.parse_without_printing(term, bytes);
    }

    /// Parses `bytes`, in which vte neither prints nor repeats a character (a whole escape
    /// sequence other than REP, C0 controls), through vte and `Term` with vte in ground: what
    /// the fast path printed last need not be told to vte first.
    fn parse_without_printing<L: EventListener>(&mut self, term: &mut Term<L>, bytes: &[u8]) {
        let mut forward = Forward::new(term, &mut self.mirror);
        self.processor.advance(&mut forward, bytes);
    }

    /// [`parse`](Self::parse) for bytes that start with UTF-8 continuation bytes: rare (a read
    /// that ended inside a character), so out of the way of the common path.
    #[cold]
    #[inline(never)]
    fn parse_finishing<L: EventListener>(&mut self, term: &mut Term<L>, bytes: &[u8]) {
        let mut forward = Forward::new(term, &mut self.mirror);
        let (finishing, rest) = finishing_split(bytes);
        if !finishing.is_empty() {
            self.processor.advance(&mut forward, finishing);
        }
        self.processor.advance(&mut forward, rest);
    }

    /// Before vte is given bytes starting with `first`: if the fast path printed the last
    /// character, vte is told it (printed to a handler that discards it, vte being in ground),
    /// unless vte is about to print a character of its own first, printable ASCII.
    ///
    /// vte remembers the last character it printed, for REP (`CSI Ps b`) to repeat. Giving
    /// each stretch of text's last character to vte to print cost the `color` payload, whose
    /// words are 3–10 characters long, a quarter of its parse rate (`parse-ratio 5 8 all`, two
    /// runs: 115.6–115.9 MiB/s against 154.3–157.0 with this; `dense` 242–250 against
    /// 267–297). Only what vte is given after text other than text, an SGR, line ends or a
    /// whole sequence other than REP pays for it now.
    #[inline(always)]
    fn tell_vte_last_printed(&mut self, first: u8) {
        let Some(last) = self.unseen_last.take() else {
            return;
        };
        if !(0x20..0x7f).contains(&first) {
            let mut utf8 = [0; 4];
            self.processor
                .advance(&mut Discard, last.encode_utf8(&mut utf8).as_bytes());
        }
    }

    /// Parses `bytes` through vte, after which its state is not known.
    fn parse_unknown<L: EventListener>(&mut self, term: &mut Term<L>, bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        self.in_ground = false;
        self.parse(term, bytes);
    }

    /// Parses one character alone; true if vte printed it (so it is now in its ground state,
    /// with no unfinished UTF-8 character held: were the character's first byte taken up by
    /// what came before, vte could only print its other bytes as U+FFFD, one at a time).
    fn probe<L: EventListener>(&mut self, term: &mut Term<L>, character: &str) -> bool {
        self.tell_vte_last_printed(character.as_bytes()[0]);
        let mut forward = Forward::new(term, &mut self.mirror);
        forward.watch_for(character.chars().next().expect("one character"));
        self.processor.advance(&mut forward, character.as_bytes());
        forward.saw_watched()
    }
}

/// A `Handler` that does nothing: what vte prints to it changes only vte's own memory of the
/// last character printed ([`Feeder::tell_vte_last_printed`]).
struct Discard;

impl Handler for Discard {}

/// Executes `ends`, CRs and LFs, as vte in its ground state would: through the same `Handler`
/// calls.
#[inline(always)]
fn end_lines<L: EventListener>(term: &mut Term<L>, mirror: &mut Mirror, ends: &[u8]) {
    let mut forward = Forward::new(term, mirror);
    for &end in ends {
        if end == b'\r' {
            forward.carriage_return();
        } else {
            forward.linefeed();
        }
    }
}

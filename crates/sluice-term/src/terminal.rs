//! The terminal as the rest of Sluice sees it: a Term behind a fair lock, the parser thread
//! that feeds it, and the calls a front end makes (snapshot, resize, scroll, dump).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::{self, JoinHandle};

use alacritty_terminal::event::WindowSize;
use alacritty_terminal::grid::{Dimensions, Scroll};
use alacritty_terminal::sync::FairMutex;
use alacritty_terminal::term::{Config, Osc52, Term};
use sluice_pty::{PtyWriter, RingConsumer, WinSize};

use crate::dump::{self, DumpFormat};
use crate::events::{Mailbox, TermEvent};
use crate::listener::{EventQueue, TermListener};
use crate::palette::{Palette, SharedPalette};
use crate::parser::{Parser, ParserStats, TermStatsSnapshot};
use crate::snapshot::Snapshot;

/// Called (from the parser thread) when there is something new: a frame to draw or an event.
/// It must be quick and must not block: typically it posts a message to the UI's event loop.
pub type Wake = Arc<dyn Fn() + Send + Sync>;

/// How to set the terminal up.
#[derive(Clone, PartialEq)]
pub struct TerminalOptions {
    pub size: WinSize,
    /// Lines of history kept above the screen.
    pub scrollback: usize,
    pub palette: Palette,
    /// Whether OSC 52 may read the clipboard. Off by default: a program could otherwise read
    /// whatever the user last copied, passwords included.
    pub osc52_read: bool,
    /// Whether OSC 52 may write the clipboard. On by default, as in every terminal that has
    /// OSC 52; each write is capped by the OSC string cap (`limits::MAX_OSC_BYTES`).
    pub osc52_write: bool,
    /// Characters that end a word for double-click selection.
    pub word_separators: String,
    /// The cursor's shape and blinking until a program sets its own (DECSCUSR).
    pub cursor_shape: crate::CursorShape,
    pub cursor_blinking: bool,
    /// Compute a digest of every byte parsed (see [`TermStatsSnapshot::digest`]). Off by
    /// default: it is for tests that check that output arrived whole and in order.
    pub digest: bool,
    /// Test-only: limit the parser to this many bytes per second.
    #[doc(hidden)]
    pub debug_parse_rate: Option<u64>,
    /// Test-only: make the parser thread panic on its first output, to test that a panic
    /// there is contained and reported.
    #[doc(hidden)]
    pub debug_parser_panic: bool,
}

impl Default for TerminalOptions {
    fn default() -> Self {
        Self {
            size: WinSize::cells(80, 24),
            scrollback: 10_000,
            palette: Palette::default(),
            cursor_shape: crate::CursorShape::Block,
            cursor_blinking: false,
            osc52_read: false,
            osc52_write: true,
            word_separators: DEFAULT_WORD_SEPARATORS.to_owned(),
            digest: false,
            debug_parse_rate: None,
            debug_parser_panic: false,
        }
    }
}

/// What ends a word for double-click selection: blanks, quotes, brackets and the punctuation
/// that delimits fields in shell output, but not `/`, `.`, `-`, `_` or `~`, so a path or
/// a file name is selected whole (Alacritty's choice too).
pub const DEFAULT_WORD_SEPARATORS: &str = ",│`|:\"' ()[]{}<>\t";

/// alacritty_terminal's configuration for `options`.
pub(crate) fn term_config(options: &TerminalOptions) -> Config {
    Config {
        scrolling_history: options.scrollback,
        osc52: match (options.osc52_write, options.osc52_read) {
            (true, true) => Osc52::CopyPaste,
            (true, false) => Osc52::OnlyCopy,
            (false, true) => Osc52::OnlyPaste,
            (false, false) => Osc52::Disabled,
        },
        semantic_escape_chars: options.word_separators.clone(),
        // Programs push kitty keyboard flags only if the terminal answers the query;
        // front ends encode keys with `input::encode_key`, which honours the flags.
        kitty_keyboard: true,
        default_cursor_style: alacritty_terminal::vte::ansi::CursorStyle {
            shape: options.cursor_shape,
            blinking: options.cursor_blinking,
        },
        ..Config::default()
    }
}

pub(crate) struct GridSize(pub(crate) WinSize);

impl Dimensions for GridSize {
    fn total_lines(&self) -> usize {
        self.0.rows as usize
    }
    fn screen_lines(&self) -> usize {
        self.0.rows as usize
    }
    fn columns(&self) -> usize {
        self.0.cols as usize
    }
}

fn window_size(size: WinSize) -> WindowSize {
    WindowSize {
        num_lines: size.rows,
        num_cols: size.cols,
        cell_width: size.cell_width,
        cell_height: size.cell_height,
    }
}

/// A running terminal: its state and the thread that parses into it.
pub struct Terminal {
    term: Arc<FairMutex<Term<TermListener>>>,
    palette: Arc<SharedPalette>,
    window_size: Arc<Mutex<WindowSize>>,
    frame_pending: Arc<AtomicBool>,
    x10: Arc<AtomicBool>,
    stats: Arc<ParserStats>,
    shutdown: Arc<AtomicBool>,
    mailbox: Arc<Mailbox>,
    /// The working directory the program last reported (OSC 7), for dumps.
    reported_directory: Arc<Mutex<Option<std::path::PathBuf>>>,
    failure: Arc<OnceLock<String>>,
    writer: PtyWriter,
    parser: Option<JoinHandle<()>>,
    ring_waker: sluice_pty::ring::ConsumerWaker,
}

impl Terminal {
    /// Creates the terminal and starts its parser thread on `ring`. Replies to the program go
    /// to `writer`; `wake` is called whenever there is something new to show.
    pub fn start(
        ring: RingConsumer,
        writer: PtyWriter,
        options: TerminalOptions,
        wake: Wake,
    ) -> std::io::Result<Self> {
        let config = term_config(&options);
        let options = TerminalOptions {
            size: options.size.clamped(),
            ..options
        };
        let queue = EventQueue::default();
        let term = Arc::new(FairMutex::new(Term::new(
            config,
            &GridSize(options.size),
            queue.clone(),
        )));
        let palette = Arc::new(SharedPalette::new(options.palette));
        let window_size = Arc::new(Mutex::new(window_size(options.size)));
        let frame_pending = Arc::new(AtomicBool::new(false));
        let x10 = Arc::new(AtomicBool::new(false));
        let stats = Arc::new(ParserStats::default());
        let shutdown = Arc::new(AtomicBool::new(false));
        let mailbox = Arc::new(Mailbox::default());
        let reported_directory = Arc::new(Mutex::new(None));
        let failure = Arc::new(OnceLock::new());
        let ring_waker = ring.waker();

        let parser = Parser {
            ring,
            term: term.clone(),
            queue,
            writer: writer.clone(),
            mailbox: mailbox.clone(),
            reported_directory: reported_directory.clone(),
            failure: failure.clone(),
            wake,
            frame_pending: frame_pending.clone(),
            palette: palette.clone(),
            window_size: window_size.clone(),
            stats: stats.clone(),
            shutdown: shutdown.clone(),
            digest: options.digest,
            x10: x10.clone(),
            throttle: options.debug_parse_rate,
            panic_on_output: options.debug_parser_panic,
        };
        let parser = thread::Builder::new()
            .name("parser".into())
            .spawn(move || parser.run())?;

        Ok(Self {
            term,
            palette,
            window_size,
            frame_pending,
            x10,
            stats,
            shutdown,
            mailbox,
            reported_directory,
            failure,
            writer,
            parser: Some(parser),
            ring_waker,
        })
    }

    /// Copies what changed since the last call into `snapshot`. Returns whether anything did.
    ///
    /// Clears the "frame pending" flag first, so output parsed during the copy wakes the UI
    /// again rather than being missed.
    pub fn update_snapshot(&self, snapshot: &mut Snapshot) -> bool {
        self.frame_pending.store(false, Ordering::Release);
        let mut term = self.term.lock();
        snapshot.mouse_x10 = self.x10.load(Ordering::Relaxed);
        snapshot.update_from(&mut term, &self.palette.get())
    }

    /// Takes the events for the application (title, bell, clipboard) that came since the last
    /// call, to handle after a wake-up. A flood of one kind comes as one event with the latest
    /// value (see `events::Mailbox`).
    pub fn take_events(&self) -> Vec<TermEvent> {
        self.mailbox.take()
    }

    /// Why this terminal stopped showing output, if its parser failed (a panic, with its
    /// message). The program keeps running; its output is discarded.
    pub fn failure(&self) -> Option<&str> {
        self.failure.get().map(String::as_str)
    }

    /// A handle for sending input to the program.
    pub fn writer(&self) -> &PtyWriter {
        &self.writer
    }

    /// Resizes the grid (reflowing text). Call before resizing the PTY, so the program's
    /// redraw after SIGWINCH lands in the new grid.
    pub fn resize(&self, size: WinSize) {
        let size = size.clamped();
        *self.window_size.lock().unwrap_or_else(|p| p.into_inner()) = window_size(size);
        self.term.lock().resize(GridSize(size));
    }

    /// Applies new options to the running terminal (a configuration reload): the history
    /// length, the word separators, OSC 52 reading and writing, and the palette. The size and
    /// the test knobs are fixed at start.
    pub fn reconfigure(&self, options: &TerminalOptions) {
        self.term.lock().set_options(term_config(options));
        // The next snapshot sees the new palette and recolours every row.
        self.palette.set(&options.palette);
    }

    /// Scrolls the view through history by `lines` (positive: back in time).
    pub fn scroll_view(&self, lines: i32) {
        self.term.lock().scroll_display(Scroll::Delta(lines));
    }

    /// The parser's counters.
    pub fn stats(&self) -> TermStatsSnapshot {
        self.stats.snapshot()
    }

    /// The longest hold of the terminal lock by the parser since the last call (for periodic
    /// metrics: each period reports its own worst case).
    pub fn take_longest_lock_hold(&self) -> std::time::Duration {
        std::time::Duration::from_nanos(self.stats.longest_lock_ns.swap(0, Ordering::Relaxed))
    }

    /// Renders the screen (and optionally the history) as text, ANSI or JSON.
    pub fn dump(&self, format: DumpFormat, scrollback: bool) -> String {
        let directory = self
            .reported_directory
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        dump::dump(
            &self.term.lock(),
            &self.palette.get(),
            format,
            scrollback,
            directory.as_deref(),
        )
    }

    /// Runs `f` with the terminal locked. For tests and tools; keep it short.
    pub fn with_term<R>(&self, f: impl FnOnce(&mut Term<TermListener>) -> R) -> R {
        f(&mut self.term.lock())
    }

    /// Waits until the parser has parsed everything the ring will ever hold (the PTY reader
    /// must have stopped), and any synchronized update has been flushed.
    pub fn wait_parsed(&mut self) {
        if let Some(parser) = self.parser.take()
            && parser.join().is_err()
        {
            tracing::error!("parser thread panicked");
        }
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        self.shutdown.store(true, Ordering::Release);
        self.ring_waker.wake();
        if let Some(parser) = self.parser.take() {
            let _ = parser.join();
        }
    }
}

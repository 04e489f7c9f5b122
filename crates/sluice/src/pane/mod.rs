//! A pane: one program's terminal (its [`Session`]) and how it is viewed: its snapshot and
//! picture, search, the link under the pointer, a paste waiting for confirmation, the
//! frozen view, the bell, its metrics.
//!
//! A pane knows nothing of the window it is in beyond the cells it was given ([`CellRect`]);
//! the window decides where it goes and whether it is shown. A pane that is not shown (in a
//! background tab) keeps reading and parsing at full speed: only drawing stops.

pub mod bar;
pub mod hints;
pub mod links;
pub mod overlay;
pub mod pager;
pub mod paste_confirm;
pub mod search;
pub mod vi;

use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use sluice_pty::{PtyOptions, WinSize};
use sluice_render::{Decorations, Label, Mark, PaneView, Renderer};
use sluice_term::{RowSpan, Session, Snapshot};

use crate::config::Config;
use crate::events::{PaneId, UserEvent};
use crate::metrics::{self, RuntimeMetrics};
use crate::window::layout::CellRect;
use links::Link;
use overlay::MetricsOverlay;
use paste_confirm::PasteConfirm;
use search::SearchBar;

/// Less output than this between two frames counts as interactive: the next frame is drawn
/// at the next refresh instead of waiting for the flood pacing.
const INTERACTIVE_BYTES: u64 = 64 * 1024;

/// What to run in a new pane.
#[derive(Debug, Clone, Default)]
pub struct Spawn {
    /// The program and its arguments; `None` runs the user's shell.
    pub command: Option<Vec<OsString>>,
    /// Where it starts; `None` is Sluice's own directory.
    pub working_directory: Option<PathBuf>,
}

/// What the configuration says about drawing a pane, this frame.
#[derive(Debug, Clone, Copy, Default)]
pub struct DrawOptions {
    /// `shell_integration.prompt_marks`.
    pub prompt_marks: bool,
    /// `colors.vi_cursor`.
    pub vi_cursor: Option<sluice_term::Rgb>,
}

/// What a pane needs from the process to start.
pub struct PaneContext<'a> {
    pub config: &'a Config,
    pub read_ahead: usize,
    pub proxy: &'a winit::event_loop::EventLoopProxy<UserEvent>,
    pub renderer: &'a Renderer,
    /// The remote-control socket, put in the program's environment as SLUICE_SOCKET.
    pub socket: Option<&'a std::path::Path>,
}

/// One terminal and its view. Field order is drop order: the session (parser, then PTY)
/// stops first.
pub struct Pane {
    pub id: PaneId,
    pub session: Session,
    pub snapshot: Snapshot,
    pub view: PaneView,
    /// Where the pane is in its window, in cells.
    pub rect: CellRect,
    pub search: Option<SearchBar>,
    /// Hints on screen, waiting for a label.
    pub hints: Option<hints::Hints>,
    /// Vi mode's key state while it is on (the mode itself is the terminal's).
    pub vi: Option<vi::ViKeys>,
    /// The last search made from vi mode and whether it went down, for `n` and `N`.
    pub vi_search: Option<(sluice_term::Search, bool)>,
    /// A paste waiting for the user to confirm it (`paste.confirm`).
    pub paste_confirm: Option<PasteConfirm>,
    pub hovered_link: Option<Link>,
    /// The view is frozen (Scroll Lock): the snapshot is not updated.
    pub frozen: bool,
    pub bell_until: Option<Instant>,
    /// The title the program set (OSC 0/2), if any.
    pub title: Option<String>,
    /// The program printed while the pane was not shown: the tab bar's activity mark.
    pub unseen_output: bool,
    /// The bell rang while the pane was not shown.
    pub unseen_bell: bool,
    /// The program ended and `--hold` keeps the pane open: how it ended.
    pub ended: Option<String>,
    /// The working directory the program last reported (OSC 7).
    pub reported_directory: Option<PathBuf>,
    /// How often this pane's program may notify the desktop (`notifications.min_interval`).
    pub notifications: crate::notifier::RateLimit,
    /// What runs in it, for a title until the program sets one.
    program: String,
    last_parsed: u64,
    metrics: RuntimeMetrics,
    pub overlay: Option<MetricsOverlay>,
    /// The parser's longest lock hold, shared out to the log and the overlay.
    longest_hold: Duration,
    /// Whether the terminal's failure (its parser panicked) has been reported.
    failure_shown: bool,
}

impl Pane {
    /// Starts `spawn` on a terminal of `size` cells.
    pub fn start(spawn: &Spawn, size: WinSize, cx: &PaneContext<'_>) -> anyhow::Result<Pane> {
        let id = PaneId::next();
        let wake_proxy = cx.proxy.clone();
        let mut env = cx.config.env();
        env.push(("SLUICE_PANE".into(), id.to_string().into()));
        if let Some(socket) = cx.socket {
            env.push(("SLUICE_SOCKET".into(), socket.as_os_str().to_owned()));
        }
        let session = Session::start(
            &PtyOptions {
                command: spawn.command.clone().or_else(|| cx.config.shell()),
                working_directory: spawn.working_directory.clone(),
                env,
                env_remove: crate::vulkan_drivers::not_for_children(),
                size,
                read_ahead: cx.read_ahead,
                flow_control: cx.config.terminal.flow_control,
                ..PtyOptions::default()
            },
            cx.config.terminal_options(),
            Arc::new(move || {
                let _ = wake_proxy.send_event(UserEvent::Wakeup(id));
            }),
        )?;
        let exited = session.pty.exit_signal();
        let proxy = cx.proxy.clone();
        std::thread::Builder::new()
            .name(format!("child-exit-{id}"))
            .spawn(move || {
                let _ = exited.recv();
                let _ = proxy.send_event(UserEvent::ChildExited(id));
            })?;
        let now = Instant::now();
        let (pty, term) = (session.pty.stats().snapshot(), session.terminal.stats());
        let program = match spawn.command.clone().or_else(|| cx.config.shell()) {
            Some(command) => command
                .first()
                .map(|c| c.to_string_lossy().into_owned())
                .unwrap_or_default(),
            None => sluice_pty::default_shell(),
        };
        let program = program.rsplit('/').next().unwrap_or_default().to_owned();
        Ok(Pane {
            id,
            session,
            snapshot: Snapshot::default(),
            view: cx.renderer.new_view(),
            rect: CellRect {
                cols: size.cols.into(),
                rows: size.rows.into(),
                ..CellRect::default()
            },
            search: None,
            vi: None,
            vi_search: None,
            hints: None,
            paste_confirm: None,
            hovered_link: None,
            frozen: false,
            bell_until: None,
            title: None,
            unseen_output: false,
            unseen_bell: false,
            ended: None,
            reported_directory: None,
            notifications: Default::default(),
            program,
            last_parsed: 0,
            metrics: RuntimeMetrics::new(now, pty, term),
            overlay: cx
                .config
                .metrics
                .overlay
                .then(|| MetricsOverlay::new(now, pty, term)),
            longest_hold: Duration::ZERO,
            failure_shown: false,
        })
    }

    /// The title to show for the pane: the program's, else what runs in it.
    pub fn title(&self) -> &str {
        self.title.as_deref().unwrap_or(&self.program)
    }

    /// The program's process id.
    pub fn pid(&self) -> i32 {
        self.session.pty.pid()
    }

    /// The directory a new tab or split opened from this pane starts in: the one the shell
    /// last reported (OSC 7) if it still exists, else the program's current directory
    /// (`/proc/PID/cwd` on Linux), so `cd` in a shell is followed either way.
    pub fn working_directory(&self) -> Option<PathBuf> {
        self.reported_directory
            .clone()
            .filter(|dir| dir.is_dir())
            .or_else(|| std::fs::read_link(format!("/proc/{}/cwd", self.pid())).ok())
    }

    /// The terminal's failure, once: its parser, or a thread of its PTY, panicked. The screen
    /// stays as it was.
    pub fn take_failure(&mut self) -> Option<String> {
        let failure = self
            .session
            .terminal
            .failure()
            .or(self.session.pty.failure())?
            .to_owned();
        (!std::mem::replace(&mut self.failure_shown, true)).then_some(failure)
    }

    /// Whether the output since the last look was little enough to draw at once.
    pub fn output_was_interactive(&mut self) -> bool {
        let parsed = self.session.terminal.stats().bytes_parsed;
        let little = parsed - self.last_parsed < INTERACTIVE_BYTES;
        self.last_parsed = parsed;
        little
    }

    /// Rings the visual bell, if on.
    pub fn bell(&mut self, config: &Config) {
        if config.bell.visual {
            let duration = Duration::from_millis(config.bell.duration.into());
            self.bell_until = Some(Instant::now() + duration);
        }
    }

    /// Gives the pane a new place; the terminal and the program follow a new size.
    pub fn place(&mut self, rect: CellRect, cell: (u32, u32)) {
        let resized = (rect.cols, rect.rows) != (self.rect.cols, self.rect.rows);
        self.rect = rect;
        if resized && rect.cols > 0 && rect.rows > 0 {
            // A frozen view cannot follow a new size: it thaws.
            self.frozen = false;
            let size = WinSize {
                cols: rect.cols.min(u16::MAX as usize) as u16,
                rows: rect.rows.min(u16::MAX as usize) as u16,
                cell_width: cell.0 as u16,
                cell_height: cell.1 as u16,
            };
            if let Err(err) = self.session.resize(size) {
                tracing::warn!(%err, pane = %self.id, "cannot resize the PTY");
            }
            self.view.invalidate();
        }
    }

    pub fn scroll_view(&mut self, lines: i32) {
        self.session.terminal.scroll_view(lines);
    }

    /// Enters vi mode, or leaves it (its selection goes and the view returns to the bottom).
    pub fn toggle_vi(&mut self) {
        let on = self.vi.is_none();
        self.vi = on.then(vi::ViKeys::default);
        self.vi_search = None;
        self.session.terminal.set_vi(on);
    }

    /// Back to the bottom of the history, if the view is scrolled up. True if it was.
    pub fn scroll_to_bottom(&mut self) -> bool {
        if self.snapshot.display_offset == 0 {
            return false;
        }
        self.session
            .terminal
            .scroll_view(-(self.snapshot.display_offset as i32));
        true
    }

    /// Sends `text` as a paste, bracketed if the program asked and always sanitised.
    pub fn paste_now(&mut self, text: &str) {
        let bracketed = self
            .snapshot
            .modes
            .contains(sluice_term::SnapshotModes::BRACKETED_PASTE);
        let bytes = sluice_term::input::encode_paste(text, bracketed);
        self.scroll_to_bottom();
        self.session.terminal.writer().paste(bytes);
    }

    /// Takes a new snapshot (unless frozen), draws what changed into the pane's view and
    /// returns the rows drawn. `cursor_shown` is false in a blink's off phase or under
    /// preedit text.
    pub fn draw(
        &mut self,
        renderer: &mut Renderer,
        cursor_shown: bool,
        extra: Vec<Label>,
        now: Instant,
        options: DrawOptions,
    ) -> usize {
        if !self.frozen {
            self.session.terminal.update_snapshot(&mut self.snapshot);
        }
        let mut decorations = self.decorations(now);
        if options.prompt_marks {
            self.prompt_marks(&mut decorations);
        }
        decorations.labels.extend(extra);
        self.view.set_decorations(decorations);
        let cursor = self.snapshot.cursor;
        if !cursor_shown {
            self.snapshot.cursor = None;
        } else if self.vi.is_some() {
            let yellow = self.snapshot.palette_color(3);
            if let Some(c) = &mut self.snapshot.cursor {
                c.color = options.vi_cursor.unwrap_or(yellow);
            }
        }
        let report = renderer.render(&mut self.view, &mut self.snapshot);
        self.snapshot.cursor = cursor;
        report.rows_drawn
    }

    /// Counts a frame's cost in the pane's metrics and overlay.
    pub fn frame_drawn(&mut self, cost: Duration) {
        self.metrics.frame(cost);
        if let Some(overlay) = &mut self.overlay {
            overlay.frame(cost);
        }
    }

    /// `shell_integration.prompt_marks`: each prompt's first cell in blue, and the exit status
    /// of a command that failed in red at the end of the line its end was marked on.
    fn prompt_marks(&self, d: &mut Decorations) {
        use sluice_term::marks::MarkKind;
        let (cols, background) = (self.snapshot.cols, self.snapshot.background);
        let (blue, red) = (
            self.snapshot.palette_color(4),
            self.snapshot.palette_color(1),
        );
        for (row, mark) in self.session.terminal.marks_in_view() {
            match (mark.kind, mark.status) {
                (MarkKind::Prompt, _) => {
                    let span = RowSpan {
                        row,
                        start: mark.column,
                        end: mark.column + 1,
                    };
                    d.marks.push((
                        span,
                        Mark::Colors {
                            fg: background,
                            bg: blue,
                        },
                    ));
                }
                (MarkKind::Finished, Some(status)) if status != 0 => {
                    let text = format!(" exit {status} ");
                    d.labels.push(Label {
                        row,
                        col: cols.saturating_sub(text.len()),
                        text,
                        fg: background,
                        bg: red,
                        underline: false,
                    });
                }
                _ => {}
            }
        }
    }

    /// What is drawn over the cells this frame.
    fn decorations(&mut self, now: Instant) -> Decorations {
        let mut d = Decorations::default();
        let (rows, cols) = (self.snapshot.rows, self.snapshot.cols);
        let (fg, bg) = (self.snapshot.foreground, self.snapshot.background);
        if let Some(search) = &mut self.search {
            d.marks.extend(search.marks(&self.session.terminal));
            d.labels.push(search.label(rows, cols, fg, bg));
        }
        if let Some(hints) = &self.hints {
            let (marks, labels) = hints.decorations(fg, bg);
            d.marks.extend(marks);
            d.labels.extend(labels);
        }
        if let Some(bar) = &self.paste_confirm {
            d.labels.push(bar.label(rows, cols, fg, bg));
        }
        if let Some(link) = &self.hovered_link {
            d.marks
                .extend(link.spans.iter().map(|&s| (s, Mark::Underline)));
            d.labels.extend(link.target_label(rows, cols, fg, bg));
        }
        if let Some(overlay) = &self.overlay {
            d.labels.extend(overlay.labels(cols, bg, fg));
        }
        if let Some(ended) = &self.ended {
            d.labels.push(bar::bar(
                rows.saturating_sub(1),
                ended.clone(),
                cols,
                bg,
                fg,
            ));
        }
        if self.frozen {
            let text = " view frozen (Scroll Lock) ";
            d.labels.push(Label {
                row: 0,
                col: cols.saturating_sub(text.len()),
                text: text.to_owned(),
                fg: bg,
                bg: fg,
                underline: false,
            });
        }
        if self.bell_until.is_some_and(|until| now < until) {
            // The whole pane inverted for a moment.
            d.marks.extend((0..rows).map(|row| {
                let span = RowSpan {
                    row,
                    start: 0,
                    end: cols,
                };
                (span, Mark::Colors { fg: bg, bg: fg })
            }));
        }
        d
    }

    /// The pane's deadlines: the bell ending, the overlay's refresh, the periodic metrics.
    pub fn next_deadline(&self) -> Option<Instant> {
        let pty = self.session.pty.stats().snapshot();
        [
            self.bell_until,
            self.overlay.as_ref().and_then(|o| o.due_at(&pty)),
            self.metrics.due_at(&pty),
        ]
        .into_iter()
        .flatten()
        .min()
    }

    /// Runs the pane's deadlines that have come; true if it must be drawn again.
    pub fn run_timers(&mut self, now: Instant) -> bool {
        let mut redraw = false;
        if self.bell_until.is_some_and(|until| now >= until) {
            self.bell_until = None;
            redraw = true;
        }
        let pty = self.session.pty.stats().snapshot();
        if let Some(overlay) = &mut self.overlay
            && overlay.due_at(&pty).is_some_and(|due| now >= due)
        {
            self.longest_hold = self
                .longest_hold
                .max(self.session.terminal.take_longest_lock_hold());
            let term = self.session.terminal.stats();
            redraw |= overlay.update(now, pty, term, self.longest_hold);
        }
        self.report_metrics(now);
        redraw
    }

    /// Logs the periodic metrics if a period with activity is over.
    fn report_metrics(&mut self, now: Instant) {
        let pty = self.session.pty.stats().snapshot();
        if self.metrics.due_at(&pty).is_none_or(|due| now < due) {
            return;
        }
        let hold = self
            .longest_hold
            .max(self.session.terminal.take_longest_lock_hold());
        self.longest_hold = Duration::ZERO;
        let term = self.session.terminal.stats();
        if let Some(report) = self.metrics.report(now, pty, term, hold) {
            metrics::log(&report);
        }
    }

    pub fn toggle_overlay(&mut self) {
        self.overlay = match self.overlay.take() {
            Some(_) => None,
            None => {
                let (pty, term) = (
                    self.session.pty.stats().snapshot(),
                    self.session.terminal.stats(),
                );
                Some(MetricsOverlay::new(Instant::now(), pty, term))
            }
        };
    }

    /// How the program ended, for `--hold`'s line.
    pub fn ending(&self) -> String {
        match self.session.pty.exit_status() {
            Some(status) if status.success() => " the program exited; Ctrl+Shift+W closes ".into(),
            Some(status) => format!(
                " the program exited with status {}; Ctrl+Shift+W closes ",
                status.shell_code()
            ),
            None => " the program ended; Ctrl+Shift+W closes ".into(),
        }
    }
}

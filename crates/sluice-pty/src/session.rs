//! A PTY session: the child, the reader and writer threads, resize and exit.

use std::ffi::{OsStr, OsString};
use std::os::fd::RawFd;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender};
use portable_pty::{CommandBuilder, MasterPty, PtySize};

use crate::DEFAULT_READ_AHEAD;
use crate::child::{ExitStatus, default_shell, wait_for_exit};
use crate::error::{Error, Result};
use crate::fd::{Stopper, configure_line_discipline, dup, set_nonblocking};
use crate::guard;
use crate::reader::{self, ReaderEnd};
use crate::ring::{RingConsumer, ring};
use crate::stats::PtyStats;
use crate::writer::{PtyWriter, writer};

/// The terminal's size in cells and in pixels per cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WinSize {
    pub cols: u16,
    pub rows: u16,
    pub cell_width: u16,
    pub cell_height: u16,
}

impl WinSize {
    /// A size in cells, with a nominal 8×16 pixel cell for programs that ask for pixels.
    pub fn cells(cols: u16, rows: u16) -> Self {
        Self {
            cols,
            rows,
            cell_width: 8,
            cell_height: 16,
        }
    }

    /// The fewest columns: alacritty_terminal panics placing a wide character in a grid of one
    /// column (it is also alacritty's own minimum).
    pub const MIN_COLS: u16 = 2;
    /// The most columns. A 4K screen holds about 640 columns of the smallest readable cell
    /// (6 px), an 8K one 1,280.
    pub const MAX_COLS: u16 = 2048;
    /// The most rows: 8K at a 12 px cell is 360.
    ///
    /// With [`MAX_COLS`](Self::MAX_COLS), both screens of the largest grid take about 100 MB;
    /// at 65535×65535 the allocation alone aborted the process.
    pub const MAX_ROWS: u16 = 1024;

    /// Whether `cols`×`rows` is within the limits; if not, what to tell the user.
    pub fn check(cols: u32, rows: u32) -> Result<(), String> {
        let (min_c, max_c, max_r) = (Self::MIN_COLS, Self::MAX_COLS, Self::MAX_ROWS);
        if !(u32::from(min_c)..=u32::from(max_c)).contains(&cols) {
            return Err(format!(
                "{cols} columns: the terminal has {min_c} to {max_c}"
            ));
        }
        if !(1..=u32::from(max_r)).contains(&rows) {
            return Err(format!("{rows} rows: the terminal has 1 to {max_r}"));
        }
        Ok(())
    }

    /// This size with its cells brought within the limits (a window larger than the largest
    /// grid shows the largest grid).
    pub fn clamped(self) -> Self {
        Self {
            cols: self.cols.clamp(Self::MIN_COLS, Self::MAX_COLS),
            rows: self.rows.clamp(1, Self::MAX_ROWS),
            ..self
        }
    }

    fn to_pty_size(self) -> PtySize {
        PtySize {
            cols: self.cols,
            rows: self.rows,
            pixel_width: self.cols.saturating_mul(self.cell_width),
            pixel_height: self.rows.saturating_mul(self.cell_height),
        }
    }
}

/// Environment variables a parent terminal may have set that would mislead the child about
/// the terminal it is now talking to.
const FOREIGN_TERMINAL_VARS: &[&str] = &[
    "LINES",
    "COLUMNS",
    "TERMCAP",
    "TERMINFO",
    "VTE_VERSION",
    "KITTY_WINDOW_ID",
    "KITTY_PID",
    "KITTY_PUBLIC_KEY",
    "ALACRITTY_WINDOW_ID",
    "ALACRITTY_SOCKET",
    "ALACRITTY_LOG",
    "WEZTERM_PANE",
    "WEZTERM_UNIX_SOCKET",
    "WT_SESSION",
    // The launcher's startup notification was for Sluice's first window, not for whatever
    // the shell starts.
    "DESKTOP_STARTUP_ID",
    "XDG_ACTIVATION_TOKEN",
    "GHOSTTY_RESOURCES_DIR",
    "GHOSTTY_BIN_DIR",
    "TMUX",
    "TMUX_PANE",
    "STY",
    "DESKTOP_STARTUP_ID",
    "XDG_ACTIVATION_TOKEN",
];

/// How to start a session.
#[derive(Debug, Clone)]
pub struct PtyOptions {
    /// The program and its arguments; `None` runs the user's shell.
    pub command: Option<Vec<OsString>>,
    /// The child's working directory; `None` means Sluice's own.
    pub working_directory: Option<PathBuf>,
    /// Extra environment variables, applied last.
    pub env: Vec<(OsString, OsString)>,
    /// Variables of Sluice's own environment the child must not inherit (ones Sluice set for
    /// itself, such as the Vulkan loader's driver choice).
    pub env_remove: Vec<OsString>,
    pub size: WinSize,
    /// The ring's capacity: how far the reader may run ahead of the parser.
    pub read_ahead: usize,
    /// XON/XOFF output flow control (^S/^Q). Off by default; see `configure_line_discipline`.
    pub flow_control: bool,
    /// The value of `TERM` for the child.
    pub term: String,
}

impl Default for PtyOptions {
    fn default() -> Self {
        Self {
            command: None,
            working_directory: None,
            env: Vec::new(),
            env_remove: Vec::new(),
            size: WinSize::cells(80, 24),
            read_ahead: DEFAULT_READ_AHEAD,
            flow_control: false,
            term: crate::terminfo::default_term(),
        }
    }
}

/// A running PTY session. Dropping it hangs up on the child and stops both threads.
pub struct Pty {
    master: Box<dyn MasterPty + Send>,
    pid: libc::pid_t,
    writer: PtyWriter,
    stats: Arc<PtyStats>,
    stopper: Arc<Stopper>,
    reader: Option<JoinHandle<Option<ReaderEnd>>>,
    writer_thread: Option<JoinHandle<Option<()>>>,
    exit: Arc<OnceLock<ExitStatus>>,
    /// The first panic of the reader, writer or reaper thread.
    failure: guard::Failure,
    /// Disconnected when the child has exited; a receiver never gets a message.
    exited: Receiver<()>,
}

impl std::fmt::Debug for Pty {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pty")
            .field("pid", &self.pid)
            .field("exit", &self.exit.get())
            .finish()
    }
}

impl Pty {
    /// Starts the child on a new PTY, and the reader and writer threads. Returns the session
    /// and the consuming end of the ring the reader fills.
    pub fn spawn(options: &PtyOptions) -> Result<(Pty, RingConsumer)> {
        let size = options.size;
        WinSize::check(size.cols.into(), size.rows.into()).map_err(Error::InvalidSize)?;
        let limit = crate::units::max_read_ahead();
        if options.read_ahead as u64 > limit {
            return Err(Error::InvalidSize(crate::units::read_ahead_too_large(
                options.read_ahead as u64,
            )));
        }
        let cwd = match &options.working_directory {
            Some(dir) => dir.clone(),
            None => std::env::current_dir()
                .map_err(|e| Error::io("cannot read the current directory", e))?,
        };
        check_working_directory(&cwd)?;

        let pair = portable_pty::native_pty_system()
            .openpty(size.to_pty_size())
            .map_err(|e| Error::OpenPty(format!("{e:#}")))?;
        let master_fd = pair
            .master
            .as_raw_fd()
            .ok_or_else(|| Error::OpenPty("no master descriptor".into()))?;
        configure_line_discipline(master_fd, options.flow_control)
            .map_err(|e| Error::io("cannot configure the terminal line discipline", e))?;

        let command = build_command(options, &cwd);
        let program = command
            .get_argv()
            .first()
            .map(|p| p.to_string_lossy().into_owned())
            .unwrap_or_default();
        let child = pair
            .slave
            .spawn_command(command)
            .map_err(|e| Error::Spawn {
                program: program.clone(),
                reason: format!("{e:#}"),
            })?;
        // The reader sees end-of-file only once every slave descriptor is closed, ours included.
        drop(pair.slave);
        let pid = child.process_id().ok_or_else(|| Error::Spawn {
            program,
            reason: "no process id".into(),
        })? as libc::pid_t;
        // We reap the child ourselves (to learn which signal killed it); the handle is not needed.
        drop(child);

        Self::start_threads(pair.master, master_fd, pid, options.read_ahead)
    }

    fn start_threads(
        master: Box<dyn MasterPty + Send>,
        master_fd: RawFd,
        pid: libc::pid_t,
        read_ahead: usize,
    ) -> Result<(Pty, RingConsumer)> {
        set_nonblocking(master_fd).map_err(|e| Error::io("cannot make the PTY non-blocking", e))?;
        let read_fd =
            dup(master_fd).map_err(|e| Error::io("cannot duplicate the PTY master", e))?;
        let write_fd =
            dup(master_fd).map_err(|e| Error::io("cannot duplicate the PTY master", e))?;

        let stats = Arc::new(PtyStats::default());
        let (producer, consumer) = ring(read_ahead, stats.clone());
        let stopper = Arc::new(Stopper::new().map_err(|e| Error::io("cannot create a pipe", e))?);
        let (writer, mut writer_loop) = writer(write_fd, master.tty_name(), stats.clone())
            .map_err(|e| Error::io("cannot create a pipe", e))?;

        let failure = guard::Failure::default();
        let reader = {
            let (stopper, stats) = (stopper.clone(), stats.clone());
            guard::spawn("pty-reader", failure.clone(), move || {
                reader::run(read_fd, producer, stopper, stats)
            })
            .map_err(|e| Error::io("cannot start the reader thread", e))?
        };
        writer_loop.wake_after_input(reader.thread().clone());
        let writer_thread = guard::spawn("pty-writer", failure.clone(), move || writer_loop.run())
            .map_err(|e| Error::io("cannot start the writer thread", e))?;

        let exit = Arc::new(OnceLock::new());
        let (exit_tx, exited) = crossbeam_channel::bounded::<()>(0);
        spawn_reaper(pid, exit.clone(), exit_tx, failure.clone())?;

        let pty = Pty {
            master,
            pid,
            writer,
            stats,
            stopper,
            reader: Some(reader),
            writer_thread: Some(writer_thread),
            exit,
            exited,
            failure,
        };
        Ok((pty, consumer))
    }

    /// A handle for sending input to the child.
    pub fn writer(&self) -> PtyWriter {
        self.writer.clone()
    }

    /// The reader's live counters.
    pub fn stats(&self) -> Arc<PtyStats> {
        self.stats.clone()
    }

    /// The child's process id.
    pub fn pid(&self) -> i32 {
        self.pid
    }

    /// Tells the kernel the new size; the child's foreground process group gets SIGWINCH.
    pub fn resize(&self, size: WinSize) -> Result<()> {
        WinSize::check(size.cols.into(), size.rows.into()).map_err(Error::InvalidSize)?;
        self.master.resize(size.to_pty_size()).map_err(|e| {
            Error::io(
                "cannot resize the PTY",
                std::io::Error::other(format!("{e:#}")),
            )
        })
    }

    /// How the child ended, once it has.
    pub fn exit_status(&self) -> Option<ExitStatus> {
        self.exit.get().copied()
    }

    /// A receiver that becomes disconnected when the child exits, for `select!` loops.
    pub fn exit_signal(&self) -> Receiver<()> {
        self.exited.clone()
    }

    /// Waits for the child to exit, at most `timeout` (forever if `None`).
    pub fn wait_exit(&self, timeout: Option<Duration>) -> Option<ExitStatus> {
        match timeout {
            Some(timeout) => {
                let _ = self.exited.recv_timeout(timeout);
            }
            None => {
                let _ = self.exited.recv();
            }
        }
        self.exit_status()
    }

    /// Whether the reader has stopped (end of file, or stopped).
    pub fn reader_finished(&self) -> bool {
        self.reader.as_ref().is_none_or(|r| r.is_finished())
    }

    /// The first panic of the session's reader, writer or reaper thread, if one panicked: the
    /// session no longer reads (or writes) the PTY, and the application says so.
    pub fn failure(&self) -> Option<&str> {
        self.failure.get().map(String::as_str)
    }

    /// After the child exits, waits for the reader to reach end-of-file, so that everything the
    /// child wrote is in the ring. A process the child left running in the background may
    /// keep the PTY open: once nothing has arrived for `quiet`, or `limit` after the call
    /// whatever arrives (a background job that keeps writing), the reader is stopped anyway.
    pub fn drain_after_exit(&mut self, quiet: Duration, limit: Duration) {
        let mut last_bytes = self.stats.snapshot().bytes_read;
        let started = Instant::now();
        let mut last_change = started;
        while !self.reader_finished() {
            if started.elapsed() >= limit {
                tracing::debug!("the PTY is still written to after the child exited; stopping");
                break;
            }
            thread::sleep(Duration::from_millis(2));
            let bytes = self.stats.snapshot().bytes_read;
            // A reader parked on the ring is not a quiet PTY: the parser is behind (the
            // read-ahead is lean under a flood), and what the child wrote last may still be
            // in the kernel. Stopping then lost the end of the output.
            if bytes != last_bytes || self.stats.is_waiting_for_room() {
                (last_bytes, last_change) = (bytes, Instant::now());
            } else if last_change.elapsed() >= quiet {
                tracing::debug!("child exited but the PTY is still open; stopping the reader");
                break;
            }
        }
        self.stop_reader();
    }

    fn stop_reader(&mut self) {
        self.stopper.stop();
        if let Some(reader) = self.reader.take() {
            // A panic was caught and reported by the thread itself.
            if let Ok(Some(end)) = reader.join() {
                tracing::debug!(?end, "pty-reader finished");
            }
        }
    }
}

impl Drop for Pty {
    fn drop(&mut self) {
        if self.exit.get().is_none() {
            // Like closing a real terminal: the session's processes get SIGHUP.
            // SAFETY: signals our own child's process group (it is a session leader).
            unsafe { libc::kill(-self.pid, libc::SIGHUP) };
        }
        self.stop_reader();
        self.writer.shutdown();
        if let Some(writer) = self.writer_thread.take() {
            let _ = writer.join();
        }
    }
}

fn check_working_directory(dir: &Path) -> Result<()> {
    std::fs::read_dir(dir)
        .map(drop)
        .map_err(|source| Error::WorkingDirectory {
            path: dir.to_path_buf(),
            source,
        })
}

fn build_command(options: &PtyOptions, cwd: &Path) -> CommandBuilder {
    let mut command = match &options.command {
        Some(argv) if !argv.is_empty() => {
            let mut argv = argv.clone();
            argv[0] = program_path(&argv[0], cwd);
            CommandBuilder::from_argv(argv)
        }
        _ => CommandBuilder::new(default_shell()),
    };
    for var in FOREIGN_TERMINAL_VARS {
        command.env_remove(var);
    }
    for var in &options.env_remove {
        command.env_remove(var);
    }
    command.env("TERM", &options.term);
    if options.term == crate::terminfo::SLUICE_TERM
        && let Some(dir) = crate::terminfo::own_terminfo_dir()
    {
        command.env("TERMINFO", dir);
    }
    command.env("COLORTERM", "truecolor");
    command.env("TERM_PROGRAM", "sluice");
    command.env("TERM_PROGRAM_VERSION", env!("CARGO_PKG_VERSION"));
    for (key, value) in &options.env {
        command.env(key, value);
    }
    command.cwd(cwd.as_os_str());
    command
}

/// The program to run, as a shell would find it: a relative path with a slash in it
/// (`bin/tool`) names a file under the working directory, and only a bare name is looked up in
/// `PATH`. portable-pty searches `PATH` for `bin/tool` unless it starts with `./`, so
/// `sluice -e bin/tool` would fail where `sh -c bin/tool` works.
pub fn program_path(program: &OsStr, cwd: &Path) -> OsString {
    let path = Path::new(program);
    if path.is_relative() && path.components().count() > 1 {
        cwd.join(path).into_os_string()
    } else {
        program.to_os_string()
    }
}

/// Starts the thread that reaps the child and records how it ended.
fn spawn_reaper(
    pid: libc::pid_t,
    exit: Arc<OnceLock<ExitStatus>>,
    done: Sender<()>,
    failure: guard::Failure,
) -> Result<()> {
    guard::spawn("pty-child", failure, move || {
        match wait_for_exit(pid) {
            Ok(status) => {
                let _ = exit.set(status);
            }
            Err(err) => tracing::error!(%err, "cannot wait for the child"),
        }
        drop(done);
    })
    .map(drop)
    .map_err(|e| Error::io("cannot start the child reaper thread", e))
}

//! The whole pipeline for one program: its PTY (reader and writer threads) and the terminal
//! parsing its output.

use sluice_pty::{Pty, PtyOptions, WinSize};

use crate::terminal::{Terminal, TerminalOptions, Wake};

/// Why a session could not start.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    #[error(transparent)]
    Pty(#[from] sluice_pty::Error),
    #[error("cannot start the parser thread: {0}")]
    Parser(#[source] std::io::Error),
}

impl SessionError {
    /// Whether the program itself could not be started (not found, not executable).
    pub fn is_spawn_failure(&self) -> bool {
        matches!(self, SessionError::Pty(e) if e.is_spawn_failure())
    }
}

/// A running program and the terminal that shows it. Fields drop in order: the parser stops
/// before the PTY hangs up on the program.
pub struct Session {
    pub terminal: Terminal,
    pub pty: Pty,
}

impl Session {
    /// Spawns the program on a PTY of `pty.size` and starts parsing its output into a terminal
    /// of the same size; `wake` is called when there is something new to show.
    pub fn start(
        pty: &PtyOptions,
        terminal: TerminalOptions,
        wake: Wake,
    ) -> Result<Self, SessionError> {
        let (pty_handle, ring) = Pty::spawn(pty)?;
        let options = TerminalOptions {
            size: pty.size,
            ..terminal
        };
        // Pty::spawn refused a size outside the limits, so the grid is the PTY's size.
        let terminal = Terminal::start(ring, pty_handle.writer(), options, wake)
            .map_err(SessionError::Parser)?;
        Ok(Self {
            terminal,
            pty: pty_handle,
        })
    }

    /// Resizes the grid, then the PTY, so the program's redraw after SIGWINCH lands in the
    /// new grid. A size beyond the limits becomes the nearest within them
    /// ([`WinSize::clamped`]).
    pub fn resize(&self, size: WinSize) -> Result<(), sluice_pty::Error> {
        let size = size.clamped();
        self.terminal.resize(size);
        self.pty.resize(size)
    }
}

use std::io;
use std::path::PathBuf;

/// What can go wrong when starting or driving a PTY session.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("cannot open a pseudo-terminal: {0}")]
    OpenPty(String),
    #[error("cannot run {program:?}: {reason}")]
    Spawn { program: String, reason: String },
    #[error("working directory {path:?} is not usable: {source}")]
    WorkingDirectory { path: PathBuf, source: io::Error },
    #[error("{what}: {source}")]
    Io {
        what: &'static str,
        source: io::Error,
    },
    /// A size (of the grid, or of the read-ahead) beyond what the terminal can hold.
    #[error("invalid size: {0}")]
    InvalidSize(String),
}

impl Error {
    pub(crate) fn io(what: &'static str, source: io::Error) -> Self {
        Error::Io { what, source }
    }

    /// Whether the program could not be started at all (not found, not executable).
    pub fn is_spawn_failure(&self) -> bool {
        matches!(self, Error::Spawn { .. })
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

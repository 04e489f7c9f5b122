//! The command line.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use sluice_pty::WinSize;
use sluice_term::DumpFormat;

/// Sluice: a GPU-accelerated terminal emulator that is never the slow reader.
#[derive(Debug, Clone, Parser)]
#[command(name = "sluice", version, about)]
pub struct Cli {
    /// Run without a window: run the command through the whole pipeline, then print its final
    /// screen and exit with its exit status.
    #[arg(long)]
    pub headless: bool,

    /// Terminal size in cells, COLSxROWS (the window's initial size) [default: 80x24, or the
    /// configuration's window.columns and window.lines].
    #[arg(long, value_name = "COLSxROWS", value_parser = parse_size)]
    pub size: Option<(u16, u16)>,

    /// The window's title; programs cannot change it.
    #[arg(short = 'T', long, value_name = "TITLE")]
    pub title: Option<String>,

    /// The window's class: GENERAL, or GENERAL,INSTANCE (X11 WM_CLASS; Wayland app id).
    #[arg(long, value_name = "GENERAL[,INSTANCE]")]
    pub class: Option<String>,

    /// What to print at the end of a headless run.
    #[arg(long, value_name = "FORMAT", default_value = "text", value_parser = ["text", "ansi", "json"])]
    pub dump: String,

    /// Include the scrollback history in the dump, above the screen.
    #[arg(long)]
    pub scrollback: bool,

    /// Lines of scrollback history to keep [default: 10000, or the configuration's].
    #[arg(long, value_name = "LINES")]
    pub history: Option<usize>,

    /// Start the command in this directory (default: the current one).
    #[arg(long, value_name = "DIR")]
    pub working_directory: Option<PathBuf>,

    /// How far the reader may read ahead of the parser, in bytes. Past this the program
    /// writing to the terminal is made to wait (past 256 KiB while a flood has kept the
    /// parser behind for half a second in all: the screen stays fresh).
    /// K, M and G suffixes are allowed (powers of 1024), e.g. 1M.
    #[arg(long, value_name = "BYTES", value_parser = parse_read_ahead)]
    pub read_ahead: Option<usize>,

    /// Log more: -v info, -vv debug, -vvv trace (`SLUICE_LOG` wins).
    #[arg(short = 'v', long = "verbose", action = clap::ArgAction::Count, conflicts_with = "quiet")]
    pub verbose: u8,

    /// Log only errors.
    #[arg(short = 'q', long)]
    pub quiet: bool,

    /// After a headless run, print the pipeline's counters (bytes read and parsed, ring
    /// high-water mark, time the reader waited on a full ring) to stderr as JSON.
    #[arg(long)]
    pub stats: bool,

    /// After a headless run, also render the final screen (as `renderer.backend` chooses) and
    /// save it as a PNG.
    #[arg(long, value_name = "PATH")]
    pub screenshot: Option<PathBuf>,

    /// Font size in points, at 96 dpi 12 pt is 16 pixels [default: 12, or the configuration's].
    #[arg(long, value_name = "POINTS", value_parser = parse_font_size)]
    pub font_size: Option<f32>,

    /// Font family (default: the bundled DejaVu Sans Mono).
    #[arg(long, value_name = "NAME")]
    pub font_family: Option<String>,

    /// The configuration file [default: $XDG_CONFIG_HOME/sluice/sluice.toml, else the first
    /// sluice/sluice.toml of $XDG_CONFIG_DIRS].
    #[arg(long = "config-file", visible_alias = "config", value_name = "PATH")]
    pub config: Option<PathBuf>,

    /// Set a configuration option over the file, as KEY=VALUE with a TOML value (repeatable;
    /// applied again on every reload), e.g. -o font.size=14 -o 'links.opener="open"'.
    #[arg(short = 'o', long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,

    /// Print the whole default configuration, every option with its documentation, as TOML.
    #[arg(long)]
    pub print_config: bool,

    /// Print a completion script for this shell (e.g. `sluice --completions bash >
    /// ~/.local/share/bash-completion/completions/sluice`).
    #[arg(long, value_name = "SHELL")]
    pub completions: Option<clap_complete::Shell>,

    /// Print the manual page, in roff (e.g. `sluice --man > ~/.local/share/man/man1/sluice.1`).
    #[arg(long)]
    pub man: bool,

    /// Print the bundled colour themes (for `colors.theme`), with their authors and licences.
    #[arg(long)]
    pub list_themes: bool,

    /// Compute an FNV-1a digest of every byte parsed and include it in --stats (for tests).
    #[arg(long, hide = true)]
    pub digest: bool,

    /// Slow the parser to this many bytes per second (benchmarks of a parser that falls behind).
    #[arg(long, hide = true, value_name = "BYTES_PER_SEC")]
    pub debug_parse_rate: Option<u64>,

    /// Make the parser thread panic on the first output (tests of panic containment).
    #[arg(long, hide = true)]
    pub debug_parser_panic: bool,

    /// Make a window's key handling panic (tests of panic containment in the UI thread).
    #[arg(long, hide = true)]
    pub debug_window_panic: bool,

    /// Destroy the GPU device this many seconds after start (tests of its recovery).
    #[arg(long, hide = true, value_name = "SECONDS")]
    pub debug_lose_gpu_after: Option<f64>,

    /// Give translucent windows (`window.opacity` under 1) no alpha channel, so what they
    /// draw can be photographed where no compositor shows them (tests under Xvfb).
    #[arg(long, hide = true)]
    pub debug_opaque_visual: bool,

    /// Keep a pane open after its program exits, with a line saying how it ended.
    #[arg(long)]
    pub hold: bool,

    #[command(subcommand)]
    pub subcommand: Option<Subcommands>,

    /// The program to run and its arguments (default: your shell).
    #[arg(short = 'e', long = "command", value_name = "COMMAND", num_args = 1.., trailing_var_arg = true, allow_hyphen_values = true)]
    pub command: Option<Vec<OsString>>,
}

#[derive(Debug, Clone, Subcommand)]
pub enum Subcommands {
    /// Control a running Sluice: open windows, tabs and splits, list them, send text.
    Msg(MsgArgs),
}

#[derive(Debug, Clone, Args)]
pub struct MsgArgs {
    /// The instance's socket [default: $SLUICE_SOCKET inside Sluice, else the newest
    /// instance on this display].
    #[arg(long, value_name = "PATH")]
    pub socket: Option<PathBuf>,

    #[command(subcommand)]
    pub request: MsgRequest,
}

/// What to run in a new window, tab or split.
#[derive(Debug, Clone, Args)]
pub struct SpawnArgs {
    /// Start in this directory [default: the focused pane's].
    #[arg(long, value_name = "DIR")]
    pub working_directory: Option<PathBuf>,

    /// The program to run and its arguments [default: your shell].
    #[arg(short = 'e', long = "command", value_name = "COMMAND", num_args = 1.., trailing_var_arg = true, allow_hyphen_values = true)]
    pub command: Option<Vec<String>>,
}

impl SpawnArgs {
    fn request(&self) -> crate::ipc::SpawnRequest {
        crate::ipc::SpawnRequest {
            // The server's directory is not the client's: send an absolute path.
            working_directory: self
                .working_directory
                .as_ref()
                .map(|d| std::path::absolute(d).unwrap_or_else(|_| d.clone())),
            command: self.command.clone(),
        }
    }
}

#[derive(Debug, Clone, Subcommand)]
pub enum MsgRequest {
    /// Open a window.
    CreateWindow(SpawnArgs),
    /// Open a tab in the focused window.
    CreateTab(SpawnArgs),
    /// Split a pane in two.
    Split {
        #[arg(long, value_enum, default_value = "right")]
        direction: crate::window::layout::SplitDirection,
        /// The pane to split [default: the focused one].
        #[arg(long, value_name = "ID")]
        pane: Option<u64>,
        #[command(flatten)]
        spawn: SpawnArgs,
    },
    /// Print every window, tab and pane as JSON.
    List,
    /// Send text to a pane's program, as if typed.
    SendText {
        /// The pane [default: the focused one].
        #[arg(long, value_name = "ID")]
        pane: Option<u64>,
        text: String,
    },
    /// Print a pane's text (the screen, or with --scrollback all of it), e.g. to save it.
    GetText {
        /// The pane [default: the focused one].
        #[arg(long, value_name = "ID")]
        pane: Option<u64>,
        /// The whole scrollback, not only the screen.
        #[arg(long)]
        scrollback: bool,
        /// With colours and attributes, as escape sequences.
        #[arg(long)]
        ansi: bool,
    },
    /// Give a pane the keyboard (and raise its window).
    Focus {
        #[arg(long, value_name = "ID")]
        pane: u64,
    },
    /// Close a pane; its program is hung up on.
    Close {
        #[arg(long, value_name = "ID")]
        pane: u64,
    },
}

impl MsgRequest {
    pub fn request(&self) -> crate::ipc::Request {
        use crate::ipc::Request;
        match self {
            MsgRequest::CreateWindow(spawn) => Request::CreateWindow {
                spawn: spawn.request(),
            },
            MsgRequest::CreateTab(spawn) => Request::CreateTab {
                spawn: spawn.request(),
            },
            MsgRequest::Split {
                direction,
                pane,
                spawn,
            } => Request::Split {
                direction: *direction,
                pane: *pane,
                spawn: spawn.request(),
            },
            MsgRequest::List => Request::List,
            MsgRequest::SendText { pane, text } => Request::SendText {
                pane: *pane,
                text: text.clone(),
            },
            MsgRequest::GetText {
                pane,
                scrollback,
                ansi,
            } => Request::GetText {
                pane: *pane,
                scrollback: *scrollback,
                ansi: *ansi,
            },
            MsgRequest::Focus { pane } => Request::Focus { pane: *pane },
            MsgRequest::Close { pane } => Request::Close { pane: *pane },
        }
    }
}

impl Cli {
    /// The configuration with the command line's options applied over it.
    pub fn apply_to(&self, config: &mut crate::config::Config) {
        if let Some(size) = self.font_size {
            config.font.size = size;
        }
        if let Some(family) = &self.font_family {
            config.font.family = Some(family.clone());
        }
        if let Some(history) = self.history {
            config.scrolling.history = history;
        }
        if let Some(bytes) = self.read_ahead {
            config.terminal.read_ahead = bytes.to_string();
        }
        if let Some(dir) = &self.working_directory {
            config.terminal.working_directory = Some(dir.to_string_lossy().into_owned());
        }
        if let Some((cols, rows)) = self.size {
            (config.window.columns, config.window.lines) = (cols, rows);
        }
        if let Some(title) = &self.title {
            config.window.title = title.clone();
            config.window.dynamic_title = false;
        }
        if let Some(class) = self.class.as_ref().filter(|c| !c.trim().is_empty()) {
            config.window.class = class.clone();
        }
    }

    pub fn dump_format(&self) -> DumpFormat {
        self.dump.parse().expect("clap only accepts known formats")
    }
}

fn parse_read_ahead(s: &str) -> Result<usize, String> {
    let bytes = sluice_pty::parse_bytes(s)?;
    if bytes > sluice_pty::max_read_ahead() {
        return Err(sluice_pty::read_ahead_too_large(bytes));
    }
    usize::try_from(bytes).map_err(|_| format!("{s:?} is too large"))
}

fn parse_font_size(s: &str) -> Result<f32, String> {
    match s.parse::<f32>() {
        Ok(size) if crate::config::FONT_SIZES.contains(&size) => Ok(size),
        _ => Err(format!(
            "{s:?} is not a font size from {} to {} points",
            crate::config::FONT_SIZES.start(),
            crate::config::FONT_SIZES.end()
        )),
    }
}

/// Parses `COLSxROWS`, e.g. `120x40`.
fn parse_size(s: &str) -> Result<(u16, u16), String> {
    let (cols, rows) = s
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("{s:?} is not COLSxROWS (for example 120x40)"))?;
    let parse = |v: &str, what: &str| -> Result<u16, String> {
        v.trim()
            .parse::<u16>()
            .map_err(|_| format!("{what} {v:?} is not a number"))
    };
    let (cols, rows) = (parse(cols, "columns")?, parse(rows, "rows")?);
    WinSize::check(cols.into(), rows.into())?;
    Ok((cols, rows))
}

#[cfg(test)]
mod tests {
    use super::parse_size;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("120x40"), Ok((120, 40)));
        assert_eq!(parse_size("80X24"), Ok((80, 24)));
        assert!(parse_size("0x10").is_err());
        assert!(parse_size("80").is_err());
        assert!(parse_size("80x-1").is_err());
        assert!(parse_size("99999x10").is_err());
        // A wide character in one column panicked alacritty_terminal; 65535x65535 aborted on
        // allocation. Both are refused with the limits in the message.
        assert_eq!(
            parse_size("1x1"),
            Err("1 columns: the terminal has 2 to 2048".into())
        );
        assert!(parse_size("65535x65535").is_err());
        assert_eq!(parse_size("2048x1024"), Ok((2048, 1024)));
    }

    #[test]
    fn read_ahead_takes_suffixes_and_defaults_to_the_ring_default() {
        use clap::Parser as _;
        assert_eq!(super::parse_read_ahead("1M"), Ok(1 << 20));
        assert!(super::parse_read_ahead("lots").is_err());
        let err = super::parse_read_ahead("100000G").unwrap_err();
        assert!(
            err.contains("more than half of this machine's memory"),
            "{err}"
        );
        let cli = super::Cli::parse_from(["sluice"]);
        assert_eq!(cli.read_ahead, None);
        let mut config = crate::config::Config::default();
        assert_eq!(config.read_ahead(), sluice_pty::DEFAULT_READ_AHEAD);
        super::Cli::parse_from(["sluice", "--read-ahead", "1M"]).apply_to(&mut config);
        assert_eq!(config.read_ahead(), 1 << 20);
    }
}

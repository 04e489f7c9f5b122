//! The configuration file: `$XDG_CONFIG_HOME/sluice/sluice.toml` (or `~/.config/...`), or
//! the file given with `--config`. Every option has a default, so the file is optional and
//! may hold only what a user wants to change; see `docs/configuration.md` for all of them.
//!
//! A value of the wrong type or out of range keeps its default and is reported (on stderr
//! and in the log), as is an unknown option. Command-line options win over the file. The
//! window reloads the file when it changes ([`watch`]).

mod reader;
mod watch;

use std::path::{Path, PathBuf};

use reader::{Reader, any, within};
pub use watch::{ConfigWatcher, watch};

/// Everything the file can set.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// Font family; `None` is the bundled DejaVu Sans Mono.
    pub font_family: Option<String>,
    /// Font size in points.
    pub font_size: f32,
    /// Lines of history kept above the screen.
    pub history: usize,
    /// Characters that end a word for double-click selection.
    pub word_separators: String,
    /// Whether OSC 52 may read the clipboard.
    pub osc52_read: bool,
    /// Whether OSC 52 may write the clipboard.
    pub osc52_write: bool,
    /// When to ask before pasting.
    pub paste_confirm: ConfirmPaste,
    /// Whether ^S/^Q pause and resume output (IXON). Off: ^S reaches the program.
    pub flow_control: bool,
    /// URL schemes that Ctrl+click opens.
    pub link_schemes: Vec<String>,
    /// The program that opens links (given the URL as its one argument).
    pub link_opener: String,
    /// Flash the window on BEL.
    pub visual_bell: bool,
    /// Seconds after the last key press at which the cursor stops blinking.
    pub blink_timeout_s: f64,
    /// Show the metrics overlay from the start.
    pub metrics_overlay: bool,
    /// When the tab bar is shown.
    pub tab_bar: TabBar,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            font_family: None,
            font_size: 12.0,
            history: 10_000,
            word_separators: sluice_term::DEFAULT_WORD_SEPARATORS.to_owned(),
            osc52_read: false,
            // Programs copying to the clipboard (tmux, vim over ssh) is what OSC 52 is for;
            // each write is at most what one OSC string holds (768 KiB of text).
            osc52_write: true,
            paste_confirm: ConfirmPaste::IfUnsafe,
            flow_control: false,
            // `file:` is left out: a file link opened by the desktop's opener can run a
            // program (a .desktop file), and a program's output should not be able to do that
            // with one click.
            link_schemes: ["http", "https", "mailto", "ftp", "gemini", "gopher"]
                .map(String::from)
                .to_vec(),
            link_opener: "xdg-open".to_owned(),
            visual_bell: true,
            // Alacritty's and kitty's choice: long enough not to be noticed while working.
            blink_timeout_s: 5.0,
            metrics_overlay: false,
            tab_bar: TabBar::Auto,
        }
    }
}

/// When the tab bar is shown (`window.tab_bar`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TabBar {
    /// While the window has two or more tabs (kitty's, Ghostty's and WezTerm's default: a
    /// window with one tab looks like any terminal).
    #[default]
    Auto,
    Always,
    Never,
}

impl TabBar {
    pub fn shown(self, tabs: usize) -> bool {
        match self {
            TabBar::Auto => tabs >= 2,
            TabBar::Always => true,
            TabBar::Never => false,
        }
    }
}

/// When to ask before pasting (`paste.confirm`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ConfirmPaste {
    /// Before every paste.
    Always,
    /// Before a paste with a line break or a control character that the program did not ask
    /// to receive as a bracketed paste.
    #[default]
    IfUnsafe,
    /// Never.
    Never,
}

impl ConfirmPaste {
    /// Whether to ask before pasting `text` into a program with `bracketed` paste on or off.
    pub fn asks(self, text: &str, bracketed: bool) -> bool {
        match self {
            ConfirmPaste::Always => true,
            ConfirmPaste::IfUnsafe => !bracketed && sluice_term::input::is_unsafe_paste(text),
            ConfirmPaste::Never => false,
        }
    }
}

impl Config {
    /// The terminal's options this configuration sets (history, selection, OSC 52); the rest
    /// are the terminal's defaults.
    pub fn terminal_options(&self) -> sluice_term::TerminalOptions {
        sluice_term::TerminalOptions {
            scrollback: self.history,
            word_separators: self.word_separators.clone(),
            osc52_read: self.osc52_read,
            osc52_write: self.osc52_write,
            ..sluice_term::TerminalOptions::default()
        }
    }
}

/// A loaded configuration and what was wrong with the file.
#[derive(Debug)]
pub struct Loaded {
    pub config: Config,
    pub path: Option<PathBuf>,
    pub problems: Vec<String>,
}

impl Loaded {
    /// Reports what was wrong with the file, on stderr and in the log.
    pub fn report(&self) {
        let file = self.path.as_deref().unwrap_or(Path::new("configuration"));
        for problem in &self.problems {
            eprintln!("sluice: {}: {problem}", file.display());
            tracing::warn!(file = %file.display(), "{problem}");
        }
    }
}

/// The file to read and watch: `explicit`, else the default path.
pub fn path(explicit: Option<&Path>) -> Option<PathBuf> {
    explicit.map(Path::to_path_buf).or_else(default_path)
}

/// Where the file is looked for when `--config` is not given.
pub fn default_path() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))?;
    Some(base.join("sluice").join("sluice.toml"))
}

/// Loads `explicit`, or the default file if it exists. A missing default file is not a
/// problem; a missing explicit one, or one that is not valid TOML, is reported and the
/// defaults are used.
pub fn load(explicit: Option<&Path>) -> Loaded {
    let path = path(explicit);
    let mut loaded = Loaded {
        config: Config::default(),
        path: path.clone(),
        problems: Vec::new(),
    };
    let Some(path) = path else {
        return loaded;
    };
    let text = match read_file(&path) {
        Ok(text) => text,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound && explicit.is_none() => {
            loaded.path = None;
            return loaded;
        }
        Err(err) => {
            loaded
                .problems
                .push(format!("cannot read {}: {err}", path.display()));
            return loaded;
        }
    };
    let (config, problems) = parse(&text);
    loaded.config = config;
    loaded.problems = problems;
    loaded
}

/// The largest configuration file read. A real one is a few KiB; without a cap, a path that
/// named /dev/zero read until memory ran out.
pub const MAX_FILE_BYTES: u64 = 1 << 20;

/// Reads the configuration file: only a regular file (a FIFO would block start-up forever, a
/// device could be endless) of at most [`MAX_FILE_BYTES`].
fn read_file(path: &Path) -> std::io::Result<String> {
    use std::io::{Error, ErrorKind, Read};
    // Following links, as opening it would; stat does not block on a FIFO, open would.
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        let what = if meta.is_dir() {
            "a directory"
        } else {
            "not a regular file"
        };
        return Err(Error::new(ErrorKind::InvalidInput, what));
    }
    let mut text = String::new();
    std::fs::File::open(path)?
        .take(MAX_FILE_BYTES + 1)
        .read_to_string(&mut text)?;
    if text.len() as u64 > MAX_FILE_BYTES {
        return Err(Error::new(
            ErrorKind::InvalidData,
            format!("larger than {} KiB", MAX_FILE_BYTES >> 10),
        ));
    }
    Ok(text)
}

/// Parses a file's text; returns the configuration and the problems found.
pub fn parse(text: &str) -> (Config, Vec<String>) {
    let mut config = Config::default();
    let table = match text.parse::<toml::Table>() {
        Ok(table) => table,
        Err(err) => {
            let why = err.to_string().trim().replace('\n', " ");
            return (
                config,
                vec![format!("not valid TOML, using defaults: {why}")],
            );
        }
    };
    let mut r = Reader::new(table);
    let c = &mut config;
    let mut family = String::new();
    r.read("font.family", &mut family, |f| {
        if f.trim().is_empty() {
            Err("empty family name".into())
        } else {
            Ok(())
        }
    });
    c.font_family = (!family.is_empty()).then_some(family);
    r.read("font.size", &mut c.font_size, within(3.0..=200.0));
    r.read("scrolling.history", &mut c.history, within(0..=1_000_000));
    r.read("selection.word_separators", &mut c.word_separators, any);
    r.read("terminal.osc52_read", &mut c.osc52_read, any);
    r.read("terminal.osc52_write", &mut c.osc52_write, any);
    r.read("paste.confirm", &mut c.paste_confirm, any);
    r.read("terminal.flow_control", &mut c.flow_control, any);
    r.read("links.schemes", &mut c.link_schemes, any);
    r.read("links.opener", &mut c.link_opener, |o: &String| {
        if o.trim().is_empty() {
            Err("empty command".into())
        } else {
            Ok(())
        }
    });
    r.read("bell.visual", &mut c.visual_bell, any);
    r.read(
        "cursor.blink_timeout",
        &mut c.blink_timeout_s,
        within(0.0..=3600.0),
    );
    r.read("metrics.overlay", &mut c.metrics_overlay, any);
    r.read("window.tab_bar", &mut c.tab_bar, any);
    r.report_unknown();
    (config, r.problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_read_and_bad_ones_keep_their_defaults() {
        let (config, problems) = parse(
            r#"
            [font]
            size = 14.5
            family = "Noto Sans Mono"
            [scrolling]
            history = "lots"
            [links]
            schemes = ["https"]
            [cursor]
            blink_timeout = -3
            [bell]
            visul = false
            [paste]
            confirm = "always"
            "#,
        );
        assert_eq!(config.font_size, 14.5);
        assert_eq!(config.font_family.as_deref(), Some("Noto Sans Mono"));
        assert_eq!(config.link_schemes, ["https"]);
        assert_eq!(config.paste_confirm, ConfirmPaste::Always);
        assert_eq!(config.history, 10_000, "wrong type keeps the default");
        assert_eq!(
            config.blink_timeout_s, 5.0,
            "out of range keeps the default"
        );
        assert_eq!(problems.len(), 3, "{problems:?}");
        assert!(
            problems[0].starts_with("scrolling.history:"),
            "{problems:?}"
        );
        assert!(problems[1].starts_with("cursor.blink_timeout: -3 is not"));
        assert_eq!(problems[2], "bell.visul: unknown option, ignored");
    }

    #[test]
    fn a_broken_file_gives_the_defaults_and_says_why() {
        let (config, problems) = parse("[font\nsize = 3");
        assert_eq!(config, Config::default());
        assert_eq!(problems.len(), 1);
        assert!(problems[0].starts_with("not valid TOML"), "{problems:?}");
    }

    #[test]
    fn only_regular_files_of_bounded_size_are_read() {
        let dir = std::env::temp_dir().join(format!("sluice-config-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let problem = |path: &Path| {
            let loaded = load(Some(path));
            assert_eq!(loaded.config, Config::default());
            assert_eq!(loaded.problems.len(), 1, "{:?}", loaded.problems);
            loaded.problems[0].clone()
        };
        assert!(problem(Path::new("/dev/zero")).contains("not a regular file"));
        assert!(problem(&dir).contains("a directory"));
        let fifo = dir.join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.unwrap().success());
        assert!(
            problem(&fifo).contains("not a regular file"),
            "a FIFO never blocks"
        );
        let big = dir.join("big.toml");
        std::fs::write(&big, "#".repeat(MAX_FILE_BYTES as usize + 1)).unwrap();
        assert!(problem(&big).contains("larger than 1024 KiB"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_policy_asks_only_when_it_should() {
        let cases = [
            (ConfirmPaste::IfUnsafe, "ls -la", false, false),
            (ConfirmPaste::IfUnsafe, "rm -rf ~\n", false, true),
            (ConfirmPaste::IfUnsafe, "a\x03b", false, true),
            (ConfirmPaste::IfUnsafe, "rm -rf ~\n", true, false),
            (ConfirmPaste::Always, "ls", true, true),
            (ConfirmPaste::Never, "rm -rf ~\n", false, false),
        ];
        for (policy, text, bracketed, asks) in cases {
            assert_eq!(policy.asks(text, bracketed), asks, "{policy:?} {text:?}");
        }
    }

    #[test]
    fn an_empty_file_is_the_defaults() {
        assert_eq!(parse(""), (Config::default(), vec![]));
    }
}

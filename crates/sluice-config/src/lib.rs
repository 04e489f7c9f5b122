//! The configuration file: `$XDG_CONFIG_HOME/sluice/sluice.toml` (or `~/.config/...`), else
//! the first `sluice/sluice.toml` of `$XDG_CONFIG_DIRS` (`/etc/xdg`), or the file given with
//! `--config-file`. Every option has a default, so the file is optional and may hold only
//! what a user wants to change. The options are defined once, in `options.rs`; `sluice
//! --print-config` and docs/configuration.md come from that definition.
//!
//! A value of the wrong type or out of range keeps its default and is reported (on stderr
//! and in the log), as is an unknown option. `import = [paths]` merges other files under this
//! one; `-o KEY=VALUE` options go over everything. The window reloads the file when it
//! changes ([`fn@watch`]); a file that no longer parses keeps the configuration running.

/// Font sizes in points that Sluice accepts, from the file, `--font-size` or Ctrl+=/Ctrl+-.
pub const FONT_SIZES: std::ops::RangeInclusive<f32> = 3.0..=200.0;

pub mod hints;
mod options;
mod reader;
pub mod themes;
mod watch;

use std::path::{Path, PathBuf};

pub use options::{Config, Notifications, OptionDoc};
use reader::Reader;
pub use watch::{ConfigWatcher, watch};

/// A colour in the file: "#rrggbb".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HexColor(pub sluice_term::Rgb);

impl HexColor {
    pub const fn from_hex(v: u32) -> Self {
        HexColor(sluice_term::Rgb {
            r: (v >> 16) as u8,
            g: (v >> 8) as u8,
            b: v as u8,
        })
    }
}

impl<'de> serde::Deserialize<'de> for HexColor {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        let hex = text
            .strip_prefix('#')
            .filter(|h| h.len() == 6 && h.bytes().all(|b| b.is_ascii_hexdigit()))
            .ok_or_else(|| {
                serde::de::Error::custom(format!("{text:?} is not a colour \"#rrggbb\""))
            })?;
        let v = u32::from_str_radix(hex, 16).expect("six hex digits");
        Ok(HexColor(rgb(v)))
    }
}

impl serde::Serialize for HexColor {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let c = self.0;
        s.serialize_str(&format!("#{:02x}{:02x}{:02x}", c.r, c.g, c.b))
    }
}

fn rgb(v: u32) -> sluice_term::Rgb {
    sluice_term::Rgb {
        r: (v >> 16) as u8,
        g: (v >> 8) as u8,
        b: v as u8,
    }
}

/// One entry of `keyboard.bindings`: a key with modifiers, what it does, and in which modes.
/// Exactly one of `action`, `chars` and `command`. Checked here for its shape; the key, the
/// modifiers, the action's name and the modes are resolved (and reported) by the window.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct BindingSpec {
    /// A character ("t", "=", "1") or a key's name ("Enter", "PageUp", "F5", "ArrowLeft").
    pub key: String,
    /// "Control|Shift", "Alt", "Super", … or nothing.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub mods: String,
    /// One of the actions (docs/configuration.md), or "None" to unbind a default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
    /// Text sent to the program, as if typed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chars: Option<String>,
    /// A program and its arguments, started and left to run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<Vec<String>>,
    /// Where the binding applies: "AltScreen", "AppCursor", "AppKeypad", "Search", each
    /// negated with "~", several joined with "|"; everywhere if empty.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub mode: String,
}

/// The default key bindings, as (key, mods, action): what users bring from Alacritty, kitty,
/// Ghostty and GNOME Terminal (the reasons are in the window's bindings module). Listed by
/// `sluice --print-config`; `keyboard.bindings` goes over them.
pub const DEFAULT_BINDINGS: &[(&str, &str, &str)] = &[
    ("c", "Control|Shift", "Copy"),
    ("v", "Control|Shift", "Paste"),
    ("Insert", "Shift", "PasteSelection"),
    ("f", "Control|Shift", "Search"),
    ("m", "Control|Shift", "ToggleMetricsOverlay"),
    ("ScrollLock", "", "ToggleFreeze"),
    ("PageUp", "Shift", "ScrollPageUp"),
    ("PageDown", "Shift", "ScrollPageDown"),
    ("Home", "Shift", "ScrollToTop"),
    ("End", "Shift", "ScrollToBottom"),
    ("ArrowUp", "Control|Shift", "ScrollLineUp"),
    ("ArrowDown", "Control|Shift", "ScrollLineDown"),
    ("=", "Control", "IncreaseFontSize"),
    ("=", "Control|Shift", "IncreaseFontSize"),
    ("+", "Control", "IncreaseFontSize"),
    ("+", "Control|Shift", "IncreaseFontSize"),
    ("-", "Control", "DecreaseFontSize"),
    ("0", "Control", "ResetFontSize"),
    ("n", "Control|Shift", "CreateNewWindow"),
    ("t", "Control|Shift", "CreateNewTab"),
    ("w", "Control|Shift", "ClosePane"),
    ("Tab", "Control", "SelectNextTab"),
    ("PageDown", "Control", "SelectNextTab"),
    ("Tab", "Control|Shift", "SelectPreviousTab"),
    ("PageUp", "Control", "SelectPreviousTab"),
    ("1", "Alt", "SelectTab1"),
    ("2", "Alt", "SelectTab2"),
    ("3", "Alt", "SelectTab3"),
    ("4", "Alt", "SelectTab4"),
    ("5", "Alt", "SelectTab5"),
    ("6", "Alt", "SelectTab6"),
    ("7", "Alt", "SelectTab7"),
    ("8", "Alt", "SelectTab8"),
    ("9", "Alt", "SelectTab9"),
    ("d", "Control|Shift", "SplitRight"),
    ("e", "Control|Shift", "SplitDown"),
    ("ArrowLeft", "Control|Alt", "FocusLeft"),
    ("ArrowRight", "Control|Alt", "FocusRight"),
    ("ArrowUp", "Control|Alt", "FocusUp"),
    ("ArrowDown", "Control|Alt", "FocusDown"),
    ("ArrowLeft", "Control|Alt|Shift", "ResizeLeft"),
    ("ArrowRight", "Control|Alt|Shift", "ResizeRight"),
    ("ArrowUp", "Control|Alt|Shift", "ResizeUp"),
    ("ArrowDown", "Control|Alt|Shift", "ResizeDown"),
    ("Enter", "Control|Shift", "ToggleZoom"),
    ("z", "Control|Shift", "ScrollToPreviousPrompt"),
    ("x", "Control|Shift", "ScrollToNextPrompt"),
    ("g", "Control|Shift", "CopyLastCommandOutput"),
    ("h", "Control|Shift", "ShowScrollback"),
    ("Space", "Control|Shift", "ToggleViMode"),
];

/// A list of bindings as read: the entries that make sense, and why the others were dropped
/// (one bad binding costs only itself). `keyboard.bindings` and `mouse.bindings`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecList<T> {
    pub specs: Vec<T>,
    pub problems: Vec<String>,
}

impl<T> Default for SpecList<T> {
    fn default() -> Self {
        SpecList {
            specs: Vec::new(),
            problems: Vec::new(),
        }
    }
}

/// An entry of a [`SpecList`]: where the list is, and what makes an entry sensible.
pub trait Spec: serde::de::DeserializeOwned + serde::Serialize {
    const PATH: &'static str;
    fn check(&self) -> Result<(), String>;
}

impl<'de, T: Spec> serde::Deserialize<'de> for SpecList<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let entries = Vec::<toml::Value>::deserialize(d)?;
        let (specs, problems) = lenient_list(entries, T::PATH, T::check);
        Ok(SpecList { specs, problems })
    }
}

impl<T: Spec> serde::Serialize for SpecList<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.specs.serialize(s)
    }
}

/// `keyboard.bindings`.
pub type BindingList = SpecList<BindingSpec>;
/// `mouse.bindings`.
pub type MouseBindingList = SpecList<MouseBindingSpec>;

/// The entries of a list option that parse and pass `check`, and a problem (with its
/// `path[i]`) for each one dropped: one bad entry costs only itself.
pub(crate) fn lenient_list<T: serde::de::DeserializeOwned>(
    entries: Vec<toml::Value>,
    path: &str,
    check: impl Fn(&T) -> Result<(), String>,
) -> (Vec<T>, Vec<String>) {
    let mut kept = Vec::new();
    let mut problems = Vec::new();
    for (i, entry) in entries.into_iter().enumerate() {
        let entry = entry
            .try_into::<T>()
            .map_err(|e| e.to_string().trim().to_owned())
            .and_then(|entry| check(&entry).map(|()| entry));
        match entry {
            Ok(entry) => kept.push(entry),
            Err(why) => problems.push(format!("{path}[{i}]: {why}; ignored")),
        }
    }
    (kept, problems)
}

/// Exactly one of a binding's `action`, `chars` and `command`.
fn one_target(
    what: &str,
    action: &Option<String>,
    chars: &Option<String>,
    command: &Option<Vec<String>>,
) -> Result<(), String> {
    let targets = [
        action.is_some(),
        chars.is_some(),
        command.as_ref().is_some_and(|c| !c.is_empty()),
    ];
    match targets.iter().filter(|&&t| t).count() {
        1 => Ok(()),
        0 => Err(format!("{what:?} has no action, chars or command")),
        _ => Err(format!(
            "{what:?} has more than one of action, chars and command"
        )),
    }
}

/// The mouse buttons' defaults: the middle button pastes the primary selection, as on every
/// X11 terminal.
pub const DEFAULT_MOUSE_BINDINGS: &[(&str, &str, &str)] = &[("Middle", "", "PasteSelection")];

/// One entry of `mouse.bindings`: a button ("Left", "Right", "Middle", "Back", "Forward") with
/// modifiers, and what it does (one of `action`, `chars`, `command`, as for keys). It applies
/// where the program does not take the mouse (or with Shift held).
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct MouseBindingSpec {
    pub mouse: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub mods: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chars: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<Vec<String>>,
}

impl Spec for BindingSpec {
    const PATH: &'static str = "keyboard.bindings";
    fn check(&self) -> Result<(), String> {
        one_target(&self.key, &self.action, &self.chars, &self.command)
    }
}

impl Spec for MouseBindingSpec {
    const PATH: &'static str = "mouse.bindings";
    fn check(&self) -> Result<(), String> {
        one_target(&self.mouse, &self.action, &self.chars, &self.command)
    }
}

/// The cursor's shape until a program sets one (`cursor.shape`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CursorShape {
    #[default]
    Block,
    Underline,
    Beam,
}

/// Whether the cursor blinks (`cursor.blinking`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Blinking {
    /// Never, whatever programs ask.
    Never,
    /// Not until a program asks (DECSCUSR, mode 12).
    #[default]
    Off,
    /// Blinking until a program asks otherwise.
    On,
    /// Always, whatever programs ask.
    Always,
}

impl Blinking {
    /// Whether a cursor blinks, given what the program asked for.
    pub fn applies(self, asked: bool) -> bool {
        match self {
            Blinking::Never => false,
            Blinking::Off | Blinking::On => asked,
            Blinking::Always => true,
        }
    }
}

/// The desktop's frame around windows (`window.decorations`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Decorations {
    #[default]
    Full,
    None,
}

/// How the first window opens (`window.startup_mode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum StartupMode {
    #[default]
    Windowed,
    Maximized,
    Fullscreen,
}

/// When the tab bar is shown (`window.tab_bar`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize, serde::Serialize)]
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

/// Where frames are drawn (`renderer.backend`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RendererBackend {
    /// The GPU where the machine has one; the software renderer where it has no GPU device
    /// node, or where the only adapter found is itself software (lavapipe, llvmpipe), or
    /// none works. Translucent windows (`window.opacity` under 1) are drawn by the GPU
    /// backend, which alone can show them.
    #[default]
    Auto,
    Gpu,
    Software,
}

/// A font style name as fontconfig and font menus write them ("Medium", "SemiBold Italic",
/// "Light", "Bold Oblique"): its weight (100 to 900) and whether it slants.
pub fn font_style(name: &str) -> Result<(u16, bool), String> {
    let mut weight = None;
    let mut italic = false;
    let words = name.to_ascii_lowercase();
    let words = words.split_whitespace().collect::<Vec<_>>().join("");
    let mut rest = words.as_str();
    for slant in ["italic", "oblique"] {
        if let Some(stripped) = rest.strip_suffix(slant) {
            italic = true;
            rest = stripped;
        }
    }
    const WEIGHTS: &[(&str, u16)] = &[
        ("thin", 100),
        ("hairline", 100),
        ("extralight", 200),
        ("ultralight", 200),
        ("light", 300),
        ("regular", 400),
        ("normal", 400),
        ("book", 400),
        ("medium", 500),
        ("semibold", 600),
        ("demibold", 600),
        ("bold", 700),
        ("extrabold", 800),
        ("ultrabold", 800),
        ("black", 900),
        ("heavy", 900),
    ];
    if !rest.is_empty() {
        weight = WEIGHTS.iter().find(|(w, _)| *w == rest).map(|&(_, w)| w);
        if weight.is_none() {
            return Err(format!(
                "no style {name:?}: a weight (Thin, Light, Regular, Medium, SemiBold, Bold,                  ExtraBold, Black) and/or Italic"
            ));
        }
    }
    Ok((weight.unwrap_or(400), italic))
}

/// When a program's desktop notification is shown (`notifications.when`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum NotifyWhen {
    Always,
    /// While the pane is not the focused pane of a focused window.
    #[default]
    Unfocused,
    Never,
}

impl NotifyWhen {
    /// Whether to show a notification from a pane that has (`focused`) the user's eyes or not.
    pub fn shows(self, focused: bool) -> bool {
        match self {
            NotifyWhen::Always => true,
            NotifyWhen::Unfocused => !focused,
            NotifyWhen::Never => false,
        }
    }
}

/// When to ask before pasting (`paste.confirm`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize, serde::Serialize)]
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
            scrollback: self.scrolling.history,
            word_separators: self.selection.word_separators.clone(),
            osc52_read: self.terminal.osc52_read,
            osc52_write: self.terminal.osc52_write,
            palette: self.palette(),
            cursor_shape: match self.cursor.shape {
                CursorShape::Block => sluice_term::CursorShape::Block,
                CursorShape::Underline => sluice_term::CursorShape::Underline,
                CursorShape::Beam => sluice_term::CursorShape::Beam,
            },
            cursor_blinking: matches!(self.cursor.blinking, Blinking::On | Blinking::Always),
            ..sluice_term::TerminalOptions::default()
        }
    }

    /// What a pane runs when no command is given: `terminal.shell`, else `None` (the user's
    /// shell).
    pub fn shell(&self) -> Option<Vec<std::ffi::OsString>> {
        if !self.terminal.shell.is_empty() {
            return Some(self.terminal.shell.iter().map(Into::into).collect());
        }
        self.terminal
            .login_shell
            .then(|| vec![sluice_pty::default_shell().into(), "-l".into()])
    }

    /// `terminal.env` as the PTY takes it.
    pub fn env(&self) -> Vec<(std::ffi::OsString, std::ffi::OsString)> {
        self.terminal
            .env
            .iter()
            .map(|(k, v)| (k.into(), v.into()))
            .collect()
    }

    /// `terminal.read_ahead` in bytes (checked when read: a bad value kept the default).
    pub fn read_ahead(&self) -> usize {
        sluice_pty::parse_bytes(&self.terminal.read_ahead)
            .ok()
            .and_then(|b| usize::try_from(b).ok())
            .unwrap_or(sluice_pty::DEFAULT_READ_AHEAD)
    }

    /// The colours: the theme's, with the configured ones over them.
    pub fn palette(&self) -> sluice_term::Palette {
        let theme = themes::choose(&self.colors.theme, themes::prefers_light())
            .or_else(|| themes::find(themes::DEFAULT_THEME))
            .expect("the default theme is bundled");
        let n = &self.colors_normal;
        let b = &self.colors_bright;
        let normal = [
            n.black, n.red, n.green, n.yellow, n.blue, n.magenta, n.cyan, n.white,
        ];
        let bright = [
            b.black, b.red, b.green, b.yellow, b.blue, b.magenta, b.cyan, b.white,
        ];
        let mut ansi = [sluice_term::Rgb::default(); 16];
        for i in 0..8 {
            ansi[i] = normal[i].map_or(rgb(theme.normal[i]), |c| c.0);
            ansi[8 + i] = bright[i].map_or(rgb(theme.bright[i]), |c| c.0);
        }
        let pick = |set: Option<HexColor>, theme: u32| set.map_or(rgb(theme), |c| c.0);
        let foreground = pick(self.colors.foreground, theme.foreground);
        let mut palette = sluice_term::Palette::with_colors(
            ansi,
            foreground,
            pick(self.colors.background, theme.background),
        );
        palette.set_cursor(pick(self.colors.cursor, theme.cursor));
        if let Some(c) = self.colors.dim_foreground {
            palette.set_dim_foreground(c.0);
        }
        if let Some(c) = self.colors.bright_foreground {
            palette.set_bright_foreground(c.0);
        }
        for (index, color) in &self.colors.indexed {
            if let Ok(i @ 16..=255) = index.parse::<usize>() {
                palette.set(i, color.0);
            }
        }
        palette
    }
}

/// A loaded configuration and what was wrong with the file.
#[derive(Debug)]
pub struct Loaded {
    pub config: Config,
    pub path: Option<PathBuf>,
    pub problems: Vec<String>,
    /// False when the file was not valid TOML: a running Sluice keeps what it has.
    pub parsed: bool,
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

/// The file to read and watch: `explicit`, else the first default that exists, else the
/// user's own (`$XDG_CONFIG_HOME/sluice/sluice.toml`), to watch for its creation.
pub fn path(explicit: Option<&Path>) -> Option<PathBuf> {
    if let Some(path) = explicit {
        return Some(path.to_path_buf());
    }
    let candidates = default_paths();
    candidates
        .iter()
        .find(|p| p.exists())
        .or(candidates.first())
        .cloned()
}

/// Where the file is looked for when `--config-file` is not given, in order: the user's
/// (`$XDG_CONFIG_HOME`, else `~/.config`), then each of `$XDG_CONFIG_DIRS` (else `/etc/xdg`).
pub fn default_paths() -> Vec<PathBuf> {
    let var = |name| std::env::var_os(name).filter(|v| !v.is_empty());
    let user = var("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")));
    let system = var("XDG_CONFIG_DIRS").unwrap_or_else(|| "/etc/xdg".into());
    user.into_iter()
        .chain(std::env::split_paths(&system))
        .map(|base| base.join("sluice").join("sluice.toml"))
        .collect()
}

/// Loads `explicit`, or the first default file that exists, with no `-o` options.
pub fn load(explicit: Option<&Path>) -> Loaded {
    load_with(explicit, &[])
}

/// Loads the file as [`load`] does, its imports under it and `overrides` (`KEY=VALUE`, the
/// value in TOML) over it. A missing default file is not a problem; a missing explicit one,
/// one that is not valid TOML, a bad import or a bad override is reported, and what can be
/// used is.
pub fn load_with(explicit: Option<&Path>, overrides: &[String]) -> Loaded {
    let path = path(explicit);
    let mut problems = Vec::new();
    let mut parsed = true;
    let mut table = toml::Table::new();
    if let Some(path) = &path {
        match read_table(path) {
            Ok(file) => table = with_imports(file, path, &mut problems),
            Err(err) if err.missing && explicit.is_none() => {}
            Err(err) => {
                parsed = !err.invalid;
                problems.push(err.message);
            }
        }
    }
    for item in overrides {
        match override_table(item) {
            Ok(top) => merge(&mut table, top),
            Err(why) => problems.push(format!("-o {item}: {why}; ignored")),
        }
    }
    let (config, found) = read_config(table);
    problems.extend(found);
    Loaded {
        config,
        path: path.filter(|p| p.exists()),
        problems,
        parsed,
    }
}

/// Why a file gave no table.
struct FileError {
    message: String,
    missing: bool,
    invalid: bool,
}

fn read_table(path: &Path) -> Result<toml::Table, FileError> {
    let text = read_file(path).map_err(|err| FileError {
        missing: err.kind() == std::io::ErrorKind::NotFound,
        invalid: false,
        message: format!("cannot read {}: {err}", path.display()),
    })?;
    text.parse::<toml::Table>().map_err(|err| FileError {
        missing: false,
        invalid: true,
        message: format!(
            "not valid TOML, not used: {}",
            err.to_string().trim().replace('\n', " ")
        ),
    })
}

/// Imports are merged in order, each over the one before, and the file itself over them all.
/// An imported file's own imports are not followed (one level, so no cycle can form).
fn with_imports(mut file: toml::Table, path: &Path, problems: &mut Vec<String>) -> toml::Table {
    let Some(imports) = file.remove("import") else {
        return file;
    };
    let Some(list) = imports.as_array() else {
        problems.push("import: not a list of paths; ignored".into());
        return file;
    };
    let base = path.parent().unwrap_or(Path::new("."));
    let mut merged = toml::Table::new();
    for entry in list {
        let Some(name) = entry.as_str() else {
            problems.push(format!("import: {entry} is not a path; ignored"));
            continue;
        };
        let import = expand(name, base);
        match read_table(&import) {
            Ok(mut table) => {
                table.remove("import");
                merge(&mut merged, table);
            }
            Err(err) => problems.push(format!("import {name}: {}", err.message)),
        }
    }
    merge(&mut merged, file);
    merged
}

/// `~/` is the home directory; a relative path is relative to the importing file.
fn expand(name: &str, base: &Path) -> PathBuf {
    match (name.strip_prefix("~/"), std::env::var_os("HOME")) {
        (Some(rest), Some(home)) => PathBuf::from(home).join(rest),
        _ => base.join(name),
    }
}

/// `font.size=14` as the table `{font = {size = 14}}`.
fn override_table(item: &str) -> Result<toml::Table, String> {
    let (key, value) = item
        .split_once('=')
        .ok_or_else(|| "not KEY=VALUE".to_owned())?;
    format!("{} = {}", key.trim(), value.trim())
        .parse::<toml::Table>()
        .map_err(|err| {
            format!(
                "not a TOML value (strings need quotes: -o 'links.opener=\"open\"'): {}",
                err.message()
            )
        })
}

/// Puts `top` over `base`: tables merge key by key, anything else is replaced.
fn merge(base: &mut toml::Table, top: toml::Table) {
    for (key, value) in top {
        match (base.get_mut(&key), value) {
            (Some(toml::Value::Table(below)), toml::Value::Table(above)) => merge(below, above),
            (_, value) => {
                base.insert(key, value);
            }
        }
    }
}

fn read_config(mut table: toml::Table) -> (Config, Vec<String>) {
    // Alacritty's `[env]` is `terminal.env` here; both are read, `terminal.env` winning.
    if let Some(toml::Value::Table(env)) = table.remove("env") {
        let terminal = table
            .entry("terminal")
            .or_insert_with(|| toml::Value::Table(toml::Table::new()));
        if let toml::Value::Table(terminal) = terminal {
            let mut merged = env;
            if let Some(toml::Value::Table(own)) = terminal.remove("env") {
                merge(&mut merged, own);
            }
            terminal.insert("env".into(), toml::Value::Table(merged));
        }
    }
    let mut config = Config::default();
    let mut reader = Reader::new(table);
    config.read_sections(&mut reader);
    reader.report_unknown();
    let mut problems = reader.problems;
    problems.append(&mut config.keyboard.bindings.problems);
    problems.append(&mut config.hints.sets.problems);
    problems.append(&mut config.mouse.bindings.problems);
    (config, problems)
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
    match text.parse::<toml::Table>() {
        Ok(table) => read_config(table),
        Err(err) => {
            let why = err.to_string().trim().replace('\n', " ");
            (
                Config::default(),
                vec![format!("not valid TOML, using defaults: {why}")],
            )
        }
    }
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
        assert_eq!(config.font.size, 14.5);
        assert_eq!(config.font.family.as_deref(), Some("Noto Sans Mono"));
        assert_eq!(config.links.schemes, ["https"]);
        assert_eq!(config.paste.confirm, ConfirmPaste::Always);
        assert_eq!(
            config.scrolling.history, 10_000,
            "wrong type keeps the default"
        );
        assert_eq!(
            config.cursor.blink_timeout, 5.0,
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

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("sluice-config-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn imports_merge_under_the_file_and_overrides_go_over_it() {
        let dir = scratch("import");
        std::fs::write(
            dir.join("fonts.toml"),
            "import = [\"loop.toml\"]\n[font]\nsize = 20.0\nfamily = \"Imported\"\n",
        )
        .unwrap();
        std::fs::write(
            dir.join("bell.toml"),
            "[bell]\nvisual = false\n[font]\nsize = 9.0\n",
        )
        .unwrap();
        let main = dir.join("sluice.toml");
        std::fs::write(
            &main,
            "import = [\"fonts.toml\", \"bell.toml\", \"missing.toml\"]\n[font]\nfamily = \"Mine\"\n",
        )
        .unwrap();
        let loaded = load_with(
            Some(&main),
            &["scrolling.history=50".into(), "links.opener=open".into()],
        );
        // Later imports over earlier ones, the file over its imports, -o over everything.
        assert_eq!(loaded.config.font.size, 9.0);
        assert_eq!(loaded.config.font.family.as_deref(), Some("Mine"));
        assert!(!loaded.config.bell.visual);
        assert_eq!(loaded.config.scrolling.history, 50);
        assert_eq!(
            loaded.config.links.opener, "xdg-open",
            "a bad -o is ignored"
        );
        assert!(loaded.parsed);
        let problems = loaded.problems.join("\n");
        assert!(
            problems.contains("import missing.toml: cannot read"),
            "{problems}"
        );
        assert!(
            problems.contains("-o links.opener=open: not a TOML value"),
            "{problems}"
        );
        assert_eq!(loaded.problems.len(), 2, "{problems}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_file_that_does_not_parse_says_so_so_a_running_sluice_keeps_its_own() {
        let dir = scratch("broken");
        let main = dir.join("sluice.toml");
        std::fs::write(&main, "[font\nsize = 3").unwrap();
        let loaded = load_with(Some(&main), &["font.size=15".into()]);
        assert!(!loaded.parsed);
        assert_eq!(loaded.config.font.size, 15.0, "-o still applies at start");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_theme_and_colour_overrides_make_the_palette() {
        let (config, problems) = parse(
            r##"
            [colors]
            theme = "solarized-dark"
            background = "#101010"
            indexed = { "196" = "#ff0001", "7" = "#000000" }
            [colors.normal]
            red = "#123456"
            blue = "blue"
            redd = "#ffffff"
            "##,
        );
        let palette = config.palette();
        let hex = |c: sluice_term::Rgb| format!("#{:02x}{:02x}{:02x}", c.r, c.g, c.b);
        assert_eq!(hex(palette.get(1)), "#123456", "an override");
        assert_eq!(
            hex(palette.get(4)),
            "#268bd2",
            "a bad colour keeps the theme's"
        );
        assert_eq!(hex(palette.get(2)), "#859900", "the theme's green");
        assert_eq!(hex(palette.get(257)), "#101010", "the background");
        assert_eq!(hex(palette.get(256)), "#839496", "the theme's foreground");
        assert_eq!(
            hex(palette.get(196)),
            "#ff0000",
            "a map with a bad key keeps its default: xterm's 196"
        );
        let (config, _) = parse("[colors]\nindexed = { \"196\" = \"#ff0001\" }\n");
        assert_eq!(hex(config.palette().get(196)), "#ff0001");
        let problems = problems.join("\n");
        assert!(
            problems.contains("colors.normal.blue: \"blue\" is not a colour"),
            "{problems}"
        );
        assert!(
            problems.contains("colors.indexed: \"7\" is not a colour number"),
            "{problems}"
        );
        assert!(
            problems.contains("colors.normal.redd: unknown option"),
            "{problems}"
        );
        let (config, problems) = parse("[colors]\ntheme = \"nope\"\n");
        assert_eq!(config.colors.theme, themes::DEFAULT_THEME);
        assert!(problems[0].contains("no theme \"nope\""), "{problems:?}");
    }

    #[test]
    fn the_shell_is_the_configured_one_or_a_login_shell_or_none() {
        let mut config = Config::default();
        assert_eq!(
            config.shell(),
            None,
            "the user's shell, as the PTY finds it"
        );
        config.terminal.login_shell = true;
        let login = config.shell().unwrap();
        assert_eq!(login.len(), 2);
        assert_eq!(login[1], "-l");
        config.terminal.shell = vec!["fish".into(), "-i".into()];
        assert_eq!(config.shell(), Some(vec!["fish".into(), "-i".into()]));
    }

    #[test]
    fn an_empty_file_is_the_defaults() {
        assert_eq!(parse(""), (Config::default(), vec![]));
    }
}

#[cfg(test)]
mod font_style_tests {
    use super::font_style;

    #[test]
    fn style_names_give_weight_and_slant() {
        let table = [
            ("Regular", (400, false)),
            ("Medium", (500, false)),
            ("SemiBold", (600, false)),
            ("Semi Bold", (600, false)),
            ("Light Italic", (300, true)),
            ("Bold Oblique", (700, true)),
            ("Italic", (400, true)),
            ("black", (900, false)),
        ];
        for (name, want) in table {
            assert_eq!(font_style(name), Ok(want), "{name}");
        }
        assert!(font_style("Wide").unwrap_err().contains("no style"));
    }
}

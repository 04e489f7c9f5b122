//! Every option, defined once: its section, name, type, default, check and documentation.
//!
//! `options!` turns the list below into the configuration's structs (one per section), their
//! defaults, the lenient reader's calls (each with its key path and check), and the table
//! that `sluice --print-config` prints and docs/configuration.md holds (a test keeps the doc
//! equal to it). Adding an option is one entry here; nothing else restates it.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::reader::{Reader, any, within};
use crate::{
    BindingList, Blinking, ConfirmPaste, CursorShape, Decorations, HexColor, MouseBindingList,
    NotifyWhen, RendererBackend, StartupMode, TabBar,
};

/// One option as documented: `section.name`, its doc comment, its default as TOML (`None`
/// when unset by default).
#[derive(Debug, Clone, PartialEq)]
pub struct OptionDoc {
    pub section: &'static str,
    pub name: &'static str,
    pub doc: Vec<&'static str>,
    pub default: Option<String>,
}

/// A value as TOML source: `None` for an unset `Option`.
fn toml_source<T: Serialize>(value: &T) -> Option<String> {
    // A value alone is not a TOML document: render it as `v = …` and keep the right side.
    #[derive(Serialize)]
    struct One<'a, T> {
        v: &'a T,
    }
    let text = toml::to_string(&One { v: value }).ok()?;
    match text.trim().strip_prefix("v = ") {
        Some(source) => Some(source.to_owned()),
        // An array of tables is written as `[[v]]` sections: as a value, inline.
        None => Some(toml::Value::try_from(value).ok()?.to_string()),
    }
}

macro_rules! options {
    (
        $(
            $(#[doc = $sdoc:literal])*
            [$path:literal] $Section:ident as $section:ident {
                $(
                    $(#[doc = $doc:literal])*
                    $field:ident : $ty:ty = $default:expr, $check:expr;
                )*
            }
        )*
    ) => {
        $(
            $(#[doc = $sdoc])*
            #[derive(Debug, Clone, PartialEq)]
            pub struct $Section {
                $( $(#[doc = $doc])* pub $field: $ty, )*
            }

            impl Default for $Section {
                fn default() -> Self {
                    Self { $( $field: $default, )* }
                }
            }

            impl $Section {
                fn read(&mut self, reader: &mut Reader) {
                    $(
                        reader.read(
                            concat!($path, ".", stringify!($field)),
                            &mut self.$field,
                            $check,
                        );
                    )*
                }

                fn docs(out: &mut Vec<OptionDoc>) {
                    let defaults = Self::default();
                    $(
                        out.push(OptionDoc {
                            section: $path,
                            name: stringify!($field),
                            doc: vec![$($doc),*],
                            default: toml_source(&defaults.$field),
                        });
                    )*
                }
            }
        )*

        /// Everything the file can set, one struct per section.
        #[derive(Debug, Clone, PartialEq, Default)]
        pub struct Config {
            $( $(#[doc = $sdoc])* pub $section: $Section, )*
        }

        impl Config {
            pub(crate) fn read_sections(&mut self, reader: &mut Reader) {
                $( self.$section.read(reader); )*
            }

            /// Every option, in the order of the file.
            pub fn options() -> Vec<OptionDoc> {
                let mut out = Vec::new();
                $( $Section::docs(&mut out); )*
                out
            }
        }
    };
}

fn not_blank(what: &'static str) -> impl FnOnce(&String) -> Result<(), String> {
    move |s| {
        if s.trim().is_empty() {
            Err(format!("empty {what}"))
        } else {
            Ok(())
        }
    }
}

fn some_font_style(style: &Option<String>) -> Result<(), String> {
    style
        .as_deref()
        .map_or(Ok(()), |s| crate::font_style(s).map(drop))
}

/// At least two letters (one letter labels one match), none repeated, none blank.
#[allow(clippy::ptr_arg)] // a check takes the value as the reader holds it
fn hint_alphabet(text: &String) -> Result<(), String> {
    let mut seen = std::collections::HashSet::new();
    if text.chars().count() < 2 {
        return Err("fewer than two letters".into());
    }
    match text
        .chars()
        .find(|c| c.is_whitespace() || c.is_control() || !seen.insert(*c))
    {
        Some(c) => Err(format!("{c:?} is blank or repeated")),
        None => Ok(()),
    }
}

#[allow(clippy::ptr_arg)] // a check takes the value as the reader holds it
fn read_ahead_size(text: &String) -> Result<(), String> {
    let bytes = sluice_pty::parse_bytes(text)?;
    if bytes > sluice_pty::max_read_ahead() {
        return Err(sluice_pty::read_ahead_too_large(bytes));
    }
    Ok(())
}

fn known_theme(name: &String) -> Result<(), String> {
    match crate::themes::choose(name, false) {
        Some(_) => Ok(()),
        None => Err(format!(
            "no theme {name:?}: a name from `sluice --list-themes`, or light:NAME,dark:NAME"
        )),
    }
}

fn indexed_keys(map: &BTreeMap<String, HexColor>) -> Result<(), String> {
    for key in map.keys() {
        match key.parse::<usize>() {
            Ok(16..=255) => {}
            _ => return Err(format!("{key:?} is not a colour number from 16 to 255")),
        }
    }
    Ok(())
}

fn some_not_blank(what: &'static str) -> impl FnOnce(&Option<String>) -> Result<(), String> {
    move |s| match s {
        Some(s) if s.trim().is_empty() => Err(format!("empty {what}")),
        _ => Ok(()),
    }
}

options! {
    ["font"] Font as font {
        /// Any installed monospace family; the bundled DejaVu Sans Mono when unset or not
        /// found.
        family: Option<String> = None, some_not_blank("family name");
        /// Points (at 96 dpi, 12 pt is 16 pixels); 3 to 200.
        size: f32 = 12.0, within(crate::FONT_SIZES);
        /// The family for bold text; unset: `family`, bold.
        bold_family: Option<String> = None, some_not_blank("family name");
        /// The family for italic text; unset: `family`, italic.
        italic_family: Option<String> = None, some_not_blank("family name");
        /// The family for bold italic text; unset: `family`, bold italic.
        bold_italic_family: Option<String> = None, some_not_blank("family name");
        /// The style of regular text, e.g. "Medium" or "Light"; unset: "Regular".
        style: Option<String> = None, some_font_style;
        /// The style of bold text, e.g. "SemiBold"; unset: "Bold".
        bold_style: Option<String> = None, some_font_style;
        /// The style of italic text; unset: "Italic".
        italic_style: Option<String> = None, some_font_style;
        /// The style of bold italic text; unset: "Bold Italic".
        bold_italic_style: Option<String> = None, some_font_style;
        /// Pixels added to each cell's width (negative: taken off); -20 to 50.
        offset_x: i8 = 0, within(-20..=50);
        /// Pixels added to each cell's height (line spacing); -20 to 50.
        offset_y: i8 = 0, within(-20..=50);
        /// Pixels every glyph is moved right within its cell; -20 to 20.
        glyph_offset_x: i8 = 0, within(-20..=20);
        /// Pixels every glyph is moved down within its cell; -20 to 20.
        glyph_offset_y: i8 = 0, within(-20..=20);
        /// Families tried in order for characters `family` lacks (CJK, symbols), before the
        /// system's own fallback, e.g. ["Noto Sans Mono CJK JP", "Symbols Nerd Font"].
        fallback: Vec<String> = Vec::new(), any;
        /// Draw box drawing, block elements and powerline symbols as built-in sprites that
        /// join cell to cell, instead of the font's glyphs.
        builtin_box_drawing: bool = true, any;
    }
    ["colors"] Colors as colors {
        /// A bundled theme (`sluice --list-themes`), or "light:NAME,dark:NAME" to follow the
        /// desktop's light or dark preference; the colours below go over it.
        theme: String = crate::themes::DEFAULT_THEME.to_owned(), known_theme;
        /// Text; unset: the theme's. Colours are "#rrggbb".
        foreground: Option<HexColor> = None, any;
        /// The background; unset: the theme's.
        background: Option<HexColor> = None, any;
        /// The cursor; unset: the theme's.
        cursor: Option<HexColor> = None, any;
        /// The character under a block cursor; unset: its cell's background.
        cursor_text: Option<HexColor> = None, any;
        /// Vi mode's cursor; unset: the theme's yellow, so vi mode is told from typing.
        vi_cursor: Option<HexColor> = None, any;
        /// Selected text; with selection_background (both, or the selected cells' own
        /// colours are swapped, as xterm does).
        selection_foreground: Option<HexColor> = None, any;
        /// Behind selected text; with selection_foreground.
        selection_background: Option<HexColor> = None, any;
        /// Dim text without a colour of its own (SGR 2); unset: two thirds of the foreground.
        dim_foreground: Option<HexColor> = None, any;
        /// Bold text without a colour of its own, where bold brightens; unset: bright white.
        bright_foreground: Option<HexColor> = None, any;
        /// Search matches: amber for every match and orange for the one the user is on (as in
        /// most editors), with black text so both read on any theme.
        search_match: HexColor = HexColor::from_hex(0xe6c547), any;
        /// The text of a search match.
        search_match_text: HexColor = HexColor::from_hex(0x000000), any;
        /// The match the user is on.
        search_focused: HexColor = HexColor::from_hex(0xf08d49), any;
        /// The text of the match the user is on.
        search_focused_text: HexColor = HexColor::from_hex(0x000000), any;
        /// Colours 16 to 255 by number, e.g. { "196" = "#ff0000" }.
        indexed: BTreeMap<String, HexColor> = BTreeMap::new(), indexed_keys;
    }
    ["colors.normal"] NormalColors as colors_normal {
        /// The eight ANSI colours; each unset is the theme's.
        /// Black: SGR 30 and 40.
        black: Option<HexColor> = None, any;
        /// Red: SGR 31 and 41.
        red: Option<HexColor> = None, any;
        /// Green: SGR 32 and 42.
        green: Option<HexColor> = None, any;
        /// Yellow: SGR 33 and 43.
        yellow: Option<HexColor> = None, any;
        /// Blue: SGR 34 and 44.
        blue: Option<HexColor> = None, any;
        /// Magenta: SGR 35 and 45.
        magenta: Option<HexColor> = None, any;
        /// Cyan: SGR 36 and 46.
        cyan: Option<HexColor> = None, any;
        /// White: SGR 37 and 47.
        white: Option<HexColor> = None, any;
    }
    ["colors.bright"] BrightColors as colors_bright {
        /// Their bright variants; each unset is the theme's.
        /// Black: SGR 90 and 100.
        black: Option<HexColor> = None, any;
        /// Red: SGR 91 and 101.
        red: Option<HexColor> = None, any;
        /// Green: SGR 92 and 102.
        green: Option<HexColor> = None, any;
        /// Yellow: SGR 93 and 103.
        yellow: Option<HexColor> = None, any;
        /// Blue: SGR 94 and 104.
        blue: Option<HexColor> = None, any;
        /// Magenta: SGR 95 and 105.
        magenta: Option<HexColor> = None, any;
        /// Cyan: SGR 96 and 106.
        cyan: Option<HexColor> = None, any;
        /// White: SGR 97 and 107.
        white: Option<HexColor> = None, any;
    }
    ["scrolling"] Scrolling as scrolling {
        /// Lines kept above the screen; 0 to 1,000,000.
        history: usize = 10_000, within(0..=1_000_000);
        /// Lines a wheel notch scrolls (everyone's default: 3); 1 to 100.
        multiplier: u8 = 3, within(1..=100);
    }
    ["selection"] Selection as selection {
        /// Characters that end a word for double-click selection. '/', '.', '-', '_' and '~'
        /// are not among them, so paths and file names are selected whole.
        word_separators: String = sluice_term::DEFAULT_WORD_SEPARATORS.to_owned(), any;
        /// Copy a selection to the clipboard as well as to the primary selection.
        copy_on_select: bool = false, any;
    }
    ["mouse"] Mouse as mouse {
        /// Hide the pointer while typing; it comes back when the mouse moves.
        hide_when_typing: bool = true, any;
        /// Button bindings, over the default (the middle button pastes the primary
        /// selection): each { mouse = "Right", mods = "Control", action = "Paste" }, or with
        /// chars or command as for keys; action = "None" unbinds. They apply where the
        /// program does not take the mouse, or with Shift held.
        bindings: MouseBindingList = MouseBindingList::default(), any;
    }
    ["terminal"] Terminal as terminal {
        /// The program new panes run, and its arguments; unset: your shell ($SHELL, else your
        /// passwd entry, else /bin/sh). `-e` wins.
        shell: Vec<String> = Vec::new(), any;
        /// Start your shell (when `shell` is unset) as a login shell (`-l`), so it reads
        /// ~/.profile; macOS terminals do, Linux ones by default do not.
        login_shell: bool = false, any;
        /// Where new windows start when no pane is focused; unset: Sluice's own directory.
        /// `--working-directory` wins.
        working_directory: Option<String> = None, some_not_blank("directory");
        /// How far Sluice may read ahead of its parser, in bytes (K, M, G suffixes): the
        /// burst a program can write without ever waiting. Under a flood that keeps the
        /// parser behind for half a second in all, a fraction of a frame's parsing
        /// (256 KiB), so the screen stays fresh. `--read-ahead` wins.
        read_ahead: String = "16M".to_owned(), read_ahead_size;
        /// Environment variables for every program Sluice starts, as a table
        /// ([terminal.env], or [env] as Alacritty spells it): EDITOR = "vim".
        env: BTreeMap<String, String> = BTreeMap::new(), any;
        /// May programs read the clipboard with OSC 52?
        osc52_read: bool = false, any;
        /// May programs write the clipboard with OSC 52? (768 KiB of text at most: what one
        /// OSC string holds.) Programs copying to the clipboard (tmux, vim over ssh) is what
        /// OSC 52 is for.
        osc52_write: bool = true, any;
        /// ^S/^Q pause and resume output (IXON); off, ^S reaches the program. Applies to
        /// panes opened after a change.
        flow_control: bool = false, any;
    }
    ["paste"] Paste as paste {
        /// Ask before pasting: "always", "if-unsafe" (text with a line break or a control
        /// character, into a program that did not turn bracketed paste on), or "never".
        confirm: ConfirmPaste = ConfirmPaste::IfUnsafe, any;
    }
    ["links"] Links as links {
        /// URL schemes that Ctrl+click opens. `file` is left out: a file link opened by the
        /// desktop's opener can run a program (a .desktop file), and a program's output
        /// should not be able to do that with one click.
        schemes: Vec<String> = ["http", "https", "mailto", "ftp", "gemini", "gopher"]
            .map(String::from)
            .to_vec(), any;
        /// The program that opens links, given the URL as its one argument.
        opener: String = "xdg-open".to_owned(), not_blank("command");
    }
    ["keyboard"] Keyboard as keyboard {
        /// Key bindings, over the defaults (listed below): each
        /// { key = "T", mods = "Control|Shift", action = "CreateNewTab" }, or with
        /// chars = "text" or command = ["program", "arg"] instead of an action, and
        /// optionally mode = "~AltScreen". action = "None" unbinds a default.
        bindings: BindingList = BindingList::default(), any;
    }
    ["hints"] Hints as hints {
        /// The letters hint labels are made of, the easiest to type first.
        alphabet: String = crate::hints::DEFAULT_ALPHABET.to_owned(), hint_alphabet;
        /// Each set: patterns = ["url", "path", "hash", "ip"] (built-in) and/or
        /// regex = "…", an action ("Open", "Copy", "Paste" or "Select") and the key that
        /// shows it, key = "o", mods = "Control|Shift". Typing a label runs the action on
        /// its match; Escape goes back.
        sets: crate::hints::HintSets = crate::hints::HintSets::default(), any;
    }
    ["bell"] Bell as bell {
        /// Flash the pane on BEL.
        visual: bool = true, any;
        /// How long the flash lasts, in milliseconds (kitty's 150 is long enough to be seen,
        /// short enough not to be a flash photo); 1 to 2000.
        duration: u32 = 150, within(1..=2000);
        /// A program (and its arguments) to run on BEL, e.g. ["paplay", "bell.oga"]; at most
        /// one at a time, so a flood of BELs runs it once.
        command: Vec<String> = Vec::new(), any;
        /// Ask the desktop for attention (the urgency hint) on BEL in a window without focus.
        urgency: bool = true, any;
    }
    ["shell_integration"] ShellIntegration as shell_integration {
        /// Mark each prompt (OSC 133, docs/shell-integration.md) in the margin: its first
        /// cell in the theme's blue, and a failed command's exit status in red at the end of
        /// the next prompt's line.
        prompt_marks: bool = false, any;
    }
    ["notifications"] Notifications as notifications {
        /// When a program's desktop notification (OSC 9, OSC 777, OSC 99) is shown:
        /// "always", "unfocused" (only while its pane is not the one you are looking at:
        /// kitty's and Ghostty's default) or "never".
        when: NotifyWhen = NotifyWhen::Unfocused, any;
        /// Notify when a command (marked by shell integration) that ran at least this many
        /// seconds finishes while its pane is unfocused; 0 turns it off. 0 to 86400.
        command_finished_after: u32 = 0, within(0..=86_400);
        /// The fewest seconds between two notifications from one pane; the ones in between
        /// are dropped (a program looping on OSC 9 cannot flood the desktop). 0 to 3600.
        min_interval: f64 = 2.0, within(0.0..=3600.0);
    }
    ["cursor"] Cursor as cursor {
        /// The shape until a program sets one: "block", "underline" or "beam".
        shape: CursorShape = CursorShape::Block, any;
        /// "never", "off" (until a program asks), "on" (until a program says otherwise) or
        /// "always".
        blinking: Blinking = Blinking::Off, any;
        /// Half a blink, on then off, in milliseconds (GTK's and Windows' 530, between xterm's
        /// 600 and kitty's 500); 100 to 5000.
        blink_interval: u32 = 530, within(100..=5000);
        /// Draw the cursor of a window (or pane) without the keyboard as a hollow block.
        unfocused_hollow: bool = true, any;
        /// A beam or underline cursor's thickness, as a fraction of a cell's width
        /// (Alacritty's 0.15); 0.05 to 1.
        thickness: f32 = 0.15, within(0.05..=1.0);
        /// Seconds after the last key at which a blinking cursor stops blinking (Alacritty's
        /// and kitty's choice: long enough not to be noticed while working); 0 to 3600.
        blink_timeout: f64 = 5.0, within(0.0..=3600.0);
    }
    ["metrics"] Metrics as metrics {
        /// Show the metrics overlay from the start.
        overlay: bool = false, any;
    }
    ["debug"] Debug as debug {
        /// What is logged: "error", "warn", "info", "debug" or "trace", or a filter such as
        /// "sluice=debug" (`SLUICE_LOG` wins).
        log_level: String = "warn".to_owned(), not_blank("level");
        /// Also write the log to this file.
        log_file: Option<String> = None, some_not_blank("path");
    }
    ["window"] Window as window {
        /// The initial size in cells (`--size` wins); the window is sized from the font's
        /// real cell.
        columns: u16 = 80, within(2..=2048);
        /// The initial height in cells (`--size` wins).
        lines: u16 = 24, within(1..=1024);
        /// Space between the window's edges and the cells, in logical pixels.
        padding_x: u16 = 4, within(0..=200);
        /// The same, above and below the cells.
        padding_y: u16 = 4, within(0..=200);
        /// Share what is left over when the window is not a whole number of cells between
        /// both sides, instead of leaving it all at the right and bottom.
        balanced_padding: bool = false, any;
        /// How opaque the default background is, 0 (clear) to 1; text and coloured cells
        /// stay opaque. Needs a compositor. Going from 1 to less applies to new windows.
        opacity: f32 = 1.0, within(0.0..=1.0);
        /// Window decorations: "full" (the desktop's title bar and borders) or "none".
        decorations: Decorations = Decorations::Full, any;
        /// How the first window opens: "windowed", "maximized" or "fullscreen".
        startup_mode: StartupMode = StartupMode::Windowed, any;
        /// The window's title until a program sets one (`-T` wins, and keeps it).
        title: String = "Sluice".to_owned(), any;
        /// Whether programs may set the window's title (OSC 0/2); tabs show it either way.
        dynamic_title: bool = true, any;
        /// The window's class (X11 WM_CLASS general name, Wayland app id); `--class` wins.
        class: String = "sluice".to_owned(), not_blank("class");
        /// When the tab bar is shown: "auto" (with two or more tabs), "always" or "never".
        tab_bar: TabBar = TabBar::Auto, any;
    }
    ["renderer"] Renderer as renderer {
        /// Where frames are drawn: "gpu" (wgpu: Vulkan, Metal, DX12 or GL), "software" (the
        /// CPU alone, shown through shared memory: no GPU driver loaded) or "auto": the GPU
        /// where the machine has one, else software. See docs/architecture.md. Applies when
        /// Sluice starts.
        backend: RendererBackend = RendererBackend::Auto, any;
    }
}

impl Config {
    /// The whole default configuration as a TOML file, every option with its documentation
    /// (`sluice --print-config`). An option unset by default is shown commented out.
    pub fn default_toml() -> String {
        let mut out = String::new();
        let mut section = "";
        for option in Config::options() {
            if option.section != section {
                if !section.is_empty() {
                    out.push('\n');
                }
                section = option.section;
                out.push_str(&format!("[{section}]\n"));
            }
            for line in &option.doc {
                out.push_str(&format!("#{}\n", line.trim_end()));
            }
            match &option.default {
                Some(value) => out.push_str(&format!("{} = {value}\n", option.name)),
                None => out.push_str(&format!("# {} = (unset)\n", option.name)),
            }
            if (option.section, option.name) == ("keyboard", "bindings") {
                out.push_str("# The defaults:\n");
                for (key, mods, action) in crate::DEFAULT_BINDINGS {
                    out.push_str(&format!(
                        "#   {{ key = {key:?}, mods = {mods:?}, action = {action:?} }}\n"
                    ));
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_file_is_valid_toml_that_reads_back_as_the_defaults() {
        let text = Config::default_toml();
        let (config, problems) = crate::parse(&text);
        assert_eq!(problems, Vec::<String>::new());
        assert_eq!(config, Config::default());
        assert!(text.starts_with("[font]\n#"), "{text}");
        assert!(text.contains("\nsize = 12.0\n"), "{text}");
        assert!(text.contains("\nconfirm = \"if-unsafe\"\n"), "{text}");
        assert!(text.contains("\n# family = (unset)\n"), "{text}");
    }

    #[test]
    fn every_option_is_documented_once() {
        let options = Config::options();
        let mut keys: Vec<String> = options
            .iter()
            .map(|o| format!("{}.{}", o.section, o.name))
            .collect();
        let all = keys.len();
        keys.sort();
        keys.dedup();
        assert_eq!(keys.len(), all);
        for option in &options {
            assert!(!option.doc.is_empty(), "{}.{}", option.section, option.name);
        }
    }
}

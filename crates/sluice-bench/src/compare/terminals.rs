//! The terminals `compare` knows how to start, and how a `--terminal` argument names one.
//!
//! A command line is a template: `{}` is where the probe's command goes, `{cols}` and `{rows}`
//! the window's size in cells. Every known terminal is started with DejaVu Sans Mono at 10 pt
//! (Sluice bundles it; Debian's fonts-dejavu-core has it for the others), so they draw the
//! same glyphs into windows of the same size.

use anyhow::{Context, bail};

/// The terminals whose command lines `compare` knows, by name.
pub const KNOWN: &[(&str, &str)] = &[
    ("sluice", "sluice --size {cols}x{rows} --font-size 10 -e {}"),
    (
        "alacritty",
        "alacritty -o window.dimensions.columns={cols} -o window.dimensions.lines={rows} \
         -o font.size=10 -o 'font.normal.family=DejaVu Sans Mono' -e {}",
    ),
    (
        "kitty",
        "kitty -o 'font_family=DejaVu Sans Mono' -o font_size=10 -o remember_window_size=no \
         -o initial_window_width={cols}c -o initial_window_height={rows}c {}",
    ),
    (
        "xterm",
        "xterm -geometry {cols}x{rows} -fa 'DejaVu Sans Mono' -fs 10 -e {}",
    ),
    (
        "urxvt",
        "urxvt -geometry {cols}x{rows} -fn 'xft:DejaVu Sans Mono:size=10' -e {}",
    ),
    (
        "st",
        "st -g {cols}x{rows} -f 'DejaVu Sans Mono:size=10' -e {}",
    ),
    // foot is Wayland-only: it needs a compositor, not the X display compare provides.
    (
        "foot",
        "foot -W {cols}x{rows} -f 'DejaVu Sans Mono:size=10' {}",
    ),
    (
        "wezterm",
        "wezterm --config initial_cols={cols} --config initial_rows={rows} \
         --config font_size=10.0 start --always-new-process -- {}",
    ),
];

/// One terminal to measure: a name for the report and a command-line template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TerminalSpec {
    pub name: String,
    pub template: Vec<String>,
}

impl TerminalSpec {
    /// `NAME=COMMAND…` (COMMAND split as a shell would, with `{}` where the probe goes) or
    /// just `NAME` for one of [`KNOWN`].
    pub fn parse(arg: &str) -> anyhow::Result<TerminalSpec> {
        let (name, command) = match arg.split_once('=') {
            Some((name, command)) => (name.trim(), command.to_owned()),
            None => {
                let name = arg.trim();
                let known = KNOWN.iter().find(|(n, _)| *n == name).with_context(|| {
                    format!(
                        "unknown terminal {name:?}: give its command line as {name}='CMD … {{}}', \
                         or one of {}",
                        known_names()
                    )
                })?;
                (name, known.1.to_owned())
            }
        };
        if name.is_empty() || name == super::DRAIN {
            bail!(
                "{arg:?}: a terminal needs a name other than {:?}",
                super::DRAIN
            );
        }
        let template = shlex::split(&command)
            .with_context(|| format!("{arg:?}: unbalanced quotes in the command line"))?;
        if template.is_empty() {
            bail!("{arg:?}: the command line is empty");
        }
        Ok(TerminalSpec {
            name: name.to_owned(),
            template,
        })
    }

    /// The command line to run: `{}` replaced by `probe` (appended if absent), `{cols}` and
    /// `{rows}` by the size if one is given.
    pub fn command(&self, probe: &[String], size: Option<(u16, u16)>) -> Vec<String> {
        let mut out = Vec::new();
        let mut placed = false;
        for arg in &self.template {
            if arg == "{}" {
                out.extend(probe.iter().cloned());
                placed = true;
            } else {
                out.push(match size {
                    Some((cols, rows)) => arg
                        .replace("{cols}", &cols.to_string())
                        .replace("{rows}", &rows.to_string()),
                    None => arg.clone(),
                });
            }
        }
        if !placed {
            out.extend(probe.iter().cloned());
        }
        out
    }
}

/// The known names, for messages and `--help`.
pub fn known_names() -> String {
    KNOWN.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_known_name_takes_its_command_line_and_the_size() {
        let t = TerminalSpec::parse("xterm").unwrap();
        let probe = ["bench".to_owned(), "window-probe".to_owned()];
        assert_eq!(
            t.command(&probe, Some((100, 30))),
            [
                "xterm",
                "-geometry",
                "100x30",
                "-fa",
                "DejaVu Sans Mono",
                "-fs",
                "10",
                "-e",
                "bench",
                "window-probe"
            ]
        );
        for (name, _) in KNOWN {
            let t = TerminalSpec::parse(name).unwrap();
            assert!(t.template.contains(&"{}".to_owned()), "{name}");
        }
    }

    #[test]
    fn any_other_terminal_is_a_name_and_a_command_line() {
        let t = TerminalSpec::parse("mine=/opt/term --cols={cols} 'two words'").unwrap();
        assert_eq!(t.name, "mine");
        assert_eq!(
            t.command(&["p".to_owned()], Some((80, 24))),
            ["/opt/term", "--cols=80", "two words", "p"]
        );
        assert!(TerminalSpec::parse("nosuch").is_err());
        assert!(TerminalSpec::parse("=xterm").is_err());
        assert!(TerminalSpec::parse("drain=cat").is_err());
        assert!(TerminalSpec::parse("x='unbalanced").is_err());
        assert!(TerminalSpec::parse("x=").is_err());
    }
}

//! `hints.sets`: keyboard hints, as Alacritty's `[hints]` and kitty's hints kitten have them.
//! A bound key labels every match of the set's patterns on screen; typing a label runs the
//! set's action on that match.
//!
//! The built-in patterns are defined here once; the URL one is also the one Ctrl+click links
//! are found with.

use regex::Regex;
use serde::{Deserialize, Serialize};

/// URLs as they appear in text: a known scheme, then anything but blanks, controls, quotes
/// and the brackets that usually enclose a URL in prose.
pub const URL_PATTERN: &str = r#"(?i)(?:https?://|ftp://|mailto:|gemini://|gopher://|file://|ssh://|git://)[^\s<>"'`{}|\\^\x00-\x1f\x7f]+"#;

/// The patterns a set can name, instead of writing a regex.
pub const BUILTIN_PATTERNS: &[(&str, &str)] = &[
    ("url", URL_PATTERN),
    // A path with at least one slash: /etc/hosts, ./src/main.rs, ~/notes, src/lib.rs:42.
    (
        "path",
        r"(?:~|\.{1,2})?/?(?:[\w.+@%-]+/)+[\w.+@%-]*(?::\d+(?::\d+)?)?",
    ),
    // An abbreviated or full git object name (a number alone is not one; see `is_hash`).
    ("hash", r"\b[0-9a-f]{7,40}\b"),
    // An IPv4 address, with a port if there is one.
    ("ip", r"\b(?:\d{1,3}\.){3}\d{1,3}(?::\d{1,5})?\b"),
];

/// The letters labels are made of, home row first (Alacritty's).
pub const DEFAULT_ALPHABET: &str = "jfkdlsahgurieowpq";

/// What typing a hint's label does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
pub enum HintAction {
    /// Open with `links.opener`, if its scheme is in `links.schemes` (a path counts as
    /// `file`).
    Open,
    /// Copy to the clipboard.
    Copy,
    /// Paste into the program (sanitised as every paste is).
    Paste,
    /// Select it (the primary selection).
    Select,
}

/// One set of hints and the key that shows them.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct HintSet {
    /// Built-in patterns: "url", "path", "hash", "ip".
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub patterns: Vec<String>,
    /// A regex of your own, matched as well.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub regex: Option<String>,
    pub action: HintAction,
    /// The key that shows this set's hints, as in `keyboard.bindings`.
    pub key: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub mods: String,
}

impl HintSet {
    /// The set's patterns as one regex, each built-in in a group of its name (leftmost first:
    /// a URL wins over the path inside it).
    pub fn regex(&self) -> Result<Regex, String> {
        let mut parts = Vec::new();
        for name in &self.patterns {
            let (_, pattern) = BUILTIN_PATTERNS
                .iter()
                .find(|(n, _)| n == name)
                .ok_or_else(|| format!("no built-in pattern {name:?} (url, path, hash, ip)"))?;
            parts.push(format!("(?P<{name}>{pattern})"));
        }
        if let Some(regex) = &self.regex {
            Regex::new(regex).map_err(|e| format!("regex {regex:?}: {e}"))?;
            parts.push(format!("(?:{regex})"));
        }
        if parts.is_empty() {
            return Err("no patterns and no regex".into());
        }
        Regex::new(&parts.join("|")).map_err(|e| e.to_string())
    }
}

/// Whether a "hash" match is one: a run of digits alone (a date, a count) is not.
pub fn is_hash(text: &str) -> bool {
    text.bytes().any(|b| b.is_ascii_alphabetic())
}

/// `hints.sets`: the sets that make sense, and why the others were dropped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HintSets {
    pub sets: Vec<HintSet>,
    pub problems: Vec<String>,
}

impl Default for HintSets {
    /// Ctrl+Shift+O opens a URL (Alacritty's key); Ctrl+Shift+Y copies a URL, a path, a hash
    /// or an address ("yank").
    fn default() -> Self {
        let set = |patterns: &[&str], action, key: &str| HintSet {
            patterns: patterns.iter().map(|p| p.to_string()).collect(),
            regex: None,
            action,
            key: key.into(),
            mods: "Control|Shift".into(),
        };
        HintSets {
            sets: vec![
                set(&["url"], HintAction::Open, "o"),
                set(&["url", "path", "hash", "ip"], HintAction::Copy, "y"),
            ],
            problems: Vec::new(),
        }
    }
}

impl<'de> Deserialize<'de> for HintSets {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let entries = Vec::<toml::Value>::deserialize(d)?;
        let (sets, problems) =
            crate::lenient_list(entries, "hints.sets", |set: &HintSet| set.regex().map(drop));
        Ok(HintSets { sets, problems })
    }
}

impl Serialize for HintSets {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.sets.serialize(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matches(patterns: &[&str], text: &str) -> Vec<String> {
        let set = HintSet {
            patterns: patterns.iter().map(|p| p.to_string()).collect(),
            regex: None,
            action: HintAction::Copy,
            key: "y".into(),
            mods: String::new(),
        };
        let regex = set.regex().unwrap();
        regex
            .captures_iter(text)
            .filter(|c| c.name("hash").is_none_or(|h| is_hash(h.as_str())))
            .map(|c| c[0].to_owned())
            .collect()
    }

    #[test]
    fn the_built_in_patterns_find_what_they_name() {
        let all = ["url", "path", "hash", "ip"];
        assert_eq!(
            matches(&all, "see https://example.com/a/b, or /etc/hosts"),
            ["https://example.com/a/b,", "/etc/hosts"]
        );
        assert_eq!(
            matches(&all, "commit 3f2a9c1d merged on 20261201"),
            ["3f2a9c1d"]
        );
        assert_eq!(matches(&all, "ping 10.0.0.1:8080 now"), ["10.0.0.1:8080"]);
        assert_eq!(
            matches(&all, "error at src/main.rs:42:7 and ./run.sh"),
            ["src/main.rs:42:7", "./run.sh"]
        );
        assert_eq!(
            matches(&["url"], "no links here /tmp"),
            Vec::<String>::new()
        );
    }

    #[test]
    fn bad_sets_are_dropped_alone() {
        let toml = r#"
            sets = [
                { patterns = ["url"], action = "Open", key = "o", mods = "Control|Shift" },
                { patterns = ["nope"], action = "Copy", key = "x" },
                { regex = "(unclosed", action = "Copy", key = "x" },
                { regex = "JIRA-\\d+", action = "Paste", key = "j", mods = "Alt" },
                { action = "Copy", key = "z" },
            ]
        "#;
        #[derive(Deserialize)]
        struct Wrap {
            sets: HintSets,
        }
        let sets = toml::from_str::<Wrap>(toml).unwrap().sets;
        assert_eq!(sets.sets.len(), 2);
        assert_eq!(sets.problems.len(), 3, "{:?}", sets.problems);
        assert!(sets.problems[0].contains("hints.sets[1]") && sets.problems[0].contains("nope"));
    }
}

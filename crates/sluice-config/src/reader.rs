//! Reading a TOML table leniently: each value that is missing keeps its default, and each
//! value that is wrong keeps its default and is reported, so one typo never costs the user
//! the rest of their configuration.

use std::collections::BTreeSet;

use serde::de::DeserializeOwned;

/// Takes typed values out of a parsed file, noting what was wrong and what was not used.
pub struct Reader {
    table: toml::Table,
    used: BTreeSet<String>,
    pub problems: Vec<String>,
}

impl Reader {
    pub fn new(table: toml::Table) -> Self {
        Self {
            table,
            used: BTreeSet::new(),
            problems: Vec::new(),
        }
    }

    fn lookup(&self, path: &str) -> Option<&toml::Value> {
        let mut parts = path.split('.');
        let mut value = self.table.get(parts.next()?)?;
        for part in parts {
            value = value.as_table()?.get(part)?;
        }
        Some(value)
    }

    /// Sets `slot` from the value at `path` (such as `font.size`) if there is one of the
    /// right type that `valid` accepts; otherwise leaves it and, if a value was there,
    /// reports why it was not used.
    pub fn read<T: DeserializeOwned>(
        &mut self,
        path: &str,
        slot: &mut T,
        valid: impl FnOnce(&T) -> Result<(), String>,
    ) {
        self.used.insert(path.to_owned());
        let Some(value) = self.lookup(path).cloned() else {
            return;
        };
        match value.try_into::<T>() {
            Ok(v) => match valid(&v) {
                Ok(()) => *slot = v,
                Err(why) => self
                    .problems
                    .push(format!("{path}: {why}; keeping the default")),
            },
            Err(err) => self.problems.push(format!(
                "{path}: {}; keeping the default",
                err.to_string().trim()
            )),
        }
    }

    /// Reports keys in the file that nothing read (typos, or options of another version),
    /// at any depth (`colors.normal.red`); a table that an option reads whole
    /// (`colors.indexed`) is one option.
    pub fn report_unknown(&mut self) {
        let mut unknown = Vec::new();
        for (key, value) in &self.table {
            self.find_unknown(key.clone(), value, &mut unknown);
        }
        for path in unknown {
            self.problems
                .push(format!("{path}: unknown option, ignored"));
        }
    }

    fn find_unknown(&self, path: String, value: &toml::Value, out: &mut Vec<String>) {
        if self.used.contains(&path) {
            return;
        }
        match value.as_table() {
            Some(table) => {
                for (key, value) in table {
                    self.find_unknown(format!("{path}.{key}"), value, out);
                }
            }
            None => out.push(path),
        }
    }
}

/// Accepts any value.
pub fn any<T>(_: &T) -> Result<(), String> {
    Ok(())
}

/// Accepts numbers in `range`.
pub fn within<T: PartialOrd + std::fmt::Display + Copy>(
    range: std::ops::RangeInclusive<T>,
) -> impl FnOnce(&T) -> Result<(), String> {
    move |v| {
        if range.contains(v) {
            Ok(())
        } else {
            Err(format!(
                "{v} is not from {} to {}",
                range.start(),
                range.end()
            ))
        }
    }
}

//! `sluice-bench write`: the read capacity of the terminal this runs in.
//!
//! Writes each payload to the terminal and times the writes: a write returns once the
//! terminal has taken the bytes, so bytes over time is how fast the terminal reads. The
//! payloads are drawn on the alternate screen by default, or on the primary screen
//! ([`Screen`]), and the report comes once the payloads are done, so results are never mixed
//! into the measured output.

use std::io::Write;
use std::os::fd::AsRawFd;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use serde::Serialize;

use crate::payload::{PAYLOADS, payload};
use crate::report::mb_per_s;

/// The outcome for one payload.
#[derive(Debug, Clone, Serialize)]
pub struct WriteResult {
    pub payload: String,
    pub bytes: u64,
    pub seconds: f64,
    pub mb_per_s: f64,
    /// The longest single `write(2)`: how long a program can be stopped by this terminal.
    pub longest_write_ms: f64,
}

/// Which screen the payloads are written on.
///
/// They differ for the terminal: on the alternate screen no line reaches the scrollback,
/// on the primary screen every line that scrolls off the top does, which is what a program's
/// log costs a terminal. `compare` writes its payloads on the primary screen (its probe's
/// `as_a_program`, since 2026-12-03); until 2026-12-06 this command wrote on the alternate
/// one only, so its figures and compare's differed by that cost: Sluice read plain lines
/// 10–16% faster on the alternate screen (docs/performance.md, "Which screen a payload is
/// written on"). The default stays the alternate screen, which leaves the user's scrollback
/// as it was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Screen {
    Alternate,
    Primary,
}

impl Screen {
    /// What enters the screen before the payloads, what follows each payload, and what
    /// leaves the screen before the report.
    fn sequences(self) -> [&'static [u8]; 3] {
        match self {
            Screen::Alternate => [
                b"\x1b[?1049h\x1b[H\x1b[2J",
                b"\x1b[0m\x1b[r\x1b[H\x1b[2J",
                b"\x1b[?1049l",
            ],
            Screen::Primary => [b"\x1b[H\x1b[2J", b"\x1b[0m\x1b[r\n", b""],
        }
    }
}

/// Each write is at most this big, as a program's log writes are; a huge single write would
/// hide stalls inside one call.
const CHUNK: usize = 16 * 1024;

/// Writes `bytes` of `name` to `out` in chunks and times it.
pub fn measure(out: &mut impl Write, name: &str, bytes: usize) -> anyhow::Result<WriteResult> {
    // Whole records, so a little more than `bytes`: cutting at exactly `bytes` can end inside
    // an escape sequence, which then swallows what follows it (urxvt took the rest of a cut
    // truecolour SGR and the probe's reset as a window resize).
    let data = payload(name, bytes).with_context(|| format!("unknown payload {name:?}"))?;
    let data = data.as_slice();
    let started = Instant::now();
    let mut longest = Duration::ZERO;
    for chunk in data.chunks(CHUNK) {
        let t = Instant::now();
        out.write_all(chunk)?;
        out.flush()?;
        longest = longest.max(t.elapsed());
    }
    let elapsed = started.elapsed();
    Ok(WriteResult {
        payload: name.to_string(),
        bytes: data.len() as u64,
        seconds: elapsed.as_secs_f64(),
        mb_per_s: mb_per_s(data.len() as u64, elapsed),
        longest_write_ms: longest.as_secs_f64() * 1e3,
    })
}

/// Runs the measurement on the terminal behind stdout, then writes the report to `output`
/// if given, else prints it once the terminal's screen is restored.
pub fn run(
    which: &str,
    bytes: usize,
    json: bool,
    output: Option<&std::path::Path>,
    screen: Screen,
) -> anyhow::Result<()> {
    let names: Vec<&str> = if which == "all" {
        PAYLOADS.to_vec()
    } else {
        vec![which]
    };
    if let Some(unknown) = names.iter().find(|n| !PAYLOADS.contains(n)) {
        bail!(
            "unknown payload {unknown:?}; known: {} or all",
            PAYLOADS.join(", ")
        );
    }
    let stdout = std::io::stdout();
    // SAFETY: isatty only inspects the descriptor.
    if unsafe { libc::isatty(stdout.as_raw_fd()) } != 1 {
        bail!("stdout is not a terminal: run this inside the terminal to measure");
    }
    let mut out = stdout.lock();
    let [enter, reset, leave] = screen.sequences();
    out.write_all(enter)?;
    let mut results = Vec::new();
    for name in &names {
        results.push(measure(&mut out, name, bytes)?);
        out.write_all(reset)?;
    }
    out.write_all(leave)?;
    out.flush()?;
    drop(out);
    let report = if json {
        serde_json::to_string_pretty(&results)? + "\n"
    } else {
        table(&results)
    };
    match output {
        Some(path) => std::fs::write(path, report)
            .with_context(|| format!("cannot write {}", path.display()))?,
        None => print!("{report}"),
    }
    Ok(())
}

fn table(results: &[WriteResult]) -> String {
    let mut out = format!(
        "{:<10} {:>12} {:>10} {:>10} {:>16}\n",
        "payload", "bytes", "seconds", "MB/s", "longest write ms"
    );
    for r in results {
        out += &format!(
            "{:<10} {:>12} {:>10.3} {:>10.1} {:>16.2}\n",
            r.payload, r.bytes, r.seconds, r.mb_per_s, r.longest_write_ms
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measures_every_byte_into_a_sink() {
        let mut sink = Vec::new();
        let r = measure(&mut sink, "plain", 100_050).unwrap();
        // Whole 100-byte lines.
        assert_eq!(r.bytes, 100_100);
        assert_eq!(sink.len(), 100_100);
        assert!(r.mb_per_s > 0.0);
        assert!(measure(&mut sink, "nope", 10).is_err());
    }
}

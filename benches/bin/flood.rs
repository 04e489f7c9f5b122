//! `flood`: writes a deterministic payload to stdout as fast as the terminal takes it, and
//! reports how long its writes took: the writing program's view of the terminal.
//!
//! Usage: `flood PAYLOAD BYTES [REPORT_FILE]`
//! The report (JSON: bytes, seconds in write, longest write) goes to REPORT_FILE, never to
//! stdout, so it is not mixed into the measured output.

use std::io::Write;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (name, bytes, report) = match args.as_slice() {
        [name, bytes] => (name, bytes, None),
        [name, bytes, report] => (name, bytes, Some(report)),
        _ => bail!("usage: flood PAYLOAD BYTES [REPORT_FILE]"),
    };
    let bytes: usize = bytes.parse().context("BYTES must be a number")?;
    // Build one 1 MiB block and repeat it: generating while writing would time the generator.
    let block = sluice_benches::payload(name, (1 << 20).min(bytes)).with_context(|| {
        format!(
            "unknown payload {name:?}; known: {:?}",
            sluice_benches::PAYLOADS
        )
    })?;
    let mut stdout = std::io::stdout().lock();
    let started = Instant::now();
    let mut longest = Duration::ZERO;
    let mut written = 0;
    while written < bytes {
        let chunk = &block[..block.len().min(bytes - written)];
        let t = Instant::now();
        stdout.write_all(chunk)?;
        longest = longest.max(t.elapsed());
        written += chunk.len();
    }
    stdout.flush()?;
    let seconds = started.elapsed().as_secs_f64();
    if let Some(report) = report {
        let json = serde_json::json!({"bytes": written, "seconds": seconds, "longest_write_seconds": longest.as_secs_f64()});
        std::fs::write(report, json.to_string())?;
    }
    Ok(())
}

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
use serde::{Deserialize, Serialize};

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
    /// Where the writing thread's time went while it wrote.
    pub program: ProgramTime,
}

/// Where a writing program's time went, from its thread's `getrusage(RUSAGE_THREAD)` before
/// and after the payload: what tells a terminal that reads slowly from one that takes the
/// program's CPU.
///
/// - `waits` (voluntary context switches): the program blocked in `write(2)` because the
///   PTY's buffer was full, that is, the terminal had not read yet.
/// - `preemptions` (involuntary context switches): the program was runnable and something
///   else took its CPU (on a machine with fewer cores than busy threads, often the
///   terminal's own threads, or the kernel's flush worker).
/// - `system_ms`: the kernel's work for the bytes on the program's side (the line
///   discipline's output processing and the hand-over to the terminal's side), which
///   grows when the kernel's flush worker, idle on another core, is woken for every piece
///   the line discipline hands over rather than once for many.
///
/// In vtebench's `scrolling_top_region` stream (`y\n`, 1 MiB a sample, 2026-12-07) a Sluice
/// window's writer was preempted 174 times a sample and waited 29 times (medians), urxvt's
/// 7 and 210; its system time was 70–187 ms a sample (p10–p90) in Sluice, 114–141 in urxvt
/// (docs/performance.md, "What a writer's time is made of").
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct ProgramTime {
    pub user_ms: f64,
    pub system_ms: f64,
    pub waits: u64,
    pub preemptions: u64,
}

impl ProgramTime {
    /// The calling thread's totals so far.
    fn now() -> Self {
        // SAFETY: getrusage fills the struct it is given and touches nothing else.
        let usage = unsafe {
            let mut usage: libc::rusage = std::mem::zeroed();
            libc::getrusage(RUSAGE_WHO, &mut usage);
            usage
        };
        let ms = |t: libc::timeval| t.tv_sec as f64 * 1e3 + t.tv_usec as f64 / 1e3;
        Self {
            user_ms: ms(usage.ru_utime),
            system_ms: ms(usage.ru_stime),
            waits: usage.ru_nvcsw as u64,
            preemptions: usage.ru_nivcsw as u64,
        }
    }

    /// What was spent between `before` and `self`.
    fn since(self, before: Self) -> Self {
        Self {
            user_ms: self.user_ms - before.user_ms,
            system_ms: self.system_ms - before.system_ms,
            waits: self.waits.saturating_sub(before.waits),
            preemptions: self.preemptions.saturating_sub(before.preemptions),
        }
    }
}

/// The writing thread's own usage where the kernel counts it per thread; the process's
/// elsewhere, which then also counts `compare`'s probe's other threads (its flood and its key
/// reader; Sluice and its benchmarks run on Linux).
#[cfg(target_os = "linux")]
const RUSAGE_WHO: libc::c_int = libc::RUSAGE_THREAD;
#[cfg(not(target_os = "linux"))]
const RUSAGE_WHO: libc::c_int = libc::RUSAGE_SELF;

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
    let usage = ProgramTime::now();
    let started = Instant::now();
    let mut longest = Duration::ZERO;
    for chunk in data.chunks(CHUNK) {
        let t = Instant::now();
        out.write_all(chunk)?;
        out.flush()?;
        longest = longest.max(t.elapsed());
    }
    let elapsed = started.elapsed();
    let program = ProgramTime::now().since(usage);
    Ok(WriteResult {
        payload: name.to_string(),
        bytes: data.len() as u64,
        seconds: elapsed.as_secs_f64(),
        mb_per_s: mb_per_s(data.len() as u64, elapsed),
        longest_write_ms: longest.as_secs_f64() * 1e3,
        program,
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
        "{:<10} {:>12} {:>10} {:>10} {:>16} {:>9} {:>9} {:>7} {:>11}\n",
        "payload",
        "bytes",
        "seconds",
        "MB/s",
        "longest write ms",
        "user ms",
        "system ms",
        "waits",
        "preemptions"
    );
    for r in results {
        let p = &r.program;
        out += &format!(
            "{:<10} {:>12} {:>10.3} {:>10.1} {:>16.2} {:>9.1} {:>9.1} {:>7} {:>11}\n",
            r.payload,
            r.bytes,
            r.seconds,
            r.mb_per_s,
            r.longest_write_ms,
            p.user_ms,
            p.system_ms,
            p.waits,
            p.preemptions
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

    #[test]
    fn a_reader_that_falls_behind_shows_as_the_writers_waits() {
        // A pipe holds 64 KiB; its reader sleeps before each 64 KiB it takes, so writing
        // 1 MiB blocks the writer again and again: voluntary switches, counted as waits.
        let (mut reader, mut writer) = std::io::pipe().unwrap();
        let drain = std::thread::spawn(move || {
            let mut buf = vec![0u8; 64 << 10];
            loop {
                std::thread::sleep(Duration::from_millis(2));
                match std::io::Read::read(&mut reader, &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
            }
        });
        let r = measure(&mut writer, "plain", 1 << 20).unwrap();
        drop(writer);
        drain.join().unwrap();
        assert!(r.program.waits >= 4, "{:?}", r.program);
        assert!(r.seconds >= 0.02, "{r:?}");
        assert!(r.program.system_ms >= 0.0 && r.program.user_ms >= 0.0);
    }
}

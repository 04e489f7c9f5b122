//! `sluice-bench compare`: terminals side by side, each against the physical limit measured
//! in the same round.
//!
//! Every round runs each arm once, in a fixed rotation ([`stats::rotation`]): the *drain*
//! (the probe on a bare PTY whose master a tight `read(2)` loop empties, the limit no
//! terminal can beat) and each terminal, started in a real window with the probe as its
//! program. The probe (`sluice-bench window-probe`) does everything inside the terminal on
//! request, and the driver measures from outside:
//!
//! | figure | how |
//! |---|---|
//! | start-up to first frame | spawn to the probe's first marker colour on screen |
//! | idle CPU, wake-ups, RSS | `/proc` of the terminal's process over a quiet interval |
//! | key to program, output to frame | as `window-latency`, idle and under a flood |
//! | read capacity per payload | the probe's own write time (bytes ÷ seconds), written as a program's output is (primary screen, `ONLCR`), as a ratio to the drain's in the same round: the fastest try's (median over rounds, the rounds' range, and from six rounds the median's 95% interval), and the median try's |
//! | terminal CPU per MB | the terminal's CPU from the payload's start until its last frame, over the bytes |
//! | Metro-like build | a warm build logging a line per module (`metro-sim --log-every 1`), its seconds against the drain's |
//! | peak RSS | the high-water mark at the end |
//!
//! The driver starts a private Xvfb when `DISPLAY` is unset or empty, kills only the process
//! groups it started, and records the load average with every arm's run.

mod drain;
#[cfg(test)]
mod fixtures;
mod merge;
mod plot;
mod procfs;
mod run_in;
pub mod stats;
mod table;
mod terminals;
mod xvfb;

use std::os::unix::net::UnixListener;
use std::os::unix::process::CommandExt as _;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use serde::{Deserialize, Serialize};

use crate::latency::{Percentiles, percentiles};
use crate::window::protocol::{Message, START_MARK, monotonic_ns};
use crate::window::{self, Probe, x11};
use crate::write::ProgramTime;
pub use drain::DrainStyle;
pub use merge::merge;
pub use plot::plot;
pub use run_in::{Host, run_in};
pub use table::markdown;
pub use terminals::{KNOWN, TerminalSpec, known_names};

/// The name of the limit arm in reports.
pub const DRAIN: &str = "drain";

/// How long a terminal is left alone before its idle figures are read: long enough for
/// start-up work (font caches, shader compiles) to finish and a cursor blink timer, if any,
/// to show what it costs.
const SETTLE: Duration = Duration::from_millis(1000);

/// How many times the drain writes each payload in a round in each of its styles, keeping
/// the fastest of all. The limit is the best the kernel does: one drain alone spread from 118
/// to 246 MB/s between rounds here (64 MiB of plain lines, 16 KiB writes), landing below a
/// terminal's reader now and then; how the writer, the kernel's flush worker and the reader
/// fall on two cores decides.
const TRIES: usize = 3;

/// How many times a terminal writes each payload in a round, keeping the fastest: as many as
/// the drain over all its styles, so that both sides of a ratio are the best of the same
/// number of tries. The fastest of more tries from one spread is faster: the drain's median
/// try came to 0.93× its best of three (39 payload rounds, 2026-12-05), so a terminal with one
/// try against three came out below the drain it matched, and with three against six a
/// terminal reading exactly as the drain does comes out ahead in only a third of the rounds
/// (docs/performance.md, "One try against the best of three", "Three tries against six").
/// More tries also take a terminal's first try, the one that faults in fresh memory, out of
/// the count.
const TERMINAL_TRIES: usize = TRIES * DrainStyle::ALL.len();

/// How long each try of a payload waits before it is written, in every arm, so that every
/// try starts from a quiet terminal, as a program's burst after a pause does, whatever ran
/// before it. Back to back, the drain's tries read plain lines at 99–106 MB/s against 119–127 with
/// this pause (three rounds each), and a terminal's payload met the state the test before it
/// left: Sluice's read-ahead mid-flood, its parser awake (docs/performance.md, "The drain is
/// not the limit here"). Longer than the silence that ends a flood for Sluice
/// (`sluice_pty::read_ahead::QUIET`, checked below), and than any terminal's frame.
const BEFORE_PAYLOAD: Duration = Duration::from_millis(400);
const _: () = assert!(BEFORE_PAYLOAD.as_millis() > sluice_pty::read_ahead::QUIET.as_millis());

/// Pause after the flood is switched on, so samples meet a steady flood.
const FLOOD_RAMP: Duration = Duration::from_millis(300);

/// What to compare, and how hard.
#[derive(Debug, Clone)]
pub struct CompareOptions {
    pub terminals: Vec<TerminalSpec>,
    pub rounds: usize,
    pub payloads: Vec<String>,
    pub bytes: usize,
    pub size: (u16, u16),
    pub samples: usize,
    pub idle: Duration,
}

/// One arm's run in one round.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ArmRound {
    pub arm: String,
    pub round: usize,
    /// The 1-minute load average as the run started.
    pub load_average: f64,
    pub reads: Vec<PayloadRead>,
    pub build: Option<BuildRun>,
    /// What only a window has (`None` for the drain).
    pub window: Option<WindowRun>,
}

impl ArmRound {
    /// What the arm read of `payload` this round, if it wrote it.
    pub fn read(&self, payload: &str) -> Option<&PayloadRead> {
        self.reads.iter().find(|p| p.payload == payload)
    }
}

/// One payload written through the arm: the fastest of its tries.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PayloadRead {
    pub payload: String,
    pub bytes: u64,
    /// As the writer saw it: bytes over the time its writes took.
    pub mb_per_s: f64,
    pub longest_write_ms: f64,
    /// The terminal's own CPU from a try's first byte until its last was on screen, the mean
    /// of the tries (the pauses before the later tries fall inside the count; an idle
    /// terminal spends nothing in them).
    pub cpu_seconds: Option<f64>,
    /// Every try's rate, in the order written (the drain's blocking tries, then its yielding
    /// ones); `mb_per_s` is the fastest.
    pub tries_mb_per_s: Vec<f64>,
    /// Where the writing program's time went in the fastest try: its own CPU, how often it
    /// waited for the terminal to read and how often something took its CPU.
    pub program: ProgramTime,
}

/// The Metro-like build.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BuildRun {
    pub seconds: f64,
    pub cpu_seconds: Option<f64>,
}

/// The figures of a terminal's window.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct WindowRun {
    pub startup_ms: f64,
    pub idle_cpu_percent: f64,
    pub idle_wakeups_per_s: f64,
    pub rss_idle_mib: f64,
    pub anon_idle_mib: f64,
    pub rss_peak_mib: f64,
    pub key_idle: Percentiles,
    pub key_flood: Percentiles,
    pub frame_idle: Percentiles,
    pub frame_flood: Percentiles,
}

/// Everything a comparison measured, round by round.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Comparison {
    pub rounds: usize,
    pub size: (u16, u16),
    pub bytes: usize,
    pub payloads: Vec<String>,
    pub arms: Vec<String>,
    pub runs: Vec<ArmRound>,
    /// Terminal rounds that failed; the terminal's figures are the medians of its other
    /// rounds.
    pub failures: Vec<ArmFailure>,
}

/// A round a terminal did not finish.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ArmFailure {
    pub arm: String,
    pub round: usize,
    /// The error, with its causes.
    pub error: String,
}

/// Runs the comparison; `progress` hears of each arm as it finishes, `failed` of each terminal
/// round that failed. A terminal that fails a round (it crashed, or took more than the
/// probe's 300 s over one payload, as xterm did over 64 MiB of `scroll`) costs only that
/// round: the other terminals' rounds, perhaps many minutes of them, are kept. The drain
/// failing ends the run, since nothing can be judged without the limit.
pub fn run(
    options: &CompareOptions,
    mut progress: impl FnMut(&ArmRound),
    mut failed: impl FnMut(&ArmFailure),
) -> anyhow::Result<Comparison> {
    for t in &options.terminals {
        let program = &t.template[0];
        if which(program).is_none() {
            bail!(
                "{}: {program:?} is not installed (not found on PATH)",
                t.name
            );
        }
    }
    let given = xvfb::given_display(std::env::var_os("DISPLAY"));
    let private_display = match given {
        Some(_) => None,
        None => Some(xvfb::Xvfb::start()?),
    };
    let display = match &private_display {
        Some(x) => x.display.clone(),
        None => given.unwrap_or_default(),
    };
    let dir = std::env::temp_dir().join(format!("sluice-bench-compare-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let bench = Bench {
        options,
        display,
        dir: dir.clone(),
    };
    let mut arms = vec![DRAIN.to_owned()];
    arms.extend(options.terminals.iter().map(|t| t.name.clone()));
    let mut runs = Vec::new();
    let mut failures = Vec::new();
    let result = (|| {
        for round in 0..options.rounds {
            for arm in stats::rotation(arms.len(), round) {
                let run = match arm {
                    0 => bench.drain(round),
                    i => bench.terminal(&options.terminals[i - 1], round),
                }
                .with_context(|| format!("round {}, {}", round + 1, arms[arm]));
                match run {
                    Ok(run) => {
                        progress(&run);
                        runs.push(run);
                    }
                    Err(err) if arm != 0 => {
                        let failure = ArmFailure {
                            arm: arms[arm].clone(),
                            round,
                            error: format!("{err:#}"),
                        };
                        failed(&failure);
                        failures.push(failure);
                    }
                    Err(err) => return Err(err),
                }
            }
        }
        anyhow::Ok(())
    })();
    let _ = std::fs::remove_dir_all(&dir);
    result?;
    Ok(Comparison {
        rounds: options.rounds,
        size: options.size,
        bytes: options.bytes,
        payloads: options.payloads.clone(),
        arms,
        runs,
        failures,
    })
}

fn which(program: &str) -> Option<PathBuf> {
    if program.contains('/') {
        return Some(PathBuf::from(program)).filter(|p| p.exists());
    }
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|d| d.join(program))
        .find(|p| p.is_file())
}

struct Bench<'a> {
    options: &'a CompareOptions,
    display: String,
    dir: PathBuf,
}

impl Bench<'_> {
    /// A fresh socket for the probe of one run.
    fn listen(&self, tag: &str) -> anyhow::Result<(UnixListener, PathBuf)> {
        let socket = self.dir.join(format!("{tag}.sock"));
        let _ = std::fs::remove_file(&socket);
        let listener = UnixListener::bind(&socket).context("cannot create the probe's socket")?;
        Ok((listener, socket))
    }

    /// The limit arm: payloads and the build through a bare drain.
    fn drain(&self, round: usize) -> anyhow::Result<ArmRound> {
        let load_average = procfs::load_average();
        let (listener, socket) = self.listen("drain")?;
        let mut drain = drain::Drain::start(
            &window::probe_command(&socket)?,
            self.options.size,
            DrainStyle::Blocking,
        )?;
        let stream = window::accept(&listener, || {
            drain.has_exited().then(|| "exited".to_owned())
        })?;
        let mut probe = Probe::new(stream)?;
        let Message::Ready { .. } = probe.receive()? else {
            bail!("the probe did not say it was ready");
        };
        let mut reads = Vec::new();
        for payload in &self.options.payloads {
            let mut tries = Vec::new();
            for style in DrainStyle::ALL {
                drain.set_style(style);
                tries.extend(write_tries(
                    &mut probe,
                    TRIES,
                    payload,
                    self.options.bytes,
                    |_| Ok(()),
                )?);
            }
            reads.push(payload_read(payload, &tries, None));
        }
        // The build's baseline in the blocking style, as in every table before the drain had
        // two, so that its figures stay comparable with them (the style was not measured on it).
        drain.set_style(DrainStyle::Blocking);
        let seconds = build(&mut probe)?;
        probe.send("quit")?;
        Ok(ArmRound {
            arm: DRAIN.to_owned(),
            round,
            load_average,
            reads,
            build: Some(BuildRun {
                seconds,
                cpu_seconds: None,
            }),
            window: None,
        })
    }

    /// One terminal, started afresh for the round.
    fn terminal(&self, spec: &TerminalSpec, round: usize) -> anyhow::Result<ArmRound> {
        let load_average = procfs::load_average();
        let (listener, socket) = self.listen(&format!("t{round}"))?;
        let runtime = self.dir.join("runtime");
        std::fs::create_dir_all(&runtime)?;
        let args = spec.command(&window::probe_command(&socket)?, Some(self.options.size));
        let started = monotonic_ns();
        let mut child = spawn_terminal(&args, |command| {
            command
                .env("DISPLAY", &self.display)
                .env("XDG_RUNTIME_DIR", &runtime);
        })?;
        let result = self.measure_terminal(&mut child, &listener, started);
        stop(&mut child);
        let (reads, build, window) = result?;
        Ok(ArmRound {
            arm: spec.name.clone(),
            round,
            load_average,
            reads,
            build: Some(build),
            window: Some(window),
        })
    }

    fn measure_terminal(
        &self,
        child: &mut Child,
        listener: &UnixListener,
        started_ns: u64,
    ) -> anyhow::Result<(Vec<PayloadRead>, BuildRun, WindowRun)> {
        let pid = child.id();
        let stream = window::accept(listener, || {
            child.try_wait().ok().flatten().map(|s| s.to_string())
        })?;
        let mut probe = Probe::new(stream)?;
        let Message::Ready { rows } = probe.receive()? else {
            bail!("the probe did not say it was ready");
        };
        let x = x11::Display::connect_to(Some(&self.display))
            .with_context(|| format!("cannot connect to the X display {}", self.display))?;
        let window = x.wait_for_window(Duration::from_secs(30))?;
        let pixel = window::marker_pixel(&x, window, rows)?;
        window::wait_for_pixel(&x, window, pixel, START_MARK, Duration::from_secs(30))
            .context("the first frame never showed")?;
        let startup_ms = monotonic_ns().saturating_sub(started_ns) as f64 / 1e6;
        x.focus(window)?;

        std::thread::sleep(SETTLE);
        let before = procfs::read(pid)?;
        let quiet = Instant::now();
        std::thread::sleep(self.options.idle);
        let after = procfs::read(pid)?;
        let idle = quiet.elapsed().as_secs_f64();

        let samples = self.options.samples;
        let key_idle = window::key_latencies(&x, &mut probe, samples)?;
        let frame_idle = window::frame_latencies(&x, window, &mut probe, samples, rows)?;
        probe.send("flood on")?;
        std::thread::sleep(FLOOD_RAMP);
        let key_flood = window::key_latencies(&x, &mut probe, samples);
        let frame_flood = window::frame_latencies(&x, window, &mut probe, samples, rows);
        probe.send("flood off")?;
        let (key_flood, frame_flood) = (key_flood?, frame_flood?);
        // One more marker: it shows once the flood's backlog is drawn.
        window::frame_latencies(&x, window, &mut probe, 1, rows)?;

        let mut reads = Vec::new();
        for payload in &self.options.payloads {
            let cpu = procfs::read(pid)?.cpu_seconds;
            // After each try, until its last line is on screen: the next starts from a
            // terminal that has drawn everything, and the CPU counted covers the drawing.
            let tries = write_tries(
                &mut probe,
                TERMINAL_TRIES,
                payload,
                self.options.bytes,
                |probe| window::frame_latencies(&x, window, probe, 1, rows).map(drop),
            )?;
            let cpu = (procfs::read(pid)?.cpu_seconds - cpu) / tries.len() as f64;
            reads.push(payload_read(payload, &tries, Some(cpu)));
        }
        let cpu = procfs::read(pid)?.cpu_seconds;
        let seconds = build(&mut probe)?;
        window::frame_latencies(&x, window, &mut probe, 1, rows)?;
        let end = procfs::read(pid)?;
        probe.send("quit")?;
        let window = WindowRun {
            startup_ms,
            idle_cpu_percent: (after.cpu_seconds - before.cpu_seconds) / idle * 100.0,
            idle_wakeups_per_s: after.switches.saturating_sub(before.switches) as f64 / idle,
            rss_idle_mib: after.rss_mib,
            anon_idle_mib: after.anon_mib,
            rss_peak_mib: end.peak_mib,
            key_idle: percentiles(key_idle),
            key_flood: percentiles(key_flood),
            frame_idle: percentiles(frame_idle),
            frame_flood: percentiles(frame_flood),
        };
        let build = BuildRun {
            seconds,
            cpu_seconds: Some(end.cpu_seconds - cpu),
        };
        Ok((reads, build, window))
    }
}

/// One write of a payload, as the probe timed it: the bytes written (whole records), the
/// seconds the writes took and the longest one.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Try {
    bytes: u64,
    seconds: f64,
    longest_ms: f64,
    program: ProgramTime,
}

/// Has the probe write a payload.
fn write(probe: &mut Probe, payload: &str, bytes: usize) -> anyhow::Result<Try> {
    probe.send(&format!("write {payload} {bytes}"))?;
    match probe.receive()? {
        Message::Wrote {
            bytes,
            seconds,
            longest_ms,
            program,
        } => Ok(Try {
            bytes,
            seconds,
            longest_ms,
            program,
        }),
        other => bail!("expected the probe to report its writes, got {other:?}"),
    }
}

/// Writes a payload `count` times, each after [`BEFORE_PAYLOAD`] and followed by
/// `after_each`.
fn write_tries(
    probe: &mut Probe,
    count: usize,
    payload: &str,
    bytes: usize,
    mut after_each: impl FnMut(&mut Probe) -> anyhow::Result<()>,
) -> anyhow::Result<Vec<Try>> {
    let mut tries = Vec::with_capacity(count);
    for _ in 0..count {
        std::thread::sleep(BEFORE_PAYLOAD);
        tries.push(write(probe, payload, bytes)?);
        after_each(probe)?;
    }
    Ok(tries)
}

/// Has the probe run the Metro-like build; returns its seconds.
fn build(probe: &mut Probe) -> anyhow::Result<f64> {
    probe.send("build")?;
    match probe.receive()? {
        Message::Built { seconds } => Ok(seconds),
        other => bail!("expected the probe to report its build, got {other:?}"),
    }
}

/// A payload's figures from its tries: the fastest try's, and every try's rate.
fn payload_read(payload: &str, tries: &[Try], cpu_seconds: Option<f64>) -> PayloadRead {
    let rate = |t: &Try| crate::report::mb_per_s(t.bytes, Duration::from_secs_f64(t.seconds));
    let best = tries
        .iter()
        .max_by(|a, b| rate(a).total_cmp(&rate(b)))
        .expect("every arm makes at least one try");
    PayloadRead {
        payload: payload.to_owned(),
        bytes: best.bytes,
        mb_per_s: rate(best),
        longest_write_ms: best.longest_ms,
        program: best.program,
        cpu_seconds,
        tries_mb_per_s: tries.iter().map(rate).collect(),
    }
}

/// Children that end with the driver, however it ends (^C included), so that an interrupted
/// comparison leaves no terminal or X server behind.
pub(crate) trait ParentDeath {
    fn with_parent_death_signal(&mut self) -> &mut Self;
}

impl ParentDeath for Command {
    fn with_parent_death_signal(&mut self) -> &mut Self {
        // SAFETY: prctl is async-signal-safe, and the closure touches nothing else between
        // fork and exec.
        unsafe {
            self.pre_exec(|| {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            })
        }
    }
}

/// Starts a terminal from its command line `args`, with `configure` applied first: in its own
/// process group, so that stopping it reaches whatever it started and nothing else; ending
/// with the driver; its standard streams null.
fn spawn_terminal(args: &[String], configure: impl FnOnce(&mut Command)) -> anyhow::Result<Child> {
    let mut command = Command::new(&args[0]);
    command.args(&args[1..]);
    configure(&mut command);
    command
        .process_group(0)
        .with_parent_death_signal()
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .with_context(|| format!("cannot start {}", args[0]))
}

/// Lets the terminal exit on its own once the probe has (up to 5 s), then stops its process
/// group.
fn stop(child: &mut Child) {
    let deadline = Instant::now() + Duration::from_secs(5);
    while Instant::now() < deadline {
        if let Ok(Some(_)) = child.try_wait() {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    kill_group(child);
}

/// Kills the process group this driver created for the terminal, and reaps the terminal.
fn kill_group(child: &mut Child) {
    // SAFETY: signals the process group this driver created for the terminal (its pid).
    unsafe { libc::kill(-(child.id() as libc::pid_t), libc::SIGKILL) };
    let _ = child.wait();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn try_of(seconds: f64, longest_ms: f64) -> Try {
        Try {
            bytes: 16_000_000,
            seconds,
            longest_ms,
            program: ProgramTime {
                waits: (longest_ms * 10.0) as u64,
                ..ProgramTime::default()
            },
        }
    }

    #[test]
    fn a_payload_counts_its_fastest_try_and_keeps_every_one() {
        let tries = [try_of(0.2, 5.0), try_of(0.1, 3.0), try_of(0.16, 9.0)];
        let read = payload_read("plain", &tries, Some(0.05));
        assert_eq!(read.mb_per_s, 160.0);
        assert_eq!(
            read.longest_write_ms, 3.0,
            "the fastest try's, not the largest"
        );
        assert_eq!(
            read.tries_mb_per_s,
            [80.0, 160.0, 100.0],
            "in the order written"
        );
        assert_eq!(read.cpu_seconds, Some(0.05));
        assert_eq!(read.program.waits, 30, "the fastest try's");
    }
}

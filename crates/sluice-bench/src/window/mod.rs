//! `sluice-bench window-latency`: latency through a real terminal window on X11, for any
//! terminal: keystroke to the program's read, and the program's write to pixels on screen.
//!
//! ```text
//! driver ── XTest key ──► X server ──► terminal ──► PTY ──► probe reads    (key latency)
//! driver ◄── "paint" ───► probe writes a coloured row ──► terminal draws ──► X server
//!        └── GetImage polls the row's pixels until the colour shows       (frame latency)
//! ```
//!
//! The driver starts the terminal with the probe (`sluice-bench window-probe`) as its
//! program; the two talk over a Unix socket and share `CLOCK_MONOTONIC`, so each latency is
//! the difference of two readings of one clock. Under `--mode flood` the probe also floods
//! the terminal with text in a scroll region below the marker row, so keys and frames queue
//! behind real output.

mod probe;
pub(crate) mod protocol;
pub(crate) mod x11;

use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::{UnixListener, UnixStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use serde::Serialize;

use crate::latency::{Percentiles, percentiles};
pub use probe::run as run_probe;
use protocol::{Message, monotonic_ns};

/// Colours the marker row alternates between: far from any theme's text and background.
const MARKS: [[u8; 3]; 2] = [[0xff, 0x00, 0xff], [0x00, 0xff, 0xff]];

/// Pause between samples, so each starts from a quiet terminal (or a steady flood) rather
/// than from the tail of the previous one.
const BETWEEN_SAMPLES: Duration = Duration::from_millis(25);

#[derive(Debug, Clone)]
pub struct WindowLatencyOptions {
    pub samples: usize,
    pub flood: Vec<bool>,
    /// The terminal's command line; `{}` is replaced by the probe's (appended if absent).
    pub terminal: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct WindowLatency {
    pub load: &'static str,
    pub key_to_pty: Percentiles,
    pub output_to_frame: Percentiles,
}

/// Runs the terminal once and measures each load in turn.
pub fn run(options: &WindowLatencyOptions) -> anyhow::Result<Vec<WindowLatency>> {
    let dir = std::env::temp_dir().join(format!("sluice-bench-window-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let socket = dir.join("probe.sock");
    let _ = std::fs::remove_file(&socket);
    let listener = UnixListener::bind(&socket).context("cannot create the probe's socket")?;
    let mut terminal = spawn_terminal(&options.terminal, &socket)?;
    let result = measure(options, &listener, &mut terminal);
    let _ = terminal.kill();
    let _ = terminal.wait();
    let _ = std::fs::remove_dir_all(&dir);
    result
}

/// The probe's command line, talking to the driver on `socket`.
pub(crate) fn probe_command(socket: &std::path::Path) -> anyhow::Result<Vec<String>> {
    Ok(vec![
        std::env::current_exe()?.to_string_lossy().into_owned(),
        "window-probe".to_owned(),
        "--socket".to_owned(),
        socket.to_string_lossy().into_owned(),
    ])
}

fn spawn_terminal(template: &[String], socket: &std::path::Path) -> anyhow::Result<Child> {
    let spec = crate::compare::TerminalSpec {
        name: String::new(),
        template: template.to_vec(),
    };
    let args = spec.command(&probe_command(socket)?, None);
    let (program, rest) = args.split_first().context("no terminal command given")?;
    Command::new(program)
        .args(rest)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .spawn()
        .with_context(|| format!("cannot start {program}"))
}

fn measure(
    options: &WindowLatencyOptions,
    listener: &UnixListener,
    terminal: &mut Child,
) -> anyhow::Result<Vec<WindowLatency>> {
    let exited = || terminal.try_wait().ok().flatten().map(|s| s.to_string());
    let mut probe = Probe::new(accept(listener, exited)?)?;
    let Message::Ready { rows } = probe.receive()? else {
        bail!("the probe did not say it was ready");
    };
    let x = x11::Display::connect().context("cannot connect to the X display")?;
    let window = x.wait_for_window(Duration::from_secs(30))?;
    x.focus(window)?;
    std::thread::sleep(Duration::from_millis(300));

    let mut results = Vec::new();
    for &flood in &options.flood {
        probe.send(if flood { "flood on" } else { "flood off" })?;
        std::thread::sleep(Duration::from_millis(300));
        let keys = key_latencies(&x, &mut probe, options.samples)?;
        let frames = frame_latencies(&x, window, &mut probe, options.samples, rows)?;
        results.push(WindowLatency {
            load: if flood { "flood" } else { "idle" },
            key_to_pty: percentiles(keys),
            output_to_frame: percentiles(frames),
        });
    }
    probe.send("flood off")?;
    probe.send("quit")?;
    Ok(results)
}

/// Waits for the probe to connect, or for the terminal to fail: `exited` says how the
/// terminal ended, once it has.
pub(crate) fn accept(
    listener: &UnixListener,
    mut exited: impl FnMut() -> Option<String>,
) -> anyhow::Result<UnixStream> {
    listener.set_nonblocking(true)?;
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        match listener.accept() {
            Ok((stream, _)) => {
                stream.set_nonblocking(false)?;
                // Generous: a slow terminal can take a minute over a big payload.
                stream.set_read_timeout(Some(Duration::from_secs(300)))?;
                return Ok(stream);
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
            Err(e) => return Err(e.into()),
        }
        if let Some(status) = exited() {
            bail!("the terminal exited ({status}) before the probe started");
        }
        if Instant::now() > deadline {
            bail!("the probe did not start within 60 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The driver's end of the probe's socket.
pub(crate) struct Probe {
    reader: BufReader<UnixStream>,
    writer: UnixStream,
    /// Markers painted so far: each is in the other colour from the one before, so that a
    /// marker is never mistaken for the last one still on screen.
    painted: usize,
}

impl Probe {
    pub(crate) fn new(stream: UnixStream) -> anyhow::Result<Probe> {
        Ok(Probe {
            reader: BufReader::new(stream.try_clone()?),
            writer: stream,
            painted: 0,
        })
    }

    pub(crate) fn send(&mut self, line: &str) -> anyhow::Result<()> {
        writeln!(self.writer, "{line}")?;
        Ok(())
    }

    pub(crate) fn receive(&mut self) -> anyhow::Result<Message> {
        let mut line = String::new();
        if self.reader.read_line(&mut line)? == 0 {
            bail!("the probe hung up");
        }
        Message::parse(&line)
    }
}

/// Presses a key with XTest and waits for the probe to read it.
pub(crate) fn key_latencies(
    x: &x11::Display,
    probe: &mut Probe,
    samples: usize,
) -> anyhow::Result<Vec<Duration>> {
    let key = x.keycode_for('a')?;
    let mut out = Vec::with_capacity(samples);
    for _ in 0..samples {
        let sent = monotonic_ns();
        x.tap(key)?;
        let Message::Key { ns: read } = probe.receive()? else {
            bail!("expected the probe to report a key");
        };
        out.push(Duration::from_nanos(read.saturating_sub(sent)));
        std::thread::sleep(BETWEEN_SAMPLES);
    }
    Ok(out)
}

/// Has the probe paint the marker row and polls the window until the colour shows.
pub(crate) fn frame_latencies(
    x: &x11::Display,
    window: u32,
    probe: &mut Probe,
    samples: usize,
    rows: u16,
) -> anyhow::Result<Vec<Duration>> {
    let (px, py) = marker_pixel(x, window, rows)?;
    let mut out = Vec::with_capacity(samples);
    for _ in 0..samples {
        let color = MARKS[probe.painted % 2];
        probe.painted += 1;
        probe.send(&format!("paint {} {} {}", color[0], color[1], color[2]))?;
        let Message::Painted { ns: written } = probe.receive()? else {
            bail!("expected the probe to report its write");
        };
        wait_for_pixel(x, window, (px, py), color, Duration::from_secs(10)).with_context(|| {
            let size = x.size(window).unwrap_or_default();
            format!("in a window of {}x{} px and {rows} rows", size.0, size.1)
        })?;
        out.push(Duration::from_nanos(monotonic_ns().saturating_sub(written)));
        std::thread::sleep(BETWEEN_SAMPLES);
    }
    Ok(out)
}

/// Where the marker row is looked at: the middle of the top row, whatever the padding (half a
/// row down, half-way across).
pub(crate) fn marker_pixel(x: &x11::Display, window: u32, rows: u16) -> anyhow::Result<(i16, i16)> {
    let (width, height) = x.size(window)?;
    Ok(((width / 2) as i16, (height / rows.max(1) / 2) as i16))
}

/// Polls one pixel of the window until it shows `color`.
pub(crate) fn wait_for_pixel(
    x: &x11::Display,
    window: u32,
    (px, py): (i16, i16),
    color: [u8; 3],
    timeout: Duration,
) -> anyhow::Result<()> {
    let deadline = Instant::now() + timeout;
    while x.pixel(window, px, py)? != color {
        if Instant::now() > deadline {
            bail!("the marker row never showed {color:?} at ({px}, {py})");
        }
    }
    Ok(())
}

//! `sluice-bench window-probe`: the program the driver runs inside the terminal. It reports
//! each key it reads, paints the marker row on request, floods the rows below it, and, for
//! `sluice-bench compare`, writes a payload or runs a Metro-like build on request and reports
//! what its writes cost it.

use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use anyhow::Context;

use super::protocol::{Message, START_MARK, monotonic_ns};
use crate::{metro, write};

/// One flood write: big enough to keep the terminal busy, small enough that a marker
/// waiting for its turn is not held back long by the probe itself.
const FLOOD_CHUNK: usize = 16 * 1024;

pub fn run(socket: &Path) -> anyhow::Result<()> {
    let stream = UnixStream::connect(socket).context("cannot reach the driver")?;
    let report = Arc::new(Mutex::new(stream.try_clone()?));
    let saved = raw_input_mode()?;
    let rows = rows();
    let out = Arc::new(Mutex::new(std::io::stdout()));
    // The alternate screen with the cursor hidden; row 1 is the marker's, rows 2 and below
    // scroll (DECSTBM) under the flood; the flood's cursor starts at the bottom. The marker
    // starts in START_MARK, for the driver to time the first frame by.
    let [r, g, b] = START_MARK;
    // The marker as last painted: a payload leaves the probe's screen, which is drawn anew
    // after it.
    let mut painted = marker(r, g, b);
    write_all(
        &out,
        format!("\x1b[?25l{}", probe_screen(&painted, rows)).as_bytes(),
    )?;
    writeln!(report.lock().unwrap(), "{}", Message::Ready { rows })?;

    spawn_key_reporter(report.clone())?;
    let flooding = Arc::new(AtomicBool::new(false));
    spawn_flood(out.clone(), flooding.clone())?;

    for line in BufReader::new(stream).lines() {
        let line = line?;
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["paint", r, g, b] => {
                let marker = marker(r, g, b);
                painted.clone_from(&marker);
                let guard = out.lock().unwrap_or_else(|p| p.into_inner());
                let ns = monotonic_ns();
                let mut stdout = guard.lock();
                stdout.write_all(marker.as_bytes())?;
                stdout.flush()?;
                drop(stdout);
                drop(guard);
                writeln!(report.lock().unwrap(), "{}", Message::Painted { ns })?;
            }
            ["write", name, bytes] => {
                let bytes: usize = bytes.parse().context("write: BYTES is not a number")?;
                let result = as_a_program(&out, &painted, rows, |stdout| {
                    write::measure(stdout, name, bytes)
                })?;
                writeln!(
                    report.lock().unwrap(),
                    "{}",
                    Message::Wrote {
                        bytes: result.bytes,
                        seconds: result.seconds,
                        longest_ms: result.longest_write_ms,
                        program: result.program,
                    }
                )?;
            }
            ["build"] => {
                let build = metro::Build::warm(metro::WARM_MODULES, Some(1));
                let result = as_a_program(&out, &painted, rows, |stdout| {
                    Ok(metro::run(&build, stdout)?)
                })?;
                writeln!(
                    report.lock().unwrap(),
                    "{}",
                    Message::Built {
                        seconds: result.build_seconds
                    }
                )?;
            }
            ["flood", "on"] => flooding.store(true, Ordering::Relaxed),
            ["flood", "off"] => flooding.store(false, Ordering::Relaxed),
            ["quit"] => break,
            _ => {}
        }
    }
    flooding.store(false, Ordering::Relaxed);
    let _ = write_all(&out, b"\x1b[r\x1b[?25h\x1b[?1049l");
    restore_mode(&saved);
    Ok(())
}

/// Erases the marker row in a colour (an erase takes the current background), with the
/// flood's cursor saved and restored around it: one write.
fn marker(
    r: impl std::fmt::Display,
    g: impl std::fmt::Display,
    b: impl std::fmt::Display,
) -> String {
    format!("\x1b7\x1b[1;1H\x1b[48;2;{r};{g};{b}m\x1b[2K\x1b[0m\x1b8")
}

/// The probe's screen below the marker row: a scroll region with the cursor at its bottom.
fn layout(rows: u16) -> String {
    format!("\x1b[2;{rows}r\x1b[{rows};1H")
}

/// The probe's own screen: the alternate screen, cleared, with the marker row painted and
/// the flood's region below it.
fn probe_screen(marker: &str, rows: u16) -> String {
    format!("\x1b[?1049h\x1b[2J{marker}{}", layout(rows))
}

/// Runs `work` where a program's output goes: on the primary screen, from its top left,
/// scrolling the whole screen into the terminal's scrollback. Then draws the probe's screen
/// anew, with the marker as last painted.
///
/// Before 2026-12-03 payloads ran on the probe's screen, inside the flood's scroll region:
/// every line feed at the bottom scrolled a region that starts at row 2, which no log does,
/// and which some grids (alacritty_terminal's) do a row at a time, and no line went to the
/// scrollback.
fn as_a_program<T>(
    out: &Mutex<std::io::Stdout>,
    marker: &str,
    rows: u16,
    work: impl FnOnce(&mut std::io::StdoutLock<'static>) -> anyhow::Result<T>,
) -> anyhow::Result<T> {
    let guard = out.lock().unwrap_or_else(|p| p.into_inner());
    let mut stdout = guard.lock();
    write!(stdout, "\x1b[?1049l\x1b[0m\x1b[r\x1b[H\x1b[2J")?;
    stdout.flush()?;
    let result = work(&mut stdout)?;
    write!(stdout, "\x1b[0m\x1b[r{}", probe_screen(marker, rows))?;
    stdout.flush()?;
    Ok(result)
}

fn write_all(out: &Mutex<std::io::Stdout>, bytes: &[u8]) -> std::io::Result<()> {
    let guard = out.lock().unwrap_or_else(|p| p.into_inner());
    let mut stdout = guard.lock();
    stdout.write_all(bytes)?;
    stdout.flush()
}

/// Reports the time each byte of input is read.
fn spawn_key_reporter(report: Arc<Mutex<UnixStream>>) -> std::io::Result<()> {
    std::thread::Builder::new()
        .name("keys".into())
        .spawn(move || {
            let mut buf = [0u8; 256];
            let mut stdin = std::io::stdin().lock();
            while let Ok(n) = stdin.read(&mut buf) {
                if n == 0 {
                    break;
                }
                let ns = monotonic_ns();
                let mut report = report.lock().unwrap_or_else(|p| p.into_inner());
                for _ in 0..n {
                    if writeln!(report, "{}", Message::Key { ns }).is_err() {
                        return;
                    }
                }
            }
        })?;
    Ok(())
}

/// Writes lines of text into the scroll region while `flooding` is set.
fn spawn_flood(out: Arc<Mutex<std::io::Stdout>>, flooding: Arc<AtomicBool>) -> std::io::Result<()> {
    let chunk = crate::payload::payload("plain", FLOOD_CHUNK).expect("plain is a payload");
    std::thread::Builder::new()
        .name("flood".into())
        .spawn(move || {
            loop {
                if flooding.load(Ordering::Relaxed) {
                    if write_all(&out, &chunk).is_err() {
                        return;
                    }
                } else {
                    std::thread::sleep(std::time::Duration::from_millis(5));
                }
            }
        })?;
    Ok(())
}

fn rows() -> u16 {
    let mut ws = libc::winsize {
        ws_row: 0,
        ws_col: 0,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    // SAFETY: TIOCGWINSZ fills a winsize; fd 1 is the terminal.
    let ok = unsafe { libc::ioctl(1, libc::TIOCGWINSZ, &mut ws) } == 0;
    if ok && ws.ws_row > 0 { ws.ws_row } else { 24 }
}

/// Puts the terminal's input in raw mode (keys arrive byte by byte, unechoed) and keeps its
/// output processed, as Node's `setRawMode` does (libuv's `UV_TTY_MODE_RAW` sets `ONLCR` and
/// leaves `OPOST` alone): a Metro dev server, which reads keys that way, prints its log lines
/// through `ONLCR`, so each `\n` it writes reaches the terminal as `\r\n`. Returns the old
/// mode.
///
/// Before 2026-12-03 the probe used `cfmakeraw`, which also clears `OPOST`: every payload
/// line ended in a bare line feed, so the next began where the last ended and lines wrapped
/// and stair-stepped as no program's output does.
fn raw_input_mode() -> anyhow::Result<libc::termios> {
    // SAFETY: termios is plain data; tcgetattr fills it for fd 0.
    let mut saved: libc::termios = unsafe { std::mem::zeroed() };
    if unsafe { libc::tcgetattr(0, &mut saved) } != 0 {
        anyhow::bail!(
            "the probe's input is not a terminal: {}",
            std::io::Error::last_os_error()
        );
    }
    let mut raw = saved;
    // SAFETY: cfmakeraw edits the copy; tcsetattr applies it to fd 0.
    unsafe {
        libc::cfmakeraw(&mut raw);
        raw.c_oflag = saved.c_oflag | libc::OPOST | libc::ONLCR;
        libc::tcsetattr(0, libc::TCSANOW, &raw);
    }
    Ok(saved)
}

fn restore_mode(saved: &libc::termios) {
    // SAFETY: restores the mode read by `raw_input_mode` on fd 0.
    unsafe { libc::tcsetattr(0, libc::TCSANOW, saved) };
}

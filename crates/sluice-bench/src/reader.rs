//! `sluice-bench reader`: runs a command on a real PTY and reads its output the way a slow,
//! stalled or XOFF-ed terminal would, to show how the program fares behind such a reader.

use std::io::Read;
use std::os::fd::RawFd;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::{Context, anyhow, bail};
use portable_pty::{CommandBuilder, PtySize, native_pty_system};
use serde::Serialize;

use crate::report::mb_per_s;

/// How to read.
#[derive(Debug, Clone, Default)]
pub struct ReaderOptions {
    /// Read at most this many bytes per second; `None`: as fast as possible.
    pub rate: Option<u64>,
    /// Stop reading at this time after the start, for this long.
    pub stall: Option<(Duration, Duration)>,
    /// Send ^S (XOFF) at this time, and ^Q (XON) this long after.
    pub xoff: Option<(Duration, Duration)>,
}

/// What the run measured.
#[derive(Debug, Clone, Serialize)]
pub struct ReaderResult {
    /// From spawning the command until it exited.
    pub command_seconds: f64,
    pub exit_code: u32,
    pub bytes: u64,
    /// From the start until the last byte was read.
    pub read_seconds: f64,
    pub read_mb_per_s: f64,
}

/// How long to have spent reading `bytes` at `rate` bytes per second.
pub fn paced_elapsed(bytes: u64, rate: u64) -> Duration {
    Duration::from_secs_f64(bytes as f64 / rate.max(1) as f64)
}

/// The largest read that keeps pacing smooth: about 50 reads a second, 1 byte to 64 KiB.
pub fn read_size(rate: Option<u64>) -> usize {
    rate.map_or(64 * 1024, |r| (r / 50).clamp(1, 64 * 1024) as usize)
}

fn write_control(fd: RawFd, byte: u8) -> anyhow::Result<()> {
    // SAFETY: writes one byte from a valid buffer to the PTY master we hold.
    if unsafe { libc::write(fd, (&byte as *const u8).cast(), 1) } != 1 {
        return Err(std::io::Error::last_os_error()).context("cannot write to the PTY");
    }
    Ok(())
}

/// Turns XON/XOFF output flow control on, so that ^S from the reader stops the program's
/// output in the line discipline as it would in a terminal.
fn enable_flow_control(fd: RawFd) -> anyhow::Result<()> {
    // SAFETY: termios is plain data filled by tcgetattr before use.
    let mut tio: libc::termios = unsafe { std::mem::zeroed() };
    if unsafe { libc::tcgetattr(fd, &mut tio) } != 0 {
        return Err(std::io::Error::last_os_error()).context("tcgetattr");
    }
    tio.c_iflag |= libc::IXON;
    // SAFETY: a termios read from the same descriptor.
    if unsafe { libc::tcsetattr(fd, libc::TCSANOW, &tio) } != 0 {
        return Err(std::io::Error::last_os_error()).context("tcsetattr");
    }
    Ok(())
}

/// Runs `command` and reads its output as `options` say.
pub fn run(command: &[String], options: &ReaderOptions) -> anyhow::Result<ReaderResult> {
    if command.is_empty() {
        bail!("no command given: sluice-bench reader [OPTIONS] -- COMMAND [ARGS…]");
    }
    let pair = native_pty_system()
        .openpty(PtySize {
            rows: 24,
            cols: 80,
            pixel_width: 0,
            pixel_height: 0,
        })
        .map_err(|e| anyhow!("cannot open a PTY: {e:#}"))?;
    let fd = pair
        .master
        .as_raw_fd()
        .ok_or_else(|| anyhow!("no PTY master descriptor"))?;
    if options.xoff.is_some() {
        enable_flow_control(fd)?;
    }
    let mut builder = CommandBuilder::from_argv(command.iter().map(Into::into).collect());
    builder.cwd(std::env::current_dir()?);
    let started = Instant::now();
    let mut child = pair
        .slave
        .spawn_command(builder)
        .map_err(|e| anyhow!("cannot run {:?}: {e:#}", command[0]))?;
    drop(pair.slave);
    let (exit_tx, exit_rx) = mpsc::channel();
    std::thread::spawn(move || {
        let status = child.wait();
        let _ = exit_tx.send((Instant::now(), status.map(|s| s.exit_code()).unwrap_or(1)));
    });

    let mut reader = pair
        .master
        .try_clone_reader()
        .map_err(|e| anyhow!("{e:#}"))?;
    let mut buf = vec![0u8; read_size(options.rate)];
    let mut bytes = 0u64;
    let mut last_read = started;
    let (mut stalled, mut xoff_sent, mut xon_sent) = (false, false, false);
    loop {
        let now = started.elapsed();
        if let Some((at, length)) = options.stall
            && !stalled
            && now >= at
        {
            std::thread::sleep(length);
            stalled = true;
        }
        if let Some((at, length)) = options.xoff {
            if !xoff_sent && now >= at {
                write_control(fd, 0x13)?;
                xoff_sent = true;
            }
            if xoff_sent && !xon_sent && now >= at + length {
                write_control(fd, 0x11)?;
                xon_sent = true;
            }
        }
        // While XOFF-ed the program cannot write, so a blocking read would sleep through the
        // moment to send XON: wait in short steps instead.
        if xoff_sent && !xon_sent {
            std::thread::sleep(Duration::from_millis(5));
            continue;
        }
        match reader.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                bytes += n as u64;
                last_read = Instant::now();
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) if e.raw_os_error() == Some(libc::EIO) => break,
            Err(e) => return Err(e).context("reading the PTY"),
        }
        if let Some(rate) = options.rate {
            let due = paced_elapsed(bytes, rate);
            let spent = started.elapsed();
            if due > spent {
                std::thread::sleep(due - spent);
            }
        }
    }
    let (exited, exit_code) = exit_rx
        .recv_timeout(Duration::from_secs(10))
        .context("the command did not exit")?;
    let read_time = last_read.duration_since(started);
    Ok(ReaderResult {
        command_seconds: exited.duration_since(started).as_secs_f64(),
        exit_code,
        bytes,
        read_seconds: read_time.as_secs_f64(),
        read_mb_per_s: mb_per_s(bytes, read_time),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pacing_arithmetic() {
        // 100 KB at 10 KB/s takes 10 s.
        assert_eq!(paced_elapsed(100_000, 10_000), Duration::from_secs(10));
        assert_eq!(read_size(Some(10_000)), 200);
        assert_eq!(read_size(Some(10)), 1);
        assert_eq!(read_size(None), 65536);
    }
}

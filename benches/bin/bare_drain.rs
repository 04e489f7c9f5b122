//! `bare-drain`: the baseline every terminal is measured against. Runs a command on a PTY and
//! reads its output as fast as possible, discarding it: no parsing, no ring, no threads.
//!
//! Usage: bare-drain COMMAND [ARGS…]; prints JSON (bytes, seconds) to stderr at the end.

use std::io::Read;
use std::time::Instant;

use anyhow::{Context, bail};
use portable_pty::{CommandBuilder, PtySize, native_pty_system};

fn main() -> anyhow::Result<()> {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    if argv.is_empty() {
        bail!("usage: bare-drain COMMAND [ARGS…]");
    }
    let started = Instant::now();
    let pair = native_pty_system()
        .openpty(PtySize {
            rows: 50,
            cols: 160,
            pixel_width: 0,
            pixel_height: 0,
        })
        .map_err(|e| anyhow::anyhow!("{e:#}"))?;
    let mut command = CommandBuilder::from_argv(argv.iter().map(Into::into).collect());
    command.cwd(std::env::current_dir()?);
    let mut child = pair
        .slave
        .spawn_command(command)
        .map_err(|e| anyhow::anyhow!("{e:#}"))?;
    drop(pair.slave);
    let mut reader = pair
        .master
        .try_clone_reader()
        .map_err(|e| anyhow::anyhow!("{e:#}"))?;
    let mut buf = vec![0u8; 64 * 1024];
    let mut total = 0u64;
    loop {
        match reader.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => total += n as u64,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) if e.raw_os_error() == Some(5) => break, // EIO: every slave closed.
            Err(e) => return Err(e).context("read"),
        }
    }
    let status = child.wait()?;
    let json = serde_json::json!({"bytes": total, "seconds": started.elapsed().as_secs_f64(), "exit": status.exit_code()});
    eprintln!("{json}");
    Ok(())
}

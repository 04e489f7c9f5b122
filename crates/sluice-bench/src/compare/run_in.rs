//! `sluice-bench run-in`: a command inside one terminal, started as `compare` starts it (the
//! same command line, font and window size), for benchmarks that run inside the terminal they
//! measure, such as vtebench (`benches/vtebench.sh`).

use std::time::{Duration, Instant};

use anyhow::bail;

use super::TerminalSpec;

/// Starts `spec` at `size` with `command` inside and waits for the terminal to exit (known
/// terminals exit with their command). Past `timeout` the terminal's process group is killed
/// and the run is an error.
pub fn run_in(
    spec: &TerminalSpec,
    size: (u16, u16),
    command: &[String],
    timeout: Duration,
) -> anyhow::Result<()> {
    let args = spec.command(command, Some(size));
    let mut child = super::spawn_terminal(&args, |_| {})?;
    let deadline = Instant::now() + timeout;
    loop {
        // Terminals differ in what status they exit with; what the command leaves behind
        // (vtebench's results file) is what tells whether it ran.
        if child.try_wait()?.is_some() {
            return Ok(());
        }
        if Instant::now() >= deadline {
            super::kill_group(&mut child);
            bail!("{} was still running after {timeout:?}", spec.name);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

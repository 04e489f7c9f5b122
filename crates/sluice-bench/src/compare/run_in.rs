//! `sluice-bench run-in`: a command inside one terminal, started as `compare` starts it (the
//! same command line, font and window size), for benchmarks that run inside the terminal they
//! measure, such as vtebench (`benches/vtebench.sh`); or on the drain, compare's limit arm, so
//! that such a benchmark has the limit measured beside the terminals.

use std::time::{Duration, Instant};

use anyhow::bail;

use super::TerminalSpec;
use super::drain::{Drain, DrainStyle};

/// Where `run-in` runs its command.
#[derive(Debug, Clone)]
pub enum Host {
    /// A terminal, started as `compare` starts it.
    Terminal(TerminalSpec),
    /// A bare PTY whose master a tight `read(2)` loop empties: compare's limit arm, nearly the
    /// limit but for short lines (crates/sluice-bench/src/compare/drain.rs). A benchmark that every terminal ties
    /// with it is measuring the kernel (docs/benchmarks.md, "vtebench"). It reads in the
    /// style given from start to end; `compare` keeps the faster of both.
    Drain(DrainStyle),
}

/// Runs `command` in `host` at `size` and waits for it to end (known terminals exit with
/// their command). Past `timeout` the terminal's process group, or the command on the drain,
/// is killed and the run is an error.
pub fn run_in(
    host: &Host,
    size: (u16, u16),
    command: &[String],
    timeout: Duration,
) -> anyhow::Result<()> {
    let deadline = Instant::now() + timeout;
    match host {
        Host::Terminal(spec) => {
            let args = spec.command(command, Some(size));
            let mut child = super::spawn_terminal(&args, |_| {})?;
            // Terminals differ in what status they exit with; what the command leaves behind
            // (vtebench's results file) is what tells whether it ran.
            if wait_until(deadline, || Ok(child.try_wait()?.is_some()))? {
                return Ok(());
            }
            super::kill_group(&mut child);
            bail!("{} was still running after {timeout:?}", spec.name);
        }
        Host::Drain(style) => {
            // Dropping the drain kills the command if it is still running.
            let mut drain = Drain::start(command, size, *style)?;
            if wait_until(deadline, || Ok(drain.has_exited()))? {
                return Ok(());
            }
            bail!(
                "{} was still running on the drain after {timeout:?}",
                command[0]
            );
        }
    }
}

/// Polls `ended` until it says so (true) or `deadline` passes (false).
fn wait_until(
    deadline: Instant,
    mut ended: impl FnMut() -> anyhow::Result<bool>,
) -> anyhow::Result<bool> {
    loop {
        if ended()? {
            return Ok(true);
        }
        if Instant::now() >= deadline {
            return Ok(false);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

//! Headless mode: the whole pipeline, no window.
//!
//! Tests, CI and benchmarks use it to drive real programs through the real reader, ring,
//! parser and terminal, then read the final screen from stdout.

use std::io::Write;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use serde::Serialize;
use sluice_pty::{Pty, PtyOptions, WinSize};
use sluice_render::Offscreen;
use sluice_term::{Session, Terminal, TerminalOptions};

use crate::app::Choice;
use crate::cli::Cli;
use crate::config::Config;

/// How long to keep reading after the child exits while something it left behind (a
/// background job) still holds the PTY open and writes nothing.
const QUIET_AFTER_EXIT: Duration = Duration::from_millis(200);

/// The longest headless keeps reading after the child exits, whatever a background job
/// still writes: a job that ignores SIGHUP and prints every 200 ms kept it running forever.
/// What the child itself wrote before exiting is in the kernel's buffer by then, read in
/// microseconds.
const MAX_READ_AFTER_EXIT: Duration = Duration::from_secs(2);

/// Runs the command to completion and prints its screen. Returns the child's exit status.
pub fn run(cli: &Cli, config: &Config) -> anyhow::Result<i32> {
    let started = Instant::now();
    let size = WinSize::cells(config.window.columns, config.window.lines);
    let options = PtyOptions {
        command: cli.command.clone().or_else(|| config.shell()),
        working_directory: config
            .terminal
            .working_directory
            .as_ref()
            .map(std::path::PathBuf::from),
        env: config.env(),
        size,
        read_ahead: config.read_ahead(),
        flow_control: config.terminal.flow_control,
        ..PtyOptions::default()
    };
    let terminal_options = TerminalOptions {
        digest: cli.digest,
        debug_parse_rate: cli.debug_parse_rate,
        debug_parser_panic: cli.debug_parser_panic,
        ..config.terminal_options()
    };
    let Session {
        mut terminal,
        mut pty,
    } = Session::start(&options, terminal_options, Arc::new(|| {}))?;

    let status = pty
        .wait_exit(None)
        .context("lost track of the child process")?;
    let exited = started.elapsed();
    pty.drain_after_exit(QUIET_AFTER_EXIT, MAX_READ_AFTER_EXIT);
    terminal.wait_parsed();
    let finished = started.elapsed();
    if let Some(failure) = terminal.failure() {
        anyhow::bail!("the terminal failed while parsing the program's output: {failure}");
    }
    if let Some(failure) = pty.failure() {
        anyhow::bail!("the terminal failed: {failure}");
    }

    let mut stdout = std::io::stdout().lock();
    stdout.write_all(terminal.dump(cli.dump_format(), cli.scrollback).as_bytes())?;
    stdout.flush()?;
    if let Some(path) = &cli.screenshot {
        screenshot(&terminal, config, path)?;
    }
    if cli.stats {
        print_stats(&pty, &terminal, status.shell_code(), exited, finished)?;
    }
    Ok(status.shell_code())
}

/// The process's peak resident set size, from /proc (Linux).
fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Renders the final screen offscreen, where `renderer.backend` says, and writes it as a PNG.
fn screenshot(terminal: &Terminal, config: &Config, path: &std::path::Path) -> anyhow::Result<()> {
    let mut snapshot = sluice_term::Snapshot::default();
    terminal.update_snapshot(&mut snapshot);
    let fonts = crate::app::font_config(config, config.font.size * 96.0 / 72.0);
    let mut offscreen = match crate::app::choose_backend(config, sluice_render::has_gpu_device_node)
    {
        Choice::Software => Offscreen::software(&fonts)?,
        Choice::Gpu => Offscreen::new(&fonts)?,
        Choice::GpuUnlessSoftware => match Offscreen::new(&fonts) {
            Ok(gpu) => gpu,
            Err(err) => {
                tracing::warn!(%err, "no GPU to draw the screenshot with: drawing on the CPU");
                Offscreen::software(&fonts)?
            }
        },
    };
    let image = offscreen.render_image(&mut snapshot)?;
    image
        .save_png(path)
        .with_context(|| format!("cannot write the screenshot to {}", path.display()))?;
    Ok(())
}

#[derive(Serialize)]
struct Stats {
    exit_code: i32,
    child_seconds: f64,
    total_seconds: f64,
    bytes_read: u64,
    reads: u64,
    bytes_parsed: u64,
    ring_capacity_high_water: usize,
    full_ring_waits: u64,
    full_ring_wait_seconds: f64,
    /// Pauses the reader took to let a trickle of small writes gather.
    trickle_pauses: u64,
    /// Busy waits for a fast stream of short writes to gather, and their total time.
    short_writes_waits: u64,
    short_writes_wait_seconds: f64,
    /// Times the reader yielded its CPU in a flood rather than sleep.
    flood_yields: u64,
    /// Floods whose start was read with the parser left asleep.
    young_floods: u64,
    /// Ring memory given back after bursts.
    ring_released_bytes: u64,
    longest_lock_hold_us: f64,
    parse_busy_seconds: f64,
    digest: String,
    /// OSC strings dropped for being over the cap.
    osc_dropped: u64,
    /// Replies dropped because the child did not read them.
    replies_dropped: u64,
    /// The last title the program set, if any (capped like every title).
    title: Option<String>,
    /// The process's peak resident memory (VmHWM), in KiB.
    peak_rss_kib: Option<u64>,
}

fn print_stats(
    pty: &Pty,
    terminal: &Terminal,
    exit_code: i32,
    exited: Duration,
    finished: Duration,
) -> anyhow::Result<()> {
    let reader = pty.stats().snapshot();
    let parser = terminal.stats();
    let stats = Stats {
        exit_code,
        child_seconds: exited.as_secs_f64(),
        total_seconds: finished.as_secs_f64(),
        bytes_read: reader.bytes_read,
        reads: reader.reads,
        bytes_parsed: parser.bytes_parsed,
        ring_capacity_high_water: reader.ring_high_water,
        full_ring_waits: reader.full_ring_waits,
        full_ring_wait_seconds: reader.full_ring_wait.as_secs_f64(),
        trickle_pauses: reader.gathered,
        short_writes_waits: reader.short_writes_waits,
        short_writes_wait_seconds: reader.short_writes_wait.as_secs_f64(),
        flood_yields: reader.flood_yields,
        young_floods: reader.young_floods,
        ring_released_bytes: reader.ring_released,
        longest_lock_hold_us: parser.longest_lock_hold.as_secs_f64() * 1e6,
        parse_busy_seconds: parser.busy.as_secs_f64(),
        digest: format!("{:016x}", parser.digest),
        osc_dropped: parser.osc_dropped,
        replies_dropped: terminal.writer().replies_dropped(),
        title: terminal.take_events().into_iter().find_map(|e| match e {
            sluice_term::TermEvent::Title(title) => Some(title),
            _ => None,
        }),
        peak_rss_kib: peak_rss_kib(),
    };
    eprintln!("{}", serde_json::to_string(&stats)?);
    Ok(())
}

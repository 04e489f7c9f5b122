//! `sluice-bench latency`: keystroke-echo latency through Sluice's real pipeline.
//!
//! Each sample writes a title-setting sequence (OSC 2) to a child that echoes its input
//! (`cat` in raw mode) and waits for it to come back: written by the PTY writer thread, echoed
//! by the child, read by the reader thread into the ring, parsed by the parser thread, which
//! routes the title to the application and wakes it; the sample ends when the woken thread has
//! copied the screen into a snapshot, as a frame would. Optionally a second process writes to
//! the same terminal meanwhile ([`Load`]): a build's log, a line at a time, which the reader
//! reads through pauses (`sluice_pty::trickle`), or a flood the echo has to queue behind.

use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::bail;
use crossbeam_channel::RecvTimeoutError;
use serde::{Deserialize, Serialize};
use sluice_pty::{PtyOptions, WinSize};
use sluice_term::{Session, Snapshot, TermEvent, TerminalOptions};

/// Percentiles of a set of samples, in milliseconds.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Percentiles {
    pub samples: usize,
    pub p50_ms: f64,
    pub p95_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
}

/// Nearest-rank percentiles.
pub fn percentiles(mut samples: Vec<Duration>) -> Percentiles {
    samples.sort();
    let at = |p: f64| {
        if samples.is_empty() {
            return 0.0;
        }
        let rank = ((p * samples.len() as f64).ceil() as usize).clamp(1, samples.len());
        samples[rank - 1].as_secs_f64() * 1e3
    };
    Percentiles {
        samples: samples.len(),
        p50_ms: at(0.50),
        p95_ms: at(0.95),
        p99_ms: at(0.99),
        max_ms: at(1.0),
    }
}

/// What else the terminal reads while the echoes are measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Load {
    /// Nothing.
    Idle,
    /// A build's log: a 45-byte line every 180 µs or so, as the Metro-like build writes
    /// (`sluice-bench metro-sim`), which the reader takes as a trickle.
    Trickle,
    /// `yes` writing as fast as it can.
    Flood,
}

impl Load {
    /// Its name, as `--mode` takes it and the results are keyed (clap derives it).
    pub fn name(self) -> String {
        use clap::ValueEnum;
        self.to_possible_value()
            .expect("no variant is skipped")
            .get_name()
            .to_owned()
    }

    /// The shell command that makes the load, in the background.
    fn command(self) -> &'static str {
        match self {
            Load::Idle => "",
            Load::Trickle => {
                "(perl -e '$|=1; for (my $i = 0;; $i++) { printf \"transform node_modules/pkg/module-%05d.js\\n\", $i; select(undef, undef, undef, 0.00018) }' &) ;"
            }
            Load::Flood => {
                "(yes 'flood 0123456789 abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ 0123456789 flood' &) ;"
            }
        }
    }
}

/// What to measure.
#[derive(Debug, Clone)]
pub struct LatencyOptions {
    pub samples: usize,
    /// What a second process writes to the terminal while measuring.
    pub load: Load,
    /// The ring's capacity (Sluice's read-ahead).
    pub read_ahead: usize,
}

/// The shell script the child runs: echo input, with the load's output alongside.
fn child_script(load: Load) -> String {
    format!("stty raw -echo; {} exec cat", load.command())
}

/// Runs the samples and returns their percentiles.
pub fn run(options: &LatencyOptions) -> anyhow::Result<Percentiles> {
    let size = WinSize::cells(100, 30);
    let (wake_tx, wake_rx) = crossbeam_channel::bounded::<()>(1);
    let Session { terminal, pty } = Session::start(
        &PtyOptions {
            command: Some(vec![
                "sh".into(),
                "-c".into(),
                child_script(options.load).into(),
            ]),
            size,
            read_ahead: options.read_ahead,
            ..PtyOptions::default()
        },
        TerminalOptions::default(),
        Arc::new(move || {
            let _ = wake_tx.try_send(());
        }),
    )?;
    let mut snapshot = Snapshot::default();
    // Let the child set up (and its load get going: a trickle is one after 16 wake-ups)
    // before measuring.
    std::thread::sleep(Duration::from_millis(if options.load == Load::Idle {
        200
    } else {
        1000
    }));
    terminal.take_events();

    let mut samples = Vec::with_capacity(options.samples);
    for i in 0..options.samples {
        let marker = format!("sluice-latency-{i}");
        let started = Instant::now();
        terminal
            .writer()
            .write(format!("\x1b]2;{marker}\x07").into_bytes());
        let deadline = started + Duration::from_secs(10);
        'wait: loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match wake_rx.recv_timeout(left) {
                Ok(()) => {
                    terminal.update_snapshot(&mut snapshot);
                    for event in terminal.take_events() {
                        if matches!(&event, TermEvent::Title(t) if *t == marker) {
                            break 'wait;
                        }
                    }
                }
                Err(RecvTimeoutError::Timeout) => bail!("sample {i}: no echo within 10 s"),
                Err(RecvTimeoutError::Disconnected) => bail!("the terminal stopped"),
            }
        }
        samples.push(started.elapsed());
        // Keystrokes come at human speed, not back to back.
        std::thread::sleep(Duration::from_millis(5));
    }
    drop(terminal);
    drop(pty);
    Ok(percentiles(samples))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_percentiles() {
        let samples: Vec<Duration> = (1..=100).map(Duration::from_millis).collect();
        let p = percentiles(samples);
        assert_eq!(
            (p.samples, p.p50_ms, p.p95_ms, p.p99_ms, p.max_ms),
            (100, 50.0, 95.0, 99.0, 100.0)
        );
        let one = percentiles(vec![Duration::from_millis(7)]);
        assert_eq!((one.p50_ms, one.p99_ms), (7.0, 7.0));
    }
}

//! `sluice-bench`: measure any terminal, and see what a terminal costs a program.

use std::time::Duration;

use anyhow::Context;
use clap::{Parser, Subcommand};
use sluice_bench::report::{parse_bytes, parse_seconds};
use sluice_bench::{capacity, compare, latency, metro, reader, window, write};

/// The windows' size, in cells, where `compare` and `run-in` are not told one: vtebench's
/// and the figures are for 100×30.
const WINDOW_SIZE: &str = "100x30";

#[derive(Debug, Parser)]
#[command(
    name = "sluice-bench",
    version,
    about = "Measure any terminal: read capacity, slow and stalled readers, PTY buffers, a bundler's dev server."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run inside a terminal: write deterministic payloads to it and time how fast it reads.
    Write {
        /// plain, short, color, progress, unicode, scroll, dense, cursor or all.
        #[arg(long, default_value = "all")]
        payload: String,
        /// Bytes per payload (K, M, G suffixes allowed).
        #[arg(long, default_value = "16M", value_parser = parse_bytes)]
        bytes: u64,
        /// Print the results as JSON.
        #[arg(long)]
        json: bool,
        /// Write the results to this file instead of the terminal.
        #[arg(long, value_name = "FILE")]
        output: Option<std::path::PathBuf>,
        /// Where the payloads go: the alternate screen (nothing reaches the scrollback), or
        /// the primary screen, scrolling into the scrollback as a program's log does and as
        /// `compare` writes them.
        #[arg(long, value_enum, default_value_t = write::Screen::Alternate)]
        screen: write::Screen,
    },
    /// Run a command on a PTY and read its output fast, slowly, with a pause, or with ^S/^Q.
    Reader {
        /// Read at most this many bytes per second (K, M suffixes allowed).
        #[arg(long, value_parser = parse_bytes)]
        rate: Option<u64>,
        /// Stop reading this many seconds after the start…
        #[arg(long, value_parser = parse_seconds, requires = "stall_for")]
        stall_at: Option<Duration>,
        /// …for this many seconds.
        #[arg(long, value_parser = parse_seconds, requires = "stall_at")]
        stall_for: Option<Duration>,
        /// Send ^S (XOFF) through the line discipline this many seconds after the start…
        #[arg(long, value_parser = parse_seconds, requires = "xoff_for")]
        xoff_at: Option<Duration>,
        /// …and ^Q (XON) this many seconds later.
        #[arg(long, value_parser = parse_seconds, requires = "xoff_at")]
        xoff_for: Option<Duration>,
        /// Print the results as JSON.
        #[arg(long)]
        json: bool,
        /// The command and its arguments.
        #[arg(required = true, last = true)]
        command: Vec<String>,
    },
    /// How many bytes a PTY (cooked and raw) and a pipe accept with nobody reading.
    PtyCapacity {
        #[arg(long)]
        json: bool,
    },
    /// Keystroke-echo latency through Sluice's pipeline (writer, child, reader, parser,
    /// snapshot), idle, beside a build's log and under a flood of output: p50, p95, p99.
    Latency {
        #[arg(long, default_value_t = 200)]
        samples: usize,
        /// Measure under this load only (default: each in turn).
        #[arg(long, value_enum)]
        mode: Option<latency::Load>,
        /// Sluice's read-ahead (ring capacity) for the run.
        #[arg(long, value_parser = parse_bytes, default_value = "16M")]
        read_ahead: u64,
        #[arg(long)]
        json: bool,
    },
    /// Latency through a terminal's window on X11: keystroke to the program's read, and the
    /// program's write to pixels on screen, idle and under a flood: p50, p95, p99.
    /// Example: `sluice-bench window-latency -- sluice -e {}` ({} is the probe's command).
    WindowLatency {
        #[arg(long, default_value_t = 100)]
        samples: usize,
        #[arg(long, value_parser = ["idle", "flood", "both"], default_value = "both")]
        mode: String,
        #[arg(long)]
        json: bool,
        /// The terminal's command line, with {} where the probe's command goes.
        #[arg(required = true, last = true)]
        terminal: Vec<String>,
    },
    /// Terminals side by side in real windows, each against a bare PTY drain in the same
    /// round: read capacity per payload, latency, CPU, memory, start-up, a Metro-like build.
    /// Prints a Markdown table and draws a plot.
    #[command(after_help = compare_help())]
    Compare {
        /// A terminal to measure: NAME for a known one, or NAME='CMD ARGS… {}' ({} is where
        /// the probe's command goes; {cols} and {rows} the size). Repeatable.
        #[arg(long = "terminal", value_name = "NAME[=CMD]", required = true, value_parser = compare::TerminalSpec::parse)]
        terminals: Vec<compare::TerminalSpec>,
        #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u64).range(1..))]
        rounds: u64,
        /// Comma-separated payloads, or all.
        #[arg(long, default_value = "all")]
        payloads: String,
        /// Bytes per payload (K, M, G suffixes allowed).
        #[arg(long, default_value = "16M", value_parser = parse_bytes)]
        bytes: u64,
        /// The windows' size in cells.
        #[arg(long, default_value = WINDOW_SIZE, value_name = "COLSxROWS", value_parser = parse_size)]
        size: (u16, u16),
        /// Latency samples per measurement. 100, so that the p99 is not the largest sample
        /// (with 50 it was: one descheduled frame made a run's p99).
        #[arg(long, default_value_t = 100)]
        samples: usize,
        /// Seconds an idle window is watched for its CPU and wake-ups.
        #[arg(long, default_value = "5", value_parser = parse_seconds)]
        idle: Duration,
        /// Where to draw the plot (SVG).
        #[arg(long, default_value = "sluice-compare.svg")]
        plot: std::path::PathBuf,
        /// Also write every round's figures here, as JSON.
        #[arg(long, value_name = "FILE")]
        json: Option<std::path::PathBuf>,
    },
    /// Pool the rounds of several `compare --json` files (the same size and bytes per
    /// payload) into one table and plot: for a median that one run's rounds cannot tell from
    /// a goal. Each ratio stays against the drain of its own round.
    Merge {
        /// The JSON files `compare --json` wrote.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<std::path::PathBuf>,
        /// Where to draw the plot (SVG).
        #[arg(long, default_value = "sluice-compare.svg")]
        plot: std::path::PathBuf,
        /// Also write the pooled rounds here, as JSON.
        #[arg(long, value_name = "FILE")]
        json: Option<std::path::PathBuf>,
    },
    /// Run a command inside one terminal, started as compare starts it (same command line,
    /// DejaVu Sans Mono 10 pt, same size), and wait for the terminal to exit: for benchmarks
    /// that run inside the terminal they measure, e.g. vtebench (benches/vtebench.sh). With
    /// --drain, run it on compare's limit arm instead.
    RunIn {
        /// The terminal: NAME for a known one, or NAME='CMD ARGS… {}'.
        #[arg(long = "terminal", value_name = "NAME[=CMD]", value_parser = compare::TerminalSpec::parse,
              required_unless_present = "drain")]
        terminal: Option<compare::TerminalSpec>,
        /// Instead of a terminal, a bare PTY of the same size whose output a loop of reads
        /// discards: compare's limit arm, measured as the terminals are.
        #[arg(long, conflicts_with = "terminal")]
        drain: bool,
        /// How the drain waits while the kernel is empty: blocked in read(2), or yielding its
        /// CPU for a moment first so that it does not halt between hand-overs (compare tries
        /// both and keeps the faster).
        #[arg(
            long,
            value_enum,
            default_value = "blocking",
            conflicts_with = "terminal"
        )]
        drain_style: compare::DrainStyle,
        /// The window's size in cells (the drain's PTY's, with --drain).
        #[arg(long, default_value = WINDOW_SIZE, value_name = "COLSxROWS", value_parser = parse_size)]
        size: (u16, u16),
        /// Seconds after which the terminal (the command, with --drain) is killed and the run
        /// fails.
        #[arg(long, default_value = "600", value_parser = parse_seconds)]
        timeout: Duration,
        /// The command and its arguments.
        #[arg(required = true, last = true)]
        command: Vec<String>,
    },
    /// The program window-latency runs inside the terminal.
    #[command(hide = true)]
    WindowProbe {
        #[arg(long)]
        socket: std::path::PathBuf,
    },
    /// Simulate a bundler's dev server build and report what its terminal writes cost it.
    MetroSim {
        /// A warm build: about 1.2 s, main thread 97% busy (the default).
        #[arg(long, conflicts_with = "cold")]
        warm: bool,
        /// A cold build: about 10 s, main thread 57% busy.
        #[arg(long)]
        cold: bool,
        #[arg(long, default_value_t = metro::WARM_MODULES)]
        modules: usize,
        /// Log one line every K modules.
        #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..))]
        log_every: Option<u64>,
    },
}

fn main() -> anyhow::Result<()> {
    match Cli::parse().command {
        Command::Write {
            payload,
            bytes,
            json,
            output,
            screen,
        } => write::run(&payload, bytes as usize, json, output.as_deref(), screen),
        Command::Reader {
            rate,
            stall_at,
            stall_for,
            xoff_at,
            xoff_for,
            json,
            command,
        } => {
            let options = reader::ReaderOptions {
                rate,
                stall: stall_at.zip(stall_for),
                xoff: xoff_at.zip(xoff_for),
            };
            let result = reader::run(&command, &options)?;
            if json {
                println!("{}", serde_json::to_string_pretty(&result)?);
            } else {
                println!(
                    "command {:.3} s (exit {}), read {} bytes in {:.3} s ({:.2} MB/s)",
                    result.command_seconds,
                    result.exit_code,
                    result.bytes,
                    result.read_seconds,
                    result.read_mb_per_s
                );
            }
            Ok(())
        }
        Command::Latency {
            samples,
            mode,
            read_ahead,
            json,
        } => {
            let mut results = Vec::new();
            for &load in <latency::Load as clap::ValueEnum>::value_variants() {
                if mode.is_none_or(|mode| mode == load) {
                    let options = latency::LatencyOptions {
                        samples: samples.max(1),
                        load,
                        read_ahead: read_ahead as usize,
                    };
                    results.push((load.name(), latency::run(&options)?));
                }
            }
            if json {
                let map: serde_json::Map<String, serde_json::Value> = results
                    .into_iter()
                    .map(|(k, v)| (k.to_string(), serde_json::to_value(v).unwrap()))
                    .collect();
                println!("{}", serde_json::to_string_pretty(&map)?);
            } else {
                println!(
                    "{:<7} {:>8} {:>9} {:>9} {:>9} {:>9}",
                    "load", "samples", "p50 ms", "p95 ms", "p99 ms", "max ms"
                );
                for (load, p) in results {
                    println!(
                        "{load:<7} {:>8} {:>9.3} {:>9.3} {:>9.3} {:>9.3}",
                        p.samples, p.p50_ms, p.p95_ms, p.p99_ms, p.max_ms
                    );
                }
            }
            Ok(())
        }
        Command::WindowLatency {
            samples,
            mode,
            json,
            terminal,
        } => {
            let flood = match mode.as_str() {
                "idle" => vec![false],
                "flood" => vec![true],
                _ => vec![false, true],
            };
            let options = window::WindowLatencyOptions {
                samples: samples.max(1),
                flood,
                terminal,
            };
            let results = window::run(&options)?;
            if json {
                println!("{}", serde_json::to_string_pretty(&results)?);
            } else {
                println!(
                    "{:<6} {:<16} {:>8} {:>9} {:>9} {:>9} {:>9}",
                    "load", "latency", "samples", "p50 ms", "p95 ms", "p99 ms", "max ms"
                );
                for r in &results {
                    for (what, p) in [
                        ("key-to-pty", &r.key_to_pty),
                        ("output-to-frame", &r.output_to_frame),
                    ] {
                        println!(
                            "{:<6} {what:<16} {:>8} {:>9.3} {:>9.3} {:>9.3} {:>9.3}",
                            r.load, p.samples, p.p50_ms, p.p95_ms, p.p99_ms, p.max_ms
                        );
                    }
                }
            }
            Ok(())
        }
        Command::Compare {
            terminals,
            rounds,
            payloads,
            bytes,
            size,
            samples,
            idle,
            plot,
            json,
        } => {
            let options = compare::CompareOptions {
                terminals,
                rounds: rounds as usize,
                payloads: payload_list(&payloads)?,
                bytes: bytes as usize,
                size,
                samples: samples.max(1),
                idle,
            };
            let comparison = compare::run(
                &options,
                |run| {
                    eprintln!(
                        "round {} {:<10} load {:.2}: {}",
                        run.round + 1,
                        run.arm,
                        run.load_average,
                        run.reads
                            .iter()
                            .map(|p| format!("{} {:.0} MB/s", p.payload, p.mb_per_s))
                            .collect::<Vec<_>>()
                            .join(", ")
                    );
                },
                |failure| {
                    eprintln!(
                        "round {} {:<10} failed, kept out of the medians: {}",
                        failure.round + 1,
                        failure.arm,
                        failure.error
                    );
                },
            )?;
            report_comparison(&comparison, &plot, json.as_deref())
        }
        Command::Merge { files, plot, json } => {
            let parts = files
                .iter()
                .map(|path| {
                    let text = std::fs::read_to_string(path)
                        .with_context(|| format!("cannot read {}", path.display()))?;
                    serde_json::from_str(&text).with_context(|| {
                        format!(
                            "{} is not a comparison `compare --json` wrote",
                            path.display()
                        )
                    })
                })
                .collect::<anyhow::Result<Vec<_>>>()?;
            report_comparison(&compare::merge(parts)?, &plot, json.as_deref())
        }
        Command::WindowProbe { socket } => window::run_probe(&socket),
        Command::RunIn {
            terminal,
            drain: _,
            drain_style,
            size,
            timeout,
            command,
        } => {
            // clap requires exactly one of --terminal and --drain.
            let host = terminal.map_or(compare::Host::Drain(drain_style), compare::Host::Terminal);
            compare::run_in(&host, size, &command, timeout)
        }
        Command::PtyCapacity { json } => {
            let results = capacity::measure().context("measuring buffer capacity")?;
            if json {
                println!("{}", serde_json::to_string_pretty(&results)?);
            } else {
                for r in results {
                    println!("{:<14} {:>8} bytes", r.channel, r.bytes);
                }
            }
            Ok(())
        }
        Command::MetroSim {
            warm: _,
            cold,
            modules,
            log_every,
        } => {
            let log_every = log_every.map(|k| k as usize);
            let build = if cold {
                metro::Build::cold(modules, log_every)
            } else {
                metro::Build::warm(modules, log_every)
            };
            let report = metro::run(&build, &mut std::io::stdout().lock())?;
            // The report goes to stderr: stdout is the terminal being measured.
            eprintln!("{}", serde_json::to_string(&report)?);
            Ok(())
        }
    }
}

/// What `compare` and `merge` leave: the JSON if asked for, the plot, and the table on stdout
/// with the plot's Markdown image line under it.
fn report_comparison(
    comparison: &compare::Comparison,
    plot: &std::path::Path,
    json: Option<&std::path::Path>,
) -> anyhow::Result<()> {
    if let Some(path) = json {
        std::fs::write(path, serde_json::to_string_pretty(comparison)?)
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    compare::plot(comparison, plot)?;
    print!("{}", compare::markdown(comparison));
    println!("\n![sluice-bench compare]({})", plot.display());
    Ok(())
}

fn compare_help() -> String {
    format!(
        "Known terminals: {}. Without a DISPLAY a private Xvfb is started.\n\
         Example: sluice-bench compare --terminal sluice --terminal xterm --terminal 'mine=/opt/mine -e {{}}'",
        compare::known_names()
    )
}

/// `COLSxROWS`, as `sluice --size` takes it.
fn parse_size(s: &str) -> Result<(u16, u16), String> {
    let parsed = s
        .split_once(['x', 'X'])
        .and_then(|(c, r)| Some((c.trim().parse().ok()?, r.trim().parse().ok()?)));
    match parsed {
        Some((c, r)) if c >= 10 && r >= 5 => Ok((c, r)),
        _ => Err(format!("{s:?} is not COLSxROWS of at least 10x5")),
    }
}

/// The payloads named in a comma-separated list, or all of them.
fn payload_list(list: &str) -> anyhow::Result<Vec<String>> {
    use sluice_bench::payload::PAYLOADS;
    if list == "all" {
        return Ok(PAYLOADS.iter().map(|p| p.to_string()).collect());
    }
    list.split(',')
        .map(|p| {
            let p = p.trim();
            if PAYLOADS.contains(&p) {
                Ok(p.to_owned())
            } else {
                anyhow::bail!(
                    "unknown payload {p:?}; known: {} or all",
                    PAYLOADS.join(", ")
                )
            }
        })
        .collect()
}

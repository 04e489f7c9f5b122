//! `parse-ratio`: Sluice's parse rate (vte with the fast path, `sluice_term::Feeder`) against
//! vte and `Term` alone, per payload, in interleaved rounds on one thread, with the median
//! ratio. Time is the thread's CPU time, and rounds are interleaved: on a shared machine two
//! criterion runs minutes apart differed by a third with no change in between.
//!
//! Usage: `parse-ratio [--sluice-only] [ROUNDS] [MIB] [PAYLOAD|all] [HISTORY] [COLSxROWS]`
//! (defaults: 9 rounds of 8 MiB, every payload, alacritty_terminal's default 10,000 lines of
//! scrollback, 160×50). A short HISTORY keeps the rows that scrolling recycles in cache, which
//! shows what the cold rows of a full scrollback cost (docs/performance.md, "Parse
//! throughput"). Besides the benchmark payloads there is `yes`: `y` and a line end, over and
//! over, what vtebench's scrolling benchmarks write; `build_log`, the Metro-like build's
//! output (`sluice-bench metro-sim --log-every 1`) without its pauses; and `ninja`, a build
//! tool's status written over the last and its tail cleared, now and then a warning on a line
//! of its own.
//!
//! `--sluice-only` times Sluice alone, to compare two builds of it: a side's rate depends on
//! what runs between its rounds (on `yes` at 100×30, vte parsed 49 MiB/s on its own and 125
//! interleaved with Sluice, 2026-12-05).

use alacritty_terminal::event::VoidListener;
use alacritty_terminal::term::test::TermSize;
use alacritty_terminal::term::{Config, Term};
use alacritty_terminal::vte::ansi::{Processor, StdSyncHandler};
use sluice_bench::metro;
use sluice_benches::measure::{cpu_time, median};
use sluice_benches::{PAYLOADS, as_the_pty_delivers, payload};
use sluice_term::{Feeder, MAX_LOCK_SLICE};

/// A terminal of `size` with `history` lines of scrollback, filled once so that every round
/// recycles scrollback rows, as a long session does.
fn terminal(
    warm_up: &[u8],
    history: usize,
    (columns, lines): (usize, usize),
) -> Term<VoidListener> {
    let config = Config {
        scrolling_history: history,
        ..Config::default()
    };
    let mut term = Term::new(config, &TermSize::new(columns, lines), VoidListener);
    Processor::<StdSyncHandler>::new().advance(&mut term, warm_up);
    term
}

/// CPU seconds to parse `bytes` in 64 KiB slices with `parse`.
fn timed(bytes: &[u8], mut parse: impl FnMut(&[u8])) -> f64 {
    let started = cpu_time(false);
    for slice in bytes.chunks(MAX_LOCK_SLICE) {
        parse(slice);
    }
    cpu_time(false) - started
}

/// The payload `name`, as the PTY delivers it.
fn payload_bytes(name: &str, mib: usize) -> Vec<u8> {
    if name == "yes" {
        return b"y\r\n".repeat((mib << 20) / 3);
    }
    if name == "build_log" {
        return build_log(mib << 20);
    }
    if name == "ninja" {
        return ninja(mib << 20);
    }
    as_the_pty_delivers(&payload(name, mib << 20).expect("known payload"))
}

/// `len` bytes or a little more of Metro-like builds' output, one after another, as the PTY
/// delivers it: each module's log line written into the row its status left free (`CSI A`,
/// `CSI 2 K`), a status every 600 modules (about every 100 ms of a warm 1.2 s build).
fn build_log(len: usize) -> Vec<u8> {
    let build = as_the_pty_delivers(&metro::output(metro::WARM_MODULES, 600));
    build.repeat(len.div_ceil(build.len()))
}

/// `len` bytes or a little more of a ninja build's output as the PTY delivers it: each step's
/// status written over the last from the first column and its tail cleared (`CR`, the
/// status, `CSI K`, as ninja's smart terminal output prints it), the statuses of different
/// lengths; every 25th step's compiler output (a warning) printed on a line of its own, so
/// that the rows go into the scrollback.
fn ninja(len: usize) -> Vec<u8> {
    let mut out = String::with_capacity(len + 4096);
    let mut step = 0usize;
    while out.len() < len {
        step += 1;
        let depth = "nested/".repeat(step % 5);
        out.push_str(&format!(
            "\r[{step}/99999] Building CXX object src/CMakeFiles/core.dir/{depth}module_{}.cc.o\x1b[K",
            step % 997
        ));
        if step.is_multiple_of(25) {
            out.push_str(&format!(
                "\nsrc/module_{}.cc:{}:9: warning: unused variable 'tmp' [-Wunused-variable]\n",
                step % 997,
                step % 400
            ));
        }
    }
    as_the_pty_delivers(out.as_bytes())
}

/// `COLSxROWS` as columns and lines.
fn size(arg: &str) -> Option<(usize, usize)> {
    let (columns, lines) = arg.split_once('x')?;
    Some((columns.parse().ok()?, lines.parse().ok()?))
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let sluice_only = args.iter().any(|a| a == "--sluice-only");
    args.retain(|a| a != "--sluice-only");
    let number = |i: usize, default: usize| {
        args.get(i)
            .and_then(|a| a.parse::<usize>().ok())
            .unwrap_or(default)
            .max(1)
    };
    let (rounds, mib) = (number(0, 9), number(1, 8));
    let only = args.get(2).filter(|p| *p != "all");
    let history = args
        .get(3)
        .and_then(|a| a.parse::<usize>().ok())
        .unwrap_or(Config::default().scrolling_history);
    let size = args
        .get(4)
        .map(|a| size(a).expect("COLSxROWS, e.g. 100x30"))
        .unwrap_or((160, 50));
    println!(
        "{:<10} {:>12} {:>12} {:>8}",
        "payload", "sluice_MiB/s", "vte_MiB/s", "ratio"
    );
    let names = PAYLOADS
        .iter()
        .copied()
        .chain(["yes", "build_log", "ninja"]);
    for name in names.filter(|p| only.is_none_or(|o| o == p)) {
        let bytes = payload_bytes(name, mib);
        let mut plain = terminal(&bytes, history, size);
        let mut fast = terminal(&bytes, history, size);
        let mut processor: Processor<StdSyncHandler> = Processor::new();
        let mut feeder = Feeder::new();
        let rate = |secs: f64| bytes.len() as f64 / secs / (1 << 20) as f64;
        let (mut sluice, mut vte, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
        for round in 0..rounds {
            let mut sluice_round = || timed(&bytes, |s| feeder.advance(&mut fast, s));
            if sluice_only {
                sluice.push(rate(sluice_round()));
                continue;
            }
            let mut vte_round = || timed(&bytes, |s| processor.advance(&mut plain, s));
            // ABBA, so neither side always runs right after the other.
            let (s, v) = if round % 2 == 0 {
                let s = sluice_round();
                (s, vte_round())
            } else {
                let v = vte_round();
                (sluice_round(), v)
            };
            sluice.push(rate(s));
            vte.push(rate(v));
            ratios.push(v / s);
        }
        let sluice = median(sluice);
        if sluice_only {
            println!("{name:<10} {sluice:>12.1} {:>12} {:>8}", "-", "-");
        } else {
            println!(
                "{name:<10} {sluice:>12.1} {:>12.1} {:>8.2}",
                median(vte),
                median(ratios)
            );
        }
    }
}

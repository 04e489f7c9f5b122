//! `parse-ratio`: Sluice's parse rate (vte with the fast path, `sluice_term::Feeder`) against
//! vte and `Term` alone, per payload, in interleaved rounds on one thread, with the median
//! ratio. Time is the thread's CPU time, and rounds are interleaved: on a shared machine two
//! criterion runs minutes apart differed by a third with no change in between.
//!
//! Usage: parse-ratio [ROUNDS] [MIB] [PAYLOAD|all] [HISTORY]
//! (defaults: 9 rounds of 8 MiB, every payload, alacritty_terminal's default 10,000 lines of
//! scrollback). A short HISTORY keeps the rows that scrolling recycles in cache, which shows
//! what the cold rows of a full scrollback cost (docs/performance.md, "Parse throughput").

use alacritty_terminal::event::VoidListener;
use alacritty_terminal::term::test::TermSize;
use alacritty_terminal::term::{Config, Term};
use alacritty_terminal::vte::ansi::{Processor, StdSyncHandler};
use sluice_benches::measure::{cpu_time, median};
use sluice_benches::{PAYLOADS, as_the_pty_delivers, payload};
use sluice_term::{Feeder, MAX_LOCK_SLICE};

/// A 160×50 terminal with `history` lines of scrollback, filled once so that every round
/// recycles scrollback rows, as a long session does.
fn terminal(warm_up: &[u8], history: usize) -> Term<VoidListener> {
    let config = Config {
        scrolling_history: history,
        ..Config::default()
    };
    let mut term = Term::new(config, &TermSize::new(160, 50), VoidListener);
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

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
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
    println!(
        "{:<10} {:>12} {:>12} {:>8}",
        "payload", "sluice_MiB/s", "vte_MiB/s", "ratio"
    );
    for name in PAYLOADS.iter().filter(|p| only.is_none_or(|o| o == *p)) {
        let bytes = as_the_pty_delivers(&payload(name, mib << 20).expect("known payload"));
        let mut plain = terminal(&bytes, history);
        let mut fast = terminal(&bytes, history);
        let mut processor: Processor<StdSyncHandler> = Processor::new();
        let mut feeder = Feeder::new();
        let (mut sluice, mut vte, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
        for round in 0..rounds {
            let mut sluice_round = || timed(&bytes, |s| feeder.advance(&mut fast, s));
            let mut vte_round = || timed(&bytes, |s| processor.advance(&mut plain, s));
            // ABBA, so neither side always runs right after the other.
            let (s, v) = if round % 2 == 0 {
                let s = sluice_round();
                (s, vte_round())
            } else {
                let v = vte_round();
                (sluice_round(), v)
            };
            let rate = |secs: f64| bytes.len() as f64 / secs / (1 << 20) as f64;
            sluice.push(rate(s));
            vte.push(rate(v));
            ratios.push(v / s);
        }
        println!(
            "{name:<10} {:>12.1} {:>12.1} {:>8.2}",
            median(sluice),
            median(vte),
            median(ratios)
        );
    }
}

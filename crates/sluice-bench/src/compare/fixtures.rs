//! Made-up rounds for the tests of the table and the plot: what a comparison's arithmetic is
//! checked against, without measuring anything.

use super::{ArmFailure, ArmRound, BuildRun, Comparison, DRAIN, PayloadRead, WindowRun};
use crate::latency::Percentiles;

/// One arm's round: `mb_per_s` of `plain` (one try), a 1.2 s build, and for a terminal
/// (`window`) the same window figures every time.
pub(super) fn run(arm: &str, round: usize, mb_per_s: f64, window: bool) -> ArmRound {
    let p = |ms: f64| Percentiles {
        samples: 3,
        p50_ms: ms,
        p95_ms: ms,
        p99_ms: ms * 2.0,
        max_ms: ms * 2.0,
    };
    ArmRound {
        arm: arm.to_owned(),
        round,
        load_average: 0.25 * (round + 1) as f64,
        reads: vec![PayloadRead {
            payload: "plain".to_owned(),
            bytes: 2_000_000,
            mb_per_s,
            longest_write_ms: 1.0,
            cpu_seconds: window.then_some(0.5),
            tries_mb_per_s: vec![mb_per_s],
            program: Default::default(),
        }],
        build: Some(BuildRun {
            seconds: 1.2,
            cpu_seconds: window.then_some(0.1),
        }),
        window: window.then(|| WindowRun {
            startup_ms: 250.0,
            idle_cpu_percent: 0.0,
            idle_wakeups_per_s: 1.5,
            rss_idle_mib: 100.0,
            anon_idle_mib: 20.0,
            rss_peak_mib: 120.0,
            key_idle: p(1.0),
            key_flood: p(2.0),
            frame_idle: p(5.0),
            frame_flood: p(15.0),
        }),
    }
}

/// Two rounds of 2 MiB of `plain` at 100×30: the drain and `terminals`.
pub(super) fn comparison(
    terminals: &[&str],
    runs: Vec<ArmRound>,
    failures: Vec<ArmFailure>,
) -> Comparison {
    let mut arms = vec![DRAIN.to_owned()];
    arms.extend(terminals.iter().map(|t| (*t).to_owned()));
    Comparison {
        rounds: 2,
        size: (100, 30),
        bytes: 2 << 20,
        payloads: vec!["plain".to_owned()],
        arms,
        runs,
        failures,
    }
}

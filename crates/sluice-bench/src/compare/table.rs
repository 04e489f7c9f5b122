//! The comparison as a Markdown table: one column per arm, one row per figure, each the
//! median over the rounds (ratios are taken round by round first, see [`super::stats`]).

use super::stats::{median, median_interval, median_of, range, ratios_to_drain};
use super::{ArmRound, Comparison, DRAIN, TERMINAL_TRIES, TRIES, WindowRun};
use crate::latency::Percentiles;

/// The table, with a line above it saying how it was measured.
pub fn markdown(c: &Comparison) -> String {
    let loads = range(
        c.runs
            .iter()
            .map(|r| r.load_average)
            .filter(|l| !l.is_nan()),
    );
    let mut out = format!(
        "`sluice-bench compare`: {} round(s), {}×{} cells, {} per payload, medians over rounds; \
         load average (1 min) {}.\n\n",
        c.rounds,
        c.size.0,
        c.size.1,
        bytes(c.bytes),
        loads.map_or("unknown".to_owned(), |(lo, hi)| format!("{lo:.2}–{hi:.2}")),
    );
    out += &format!("| | {} |\n", c.arms.join(" | "));
    out += &format!("|---|{}\n", "---:|".repeat(c.arms.len()));
    let mut row = |label: String, cell: &dyn Fn(&str) -> String| {
        let cells: Vec<String> = c.arms.iter().map(|a| cell(a)).collect();
        out += &format!("| {label} | {} |\n", cells.join(" | "));
    };
    for payload in &c.payloads {
        let rate = move |r: &ArmRound| r.read(payload).map(|p| p.mb_per_s);
        row(format!("read `{payload}`, × drain (MB/s)"), &|arm| {
            let ratio = median(ratios_to_drain(&c.runs, arm, rate));
            match (ratio, median_of(&c.runs, arm, rate)) {
                (Some(x), Some(mb)) => format!("{x:.2}× ({mb:.0})"),
                _ => "—".to_owned(),
            }
        });
    }
    for payload in &c.payloads {
        let rate = move |r: &ArmRound| r.read(payload).map(|p| p.mb_per_s);
        row(format!("read `{payload}`, rounds' range × drain"), &|arm| {
            // The drain against itself is 1 in every round by construction: a range there
            // would look like a noise-free measurement, which it is not.
            if arm == DRAIN {
                return "—".to_owned();
            }
            range(ratios_to_drain(&c.runs, arm, rate))
                .map_or("—".to_owned(), |(lo, hi)| format!("{lo:.2}–{hi:.2}"))
        });
    }
    for payload in &c.payloads {
        let rate = move |r: &ArmRound| r.read(payload).map(|p| p.mb_per_s);
        row(
            format!(
                "read `{payload}`, the median's {} interval × drain",
                percent(LEVEL)
            ),
            &|arm| {
                // None for the drain, as for the range above.
                if arm == DRAIN {
                    return "—".to_owned();
                }
                median_interval(ratios_to_drain(&c.runs, arm, rate), LEVEL)
                    .map_or("—".to_owned(), |i| format!("{:.2}–{:.2}", i.low, i.high))
            },
        );
    }
    for payload in &c.payloads {
        let typical = move |r: &ArmRound| median(r.read(payload)?.tries_mb_per_s.iter().copied());
        row(format!("read `{payload}`, median try × drain's"), &|arm| {
            median(ratios_to_drain(&c.runs, arm, typical))
                .map_or("—".to_owned(), |x| format!("{x:.2}×"))
        });
    }
    let build = |r: &ArmRound| r.build.as_ref().map(|b| b.seconds);
    row("Metro-like build, s (× drain)".to_owned(), &|arm| {
        let ratio = median(ratios_to_drain(&c.runs, arm, build));
        match (median_of(&c.runs, arm, build), ratio) {
            (Some(s), Some(x)) => format!("{s:.2} ({x:.2}×)"),
            _ => "—".to_owned(),
        }
    });
    row("terminal CPU in that build, s".to_owned(), &|arm| {
        num(
            median_of(&c.runs, arm, |r| r.build.as_ref()?.cpu_seconds),
            2,
        )
    });
    for payload in &c.payloads {
        row(format!("terminal CPU per MB, `{payload}`, ms"), &|arm| {
            num(
                median_of(&c.runs, arm, |r| {
                    let p = r.read(payload)?;
                    Some(p.cpu_seconds? * 1e3 / (p.bytes as f64 / 1e6))
                }),
                1,
            )
        });
    }
    let window = |arm: &str, f: &dyn Fn(&WindowRun) -> f64| {
        median_of(&c.runs, arm, |r| r.window.as_ref().map(f))
    };
    row("start-up to first frame, ms".to_owned(), &|arm| {
        num(window(arm, &|w| w.startup_ms), 0)
    });
    let latency_rows: [(&str, LatencyOf); 4] = [
        ("key to program, idle", |w| &w.key_idle),
        ("key to program, flood", |w| &w.key_flood),
        ("output to frame, idle", |w| &w.frame_idle),
        ("output to frame, flood", |w| &w.frame_flood),
    ];
    for (label, which) in latency_rows {
        row(format!("{label}, p50 / p99 ms"), &|arm| match (
            window(arm, &|w| which(w).p50_ms),
            window(arm, &|w| which(w).p99_ms),
        ) {
            (Some(p50), Some(p99)) => format!("{p50:.1} / {p99:.1}"),
            _ => "—".to_owned(),
        });
    }
    row("idle CPU, % of a core".to_owned(), &|arm| {
        num(window(arm, &|w| w.idle_cpu_percent), 2)
    });
    row("idle wake-ups per s".to_owned(), &|arm| {
        num(window(arm, &|w| w.idle_wakeups_per_s), 1)
    });
    row("RSS idle / anonymous, MiB".to_owned(), &|arm| match (
        window(arm, &|w| w.rss_idle_mib),
        window(arm, &|w| w.anon_idle_mib),
    ) {
        (Some(rss), Some(anon)) => format!("{rss:.0} / {anon:.0}"),
        _ => "—".to_owned(),
    });
    row("RSS peak, MiB".to_owned(), &|arm| {
        num(window(arm, &|w| w.rss_peak_mib), 0)
    });
    out += &format!(
        "\nThe {DRAIN} arm is the probe on a bare PTY read by a loop of `read(2)`s, blocking or \
         yielding the CPU while the kernel is empty: the baseline, and nearly the limit but for \
         short lines. Every payload is the fastest of {TERMINAL_TRIES} tries in each arm (the \
         {DRAIN}'s {TRIES} in each style); a median try's row is the median of an arm's tries over \
         the median of the {DRAIN}'s, round by round: what a typical burst gets, which one lucky \
         try moves less than it moves the fastest. The rounds' range is the lowest and the \
         highest round's ratio of the fastest tries: a median whose range reaches past 1 (or \
         past a goal) is within this run's noise. The median's {level} interval, given from \
         {fewest} rounds on, is the pair of rounds' ratios that holds the median of the spread \
         they were drawn from at least {level} of the time, whatever that spread (the sign test): \
         a goal outside it is met or missed beyond this run's noise, a goal inside it is not \
         decided by this run. A ratio above 1 is a terminal at the limit, or noise \
         (docs/benchmarks.md).\n",
        level = percent(LEVEL),
        fewest = fewest_rounds_for(LEVEL),
    );
    out += &failure_lines(c);
    out
}

/// One line per failed round. A terminal that failed every round gets one line saying so,
/// because "the medians of its other rounds" would be false: its column is all dashes.
fn failure_lines(c: &Comparison) -> String {
    let mut out = String::new();
    for arm in &c.arms {
        let failed: Vec<_> = c.failures.iter().filter(|f| &f.arm == arm).collect();
        if failed.is_empty() {
            continue;
        }
        // An arm's rounds are those it finished and those it failed: every round of one
        // comparison, fewer where `merge` pooled runs the arm was not in.
        let rounds = failed.len() + c.runs.iter().filter(|r| &r.arm == arm).count();
        if failed.len() >= rounds {
            let first = failed[0];
            out += &format!(
                "\n{arm} did not finish any of its {rounds} round(s) (first: {}); it has no \
                 figures.\n",
                first.error
            );
            continue;
        }
        for f in failed {
            out += &format!(
                "\n{arm} did not finish round {} ({}); its figures are the medians of its other \
                 rounds.\n",
                f.round + 1,
                f.error
            );
        }
    }
    out
}

/// The confidence of the median's interval: the usual 95%, reached from six rounds on.
const LEVEL: f64 = 0.95;

/// `level` as a percentage, for the table's words.
fn percent(level: f64) -> String {
    format!("{:.0}%", level * 100.0)
}

/// The fewest rounds that give the median an interval at `level`.
fn fewest_rounds_for(level: f64) -> usize {
    (1..)
        .find(|&n| median_interval((0..n).map(|i| i as f64), level).is_some())
        .expect("some count of rounds reaches any level below 1")
}

/// Which of a window's latencies a row shows.
type LatencyOf = fn(&WindowRun) -> &Percentiles;

fn num(v: Option<f64>, decimals: usize) -> String {
    v.map_or("—".to_owned(), |v| format!("{v:.decimals$}"))
}

fn bytes(n: usize) -> String {
    match n {
        n if n >= 1 << 20 && n % (1 << 20) == 0 => format!("{} MiB", n >> 20),
        n if n >= 1 << 10 && n % (1 << 10) == 0 => format!("{} KiB", n >> 10),
        n => format!("{n} bytes"),
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::{comparison, run};
    use super::*;

    #[test]
    fn the_table_has_a_column_per_arm_and_the_medians() {
        let c = comparison(
            &["term"],
            vec![
                run(DRAIN, 0, 100.0, false),
                run("term", 0, 90.0, true),
                run("term", 1, 40.0, true),
                run(DRAIN, 1, 50.0, false),
            ],
            Vec::new(),
        );
        let table = markdown(&c);
        assert!(
            table.contains("2 round(s), 100×30 cells, 2 MiB per payload"),
            "{table}"
        );
        assert!(table.contains("load average (1 min) 0.25–0.50"), "{table}");
        assert!(table.contains("| | drain | term |"), "{table}");
        // Ratios 0.9 and 0.8 round by round: median 0.85; MB/s median 65.
        assert!(
            table.contains("| read `plain`, × drain (MB/s) | 1.00× (75) | 0.85× (65) |"),
            "{table}"
        );
        // The lowest and highest of those ratios; none for the drain against itself.
        assert!(
            table.contains("| read `plain`, rounds' range × drain | — | 0.80–0.90 |"),
            "{table}"
        );
        // Two rounds are too few for a 95% interval of the median.
        assert!(
            table.contains("| read `plain`, the median's 95% interval × drain | — | — |"),
            "{table}"
        );
        assert!(table.contains("| Metro-like build, s (× drain) | 1.20 (1.00×) | 1.20 (1.00×) |"));
        // 0.5 s of CPU over 2 MB.
        assert!(
            table.contains("| terminal CPU per MB, `plain`, ms | — | 250.0 |"),
            "{table}"
        );
        assert!(table.contains("| output to frame, flood, p50 / p99 ms | — | 15.0 / 30.0 |"));
        assert!(table.contains("| RSS idle / anonymous, MiB | — | 100 / 20 |"));
    }

    #[test]
    fn ten_rounds_give_the_median_an_interval_one_round_in_from_each_end() {
        let ratios = [0.97, 0.80, 1.10, 0.99, 0.92, 1.30, 0.96, 1.01, 0.94, 0.98];
        let mut runs = Vec::new();
        for (round, ratio) in ratios.into_iter().enumerate() {
            // The drain's rate changes from round to round; the ratio is what counts.
            let drain = 100.0 + 10.0 * round as f64;
            runs.push(run(DRAIN, round, drain, false));
            runs.push(run("term", round, ratio * drain, true));
        }
        let mut c = comparison(&["term"], runs, Vec::new());
        c.rounds = ratios.len();
        let table = markdown(&c);
        assert_eq!(fewest_rounds_for(LEVEL), 6);
        assert!(table.contains("given from 6 rounds on"), "{table}");
        // Sorted: 0.80 0.92 | 0.94 … 1.10 | 1.30; the 2nd from each end, 1 - 2 × 11/1024.
        assert!(
            table.contains("| read `plain`, the median's 95% interval × drain | — | 0.92–1.10 |"),
            "{table}"
        );
        assert!(
            table.contains("| read `plain`, rounds' range × drain | — | 0.80–1.30 |"),
            "{table}"
        );
    }

    #[test]
    fn a_median_try_row_sets_the_typical_tries_against_the_drains() {
        let with_tries = |mut r: ArmRound, tries: &[f64]| {
            r.reads[0].tries_mb_per_s = tries.to_vec();
            r
        };
        let c = comparison(
            &["term"],
            vec![
                with_tries(run(DRAIN, 0, 100.0, false), &[100.0, 80.0, 60.0]),
                // One lucky try: the fastest matches the drain's, the typical one is 56 / 80.
                with_tries(run("term", 0, 100.0, true), &[100.0, 40.0, 56.0]),
                // An even count: medians 28 / 35.
                with_tries(run(DRAIN, 1, 50.0, false), &[50.0, 40.0, 30.0, 20.0]),
                with_tries(run("term", 1, 44.0, true), &[44.0, 30.0, 26.0, 10.0]),
            ],
            Vec::new(),
        );
        let table = markdown(&c);
        // Fastest: 1.0 and 0.88 round by round.
        assert!(
            table.contains("| read `plain`, × drain (MB/s) | 1.00× (75) | 0.94× (72) |"),
            "{table}"
        );
        // Typical: 0.70 and 0.80 round by round.
        assert!(
            table.contains("| read `plain`, median try × drain's | 1.00× | 0.75× |"),
            "{table}"
        );
    }

    #[test]
    fn a_failed_round_is_named_and_left_out_of_the_medians() {
        let c = comparison(
            &["term", "slow"],
            vec![
                run(DRAIN, 0, 100.0, false),
                run("term", 0, 90.0, true),
                run("slow", 0, 10.0, true),
                run(DRAIN, 1, 50.0, false),
                run("term", 1, 40.0, true),
            ],
            vec![super::super::ArmFailure {
                arm: "slow".to_owned(),
                round: 1,
                error: "round 2, slow: Resource temporarily unavailable".to_owned(),
            }],
        );
        let table = markdown(&c);
        // `slow` has round 1 only: 10 MB/s against the drain's 100.
        assert!(
            table.contains(
                "| read `plain`, × drain (MB/s) | 1.00× (75) | 0.85× (65) | 0.10× (10) |"
            ),
            "{table}"
        );
        // One round, one ratio: a range of one value, not the other terminal's.
        assert!(
            table.contains("| read `plain`, rounds' range × drain | — | 0.80–0.90 | 0.10–0.10 |"),
            "{table}"
        );
        assert!(
            table.contains(
                "slow did not finish round 2 (round 2, slow: Resource temporarily unavailable); \
                 its figures are the medians of its other rounds."
            ),
            "{table}"
        );
    }

    #[test]
    fn a_terminal_that_failed_every_round_is_said_to_have_no_figures() {
        let failure = |round| super::super::ArmFailure {
            arm: "broken".to_owned(),
            round,
            error: format!("round {}, broken: exited with status 1", round + 1),
        };
        let c = comparison(
            &["term", "broken"],
            vec![
                run(DRAIN, 0, 100.0, false),
                run("term", 0, 90.0, true),
                run(DRAIN, 1, 50.0, false),
                run("term", 1, 40.0, true),
            ],
            vec![failure(0), failure(1)],
        );
        let table = markdown(&c);
        assert!(
            table.contains(
                "broken did not finish any of its 2 round(s) \
                 (first: round 1, broken: exited with status 1); it has no figures."
            ),
            "{table}"
        );
        assert!(!table.contains("medians of its other rounds"), "{table}");
        assert!(table.contains("| read `plain`, × drain (MB/s) | 1.00× (75) | 0.85× (65) | — |"));
        assert!(table.contains("| read `plain`, rounds' range × drain | — | 0.80–0.90 | — |"));
    }
}

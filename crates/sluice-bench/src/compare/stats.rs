//! The arithmetic of a comparison: the order arms run in, medians, and ratios to the drain of
//! the same round. Kept apart from the measuring so it can be tested on made-up rounds.

use super::{ArmRound, DRAIN};

/// The order arms run in during `round`: the fixed list rotated by the round, so that over
/// as many rounds as arms each one runs once in every position (first after the quiet
/// start, last after everyone else's leftovers).
pub fn rotation(arms: usize, round: usize) -> Vec<usize> {
    (0..arms).map(|i| (i + round) % arms.max(1)).collect()
}

/// The median, or `None` for no values (NaNs are ignored).
pub fn median(values: impl IntoIterator<Item = f64>) -> Option<f64> {
    let mut v: Vec<f64> = values.into_iter().filter(|x| !x.is_nan()).collect();
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let mid = v.len() / 2;
    Some(if v.len() % 2 == 1 {
        v[mid]
    } else {
        (v[mid - 1] + v[mid]) / 2.0
    })
}

/// `arm`'s figure over the drain's in each round where both have one: ratios are taken round
/// by round, against the limit measured minutes apart rather than hours, and only then
/// summarised.
pub fn ratios_to_drain(
    rounds: &[ArmRound],
    arm: &str,
    figure: impl Fn(&ArmRound) -> Option<f64>,
) -> Vec<f64> {
    let of = |name: &str, round: usize| {
        rounds
            .iter()
            .find(|r| r.arm == name && r.round == round)
            .and_then(&figure)
    };
    let mut numbers: Vec<usize> = rounds.iter().map(|r| r.round).collect();
    numbers.sort_unstable();
    numbers.dedup();
    numbers
        .into_iter()
        .filter_map(|round| match (of(arm, round), of(DRAIN, round)) {
            (Some(a), Some(d)) if d > 0.0 => Some(a / d),
            _ => None,
        })
        .collect()
}

/// The median over rounds of one figure of one arm.
pub fn median_of(
    rounds: &[ArmRound],
    arm: &str,
    figure: impl Fn(&ArmRound) -> Option<f64>,
) -> Option<f64> {
    median(rounds.iter().filter(|r| r.arm == arm).filter_map(figure))
}

/// A confidence interval for the median of what a set of values was drawn from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    pub low: f64,
    pub high: f64,
    /// How often an interval taken this way holds the true median: at least the level asked
    /// for, and more where the count of values allows no closer pair.
    pub coverage: f64,
}

/// The distribution-free confidence interval for the median at `level` (e.g. 0.95): the
/// pair of order statistics `k`-th from each end, `k` as far in as keeps the chance that
/// `k` or more values fall on one side of the true median below `1 - level` (the binomial,
/// or sign, test). It assumes nothing about the spread, which here is neither normal nor
/// steady (single rounds' ratios spread 0.6–1.5 with a tail on the slow side, and the
/// spread moves with the hour: docs/performance.md). `None` where there are too few values
/// for the level: at 0.95, fewer than six, since even the lowest and highest of five miss
/// the median one time in sixteen. NaNs are ignored.
pub fn median_interval(values: impl IntoIterator<Item = f64>, level: f64) -> Option<Interval> {
    let mut v: Vec<f64> = values.into_iter().filter(|x| !x.is_nan()).collect();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    // P(X <= i) for X ~ Binomial(n, 1/2), term by term in logarithms, so that no count of
    // values overflows a binomial coefficient or underflows 2^-n.
    let tail = 1.0 - level;
    let mut ln_pmf = -(n as f64) * std::f64::consts::LN_2;
    let mut below = 0.0;
    let mut k = 0;
    while k < n / 2 {
        let next = below + ln_pmf.exp();
        if 2.0 * next > tail {
            break;
        }
        below = next;
        ln_pmf += ((n - k) as f64 / (k + 1) as f64).ln();
        k += 1;
    }
    // `k` values on each side may lie beyond the interval: it runs from the (k+1)-th lowest
    // to the (k+1)-th highest.
    (k > 0).then(|| Interval {
        low: v[k - 1],
        high: v[n - k],
        coverage: 1.0 - 2.0 * below,
    })
}

/// The smallest and largest values, for ranges such as the load average.
pub fn range(values: impl IntoIterator<Item = f64>) -> Option<(f64, f64)> {
    values.into_iter().fold(None, |acc, v| match acc {
        None => Some((v, v)),
        Some((lo, hi)) => Some((lo.min(v), hi.max(v))),
    })
}

#[cfg(test)]
mod tests {
    use super::super::{BuildRun, PayloadRead};
    use super::*;

    fn round(arm: &str, round: usize, plain: f64, build: f64) -> ArmRound {
        ArmRound {
            arm: arm.to_owned(),
            round,
            load_average: 0.5,
            reads: vec![PayloadRead {
                payload: "plain".to_owned(),
                bytes: 1 << 20,
                mb_per_s: plain,
                longest_write_ms: 1.0,
                cpu_seconds: None,
                tries_mb_per_s: vec![plain],
                program: Default::default(),
            }],
            build: Some(BuildRun {
                seconds: build,
                cpu_seconds: None,
            }),
            window: None,
        }
    }

    #[test]
    fn every_arm_runs_once_per_round_in_every_position_over_the_rounds() {
        assert_eq!(rotation(3, 0), [0, 1, 2]);
        assert_eq!(rotation(3, 1), [1, 2, 0]);
        assert_eq!(rotation(3, 2), [2, 0, 1]);
        assert_eq!(rotation(3, 3), [0, 1, 2]);
        for arms in 1..6 {
            for position in 0..arms {
                let mut firsts: Vec<usize> =
                    (0..arms).map(|r| rotation(arms, r)[position]).collect();
                firsts.sort_unstable();
                assert_eq!(firsts, (0..arms).collect::<Vec<_>>());
            }
        }
        assert!(rotation(0, 4).is_empty());
    }

    #[test]
    fn medians_of_odd_and_even_counts() {
        assert_eq!(median([3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median([4.0, 1.0, 3.0, 2.0]), Some(2.5));
        assert_eq!(median([f64::NAN, 5.0]), Some(5.0));
        assert_eq!(median([]), None);
        assert_eq!(range([2.0, 0.5, 1.0]), Some((0.5, 2.0)));
    }

    #[test]
    fn a_median_interval_is_the_order_statistics_the_sign_test_allows() {
        let values = |n: usize| (1..=n).rev().map(|i| i as f64);
        // Five values: even the lowest and highest miss the median 2/32 of the time.
        assert_eq!(median_interval(values(5), 0.95), None);
        assert_eq!(median_interval([], 0.95), None);
        // Six: the lowest and highest, 1 - 2/64.
        let six = median_interval(values(6), 0.95).unwrap();
        assert_eq!((six.low, six.high), (1.0, 6.0));
        assert!((six.coverage - 0.968_75).abs() < 1e-12, "{six:?}");
        // Ten: one in from each end, 1 - 2 × 11/1024.
        let ten = median_interval(values(10), 0.95).unwrap();
        assert_eq!((ten.low, ten.high), (2.0, 9.0));
        assert!(
            (ten.coverage - (1.0 - 22.0 / 1024.0)).abs() < 1e-12,
            "{ten:?}"
        );
        // Twenty: the 6th from each end, 1 - 2 × 21,700/2^20; the 7th would cover only 0.885.
        let twenty = median_interval(values(20), 0.95).unwrap();
        assert_eq!((twenty.low, twenty.high), (6.0, 15.0));
        assert!((twenty.coverage - (1.0 - 43_400.0 / 1_048_576.0)).abs() < 1e-12);
        // A lower level allows a closer pair; NaNs are left out.
        let five = median_interval([f64::NAN, 3.0, 1.0, 5.0, 2.0, 4.0], 0.9).unwrap();
        assert_eq!((five.low, five.high), (1.0, 5.0));
        // Thousands of values neither overflow nor underflow, and close in on the median.
        let many = median_interval(values(2001), 0.95).unwrap();
        assert!(many.low < 1001.0 && many.high > 1001.0, "{many:?}");
        assert!(many.high - many.low < 100.0, "{many:?}");
        assert!(many.coverage >= 0.95 && many.coverage < 0.96, "{many:?}");
    }

    #[test]
    fn ratios_are_taken_against_the_drain_of_the_same_round() {
        let rounds = [
            round(DRAIN, 0, 100.0, 1.2),
            round("t", 0, 50.0, 2.4),
            // A slower machine in round 1: the drain slowed too, so the ratio holds.
            round(DRAIN, 1, 50.0, 1.5),
            round("t", 1, 25.0, 3.0),
            // Round 2 has no drain figure: it gives no ratio rather than a wrong one.
            round("t", 2, 90.0, 1.0),
        ];
        let plain = |r: &ArmRound| r.reads.first().map(|p| p.mb_per_s);
        assert_eq!(ratios_to_drain(&rounds, "t", plain), [0.5, 0.5]);
        let build = |r: &ArmRound| r.build.as_ref().map(|b| b.seconds);
        assert_eq!(ratios_to_drain(&rounds, "t", build), [2.0, 2.0]);
        // The drain against itself is the limit: exactly 1 in every round it ran.
        assert_eq!(ratios_to_drain(&rounds, DRAIN, plain), [1.0, 1.0]);
        assert_eq!(median_of(&rounds, "t", plain), Some(50.0));
        assert_eq!(median_of(&rounds, "nobody", plain), None);
    }
}

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

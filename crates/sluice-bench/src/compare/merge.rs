//! Several comparisons' rounds as one: `sluice-bench merge` reads the JSON files `compare
//! --json` wrote and pools their rounds, so that a question one run's rounds cannot decide
//! can be put to the rounds of several runs, taken in quieter hours or on different days.
//!
//! Pooling is sound because every figure is a ratio taken within a round, against the drain
//! measured minutes from the terminal: the rounds of two runs differ by the hour's load, as
//! the rounds of one run do. What cannot be pooled is a different experiment: rounds of
//! another window size or payload length measure something else, so runs that differ in
//! either are refused rather than averaged.

use anyhow::bail;

use super::{Comparison, DRAIN};

/// The rounds of every comparison in `parts`, numbered on from one part to the next (the
/// first part's rounds keep their numbers), under the arms and payloads of all of them in
/// the order they first appear. A terminal or payload missing from some parts simply has
/// fewer rounds.
pub fn merge(parts: Vec<Comparison>) -> anyhow::Result<Comparison> {
    let Some(first) = parts.first() else {
        bail!("nothing to merge: no comparisons given");
    };
    let (size, bytes) = (first.size, first.bytes);
    let mut merged = Comparison {
        rounds: 0,
        size,
        bytes,
        payloads: Vec::new(),
        arms: vec![DRAIN.to_owned()],
        runs: Vec::new(),
        failures: Vec::new(),
    };
    for (i, part) in parts.into_iter().enumerate() {
        if part.size != size {
            bail!(
                "comparison {} was measured at {}×{} cells, the first at {}×{}: rounds of \
                 different sizes measure different things and are not pooled",
                i + 1,
                part.size.0,
                part.size.1,
                size.0,
                size.1
            );
        }
        if part.bytes != bytes {
            bail!(
                "comparison {} wrote {} bytes per payload, the first {bytes}: rounds of \
                 different lengths measure different things and are not pooled",
                i + 1,
                part.bytes
            );
        }
        let offset = merged.rounds;
        add_new(&mut merged.payloads, part.payloads);
        add_new(&mut merged.arms, part.arms);
        merged.runs.extend(part.runs.into_iter().map(|mut r| {
            r.round += offset;
            r
        }));
        merged
            .failures
            .extend(part.failures.into_iter().map(|mut f| {
                f.round += offset;
                f
            }));
        merged.rounds += part.rounds;
    }
    Ok(merged)
}

/// Appends to `list` the names in `names` it does not hold yet, in their order.
fn add_new(list: &mut Vec<String>, names: Vec<String>) {
    for name in names {
        if !list.contains(&name) {
            list.push(name);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::{comparison, run};
    use super::super::stats::ratios_to_drain;
    use super::super::{ArmFailure, ArmRound};
    use super::*;

    fn plain(r: &ArmRound) -> Option<f64> {
        r.read("plain").map(|p| p.mb_per_s)
    }

    #[test]
    fn rounds_are_numbered_on_and_ratios_stay_within_their_round() {
        let a = comparison(
            &["term"],
            vec![
                run(DRAIN, 0, 100.0, false),
                run("term", 0, 90.0, true),
                run(DRAIN, 1, 50.0, false),
                run("term", 1, 40.0, true),
            ],
            Vec::new(),
        );
        // A later run whose rounds are numbered from 0 again, with a second terminal that
        // failed one round.
        let b = comparison(
            &["term", "other"],
            vec![
                run(DRAIN, 0, 200.0, false),
                run("term", 0, 100.0, true),
                run("other", 0, 20.0, true),
                run(DRAIN, 1, 10.0, false),
                run("term", 1, 7.0, true),
            ],
            vec![ArmFailure {
                arm: "other".to_owned(),
                round: 1,
                error: "crashed".to_owned(),
            }],
        );
        let merged = merge(vec![a, b]).unwrap();
        assert_eq!(merged.rounds, 4);
        assert_eq!(merged.arms, [DRAIN, "term", "other"]);
        assert_eq!(merged.payloads, ["plain"]);
        // Each ratio against the drain of its own round, not the other run's round of the
        // same number.
        assert_eq!(
            ratios_to_drain(&merged.runs, "term", plain),
            [0.9, 0.8, 0.5, 0.7]
        );
        assert_eq!(ratios_to_drain(&merged.runs, "other", plain), [0.1]);
        assert_eq!(merged.failures.len(), 1);
        assert_eq!(merged.failures[0].round, 3);
    }

    #[test]
    fn a_comparison_survives_its_json_and_merges_with_itself() {
        let a = comparison(
            &["term"],
            vec![run(DRAIN, 0, 100.0, false), run("term", 0, 90.0, true)],
            Vec::new(),
        );
        let json = serde_json::to_string(&a).unwrap();
        let back: Comparison = serde_json::from_str(&json).unwrap();
        assert_eq!(serde_json::to_string(&back).unwrap(), json);
        let twice = merge(vec![a, back]).unwrap();
        assert_eq!(twice.rounds, 4);
        assert_eq!(twice.runs.len(), 4);
        assert_eq!(
            ratios_to_drain(&twice.runs, "term", plain),
            [0.9, 0.9],
            "fixture rounds 0 and 2 (the second copy's 0) hold both arms"
        );
    }

    #[test]
    fn payloads_missing_from_a_run_leave_its_rounds_out_of_that_payload() {
        let a = comparison(
            &["term"],
            vec![run(DRAIN, 0, 100.0, false), run("term", 0, 90.0, true)],
            Vec::new(),
        );
        let mut b = a.clone();
        b.payloads = vec!["dense".to_owned()];
        for r in &mut b.runs {
            r.reads[0].payload = "dense".to_owned();
        }
        let merged = merge(vec![a, b]).unwrap();
        assert_eq!(merged.payloads, ["plain", "dense"]);
        assert_eq!(ratios_to_drain(&merged.runs, "term", plain), [0.9]);
        let dense = |r: &ArmRound| r.read("dense").map(|p| p.mb_per_s);
        assert_eq!(ratios_to_drain(&merged.runs, "term", dense), [0.9]);
    }

    #[test]
    fn runs_of_other_sizes_or_lengths_are_refused() {
        let a = comparison(&["term"], Vec::new(), Vec::new());
        let mut wider = a.clone();
        wider.size = (200, 60);
        let err = merge(vec![a.clone(), wider]).unwrap_err().to_string();
        assert!(err.contains("200×60") && err.contains("100×30"), "{err}");
        let mut longer = a.clone();
        longer.bytes *= 2;
        let err = merge(vec![a, longer]).unwrap_err().to_string();
        assert!(err.contains("bytes per payload"), "{err}");
        assert!(merge(Vec::new()).is_err());
    }
}

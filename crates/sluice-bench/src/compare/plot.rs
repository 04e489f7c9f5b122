//! The comparison as a picture (SVG, with plotters): read capacity per payload as a multiple
//! of the drain (the median over rounds, a whisker from the lowest round to the highest), and
//! output-to-frame latency idle and under a flood, per terminal.

use std::path::Path;

use anyhow::anyhow;
use plotters::prelude::*;

use super::stats::{median, median_of, range, ratios_to_drain};
use super::{Comparison, DRAIN};

/// One colour per terminal, distinct on white and for the common colour blindnesses (the
/// Okabe–Ito palette).
const COLORS: [RGBColor; 7] = [
    RGBColor(0, 114, 178),
    RGBColor(230, 159, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(86, 180, 233),
    RGBColor(213, 94, 0),
    RGBColor(240, 228, 66),
];

/// One terminal's read capacity for one payload: the median over rounds of its ratio to the
/// drain, and the lowest and highest round's.
struct Bar {
    median: f64,
    range: Option<(f64, f64)>,
}

/// Draws the comparison into an SVG file at `path`.
pub fn plot(c: &Comparison, path: &Path) -> anyhow::Result<()> {
    let terminals: Vec<&String> = c.arms.iter().filter(|a| *a != DRAIN).collect();
    let root = SVGBackend::new(path, (1200, 520)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let (left, right) = root.split_horizontally(760);

    // Read capacity: a group of bars per payload, one bar per terminal, each the median over
    // rounds with a whisker from the lowest round's ratio to the highest; the drain is the
    // line at 1.
    let ratios: Vec<Vec<Bar>> = terminals
        .iter()
        .map(|t| {
            c.payloads
                .iter()
                .map(|payload| {
                    let rounds =
                        ratios_to_drain(&c.runs, t, |r| r.read(payload).map(|p| p.mb_per_s));
                    Bar {
                        median: median(rounds.iter().copied()).unwrap_or(0.0),
                        range: range(rounds),
                    }
                })
                .collect()
        })
        .collect();
    // Headroom above the tallest bar or whisker for the legend.
    let tallest = |b: &Bar| b.range.map_or(b.median, |(_, hi)| hi.max(b.median));
    let top = ratios.iter().flatten().map(tallest).fold(1.0f64, f64::max) * 1.4;
    let n = c.payloads.len();
    let mut chart = ChartBuilder::on(&left)
        .caption(
            "Read capacity, × the bare PTY drain (higher is better)",
            ("sans-serif", 18),
        )
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(48)
        .build_cartesian_2d(-0.5f64..n as f64 - 0.5, 0f64..top)
        .map_err(err)?;
    let names = c.payloads.clone();
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(n.max(1) * 2 + 1)
        .x_label_formatter(&|x| category(&names, *x))
        .y_desc("× drain")
        .draw()
        .map_err(err)?;
    let width = 0.8 / terminals.len().max(1) as f64;
    for (t, (name, values)) in terminals.iter().zip(&ratios).enumerate() {
        let color = COLORS[t % COLORS.len()];
        chart
            .draw_series(values.iter().enumerate().map(|(p, bar)| {
                let x0 = p as f64 - 0.4 + t as f64 * width;
                Rectangle::new([(x0, 0.0), (x0 + width * 0.92, bar.median)], color.filled())
            }))
            .map_err(err)?
            .label(name.as_str())
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], color.filled()));
        chart
            .draw_series(values.iter().enumerate().filter_map(|(p, bar)| {
                let (lo, hi) = bar.range?;
                let x = p as f64 - 0.4 + t as f64 * width + width * 0.46;
                let cap = width * 0.2;
                Some(PathElement::new(
                    [
                        (x - cap, lo),
                        (x + cap, lo),
                        (x, lo),
                        (x, hi),
                        (x - cap, hi),
                        (x + cap, hi),
                    ],
                    BLACK.stroke_width(1),
                ))
            }))
            .map_err(err)?;
    }
    chart
        .draw_series(LineSeries::new(
            [(-0.5, 1.0), (n as f64 - 0.5, 1.0)],
            BLACK.stroke_width(2),
        ))
        .map_err(err)?
        .label("drain (the limit)")
        .legend(|(x, y)| PathElement::new([(x, y), (x + 10, y)], BLACK.stroke_width(2)));
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(err)?;

    // Output to frame: idle and under a flood, p50, one pair of bars per terminal.
    let latency = |t: &str, flood: bool| {
        median_of(&c.runs, t, |r| {
            let w = r.window.as_ref()?;
            Some(if flood {
                w.frame_flood.p50_ms
            } else {
                w.frame_idle.p50_ms
            })
        })
        .unwrap_or(0.0)
    };
    let pairs: Vec<(f64, f64)> = terminals
        .iter()
        .map(|t| (latency(t, false), latency(t, true)))
        .collect();
    let top = pairs.iter().fold(1.0f64, |a, &(i, f)| a.max(i).max(f)) * 1.25;
    let m = terminals.len();
    let mut chart = ChartBuilder::on(&right)
        .caption(
            "Output to frame, p50 ms (lower is better)",
            ("sans-serif", 18),
        )
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(48)
        .build_cartesian_2d(-0.5f64..m as f64 - 0.5, 0f64..top)
        .map_err(err)?;
    let labels: Vec<String> = terminals.iter().map(|t| t.to_string()).collect();
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(m.max(1) * 2 + 1)
        .x_label_formatter(&|x| category(&labels, *x))
        .y_desc("ms")
        .draw()
        .map_err(err)?;
    for (k, (label, shade)) in [("idle", 0.45), ("under a flood", 1.0)]
        .into_iter()
        .enumerate()
    {
        chart
            .draw_series(pairs.iter().enumerate().map(|(t, pair)| {
                let v = if k == 0 { pair.0 } else { pair.1 };
                let x0 = t as f64 - 0.35 + k as f64 * 0.35;
                let color = COLORS[t % COLORS.len()].mix(shade);
                Rectangle::new([(x0, 0.0), (x0 + 0.32, v)], color.filled())
            }))
            .map_err(err)?
            .label(label)
            .legend(move |(x, y)| {
                Rectangle::new([(x, y - 5), (x + 10, y + 5)], BLACK.mix(shade).filled())
            });
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(err)?;
    root.present().map_err(err)?;
    Ok(())
}

/// The label of a category axis at `x`: the name of the category centred on an integer,
/// nothing between them.
fn category(names: &[String], x: f64) -> String {
    let i = x.round();
    if (x - i).abs() < 1e-6 && i >= 0.0 {
        names.get(i as usize).cloned().unwrap_or_default()
    } else {
        String::new()
    }
}

fn err(e: impl std::fmt::Display) -> anyhow::Error {
    anyhow!("cannot draw the plot: {e}")
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::{comparison, run};
    use super::*;

    /// The whiskers in the SVG: plotters draws each `PathElement` as a polyline.
    fn whiskers(svg: &str) -> Vec<Vec<(f64, f64)>> {
        svg.split("<polyline")
            .skip(1)
            .filter_map(|p| {
                let points = p.split("points=\"").nth(1)?.split('"').next()?;
                let xy: Vec<(f64, f64)> = points
                    .split_whitespace()
                    .filter_map(|pair| {
                        let (x, y) = pair.split_once(',')?;
                        Some((x.parse().ok()?, y.parse().ok()?))
                    })
                    .collect();
                (xy.len() == 6).then_some(xy)
            })
            .collect()
    }

    #[test]
    fn each_bar_has_a_whisker_from_its_lowest_round_to_its_highest() {
        let path = std::env::temp_dir().join(format!("sluice-plot-{}.svg", std::process::id()));
        let rounds = |term: &[f64]| {
            let mut runs = Vec::new();
            for (round, &t) in term.iter().enumerate() {
                runs.push(run(DRAIN, round, 100.0, false));
                runs.push(run("term", round, t, true));
            }
            comparison(&["term"], runs, Vec::new())
        };
        // Rounds at 0.6 and 1.0 of the drain: one whisker, spanning a range.
        plot(&rounds(&[60.0, 100.0]), &path).unwrap();
        let svg = std::fs::read_to_string(&path).unwrap();
        let found = whiskers(&svg);
        assert_eq!(found.len(), 1, "{svg}");
        let w = &found[0];
        // Caps level at both ends, the stem vertical; SVG's y grows downwards, so the highest
        // round's end (1.0) is above the lowest's (0.6).
        assert_eq!(w[0].1, w[1].1);
        assert_eq!(w[4].1, w[5].1);
        assert_eq!(w[2].0, w[3].0);
        assert!(w[3].1 < w[2].1, "{w:?}");
        let span = w[2].1 - w[3].1;
        // One round at 0.6 of the drain: a whisker of no length.
        plot(&rounds(&[60.0]), &path).unwrap();
        let svg = std::fs::read_to_string(&path).unwrap();
        let found = whiskers(&svg);
        assert_eq!(found.len(), 1, "{svg}");
        assert_eq!(found[0][2].1, found[0][3].1);
        assert!(span > 10.0, "0.4 of the axis is tens of pixels: {span}");
        std::fs::remove_file(&path).ok();
    }
}

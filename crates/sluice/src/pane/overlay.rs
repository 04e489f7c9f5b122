//! The metrics overlay (Ctrl+Shift+M, or `metrics.overlay = true`): the figures of the
//! periodic metrics event, live, in the top-right corner. A Metro user sees at a glance that
//! the terminal is not what slows the build: the full-ring wait stays at zero.
//!
//! It refreshes once a second while something happens, and not at all when idle (after one
//! last refresh that shows the rates falling to zero), so it costs an idle window nothing.

use std::time::{Duration, Instant};

use sluice_pty::PtyStatsSnapshot;
use sluice_render::Label;
use sluice_term::{Rgb, TermStatsSnapshot};

use crate::metrics::{Report, RuntimeMetrics};

const REFRESH: Duration = Duration::from_secs(1);
/// Wide enough for the longest line.
const WIDTH: usize = 36;

pub struct MetricsOverlay {
    metrics: RuntimeMetrics,
    shown: Option<Report>,
    shown_at: Instant,
}

impl MetricsOverlay {
    /// An overlay showing the counters as they are now (rates start at zero).
    pub fn new(now: Instant, pty: PtyStatsSnapshot, term: TermStatsSnapshot) -> Self {
        Self {
            metrics: RuntimeMetrics::with_interval(REFRESH, now, pty, term),
            shown: Some(idle_report(&pty)),
            shown_at: now,
        }
    }

    pub fn frame(&mut self, cost: Duration) {
        self.metrics.frame(cost);
    }

    fn active(&self) -> bool {
        self.shown
            .as_ref()
            .is_some_and(|r| r.read_mb_s > 0.0 || r.parse_mb_s > 0.0 || r.frames > 0)
    }

    /// When the figures should next be refreshed, if ever.
    pub fn due_at(&self, pty: &PtyStatsSnapshot) -> Option<Instant> {
        self.metrics
            .due_at(pty)
            .or_else(|| self.active().then_some(self.shown_at + REFRESH))
    }

    /// Refreshes the figures if due; returns whether they changed.
    pub fn update(
        &mut self,
        now: Instant,
        pty: PtyStatsSnapshot,
        term: TermStatsSnapshot,
        longest_hold: Duration,
    ) -> bool {
        if let Some(report) = self.metrics.report(now, pty, term, longest_hold) {
            self.shown = Some(report);
        } else if self.active() && now >= self.shown_at + REFRESH {
            let last = self.shown.take().expect("active means shown");
            self.shown = Some(Report {
                read_mb_s: 0.0,
                parse_mb_s: 0.0,
                frames: 0,
                ring_fill: pty.bytes_read.saturating_sub(term.bytes_parsed),
                ..last
            });
        } else {
            return false;
        }
        self.shown_at = now;
        true
    }

    /// The overlay's lines, right-aligned on the screen.
    pub fn labels(&self, cols: usize, fg: Rgb, bg: Rgb) -> Vec<Label> {
        let Some(r) = &self.shown else {
            return Vec::new();
        };
        let mib = |b: f64| b / (1024.0 * 1024.0);
        let fps = if r.seconds > 0.0 {
            r.frames as f64 / r.seconds
        } else {
            0.0
        };
        let lines = [
            " Sluice metrics   Ctrl+Shift+M".to_owned(),
            format!(" read          {:>8.2} MB/s", r.read_mb_s),
            format!(" parse         {:>8.2} MB/s", r.parse_mb_s),
            format!(" ring fill     {:>8.2} MiB", mib(r.ring_fill as f64)),
            format!(" ring peak     {:>8.2} MiB", mib(r.ring_high_water as f64)),
            format!(" full-ring wait{:>8.3} s", r.full_ring_wait_s),
            format!(" lock hold max {:>8.2} ms", r.longest_lock_hold_ms),
            format!(" frames        {fps:>8.1} /s"),
            format!(
                " frame p50/p99 {:>5.1}/{:<5.1} ms",
                r.frame_p50_ms, r.frame_p99_ms
            ),
        ];
        let col = cols.saturating_sub(WIDTH);
        lines
            .into_iter()
            .enumerate()
            .map(|(row, mut text)| {
                let width = text.chars().count();
                text.extend(std::iter::repeat_n(' ', WIDTH.saturating_sub(width)));
                Label {
                    row,
                    col,
                    text,
                    fg,
                    bg,
                    underline: false,
                }
            })
            .collect()
    }
}

fn idle_report(pty: &PtyStatsSnapshot) -> Report {
    Report {
        seconds: 0.0,
        read_mb_s: 0.0,
        ring_fill: 0,
        ring_high_water: pty.ring_high_water,
        full_ring_wait_s: 0.0,
        ring_released_mb: 0.0,
        parse_mb_s: 0.0,
        longest_lock_hold_ms: 0.0,
        frames: 0,
        frame_p50_ms: 0.0,
        frame_p99_ms: 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refreshes_while_active_then_settles_and_stops() {
        let t0 = Instant::now();
        let idle = PtyStatsSnapshot::default();
        let term = TermStatsSnapshot::default();
        let mut overlay = MetricsOverlay::new(t0, idle, term);
        let black = Rgb { r: 0, g: 0, b: 0 };
        assert_eq!(overlay.labels(80, black, black).len(), 9, "shown at once");
        assert!(
            !overlay.update(t0, idle, term, Duration::ZERO),
            "nothing new"
        );
        assert_eq!(overlay.due_at(&idle), None, "idle: no timer");

        let busy = PtyStatsSnapshot {
            bytes_read: 2_000_000,
            ..idle
        };
        let parsed = TermStatsSnapshot {
            bytes_parsed: 2_000_000,
            ..term
        };
        let t1 = t0 + REFRESH;
        assert_eq!(overlay.due_at(&busy), Some(t1));
        assert!(overlay.update(t1, busy, parsed, Duration::from_millis(1)));
        let text: String = overlay
            .labels(80, Rgb { r: 0, g: 0, b: 0 }, Rgb { r: 9, g: 9, b: 9 })
            .iter()
            .map(|l| l.text.clone() + "\n")
            .collect();
        assert!(text.contains(" read              2.00 MB/s"), "{text}");
        assert!(text.contains(" lock hold max     1.00 ms"), "{text}");

        // Quiet again: one more refresh shows the rates at zero, then no timer.
        let t2 = overlay.due_at(&busy).unwrap();
        assert!(overlay.update(t2, busy, parsed, Duration::ZERO));
        let labels = overlay.labels(80, Rgb { r: 0, g: 0, b: 0 }, Rgb { r: 9, g: 9, b: 9 });
        assert!(labels[1].text.contains(" 0.00 MB/s"));
        assert_eq!(overlay.due_at(&busy), None);
        assert!(labels.iter().all(|l| l.col == 80 - WIDTH));
    }
}

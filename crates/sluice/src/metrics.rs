//! Runtime metrics: a periodic `tracing` event that shows the pipeline keeping up.
//!
//! Every 30 s while something happens (output read, frames drawn), one info-level event with
//! the read rate, the ring's fill and high-water mark, the time the reader waited on a full
//! ring, the ring memory given back after bursts, the parse rate, the longest lock hold, and
//! frames with their p50/p99 cost. Nothing is logged while the terminal is idle, and no timer
//! runs then. A Metro user can see from it at a glance that the terminal is not what slows
//! the build (`full_ring_wait_s` stays 0).

use std::time::{Duration, Instant};

use sluice_pty::PtyStatsSnapshot;
use sluice_term::TermStatsSnapshot;

/// How often metrics are reported while something happens.
pub const INTERVAL: Duration = Duration::from_secs(30);

/// One period's figures.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    pub seconds: f64,
    pub read_mb_s: f64,
    /// Bytes read and not yet parsed: how full the ring is now.
    pub ring_fill: u64,
    pub ring_high_water: usize,
    pub full_ring_wait_s: f64,
    /// The ring's memory the reader gave back after bursts in the period
    /// (`RingProducer::release_idle_memory`).
    pub ring_released_mb: f64,
    pub parse_mb_s: f64,
    pub longest_lock_hold_ms: f64,
    pub frames: usize,
    pub frame_p50_ms: f64,
    pub frame_p99_ms: f64,
}

/// Accumulates one period.
#[derive(Debug)]
pub struct RuntimeMetrics {
    interval: Duration,
    started: Instant,
    pty: PtyStatsSnapshot,
    term: TermStatsSnapshot,
    frame_costs: Vec<Duration>,
}

impl RuntimeMetrics {
    pub fn new(now: Instant, pty: PtyStatsSnapshot, term: TermStatsSnapshot) -> Self {
        Self::with_interval(INTERVAL, now, pty, term)
    }

    /// Periods of `interval` instead of [`INTERVAL`] (the on-screen overlay uses 1 s).
    pub fn with_interval(
        interval: Duration,
        now: Instant,
        pty: PtyStatsSnapshot,
        term: TermStatsSnapshot,
    ) -> Self {
        Self {
            interval,
            started: now,
            pty,
            term,
            frame_costs: Vec::new(),
        }
    }

    pub fn frame(&mut self, cost: Duration) {
        self.frame_costs.push(cost);
    }

    /// When the current period is due, if anything happened in it.
    pub fn due_at(&self, pty: &PtyStatsSnapshot) -> Option<Instant> {
        let active = pty.bytes_read != self.pty.bytes_read || !self.frame_costs.is_empty();
        active.then_some(self.started + self.interval)
    }

    /// Closes the period if it is due and something happened, and starts the next one.
    pub fn report(
        &mut self,
        now: Instant,
        pty: PtyStatsSnapshot,
        term: TermStatsSnapshot,
        longest_lock_hold: Duration,
    ) -> Option<Report> {
        if self.due_at(&pty).is_none_or(|due| now < due) {
            return None;
        }
        let seconds = now.duration_since(self.started).as_secs_f64();
        let mut costs = std::mem::take(&mut self.frame_costs);
        costs.sort();
        let percentile = |p: f64| -> f64 {
            if costs.is_empty() {
                return 0.0;
            }
            let rank = ((p * costs.len() as f64).ceil() as usize).clamp(1, costs.len());
            costs[rank - 1].as_secs_f64() * 1e3
        };
        let report = Report {
            seconds,
            read_mb_s: (pty.bytes_read - self.pty.bytes_read) as f64 / 1e6 / seconds,
            ring_fill: pty.bytes_read.saturating_sub(term.bytes_parsed),
            ring_high_water: pty.ring_high_water,
            full_ring_wait_s: (pty.full_ring_wait - self.pty.full_ring_wait).as_secs_f64(),
            ring_released_mb: (pty.ring_released - self.pty.ring_released) as f64 / 1e6,
            parse_mb_s: (term.bytes_parsed - self.term.bytes_parsed) as f64 / 1e6 / seconds,
            longest_lock_hold_ms: longest_lock_hold.as_secs_f64() * 1e3,
            frames: costs.len(),
            frame_p50_ms: percentile(0.50),
            frame_p99_ms: percentile(0.99),
        };
        *self = Self::with_interval(self.interval, now, pty, term);
        Some(report)
    }
}

/// Logs a report as one structured event.
pub fn log(report: &Report) {
    tracing::info!(
        target: "sluice::metrics",
        period_s = format!("{:.1}", report.seconds),
        read_mb_s = format!("{:.2}", report.read_mb_s),
        ring_fill = report.ring_fill,
        ring_high_water = report.ring_high_water,
        full_ring_wait_s = format!("{:.3}", report.full_ring_wait_s),
        ring_released_mb = format!("{:.1}", report.ring_released_mb),
        parse_mb_s = format!("{:.2}", report.parse_mb_s),
        longest_lock_hold_ms = format!("{:.3}", report.longest_lock_hold_ms),
        frames = report.frames,
        frame_p50_ms = format!("{:.2}", report.frame_p50_ms),
        frame_p99_ms = format!("{:.2}", report.frame_p99_ms),
        "pipeline metrics"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_rates_over_the_period_and_only_when_something_happened() {
        let t0 = Instant::now();
        let idle = PtyStatsSnapshot::default();
        let mut metrics = RuntimeMetrics::new(t0, idle, TermStatsSnapshot::default());
        // Nothing happened: nothing is due, even long after.
        assert_eq!(metrics.due_at(&idle), None);
        assert!(
            metrics
                .report(
                    t0 + Duration::from_secs(60),
                    idle,
                    TermStatsSnapshot::default(),
                    Duration::ZERO
                )
                .is_none()
        );

        let pty = PtyStatsSnapshot {
            bytes_read: 30_000_000,
            ring_high_water: 4096,
            full_ring_wait: Duration::from_millis(250),
            ring_released: 15_000_000,
            ..idle
        };
        let term = TermStatsSnapshot {
            bytes_parsed: 15_000_000,
            ..TermStatsSnapshot::default()
        };
        for ms in 1..=100 {
            metrics.frame(Duration::from_millis(ms));
        }
        assert_eq!(metrics.due_at(&pty), Some(t0 + INTERVAL));
        assert!(
            metrics
                .report(t0 + Duration::from_secs(10), pty, term, Duration::ZERO)
                .is_none(),
            "not yet due"
        );
        let report = metrics
            .report(t0 + INTERVAL, pty, term, Duration::from_micros(1500))
            .unwrap();
        assert_eq!(report.read_mb_s, 1.0); // 30 MB in 30 s
        assert_eq!(report.parse_mb_s, 0.5);
        assert_eq!(report.full_ring_wait_s, 0.25);
        assert_eq!(report.ring_released_mb, 15.0);
        assert_eq!(report.ring_fill, 15_000_000, "read but not yet parsed");
        assert_eq!(report.longest_lock_hold_ms, 1.5);
        assert_eq!(
            (report.frames, report.frame_p50_ms, report.frame_p99_ms),
            (100, 50.0, 99.0)
        );
        // A new period starts from the reported counters.
        assert_eq!(metrics.due_at(&pty), None);
    }
}

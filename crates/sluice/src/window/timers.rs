//! Deadlines: the cursor's blink, the bell, autoscroll, the overlay's refresh, the periodic
//! metrics. Each exists only while something visible needs it, so an idle window has none.

use std::time::{Duration, Instant};

use super::TermWindow;
use super::overlay::MetricsOverlay;
use crate::metrics;

impl TermWindow {
    /// Runs whatever deadlines have come: blinking, the bell ending, autoscroll, the
    /// overlay's refresh, the periodic metrics.
    pub(super) fn run_timers(&mut self, now: Instant) {
        if self.blink.next_change().is_some_and(|at| now >= at) {
            self.request_frame();
        }
        if self.bell_until.is_some_and(|until| now >= until) {
            self.bell_until = None;
            self.request_frame();
        }
        if self.autoscroll_at.is_some_and(|at| now >= at) {
            self.autoscroll(now);
        }
        if self.reload_at.is_some_and(|at| now >= at) {
            self.reload_config();
        }
        let pty = self.session.pty.stats().snapshot();
        if let Some(overlay) = &mut self.overlay
            && overlay.due_at(&pty).is_some_and(|due| now >= due)
        {
            self.longest_hold = self
                .longest_hold
                .max(self.session.terminal.take_longest_lock_hold());
            let term = self.session.terminal.stats();
            if overlay.update(now, pty, term, self.longest_hold) {
                self.request_frame();
            }
        }
        self.report_metrics();
    }

    /// The earliest deadline among the timers, if any runs.
    pub(super) fn next_deadline(&self) -> Option<Instant> {
        let pty = self.session.pty.stats().snapshot();
        [
            self.blink.next_change(),
            self.bell_until,
            self.autoscroll_at,
            self.reload_at,
            self.overlay.as_ref().and_then(|o| o.due_at(&pty)),
            self.metrics.due_at(&pty),
        ]
        .into_iter()
        .flatten()
        .min()
    }

    /// Logs the periodic metrics if a period with activity is over.
    pub(super) fn report_metrics(&mut self) {
        let (now, pty) = (Instant::now(), self.session.pty.stats().snapshot());
        if self.metrics.due_at(&pty).is_none_or(|due| now < due) {
            return;
        }
        let hold = self
            .longest_hold
            .max(self.session.terminal.take_longest_lock_hold());
        self.longest_hold = Duration::ZERO;
        let term = self.session.terminal.stats();
        if let Some(report) = self.metrics.report(now, pty, term, hold) {
            metrics::log(&report);
        }
    }

    pub(super) fn toggle_overlay(&mut self) {
        self.overlay = match self.overlay.take() {
            Some(_) => None,
            None => {
                let now = Instant::now();
                let (pty, term) = (
                    self.session.pty.stats().snapshot(),
                    self.session.terminal.stats(),
                );
                Some(MetricsOverlay::new(now, pty, term))
            }
        };
        self.request_frame();
    }
}

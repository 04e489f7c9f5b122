//! Deadlines, each named by what it is for and owned by whom it is for: the window's (the
//! cursor's blink, autoscroll while selecting) here, each pane's (its bell, its overlay's
//! refresh, its periodic metrics) in the pane, the configuration reload in the application.
//! Each exists only while something visible needs it, so an idle window has none.

use std::time::Instant;

use super::Window;
use crate::app::Shared;

impl Window {
    /// Runs whatever deadlines have come.
    pub fn run_timers(&mut self, shared: &Shared, now: Instant) {
        if self.blink.next_change().is_some_and(|at| now >= at) {
            self.request_frame();
        }
        if self.autoscroll_at.is_some_and(|at| now >= at) {
            self.autoscroll(shared, now);
        }
        let mut redraw = false;
        for pane in self.panes.values_mut() {
            redraw |= pane.run_timers(now);
        }
        if redraw {
            self.request_frame();
        }
    }

    /// The earliest deadline of the window and its panes, if any runs.
    pub fn next_deadline(&self) -> Option<Instant> {
        let panes = self.panes.values().filter_map(|p| p.next_deadline());
        [self.blink.next_change(), self.autoscroll_at]
            .into_iter()
            .flatten()
            .chain(panes)
            .min()
    }
}

//! When to draw: at most one frame per display refresh, none when nothing changed, and
//! fewer under a flood so that drawing never takes the CPU that reading needs.

use std::time::{Duration, Instant};

/// The share of one core the renderer may use while output streams in.
///
/// On software rendering a full frame costs ~45 ms of process CPU (docs/performance.md):
/// at 60 Hz that is more than the machine has, and the parser, the reader and the program
/// itself would starve. At 12% the renderer draws about 3 full frames a second under a flood,
/// enough to see it scroll, while the rest of the core goes to moving bytes. A frame after
/// a quiet spell is never delayed by this: the budget applies only to back-to-back frames.
const CPU_BUDGET: f64 = 0.12;

/// Under Xvfb, Fifo presentation does not wait for a refresh, so the pacing is ours.
const DEFAULT_REFRESH: Duration = Duration::from_micros(16_667);

/// Decides when the next frame may be drawn.
#[derive(Debug)]
pub struct FramePacer {
    refresh: Duration,
    last_frame: Option<Instant>,
    last_cost: Duration,
}

impl FramePacer {
    pub fn new(refresh: Option<Duration>) -> Self {
        Self {
            refresh: refresh.unwrap_or(DEFAULT_REFRESH),
            last_frame: None,
            last_cost: Duration::ZERO,
        }
    }

    /// The earliest time the next frame may start.
    pub fn next_frame_at(&self) -> Instant {
        let Some(last) = self.last_frame else {
            return Instant::now();
        };
        let budgeted = self.last_cost.div_f64(CPU_BUDGET);
        last + self.refresh.max(budgeted)
    }

    /// Records a frame that started at `start` and cost `cost` of CPU.
    pub fn frame_drawn(&mut self, start: Instant, cost: Duration) {
        self.last_frame = Some(start);
        self.last_cost = cost;
    }

    /// Forgets the last frame's cost once output has stopped: the next frame is drawn at once.
    pub fn idle(&mut self) {
        self.last_cost = Duration::ZERO;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cheap_frame_waits_one_refresh_an_expensive_one_its_budget() {
        let mut pacer = FramePacer::new(Some(Duration::from_millis(16)));
        let start = Instant::now();
        assert!(pacer.next_frame_at() <= Instant::now());
        pacer.frame_drawn(start, Duration::from_micros(500));
        assert_eq!(pacer.next_frame_at(), start + Duration::from_millis(16));
        pacer.frame_drawn(start, Duration::from_millis(45));
        assert_eq!(pacer.next_frame_at(), start + Duration::from_millis(375));
        pacer.idle();
        assert_eq!(pacer.next_frame_at(), start + Duration::from_millis(16));
    }
}

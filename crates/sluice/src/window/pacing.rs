//! When to draw: at most one frame per display refresh, none when nothing changed, and
//! fewer under a flood so that drawing never takes the CPU that reading needs.

use std::time::{Duration, Instant};

/// The share of one core the renderer may use while output streams in.
///
/// On software rendering a full frame costs ~7 ms at 100×30 under a flood and 9.5 ms of
/// process CPU at 160×50 offscreen (docs/performance.md, "Frames"): at 60 Hz that is more than
/// two cores can spare, and the parser, the reader and the program itself would starve. The
/// budget sets the frame interval under a flood (the median of the last [`COSTS`] frames'
/// costs ÷ budget), and with it how stale the screen is. `sluice-bench compare`, a 100×30 window under an endless flood, 2026-12-01
/// (docs/performance.md, "A fresh screen under floods"): at 12% output reached the screen in
/// p50 84–85 ms, at 25% in 41–60 ms, at 40% in 35–52 ms, while plain text was read at 0.68×,
/// 0.59× and 0.50× the bare drain (the renderer's CPU is the parser's on two cores). 25%
/// halves the staleness for a cost within the runs' noise (an earlier pair of runs had 25%
/// reading faster than 12%). A frame after a quiet spell is never delayed by this: the
/// budget applies only to back-to-back frames.
///
/// The cost is the frame's wall time, which on a contended machine is more than its CPU:
/// frames are rationed harder exactly when the parser needs the cores. Counting CPU instead
/// was tried ("Frame cost on software rendering"): fresher frames (28 against 37 ms p50), but
/// read capacity down to 0.38–0.68× the drain.
const CPU_BUDGET: f64 = 0.25;

/// Under Xvfb, Fifo presentation does not wait for a refresh, so the pacing is ours.
const DEFAULT_REFRESH: Duration = Duration::from_micros(16_667);

/// How many recent frames' costs the budget is taken over: their median, so one frame that
/// took long (the UI thread descheduled, a page fault) does not hold the next one back four
/// times as long. Under a flood through a 100×30 window a frame's wall time was 6.4 ms at
/// p50 and 15.9 ms at p99 (2026-12-02, `SLUICE_LOG=sluice::window=trace`); priced by the
/// last frame alone, the gap between frames reached 58 ms at p99 and output took 52–71 ms to
/// reach the screen at p99 (`sluice-bench window-latency --mode flood`; docs/performance.md,
/// "A fresh screen under floods"). A cost that lasts, two frames of three, still counts.
const COSTS: usize = 3;

/// Decides when the next frame may be drawn.
#[derive(Debug)]
pub struct FramePacer {
    refresh: Duration,
    last_frame: Option<Instant>,
    /// The last [`COSTS`] frames' costs, the oldest overwritten first; zero once idle.
    costs: [Duration; COSTS],
    next_cost: usize,
}

impl FramePacer {
    pub fn new(refresh: Option<Duration>) -> Self {
        Self {
            refresh: refresh.unwrap_or(DEFAULT_REFRESH),
            last_frame: None,
            costs: [Duration::ZERO; COSTS],
            next_cost: 0,
        }
    }

    /// The earliest time the next frame may start.
    pub fn next_frame_at(&self) -> Instant {
        let Some(last) = self.last_frame else {
            return Instant::now();
        };
        let budgeted = self.typical_cost().div_f64(CPU_BUDGET);
        last + self.refresh.max(budgeted)
    }

    /// The median of the recent frames' costs.
    fn typical_cost(&self) -> Duration {
        let mut costs = self.costs;
        costs.sort_unstable();
        costs[COSTS / 2]
    }

    /// Records a frame that started at `start` and cost `cost` of CPU.
    pub fn frame_drawn(&mut self, start: Instant, cost: Duration) {
        self.last_frame = Some(start);
        self.costs[self.next_cost] = cost;
        self.next_cost = (self.next_cost + 1) % COSTS;
    }

    /// Forgets the recent frames' costs once output has stopped: the next frame is drawn at
    /// once.
    pub fn idle(&mut self) {
        self.costs = [Duration::ZERO; COSTS];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cheap_frame_waits_one_refresh_expensive_ones_their_budget() {
        let mut pacer = FramePacer::new(Some(Duration::from_millis(16)));
        let start = Instant::now();
        assert!(pacer.next_frame_at() <= Instant::now());
        pacer.frame_drawn(start, Duration::from_micros(500));
        assert_eq!(pacer.next_frame_at(), start + Duration::from_millis(16));
        pacer.frame_drawn(start, Duration::from_millis(45));
        pacer.frame_drawn(start, Duration::from_millis(45));
        assert_eq!(pacer.next_frame_at(), start + Duration::from_millis(180));
        pacer.idle();
        assert_eq!(pacer.next_frame_at(), start + Duration::from_millis(16));
    }

    #[test]
    fn one_slow_frame_does_not_hold_the_next_back() {
        let mut pacer = FramePacer::new(Some(Duration::from_millis(16)));
        let start = Instant::now();
        for _ in 0..COSTS {
            pacer.frame_drawn(start, Duration::from_millis(6));
        }
        assert_eq!(pacer.next_frame_at(), start + Duration::from_millis(24));
        pacer.frame_drawn(start, Duration::from_millis(20));
        assert_eq!(
            pacer.next_frame_at(),
            start + Duration::from_millis(24),
            "a hiccup"
        );
        pacer.frame_drawn(start, Duration::from_millis(20));
        assert_eq!(
            pacer.next_frame_at(),
            start + Duration::from_millis(80),
            "two slow frames of three: a cost that lasts"
        );
    }
}

//! Where the pointer is in cells, click counting, and what the wheel is worth in lines.

use std::time::{Duration, Instant};

use sluice_term::{Side, ViewportPoint};

/// Clicks closer together than this count as a double or triple click (GTK's and xterm's
/// default).
const MULTI_CLICK: Duration = Duration::from_millis(400);

/// While a selection is dragged past the top or bottom edge, the view scrolls one line per
/// this interval, faster the further out the pointer is.
pub const AUTOSCROLL_INTERVAL: Duration = Duration::from_millis(50);

/// A pane's grid on the window, in physical pixels: its top-left corner and its cells.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Geometry {
    pub x: f64,
    pub y: f64,
    pub cell_width: f64,
    pub cell_height: f64,
    pub cols: usize,
    pub rows: usize,
}

impl Geometry {
    /// The cell under (`x`, `y`), clamped to the grid, and which half of it.
    pub fn cell(&self, x: f64, y: f64) -> (ViewportPoint, Side) {
        let fx = ((x - self.x) / self.cell_width).max(0.0);
        let fy = ((y - self.y) / self.cell_height).max(0.0);
        let col = (fx as usize).min(self.cols.saturating_sub(1));
        let row = (fy as usize).min(self.rows.saturating_sub(1));
        // Past the right edge the offset exceeds 1: the right half, so a drag takes it all.
        let side = if fx - (col as f64) < 0.5 {
            Side::Left
        } else {
            Side::Right
        };
        (ViewportPoint { row, col }, side)
    }

    /// Lines per autoscroll step: negative above the grid (towards history), positive
    /// below it, 0 inside. One more line per row of distance, up to 10.
    pub fn autoscroll_lines(&self, y: f64) -> i32 {
        let top = self.y;
        let bottom = self.y + self.rows as f64 * self.cell_height;
        let rows_out = |d: f64| (1 + (d / self.cell_height) as i32).min(10);
        if y < top {
            -rows_out(top - y)
        } else if y >= bottom {
            rows_out(y - bottom)
        } else {
            0
        }
    }
}

#[derive(Debug, Default)]
pub struct Mouse {
    /// The pointer, in physical pixels.
    pub x: f64,
    pub y: f64,
    /// The pane and cell under the pointer when links were last looked for.
    pub hover_cell: Option<(crate::events::PaneId, ViewportPoint)>,
    /// The cell last reported to the program, so motion is reported once per cell.
    pub reported_cell: Option<ViewportPoint>,
    /// The button held, for drag reports (the first one pressed).
    pub held: Option<sluice_term::input::MouseButton>,
    /// The pointer is hidden because the user is typing.
    pub hidden: bool,
    clicks: u8,
    last_click: Option<(Instant, ViewportPoint)>,
    /// Wheel pixels not yet worth a line.
    pixels: f64,
}

impl Mouse {
    /// Counts a left press at `cell`: 1, 2 or 3 for single, double and triple clicks.
    pub fn click(&mut self, cell: ViewportPoint, now: Instant) -> u8 {
        let repeated = self
            .last_click
            .is_some_and(|(at, c)| c == cell && now.duration_since(at) < MULTI_CLICK);
        self.clicks = if repeated { self.clicks % 3 + 1 } else { 1 };
        self.last_click = Some((now, cell));
        self.clicks
    }

    /// Whole lines a pixel-precise wheel (touchpad) has moved, keeping the remainder.
    pub fn wheel_pixels(&mut self, pixels: f64, cell_height: f64) -> i32 {
        self.pixels += pixels;
        let lines = (self.pixels / cell_height).trunc();
        self.pixels -= lines * cell_height;
        lines as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GEO: Geometry = Geometry {
        x: 4.0,
        y: 4.0,
        cell_width: 10.0,
        cell_height: 20.0,
        cols: 80,
        rows: 24,
    };

    #[test]
    fn pixels_to_cells() {
        assert_eq!(
            GEO.cell(4.0, 4.0),
            (ViewportPoint { row: 0, col: 0 }, Side::Left)
        );
        assert_eq!(
            GEO.cell(12.0, 30.0),
            (ViewportPoint { row: 1, col: 0 }, Side::Right)
        );
        assert_eq!(GEO.cell(0.0, 0.0).0, ViewportPoint { row: 0, col: 0 });
        // Past the right edge: the last cell, right half, so a drag there takes it whole.
        assert_eq!(
            GEO.cell(5000.0, 5000.0),
            (ViewportPoint { row: 23, col: 79 }, Side::Right)
        );
    }

    #[test]
    fn autoscroll_speeds_up_with_distance() {
        assert_eq!(GEO.autoscroll_lines(100.0), 0);
        assert_eq!(GEO.autoscroll_lines(0.0), -1);
        assert_eq!(GEO.autoscroll_lines(4.0 + 480.0), 1);
        assert_eq!(GEO.autoscroll_lines(4.0 + 480.0 + 45.0), 3);
        assert_eq!(GEO.autoscroll_lines(1e6), 10);
    }

    #[test]
    fn clicks_count_up_to_three_on_one_cell() {
        let mut m = Mouse::default();
        let t = Instant::now();
        let c = ViewportPoint { row: 1, col: 1 };
        assert_eq!(m.click(c, t), 1);
        assert_eq!(m.click(c, t + Duration::from_millis(100)), 2);
        assert_eq!(m.click(c, t + Duration::from_millis(200)), 3);
        assert_eq!(m.click(c, t + Duration::from_millis(300)), 1);
        assert_eq!(m.click(c, t + Duration::from_secs(2)), 1, "too slow");
        let other = ViewportPoint { row: 2, col: 1 };
        assert_eq!(
            m.click(other, t + Duration::from_millis(2100)),
            1,
            "elsewhere"
        );
    }

    #[test]
    fn touchpad_pixels_add_up_to_lines() {
        let mut m = Mouse::default();
        assert_eq!(m.wheel_pixels(15.0, 20.0), 0);
        assert_eq!(m.wheel_pixels(15.0, 20.0), 1);
        assert_eq!(m.wheel_pixels(-50.0, 20.0), -2);
    }
}

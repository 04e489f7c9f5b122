//! Box drawing (U+2500–257F), block elements (U+2580–259F) and the powerline separators
//! (U+E0B0–E0B3), drawn as cell-sized masks instead of taken from a font.
//!
//! Font glyphs for these rarely fill the cell exactly, which leaves gaps between the lines of
//! a TUI's frames. Drawn here at the cell's own size, with line positions computed the same
//! way in every cell, adjacent cells always join.

use crate::atlas::Bitmap;

/// Whether Sluice draws `c` itself.
pub fn is_sprite(c: char) -> bool {
    matches!(c as u32, 0x2500..=0x259F | 0xE0B0..=0xE0B3)
}

/// Arm weights of the line-drawing characters, "URDL" (up, right, down, left): 0 none,
/// 1 light, 2 heavy, 3 double. `-` marks characters drawn by other rules (dashes, arcs,
/// diagonals). Index 0 is U+2500; the table runs to U+257F.
const ARMS: [&str; 128] = [
    "0101", "0202", "1010", "2020", "-", "-", "-", "-", "-", "-", "-", "-", // 2500–250B
    "0110", "0210", "0120", "0220", "0011", "0012", "0021", "0022", // 250C–2513
    "1100", "1200", "2100", "2200", "1001", "1002", "2001", "2002", // 2514–251B
    "1110", "1210", "2110", "1120", "2120", "2210", "1220", "2220", // 251C–2523
    "1011", "1012", "2011", "1021", "2021", "2012", "1022", "2022", // 2524–252B
    "0111", "0112", "0211", "0212", "0121", "0122", "0221", "0222", // 252C–2533
    "1101", "1102", "1201", "1202", "2101", "2102", "2201", "2202", // 2534–253B
    "1111", "1112", "1211", "1212", "2111", "1121", "2121", "2112", // 253C–2543
    "2211", "1122", "1221", "2212", "1222", "2122", "2221", "2222", // 2544–254B
    "-", "-", "-", "-", // 254C–254F
    "0303", "3030", "0310", "0130", "0330", "0013", "0031", "0033", // 2550–2557
    "1300", "3100", "3300", "1003", "3001", "3003", "1310", "3130", // 2558–255F
    "3330", "1013", "3031", "3033", "0313", "0131", "0333", "1303", // 2560–2567
    "3101", "3303", "1313", "3131", "3333", // 2568–256C
    "-", "-", "-", "-", "-", "-", "-", // 256D–2573
    "0001", "1000", "0100", "0010", "0002", "2000", "0200", "0020", // 2574–257B
    "0201", "1020", "0102", "2010", // 257C–257F
];

/// A coverage canvas the size of one cell.
struct Canvas {
    w: u32,
    h: u32,
    coverage: Vec<f32>,
}

impl Canvas {
    fn new(w: u32, h: u32) -> Self {
        Self {
            w,
            h,
            coverage: vec![0.0; (w * h) as usize],
        }
    }

    /// Fills whole pixels in `[x0, x1) × [y0, y1)`, clamped to the cell.
    fn rect(&mut self, x0: i32, y0: i32, x1: i32, y1: i32, alpha: f32) {
        let (x0, x1) = (
            x0.clamp(0, self.w as i32) as u32,
            x1.clamp(0, self.w as i32) as u32,
        );
        let (y0, y1) = (
            y0.clamp(0, self.h as i32) as u32,
            y1.clamp(0, self.h as i32) as u32,
        );
        for y in y0..y1 {
            for x in x0..x1 {
                let c = &mut self.coverage[(y * self.w + x) as usize];
                *c = c.max(alpha);
            }
        }
    }

    /// Fills by a coverage function of the pixel's centre.
    fn shape(&mut self, f: impl Fn(f32, f32) -> f32) {
        for y in 0..self.h {
            for x in 0..self.w {
                let c = &mut self.coverage[(y * self.w + x) as usize];
                *c = c.max(f(x as f32 + 0.5, y as f32 + 0.5).clamp(0.0, 1.0));
            }
        }
    }

    fn into_bitmap(self) -> Bitmap {
        let bytes: Vec<u8> = self
            .coverage
            .iter()
            .map(|c| (c * 255.0).round() as u8)
            .collect();
        Bitmap::from_mask(self.w, self.h, &bytes)
    }
}

/// Line geometry shared by every cell, so that neighbours join.
struct Lines {
    light: i32,
    heavy: i32,
    /// Left/top edge of a centred line of thickness `t`.
    w: i32,
    h: i32,
}

impl Lines {
    fn thickness(&self, weight: u8) -> i32 {
        if weight == 2 { self.heavy } else { self.light }
    }
    fn x0(&self, t: i32) -> i32 {
        (self.w - t) / 2
    }
    fn y0(&self, t: i32) -> i32 {
        (self.h - t) / 2
    }
}

/// Draws `c` into a cell of `w × h` pixels with light lines `stroke` pixels thick.
pub fn draw(c: char, w: u32, h: u32, stroke: u32) -> Option<Bitmap> {
    let mut canvas = Canvas::new(w, h);
    let lines = Lines {
        light: stroke.max(1) as i32,
        heavy: (stroke.max(1) * 2) as i32,
        w: w as i32,
        h: h as i32,
    };
    let code = c as u32;
    match code {
        0x2500..=0x257F => {
            let arms = ARMS[(code - 0x2500) as usize];
            if arms == "-" {
                special_line(&mut canvas, &lines, code);
            } else {
                let weights: Vec<u8> = arms.bytes().map(|b| b - b'0').collect();
                draw_arms(
                    &mut canvas,
                    &lines,
                    [weights[0], weights[1], weights[2], weights[3]],
                );
            }
        }
        0x2580..=0x259F => block(&mut canvas, code),
        0xE0B0..=0xE0B3 => powerline(&mut canvas, &lines, code),
        _ => return None,
    }
    Some(canvas.into_bitmap())
}

/// Draws arms from the centre to the edges: up, right, down, left.
fn draw_arms(canvas: &mut Canvas, l: &Lines, [up, right, down, left]: [u8; 4]) {
    let (w, h) = (l.w, l.h);
    // How far a horizontal arm reaches past the centre: to the far side of the widest
    // vertical stroke, so that corners and tees close without a notch. Likewise vertically.
    let vertical = up.max(down);
    let horizontal = left.max(right);
    let reach = |weight: u8, across: i32| -> (i32, i32) {
        match weight {
            0 => (across / 2, across / 2),
            3 => (l.x0(l.light) - l.light, l.x0(l.light) + 2 * l.light),
            _ => (
                l.x0(l.thickness(weight)),
                l.x0(l.thickness(weight)) + l.thickness(weight),
            ),
        }
    };
    let (vx0, vx1) = reach(vertical, w);
    let (hy0, hy1) = {
        let t = l.thickness(horizontal);
        match horizontal {
            0 => (h / 2, h / 2),
            3 => (l.y0(l.light) - l.light, l.y0(l.light) + 2 * l.light),
            _ => (l.y0(t), l.y0(t) + t),
        }
    };
    let hline = |canvas: &mut Canvas, weight: u8, x0: i32, x1: i32| {
        if weight == 3 {
            let y = l.y0(l.light);
            canvas.rect(x0, y - l.light, x1, y, 1.0);
            canvas.rect(x0, y + l.light, x1, y + 2 * l.light, 1.0);
        } else if weight > 0 {
            let t = l.thickness(weight);
            canvas.rect(x0, l.y0(t), x1, l.y0(t) + t, 1.0);
        }
    };
    let vline = |canvas: &mut Canvas, weight: u8, y0: i32, y1: i32| {
        if weight == 3 {
            let x = l.x0(l.light);
            canvas.rect(x - l.light, y0, x, y1, 1.0);
            canvas.rect(x + l.light, y0, x + 2 * l.light, y1, 1.0);
        } else if weight > 0 {
            let t = l.thickness(weight);
            canvas.rect(l.x0(t), y0, l.x0(t) + t, y1, 1.0);
        }
    };
    hline(canvas, left, 0, vx1);
    hline(canvas, right, vx0, w);
    vline(canvas, up, 0, hy1);
    vline(canvas, down, hy0, h);
}

fn special_line(canvas: &mut Canvas, l: &Lines, code: u32) {
    let (w, h) = (l.w, l.h);
    match code {
        // Dashed lines: (segments, heavy, vertical).
        0x2504..=0x250B | 0x254C..=0x254F => {
            let (segments, heavy, vertical) = match code {
                0x2504 => (3, false, false),
                0x2505 => (3, true, false),
                0x2506 => (3, false, true),
                0x2507 => (3, true, true),
                0x2508 => (4, false, false),
                0x2509 => (4, true, false),
                0x250A => (4, false, true),
                0x250B => (4, true, true),
                0x254C => (2, false, false),
                0x254D => (2, true, false),
                0x254E => (2, false, true),
                _ => (2, true, true),
            };
            let t = if heavy { l.heavy } else { l.light };
            let length = if vertical { h } else { w };
            for i in 0..segments {
                let start = i * length / segments;
                let end = start + (length / segments * 3 / 5).max(1);
                if vertical {
                    canvas.rect(l.x0(t), start, l.x0(t) + t, end, 1.0);
                } else {
                    canvas.rect(start, l.y0(t), end, l.y0(t) + t, 1.0);
                }
            }
        }
        // Rounded corners: a quarter circle joining two straight arms.
        0x256D..=0x2570 => {
            let t = l.light as f32;
            let cx = l.x0(l.light) as f32 + t / 2.0;
            let cy = l.y0(l.light) as f32 + t / 2.0;
            let r = cx.min(cy).max(1.0);
            // (horizontal direction of the arm, vertical direction): +1 right/down, -1 left/up.
            let (sx, sy) = match code {
                0x256D => (1.0, 1.0),
                0x256E => (-1.0, 1.0),
                0x256F => (-1.0, -1.0),
                _ => (1.0, -1.0),
            };
            let (ox, oy) = (cx + sx * r, cy + sy * r);
            canvas.shape(|x, y| {
                let in_quadrant = (x - ox) * sx <= 0.0 && (y - oy) * sy <= 0.0;
                if !in_quadrant {
                    return 0.0;
                }
                let d = (((x - ox).powi(2) + (y - oy).powi(2)).sqrt() - r).abs();
                t / 2.0 + 0.5 - d
            });
            let (x0, x1) = if sx > 0.0 {
                (ox as i32, w)
            } else {
                (0, ox.ceil() as i32)
            };
            canvas.rect(x0, l.y0(l.light), x1, l.y0(l.light) + l.light, 1.0);
            let (y0, y1) = if sy > 0.0 {
                (oy as i32, h)
            } else {
                (0, oy.ceil() as i32)
            };
            canvas.rect(l.x0(l.light), y0, l.x0(l.light) + l.light, y1, 1.0);
        }
        // Diagonals.
        0x2571..=0x2573 => {
            let t = l.light as f32;
            let (wf, hf) = (w as f32, h as f32);
            let len = (wf * wf + hf * hf).sqrt();
            let rising =
                move |x: f32, y: f32| t / 2.0 + 0.5 - ((hf * x + wf * y - wf * hf) / len).abs();
            let falling = move |x: f32, y: f32| t / 2.0 + 0.5 - ((hf * x - wf * y) / len).abs();
            if code != 0x2572 {
                canvas.shape(rising);
            }
            if code != 0x2571 {
                canvas.shape(falling);
            }
        }
        _ => {}
    }
}

fn block(canvas: &mut Canvas, code: u32) {
    let (w, h) = (canvas.w as i32, canvas.h as i32);
    let eighth_h = |k: i32| (h * k + 4) / 8;
    let eighth_w = |k: i32| (w * k + 4) / 8;
    // Halves split the cell at the same place the quadrants do.
    let (mx, my) = (eighth_w(4), h - eighth_h(4));
    match code {
        0x2580 => canvas.rect(0, 0, w, my, 1.0),
        0x2581..=0x2588 => {
            let k = (code - 0x2580) as i32;
            canvas.rect(0, h - eighth_h(k), w, h, 1.0);
        }
        0x2589..=0x258F => {
            let k = (0x2590 - code) as i32;
            canvas.rect(0, 0, eighth_w(k), h, 1.0);
        }
        0x2590 => canvas.rect(mx, 0, w, h, 1.0),
        0x2591..=0x2593 => canvas.rect(0, 0, w, h, (code - 0x2590) as f32 * 0.25),
        0x2594 => canvas.rect(0, 0, w, eighth_h(1), 1.0),
        0x2595 => canvas.rect(w - eighth_w(1), 0, w, h, 1.0),
        _ => {
            // Quadrants: upper-left, upper-right, lower-left, lower-right.
            let quads: [bool; 4] = match code {
                0x2596 => [false, false, true, false],
                0x2597 => [false, false, false, true],
                0x2598 => [true, false, false, false],
                0x2599 => [true, false, true, true],
                0x259A => [true, false, false, true],
                0x259B => [true, true, true, false],
                0x259C => [true, true, false, true],
                0x259D => [false, true, false, false],
                0x259E => [false, true, true, false],
                _ => [false, true, true, true],
            };
            let rects = [
                (0, 0, mx, my),
                (mx, 0, w, my),
                (0, my, mx, h),
                (mx, my, w, h),
            ];
            for (on, (x0, y0, x1, y1)) in quads.iter().zip(rects) {
                if *on {
                    canvas.rect(x0, y0, x1, y1, 1.0);
                }
            }
        }
    }
}

fn powerline(canvas: &mut Canvas, l: &Lines, code: u32) {
    let (w, h) = (l.w as f32, l.h as f32);
    let t = l.light as f32;
    // The left-pointing shapes are mirror images of the right-pointing ones.
    let mirror = matches!(code, 0xE0B2 | 0xE0B3);
    let solid = matches!(code, 0xE0B0 | 0xE0B2);
    let half = h / 2.0;
    // The slanted edges run from the left corners to the middle of the right side.
    let edge_x = move |y: f32| w * (1.0 - (y - half).abs() / half);
    canvas.shape(|x, y| {
        let x = if mirror { w - x } else { x };
        if solid {
            // 4×4 samples per pixel for a smooth edge.
            let mut inside = 0;
            for sy in 0..4 {
                for sx in 0..4 {
                    let (px, py) = (
                        x - 0.5 + (sx as f32 + 0.5) / 4.0,
                        y - 0.5 + (sy as f32 + 0.5) / 4.0,
                    );
                    inside += (px <= edge_x(py)) as u32;
                }
            }
            inside as f32 / 16.0
        } else {
            let d = segment_distance((x, y), (0.0, 0.0), (w, half)).min(segment_distance(
                (x, y),
                (w, half),
                (0.0, h),
            ));
            t / 2.0 + 0.5 - d
        }
    });
}

fn segment_distance(p: (f32, f32), a: (f32, f32), b: (f32, f32)) -> f32 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let along = (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / (dx * dx + dy * dy)).clamp(0.0, 1.0);
    let (cx, cy) = (a.0 + along * dx, a.1 + along * dy);
    ((p.0 - cx).powi(2) + (p.1 - cy).powi(2)).sqrt()
}

/// A curly underline `w` wide and `height` tall (a sine wave of one period per cell).
pub fn curly_underline(w: u32, height: u32, stroke: u32) -> Bitmap {
    let mut canvas = Canvas::new(w, height.max(3));
    let amplitude = (canvas.h as f32 - stroke as f32) / 2.0;
    let mid = canvas.h as f32 / 2.0;
    let t = stroke.max(1) as f32;
    canvas.shape(|x, y| {
        let wave = mid - amplitude * (x / w as f32 * std::f32::consts::TAU).sin();
        t / 2.0 + 0.5 - (y - wave).abs()
    });
    canvas.into_bitmap()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn alpha(b: &Bitmap, x: u32, y: u32) -> u8 {
        b.data[((y * b.width + x) * 4 + 3) as usize]
    }

    #[test]
    fn horizontal_line_reaches_both_edges_at_the_same_row() {
        for (w, h) in [(7, 15), (9, 19), (10, 20), (17, 36)] {
            let b = draw('─', w, h, 1).unwrap();
            let row = (0..h).find(|&y| alpha(&b, 0, y) == 255).unwrap();
            assert_eq!(alpha(&b, w - 1, row), 255);
            let cross = draw('┼', w, h, 1).unwrap();
            assert_eq!(
                alpha(&cross, 0, row),
                255,
                "the cross's arm is on the same row"
            );
            let col = (0..w).find(|&x| alpha(&cross, x, 0) == 255).unwrap();
            assert_eq!(alpha(&cross, col, h - 1), 255);
        }
    }

    #[test]
    fn full_block_fills_the_cell_and_halves_partition_it() {
        let (w, h) = (9, 19);
        let full = draw('█', w, h, 1).unwrap();
        assert!(full.data.iter().all(|&a| a == 255));
        let upper = draw('▀', w, h, 1).unwrap();
        let lower = draw('▄', w, h, 1).unwrap();
        for y in 0..h {
            assert_eq!(
                alpha(&upper, 4, y) as u32 + alpha(&lower, 4, y) as u32,
                255,
                "row {y}"
            );
        }
    }

    #[test]
    fn every_code_point_in_range_draws_something() {
        for code in (0x2500..=0x259F).chain(0xE0B0..=0xE0B3) {
            let c = char::from_u32(code).unwrap();
            let b = draw(c, 10, 20, 1).unwrap();
            assert!(b.data.iter().any(|&a| a > 0), "U+{code:04X} is blank");
        }
    }
}

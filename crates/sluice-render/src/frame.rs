//! A pane's frame: the pixels of its rows as last drawn, kept between frames so that only
//! what changed is drawn again.
//!
//! The frame is a ring of rows: viewport row `r` lives at frame row `(origin + r) % rows`. A
//! scroll moves `origin` instead of moving pixels, so it costs nothing at all; presenting
//! (and readback) start at `origin` and wrap. (A texture-to-texture copy was the first way:
//! ~5 MB moved per scrolled frame at 160×50, most of a scroll's process time on lavapipe.)

use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::composite::BlankTail;
use crate::gpu_backend::CellBinding;
use crate::shared_memory::FrameMemory;

/// The frame's size and where the screen's top row is in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct FrameRing {
    /// In pixels.
    pub width: u32,
    pub height: u32,
    /// Rows of cells, each `row_height` pixels.
    pub rows: usize,
    pub row_height: u32,
    /// The frame row holding the screen's top row.
    pub origin: usize,
}

impl FrameRing {
    /// The frame row of viewport row `row`.
    pub fn frame_row(&self, row: usize) -> usize {
        (self.origin + row) % self.rows.max(1)
    }

    /// The top pixel line of viewport row `row` in the frame.
    pub fn top_of(&self, row: usize) -> u32 {
        self.frame_row(row) as u32 * self.row_height
    }

    /// The pixel line holding the screen's top.
    pub fn origin_px(&self) -> u32 {
        self.origin as u32 * self.row_height
    }

    /// The pixel lines of `rows` frame rows from frame row `first` down, cut to the frame:
    /// their top line and how many.
    pub fn lines(&self, first: usize, rows: usize) -> (u32, u32) {
        let top = first as u32 * self.row_height;
        let height = (rows as u32 * self.row_height).min(self.height.saturating_sub(top));
        (top, height)
    }

    /// The viewport `rows` being drawn, with their quads (`row_ends`: where each row's quads
    /// end in the frame's list), as (frame row, quads) in frame order: rows next to each
    /// other in the frame are composited and copied together (a full redraw is one or two
    /// runs of rows).
    pub fn in_frame_order(&self, rows: &[usize], row_ends: &[usize]) -> Vec<(usize, Range<usize>)> {
        let mut placed: Vec<(usize, Range<usize>)> = rows
            .iter()
            .zip(row_ends)
            .scan(0, |start, (&row, &end)| {
                let quads = *start..end;
                *start = end;
                Some((self.frame_row(row), quads))
            })
            .collect();
        placed.sort_unstable_by_key(|(frame_row, _)| *frame_row);
        placed
    }
}

/// A pane's frame: its ring and its pixels.
pub(crate) struct Frames {
    /// Unique in the process: a window's image that holds a copy of this frame's rows knows
    /// them by it (software_surface.rs).
    pub id: u64,
    pub ring: FrameRing,
    pub pixels: FramePixels,
    /// The renderer's font when these frames were made.
    pub font_generation: u64,
    /// For each frame row, how far its pixels are known to be plain background
    /// ([`BlankTail`]); none yet, as the memory is new. Kept by the software renderer only.
    pub blank_tails: Vec<Option<BlankTail>>,
    /// For each frame row, the keys of the cells it shows (`damage::cell_key`), the columns a
    /// row, where `cells_known` says they are known. Kept by the software renderer only, to
    /// draw a row again only from its first changed cell: the lines of a build's log share
    /// most of their start (docs/performance.md, "Rows drawn from their first change").
    cell_keys: Vec<u128>,
    cells_known: Vec<bool>,
}

impl Frames {
    pub fn new(ring: FrameRing, pixels: FramePixels, font_generation: u64) -> Self {
        static NEXT_ID: AtomicU64 = AtomicU64::new(1);
        Self {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            ring,
            pixels,
            font_generation,
            blank_tails: vec![None; ring.rows],
            cell_keys: Vec::new(),
            cells_known: vec![false; ring.rows],
        }
    }

    /// Forgets what each row's cells are: every row is drawn whole next time.
    pub fn forget_cells(&mut self) {
        self.cells_known.iter_mut().for_each(|known| *known = false);
    }

    /// The keys of the cells viewport row `row` shows (`damage::cell_key`, `cols` of them),
    /// where they are known: recorded by [`record_cells`](Self::record_cells) when the row
    /// was last drawn, not forgotten since, and no quad of it reached left of its cell then.
    pub fn drawn_cells(&self, row: usize, cols: usize) -> Option<&[u128]> {
        let frame_row = self.ring.frame_row(row);
        if self.cell_keys.len() != self.ring.rows * cols || !*self.cells_known.get(frame_row)? {
            return None;
        }
        self.cell_keys.get(frame_row * cols..(frame_row + 1) * cols)
    }

    /// Records what viewport `rows` show once drawn: their cells' `keys`, `cols` a row, and
    /// whether a quad of each reaches left of its cell (`overhangs`: such a row is drawn whole
    /// next time, as its quads reach pixels a row drawn in part does not draw again).
    pub fn record_cells(
        &mut self,
        rows: &[usize],
        (keys, overhangs): (&[u128], &[bool]),
        cols: usize,
    ) {
        if cols == 0 || keys.len() != rows.len() * cols || overhangs.len() != rows.len() {
            // Built short (the atlas was too small for the frame): nothing is known.
            self.forget_cells();
            return;
        }
        if self.cell_keys.len() != self.ring.rows * cols {
            // Keys of another width say nothing of these rows.
            self.forget_cells();
            self.cell_keys.resize(self.ring.rows * cols, 0);
        }
        for ((&row, new), &overhang) in rows.iter().zip(keys.chunks_exact(cols)).zip(overhangs) {
            let frame_row = self.ring.frame_row(row);
            let Some(known) = self.cells_known.get_mut(frame_row) else {
                continue;
            };
            self.cell_keys[frame_row * cols..(frame_row + 1) * cols].copy_from_slice(new);
            *known = !overhang;
        }
    }
}

/// Where a frame's pixels are.
pub(crate) enum FramePixels {
    /// A texture of the GPU renderer, with what the cell pipeline needs to draw into it.
    Texture {
        texture: wgpu::Texture,
        view: wgpu::TextureView,
        /// Made when the cell pipeline draws (not when rows are composited on the CPU).
        binding: Option<CellBinding>,
    },
    /// Memory of the software renderer: `width × height` pixels, each a native `u32`
    /// `0xAARRGGBB` (`PixelOrder::native_argb`), lines top to bottom; shared with the X
    /// server where it can be (shared_memory.rs).
    Memory(FrameMemory),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ring(origin: usize) -> FrameRing {
        FrameRing {
            width: 80,
            height: 4 * 17,
            rows: 4,
            row_height: 17,
            origin,
        }
    }

    #[test]
    fn viewport_rows_wrap_around_the_origin() {
        let r = ring(3);
        assert_eq!(
            (0..4).map(|row| r.frame_row(row)).collect::<Vec<_>>(),
            [3, 0, 1, 2]
        );
        assert_eq!(r.top_of(1), 0);
        assert_eq!(r.top_of(0), 51);
        assert_eq!(r.origin_px(), 51);
    }

    #[test]
    fn runs_of_lines_are_cut_to_the_frame() {
        let r = ring(0);
        assert_eq!(r.lines(1, 2), (17, 34));
        assert_eq!(r.lines(3, 5), (51, 17), "past the last row");
        assert_eq!(r.lines(4, 1), (68, 0), "below the frame");
    }

    #[test]
    fn rows_are_sorted_into_frame_order_with_their_quads() {
        // Viewport rows 0 and 1 are frame rows 3 and 0; row 1 has 2 quads' worth, row 0 none.
        let placed = ring(3).in_frame_order(&[0, 1], &[0, 8]);
        assert_eq!(placed, [(0, 0..8), (3, 0..0)]);
    }
}

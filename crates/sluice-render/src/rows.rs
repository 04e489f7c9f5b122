//! Turning a row of cells into instanced quads: background runs, glyphs, sprites,
//! decorations, the cursor.

use sluice_term::{CellFlags, CursorShape, RenderCell, Rgb, Snapshot};

use crate::atlas::{Atlas, AtlasEntry, AtlasFull, AtlasKey, Bitmap};
use crate::boxdraw;
use crate::damage::{Overlay, selected_columns};
use crate::decorations::Decorations;
use crate::font::{CellMetrics, Fonts, GlyphStyle};

/// One quad, as the cell shader reads it.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct Instance {
    pub pos: [f32; 2],
    pub size: [f32; 2],
    pub uv: [f32; 2],
    pub color: [f32; 4],
    pub clip: [f32; 2],
    pub kind: u32,
    pub _pad: u32,
}

const SOLID: u32 = 0;
const MASK: u32 = 1;
const COLOR_IMAGE: u32 = 2;

/// Sprite codes above the Unicode range, for decorations drawn as images.
const CURLY_UNDERLINE: u32 = 0x11_0000;

fn rgba(c: Rgb) -> [f32; 4] {
    [
        c.r as f32 / 255.0,
        c.g as f32 / 255.0,
        c.b as f32 / 255.0,
        1.0,
    ]
}

/// Everything needed to build a row's quads.
pub struct RowBuilder<'a> {
    pub fonts: &'a mut Fonts,
    pub atlas: &'a mut Atlas,
    pub queue: &'a wgpu::Queue,
    pub metrics: CellMetrics,
    /// The frame texture is a ring of rows: viewport row `r` is drawn at texture row
    /// `(origin + r) % rows`.
    pub origin: usize,
    pub rows: usize,
    pub out: &'a mut Vec<Instance>,
}

impl RowBuilder<'_> {
    /// The top of viewport row `row` in the frame texture, in pixels.
    fn top(&self, row: usize) -> f32 {
        ((self.origin + row) % self.rows.max(1)) as f32 * self.metrics.height as f32
    }

    /// Appends a quad; `rect` is x, y, width, height in pixels.
    fn push(&mut self, kind: u32, rect: [f32; 4], uv: [f32; 2], color: [f32; 4], clip: [f32; 2]) {
        let [x, y, w, h] = rect;
        self.out.push(Instance {
            pos: [x, y],
            size: [w, h],
            uv,
            color,
            clip,
            kind,
            _pad: 0,
        });
    }

    fn rect(&mut self, x: f32, y: f32, w: f32, h: f32, color: Rgb, clip: [f32; 2]) {
        self.push(SOLID, [x, y, w, h], [0.0; 2], rgba(color), clip);
    }

    /// Appends the quads for `row` of `snapshot`. Fails only when the atlas is full.
    pub fn build(
        &mut self,
        snapshot: &Snapshot,
        overlay: &Overlay,
        decorations: &Decorations,
        row: usize,
    ) -> Result<(), AtlasFull> {
        let m = self.metrics;
        let (cw, ch) = (m.width as f32, m.height as f32);
        let top = self.top(row);
        let clip = [top, top + ch];
        let cells = decorations.apply(&snapshot.lines[row], row);
        let cells = &cells[..];
        let selected = selected_columns(overlay.selection, row, snapshot.cols);
        let selection_colors = overlay.colors.selection;
        let colors = |col: usize, cell: &RenderCell| -> (Rgb, Rgb) {
            let mut inverse = cell.flags.contains(CellFlags::INVERSE);
            if selected.is_some_and(|(a, b)| col >= a && col < b) {
                if let Some(colors) = selection_colors {
                    return colors;
                }
                inverse = !inverse;
            }
            if inverse {
                (cell.bg, cell.fg)
            } else {
                (cell.fg, cell.bg)
            }
        };

        // Backgrounds, one quad per run of equal colour. They cover the whole row, so they
        // also erase whatever was drawn there before.
        let mut run_start = 0;
        let mut run_color = cells
            .first()
            .map(|c| colors(0, c).1)
            .unwrap_or(snapshot.background);
        for (col, cell) in cells.iter().enumerate().skip(1) {
            let bg = colors(col, cell).1;
            if bg != run_color {
                self.rect(
                    run_start as f32 * cw,
                    top,
                    (col - run_start) as f32 * cw,
                    ch,
                    run_color,
                    clip,
                );
                (run_start, run_color) = (col, bg);
            }
        }
        self.rect(
            run_start as f32 * cw,
            top,
            (cells.len() - run_start) as f32 * cw,
            ch,
            run_color,
            clip,
        );

        for (col, cell) in cells.iter().enumerate() {
            if cell
                .flags
                .intersects(CellFlags::WIDE_CHAR_SPACER | CellFlags::LEADING_WIDE_CHAR_SPACER)
            {
                continue;
            }
            let (fg, _) = colors(col, cell);
            if !cell.flags.contains(CellFlags::HIDDEN) {
                self.glyph(cell, col, row, fg, clip)?;
            }
            self.decorations(cell, col, top, fg, clip)?;
        }

        if let Some(cursor) = overlay
            .cursor
            .filter(|c| c.row == row && c.col < cells.len())
        {
            self.cursor(
                cells,
                overlay,
                cursor,
                overlay
                    .colors
                    .cursor_text
                    .unwrap_or(colors(cursor.col, &cells[cursor.col]).1),
                clip,
            )?;
        }
        Ok(())
    }

    /// Draws the cell's character: a sprite for box drawing, else its shaped glyphs.
    fn glyph(
        &mut self,
        cell: &RenderCell,
        col: usize,
        row: usize,
        color: Rgb,
        clip: [f32; 2],
    ) -> Result<(), AtlasFull> {
        if cell.c == ' ' && cell.zerowidth.is_none() {
            return Ok(());
        }
        let m = self.metrics;
        let (x, top) = (col as f32 * m.width as f32, self.top(row));
        if self.fonts.builtin_box_drawing && boxdraw::is_sprite(cell.c) {
            let (c, w, h, stroke) = (cell.c, m.width, m.height, m.stroke);
            let entry = self
                .atlas
                .get_or_insert(self.queue, AtlasKey::Sprite(c as u32), || {
                    boxdraw::draw(c, w, h, stroke)
                })?;
            if let Some(e) = entry {
                self.image(e, x, top, color, clip);
            }
            return Ok(());
        }
        let mut text = String::new();
        text.push(cell.c);
        if let Some(marks) = &cell.zerowidth {
            text.extend(marks.iter());
        }
        let style = GlyphStyle {
            bold: cell.flags.contains(CellFlags::BOLD),
            italic: cell.flags.contains(CellFlags::ITALIC),
        };
        let cells = if cell.flags.contains(CellFlags::WIDE_CHAR) {
            2
        } else {
            1
        };
        let glyphs = self.fonts.shape(&text, style, cells).to_vec();
        let baseline = top + m.baseline as f32;
        for glyph in glyphs {
            let fonts = &mut *self.fonts;
            let entry = self
                .atlas
                .get_or_insert(self.queue, AtlasKey::Glyph(glyph.key), || {
                    fonts.rasterize(glyph.key).map(|i| Bitmap::from_swash(&i))
                })?;
            if let Some(e) = entry {
                let gx = x + (glyph.x + e.left) as f32;
                let gy = baseline + (glyph.y - e.top) as f32;
                self.image(e, gx, gy, color, clip);
            }
        }
        Ok(())
    }

    fn image(&mut self, e: AtlasEntry, x: f32, y: f32, color: Rgb, clip: [f32; 2]) {
        let kind = if e.color { COLOR_IMAGE } else { MASK };
        let rect = [x, y, e.width as f32, e.height as f32];
        self.push(kind, rect, [e.x as f32, e.y as f32], rgba(color), clip);
    }

    /// Underlines (in their own colour if set) and strikethrough.
    fn decorations(
        &mut self,
        cell: &RenderCell,
        col: usize,
        top: f32,
        fg: Rgb,
        clip: [f32; 2],
    ) -> Result<(), AtlasFull> {
        let flags = cell.flags;
        if !flags.intersects(CellFlags::ALL_UNDERLINES | CellFlags::STRIKEOUT) {
            return Ok(());
        }
        let m = self.metrics;
        let cells = if flags.contains(CellFlags::WIDE_CHAR) {
            2
        } else {
            1
        };
        let (x, w) = (col as f32 * m.width as f32, (m.width * cells) as f32);
        let t = m.stroke as f32;
        let y = top + m.underline as f32;
        let color = cell.underline.unwrap_or(fg);
        if flags.contains(CellFlags::UNDERLINE) {
            self.rect(x, y, w, t, color, clip);
        }
        if flags.contains(CellFlags::DOUBLE_UNDERLINE) {
            // The second line goes above the first when there is no room below.
            let below = y + 2.0 * t;
            let second = if below + t <= top + m.height as f32 {
                below
            } else {
                y - 2.0 * t
            };
            self.rect(x, y, w, t, color, clip);
            self.rect(x, second, w, t, color, clip);
        }
        if flags.contains(CellFlags::DOTTED_UNDERLINE) {
            let mut dx = 0.0;
            while dx < w {
                self.rect(x + dx, y, t.min(w - dx), t, color, clip);
                dx += 2.0 * t;
            }
        }
        if flags.contains(CellFlags::DASHED_UNDERLINE) {
            let dash = (m.width as f32 / 2.0).ceil();
            let mut dx = 0.0;
            while dx < w {
                self.rect(x + dx, y, dash.min(w - dx), t, color, clip);
                dx += dash * 2.0;
            }
        }
        if flags.contains(CellFlags::UNDERCURL) {
            let height = (m.stroke * 3).max(3);
            let (cw, stroke) = (m.width, m.stroke);
            let entry =
                self.atlas
                    .get_or_insert(self.queue, AtlasKey::Sprite(CURLY_UNDERLINE), || {
                        Some(boxdraw::curly_underline(cw, height, stroke))
                    })?;
            let curl_top = (y - height as f32 / 2.0).min(top + m.height as f32 - height as f32);
            if let Some(e) = entry {
                for i in 0..cells {
                    self.image(e, x + (i * m.width) as f32, curl_top, color, clip);
                }
            }
        }
        if flags.contains(CellFlags::STRIKEOUT) {
            self.rect(x, top + m.strikeout as f32, w, t, fg, clip);
        }
        Ok(())
    }

    fn cursor(
        &mut self,
        row_cells: &[RenderCell],
        overlay: &Overlay,
        cursor: sluice_term::Cursor,
        cell_bg: Rgb,
        clip: [f32; 2],
    ) -> Result<(), AtlasFull> {
        let m = self.metrics;
        let cells = if cursor.wide { 2 } else { 1 };
        let (x, top) = (cursor.col as f32 * m.width as f32, self.top(cursor.row));
        let (w, h) = ((m.width * cells) as f32, m.height as f32);
        let t = m.stroke.max(1) as f32;
        // Beam and underline: `cursor.thickness` of the cell's width, a pixel at least.
        let thick = (self.fonts.cursor_thickness * m.width as f32)
            .round()
            .max(1.0);
        let shape = match cursor.shape {
            CursorShape::Block if !overlay.focused => CursorShape::HollowBlock,
            shape => shape,
        };
        match shape {
            CursorShape::Block => {
                self.rect(x, top, w, h, cursor.color, clip);
                // The character under a block cursor is drawn in the cell's background colour.
                let cell = &row_cells[cursor.col];
                if !cell.flags.contains(CellFlags::HIDDEN) {
                    self.glyph(cell, cursor.col, cursor.row, cell_bg, clip)?;
                }
            }
            CursorShape::HollowBlock => {
                self.rect(x, top, w, t, cursor.color, clip);
                self.rect(x, top + h - t, w, t, cursor.color, clip);
                self.rect(x, top, t, h, cursor.color, clip);
                self.rect(x + w - t, top, t, h, cursor.color, clip);
            }
            CursorShape::Beam => self.rect(x, top, thick, h, cursor.color, clip),
            CursorShape::Underline => self.rect(x, top + h - thick, w, thick, cursor.color, clip),
            CursorShape::Hidden => {}
        }
        Ok(())
    }
}

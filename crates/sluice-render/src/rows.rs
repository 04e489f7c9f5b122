//! Turning a row of cells into quads: background runs, glyphs, sprites,
//! decorations, the cursor.

use std::ops::Range;

use sluice_term::{CellFlags, CursorShape, RenderCell, Rgb, Snapshot};

use crate::ascii_glyphs::{AsciiGlyphs, Slot};
use crate::atlas::{Atlas, AtlasEntry, AtlasFull, AtlasKey, Bitmap};
use crate::boxdraw;
use crate::damage::{self, Overlay, selected_columns};
use crate::decorations::Decorations;
use crate::font::{CellMetrics, Fonts, GlyphStyle, PlacedGlyph};
use crate::frame::Frames;
use smallvec::SmallVec;

/// One corner of a quad, as the cell shader reads it.
///
/// Quads are drawn as an indexed triangle list, four corners each, so that each corner can be
/// cut to its row on the CPU ([`clipped_corners`]) and the fragment shader needs no `discard`.
/// Instances of one four-vertex strip were replaced with it; on its own that changed nothing
/// measurable in `frame-cpu` (docs/performance.md, "Frame cost on software rendering").
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct Vertex {
    /// Where the corner is in the frame texture, in pixels.
    pub pixel: [f32; 2],
    /// The atlas texel at the corner (unused by solid quads).
    pub texel: [f32; 2],
    pub color: [f32; 4],
    pub kind: u32,
}

/// Vertices per quad, in the order (0,0), (1,0), (0,1), (1,1) of its corners.
pub const QUAD_VERTICES: usize = 4;

/// Indices per quad: two triangles.
pub const QUAD_INDICES: usize = 6;

/// The two triangles of quad `quad`, as indices into the vertex buffer.
pub fn quad_indices(quad: u32) -> [u32; QUAD_INDICES] {
    let first = quad * QUAD_VERTICES as u32;
    [0, 1, 2, 2, 1, 3].map(|corner| first + corner)
}

const SOLID: u32 = 0;
const MASK: u32 = 1;
const COLOR_IMAGE: u32 = 2;

/// Sprite codes above the Unicode range, for decorations drawn as images.
const CURLY_UNDERLINE: u32 = 0x11_0000;

/// The corners of quad `rect` (x, y, width, height) cut to the rows between `clip`'s top and
/// bottom, each with its atlas texel (`uv` at the quad's top-left, one texel per pixel), in
/// [`QUAD_VERTICES`] order; `None` when nothing of the quad is left.
fn clipped_corners(
    rect: [f32; 4],
    uv: [f32; 2],
    clip: [f32; 2],
) -> Option<[([f32; 2], [f32; 2]); QUAD_VERTICES]> {
    let [x, y, w, h] = rect;
    let (top, bottom) = (y.max(clip[0]), (y + h).min(clip[1]));
    if bottom <= top || w <= 0.0 {
        return None;
    }
    let (u, v) = (uv[0], uv[1] + (top - y));
    let height = bottom - top;
    Some(
        [(0.0, 0.0), (w, 0.0), (0.0, height), (w, height)]
            .map(|(dx, dy)| ([x + dx, top + dy], [u + dx, v + dy])),
    )
}

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
    /// Where the atlas has the glyphs of ASCII cells, kept with the renderer.
    pub ascii: &'a mut AsciiGlyphs,
    pub metrics: CellMetrics,
    /// The frame texture is a ring of rows: viewport row `r` is drawn at texture row
    /// `(origin + r) % rows`.
    pub origin: usize,
    pub rows: usize,
    /// The quads built so far, [`QUAD_VERTICES`] vertices each.
    pub out: &'a mut Vec<Vertex>,
    /// The cells of each row built so far, as [`damage::cell_key`]s, the snapshot's columns a
    /// row: what the frame holds once they are drawn, to draw only what changed next time.
    /// `None` where rows are drawn whole (the GPU backend).
    pub keys: Option<&'a mut Vec<u128>>,
    /// For each row built so far, whether any of its quads reaches left of the cell it
    /// belongs to (an italic or wide glyph, a mark): such a row is drawn whole.
    pub overhangs: &'a mut Vec<bool>,
    /// What the frame's rows show as last drawn, where rows are drawn from their first
    /// changed cell (the software renderer compositing into memory); `None` where rows are
    /// drawn whole.
    pub drawn: Option<&'a Frames>,
    /// For each row built so far, the pixel its row is drawn from: its quads left of it were
    /// not built, and the row's pixels left of it are not drawn again.
    pub starts: &'a mut Vec<u32>,
    /// Quads that end at or left of this pixel are not built: the row is drawn from there.
    pub(crate) skip_to: f32,
    /// The left edge of the cell whose quads are being built, in pixels.
    pub(crate) cell_left: f32,
    /// Whether a quad of the row being built reached left of its cell.
    pub(crate) overhang: bool,
}

impl RowBuilder<'_> {
    /// The top of viewport row `row` in the frame texture, in pixels.
    fn top(&self, row: usize) -> f32 {
        ((self.origin + row) % self.rows.max(1)) as f32 * self.metrics.height as f32
    }

    /// Appends a quad; `rect` is x, y, width, height in pixels.
    ///
    /// The quad is cut to `clip`, its row's top and bottom: nothing drawn for a row may spill
    /// into its neighbours, or a row redrawn alone would differ from the same row in a full
    /// redraw. Cutting the geometry here, rather than discarding fragments in the shader,
    /// keeps every pixel the same and the fragment shader free of `discard`.
    fn push(&mut self, kind: u32, rect: [f32; 4], uv: [f32; 2], color: [f32; 4], clip: [f32; 2]) {
        self.overhang |= rect[0] < self.cell_left;
        if rect[0] + rect[2] <= self.skip_to {
            // No pixel of it is drawn: the row is drawn from `skip_to` on, and compositing
            // would cut it away (docs/performance.md, "Quads built from the first change").
            return;
        }
        let Some(corners) = clipped_corners(rect, uv, clip) else {
            return;
        };
        for (pixel, texel) in corners {
            self.out.push(Vertex {
                pixel,
                texel,
                color,
                kind,
            });
        }
    }

    /// The background of the cells in `columns`, unless it is `blank`, the colour the row was
    /// blanked with.
    fn background(&mut self, columns: Range<usize>, color: Rgb, blank: Rgb, clip: [f32; 2]) {
        if color == blank || columns.is_empty() {
            return;
        }
        let (cw, ch) = (self.metrics.width as f32, self.metrics.height as f32);
        let x = columns.start as f32 * cw;
        let width = columns.len() as f32 * cw;
        self.cell_left = x;
        self.rect(x, clip[0], width, ch, color, clip);
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
        let top = self.top(row);
        let clip = [top, top + self.metrics.height as f32];
        let cells = decorations.apply(&snapshot.lines[row], row);
        let content_end = damage::content_end(snapshot, &cells, row);
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

        // The row's blank tail draws nothing unless selected: it is not looked at.
        let end = content_end.max(selected.map_or(0, |(_, end)| end));
        let shown = &cells[..end.min(cells.len())];
        let unchanged = self.key_cells(snapshot, overlay, shown, row, colors);

        // Quads only from the first changed cell on (the frame shows the cells before it), unless
        // a quad reaches left of its cell: then the row is drawn whole, and built again whole.
        let first_quad = self.out.len();
        let width = self.metrics.width as f32;
        self.skip_to = unchanged as f32 * width;
        self.quads(snapshot, overlay, (cells, shown), (row, clip), colors)?;
        if self.overhang && unchanged > 0 {
            self.out.truncate(first_quad);
            self.skip_to = 0.0;
            self.quads(snapshot, overlay, (cells, shown), (row, clip), colors)?;
        }
        self.starts.push(self.skip_to as u32);
        self.overhangs.push(self.overhang);
        Ok(())
    }

    /// Appends the quads of `row` (its cells, `shown` those before its blank tail), drawn in
    /// `colors`, but those that end at or left of `skip_to`; notes in `overhang` whether any
    /// reaches left of its cell.
    fn quads(
        &mut self,
        snapshot: &Snapshot,
        overlay: &Overlay,
        (cells, shown): (&[RenderCell], &[RenderCell]),
        (row, clip): (usize, [f32; 2]),
        colors: impl Fn(usize, &RenderCell) -> (Rgb, Rgb),
    ) -> Result<(), AtlasFull> {
        self.overhang = false;
        self.cell_left = 0.0;
        let top = clip[0];
        // Backgrounds, one quad per run of a colour other than the default: the renderer has
        // blanked the row with the default background already (blank.rs).
        let mut run_start = 0;
        let mut run_color = shown
            .first()
            .map(|c| colors(0, c).1)
            .unwrap_or(snapshot.background);
        for (col, cell) in shown.iter().enumerate().skip(1) {
            let bg = colors(col, cell).1;
            if bg != run_color {
                self.background(run_start..col, run_color, snapshot.background, clip);
                (run_start, run_color) = (col, bg);
            }
        }
        self.background(run_start..shown.len(), run_color, snapshot.background, clip);

        for (col, cell) in shown.iter().enumerate() {
            if cell
                .flags
                .intersects(CellFlags::WIDE_CHAR_SPACER | CellFlags::LEADING_WIDE_CHAR_SPACER)
            {
                continue;
            }
            let (fg, _) = colors(col, cell);
            self.cell_left = col as f32 * self.metrics.width as f32;
            if !cell.flags.contains(CellFlags::HIDDEN) {
                self.glyph(cell, col, row, fg, clip)?;
            }
            self.decorations(cell, col, top, fg, clip)?;
        }

        if let Some(cursor) = overlay
            .cursor
            .filter(|c| c.row == row && c.col < cells.len())
        {
            self.cell_left = cursor.col as f32 * self.metrics.width as f32;
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

    /// Appends the keys of the row's cells to `keys`: `shown` (the cells before its blank
    /// tail) by what they show in `colors`, the rest as the blank tail, the cursor's cells as
    /// always redrawn. Returns how many cells at the row's start the frame shows already
    /// ([`damage::unchanged_prefix`] against [`Frames::drawn_cells`]; 0 where not known).
    fn key_cells(
        &mut self,
        snapshot: &Snapshot,
        overlay: &Overlay,
        shown: &[RenderCell],
        row: usize,
        colors: impl Fn(usize, &RenderCell) -> (Rgb, Rgb),
    ) -> usize {
        let Some(keys) = self.keys.as_deref_mut() else {
            return 0;
        };
        let start = keys.len();
        keys.resize(
            start + snapshot.cols,
            damage::blank_key(snapshot.background),
        );
        let keys = &mut keys[start..];
        for ((col, cell), key) in shown.iter().enumerate().zip(keys.iter_mut()) {
            let (fg, bg) = colors(col, cell);
            *key = damage::cell_key(cell, fg, bg);
        }
        if let Some(cursor) = overlay.cursor.filter(|c| c.row == row) {
            let cells = if cursor.wide { 2 } else { 1 };
            for key in keys.iter_mut().skip(cursor.col).take(cells) {
                *key = damage::ALWAYS_REDRAWN;
            }
        }
        self.drawn
            .and_then(|frames| frames.drawn_cells(row, snapshot.cols))
            .map_or(0, |drawn| damage::unchanged_prefix(drawn, keys))
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
            let entry = self.atlas.get_or_insert(AtlasKey::Sprite(c as u32), || {
                boxdraw::draw(c, w, h, stroke)
            })?;
            if let Some(e) = entry {
                self.image(e, x, top, color, clip);
            }
            return Ok(());
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
        let baseline = top + m.baseline as f32;
        let ascii = match (cells, &cell.zerowidth) {
            (1, None) => self
                .ascii
                .slot(self.atlas.generation(), cell.c, style)
                .map(|slot| *slot),
            _ => None,
        };
        if let Some(Slot::One { entry, offset }) = ascii {
            if let Some(e) = entry {
                let gx = x + (offset[0] + e.left) as f32;
                let gy = baseline + (offset[1] - e.top) as f32;
                self.image(e, gx, gy, color, clip);
            }
            return Ok(());
        }
        // Copied out of the cache, which `rasterize` below borrows again.
        let glyphs: SmallVec<[PlacedGlyph; 4]> = match &cell.zerowidth {
            None => self.fonts.shape_char(cell.c, style, cells).into(),
            Some(marks) => {
                let text: String = std::iter::once(cell.c)
                    .chain(marks.iter().copied())
                    .collect();
                self.fonts.shape(&text, style, cells).into()
            }
        };
        let mut learned = Slot::Other;
        for glyph in &glyphs {
            let fonts = &mut *self.fonts;
            let entry = self.atlas.get_or_insert(AtlasKey::Glyph(glyph.key), || {
                fonts.rasterize(glyph.key).map(|i| Bitmap::from_swash(&i))
            })?;
            if let Some(e) = entry {
                let gx = x + (glyph.x + e.left) as f32;
                let gy = baseline + (glyph.y - e.top) as f32;
                self.image(e, gx, gy, color, clip);
            }
            if glyphs.len() == 1 {
                learned = Slot::One {
                    entry,
                    offset: [glyph.x, glyph.y],
                };
            }
        }
        if ascii == Some(Slot::Unknown)
            && let Some(slot) = self.ascii.slot(self.atlas.generation(), cell.c, style)
        {
            *slot = learned;
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
            let entry = self
                .atlas
                .get_or_insert(AtlasKey::Sprite(CURLY_UNDERLINE), || {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quad_inside_its_row_keeps_its_corners_and_texels() {
        let corners = clipped_corners([10.0, 20.0, 7.0, 15.0], [100.0, 50.0], [20.0, 35.0]);
        assert_eq!(
            corners,
            Some([
                ([10.0, 20.0], [100.0, 50.0]),
                ([17.0, 20.0], [107.0, 50.0]),
                ([10.0, 35.0], [100.0, 65.0]),
                ([17.0, 35.0], [107.0, 65.0]),
            ])
        );
    }

    #[test]
    fn a_quad_spilling_out_of_its_row_is_cut_and_its_texels_follow() {
        // A glyph taller than the row: 3 pixels above it and 2 below are cut off, and the
        // texels left are the ones those pixels showed before the cut.
        let corners = clipped_corners([0.0, 17.0, 8.0, 20.0], [40.0, 0.0], [20.0, 35.0]);
        assert_eq!(
            corners,
            Some([
                ([0.0, 20.0], [40.0, 3.0]),
                ([8.0, 20.0], [48.0, 3.0]),
                ([0.0, 35.0], [40.0, 18.0]),
                ([8.0, 35.0], [48.0, 18.0]),
            ])
        );
    }

    #[test]
    fn a_quad_outside_its_row_or_without_width_is_dropped() {
        assert_eq!(
            clipped_corners([0.0, 0.0, 8.0, 20.0], [0.0; 2], [20.0, 35.0]),
            None
        );
        assert_eq!(
            clipped_corners([0.0, 35.0, 8.0, 2.0], [0.0; 2], [20.0, 35.0]),
            None
        );
        assert_eq!(
            clipped_corners([0.0, 20.0, 0.0, 15.0], [0.0; 2], [20.0, 35.0]),
            None
        );
    }

    #[test]
    fn each_quad_is_two_triangles_of_its_own_corners() {
        assert_eq!(quad_indices(0), [0, 1, 2, 2, 1, 3]);
        assert_eq!(quad_indices(3), [12, 13, 14, 14, 13, 15]);
    }
}

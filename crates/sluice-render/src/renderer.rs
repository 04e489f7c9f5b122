//! The renderer: a persistent frame per pane in which only changed rows are redrawn, on the
//! GPU (wgpu textures) or in memory (the software renderer, for machines without a GPU).

use sluice_term::Snapshot;

use crate::ascii_glyphs::AsciiGlyphs;
use crate::atlas::{Atlas, AtlasPlace, MAX_ATLAS_SIZE};
use crate::composite::{Compositing, PixelOrder, composite_in_memory};
use crate::damage::{self, Overlay, OverlayColors, UNDRAWN};
use crate::decorations::Decorations;
use crate::error::{Error, Result};
use crate::font::{CellMetrics, FontConfig, Fonts};
use crate::frame::{FramePixels, FrameRing, Frames};
use crate::gpu_backend::GpuBackend;
use crate::image::Image;
use crate::rows::{QUAD_VERTICES, RowBuilder, Vertex};
use crate::shared_memory::FrameMemory;
use crate::tiles::GlyphTiles;

/// What one call to [`Renderer::render`] did.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct FrameReport {
    /// Rows drawn.
    pub rows_drawn: usize,
    /// Rows the frame was shifted by (a detected scroll; negative: down).
    pub shifted: i32,
    /// Quads drawn.
    pub quads: usize,
    /// Rows drawn only from their first changed cell on (software renderer).
    pub rows_drawn_in_part: usize,
}

/// Where frames are drawn and shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BackendKind {
    /// wgpu: frames are textures, shown through a GPU surface.
    Gpu,
    /// The CPU: frames are memory, composited there and handed to the window system as
    /// images (softbuffer). No GPU driver is loaded at all.
    Software,
}

/// Draws snapshots into [`PaneView`]s, redrawing only what changed.
///
/// What is shared by every pane of every window lives here: the fonts and their glyph atlas,
/// and the backend (the GPU's device, pipeline and buffers, or nothing but the CPU). What
/// belongs to one pane's picture (its frame, the fingerprints of the rows drawn in it, its
/// decorations, its focus) is in its [`PaneView`], so a second pane or window costs a frame,
/// not a second atlas.
pub struct Renderer {
    fonts: Fonts,
    /// Bumped by every font change: a view whose frames were drawn with another font
    /// starts afresh.
    font_generation: u64,
    atlas: Atlas,
    /// The atlas's places of ASCII glyphs, looked up without hashing.
    ascii_glyphs: AsciiGlyphs,
    /// The quads of the rows being drawn, [`QUAD_VERTICES`] a quad.
    scratch: Vec<Vertex>,
    /// The rows being drawn as cell keys, and whether each reaches left of a cell
    /// ([`RowBuilder::keys`], [`RowBuilder::overhangs`]).
    row_cells: RowCells,
    backend: Backend,
}

/// What [`RowBuilder`] says of the rows it built, besides their quads.
#[derive(Default)]
struct RowCells {
    keys: Vec<u128>,
    overhangs: Vec<bool>,
    /// The pixel each row is drawn from.
    starts: Vec<u32>,
}

impl RowCells {
    fn clear(&mut self) {
        self.keys.clear();
        self.overhangs.clear();
        self.starts.clear();
    }
}

/// Where the rows' quads become pixels.
enum Backend {
    /// Boxed: it is most of the renderer's size, and one exists per process.
    Gpu(Box<GpuBackend>),
    /// Composited on the CPU into frames in memory, in this pixel order, with the glyph tiles
    /// kept from frame to frame.
    Software(PixelOrder, Box<GlyphTiles>),
}

impl Renderer {
    /// A renderer drawing frames of `format` (the surface's format, or `Rgba8Unorm` offscreen),
    /// their rows composited as `compositing` says (the GPU where the CPU cannot write
    /// `format`).
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        format: wgpu::TextureFormat,
        fonts: &FontConfig,
        compositing: Compositing,
    ) -> Result<Self> {
        let gpu = GpuBackend::new(device, queue, format, compositing);
        Self::with_backend(fonts, gpu.atlas_place(), Backend::Gpu(Box::new(gpu)))
    }

    /// A renderer that draws on the CPU alone, into frames in memory, for
    /// [`SoftwareSurface`](crate::SoftwareSurface) to show: no GPU, no driver. Fails on a
    /// machine whose byte order it does not draw in (big-endian).
    pub fn software(fonts: &FontConfig) -> Result<Self> {
        let order = PixelOrder::native_argb().ok_or_else(|| {
            Error::NoAdapter("the software renderer draws only on little-endian machines".into())
        })?;
        Self::with_backend(
            fonts,
            AtlasPlace::Memory,
            Backend::Software(order, Box::default()),
        )
    }

    fn with_backend(fonts: &FontConfig, atlas: AtlasPlace, backend: Backend) -> Result<Self> {
        Ok(Self {
            fonts: Fonts::new(fonts)?,
            font_generation: 0,
            atlas: Atlas::new(atlas),
            ascii_glyphs: AsciiGlyphs::default(),
            scratch: Vec::new(),
            row_cells: RowCells::default(),
            backend,
        })
    }

    /// Where frames are drawn.
    pub fn backend(&self) -> BackendKind {
        match self.backend {
            Backend::Gpu(_) => BackendKind::Gpu,
            Backend::Software(..) => BackendKind::Software,
        }
    }

    /// How rows are composited: on the CPU for the software renderer.
    pub fn compositing(&self) -> Compositing {
        match &self.backend {
            Backend::Gpu(gpu) => gpu.compositing(),
            Backend::Software(..) => Compositing::Cpu,
        }
    }

    /// The cell size in pixels.
    pub fn cell_metrics(&self) -> CellMetrics {
        self.fonts.metrics()
    }

    /// The side of the glyph atlas as it is now, in pixels (it grows as glyphs come).
    pub fn atlas_size(&self) -> u32 {
        self.atlas.size()
    }

    /// Glyph tiles the software renderer used, and looked for in vain (a glyph, colour and
    /// background met for the first time, or since another took its slot), since it began;
    /// masks over more than one colour are not looked for. `None` on the GPU backend (whose CPU
    /// compositing on a software adapter keeps tiles of its own, not counted here).
    pub fn glyph_tiles(&self) -> Option<(u64, u64)> {
        match &self.backend {
            Backend::Software(_, tiles) => Some(tiles.counts()),
            Backend::Gpu(_) => None,
        }
    }

    /// The frame's size in pixels for a grid of `cols × rows`.
    pub fn frame_size(&self, cols: usize, rows: usize) -> (u32, u32) {
        let m = self.fonts.metrics();
        (
            (cols as u32 * m.width).max(1),
            (rows as u32 * m.height).max(1),
        )
    }

    /// Changes the font (size or family). Every view is redrawn whole at its next frame.
    pub fn set_font(&mut self, config: &FontConfig) -> Result<()> {
        self.fonts = Fonts::new(config)?;
        self.atlas.clear();
        self.font_generation += 1;
        Ok(())
    }

    /// A view with nothing drawn yet, for a new pane (or anything else drawn as cells).
    pub fn new_view(&self) -> PaneView {
        PaneView::default()
    }

    fn ensure_frames(&self, view: &mut PaneView, cols: usize, rows: usize) {
        let (width, height) = self.frame_size(cols, rows);
        if view.frames.as_ref().is_some_and(|f| {
            (f.ring.width, f.ring.height, f.font_generation)
                == (width, height, self.font_generation)
        }) {
            return;
        }
        let ring = FrameRing {
            width,
            height,
            rows,
            row_height: self.fonts.metrics().height,
            origin: 0,
        };
        let pixels = match &self.backend {
            Backend::Gpu(gpu) => gpu.new_frame(&ring),
            Backend::Software(..) => {
                FramePixels::Memory(FrameMemory::new((width * height) as usize))
            }
        };
        view.frames = Some(Frames::new(ring, pixels, self.font_generation));
        view.drawn = vec![UNDRAWN; rows];
    }

    /// Draws what changed in `snapshot` since the last call into `view` (the snapshot's
    /// damage is consumed).
    pub fn render(&mut self, view: &mut PaneView, snapshot: &mut Snapshot) -> FrameReport {
        let damage = snapshot.take_damage();
        let (cols, rows) = (snapshot.cols, snapshot.rows);
        if cols == 0 || rows == 0 {
            return FrameReport::default();
        }
        self.ensure_frames(view, cols, rows);

        let overlay = Overlay {
            cursor: snapshot.cursor,
            selection: snapshot.selection,
            focused: view.focused,
            colors: view.colors,
        };
        let cursor_row = overlay.cursor.map(|c| c.row);
        let everything = damage.full
            || std::mem::take(&mut view.decorations_changed)
            || view.drawn.iter().all(|&h| h == UNDRAWN)
            || view.last_overlay.is_none_or(|o| {
                (o.selection, o.focused, o.colors)
                    != (overlay.selection, overlay.focused, overlay.colors)
            });

        let decorations = &view.decorations;
        let (shift, rows, everything_hashed) = if everything {
            // Fingerprint every row and search for a scroll against what is drawn.
            let new: Vec<u64> = (0..rows)
                .map(|r| damage::row_hash(snapshot, &overlay, decorations, r))
                .collect();
            let plan = damage::plan(&view.drawn, &new);
            (plan.shift, plan.rows, Some(new))
        } else {
            // The snapshot knows what scrolled and what changed; the cursor's old and new rows
            // are added because the cursor is drawn, not part of the cells.
            let moved_cursor = view.last_cursor_row.and_then(|r| {
                let r = r as i64 - damage.scroll as i64;
                (0..rows as i64).contains(&r).then_some(r as usize)
            });
            let mut candidates = damage.rows;
            candidates.extend(cursor_row);
            candidates.extend(moved_cursor);
            candidates.sort_unstable();
            candidates.dedup();
            (damage.scroll, candidates, None)
        };
        if shift != 0 {
            view.shift_frame(shift);
        }
        // The rows to draw, each with its fingerprint: computed once, to compare with what is
        // drawn and to record once drawn (twice, it was 5% of a frame of a build's log).
        let hashed: Vec<(usize, u64)> = match everything_hashed {
            Some(hashes) => rows.into_iter().map(|r| (r, hashes[r])).collect(),
            None => rows
                .into_iter()
                .filter(|&r| r < view.drawn.len())
                .map(|r| {
                    (
                        r,
                        damage::row_hash(snapshot, &overlay, &view.decorations, r),
                    )
                })
                .filter(|&(r, hash)| hash != view.drawn[r])
                .collect(),
        };
        let rows: Vec<usize> = hashed.iter().map(|&(r, _)| r).collect();
        view.last_cursor_row = cursor_row;
        view.last_overlay = Some(overlay);

        let (quads, rows_drawn_in_part) = self.draw_rows(view, snapshot, &overlay, &rows);

        for (row, hash) in hashed {
            view.drawn[row] = hash;
        }
        FrameReport {
            rows_drawn: rows.len(),
            shifted: shift,
            quads,
            rows_drawn_in_part,
        }
    }

    /// Builds the quads of `rows` and has the backend turn them into pixels in `view`'s frame;
    /// returns how many quads, and how many rows were drawn only in part.
    fn draw_rows(
        &mut self,
        view: &mut PaneView,
        snapshot: &Snapshot,
        overlay: &Overlay,
        rows: &[usize],
    ) -> (usize, usize) {
        if rows.is_empty() {
            return (0, 0);
        }
        let mut vertices = std::mem::take(&mut self.scratch);
        let mut cells = std::mem::take(&mut self.row_cells);
        // Only where the rows are composited below are they drawn from their first change:
        // the keys say what the frame holds.
        let composited = matches!(self.backend, Backend::Software(..))
            && matches!(
                view.frames.as_ref().map(|f| &f.pixels),
                Some(FramePixels::Memory(_))
            )
            && self.atlas.pixels().is_some();
        let row_ends = self.build_rows(
            view,
            snapshot,
            overlay,
            (rows, composited),
            (&mut vertices, &mut cells),
        );
        let quads = vertices.len() / QUAD_VERTICES;
        let frames = view.frames.as_mut().expect("frames exist");
        let starts = if composited {
            frames.record_cells(rows, (&cells.keys, &cells.overhangs), snapshot.cols);
            // By frame row, as the compositor takes them.
            let mut starts = vec![0; frames.ring.rows];
            for (&row, &start) in rows.iter().zip(&cells.starts) {
                if let Some(at) = starts.get_mut(frames.ring.frame_row(row)) {
                    *at = start;
                }
            }
            starts
        } else {
            frames.forget_cells();
            Vec::new()
        };
        self.row_cells = cells;
        let rows = (rows, &row_ends[..]);
        match &mut self.backend {
            Backend::Gpu(gpu) => {
                gpu.draw(frames, rows, &vertices, &self.atlas, snapshot.background)
            }
            Backend::Software(order, tiles) => {
                if let (FramePixels::Memory(pixels), Some(atlas)) =
                    (&mut frames.pixels, self.atlas.pixels())
                {
                    composite_in_memory(
                        pixels,
                        *order,
                        &frames.ring,
                        rows,
                        &vertices,
                        (atlas, tiles),
                        (snapshot.background, &mut frames.blank_tails),
                        &starts,
                    );
                }
            }
        }
        self.scratch = vertices;
        (quads, starts.iter().filter(|&&x| x > 0).count())
    }

    /// Builds the quads of `rows` into `vertices`, growing or clearing the atlas when its
    /// glyphs do not fit; returns where each row's quads end. `from_first_change`: each row
    /// is drawn from its first changed cell (its start in `cells`), and quads left of it are
    /// not built.
    fn build_rows(
        &mut self,
        view: &PaneView,
        snapshot: &Snapshot,
        overlay: &Overlay,
        (rows, from_first_change): (&[usize], bool),
        (vertices, cells): (&mut Vec<Vertex>, &mut RowCells),
    ) -> Vec<usize> {
        vertices.clear();
        cells.clear();
        let mut row_ends = Vec::with_capacity(rows.len());
        let metrics = self.fonts.metrics();
        let ring = view.frames.as_ref().expect("frames exist").ring;
        // One try, then one after each growth of the atlas, then one after clearing it.
        let attempts = 2 + (MAX_ATLAS_SIZE / self.atlas.size().max(1)).ilog2() as usize;
        // Cell keys only where rows are drawn from their first change (the software backend).
        let keyed = matches!(self.backend, Backend::Software(..));
        for _attempt in 0..attempts {
            let mut builder = RowBuilder {
                fonts: &mut self.fonts,
                atlas: &mut self.atlas,
                ascii: &mut self.ascii_glyphs,
                metrics,
                origin: ring.origin,
                rows: ring.rows,
                out: vertices,
                keys: keyed.then_some(&mut cells.keys),
                overhangs: &mut cells.overhangs,
                drawn: view.frames.as_ref().filter(|_| from_first_change),
                starts: &mut cells.starts,
                skip_to: 0.0,
                cell_left: 0.0,
                overhang: false,
            };
            row_ends.clear();
            if rows.iter().all(|&row| {
                let ok = builder
                    .build(snapshot, overlay, &view.decorations, row)
                    .is_ok();
                row_ends.push(builder.out.len());
                ok
            }) {
                return row_ends;
            }
            // The atlas is full: grow it, or start it afresh. Rows drawn earlier from the old
            // atlas stay correct in every view's frame; only this frame's rows are rebuilt.
            if self.atlas.grow() {
                tracing::debug!(size = self.atlas.size(), "glyph atlas full; grown");
            } else {
                tracing::debug!("glyph atlas full; clearing it");
                self.atlas.clear();
            }
            vertices.clear();
            cells.clear();
        }
        tracing::warn!("glyph atlas too small for one frame; some glyphs are missing");
        row_ends
    }

    /// Reads `view`'s current frame back, top row first.
    pub fn read_frame(&self, view: &PaneView) -> Result<Image> {
        let frames = view
            .frames
            .as_ref()
            .ok_or_else(|| Error::Readback("nothing rendered yet".into()))?;
        let mut image = match (&self.backend, &frames.pixels) {
            (Backend::Gpu(gpu), _) => gpu.read_frame(frames)?,
            (Backend::Software(..), FramePixels::Memory(pixels)) => {
                Image::from_argb(frames.ring.width, frames.ring.height, pixels)
            }
            (Backend::Software(..), FramePixels::Texture { .. }) => {
                return Err(Error::Readback("a texture, not of this renderer".into()));
            }
        };
        // Unwind the ring: the screen's top row is at the origin.
        image
            .rgba
            .rotate_left((frames.ring.origin_px() * image.width * 4) as usize);
        Ok(image)
    }

    /// Waits until everything drawn so far is done (the GPU's work; nothing on the CPU),
    /// so that a frame's wall time measures what it cost.
    pub fn wait_idle(&self) {
        if let Backend::Gpu(gpu) = &self.backend {
            gpu.wait_idle();
        }
    }

    /// The GPU backend, when that is where frames are drawn.
    pub(crate) fn gpu(&self) -> Option<&GpuBackend> {
        match &self.backend {
            Backend::Gpu(gpu) => Some(gpu),
            Backend::Software(..) => None,
        }
    }
}

/// One pane's picture: its frame and what is known to be drawn in it.
///
/// A pane whose rows did not change costs nothing to show beyond copying its frame onto the
/// window; one that is not shown (a background tab) is not drawn at all, and its next frame
/// redraws only what differs from what its frame still holds.
pub struct PaneView {
    frames: Option<Frames>,
    /// Fingerprint of each row as it is in the frame.
    drawn: Vec<u64>,
    last_cursor_row: Option<usize>,
    last_overlay: Option<Overlay>,
    decorations: Decorations,
    decorations_changed: bool,
    /// Whether the pane has the keyboard (an unfocused block cursor is drawn hollow).
    pub focused: bool,
    /// The selection's and the cursor's text colours (`colors.selection_*`,
    /// `colors.cursor_text`).
    pub colors: OverlayColors,
}

impl Default for PaneView {
    fn default() -> Self {
        PaneView {
            frames: None,
            drawn: Vec::new(),
            last_cursor_row: None,
            last_overlay: None,
            decorations: Decorations::default(),
            decorations_changed: false,
            focused: true,
            colors: OverlayColors::default(),
        }
    }
}

/// A view's frame in memory, as [`SoftwareSurface`](crate::SoftwareSurface) copies it
/// onto a window.
pub(crate) struct MemoryFrame<'a> {
    /// [`Frames::id`]: the same id, the same frame.
    pub id: u64,
    pub pixels: &'a [u32],
    /// The memory file holding `pixels`, when they are shared (for the X server to map).
    pub fd: Option<std::os::fd::BorrowedFd<'a>>,
    pub ring: FrameRing,
    /// The fingerprints of its rows, viewport row by viewport row.
    pub drawn: &'a [u64],
}

impl PaneView {
    /// Forgets what is drawn: the next frame redraws every row.
    pub fn invalidate(&mut self) {
        self.drawn.iter_mut().for_each(|h| *h = UNDRAWN);
        if let Some(frames) = &mut self.frames {
            frames.forget_cells();
        }
    }

    /// Sets what is drawn over the cells from the next frame on. Rows are redrawn only if
    /// the decorations differ from the current ones.
    pub fn set_decorations(&mut self, decorations: Decorations) {
        if decorations != self.decorations {
            self.decorations = decorations;
            self.decorations_changed = true;
        }
    }

    /// Moves the frame's contents up by `shift` rows (down if negative) by moving the ring's
    /// origin. Rows that come into view are marked undrawn.
    fn shift_frame(&mut self, shift: i32) {
        let frames = self.frames.as_mut().expect("frames exist");
        let ring = &mut frames.ring;
        ring.origin = (ring.origin as i64 + shift as i64).rem_euclid(ring.rows as i64) as usize;
        sluice_term::scroll::shift_rows(&mut self.drawn, shift, UNDRAWN);
    }

    /// The frame texture and its view, when the frame is one.
    pub(crate) fn frame_texture(&self) -> Option<(&wgpu::Texture, &wgpu::TextureView)> {
        match &self.frames.as_ref()?.pixels {
            FramePixels::Texture { texture, view, .. } => Some((texture, view)),
            FramePixels::Memory(_) => None,
        }
    }

    /// The frame in memory, when it is there.
    pub(crate) fn frame_memory(&self) -> Option<MemoryFrame<'_>> {
        let frames = self.frames.as_ref()?;
        match &frames.pixels {
            FramePixels::Memory(pixels) => Some(MemoryFrame {
                id: frames.id,
                pixels,
                fd: pixels.fd(),
                ring: frames.ring,
                drawn: &self.drawn,
            }),
            FramePixels::Texture { .. } => None,
        }
    }

    /// The pixel line of the frame where the top of the screen is.
    pub fn frame_origin_px(&self) -> u32 {
        self.frames.as_ref().map_or(0, |f| f.ring.origin_px())
    }

    /// The frame's size in pixels, once something was rendered.
    pub fn frame_dimensions(&self) -> Option<(u32, u32)> {
        self.frames.as_ref().map(|f| (f.ring.width, f.ring.height))
    }
}

/// Builds a buffer from plain data (used by surfaces for their uniforms).
pub(crate) fn uniform_buffer(device: &wgpu::Device, label: &str, data: &[u8]) -> wgpu::Buffer {
    use wgpu::util::DeviceExt;
    device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some(label),
        contents: data,
        usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
    })
}

//! The renderer: a persistent frame texture in which only changed rows are redrawn.

use sluice_term::Snapshot;
use wgpu::util::DeviceExt;

use crate::atlas::{Atlas, MAX_ATLAS_SIZE};
use crate::composite::{Compositing, CpuRows, PixelOrder};
use crate::damage::{self, Overlay, OverlayColors, UNDRAWN};
use crate::decorations::Decorations;
use crate::error::Result;
use crate::font::{CellMetrics, FontConfig, Fonts};
use crate::gpu_rows::GpuRows;
use crate::image::Image;
use crate::pipeline::uniform_and_texture_layout;
use crate::rows::{QUAD_VERTICES, RowBuilder, Vertex};

/// What one call to [`Renderer::render`] did.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct FrameReport {
    /// Rows drawn.
    pub rows_drawn: usize,
    /// Rows the texture was shifted by (a detected scroll; negative: down).
    pub shifted: i32,
    /// Quads drawn.
    pub quads: usize,
}

#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Globals {
    target_size: [f32; 2],
    atlas_size: [f32; 2],
}

/// Draws snapshots into [`PaneView`]s, redrawing only what changed.
///
/// What is shared by every pane of every window lives here: the fonts and their glyph atlas,
/// and the painter (the GPU's pipeline, buffers and blank row, or the CPU compositor's
/// staging buffers). What belongs to one pane's picture (its frame texture, the fingerprints
/// of the rows drawn in it, its decorations, its focus) is in its [`PaneView`], so a second
/// pane or window costs a texture, not a second atlas.
pub struct Renderer {
    device: wgpu::Device,
    queue: wgpu::Queue,
    format: wgpu::TextureFormat,
    fonts: Fonts,
    /// Bumped by every font change: a view whose frames were drawn with another font
    /// starts afresh.
    font_generation: u64,
    atlas: Atlas,
    bind_group_layout: wgpu::BindGroupLayout,
    /// The quads of the rows being drawn, [`QUAD_VERTICES`] a quad.
    scratch: Vec<Vertex>,
    /// What turns the quads into pixels in the frame texture.
    painter: Painter,
}

/// How the quads become pixels: drawn by the GPU, or composited on the CPU (composite.rs).
enum Painter {
    Gpu(GpuRows),
    Cpu(CpuRows),
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
        let fonts = Fonts::new(fonts)?;
        let bind_group_layout = uniform_and_texture_layout(
            device,
            "cell bind group layout",
            wgpu::ShaderStages::VERTEX,
        );
        // The GPU's pipeline and buffers exist only where they draw.
        let painter = match (compositing, PixelOrder::of(format)) {
            (Compositing::Cpu, Some(order)) => Painter::Cpu(CpuRows::new(
                order,
                device.adapter_info().device_type == wgpu::DeviceType::Cpu,
            )),
            _ => Painter::Gpu(GpuRows::new(device, &bind_group_layout, format)),
        };
        let atlas = Atlas::new(device, matches!(painter, Painter::Cpu(_)));
        Ok(Self {
            device: device.clone(),
            queue: queue.clone(),
            format,
            fonts,
            font_generation: 0,
            atlas,
            bind_group_layout,
            scratch: Vec::new(),
            painter,
        })
    }

    /// How rows are composited.
    pub fn compositing(&self) -> Compositing {
        match self.painter {
            Painter::Gpu(_) => Compositing::Gpu,
            Painter::Cpu(_) => Compositing::Cpu,
        }
    }

    /// The cell size in pixels.
    pub fn cell_metrics(&self) -> CellMetrics {
        self.fonts.metrics()
    }

    /// The side of the glyph atlas texture as it is now, in pixels (it grows as glyphs come).
    pub fn atlas_size(&self) -> u32 {
        self.atlas.size()
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
        PaneView {
            frames: None,
            globals: self.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("cell globals"),
                size: std::mem::size_of::<Globals>() as u64,
                usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            }),
            bind_group: None,
            atlas_generation: 0,
            drawn: Vec::new(),
            last_cursor_row: None,
            last_overlay: None,
            decorations: Decorations::default(),
            decorations_changed: false,
            focused: true,
            colors: OverlayColors::default(),
        }
    }

    fn ensure_frames(&self, view: &mut PaneView, cols: usize, rows: usize) {
        let (width, height) = self.frame_size(cols, rows);
        let row_height = self.fonts.metrics().height;
        if view.frames.as_ref().is_some_and(|f| {
            (f.width, f.height, f.font_generation) == (width, height, self.font_generation)
        }) {
            return;
        }
        let texture = self.device.create_texture(&wgpu::TextureDescriptor {
            label: Some("frame"),
            size: wgpu::Extent3d {
                width,
                height,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: self.format,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT
                | wgpu::TextureUsages::TEXTURE_BINDING
                | wgpu::TextureUsages::COPY_SRC
                | wgpu::TextureUsages::COPY_DST,
            view_formats: &[],
        });
        let texture_view = texture.create_view(&wgpu::TextureViewDescriptor::default());
        view.frames = Some(Frames {
            texture,
            view: texture_view,
            width,
            height,
            rows,
            row_height,
            origin: 0,
            font_generation: self.font_generation,
        });
        view.drawn = vec![UNDRAWN; rows];
        self.bind(view);
    }

    /// Points the view's bind group at the atlas as it is now, with the sizes the shader
    /// needs; done when its frames are made and whenever the atlas has grown since.
    fn bind(&self, view: &mut PaneView) {
        let Some(frames) = &view.frames else {
            return;
        };
        let globals = Globals {
            target_size: [frames.width as f32, frames.height as f32],
            atlas_size: [self.atlas.size() as f32; 2],
        };
        self.queue
            .write_buffer(&view.globals, 0, bytemuck::bytes_of(&globals));
        view.bind_group = Some(self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("cell bind group"),
            layout: &self.bind_group_layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: view.globals.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: wgpu::BindingResource::TextureView(&self.atlas.view),
                },
            ],
        }));
        view.atlas_generation = self.atlas.generation();
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

        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("frame"),
            });
        let decorations = &view.decorations;
        let (shift, rows, new_hashes) = if everything {
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
            view.shift_frame(shift, rows_in(view));
        }
        let rows: Vec<usize> = match new_hashes {
            Some(_) => rows,
            None => rows
                .into_iter()
                .filter(|&r| {
                    r < view.drawn.len()
                        && damage::row_hash(snapshot, &overlay, &view.decorations, r)
                            != view.drawn[r]
                })
                .collect(),
        };
        view.last_cursor_row = cursor_row;
        view.last_overlay = Some(overlay);

        let quads = self.draw_rows(&mut encoder, view, snapshot, &overlay, &rows);
        self.queue.submit([encoder.finish()]);
        if let Painter::Cpu(cpu) = &mut self.painter {
            cpu.submitted();
        }

        for &row in &rows {
            view.drawn[row] = match &new_hashes {
                Some(hashes) => hashes[row],
                None => damage::row_hash(snapshot, &overlay, &view.decorations, row),
            };
        }
        FrameReport {
            rows_drawn: rows.len(),
            shifted: shift,
            quads,
        }
    }

    fn draw_rows(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        view: &mut PaneView,
        snapshot: &Snapshot,
        overlay: &Overlay,
        rows: &[usize],
    ) -> usize {
        if rows.is_empty() {
            return 0;
        }
        let mut vertices = std::mem::take(&mut self.scratch);
        vertices.clear();
        // Where each row's quads end in `vertices`.
        let mut row_ends = Vec::with_capacity(rows.len());
        let mut built = false;
        let metrics = self.fonts.metrics();
        let frames = view.frames.as_ref().expect("frames exist");
        let (origin, frame_rows) = (frames.origin, frames.rows);
        // One try, then one after each growth of the atlas, then one after clearing it.
        let attempts = 2 + (MAX_ATLAS_SIZE / self.atlas.size().max(1)).ilog2() as usize;
        for _attempt in 0..attempts {
            let mut builder = RowBuilder {
                fonts: &mut self.fonts,
                atlas: &mut self.atlas,
                queue: &self.queue,
                metrics,
                origin,
                rows: frame_rows,
                out: &mut vertices,
            };
            row_ends.clear();
            if rows.iter().all(|&row| {
                let ok = builder
                    .build(snapshot, overlay, &view.decorations, row)
                    .is_ok();
                row_ends.push(builder.out.len());
                ok
            }) {
                built = true;
                break;
            }
            // The atlas is full: grow it, or start it afresh. Rows drawn earlier from the old
            // atlas stay correct in every view's frame texture; only this frame's rows are
            // rebuilt.
            if self.atlas.grow(&self.device) {
                tracing::debug!(size = self.atlas.size(), "glyph atlas full; grown");
            } else {
                tracing::debug!("glyph atlas full; clearing it");
                self.atlas.clear();
            }
            vertices.clear();
        }
        if view.atlas_generation != self.atlas.generation() {
            self.bind(view);
        }
        let frames = view.frames.as_ref().expect("frames exist");
        if !built {
            tracing::warn!("glyph atlas too small for one frame; some glyphs are missing");
        }
        let quads = vertices.len() / QUAD_VERTICES;
        match &mut self.painter {
            Painter::Gpu(gpu) => {
                let bind_group = view.bind_group.as_ref().expect("frames exist");
                let target = (frames, bind_group);
                gpu.draw(
                    &self.device,
                    &self.queue,
                    encoder,
                    target,
                    rows,
                    &vertices,
                    snapshot.background,
                );
            }
            Painter::Cpu(cpu) => {
                if let Some(atlas) = self.atlas.pixels() {
                    cpu.composite(
                        &self.device,
                        encoder,
                        frames,
                        (rows, &row_ends),
                        &vertices,
                        atlas,
                        snapshot.background,
                    );
                }
            }
        }
        self.scratch = vertices;
        quads
    }

    /// Reads `view`'s current frame back from the GPU, top row first.
    pub fn read_frame(&self, view: &PaneView) -> Result<Image> {
        let frames = view
            .frames
            .as_ref()
            .ok_or_else(|| crate::Error::Readback("nothing rendered yet".into()))?;
        let mut image =
            crate::image::read_texture(&self.device, &self.queue, &frames.texture, self.format)?;
        // Unwind the ring: the screen's top row is at the origin.
        image
            .rgba
            .rotate_left((view.frame_origin_px() * image.width * 4) as usize);
        Ok(image)
    }

    pub(crate) fn device(&self) -> &wgpu::Device {
        &self.device
    }

    pub(crate) fn queue(&self) -> &wgpu::Queue {
        &self.queue
    }

    pub fn format(&self) -> wgpu::TextureFormat {
        self.format
    }
}

fn rows_in(view: &PaneView) -> usize {
    view.frames.as_ref().map_or(0, |f| f.rows)
}

/// The frame texture, used as a ring of rows: viewport row `r` lives at texture row
/// `(origin + r) % rows`. A scroll moves `origin` instead of moving pixels, so it costs no
/// GPU work at all; presenting (and readback) start at `origin` and wrap.
/// (A texture-to-texture copy was the first way: ~5 MB moved per scrolled frame at 160×50,
/// most of a scroll's process time on lavapipe.)
pub(crate) struct Frames {
    pub texture: wgpu::Texture,
    pub view: wgpu::TextureView,
    pub width: u32,
    pub height: u32,
    pub rows: usize,
    pub row_height: u32,
    pub origin: usize,
    /// The renderer's font when these frames were made.
    font_generation: u64,
}

/// One pane's picture: its frame texture and what is known to be drawn in it.
///
/// A pane whose rows did not change costs nothing to show beyond copying its frame onto the
/// window; one that is not shown (a background tab) is not drawn at all, and its next frame
/// redraws only what differs from what its texture still holds.
pub struct PaneView {
    frames: Option<Frames>,
    globals: wgpu::Buffer,
    bind_group: Option<wgpu::BindGroup>,
    /// The atlas texture `bind_group` points at ([`Atlas::generation`]).
    atlas_generation: u64,
    /// Fingerprint of each row as it is in the frame texture.
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

impl PaneView {
    /// Forgets what is drawn: the next frame redraws every row.
    pub fn invalidate(&mut self) {
        self.drawn.iter_mut().for_each(|h| *h = UNDRAWN);
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
    fn shift_frame(&mut self, shift: i32, rows: usize) {
        let frames = self.frames.as_mut().expect("frames exist");
        frames.origin = (frames.origin as i64 + shift as i64).rem_euclid(rows as i64) as usize;
        sluice_term::scroll::shift_rows(&mut self.drawn, shift, UNDRAWN);
    }

    /// The frame texture's view (to present it).
    pub fn frame_view(&self) -> Option<&wgpu::TextureView> {
        self.frames.as_ref().map(|f| &f.view)
    }

    /// The frame texture itself (to copy it to the window).
    pub(crate) fn frame_texture(&self) -> Option<&wgpu::Texture> {
        self.frames.as_ref().map(|f| &f.texture)
    }

    /// The texture row (in pixels) where the top of the screen is.
    pub fn frame_origin_px(&self) -> u32 {
        self.frames
            .as_ref()
            .map_or(0, |f| f.origin as u32 * f.row_height)
    }

    /// The frame's size in pixels, once something was rendered.
    pub fn frame_dimensions(&self) -> Option<(u32, u32)> {
        self.frames.as_ref().map(|f| (f.width, f.height))
    }
}

/// Builds a buffer from plain data (used by surfaces for their uniforms).
pub(crate) fn uniform_buffer(device: &wgpu::Device, label: &str, data: &[u8]) -> wgpu::Buffer {
    device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some(label),
        contents: data,
        usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
    })
}

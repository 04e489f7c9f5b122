//! Compositing rows on the CPU, for software adapters.
//!
//! On lavapipe a quad costs its setup and binning on lavapipe's queue thread and its pixels
//! on the `llvmpipe-N` threads: `frame-cpu` full redraws took 6.7 ms of process CPU at
//! 160×50 (2,751 quads), 1.1 ms of it on the drawing thread, about 2 µs a quad for quads of
//! a glyph's size (docs/performance.md, "Compositing on the CPU"). The same quads blended
//! here, pixel by pixel from a copy of the atlas kept in memory, and copied into the frame
//! texture run of rows by run, cost about half (3.6 ms): there is no GPU to hand the work
//! to, so Sluice does it without the detour. On a real GPU the quads are drawn as before.
//!
//! The quads are exactly those the cell pipeline draws ([`crate::rows`]), in the same order,
//! with the same arithmetic as `shaders/cell.wgsl` and premultiplied-alpha blending: opaque
//! rectangles, atlas coverage tinted with a colour, and premultiplied colour images. A pixel is
//! covered when its centre is inside the quad, as a rasteriser decides, and samples the texel
//! under its centre.
//!
//! Both ways of compositing here (into GPU textures, and the software renderer's frames in
//! memory) keep [`GlyphTiles`]: a mask quad over pixels of one colour is copied from the tile
//! the same glyph, colour and background gave before, which holds exactly the pixels blending
//! would give ([`crate::tiles`]).

use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::frame::FrameRing;
use crate::rows::{QUAD_VERTICES, Vertex};
use crate::tiles::{GlyphTiles, TileKey};
use sluice_term::Rgb;

/// How rows are drawn into a pane's frame texture.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compositing {
    /// Quads drawn by the GPU's cell pipeline.
    Gpu,
    /// Quads blended on the CPU, rows written into the frame texture.
    Cpu,
}

/// The environment variable that overrides the choice: `gpu` or `cpu`.
pub const COMPOSITING_ENV: &str = "SLUICE_COMPOSITING";

impl Compositing {
    /// The CPU for software adapters (lavapipe, llvmpipe, WARP), the GPU for the others;
    /// [`COMPOSITING_ENV`] overrides. Only 8-bit linear formats are composited on the CPU (an
    /// sRGB target would need the GPU's conversion), whatever is asked.
    pub fn for_adapter(info: &wgpu::AdapterInfo, format: wgpu::TextureFormat) -> Compositing {
        let asked = std::env::var(COMPOSITING_ENV).ok();
        let chosen = match asked.as_deref() {
            Some("cpu") => Compositing::Cpu,
            Some("gpu") => Compositing::Gpu,
            other => {
                if let Some(value) = other {
                    tracing::warn!(
                        value,
                        "{COMPOSITING_ENV} is neither `gpu` nor `cpu`; chosen by the adapter"
                    );
                }
                if info.device_type == wgpu::DeviceType::Cpu {
                    Compositing::Cpu
                } else {
                    Compositing::Gpu
                }
            }
        };
        if chosen == Compositing::Cpu && PixelOrder::of(format).is_none() {
            return Compositing::Gpu;
        }
        chosen
    }
}

/// The byte order of a frame format the CPU can write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PixelOrder {
    Rgba,
    Bgra,
}

impl PixelOrder {
    pub(crate) fn of(format: wgpu::TextureFormat) -> Option<PixelOrder> {
        match format {
            wgpu::TextureFormat::Rgba8Unorm => Some(PixelOrder::Rgba),
            wgpu::TextureFormat::Bgra8Unorm => Some(PixelOrder::Bgra),
            _ => None,
        }
    }

    /// The order whose pixels, read as native `u32`s, are `0xAARRGGBB`: the format window
    /// systems take from memory (softbuffer's, X11's 24- and 32-bit visuals, Wayland's
    /// XRGB8888), which the software renderer composites in. `None` on a big-endian machine,
    /// where it would put alpha first, which the blending here does not do: the software
    /// renderer is not offered there.
    pub(crate) fn native_argb() -> Option<PixelOrder> {
        cfg!(target_endian = "little").then_some(PixelOrder::Bgra)
    }

    /// An opaque `color` as one pixel in this order.
    fn pixel(self, color: Rgb) -> u32 {
        u32::from_ne_bytes(self.arrange([color.r, color.g, color.b, 255]))
    }

    /// `rgba` in this order.
    fn arrange(self, [r, g, b, a]: [u8; 4]) -> [u8; 4] {
        match self {
            PixelOrder::Rgba => [r, g, b, a],
            PixelOrder::Bgra => [b, g, r, a],
        }
    }
}

/// The atlas's pixels as the CPU sees them: RGBA8, `size` pixels square.
#[derive(Clone, Copy)]
pub(crate) struct AtlasPixels<'a> {
    pub data: &'a [u8],
    pub size: u32,
    /// [`crate::atlas::Atlas::generation`]: what a place in `data` holds stays the same
    /// while it does.
    pub generation: u64,
}

/// Rows of pixels being composited, in memory the caller lends (a stretch of
/// [`CpuRows`]'s mapped staging buffer, which is copied into the frame texture).
struct Canvas<'a> {
    /// Four bytes a pixel in the frame's order, as one `u32` each (native byte order),
    /// `stride` of them from one line of pixels to the next.
    pixels: &'a mut [u32],
    stride: usize,
    width: u32,
    top: u32,
    height: u32,
    /// Masks already blended over a plain background, when the caller keeps them.
    tiles: Option<&'a mut GlyphTiles>,
    /// The right end (exclusive) of the pixels the quads drawn so far wrote, in every line:
    /// past it a row keeps what blanking left there.
    drawn_to: usize,
    /// The pixel every line of the row being drawn was left as by blanking, where the row
    /// was blanked whole ([`draw_run`](Self::draw_run)): a mask starting at or past
    /// `drawn_to` lies over it, and is not scanned to find that out.
    blanked: Option<u32>,
    /// The first pixel of each line drawn in the row being drawn: left of it the row already
    /// shows what it would (its cells there are the ones drawn before), and quads are cut there.
    from: usize,
}

/// What is known of a frame row's pixels past what was drawn in it: from pixel `from` to
/// the end of each of its lines, every pixel is `pixel`, the background it was blanked with.
///
/// A frame kept between frames (the software renderer's) remembers this for each of its rows,
/// so that a row drawn again is blanked only as far as anything was drawn in it before: a
/// log line of 80 characters in a 200-column window, or a shell's short lines, need a fraction
/// of a line blanked, where blanking every line whole was the largest part of a full redraw
/// (docs/performance.md, "Rows blanked only as far as they were drawn").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct BlankTail {
    pub from: u32,
    pub pixel: u32,
}

impl<'a> Canvas<'a> {
    /// The `width × height` pixels of the frame from `top` down, in `pixels` (`stride` a
    /// line), all `background` (the unit tests' canvas; frames are blanked a row at a time).
    #[cfg(test)]
    fn blank(
        pixels: &'a mut [u32],
        stride: usize,
        order: PixelOrder,
        rows: (u32, u32, u32),
        background: Rgb,
    ) -> Self {
        let mut canvas = Canvas::unfilled(pixels, stride, rows);
        canvas.fill_lines(
            0..canvas.height,
            0..canvas.width as usize,
            order.pixel(background),
        );
        canvas
    }

    /// The same pixels as they are, for [`draw_run`](Self::draw_run) to blank a row at a time.
    fn unfilled(
        pixels: &'a mut [u32],
        stride: usize,
        (width, top, height): (u32, u32, u32),
    ) -> Self {
        Canvas {
            pixels,
            stride,
            width,
            top,
            height,
            tiles: None,
            drawn_to: 0,
            blanked: None,
            from: 0,
        }
    }

    /// Sets pixels `xs` of the canvas's lines `lines` (counted from its top) to `pixel`.
    fn fill_lines(&mut self, lines: Range<u32>, xs: Range<usize>, pixel: u32) {
        let to = xs.end.min(self.width as usize);
        let from = xs.start.min(to);
        for line in self
            .pixels
            .chunks_mut(self.stride)
            .skip(lines.start as usize)
            .take(lines.len())
        {
            line[from..to].fill(pixel);
        }
    }

    /// The canvas, using and keeping glyph tiles in `tiles` (made from the atlas drawn from).
    fn with_tiles(self, tiles: &'a mut GlyphTiles) -> Self {
        Canvas {
            tiles: Some(tiles),
            ..self
        }
    }

    /// Blends `vertices` ([`QUAD_VERTICES`] a quad, in drawing order) over the rows.
    fn draw(&mut self, order: PixelOrder, vertices: &[Vertex], atlas: AtlasPixels) {
        for quad in vertices.chunks_exact(QUAD_VERTICES) {
            self.quad(order, &quad[0], &quad[QUAD_VERTICES - 1], atlas);
        }
    }

    /// Blanks each of a run of rows (frame row, its quads in `vertices`; `row_height` pixel
    /// lines a row, the canvas's first line the first row's) with `background` and blends
    /// its quads over it, consuming the canvas: the rows are done.
    ///
    /// A row at a time, not the whole run blanked first: a row's lines (1600 × 16 pixels at
    /// 200×60, 100 KiB) are still in the CPU's cache when its glyphs are drawn over them,
    /// where a full redraw's run (6 MB at 200×60) blanked first had left its first rows'
    /// lines in memory by then. The pixels are the same: every quad is cut to its own row
    /// (rows.rs, `clipped_corners`), so no row's quads reach a row blanked after them.
    ///
    /// With `tails` (one for each frame row, of a frame kept between frames), a row whose
    /// tail is known in this background is blanked only up to it, and its tail afterwards is
    /// where its quads end: the rest of each line is what it was, that background. With
    /// `starts` (one for each frame row, of the same frame), a row is blanked and drawn only
    /// from its start on (where `RowBuilder` found its first changed cell, against
    /// [`crate::frame::Frames::drawn_cells`]).
    fn draw_run(
        mut self,
        order: PixelOrder,
        (run, row_height): (&[(usize, Range<usize>)], u32),
        vertices: &[Vertex],
        (atlas, background): (AtlasPixels, Rgb),
        (mut tails, starts): (Option<&mut [Option<BlankTail>]>, &[u32]),
    ) {
        let pixel = order.pixel(background);
        let width = self.width as usize;
        for (lines, (row, quads)) in (0..self.height).step_by(row_height as usize).zip(run) {
            let tail = tails.as_deref_mut().and_then(|tails| tails.get_mut(*row));
            let blank_to = match tail.as_deref() {
                Some(Some(known)) if known.pixel == pixel => known.from as usize,
                _ => width,
            };
            let from = starts.get(*row).map_or(0, |&x| x as usize).min(width);
            self.fill_lines(
                lines..(lines + row_height).min(self.height),
                from..blank_to,
                pixel,
            );
            self.from = from;
            self.drawn_to = from;
            self.blanked = Some(pixel);
            self.draw(order, &vertices[quads.clone()], atlas);
            self.blanked = None;
            self.from = 0;
            if let Some(tail) = tail {
                *tail = Some(BlankTail {
                    from: self.drawn_to as u32,
                    pixel,
                });
            }
        }
    }

    /// One quad, from its top-left and bottom-right corners.
    fn quad(&mut self, order: PixelOrder, first: &Vertex, last: &Vertex, atlas: AtlasPixels) {
        // The pixels whose centres are inside, cut to the rows.
        let mut xs = covered(
            first.pixel[0],
            last.pixel[0],
            (self.from as i64, i64::from(self.width)),
        );
        let mut ys = covered(
            first.pixel[1],
            last.pixel[1],
            (i64::from(self.top), i64::from(self.top + self.height)),
        );
        let color = order.arrange(unit_to_bytes(first.color));
        let kind = first.kind;
        // Pixel x samples texel x + du (the shader's floor(texel) at the pixel's centre; the
        // corners' texels step one per pixel), and only texels inside the atlas count: those
        // outside are transparent.
        let (du, dv) = (
            texel_offset(first.pixel[0], first.texel[0]),
            texel_offset(first.pixel[1], first.texel[1]),
        );
        if kind != KIND_SOLID {
            let size = i64::from(atlas.size);
            xs = xs.start.max(-du)..xs.end.min(size - du);
            ys = ys.start.max(-dv)..ys.end.min(size - dv);
        }
        if xs.start >= xs.end || ys.start >= ys.end {
            return;
        }
        if kind == KIND_MASK {
            xs.end = mask_span_end(xs.clone(), first.texel[0], last.texel[0], du)
                .min(i64::from(self.width))
                .min(i64::from(atlas.size) - du);
        }
        let (x0, x1) = (xs.start as usize, xs.end as usize);
        // Nothing drawn in this row so far reaches the quad: under it is what blanking left.
        let under = self.blanked.filter(|_| x0 >= self.drawn_to);
        self.drawn_to = self.drawn_to.max(x1);
        if kind == KIND_MASK && self.tiles.is_some() {
            let texel = (ys.start + dv) * i64::from(atlas.size) + (xs.start + du);
            let color = u32::from_ne_bytes(color);
            self.mask_through_tiles(x0..x1, ys, texel, color, atlas, under);
            return;
        }
        for y in ys {
            let line = (y - i64::from(self.top)) as usize * self.stride;
            let dst = &mut self.pixels[line + x0..line + x1];
            if kind == KIND_SOLID {
                blend_solid(dst, color);
                continue;
            }
            let texel_line = ((y + dv) * i64::from(atlas.size) + (xs.start + du)) as usize * 4;
            let src = &atlas.data[texel_line..texel_line + dst.len() * 4];
            if kind == KIND_MASK {
                blend_mask(dst, src, color);
            } else {
                blend_image(dst, src, order);
            }
        }
    }
}

impl Canvas<'_> {
    /// The pixels `xs` of frame line `y`.
    fn line(&mut self, y: i64, xs: &Range<usize>) -> &mut [u32] {
        let at = (y - i64::from(self.top)) as usize * self.stride;
        &mut self.pixels[at + xs.start..at + xs.end]
    }

    /// The one pixel value under `xs × ys`, if they are all the same.
    fn uniform(&mut self, xs: &Range<usize>, ys: Range<i64>) -> Option<u32> {
        let first = self.line(ys.start, xs)[0];
        // A fold rather than `all`: no early exit, so the comparison is vectorised.
        ys.map(|y| self.line(y, xs).iter().fold(0, |acc, &p| acc | (p ^ first)))
            .all(|differs| differs == 0)
            .then_some(first)
    }

    /// A mask quad covering `xs × ys`, its first texel at `texel`, tinted `color`: copied from
    /// a tile when it lies over a plain background the tiles have met it on before, else
    /// blended, and kept as a tile when the background is plain. `under`: the pixel known to
    /// be under all of it, if it is known; else the pixels are looked at.
    ///
    /// Knowing it saves reading the pixels back: that scan was 6% of the UI thread in a
    /// Metro-like build at 200×60, where every frame redraws the whole screen
    /// (docs/performance.md, "Frames of a build's log").
    fn mask_through_tiles(
        &mut self,
        xs: Range<usize>,
        ys: Range<i64>,
        texel: i64,
        color: u32,
        atlas: AtlasPixels,
        under: Option<u32>,
    ) {
        let (width, height) = (xs.len(), ys.clone().count());
        let key = GlyphTiles::keeps(width, height)
            .then(|| under.or_else(|| self.uniform(&xs, ys.clone())))
            .flatten()
            .map(|under| TileKey {
                texel: texel as u32,
                width: width as u16,
                height: height as u16,
                color,
                under,
            });
        let tiles = self.tiles.take().expect("called with tiles");
        if let Some(tile) = key.as_ref().and_then(|key| tiles.get(key)) {
            for (y, pixels) in ys.zip(tile.chunks_exact(width)) {
                self.line(y, &xs).copy_from_slice(pixels);
            }
            self.tiles = Some(tiles);
            return;
        }
        let size = atlas.size as usize;
        for (n, y) in ys.clone().enumerate() {
            let from = (texel as usize + n * size) * 4;
            let src = &atlas.data[from..from + width * 4];
            blend_mask(self.line(y, &xs), src, color.to_ne_bytes());
        }
        if let Some(key) = key {
            let (stride, top) = (self.stride, i64::from(self.top));
            let pixels = &self.pixels;
            tiles.insert(
                key,
                ys.map(|y| {
                    let at = (y - top) as usize * stride;
                    &pixels[at + xs.start..at + xs.end]
                }),
            );
        }
        self.tiles = Some(tiles);
    }
}

/// Compositing rows on the CPU: where they are composited, and the buffers they are copied
/// into the frame texture from.
pub(crate) struct CpuRows {
    order: PixelOrder,
    staging: StagingPool,
    /// The buffer this frame's rows are copied from, until the frame is submitted.
    in_flight: Option<Staging>,
    /// Where rows are blended on a GPU (only under `SLUICE_COMPOSITING=cpu`, for measuring),
    /// laid out as in the staging buffer and copied into it: there mapped memory can be
    /// write-combined, slow to read back, and blending reads what is there. Empty on a
    /// software adapter, whose mapped memory is ordinary host memory: rows are blended
    /// straight into the mapped buffer, which saves a frame's size of memory (1.6 MB at
    /// 100×30) and a pass over it each frame (docs/performance.md, "Memory").
    scratch: Option<Vec<u32>>,
    /// Masks already blended over a plain background ([`crate::tiles`]).
    tiles: GlyphTiles,
}

impl CpuRows {
    /// Rows in `order`; `host_memory`: the adapter's mapped memory is host memory (a
    /// software adapter), so rows are blended where they are mapped.
    pub(crate) fn new(order: PixelOrder, host_memory: bool) -> Self {
        Self {
            order,
            staging: StagingPool::default(),
            in_flight: None,
            scratch: (!host_memory).then(Vec::new),
            tiles: GlyphTiles::default(),
        }
    }

    /// Composites `rows` (viewport rows of `ring`), their quads in `vertices` up to
    /// `row_ends` (one end a row), over `background`, copies them into a staging buffer and
    /// records copying that into `texture`: one copy for each run of rows next to each other
    /// in the frame (a full redraw is one or two).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn composite(
        &mut self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        (ring, texture): (&FrameRing, &wgpu::Texture),
        (rows, row_ends): (&[usize], &[usize]),
        vertices: &[Vertex],
        atlas: AtlasPixels,
        background: Rgb,
    ) {
        self.tiles.for_atlas(atlas.generation);
        let placed = ring.in_frame_order(rows, row_ends);
        // A copy out of a buffer wants its lines 256 bytes apart.
        let bytes_per_line = (ring.width * 4).next_multiple_of(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT);
        let stride = (bytes_per_line / 4) as usize;
        let lines = (placed.len() as u32 * ring.row_height).min(ring.height);
        let size = u64::from(bytes_per_line) * u64::from(lines);
        if size == 0 {
            return;
        }
        let staging = self.staging.take(device, size);
        let mut mapped = match staging.buffer.slice(..size).get_mapped_range_mut() {
            Ok(mapped) => mapped,
            Err(err) => {
                tracing::warn!(%err, "cannot write the composited rows");
                return;
            }
        };
        let mut target = mapped.slice(..);
        let pixels: &mut [u32] = match &mut self.scratch {
            Some(scratch) => {
                scratch.resize((size / 4) as usize, 0);
                scratch
            }
            None => {
                let bytes = target.as_raw_ptr();
                // SAFETY: `bytes` is the mapped range of `size` bytes, host memory on a
                // software adapter (`scratch` is `None` only there), readable and writable
                // and used by nothing else until `mapped` is dropped below. A mapped range
                // is aligned to `wgpu::MAP_ALIGNMENT` (8 bytes) and `size` is whole lines of
                // 4-byte pixels, so the cast cannot fail.
                let bytes = unsafe {
                    std::slice::from_raw_parts_mut(bytes.as_ptr().cast::<u8>(), bytes.len())
                };
                bytemuck::cast_slice_mut(bytes)
            }
        };
        let mut offset = 0;
        for run in placed.chunk_by(|a, b| a.0 + 1 == b.0) {
            let (top, height) = ring.lines(run[0].0, run.len());
            let len = height as usize * stride;
            let canvas = Canvas::unfilled(
                &mut pixels[offset..offset + len],
                stride,
                (ring.width, top, height),
            )
            .with_tiles(&mut self.tiles);
            // The staging buffer is not the frame: nothing is known of what it holds.
            canvas.draw_run(
                self.order,
                (run, ring.row_height),
                vertices,
                (atlas, background),
                (None, &[]),
            );
            encoder.copy_buffer_to_texture(
                wgpu::TexelCopyBufferInfo {
                    buffer: &staging.buffer,
                    layout: wgpu::TexelCopyBufferLayout {
                        offset: (offset * 4) as u64,
                        bytes_per_row: Some(bytes_per_line),
                        rows_per_image: None,
                    },
                },
                wgpu::TexelCopyTextureInfo {
                    texture,
                    mip_level: 0,
                    origin: wgpu::Origin3d { x: 0, y: top, z: 0 },
                    aspect: wgpu::TextureAspect::All,
                },
                wgpu::Extent3d {
                    width: ring.width,
                    height,
                    depth_or_array_layers: 1,
                },
            );
            offset += len;
        }
        if let Some(scratch) = &self.scratch {
            target.copy_from_slice(bytemuck::cast_slice(scratch));
        }
        drop(mapped);
        staging.buffer.unmap();
        self.in_flight = Some(staging);
    }

    /// The frame that copies out of this frame's staging buffer is submitted: the buffer is
    /// mapped again for a later frame once the copy is done.
    pub(crate) fn submitted(&mut self) {
        if let Some(staging) = self.in_flight.take() {
            self.staging.give_back(staging);
        }
    }
}

/// Composites `rows` (viewport rows of `ring`), their quads in `vertices` up to `row_ends`,
/// over `background`, straight into `pixels`, a frame kept in memory in
/// [`PixelOrder::native_argb`] (the software renderer's): nothing is copied afterwards.
#[allow(clippy::too_many_arguments)]
pub(crate) fn composite_in_memory(
    pixels: &mut [u32],
    order: PixelOrder,
    ring: &FrameRing,
    (rows, row_ends): (&[usize], &[usize]),
    vertices: &[Vertex],
    (atlas, tiles): (AtlasPixels, &mut GlyphTiles),
    (background, tails): (Rgb, &mut [Option<BlankTail>]),
    starts: &[u32],
) {
    tiles.for_atlas(atlas.generation);
    let stride = ring.width as usize;
    for run in ring
        .in_frame_order(rows, row_ends)
        .chunk_by(|a, b| a.0 + 1 == b.0)
    {
        let (top, height) = ring.lines(run[0].0, run.len());
        let lines = top as usize * stride..(top + height) as usize * stride;
        let Some(lines) = pixels.get_mut(lines) else {
            continue;
        };
        let canvas = Canvas::unfilled(lines, stride, (ring.width, top, height)).with_tiles(tiles);
        canvas.draw_run(
            order,
            (run, ring.row_height),
            vertices,
            (atlas, background),
            (Some(&mut *tails), starts),
        );
    }
}

/// Staging buffers that rows are composited into, each mapped for writing while idle.
///
/// `Queue::write_texture` would copy the rows once more into a staging buffer of its own,
/// new each time: on lavapipe fresh memory, whose page faults were 15% of a full redraw's
/// CPU in `frame-cpu` (a 6 MB frame at 160×50 is 1,500 pages). These are kept and mapped
/// again once the copy out of them is done.
#[derive(Default)]
struct StagingPool {
    idle: Vec<Staging>,
}

/// One staging buffer, with whether it is mapped (its map callback has run).
struct Staging {
    buffer: wgpu::Buffer,
    mapped: Arc<AtomicBool>,
}

/// Buffers kept: one being copied from, one being mapped again, one to write the next frame
/// into. More are dropped (a frame that finds none mapped makes a new one).
const KEPT: usize = 3;

impl StagingPool {
    /// A buffer of at least `size` bytes, mapped for writing: an idle one, else a new one.
    fn take(&mut self, device: &wgpu::Device, size: u64) -> Staging {
        // Runs the map callbacks of the buffers given back earlier, without waiting.
        let _ = device.poll(wgpu::PollType::Poll);
        let ready = self
            .idle
            .iter()
            .position(|s| s.mapped.load(Ordering::Acquire) && s.buffer.size() >= size);
        if let Some(index) = ready {
            return self.idle.swap_remove(index);
        }
        let buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("composited rows"),
            size: size.next_multiple_of(wgpu::COPY_BUFFER_ALIGNMENT),
            usage: wgpu::BufferUsages::MAP_WRITE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: true,
        });
        Staging {
            buffer,
            mapped: Arc::new(AtomicBool::new(true)),
        }
    }

    /// Takes `staging` back once the commands copying from it are submitted: it is mapped
    /// again when the GPU is done with them.
    fn give_back(&mut self, staging: Staging) {
        staging.mapped.store(false, Ordering::Release);
        let mapped = staging.mapped.clone();
        staging
            .buffer
            .slice(..)
            .map_async(wgpu::MapMode::Write, move |result| {
                mapped.store(result.is_ok(), Ordering::Release);
            });
        self.idle.push(staging);
        if self.idle.len() > KEPT {
            self.idle.remove(0);
        }
    }
}

/// Masks are blended in whole groups of this many pixels where the line allows: narrow
/// glyphs (7 pixels at 10 pt) otherwise left most of each line to the scalar tail of the
/// vectorised loop. The atlas keeps each mask's lines zero up to this multiple
/// (`Atlas::upload`), and a zero coverage leaves a pixel exactly as it was.
pub(crate) const MASK_GROUP: u32 = 8;

/// Where to end blending a mask's line that covers pixels `xs`: rounded up to a whole
/// [`MASK_GROUP`] of pixels, within the zeroed columns after the glyph in the atlas (its
/// left and right texels `left`, `right`; pixel x samples texel x + `du`).
fn mask_span_end(xs: Range<i64>, left: f32, right: f32, du: i64) -> i64 {
    let group = u64::from(MASK_GROUP);
    let round_up = |n: i64| n.max(0).unsigned_abs().next_multiple_of(group) as i64;
    let (left, width) = (round(left), round(right - left));
    let zeroed_until = left + round_up(width) - du;
    (xs.start + round_up(xs.end - xs.start))
        .min(zeroed_until)
        .max(xs.end)
}

/// The pixels from `from` to `to` whose centres are inside, within `limit`.
fn covered(from: f32, to: f32, limit: (i64, i64)) -> Range<i64> {
    let start = ceil(from - 0.5).max(limit.0);
    let end = ceil(to - 0.5).min(limit.1);
    start..end.max(start)
}

/// What to add to a pixel's coordinate for the texel the shader samples there, given one
/// corner's pixel and texel coordinates.
fn texel_offset(pixel: f32, texel: f32) -> i64 {
    floor(texel + 0.5 - pixel)
}

/// The shader's quad kinds (`shaders/cell.wgsl`).
const KIND_SOLID: u32 = 0;
const KIND_MASK: u32 = 1;

/// A colour in 0–1 as the bytes a unorm target stores.
fn unit_to_bytes(color: [f32; 4]) -> [u8; 4] {
    color.map(|c| round(c.clamp(0.0, 1.0) * 255.0) as u8)
}

// `f32`'s `floor`, `ceil` and `round`, as integers, inline. Without SSE4.1 in the build's
// target the standard ones are calls into libm, twelve a quad: 4% of a full redraw's
// samples in `frame-cpu 200 software` (`perf record`, 2026-12-06). Each truncates with one
// conversion and corrects by the part it cut off, which is exact in `f32` (below 2^23 the
// integer part is exact and the subtraction too; above it every `f32` is an integer), so
// each gives what the standard one does, NaN as 0 and infinities saturated as `as` does
// (`rounding_is_the_standard_librarys`).

/// `x.floor() as i64`.
#[inline(always)]
fn floor(x: f32) -> i64 {
    let t = x as i64;
    if (t as f32) > x {
        t.saturating_sub(1)
    } else {
        t
    }
}

/// `x.ceil() as i64`.
#[inline(always)]
fn ceil(x: f32) -> i64 {
    let t = x as i64;
    if (t as f32) < x {
        t.saturating_add(1)
    } else {
        t
    }
}

/// `x.round() as i64`: halves away from zero.
#[inline(always)]
fn round(x: f32) -> i64 {
    let t = x as i64;
    let cut = x - t as f32;
    if cut >= 0.5 {
        t.saturating_add(1)
    } else if cut <= -0.5 {
        t.saturating_sub(1)
    } else {
        t
    }
}

/// `a × b / 255`, rounded.
fn mul255(a: u8, b: u8) -> u8 {
    ((u32::from(a) * u32::from(b) + 127) / 255) as u8
}

/// An opaque rectangle's row.
fn blend_solid(dst: &mut [u32], color: [u8; 4]) {
    dst.fill(u32::from_ne_bytes([color[0], color[1], color[2], 255]));
}

/// `color` tinted by the coverage in the alpha of each RGBA `src` texel, over `dst` (the shader
/// premultiplies, the blend adds `dst × (1 − α)`). The frame is opaque: alpha stays 255.
///
/// The three channels of a partly covered pixel are mixed at once, 16 bits apart in a `u64`
/// ([`Lanes`]), with the same rounding as one channel at a time (`mix_reference`, which a
/// test holds it to): text is most of what a frame blends, and mixing channel by channel was
/// the largest part of a full redraw's CPU on the software renderer (docs/performance.md,
/// "The software renderer").
fn blend_mask(dst: &mut [u32], src: &[u8], color: [u8; 4]) {
    if color[3] != 255 {
        let tint = Lanes::of(color);
        for (pixel, texel) in dst.iter_mut().zip(src.chunks_exact(4)) {
            let alpha = mul255(texel[3], color[3]);
            *pixel = tint.mix(*pixel, alpha);
        }
        return;
    }
    let c = color.map(u16::from);
    for (pixel, texel) in dst.iter_mut().zip(src.chunks_exact(4)) {
        let a = u16::from(texel[3]);
        let keep = 255 - a;
        let d = pixel.to_ne_bytes();
        let mix = |c: u16, d: u8| {
            let x = c * a + u16::from(d) * keep + 127;
            ((x + 1 + (x >> 8)) >> 8) as u8
        };
        *pixel = u32::from_ne_bytes([mix(c[0], d[0]), mix(c[1], d[1]), mix(c[2], d[2]), 255]);
    }
}

/// The red, green and blue bytes of a pixel, each in a lane of 16 bits.
#[derive(Clone, Copy)]
struct Lanes(u64);

impl Lanes {
    /// The low byte of each lane.
    const BYTES: u64 = 0x00ff_00ff_00ff;
    /// 1 in each lane.
    const ONES: u64 = 0x0001_0001_0001;

    fn of(bytes: [u8; 4]) -> Lanes {
        Lanes(u64::from(bytes[0]) | u64::from(bytes[1]) << 16 | u64::from(bytes[2]) << 32)
    }

    /// `self` at `alpha` over `pixel` (opaque), each channel `(c × α + d × (255 − α) + 127) /
    /// 255` rounded down: the lanes hold at most 255 × 255 + 127 < 2¹⁶, and
    /// `(x + 1 + (x >> 8)) >> 8` is `x / 255` for every such `x`.
    fn mix(self, pixel: u32, alpha: u8) -> u32 {
        let (a, keep) = (u64::from(alpha), u64::from(255 - alpha));
        let x = self.0 * a + Lanes::of(pixel.to_ne_bytes()).0 * keep + 127 * Lanes::ONES;
        let m = ((x + Lanes::ONES + ((x >> 8) & Lanes::BYTES)) >> 8) & Lanes::BYTES;
        u32::from_ne_bytes([m as u8, (m >> 16) as u8, (m >> 32) as u8, 255])
    }
}

/// Premultiplied RGBA `src` texels over `dst`.
fn blend_image(dst: &mut [u32], src: &[u8], order: PixelOrder) {
    for (pixel, texel) in dst.iter_mut().zip(src.chunks_exact(4)) {
        let texel = order.arrange([texel[0], texel[1], texel[2], texel[3]]);
        let keep = 255 - texel[3];
        let mut out = pixel.to_ne_bytes();
        for channel in 0..3 {
            out[channel] = texel[channel].saturating_add(mul255(out[channel], keep));
        }
        *pixel = u32::from_ne_bytes(out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_is_the_standard_librarys() {
        let special = [
            0.0,
            -0.0,
            0.5,
            -0.5,
            1.5,
            -2.5,
            0.499_999_97,
            -0.499_999_97,
            8_388_607.5,
            16_777_217.0,
            9.223_372e18,
            -9.223_372e18,
            1e30,
            -1e30,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            f32::MIN_POSITIVE,
        ];
        // Every 4,099th bit pattern: all exponents, signs and a spread of fractions.
        let spread = (0..=u32::MAX).step_by(4099).map(f32::from_bits);
        for x in special.into_iter().chain(spread) {
            assert_eq!(floor(x), x.floor() as i64, "floor {x:e}");
            assert_eq!(ceil(x), x.ceil() as i64, "ceil {x:e}");
            assert_eq!(round(x), x.round() as i64, "round {x:e}");
        }
        // And every value a pixel coordinate takes at a quarter-pixel step.
        for quarter in -40_000..40_000 {
            let x = quarter as f32 / 4.0;
            assert_eq!(round(x), x.round() as i64, "round {x}");
        }
    }

    fn vertices(kind: u32, rect: [f32; 4], uv: [f32; 2], color: [f32; 4]) -> Vec<Vertex> {
        let [x, y, w, h] = rect;
        [(0.0, 0.0), (w, 0.0), (0.0, h), (w, h)]
            .map(|(dx, dy)| Vertex {
                pixel: [x + dx, y + dy],
                texel: [uv[0] + dx, uv[1] + dy],
                color,
                kind,
            })
            .to_vec()
    }

    fn pixel(canvas: &Canvas, x: u32, y: u32) -> [u8; 4] {
        let at = (y - canvas.top) as usize * canvas.stride + x as usize;
        canvas.pixels[at].to_ne_bytes()
    }

    /// A canvas over `memory`, with a line stride wider than the row, as a staging buffer's.
    fn canvas(
        memory: &mut Vec<u32>,
        order: PixelOrder,
        rows: (u32, u32, u32),
        bg: Rgb,
    ) -> Canvas<'_> {
        let stride = rows.0 as usize + 3;
        memory.resize(stride * rows.2 as usize, 0xdead_beef);
        Canvas::blank(memory, stride, order, rows, bg)
    }

    const BLACK: Rgb = Rgb { r: 0, g: 0, b: 0 };

    #[test]
    fn a_solid_quad_covers_the_pixels_whose_centres_it_contains() {
        let mut memory = Vec::new();
        let mut canvas = canvas(
            &mut memory,
            PixelOrder::Rgba,
            (8, 10, 4),
            Rgb { r: 1, g: 2, b: 3 },
        );
        let atlas = AtlasPixels {
            data: &[],
            size: 0,
            generation: 1,
        };
        let red = vertices(
            KIND_SOLID,
            [2.0, 9.0, 3.0, 3.0],
            [0.0; 2],
            [1.0, 0.0, 0.0, 1.0],
        );
        canvas.draw(PixelOrder::Rgba, &red, atlas);
        // Rows 10 and 11 of the frame are inside the quad (which starts above the canvas).
        for (x, y, expect) in [
            (1, 10, [1, 2, 3, 255]),
            (2, 10, [255, 0, 0, 255]),
            (4, 11, [255, 0, 0, 255]),
            (5, 11, [1, 2, 3, 255]),
            (3, 12, [1, 2, 3, 255]),
        ] {
            assert_eq!(pixel(&canvas, x, y), expect, "pixel {x},{y}");
        }
    }

    #[test]
    fn a_mask_tints_by_coverage_and_bgra_swaps_red_and_blue() {
        // A 2×1 atlas: full coverage, then half.
        let data = [255, 255, 255, 255, 128, 128, 128, 128];
        let atlas = AtlasPixels {
            data: &data,
            size: 2,
            generation: 1,
        };
        for (order, red_at) in [(PixelOrder::Rgba, 0), (PixelOrder::Bgra, 2)] {
            let mut memory = Vec::new();
            let mut canvas = canvas(&mut memory, order, (4, 0, 1), BLACK);
            let glyph = vertices(
                KIND_MASK,
                [1.0, 0.0, 2.0, 1.0],
                [0.0; 2],
                [1.0, 0.0, 0.0, 1.0],
            );
            canvas.draw(order, &glyph, atlas);
            assert_eq!(pixel(&canvas, 0, 0), [0, 0, 0, 255]);
            assert_eq!(pixel(&canvas, 1, 0)[red_at], 255);
            assert_eq!(pixel(&canvas, 2, 0)[red_at], 128);
            assert_eq!(pixel(&canvas, 2, 0)[2 - red_at], 0);
            assert_eq!(pixel(&canvas, 3, 0), [0, 0, 0, 255]);
        }
    }

    #[test]
    fn a_masks_line_is_blended_in_whole_groups_within_its_zeroed_columns() {
        // A 7-pixel glyph at atlas x 16, drawn at pixel 100 (du = -84): its columns are zero
        // up to x 24, so its line is blended as 8 pixels.
        assert_eq!(mask_span_end(100..107, 16.0, 23.0, -84), 108);
        // Cut on the left by 3 pixels, the 4 left may not reach past the zeroed columns.
        assert_eq!(mask_span_end(103..107, 16.0, 23.0, -84), 108);
        // A 16-pixel glyph is whole groups already.
        assert_eq!(mask_span_end(0..16, 0.0, 16.0, 0), 16);
        // Never shorter than what it covers.
        assert_eq!(mask_span_end(5..9, 0.0, 0.0, 0), 9);
    }

    /// What `Lanes::mix` must give: each channel mixed on its own.
    fn mix_reference(color: [u8; 4], pixel: u32, alpha: u8) -> u32 {
        let (a, keep) = (u32::from(alpha), 255 - u32::from(alpha));
        let mut out = pixel.to_ne_bytes();
        for channel in 0..3 {
            let mixed = u32::from(color[channel]) * a + u32::from(out[channel]) * keep;
            out[channel] = ((mixed + 127) / 255) as u8;
        }
        out[3] = 255;
        u32::from_ne_bytes(out)
    }

    #[test]
    fn mixing_the_channels_at_once_rounds_as_mixing_each_alone() {
        // Every alpha against the extremes and a spread of colours, both ways round.
        let values = [0u8, 1, 2, 63, 64, 127, 128, 129, 200, 254, 255];
        for alpha in 0..=255u8 {
            for &c in &values {
                for &d in &values {
                    let color = [c, d, c ^ d, 255];
                    let pixel = u32::from_ne_bytes([d, c, 255 - d, 255]);
                    assert_eq!(
                        Lanes::of(color).mix(pixel, alpha),
                        mix_reference(color, pixel, alpha),
                        "colour {color:?} at {alpha} over {:?}",
                        pixel.to_ne_bytes()
                    );
                }
            }
        }
    }

    /// Draws `quads` (each a kind, rect and colour; the masks sample an 8×8 glyph at atlas
    /// texel 0,0) on a fresh 16×8 canvas, with `tiles` when given; the canvas's pixels.
    fn drawn(quads: &[(u32, [f32; 4], [f32; 4])], tiles: Option<&mut GlyphTiles>) -> Vec<u32> {
        // An 8×8 glyph whose coverage climbs along each line and down the lines.
        let data: Vec<u8> = (0..64u32)
            .flat_map(|i| [((i % 8) * 36 + i / 8) as u8; 4])
            .collect();
        let atlas = AtlasPixels {
            data: &data,
            size: 8,
            generation: 1,
        };
        let mut memory = Vec::new();
        let grey = Rgb {
            r: 30,
            g: 40,
            b: 50,
        };
        let mut canvas = canvas(&mut memory, PixelOrder::Bgra, (16, 0, 8), grey);
        if let Some(tiles) = tiles {
            tiles.for_atlas(atlas.generation);
            canvas = canvas.with_tiles(tiles);
        }
        for &(kind, rect, color) in quads {
            canvas.draw(
                PixelOrder::Bgra,
                &vertices(kind, rect, [0.0; 2], color),
                atlas,
            );
        }
        let _ = canvas;
        memory
    }

    #[test]
    fn a_glyph_tile_gives_the_pixels_blending_gives() {
        let glyph = (KIND_MASK, [3.0, 0.0, 8.0, 8.0], [0.9, 0.5, 0.1, 1.0]);
        let faded = (KIND_MASK, [3.0, 0.0, 8.0, 8.0], [0.9, 0.5, 0.1, 0.6]);
        let mut tiles = GlyphTiles::default();
        for quads in [vec![glyph], vec![faded]] {
            let blended = drawn(&quads, None);
            assert_eq!(drawn(&quads, Some(&mut tiles)), blended, "the tile made");
            let (hits, _) = tiles.counts();
            assert_eq!(drawn(&quads, Some(&mut tiles)), blended, "the tile used");
            assert_eq!(tiles.counts().0, hits + 1, "the second draw used the tile");
        }
    }

    #[test]
    fn a_glyph_over_more_than_one_colour_is_blended_not_copied() {
        let glyph = (KIND_MASK, [3.0, 0.0, 8.0, 8.0], [0.9, 0.5, 0.1, 1.0]);
        let mut tiles = GlyphTiles::default();
        drawn(&[glyph], Some(&mut tiles));
        // A cursor block under half the glyph: the tile made over grey must not be used.
        let block = (KIND_SOLID, [6.0, 0.0, 7.0, 8.0], [1.0, 1.0, 1.0, 1.0]);
        let (hits, _) = tiles.counts();
        assert_eq!(
            drawn(&[block, glyph], Some(&mut tiles)),
            drawn(&[block, glyph], None)
        );
        assert_eq!(tiles.counts().0, hits);
    }

    #[test]
    fn a_premultiplied_image_is_blended_over_what_is_there() {
        // Half-transparent premultiplied white over grey 100: 128 + 100 × 127/255.
        let data = [128, 128, 128, 128];
        let atlas = AtlasPixels {
            data: &data,
            size: 1,
            generation: 1,
        };
        let mut memory = Vec::new();
        let grey = Rgb {
            r: 100,
            g: 100,
            b: 100,
        };
        let mut canvas = canvas(&mut memory, PixelOrder::Rgba, (1, 0, 1), grey);
        canvas.draw(
            PixelOrder::Rgba,
            &vertices(2, [0.0, 0.0, 1.0, 1.0], [0.0; 2], [1.0; 4]),
            atlas,
        );
        assert_eq!(pixel(&canvas, 0, 0), [178, 178, 178, 255]);
    }

    #[test]
    fn quads_outside_the_row_or_the_width_draw_nothing_and_never_panic() {
        let atlas = AtlasPixels {
            data: &[],
            size: 0,
            generation: 1,
        };
        let mut memory = Vec::new();
        let mut canvas = canvas(&mut memory, PixelOrder::Rgba, (4, 20, 2), BLACK);
        for rect in [
            [0.0, 0.0, 4.0, 20.0],
            [0.0, 22.0, 4.0, 5.0],
            [4.0, 20.0, 9.0, 2.0],
            [-9.0, 20.0, 3.0, 2.0],
        ] {
            canvas.draw(
                PixelOrder::Rgba,
                &vertices(KIND_MASK, rect, [5.0, 5.0], [1.0; 4]),
                atlas,
            );
        }
        for (y, x) in (20..22).flat_map(|y| (0..4).map(move |x| (y, x))) {
            assert_eq!(pixel(&canvas, x, y), [0, 0, 0, 255]);
        }
        // Past each line's width the stride's padding is left alone.
        assert_eq!(canvas.pixels[4], 0xdead_beef);
    }
}

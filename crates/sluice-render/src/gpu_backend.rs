//! The renderer's GPU backend: frames are wgpu textures, and rows are drawn into them by the
//! cell pipeline (gpu_rows.rs) or, on a software adapter, composited on the CPU and copied
//! in (composite.rs).

use wgpu::util::DeviceExt;

use crate::atlas::{Atlas, AtlasPlace};
use crate::composite::{Compositing, CpuRows, PixelOrder};
use crate::error::Result;
use crate::frame::{FramePixels, FrameRing, Frames};
use crate::gpu_rows::GpuRows;
use crate::image::Image;
use crate::pipeline::uniform_and_texture_layout;
use crate::rows::Vertex;

/// The device, and what turns quads into pixels in its textures.
pub(crate) struct GpuBackend {
    device: wgpu::Device,
    queue: wgpu::Queue,
    format: wgpu::TextureFormat,
    layout: wgpu::BindGroupLayout,
    painter: Painter,
}

/// How the quads become pixels: drawn by the GPU, or composited on the CPU (composite.rs).
enum Painter {
    Gpu(GpuRows),
    Cpu(CpuRows),
}

/// What the cell pipeline needs to draw into one view's frame: the frame's and the atlas's
/// sizes, and the atlas texture, bound.
pub(crate) struct CellBinding {
    bind_group: wgpu::BindGroup,
    /// The atlas texture `bind_group` points at ([`Atlas::generation`]).
    atlas_generation: u64,
}

#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Globals {
    target_size: [f32; 2],
    atlas_size: [f32; 2],
}

impl GpuBackend {
    /// Frames of `format` (the surface's, or `Rgba8Unorm` offscreen), their rows composited
    /// as `compositing` says (the GPU where the CPU cannot write `format`).
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        format: wgpu::TextureFormat,
        compositing: Compositing,
    ) -> Self {
        let layout = uniform_and_texture_layout(
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
            _ => Painter::Gpu(GpuRows::new(device, &layout, format)),
        };
        Self {
            device: device.clone(),
            queue: queue.clone(),
            format,
            layout,
            painter,
        }
    }

    pub fn compositing(&self) -> Compositing {
        match self.painter {
            Painter::Gpu(_) => Compositing::Gpu,
            Painter::Cpu(_) => Compositing::Cpu,
        }
    }

    /// Where the glyph atlas keeps its pixels: where the painter reads them.
    pub fn atlas_place(&self) -> AtlasPlace {
        match self.painter {
            Painter::Gpu(_) => AtlasPlace::Texture(self.device.clone(), self.queue.clone()),
            Painter::Cpu(_) => AtlasPlace::Memory,
        }
    }

    /// A texture for a frame of `ring`'s size.
    pub fn new_frame(&self, ring: &FrameRing) -> FramePixels {
        let texture = self.device.create_texture(&wgpu::TextureDescriptor {
            label: Some("frame"),
            size: wgpu::Extent3d {
                width: ring.width,
                height: ring.height,
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
        let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
        FramePixels::Texture {
            texture,
            view,
            binding: None,
        }
    }

    /// Draws `rows` (viewport rows of `frames`), whose quads are `vertices` up to `row_ends`,
    /// over `background`, and submits the work.
    pub fn draw(
        &mut self,
        frames: &mut Frames,
        (rows, row_ends): (&[usize], &[usize]),
        vertices: &[Vertex],
        atlas: &Atlas,
        background: sluice_term::Rgb,
    ) {
        let ring = frames.ring;
        let FramePixels::Texture {
            texture,
            view,
            binding,
        } = &mut frames.pixels
        else {
            return;
        };
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("frame"),
            });
        match &mut self.painter {
            Painter::Gpu(gpu) => {
                let Some(atlas_view) = atlas.texture_view() else {
                    return;
                };
                if binding
                    .as_ref()
                    .is_none_or(|b| b.atlas_generation != atlas.generation())
                {
                    *binding = Some(bind(&self.device, &self.layout, &ring, atlas, atlas_view));
                }
                let bind_group = &binding.as_ref().expect("bound above").bind_group;
                gpu.draw(
                    &self.device,
                    &self.queue,
                    &mut encoder,
                    (&ring, texture, view, bind_group),
                    rows,
                    vertices,
                    background,
                );
            }
            Painter::Cpu(cpu) => {
                let Some(pixels) = atlas.pixels() else {
                    return;
                };
                cpu.composite(
                    &self.device,
                    &mut encoder,
                    (&ring, texture),
                    (rows, row_ends),
                    vertices,
                    pixels,
                    background,
                );
            }
        }
        self.queue.submit([encoder.finish()]);
        if let Painter::Cpu(cpu) = &mut self.painter {
            cpu.submitted();
        }
    }

    /// Reads a frame's texture back, as it is in the texture (not unwound).
    pub fn read_frame(&self, frames: &Frames) -> Result<Image> {
        match &frames.pixels {
            FramePixels::Texture { texture, .. } => {
                crate::image::read_texture(&self.device, &self.queue, texture, self.format)
            }
            FramePixels::Memory(_) => Err(crate::Error::Readback(
                "a frame in memory, not of this device".into(),
            )),
        }
    }

    /// Waits until the GPU has finished everything submitted.
    pub fn wait_idle(&self) {
        let _ = self.device.poll(wgpu::PollType::Wait {
            submission_index: None,
            timeout: None,
        });
    }

    pub fn device(&self) -> &wgpu::Device {
        &self.device
    }

    pub fn queue(&self) -> &wgpu::Queue {
        &self.queue
    }

    pub fn format(&self) -> wgpu::TextureFormat {
        self.format
    }
}

/// Binds the atlas as it is now for drawing into a frame of `ring`'s size.
fn bind(
    device: &wgpu::Device,
    layout: &wgpu::BindGroupLayout,
    ring: &FrameRing,
    atlas: &Atlas,
    atlas_view: &wgpu::TextureView,
) -> CellBinding {
    let globals = Globals {
        target_size: [ring.width as f32, ring.height as f32],
        atlas_size: [atlas.size() as f32; 2],
    };
    let globals = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("cell globals"),
        contents: bytemuck::bytes_of(&globals),
        usage: wgpu::BufferUsages::UNIFORM,
    });
    let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("cell bind group"),
        layout,
        entries: &[
            wgpu::BindGroupEntry {
                binding: 0,
                resource: globals.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 1,
                resource: wgpu::BindingResource::TextureView(atlas_view),
            },
        ],
    });
    CellBinding {
        bind_group,
        atlas_generation: atlas.generation(),
    }
}

//! Presenting frames to a window.
//!
//! The swapchain's textures come back zero-filled, so the persistent frame texture is drawn
//! onto each one whole (a single full-screen triangle), centred with the padding filled.
//! A lost or outdated surface is reconfigured and the frame skipped; the next one presents.

use crate::error::{Error, Result};
use crate::pipeline::{PipelineSpec, render_pipeline, uniform_and_texture_layout};
use crate::renderer::{Renderer, uniform_buffer};

#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct BlitUniform {
    offset: [f32; 2],
    frame_size: [f32; 2],
    /// The frame texture's row (in pixels) holding the top of the screen: it is a ring.
    origin: [f32; 2],
    _pad: [f32; 2],
    background: [f32; 4],
}

/// How a present went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Presented {
    Shown,
    /// The surface was lost, outdated or timed out; it was reconfigured. Draw again.
    Skipped,
}

/// A window's surface and what it takes to show frames on it.
pub struct WindowSurface<'w> {
    surface: wgpu::Surface<'w>,
    config: wgpu::SurfaceConfiguration,
    pipeline: wgpu::RenderPipeline,
    layout: wgpu::BindGroupLayout,
    uniform: wgpu::Buffer,
}

impl<'w> WindowSurface<'w> {
    /// Chooses a format and present mode for `surface` and configures it at `size`.
    ///
    /// A non-sRGB format is preferred: terminal colours are sRGB values and are blended as
    /// such, as other terminals do. Fifo paces presents to the display where it can.
    pub fn new(
        surface: wgpu::Surface<'w>,
        adapter: &wgpu::Adapter,
        device: &wgpu::Device,
        size: (u32, u32),
    ) -> Result<Self> {
        let caps = surface.get_capabilities(adapter);
        let format = caps
            .formats
            .iter()
            .copied()
            .find(|f| !f.is_srgb())
            .or_else(|| caps.formats.first().copied())
            .ok_or_else(|| Error::Surface("the surface supports no format".into()))?;
        let config = wgpu::SurfaceConfiguration {
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
            format,
            width: size.0.max(1),
            height: size.1.max(1),
            present_mode: wgpu::PresentMode::Fifo,
            desired_maximum_frame_latency: 1,
            alpha_mode: caps
                .alpha_modes
                .first()
                .copied()
                .unwrap_or(wgpu::CompositeAlphaMode::Auto),
            view_formats: vec![],
            color_space: wgpu::SurfaceColorSpace::Auto,
        };
        surface.configure(device, &config);
        let layout =
            uniform_and_texture_layout(device, "blit layout", wgpu::ShaderStages::FRAGMENT);
        let pipeline = render_pipeline(
            device,
            &layout,
            PipelineSpec {
                label: "blit pipeline",
                wgsl: include_str!("../../../shaders/blit.wgsl"),
                buffers: &[],
                format,
                blend: None,
                topology: wgpu::PrimitiveTopology::TriangleList,
            },
        );
        let uniform = uniform_buffer(
            device,
            "blit uniform",
            bytemuck::bytes_of(&BlitUniform::zeroed()),
        );
        Ok(Self {
            surface,
            config,
            pipeline,
            layout,
            uniform,
        })
    }

    /// The texture format frames must be rendered in for this surface.
    pub fn format(&self) -> wgpu::TextureFormat {
        self.config.format
    }

    /// The surface's size in pixels.
    pub fn size(&self) -> (u32, u32) {
        (self.config.width, self.config.height)
    }

    /// Follows a window resize (or a scale factor change, which arrives as one).
    pub fn resize(&mut self, device: &wgpu::Device, size: (u32, u32)) {
        let size = (size.0.max(1), size.1.max(1));
        if size != self.size() {
            (self.config.width, self.config.height) = size;
            self.surface.configure(device, &self.config);
        }
    }

    /// Shows the renderer's current frame, with `padding` pixels left and top, the rest of
    /// the window filled with `background`.
    pub fn present(
        &mut self,
        renderer: &Renderer,
        padding: (u32, u32),
        background: sluice_term::Rgb,
    ) -> Presented {
        let (Some(frame_view), Some((fw, fh))) =
            (renderer.frame_view(), renderer.frame_dimensions())
        else {
            return Presented::Skipped;
        };
        let device = renderer.device();
        let texture = match self.surface.get_current_texture() {
            wgpu::CurrentSurfaceTexture::Success(t)
            | wgpu::CurrentSurfaceTexture::Suboptimal(t) => t,
            other => {
                tracing::debug!(?other, "surface not available; reconfiguring");
                self.surface.configure(device, &self.config);
                return Presented::Skipped;
            }
        };
        let uniform = BlitUniform {
            offset: [padding.0 as f32, padding.1 as f32],
            frame_size: [fw as f32, fh as f32],
            origin: [0.0, renderer.frame_origin_px() as f32],
            _pad: [0.0; 2],
            background: [
                background.r as f32 / 255.0,
                background.g as f32 / 255.0,
                background.b as f32 / 255.0,
                1.0,
            ],
        };
        renderer
            .queue()
            .write_buffer(&self.uniform, 0, bytemuck::bytes_of(&uniform));
        let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("blit bind group"),
            layout: &self.layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: self.uniform.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: wgpu::BindingResource::TextureView(frame_view),
                },
            ],
        });
        let view = texture
            .texture
            .create_view(&wgpu::TextureViewDescriptor::default());
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("present"),
        });
        {
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("blit"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color::BLACK),
                        store: wgpu::StoreOp::Store,
                    },
                })],
                ..Default::default()
            });
            pass.set_pipeline(&self.pipeline);
            pass.set_bind_group(0, &bind_group, &[]);
            pass.draw(0..3, 0..1);
        }
        renderer.queue().submit([encoder.finish()]);
        renderer.queue().present(texture);
        Presented::Shown
    }
}

use bytemuck::Zeroable as _;

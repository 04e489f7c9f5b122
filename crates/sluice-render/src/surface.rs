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
    /// such, as other terminals do. See [`present_mode`] for the present mode.
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
        // Copying frames in is much cheaper than drawing them in (see `present_by_copy`).
        let copy_dst = caps.usages & wgpu::TextureUsages::COPY_DST;
        let config = wgpu::SurfaceConfiguration {
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | copy_dst,
            format,
            width: size.0.max(1),
            height: size.1.max(1),
            present_mode: present_mode(&caps.present_modes),
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
        if self.copies(renderer) {
            return self.present_by_copy(renderer, padding, background);
        }
        let (Some(frame_view), Some((fw, fh))) =
            (renderer.frame_view(), renderer.frame_dimensions())
        else {
            return Presented::Skipped;
        };
        let device = renderer.device();
        let Some(texture) = self.acquire(device) else {
            return Presented::Skipped;
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

    /// The next image to present into, or `None` (after reconfiguring the surface) when the
    /// surface is lost, outdated or busy: the caller skips this frame and draws the next.
    fn acquire(&mut self, device: &wgpu::Device) -> Option<wgpu::SurfaceTexture> {
        match self.surface.get_current_texture() {
            wgpu::CurrentSurfaceTexture::Success(t)
            | wgpu::CurrentSurfaceTexture::Suboptimal(t) => Some(t),
            other => {
                tracing::debug!(?other, "surface not available; reconfiguring");
                self.surface.configure(device, &self.config);
                None
            }
        }
    }

    /// Whether frames can be copied to the window instead of drawn onto it: the surface
    /// accepts copies and stores colours as the frame does.
    fn copies(&self, renderer: &Renderer) -> bool {
        self.config.usage.contains(wgpu::TextureUsages::COPY_DST)
            && renderer.format() == self.config.format
            && !self.config.format.is_srgb()
    }

    /// Shows the frame with a clear and one or two texture copies (the ring's two halves).
    ///
    /// On software rendering this is the difference between a memset and a memcpy and a
    /// fragment shader run over every pixel of the window: a one-row change through a
    /// 100x30 window went from 10.4 ms of present to 1.3 ms, and PTY output to pixels from a
    /// median 11.3 ms to 3.4 ms (benches/window.sh).
    fn present_by_copy(
        &mut self,
        renderer: &Renderer,
        padding: (u32, u32),
        background: sluice_term::Rgb,
    ) -> Presented {
        let (Some(frame), Some((fw, fh))) = (renderer.frame_texture(), renderer.frame_dimensions())
        else {
            return Presented::Skipped;
        };
        let device = renderer.device();
        let Some(texture) = self.acquire(device) else {
            return Presented::Skipped;
        };
        let view = texture
            .texture
            .create_view(&wgpu::TextureViewDescriptor::default());
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("present by copy"),
        });
        let clear = wgpu::Color {
            r: background.r as f64 / 255.0,
            g: background.g as f64 / 255.0,
            b: background.b as f64 / 255.0,
            a: 1.0,
        };
        encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("window background"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: &view,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(clear),
                    store: wgpu::StoreOp::Store,
                },
            })],
            ..Default::default()
        });
        let (sw, sh) = (self.config.width, self.config.height);
        let width = fw.min(sw.saturating_sub(padding.0));
        let origin = renderer.frame_origin_px().min(fh);
        let mut dest_y = padding.1;
        // The top of the screen is at texture row `origin`: copy from there down, then the
        // rows above it, which follow on screen.
        for (src_y, rows) in [(origin, fh - origin), (0, origin)] {
            let rows = rows.min(sh.saturating_sub(dest_y));
            if rows == 0 || width == 0 {
                continue;
            }
            encoder.copy_texture_to_texture(
                wgpu::TexelCopyTextureInfo {
                    texture: frame,
                    mip_level: 0,
                    origin: wgpu::Origin3d {
                        x: 0,
                        y: src_y,
                        z: 0,
                    },
                    aspect: wgpu::TextureAspect::All,
                },
                wgpu::TexelCopyTextureInfo {
                    texture: &texture.texture,
                    mip_level: 0,
                    origin: wgpu::Origin3d {
                        x: padding.0,
                        y: dest_y,
                        z: 0,
                    },
                    aspect: wgpu::TextureAspect::All,
                },
                wgpu::Extent3d {
                    width,
                    height: rows,
                    depth_or_array_layers: 1,
                },
            );
            dest_y += rows;
        }
        renderer.queue().submit([encoder.finish()]);
        renderer.queue().present(texture);
        Presented::Shown
    }
}

use bytemuck::Zeroable as _;

/// Mailbox where the platform has it, else Fifo.
///
/// Sluice paces its own frames (at most one per refresh, none when idle), so what the present
/// mode decides is only how long a finished frame waits to be shown. With Fifo, Mesa's X11
/// presentation may block the UI thread until the next vblank; Mailbox shows the frame at the
/// next vblank without blocking and without tearing. (Under Xvfb the two measured the same:
/// the time went to drawing the frame into the window, see `present_by_copy`.) Fifo is the
/// fallback, as the one mode every platform must offer.
fn present_mode(available: &[wgpu::PresentMode]) -> wgpu::PresentMode {
    if available.contains(&wgpu::PresentMode::Mailbox) {
        wgpu::PresentMode::Mailbox
    } else {
        wgpu::PresentMode::Fifo
    }
}

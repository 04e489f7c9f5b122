//! Presenting frames to a window through a GPU surface (wgpu).
//!
//! The swapchain's textures come back zero-filled, so each frame is composed whole: the
//! window is cleared to the background, then every visible pane's persistent frame texture
//! is copied (or, where the surface cannot take copies, drawn) at its place.
//! A lost or outdated surface is reconfigured and the frame skipped; the next one presents.

use crate::error::{Error, Result};
use crate::pipeline::{PipelineSpec, render_pass, render_pipeline, uniform_and_texture_layout};
use sluice_term::Rgb;

use crate::gpu_backend::GpuBackend;
use crate::renderer::uniform_buffer;
use crate::surface::{Placed, Presented};

#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct BlitUniform {
    offset: [f32; 2],
    frame_size: [f32; 2],
    /// The frame texture's row (in pixels) holding the top of the screen: it is a ring.
    origin: [f32; 2],
    /// `window.opacity` (1: the frame is copied as it is).
    opacity: f32,
    _pad: f32,
    /// The default background, which is what `opacity` applies to.
    background: [f32; 4],
}

/// A window's GPU surface and what it takes to show frames on it.
pub struct GpuSurface<'w> {
    surface: wgpu::Surface<'w>,
    config: wgpu::SurfaceConfiguration,
    /// Whether the compositor takes the frames' alpha (a see-through window is possible).
    translucent: bool,
    pipeline: wgpu::RenderPipeline,
    layout: wgpu::BindGroupLayout,
}

impl<'w> GpuSurface<'w> {
    /// Chooses a format and present mode for `surface` and configures it at `size`.
    ///
    /// A non-sRGB format is preferred: terminal colours are sRGB values and are blended as
    /// such, as other terminals do. See `present_mode` for the present mode.
    ///
    /// `translucent` asks for an alpha mode that lets the compositor see through the
    /// window (for `window.opacity`): pre-multiplied, else whatever the window system does
    /// with alpha (`Inherit`, which X11 compositors read as pre-multiplied); the window must
    /// have been made transparent. Without either, frames stay opaque.
    pub fn new(
        surface: wgpu::Surface<'w>,
        adapter: &wgpu::Adapter,
        device: &wgpu::Device,
        size: (u32, u32),
        translucent: bool,
    ) -> Result<Self> {
        let caps = surface.get_capabilities(adapter);
        tracing::debug!(alpha_modes = ?caps.alpha_modes, "surface capabilities");
        let see_through = [
            wgpu::CompositeAlphaMode::PreMultiplied,
            wgpu::CompositeAlphaMode::Inherit,
        ]
        .into_iter()
        .find(|mode| translucent && caps.alpha_modes.contains(mode));
        if translucent && see_through.is_none() {
            tracing::warn!(
                modes = ?caps.alpha_modes,
                "window.opacity: this surface offers no transparency; the window stays opaque"
            );
        }
        let format = preferred_format(&surface, adapter)?;
        // Copying frames in is much cheaper than drawing them in (see `present_by_copy`).
        let copy_dst = caps.usages & wgpu::TextureUsages::COPY_DST;
        let config = wgpu::SurfaceConfiguration {
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | copy_dst,
            format,
            width: size.0.max(1),
            height: size.1.max(1),
            present_mode: present_mode(&caps.present_modes),
            desired_maximum_frame_latency: 1,
            alpha_mode: see_through.unwrap_or_else(|| {
                caps.alpha_modes
                    .first()
                    .copied()
                    .unwrap_or(wgpu::CompositeAlphaMode::Auto)
            }),
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
                wgsl: include_str!("../shaders/blit.wgsl"),
                buffers: &[],
                format,
                blend: None,
                topology: wgpu::PrimitiveTopology::TriangleList,
            },
        );
        Ok(Self {
            surface,
            config,
            translucent: see_through.is_some(),
            pipeline,
            layout,
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

    /// Composes `panes` onto the window, each at its place, the rest of the window filled
    /// with `background`, and shows it.
    ///
    /// With `opacity` under 1 (and a surface that can show it) the default background is
    /// drawn that transparent, pre-multiplied; every other colour stays opaque, as in
    /// Alacritty and kitty, so text and coloured cells stay as they are.
    pub(crate) fn present(
        &mut self,
        renderer: &GpuBackend,
        panes: &[Placed<'_>],
        background: sluice_term::Rgb,
        opacity: f32,
    ) -> Presented {
        let opacity = if self.translucent {
            opacity.clamp(0.0, 1.0)
        } else {
            1.0
        };
        let device = renderer.device();
        let Some(texture) = self.acquire(device) else {
            return Presented::Skipped;
        };
        let view = texture
            .texture
            .create_view(&wgpu::TextureViewDescriptor::default());
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("present"),
        });
        clear(&mut encoder, &view, background, opacity);
        // A copy cannot change the background's alpha: a translucent window is drawn.
        if self.copies(renderer) && opacity >= 1.0 {
            for pane in panes {
                self.copy_pane(&mut encoder, &texture.texture, pane);
            }
        } else {
            for pane in panes {
                self.blit_pane(renderer, &mut encoder, &view, pane, (background, opacity));
            }
        }
        renderer.queue().submit([encoder.finish()]);
        renderer.queue().present(texture);
        Presented::Shown
    }

    /// Draws a pane's frame onto the window with the blit shader (when the surface cannot
    /// take copies, or stores colours differently).
    fn blit_pane(
        &self,
        renderer: &GpuBackend,
        encoder: &mut wgpu::CommandEncoder,
        target: &wgpu::TextureView,
        pane: &Placed<'_>,
        (background, opacity): (Rgb, f32),
    ) {
        let (Some((_, frame_view)), Some((fw, fh))) =
            (pane.view.frame_texture(), pane.view.frame_dimensions())
        else {
            return;
        };
        let device = renderer.device();
        let uniform = BlitUniform {
            offset: [pane.x as f32, pane.y as f32],
            frame_size: [fw as f32, fh as f32],
            origin: [0.0, pane.view.frame_origin_px() as f32],
            opacity,
            _pad: 0.0,
            background: [
                background.r as f32 / 255.0,
                background.g as f32 / 255.0,
                background.b as f32 / 255.0,
                1.0,
            ],
        };
        // One buffer per pane and frame: a queued buffer write would land before every pass
        // of the frame, so panes cannot share one. This path is the fallback; copies are used
        // wherever the surface allows them.
        let uniform = uniform_buffer(device, "blit uniform", bytemuck::bytes_of(&uniform));
        let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("blit bind group"),
            layout: &self.layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: uniform.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: wgpu::BindingResource::TextureView(frame_view),
                },
            ],
        });
        let mut pass = render_pass(encoder, "blit", target, wgpu::LoadOp::Load);
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, &bind_group, &[]);
        pass.draw(0..3, 0..1);
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
    fn copies(&self, renderer: &GpuBackend) -> bool {
        self.config.usage.contains(wgpu::TextureUsages::COPY_DST)
            && renderer.format() == self.config.format
            && !self.config.format.is_srgb()
    }

    /// Copies a pane's frame onto the window: one or two texture copies (the ring's two
    /// halves), clipped to the window.
    ///
    /// On software rendering this is the difference between a memset and a memcpy and a
    /// fragment shader run over every pixel of the window: a one-row change through a
    /// 100x30 window went from 10.4 ms of present to 1.3 ms, and PTY output to pixels from a
    /// median 11.3 ms to 3.4 ms (benches/window.sh).
    fn copy_pane(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        target: &wgpu::Texture,
        pane: &Placed<'_>,
    ) {
        let (Some((frame, _)), Some((fw, fh))) =
            (pane.view.frame_texture(), pane.view.frame_dimensions())
        else {
            return;
        };
        let (sw, sh) = (self.config.width, self.config.height);
        let width = fw.min(sw.saturating_sub(pane.x));
        let origin = pane.view.frame_origin_px().min(fh);
        let mut dest_y = pane.y;
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
                    texture: target,
                    mip_level: 0,
                    origin: wgpu::Origin3d {
                        x: pane.x,
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
    }
}

/// The format frames are drawn in for `surface`: a non-sRGB one where there is one, since
/// terminal colours are sRGB values and are blended as such, as other terminals do.
pub fn preferred_format(
    surface: &wgpu::Surface<'_>,
    adapter: &wgpu::Adapter,
) -> Result<wgpu::TextureFormat> {
    let caps = surface.get_capabilities(adapter);
    caps.formats
        .iter()
        .copied()
        .find(|f| !f.is_srgb())
        .or_else(|| caps.formats.first().copied())
        .ok_or_else(|| Error::Surface("the surface supports no format".into()))
}

/// Fills the window with `background` at `opacity`, pre-multiplied: what no pane covers
/// (padding, split gaps).
fn clear(
    encoder: &mut wgpu::CommandEncoder,
    target: &wgpu::TextureView,
    background: Rgb,
    opacity: f32,
) {
    let a = opacity as f64;
    let color = wgpu::Color {
        r: background.r as f64 / 255.0 * a,
        g: background.g as f64 / 255.0 * a,
        b: background.b as f64 / 255.0 * a,
        a,
    };
    render_pass(
        encoder,
        "window background",
        target,
        wgpu::LoadOp::Clear(color),
    );
}

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

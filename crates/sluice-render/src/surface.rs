//! Presenting frames to a window: through a GPU surface ([`GpuSurface`]), or, for the
//! software renderer, through an image in shared memory ([`SoftwareSurface`]).

use sluice_term::Rgb;
use wgpu::rwh::{HasDisplayHandle, HasWindowHandle};

use crate::gpu_surface::GpuSurface;
use crate::renderer::{PaneView, Renderer};
use crate::software_surface::SoftwareSurface;

/// How a present went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Presented {
    Shown,
    /// The surface was lost, outdated or timed out; it was reconfigured. Draw again.
    Skipped,
}

/// A pane's view and where its top-left corner goes in the window, in pixels.
#[derive(Clone, Copy)]
pub struct Placed<'a> {
    pub view: &'a PaneView,
    pub x: u32,
    pub y: u32,
}

/// A window's surface, of the kind its renderer draws for.
pub enum WindowSurface<W> {
    Gpu(GpuSurface<'static>),
    Software(SoftwareSurface<W>),
}

impl<W: HasDisplayHandle + HasWindowHandle + Clone> WindowSurface<W> {
    /// The surface's size in pixels.
    pub fn size(&self) -> (u32, u32) {
        match self {
            WindowSurface::Gpu(s) => s.size(),
            WindowSurface::Software(s) => s.size(),
        }
    }

    /// Follows a window resize (or a scale factor change, which arrives as one).
    pub fn resize(&mut self, renderer: &Renderer, size: (u32, u32)) {
        match self {
            WindowSurface::Gpu(s) => {
                if let Some(gpu) = renderer.gpu() {
                    s.resize(gpu.device(), size);
                }
            }
            WindowSurface::Software(s) => s.resize(size),
        }
    }

    /// Call before drawing the frames it shows: the software surface's X server may still be
    /// reading the last frame's rows from them (a wait that is usually over at once).
    pub fn before_drawing(&mut self) {
        if let WindowSurface::Software(s) = self {
            s.before_drawing();
        }
    }

    /// Composes `panes` onto the window, each at its place, the rest of the window filled
    /// with `background`, and shows it.
    ///
    /// With `opacity` under 1 (and a GPU surface that can show it) the default background is
    /// drawn that transparent, pre-multiplied; every other colour stays opaque, as in
    /// Alacritty and kitty, so text and coloured cells stay as they are. The software
    /// surface is always opaque.
    pub fn present(
        &mut self,
        renderer: &Renderer,
        panes: &[Placed<'_>],
        background: Rgb,
        opacity: f32,
    ) -> Presented {
        match self {
            WindowSurface::Gpu(s) => match renderer.gpu() {
                Some(gpu) => s.present(gpu, panes, background, opacity),
                None => Presented::Skipped,
            },
            WindowSurface::Software(s) => s.present(panes, background),
        }
    }
}

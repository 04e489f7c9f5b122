//! Rendering with no window: for tests, benchmarks and `sluice --headless --screenshot`.

use sluice_term::Snapshot;

use crate::composite::Compositing;
use crate::error::Result;
use crate::font::FontConfig;
use crate::gpu::Gpu;
use crate::image::Image;
use crate::renderer::{FrameReport, PaneView, Renderer};

/// A renderer drawing one view, on a GPU device (into RGBA textures) or on the CPU alone.
pub struct Offscreen {
    /// `None` for the software renderer.
    pub gpu: Option<Gpu>,
    pub renderer: Renderer,
    pub view: PaneView,
}

impl Offscreen {
    /// Opens the default adapter, compositing as suits it ([`Compositing::for_adapter`]).
    /// Fails, never falls back to nothing, when there is none.
    pub fn new(fonts: &FontConfig) -> Result<Self> {
        Self::with_compositing(fonts, None)
    }

    /// The same, compositing as `compositing` says when it is given.
    pub fn with_compositing(fonts: &FontConfig, compositing: Option<Compositing>) -> Result<Self> {
        let gpu = Gpu::headless()?;
        let format = wgpu::TextureFormat::Rgba8Unorm;
        let compositing = compositing
            .unwrap_or_else(|| Compositing::for_adapter(&gpu.adapter.get_info(), format));
        let renderer = Renderer::new(&gpu.device, &gpu.queue, format, fonts, compositing)?;
        let view = renderer.new_view();
        Ok(Self {
            gpu: Some(gpu),
            renderer,
            view,
        })
    }

    /// The software renderer: no GPU device at all.
    pub fn software(fonts: &FontConfig) -> Result<Self> {
        let renderer = Renderer::software(fonts)?;
        let view = renderer.new_view();
        Ok(Self {
            gpu: None,
            renderer,
            view,
        })
    }

    /// Draws what changed in `snapshot`.
    pub fn render(&mut self, snapshot: &mut Snapshot) -> FrameReport {
        self.renderer.render(&mut self.view, snapshot)
    }

    /// Reads the view's current frame back.
    pub fn read_frame(&self) -> Result<Image> {
        self.renderer.read_frame(&self.view)
    }

    /// Draws `snapshot` and reads the whole frame back.
    pub fn render_image(&mut self, snapshot: &mut Snapshot) -> Result<Image> {
        self.render(snapshot);
        self.read_frame()
    }

    /// Waits until the GPU has finished everything submitted (for timing whole frames).
    pub fn wait_idle(&self) {
        self.renderer.wait_idle();
    }
}

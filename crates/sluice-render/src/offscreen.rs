//! Rendering with no window: for tests, benchmarks and `sluice --headless --screenshot`.

use sluice_term::Snapshot;

use crate::error::Result;
use crate::font::FontConfig;
use crate::gpu::Gpu;
use crate::image::Image;
use crate::renderer::{FrameReport, Renderer};

/// A GPU device and a renderer drawing into RGBA textures.
pub struct Offscreen {
    pub gpu: Gpu,
    pub renderer: Renderer,
}

impl Offscreen {
    /// Opens the default adapter. Fails, never falls back to nothing, when there is none.
    pub fn new(fonts: &FontConfig) -> Result<Self> {
        let gpu = Gpu::headless()?;
        let renderer = Renderer::new(
            &gpu.device,
            &gpu.queue,
            wgpu::TextureFormat::Rgba8Unorm,
            fonts,
        )?;
        Ok(Self { gpu, renderer })
    }

    /// Draws what changed in `snapshot`.
    pub fn render(&mut self, snapshot: &mut Snapshot) -> FrameReport {
        self.renderer.render(snapshot)
    }

    /// Draws `snapshot` and reads the whole frame back.
    pub fn render_image(&mut self, snapshot: &mut Snapshot) -> Result<Image> {
        self.renderer.render(snapshot);
        self.renderer.read_frame()
    }

    /// Waits until the GPU has finished everything submitted (for timing whole frames).
    pub fn wait_idle(&self) {
        let _ = self.gpu.device.poll(wgpu::PollType::Wait {
            submission_index: None,
            timeout: None,
        });
    }
}

//! Sluice's renderer: draws `sluice-term` snapshots with wgpu, or on the CPU alone where there
//! is no GPU, redrawing only what changed.
//!
//! - A persistent frame per pane holds the last frame (a texture, or memory for the software
//!   renderer); the swapchain does not keep it.
//! - Each frame draws only rows whose fingerprint changed ([`damage`]). A scroll, which the
//!   terminal reports as full damage, is found by matching fingerprints and done as one GPU
//!   copy, after which only the new rows are drawn. Each row drawn is first blanked with a
//!   copy of the default background (`blank.rs`), so only other backgrounds are shaded.
//! - Glyphs are rasterised by cosmic-text (swash) into an [`atlas`] and drawn as quads (two
//!   triangles each) placed cell by cell; box drawing and block elements are drawn by
//!   [`boxdraw`].
//! - On a GPU the quads are drawn by the cell pipeline; on a software adapter (lavapipe) the
//!   same quads are composited on the CPU and the rows copied into the frame texture
//!   ([`Compositing`], composite.rs), which costs a fraction of lavapipe's rasteriser.
//! - The software renderer ([`Renderer::software`]) composites the same quads into frames in
//!   memory and shows them through an image shared with the window system
//!   ([`SoftwareSurface`]): no GPU driver at all, and only changed rows handed over.
//! - Frames can be read back as images ([`Renderer::read_frame`]) for tests and screenshots,
//!   or presented to a window ([`WindowSurface`]).

mod ascii_glyphs;
pub mod atlas;
mod blank;
pub mod boxdraw;
mod composite;
pub mod damage;
mod decorations;
mod device_nodes;
mod error;
pub mod font;
mod frame;
mod gpu;
mod gpu_backend;
mod gpu_rows;
mod gpu_surface;
mod image;
mod offscreen;
mod pipeline;
mod renderer;
mod rows;
mod shared_memory;
mod software_surface;
mod surface;
mod tiles;
mod x11_presenter;

pub use composite::{COMPOSITING_ENV, Compositing};
pub use damage::OverlayColors;
pub use decorations::{Decorations, Label, Mark};
pub use device_nodes::has_gpu_device_node;
pub use error::{Error, Result};
pub use font::{CellMetrics, FaceStyle, FontConfig};
pub use gpu::Gpu;
pub use gpu_surface::{GpuSurface, preferred_format};
pub use image::Image;
pub use offscreen::Offscreen;
pub use renderer::{BackendKind, FrameReport, PaneView, Renderer};
pub use software_surface::SoftwareSurface;
pub use surface::{Placed, Presented, WindowSurface};
pub use wgpu;

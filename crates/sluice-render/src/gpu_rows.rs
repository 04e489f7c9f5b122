//! Drawing rows with the GPU: each row blanked by a copy, then its quads drawn by the cell
//! pipeline (`shaders/cell.wgsl`) in one indexed draw.

use sluice_term::Rgb;
use wgpu::util::DeviceExt;

use crate::blank::BlankRow;
use crate::frame::FrameRing;
use crate::pipeline::{PipelineSpec, render_pass, render_pipeline};
use crate::rows::{QUAD_INDICES, QUAD_VERTICES, Vertex, quad_indices};

/// The cell pipeline and its buffers, shared by every view.
pub(crate) struct GpuRows {
    pipeline: wgpu::RenderPipeline,
    /// The quads' corners ([`QUAD_VERTICES`] each), rewritten every frame.
    vertices: wgpu::Buffer,
    /// Two triangles per quad; the same for every frame, so written only when it grows.
    indices: wgpu::Buffer,
    /// Quads the two buffers hold.
    quad_capacity: usize,
    /// Copied under each row before it is drawn.
    blank: BlankRow,
}

impl GpuRows {
    pub(crate) fn new(
        device: &wgpu::Device,
        bind_group_layout: &wgpu::BindGroupLayout,
        format: wgpu::TextureFormat,
    ) -> Self {
        let attributes = wgpu::vertex_attr_array![
            0 => Float32x2, 1 => Float32x2, 2 => Float32x4, 3 => Uint32
        ];
        let pipeline = render_pipeline(
            device,
            bind_group_layout,
            PipelineSpec {
                label: "cell pipeline",
                wgsl: include_str!("../shaders/cell.wgsl"),
                buffers: &[Some(wgpu::VertexBufferLayout {
                    array_stride: std::mem::size_of::<Vertex>() as u64,
                    step_mode: wgpu::VertexStepMode::Vertex,
                    attributes: &attributes,
                })],
                format,
                blend: Some(wgpu::BlendState::PREMULTIPLIED_ALPHA_BLENDING),
                topology: wgpu::PrimitiveTopology::TriangleList,
            },
        );
        let quad_capacity = 4096;
        let (vertices, indices) = quad_buffers(device, quad_capacity);
        Self {
            pipeline,
            vertices,
            indices,
            quad_capacity,
            blank: BlankRow::new(format),
        }
    }

    /// Records drawing `rows` (viewport rows of `ring`) into `texture`, whose quads are
    /// `vertices`: each row blanked to `background` by a copy, then every quad in one draw.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn draw(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        encoder: &mut wgpu::CommandEncoder,
        (ring, texture, view, bind_group): (
            &FrameRing,
            &wgpu::Texture,
            &wgpu::TextureView,
            &wgpu::BindGroup,
        ),
        rows: &[usize],
        vertices: &[Vertex],
        background: Rgb,
    ) {
        let quads = vertices.len() / QUAD_VERTICES;
        if quads > self.quad_capacity {
            self.quad_capacity = quads.next_power_of_two();
            (self.vertices, self.indices) = quad_buffers(device, self.quad_capacity);
        }
        queue.write_buffer(&self.vertices, 0, bytemuck::cast_slice(vertices));
        // Every row drawn starts blank: its default background is copied, not shaded (blank.rs).
        let row_height = ring.row_height;
        self.blank
            .prepare(device, encoder, (ring.width, row_height), background);
        for &row in rows {
            self.blank
                .copy_over(encoder, texture, ring.top_of(row), row_height);
        }
        let mut pass = render_pass(encoder, "rows", view, wgpu::LoadOp::Load);
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, bind_group, &[]);
        pass.set_vertex_buffer(0, self.vertices.slice(..));
        pass.set_index_buffer(self.indices.slice(..), wgpu::IndexFormat::Uint32);
        pass.draw_indexed(0..(quads * QUAD_INDICES) as u32, 0, 0..1);
    }
}

/// A vertex buffer for `quads` quads, and the index buffer that draws them.
fn quad_buffers(device: &wgpu::Device, quads: usize) -> (wgpu::Buffer, wgpu::Buffer) {
    let vertices = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("cell vertices"),
        size: (quads * QUAD_VERTICES * std::mem::size_of::<Vertex>()) as u64,
        usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let pattern: Vec<u32> = (0..quads as u32).flat_map(quad_indices).collect();
    let indices = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("cell indices"),
        contents: bytemuck::cast_slice(&pattern),
        usage: wgpu::BufferUsages::INDEX,
    });
    (vertices, indices)
}

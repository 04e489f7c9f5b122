//! Each row is blanked by a copy before it is drawn: the default background is copied, not
//! shaded.
//!
//! On software rendering (lavapipe) a frame costs what it shades: `frame-cpu` full redraws of
//! coloured text took 20 ms of process CPU for 1.5 M pixels (160×50, 2,801 quads) and 54 ms
//! for 4.6 M (300×80, 3,940 quads), about 12 ns a pixel whatever the number of quads, and the
//! background quads, which covered every pixel of every row, were most of those pixels. A
//! texture copy there is a memcpy (as `WindowSurface::copy_pane` found for presenting), and on
//! a GPU a blit. So every row drawn first gets a copy of a row of the default background, and
//! only backgrounds of other colours are drawn as quads (`RowBuilder::build`). The measured
//! effect is in docs/performance.md ("Frame cost on software rendering").

use sluice_term::Rgb;

use crate::pipeline::render_pass;

/// A texture one row high, filled with the default background, copied under each row drawn.
pub(crate) struct BlankRow {
    /// The frames' format, which a copy into them must have.
    format: wgpu::TextureFormat,
    texture: Option<wgpu::Texture>,
    /// Its size in pixels.
    size: (u32, u32),
    /// The colour it was last filled with.
    color: Option<Rgb>,
}

impl BlankRow {
    pub fn new(format: wgpu::TextureFormat) -> Self {
        Self {
            format,
            texture: None,
            size: (0, 0),
            color: None,
        }
    }

    /// Makes the blank row at least `width × height` pixels of `color`, recording the fill (if
    /// one is needed) in `encoder`, ahead of the copies that follow it.
    pub fn prepare(
        &mut self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        (width, height): (u32, u32),
        color: Rgb,
    ) {
        if self.texture.is_none() || width > self.size.0 || height > self.size.1 {
            // Grown to the widest frame asked for, so panes of different widths share it.
            self.size = (width.max(self.size.0), height.max(self.size.1));
            self.texture = Some(device.create_texture(&wgpu::TextureDescriptor {
                label: Some("blank row"),
                size: wgpu::Extent3d {
                    width: self.size.0,
                    height: self.size.1,
                    depth_or_array_layers: 1,
                },
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format: self.format,
                usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
                view_formats: &[],
            }));
            self.color = None;
        }
        if self.color == Some(color) {
            return;
        }
        self.color = Some(color);
        let texture = self.texture.as_ref().expect("made above");
        let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
        // A clear converts the colour to the texture's format as the cell shader's output is
        // converted, so a blanked cell and one drawn in the same colour are the same pixels
        // (the damage-equals-full-redraw test holds them to it).
        render_pass(
            encoder,
            "blank row",
            &view,
            wgpu::LoadOp::Clear(opaque(color)),
        );
    }

    /// Records copying the blank row over the `height` pixels of `target` from `y` down, its
    /// whole width (both at most what was prepared).
    pub fn copy_over(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        target: &wgpu::Texture,
        y: u32,
        height: u32,
    ) {
        let Some(texture) = &self.texture else {
            return;
        };
        let width = self.size.0.min(target.width());
        let height = height
            .min(self.size.1)
            .min(target.height().saturating_sub(y));
        if width == 0 || height == 0 {
            return;
        }
        encoder.copy_texture_to_texture(
            texture.as_image_copy(),
            wgpu::TexelCopyTextureInfo {
                texture: target,
                mip_level: 0,
                origin: wgpu::Origin3d { x: 0, y, z: 0 },
                aspect: wgpu::TextureAspect::All,
            },
            wgpu::Extent3d {
                width,
                height,
                depth_or_array_layers: 1,
            },
        );
    }
}

/// `color` as a clear colour, fully opaque (what the solid quads drew for it).
fn opaque(color: Rgb) -> wgpu::Color {
    wgpu::Color {
        r: f64::from(color.r) / 255.0,
        g: f64::from(color.g) / 255.0,
        b: f64::from(color.b) / 255.0,
        a: 1.0,
    }
}

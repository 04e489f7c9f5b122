//! Frames as RGBA images: GPU readback and PNG files.

use std::path::Path;

use crate::error::{Error, Result};

/// An RGBA8 image, rows top to bottom.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Image {
    pub width: u32,
    pub height: u32,
    pub rgba: Vec<u8>,
}

impl Image {
    /// The pixel at (x, y).
    pub fn pixel(&self, x: u32, y: u32) -> [u8; 4] {
        let i = ((y * self.width + x) * 4) as usize;
        [
            self.rgba[i],
            self.rgba[i + 1],
            self.rgba[i + 2],
            self.rgba[i + 3],
        ]
    }

    /// An image of `width × height` pixels given as native `u32`s `0xAARRGGBB`, lines top to
    /// bottom (the software renderer's frames).
    pub fn from_argb(width: u32, height: u32, pixels: &[u32]) -> Self {
        let rgba = pixels
            .iter()
            .take((width * height) as usize)
            .flat_map(|&p| {
                let [a, r, g, b] = p.to_be_bytes();
                [r, g, b, a]
            })
            .collect();
        Image {
            width,
            height,
            rgba,
        }
    }

    /// Writes the image as a PNG file.
    pub fn save_png(&self, path: &Path) -> Result<()> {
        let file = std::fs::File::create(path)
            .map_err(|e| Error::Image(format!("{}: {e}", path.display())))?;
        let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), self.width, self.height);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder
            .write_header()
            .map_err(|e| Error::Image(e.to_string()))?;
        writer
            .write_image_data(&self.rgba)
            .map_err(|e| Error::Image(e.to_string()))
    }
}

/// Copies a texture into a buffer, waits for it, and returns it as RGBA.
pub(crate) fn read_texture(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    texture: &wgpu::Texture,
    format: wgpu::TextureFormat,
) -> Result<Image> {
    let (width, height) = (texture.width(), texture.height());
    // Rows of a buffer copy must be a multiple of 256 bytes.
    let row_bytes = width * 4;
    let padded =
        row_bytes.div_ceil(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT) * wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
    let buffer = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("readback"),
        size: (padded * height) as u64,
        usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
        mapped_at_creation: false,
    });
    let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
        label: Some("readback"),
    });
    encoder.copy_texture_to_buffer(
        wgpu::TexelCopyTextureInfo {
            texture,
            mip_level: 0,
            origin: wgpu::Origin3d::ZERO,
            aspect: wgpu::TextureAspect::All,
        },
        wgpu::TexelCopyBufferInfo {
            buffer: &buffer,
            layout: wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(padded),
                rows_per_image: Some(height),
            },
        },
        wgpu::Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        },
    );
    queue.submit([encoder.finish()]);
    let slice = buffer.slice(..);
    let (tx, rx) = std::sync::mpsc::channel();
    slice.map_async(wgpu::MapMode::Read, move |r| {
        let _ = tx.send(r);
    });
    device
        .poll(wgpu::PollType::Wait {
            submission_index: None,
            timeout: None,
        })
        .map_err(|e| Error::Readback(e.to_string()))?;
    rx.recv()
        .map_err(|e| Error::Readback(e.to_string()))?
        .map_err(|e| Error::Readback(e.to_string()))?;
    let data = slice
        .get_mapped_range()
        .map_err(|e| Error::Readback(e.to_string()))?;
    let mut rgba = Vec::with_capacity((row_bytes * height) as usize);
    for row in data.chunks(padded as usize).take(height as usize) {
        rgba.extend_from_slice(&row[..row_bytes as usize]);
    }
    drop(data);
    buffer.unmap();
    if matches!(
        format,
        wgpu::TextureFormat::Bgra8Unorm | wgpu::TextureFormat::Bgra8UnormSrgb
    ) {
        for pixel in rgba.chunks_exact_mut(4) {
            pixel.swap(0, 2);
        }
    }
    Ok(Image {
        width,
        height,
        rgba,
    })
}

//! The glyph atlas: one RGBA texture holding every glyph and sprite drawn so far (or, when
//! rows are composited on the CPU, with wgpu or by the software renderer, the same pixels in
//! memory).
//!
//! Mask glyphs (ordinary text) are stored as coverage in all four channels and tinted by the
//! shader; colour glyphs (emoji) are stored premultiplied. The atlas starts small and doubles
//! when it fills up, to [`MAX_ATLAS_SIZE`]; full at that size, it is cleared and what is on
//! screen drawn again: simpler than eviction, and rare (2048² holds thousands of glyphs at
//! usual sizes). Either way the rows already in the panes' frame textures stay as they are.

use std::hash::Hash;

use cosmic_text::{CacheKey, SwashContent, SwashImage};
use etagere::{AtlasAllocator, size2};
use rustc_hash::FxHashMap;

use crate::composite::{AtlasPixels, MASK_GROUP};

/// Side of the square atlas texture at first, in pixels: 1 MiB, which holds the ASCII of
/// four styles at 10–14 pt several times over. A 2048² atlas from the start was 16 MiB of
/// resident memory in every Sluice (the texture is zeroed on first use, and on software
/// rendering it is host memory): 13% of an idle window's RSS (docs/performance.md, "Memory").
pub const INITIAL_ATLAS_SIZE: u32 = 512;

/// The largest the atlas grows to (16 MiB), past which it is cleared instead.
pub const MAX_ATLAS_SIZE: u32 = 2048;

/// A CPU-side image waiting to go into the atlas.
#[derive(Debug, Clone, PartialEq)]
pub struct Bitmap {
    pub width: u32,
    pub height: u32,
    /// Offset of the image's left edge from the pen position.
    pub left: i32,
    /// Offset of the image's top edge above the baseline (glyphs) or below the cell top when
    /// negative (sprites use `top = 0` and are placed at the cell's top-left corner).
    pub top: i32,
    /// RGBA8: coverage in every channel for masks, premultiplied colour otherwise.
    pub data: Vec<u8>,
    pub color: bool,
}

impl Bitmap {
    /// A coverage mask from one byte per pixel.
    pub fn from_mask(width: u32, height: u32, coverage: &[u8]) -> Self {
        let data = coverage.iter().flat_map(|&a| [a, a, a, a]).collect();
        Self {
            width,
            height,
            left: 0,
            top: 0,
            data,
            color: false,
        }
    }

    /// Converts a rasterised glyph.
    pub fn from_swash(image: &SwashImage) -> Self {
        let (width, height) = (image.placement.width, image.placement.height);
        let (data, color) = match image.content {
            SwashContent::Mask => (
                image.data.iter().flat_map(|&a| [a, a, a, a]).collect(),
                false,
            ),
            // Subpixel masks are averaged: a terminal cannot know the panel's subpixel order.
            SwashContent::SubpixelMask => (
                image
                    .data
                    .chunks_exact(4)
                    .flat_map(|p| {
                        let a = ((p[0] as u16 + p[1] as u16 + p[2] as u16) / 3) as u8;
                        [a, a, a, a]
                    })
                    .collect(),
                false,
            ),
            SwashContent::Color => (
                image
                    .data
                    .chunks_exact(4)
                    .flat_map(|p| {
                        let premultiply = |c: u8| ((c as u16 * p[3] as u16 + 127) / 255) as u8;
                        [
                            premultiply(p[0]),
                            premultiply(p[1]),
                            premultiply(p[2]),
                            p[3],
                        ]
                    })
                    .collect(),
                true,
            ),
        };
        Self {
            width,
            height,
            left: image.placement.left,
            top: image.placement.top,
            data,
            color,
        }
    }
}

/// Where an image sits in the atlas, and how to place it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AtlasEntry {
    pub x: u32,
    pub y: u32,
    pub width: u32,
    pub height: u32,
    pub left: i32,
    pub top: i32,
    pub color: bool,
}

/// What an atlas entry was made from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AtlasKey {
    Glyph(CacheKey),
    /// A sprite drawn by Sluice itself (box drawing, underline styles), by its kind and code.
    Sprite(u32),
}

/// The atlas is full; clear it and draw everything again.
#[derive(Debug)]
pub struct AtlasFull;

pub struct Atlas {
    store: AtlasStore,
    allocator: AtlasAllocator,
    /// `None`: the image is empty (a space), nothing to draw.
    entries: FxHashMap<AtlasKey, Option<AtlasEntry>>,
    size: u32,
    /// Counts the stores made: a view bound to an older texture must be bound again.
    generation: u64,
}

/// Where the atlas's pixels are: in the texture the cell pipeline samples, or in memory for
/// rows composited on the CPU (with wgpu, or by the software renderer). Never both: the
/// texture that used to be made beside the memory was never written or read.
enum AtlasStore {
    Texture {
        device: wgpu::Device,
        queue: wgpu::Queue,
        texture: wgpu::Texture,
        view: wgpu::TextureView,
    },
    /// RGBA8, `size` pixels square.
    Memory(Vec<u8>),
}

/// Where a new atlas keeps its pixels.
#[derive(Clone)]
pub(crate) enum AtlasPlace {
    /// A texture of this device, written through this queue.
    Texture(wgpu::Device, wgpu::Queue),
    Memory,
}

impl AtlasStore {
    fn new(place: &AtlasPlace, size: u32) -> Self {
        let AtlasPlace::Texture(device, queue) = place else {
            return AtlasStore::Memory(vec![0; (size * size * 4) as usize]);
        };
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("glyph atlas"),
            size: wgpu::Extent3d {
                width: size,
                height: size,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: wgpu::TextureFormat::Rgba8Unorm,
            usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
            view_formats: &[],
        });
        let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
        AtlasStore::Texture {
            device: device.clone(),
            queue: queue.clone(),
            texture,
            view,
        }
    }

    fn place(&self) -> AtlasPlace {
        match self {
            AtlasStore::Texture { device, queue, .. } => {
                AtlasPlace::Texture(device.clone(), queue.clone())
            }
            AtlasStore::Memory(_) => AtlasPlace::Memory,
        }
    }
}

impl Atlas {
    /// An empty atlas keeping its pixels in `place`.
    pub(crate) fn new(place: AtlasPlace) -> Self {
        Self::with_size(&place, INITIAL_ATLAS_SIZE, 1)
    }

    fn with_size(place: &AtlasPlace, size: u32, generation: u64) -> Self {
        Self {
            store: AtlasStore::new(place, size),
            allocator: AtlasAllocator::new(size2(size as i32, size as i32)),
            entries: FxHashMap::default(),
            size,
            generation,
        }
    }

    /// The side of the texture, in pixels.
    pub fn size(&self) -> u32 {
        self.size
    }

    /// Changes whenever a place in the atlas may come to hold another glyph: when it grows
    /// (a new texture) and when it is cleared.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Replaces a full atlas by an empty one twice its size; false, changing nothing, if it is
    /// already at [`MAX_ATLAS_SIZE`]. The caller redraws what it was drawing.
    pub fn grow(&mut self) -> bool {
        if self.size >= MAX_ATLAS_SIZE {
            return false;
        }
        *self = Self::with_size(&self.store.place(), self.size * 2, self.generation + 1);
        true
    }

    /// The entry for `key`, rasterising and uploading it with `make` the first time.
    pub fn get_or_insert(
        &mut self,
        key: AtlasKey,
        make: impl FnOnce() -> Option<Bitmap>,
    ) -> Result<Option<AtlasEntry>, AtlasFull> {
        if let Some(entry) = self.entries.get(&key) {
            return Ok(*entry);
        }
        let entry = match make() {
            Some(bitmap) if bitmap.width > 0 && bitmap.height > 0 => Some(self.upload(&bitmap)?),
            _ => None,
        };
        self.entries.insert(key, entry);
        Ok(entry)
    }

    fn upload(&mut self, bitmap: &Bitmap) -> Result<AtlasEntry, AtlasFull> {
        // One pixel of padding keeps linear sampling from bleeding in a neighbour; a mask's
        // lines are zero up to a whole group of pixels, which the CPU blends at once
        // (composite.rs, `MASK_GROUP`).
        let width = if bitmap.color {
            bitmap.width
        } else {
            bitmap.width.next_multiple_of(MASK_GROUP)
        };
        let allocation = self
            .allocator
            .allocate(size2(width as i32 + 1, bitmap.height as i32 + 1))
            .ok_or(AtlasFull)?;
        let (x, y) = (
            allocation.rectangle.min.x as u32,
            allocation.rectangle.min.y as u32,
        );
        match &mut self.store {
            AtlasStore::Memory(pixels) => {
                let stride = (self.size * 4) as usize;
                let row = (bitmap.width * 4) as usize;
                let zeroed = (width * 4) as usize;
                for (line, source) in bitmap.data.chunks_exact(row).enumerate() {
                    let at = (y as usize + line) * stride + x as usize * 4;
                    pixels[at..at + row].copy_from_slice(source);
                    // What a glyph cleared from the atlas left there must not show.
                    pixels[at + row..at + zeroed].fill(0);
                }
            }
            AtlasStore::Texture { queue, texture, .. } => {
                write_texture(queue, texture, bitmap, x, y)
            }
        }
        Ok(AtlasEntry {
            x,
            y,
            width: bitmap.width,
            height: bitmap.height,
            left: bitmap.left,
            top: bitmap.top,
            color: bitmap.color,
        })
    }

    /// The pixels, when the atlas is kept in memory.
    pub(crate) fn pixels(&self) -> Option<AtlasPixels<'_>> {
        match &self.store {
            AtlasStore::Memory(data) => Some(AtlasPixels {
                data,
                size: self.size,
                generation: self.generation,
            }),
            AtlasStore::Texture { .. } => None,
        }
    }

    /// The texture the cell pipeline samples, when the atlas is kept in one.
    pub(crate) fn texture_view(&self) -> Option<&wgpu::TextureView> {
        match &self.store {
            AtlasStore::Texture { view, .. } => Some(view),
            AtlasStore::Memory(_) => None,
        }
    }

    /// Forgets everything; the caller redraws the whole frame. A new generation: the places
    /// glyphs had are given to others.
    pub fn clear(&mut self) {
        self.allocator.clear();
        self.entries.clear();
        self.generation += 1;
    }
}

fn write_texture(queue: &wgpu::Queue, texture: &wgpu::Texture, bitmap: &Bitmap, x: u32, y: u32) {
    queue.write_texture(
        wgpu::TexelCopyTextureInfo {
            texture,
            mip_level: 0,
            origin: wgpu::Origin3d { x, y, z: 0 },
            aspect: wgpu::TextureAspect::All,
        },
        &bitmap.data,
        wgpu::TexelCopyBufferLayout {
            offset: 0,
            bytes_per_row: Some(bitmap.width * 4),
            rows_per_image: None,
        },
        wgpu::Extent3d {
            width: bitmap.width,
            height: bitmap.height,
            depth_or_array_layers: 1,
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mask(width: u32, height: u32, coverage: u8) -> Bitmap {
        Bitmap::from_mask(width, height, &vec![coverage; (width * height) as usize])
    }

    #[test]
    fn a_mask_in_memory_is_zero_up_to_a_whole_group_even_over_what_a_clear_left() {
        let mut atlas = Atlas::new(AtlasPlace::Memory);
        let wide = atlas
            .get_or_insert(AtlasKey::Sprite(1), || Some(mask(20, 3, 255)))
            .unwrap()
            .unwrap();
        atlas.clear();
        let narrow = atlas
            .get_or_insert(AtlasKey::Sprite(2), || Some(mask(5, 3, 200)))
            .unwrap()
            .unwrap();
        assert_eq!((narrow.x, narrow.y), (wide.x, wide.y), "the same place");
        let pixels = atlas.pixels().unwrap();
        for line in 0..3 {
            let at = |x: u32| pixels.data[((line * pixels.size + x) * 4 + 3) as usize];
            assert!((0..5).all(|x| at(x) == 200), "the glyph, line {line}");
            assert!(
                (5..MASK_GROUP).all(|x| at(x) == 0),
                "zero up to the group, line {line}"
            );
        }
    }
}

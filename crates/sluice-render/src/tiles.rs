//! Glyph tiles: a glyph's mask already blended over a plain background, kept for the frames
//! that draw it again.
//!
//! On the software renderer blending masks was the largest part of a full redraw (37% of the
//! UI thread during a Metro-like build, `perf record`, 2026-12-03), and a terminal draws the
//! same few hundred glyphs in the same few colours over the same background, frame after
//! frame. A blended pixel depends on nothing but the pixel under it, the texel and the colour,
//! so a quad drawn over pixels that are all one colour gives the same pixels each time its
//! glyph, colour and that background meet again: the tile of the first time is copied instead
//! (docs/performance.md, "Glyph tiles").
//!
//! A tile is only used where every pixel under the quad is the background it was made over
//! (checked before each use, so a glyph that overhangs its neighbour's cell is blended as
//! before), and only for the atlas generation it was made from: the atlas reuses its places
//! once cleared, and starts afresh when it grows ([`crate::atlas::Atlas::generation`]).
//!
//! The software renderer keeps one set for all its panes, and so does CPU compositing into GPU
//! textures (the GPU backend on a software adapter, which translucent windows use).

/// Slots in the table, each holding the last tile whose key hashed there. A screen of text in
/// a handful of colours meets a few hundred keys (printable ASCII in the default colours is
/// 95); 1,024 slots keep the misses from slots shared by two keys in use rare.
const SLOTS: usize = 1024;

/// Tiles larger than this many pixels are not kept (a glyph of about 32×32 pixels, 24 pt):
/// past it the copy saves less, and large fonts would spend the budget on few glyphs.
const MAX_TILE_PIXELS: usize = 1024;

/// The most memory the tiles may hold, in bytes. At 10 pt a tile is 8×15 pixels (480 bytes),
/// so 1 MiB holds every slot several times over; at 24 pt it holds about 256 tiles.
const BUDGET_BYTES: usize = 1 << 20;

/// What a tile's pixels are a function of: the atlas texels (the first line's first texel, and
/// the extent), the colour that tints them (as the frame stores it) and the pixel under them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TileKey {
    pub texel: u32,
    pub width: u16,
    pub height: u16,
    pub color: u32,
    pub under: u32,
}

impl TileKey {
    fn slot(&self) -> usize {
        // Fx-style mixing of the fields: cheap, and spreads keys that differ in one field.
        const K: u64 = 0xf135_7aea_2e62_a9c5;
        let mut h = u64::from(self.texel);
        for part in [
            u64::from(self.width) << 16 | u64::from(self.height),
            u64::from(self.color),
            u64::from(self.under),
        ] {
            h = (h.rotate_left(5) ^ part).wrapping_mul(K);
        }
        (h >> 54) as usize % SLOTS
    }
}

struct Tile {
    key: TileKey,
    /// `key.height` lines of `key.width` pixels.
    pixels: Vec<u32>,
}

/// The tiles of one renderer, for one atlas generation.
pub(crate) struct GlyphTiles {
    slots: Vec<Option<Tile>>,
    bytes: usize,
    generation: u64,
    hits: u64,
    misses: u64,
}

impl Default for GlyphTiles {
    fn default() -> Self {
        Self {
            slots: (0..SLOTS).map(|_| None).collect(),
            bytes: 0,
            generation: 0,
            hits: 0,
            misses: 0,
        }
    }
}

impl GlyphTiles {
    /// Forgets every tile unless they were made from atlas `generation`.
    pub(crate) fn for_atlas(&mut self, generation: u64) {
        if generation != self.generation {
            self.slots.iter_mut().for_each(|slot| *slot = None);
            self.bytes = 0;
            self.generation = generation;
        }
    }

    /// Whether a tile of `width × height` pixels would be kept.
    pub(crate) fn keeps(width: usize, height: usize) -> bool {
        width * height <= MAX_TILE_PIXELS
    }

    /// The pixels of the tile for `key`, if one is kept.
    pub(crate) fn get(&mut self, key: &TileKey) -> Option<&[u32]> {
        match &self.slots[key.slot()] {
            Some(tile) if tile.key == *key => {
                self.hits += 1;
                Some(&tile.pixels)
            }
            _ => {
                self.misses += 1;
                None
            }
        }
    }

    /// Keeps `pixels` (`key.height` lines of `key.width`, given one line at a time) as the tile
    /// for `key`, in place of whatever shared its slot, while the budget allows.
    pub(crate) fn insert<'l>(&mut self, key: TileKey, lines: impl Iterator<Item = &'l [u32]>) {
        let len = usize::from(key.width) * usize::from(key.height);
        let slot = &mut self.slots[key.slot()];
        let freed = slot.as_ref().map_or(0, |tile| tile.pixels.capacity() * 4);
        if self.bytes - freed + len * 4 > BUDGET_BYTES {
            return;
        }
        let mut pixels = slot.take().map(|tile| tile.pixels).unwrap_or_default();
        pixels.clear();
        lines.for_each(|line| pixels.extend_from_slice(line));
        debug_assert_eq!(pixels.len(), len);
        self.bytes = self.bytes - freed + pixels.capacity() * 4;
        *slot = Some(Tile { key, pixels });
    }

    /// Tiles used, and lookups that found none, since the renderer began.
    pub(crate) fn counts(&self) -> (u64, u64) {
        (self.hits, self.misses)
    }

    /// The memory the tiles hold, in bytes.
    #[cfg(test)]
    pub(crate) fn bytes(&self) -> usize {
        self.bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(texel: u32, color: u32) -> TileKey {
        TileKey {
            texel,
            width: 8,
            height: 15,
            color,
            under: 0xff00_0000,
        }
    }

    #[test]
    fn a_tile_is_found_by_its_whole_key_only() {
        let mut tiles = GlyphTiles::default();
        tiles.for_atlas(1);
        let line = [7u32; 8];
        tiles.insert(key(40, 1), std::iter::repeat_n(&line[..], 15));
        assert_eq!(tiles.get(&key(40, 1)).map(<[u32]>::len), Some(120));
        assert!(tiles.get(&key(40, 2)).is_none(), "another colour");
        assert!(tiles.get(&key(41, 1)).is_none(), "another glyph");
        let mut other_under = key(40, 1);
        other_under.under = 0xff11_2233;
        assert!(tiles.get(&other_under).is_none(), "another background");
        assert_eq!(tiles.counts(), (1, 3));
    }

    #[test]
    fn a_new_atlas_generation_forgets_every_tile() {
        let mut tiles = GlyphTiles::default();
        tiles.for_atlas(1);
        tiles.insert(key(40, 1), std::iter::repeat_n(&[0u32; 8][..], 15));
        tiles.for_atlas(1);
        assert!(tiles.get(&key(40, 1)).is_some());
        tiles.for_atlas(2);
        assert!(tiles.get(&key(40, 1)).is_none());
        assert_eq!(tiles.bytes(), 0);
    }

    #[test]
    fn the_tiles_stay_within_their_budget_however_many_keys_come() {
        let mut tiles = GlyphTiles::default();
        tiles.for_atlas(1);
        let line = [0u32; 32];
        for texel in 0..20_000 {
            let key = TileKey {
                texel,
                width: 32,
                height: 32,
                color: texel * 7,
                under: 0,
            };
            tiles.insert(key, std::iter::repeat_n(&line[..], 32));
        }
        assert!(tiles.bytes() <= BUDGET_BYTES, "{} bytes", tiles.bytes());
        assert!(tiles.bytes() > BUDGET_BYTES / 2, "the budget is used");
    }
}

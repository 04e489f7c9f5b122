//! Where each printable ASCII character's glyph is in the atlas, by style, in one load.
//!
//! A cell's glyph is found through two caches keyed by hash: the shaped glyphs of
//! `(char, style, wide)` in [`Fonts`](crate::font::Fonts), copied out because rasterising
//! borrows the fonts again, then the glyph's place in the [`Atlas`](crate::atlas::Atlas). For
//! the cells of a build's log or a shell's output, nearly all ASCII, that was a fifth of the
//! UI thread when every frame redraws the whole screen (a Metro-like build at 200×60, `perf
//! record -t` on the window's main thread: `RowBuilder::glyph` 22% with what it calls;
//! docs/performance.md, "Frames of a build's log"). Here the answer for a narrow ASCII cell
//! without combining marks is one array element, filled the first time through the caches.
//!
//! What a slot holds is only true for the atlas it was read from: a slot names a place in the
//! atlas, and a font change clears the atlas (`Renderer::set_font`), so the slots are emptied
//! whenever the atlas's generation moves (it grew or was cleared).

use crate::atlas::AtlasEntry;
use crate::font::GlyphStyle;

/// The four styles a glyph is shaped in.
const STYLES: usize = 4;

/// What is known about one `(character, style)`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Slot {
    /// Not looked up since the atlas's generation last moved.
    Unknown,
    /// One glyph, `offset` from the cell's left edge and baseline; `None`: nothing to draw.
    One {
        entry: Option<AtlasEntry>,
        offset: [i32; 2],
    },
    /// Shaped as no glyph or several: looked up through the caches each time.
    Other,
}

/// The slots, with the atlas generation they were filled in.
pub(crate) struct AsciiGlyphs {
    generation: u64,
    slots: Box<[Slot; 128 * STYLES]>,
}

impl Default for AsciiGlyphs {
    fn default() -> Self {
        Self {
            generation: 0,
            slots: Box::new([Slot::Unknown; 128 * STYLES]),
        }
    }
}

impl AsciiGlyphs {
    /// The slot of `c` in `style`, for an atlas of `generation`; `None` for a character that
    /// is not ASCII.
    #[inline]
    pub(crate) fn slot(
        &mut self,
        generation: u64,
        c: char,
        style: GlyphStyle,
    ) -> Option<&mut Slot> {
        if !c.is_ascii() {
            return None;
        }
        if generation != self.generation {
            self.slots.fill(Slot::Unknown);
            self.generation = generation;
        }
        let index = (c as usize) * STYLES + style.bold as usize * 2 + style.italic as usize;
        Some(&mut self.slots[index])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLAIN: GlyphStyle = GlyphStyle {
        bold: false,
        italic: false,
    };
    const BOLD: GlyphStyle = GlyphStyle {
        bold: true,
        italic: false,
    };

    fn one(x: u32) -> Slot {
        let entry = AtlasEntry {
            x,
            y: 0,
            width: 7,
            height: 12,
            left: 0,
            top: 10,
            color: false,
        };
        Slot::One {
            entry: Some(entry),
            offset: [0, 0],
        }
    }

    #[test]
    fn each_character_and_style_has_its_own_slot() {
        let mut glyphs = AsciiGlyphs::default();
        *glyphs.slot(1, 'a', PLAIN).unwrap() = one(1);
        *glyphs.slot(1, 'a', BOLD).unwrap() = one(2);
        *glyphs.slot(1, 'b', PLAIN).unwrap() = Slot::Other;
        assert_eq!(*glyphs.slot(1, 'a', PLAIN).unwrap(), one(1));
        assert_eq!(*glyphs.slot(1, 'a', BOLD).unwrap(), one(2));
        assert_eq!(*glyphs.slot(1, 'b', PLAIN).unwrap(), Slot::Other);
        assert_eq!(*glyphs.slot(1, 'c', PLAIN).unwrap(), Slot::Unknown);
        assert!(glyphs.slot(1, 'é', PLAIN).is_none());
        assert!(glyphs.slot(1, '─', PLAIN).is_none());
    }

    #[test]
    fn a_new_atlas_generation_forgets_every_slot() {
        let mut glyphs = AsciiGlyphs::default();
        *glyphs.slot(1, 'a', PLAIN).unwrap() = one(1);
        *glyphs.slot(1, '~', BOLD).unwrap() = Slot::Other;
        assert_eq!(*glyphs.slot(2, 'a', PLAIN).unwrap(), Slot::Unknown);
        assert_eq!(*glyphs.slot(2, '~', BOLD).unwrap(), Slot::Unknown);
    }
}

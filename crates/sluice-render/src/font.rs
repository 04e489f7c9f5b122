//! Fonts: the cell size, and which glyphs draw a cell's text.
//!
//! Glyphs are placed cell by cell, never by shaping a whole row: a fallback font's CJK glyph
//! is about 1.66 cells wide and an emoji about 2.07, so a shaped row drifts off the grid after
//! the first one. Each distinct cell text is shaped once with cosmic-text and remembered.

use rustc_hash::FxHashMap;

use cosmic_text::fontdb::{self, Family, Query, Source};
use cosmic_text::{
    Attrs, Buffer, CacheKey, FontSystem, Metrics, Shaping, Style, SwashCache, SwashImage, Weight,
};

use crate::error::{Error, Result};

/// The font Sluice ships, so it looks the same on a machine with no fonts installed.
const BUNDLED: &[&[u8]] = &[
    include_bytes!("../fonts/DejaVuSansMono.ttf"),
    include_bytes!("../fonts/DejaVuSansMono-Bold.ttf"),
    include_bytes!("../fonts/DejaVuSansMono-Oblique.ttf"),
    include_bytes!("../fonts/DejaVuSansMono-BoldOblique.ttf"),
];
const BUNDLED_FAMILY: &str = "DejaVu Sans Mono";

/// Colour emoji are looked for here before any other fallback: cosmic-text's own fallback
/// picks a monochrome DejaVu glyph for 😀 first.
const EMOJI_FAMILY: &str = "Noto Color Emoji";

/// A face's weight (100 thin to 900 black, 400 regular, 700 bold) and slant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FaceStyle {
    pub weight: u16,
    pub italic: bool,
}

impl FaceStyle {
    pub const REGULAR: FaceStyle = FaceStyle {
        weight: 400,
        italic: false,
    };
    pub const BOLD: FaceStyle = FaceStyle {
        weight: 700,
        italic: false,
    };
    pub const ITALIC: FaceStyle = FaceStyle {
        weight: 400,
        italic: true,
    };
    pub const BOLD_ITALIC: FaceStyle = FaceStyle {
        weight: 700,
        italic: true,
    };
}

/// Which font to use, and how big.
#[derive(Debug, Clone, PartialEq)]
pub struct FontConfig {
    /// A system font family; `None` uses the bundled DejaVu Sans Mono.
    pub family: Option<String>,
    /// Families for bold, italic and bold italic text; `None` is `family` in that style.
    pub bold_family: Option<String>,
    pub italic_family: Option<String>,
    pub bold_italic_family: Option<String>,
    /// The faces for regular, bold, italic and bold italic text (a "Medium" regular face, a
    /// "SemiBold" bold one).
    pub styles: [FaceStyle; 4],
    /// Pixels added to each cell's width and height (negative: removed).
    pub offset: (i32, i32),
    /// Pixels every glyph is moved by, right and down.
    pub glyph_offset: (i32, i32),
    /// Draw box drawing, block elements and powerline symbols as sprites that join cell to
    /// cell, instead of taking them from the font.
    pub builtin_box_drawing: bool,
    /// A beam or underline cursor's thickness, as a fraction of the cell's width.
    pub cursor_thickness: f32,
    /// Families tried in order for characters the main family lacks, before the system's
    /// own fallback (which picks by script).
    pub fallback: Vec<String>,
    /// The font size in physical pixels (points × scale factor × 96/72).
    pub size_px: f32,
    /// Load system fonts for fallback (CJK, symbols, emoji). Costs 15–55 ms at start-up.
    pub system_fonts: bool,
}

impl Default for FontConfig {
    fn default() -> Self {
        Self {
            family: None,
            bold_family: None,
            italic_family: None,
            bold_italic_family: None,
            styles: [
                FaceStyle::REGULAR,
                FaceStyle::BOLD,
                FaceStyle::ITALIC,
                FaceStyle::BOLD_ITALIC,
            ],
            offset: (0, 0),
            glyph_offset: (0, 0),
            builtin_box_drawing: true,
            cursor_thickness: 0.15,
            fallback: Vec::new(),
            size_px: 16.0,
            system_fonts: true,
        }
    }
}

/// The size of a cell and where things go inside it, in whole pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CellMetrics {
    pub width: u32,
    pub height: u32,
    /// The baseline, from the top of the cell.
    pub baseline: u32,
    /// The top of the underline, from the top of the cell.
    pub underline: u32,
    /// The top of the strikethrough line, from the top of the cell.
    pub strikeout: u32,
    /// Thickness of underlines, strikethrough and light box-drawing lines.
    pub stroke: u32,
}

/// The style a cell's glyph is drawn in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GlyphStyle {
    pub bold: bool,
    pub italic: bool,
}

/// One glyph of a cell, positioned relative to the cell's left edge and baseline.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlacedGlyph {
    pub key: CacheKey,
    pub x: i32,
    pub y: i32,
}

/// Font state: the font database, shaping, rasterising, and the cell metrics.
pub struct Fonts {
    system: FontSystem,
    swash: SwashCache,
    family: String,
    /// Bold, italic, bold italic: a family of their own, or `family`.
    styled: [String; 3],
    /// Regular, bold, italic, bold italic: the face's weight and slant.
    styles: [FaceStyle; 4],
    glyph_offset: (i32, i32),
    pub builtin_box_drawing: bool,
    pub cursor_thickness: f32,
    /// `fallback`, as installed families.
    fallback: Vec<String>,
    size: f32,
    metrics: CellMetrics,
    shaper: Buffer,
    shaped: FxHashMap<(String, GlyphStyle, bool), Vec<PlacedGlyph>>,
    /// The same for a cell holding one character and no marks, by far the most common,
    /// looked up without making a `String`.
    shaped_chars: FxHashMap<(char, GlyphStyle, bool), Vec<PlacedGlyph>>,
}

/// The most cell texts each shaping cache remembers. Output chooses what cells hold, so a
/// program printing every code point (or every combination of marks) would otherwise grow
/// the caches without end; past this they start afresh, as the atlas does when it is full.
/// A screen of text uses a few hundred; re-shaping costs microseconds a cell, once.
const SHAPED_CACHE_LIMIT: usize = 16_384;

/// Empties `cache` when it holds [`SHAPED_CACHE_LIMIT`] entries, before one more goes in.
fn make_room<K, V>(cache: &mut FxHashMap<K, V>) {
    if cache.len() >= SHAPED_CACHE_LIMIT {
        cache.clear();
    }
}

impl Fonts {
    pub fn new(config: &FontConfig) -> Result<Self> {
        let mut db = fontdb::Database::new();
        for font in BUNDLED {
            db.load_font_source(Source::Binary(std::sync::Arc::new(font.to_vec())));
        }
        if config.system_fonts {
            db.load_system_fonts();
        }
        let family = match &config.family {
            Some(name) => resolve_family(&db, name).unwrap_or_else(|| {
                tracing::warn!(family = %name, "no monospace font family by that name; using the bundled {BUNDLED_FAMILY}");
                BUNDLED_FAMILY.to_string()
            }),
            None => BUNDLED_FAMILY.to_string(),
        };
        let styled = [
            &config.bold_family,
            &config.italic_family,
            &config.bold_italic_family,
        ]
        .map(|name| match name {
            Some(name) => resolve_family(&db, name).unwrap_or_else(|| {
                tracing::warn!(family = %name, "no monospace font family by that name; using {family}");
                family.clone()
            }),
            None => family.clone(),
        });
        let locale = std::env::var("LANG")
            .ok()
            .and_then(|l| l.split('.').next().map(str::to_owned));
        let mut system =
            FontSystem::new_with_locale_and_db(locale.unwrap_or_else(|| "en-US".into()), db);
        let size = config.size_px.clamp(4.0, 200.0);
        let metrics = with_offset(cell_metrics(&mut system, &family, size)?, config.offset);
        let fallback = config
            .fallback
            .iter()
            .filter_map(|name| {
                let found = family_exists(system.db(), name);
                if !found {
                    tracing::warn!(family = %name, "fallback font family not installed; skipped");
                }
                found.then(|| name.clone())
            })
            .collect();
        let shaper = Buffer::new(&mut system, Metrics::new(size, metrics.height as f32));
        Ok(Self {
            system,
            swash: SwashCache::new(),
            family,
            styled,
            styles: config.styles,
            glyph_offset: config.glyph_offset,
            builtin_box_drawing: config.builtin_box_drawing,
            cursor_thickness: config.cursor_thickness.clamp(0.0, 1.0),
            fallback,
            size,
            metrics,
            shaper,
            shaped: FxHashMap::default(),
            shaped_chars: FxHashMap::default(),
        })
    }

    pub fn metrics(&self) -> CellMetrics {
        self.metrics
    }

    pub fn family(&self) -> &str {
        &self.family
    }

    /// [`Fonts::shape`] for the text of one character, looked up without making a `String`.
    pub fn shape_char(&mut self, c: char, style: GlyphStyle, cells: u32) -> &[PlacedGlyph] {
        let key = (c, style, cells > 1);
        if !self.shaped_chars.contains_key(&key) {
            let glyphs = self.shape_uncached(c.encode_utf8(&mut [0; 4]), style, cells);
            make_room(&mut self.shaped_chars);
            self.shaped_chars.insert(key, glyphs);
        }
        &self.shaped_chars[&key]
    }

    /// The glyphs that draw `text` in a span of `cells` cells, centred in the span when the
    /// font that has them is not as wide as the grid (fallback fonts, emoji).
    pub fn shape(&mut self, text: &str, style: GlyphStyle, cells: u32) -> &[PlacedGlyph] {
        let wide = cells > 1;
        let key = (text.to_owned(), style, wide);
        if !self.shaped.contains_key(&key) {
            let glyphs = self.shape_uncached(text, style, cells);
            make_room(&mut self.shaped);
            self.shaped.insert(key.clone(), glyphs);
        }
        &self.shaped[&key]
    }

    fn shape_uncached(&mut self, text: &str, style: GlyphStyle, cells: u32) -> Vec<PlacedGlyph> {
        let emoji = text.chars().any(is_emoji);
        let (main, face) = match (style.bold, style.italic) {
            (true, false) => (&self.styled[0], self.styles[1]),
            (false, true) => (&self.styled[1], self.styles[2]),
            (true, true) => (&self.styled[2], self.styles[3]),
            (false, false) => (&self.family, self.styles[0]),
        };
        let fallback = if emoji || covers(&mut self.system, main, text) {
            None
        } else {
            self.fallback
                .iter()
                .find(|f| covers(&mut self.system, f, text))
                .cloned()
        };
        let family = match (emoji, &fallback) {
            (true, _) => Family::Name(EMOJI_FAMILY),
            (false, Some(f)) => Family::Name(f),
            (false, None) => Family::Name(main),
        };
        let attrs = Attrs::new()
            .family(family)
            .weight(Weight(face.weight))
            .style(if face.italic {
                Style::Italic
            } else {
                Style::Normal
            });
        self.shaper.set_text(text, &attrs, Shaping::Advanced, None);
        self.shaper.shape_until_scroll(&mut self.system, false);
        let mut glyphs = Vec::new();
        let mut advance = 0.0f32;
        for run in self.shaper.layout_runs() {
            for glyph in run.glyphs {
                let physical = glyph.physical((0.0, 0.0), 1.0);
                glyphs.push(PlacedGlyph {
                    key: physical.cache_key,
                    x: physical.x + self.glyph_offset.0,
                    y: physical.y + self.glyph_offset.1,
                });
                advance = advance.max(glyph.x + glyph.w);
            }
        }
        let span = (self.metrics.width * cells) as f32;
        let shift = ((span - advance) / 2.0).round() as i32;
        if shift != 0 && advance > 0.0 {
            for glyph in &mut glyphs {
                glyph.x += shift;
            }
        }
        glyphs
    }

    /// Rasterises one glyph.
    pub fn rasterize(&mut self, key: CacheKey) -> Option<SwashImage> {
        self.swash.get_image_uncached(&mut self.system, key)
    }

    /// Drops shaping results (after the atlas was cleared, or the size changed).
    pub fn clear_cache(&mut self) {
        self.shaped.clear();
    }

    pub fn size(&self) -> f32 {
        self.size
    }
}

/// The family `name` stands for: itself if a face of that family is loaded; else what
/// fontconfig makes of it (generic names such as "monospace", aliases, the user's
/// preferences), if that is a loaded monospace family. Fontconfig offers its best match for
/// any name, a proportional one included, so its answer is taken only when it is monospaced.
fn resolve_family(db: &fontdb::Database, name: &str) -> Option<String> {
    if family_exists(db, name) {
        return Some(name.to_owned());
    }
    let matched = fontconfig_match(name)?;
    let monospaced = db.faces().any(|face| {
        face.monospaced
            && face
                .families
                .iter()
                .any(|(family, _)| family.eq_ignore_ascii_case(&matched))
    });
    monospaced.then_some(matched)
}

#[cfg(target_os = "linux")]
fn fontconfig_match(name: &str) -> Option<String> {
    // Loading the library and its configuration takes a few milliseconds: once a process.
    static FONTCONFIG: std::sync::OnceLock<Option<fontconfig::Fontconfig>> =
        std::sync::OnceLock::new();
    let fc = FONTCONFIG
        .get_or_init(fontconfig::Fontconfig::new)
        .as_ref()?;
    fc.find(name, None).map(|font| font.name)
}

#[cfg(not(target_os = "linux"))]
fn fontconfig_match(_name: &str) -> Option<String> {
    None
}

/// Whether `family`'s regular face has a glyph for every character of `text`.
fn covers(system: &mut FontSystem, family: &str, text: &str) -> bool {
    let query = Query {
        families: &[Family::Name(family)],
        ..Query::default()
    };
    let Some(id) = system.db().query(&query) else {
        return false;
    };
    let Some(font) = system.get_font(id, Weight::NORMAL) else {
        return false;
    };
    let charmap = font.as_swash().charmap();
    text.chars()
        .filter(|c| !c.is_control())
        .all(|c| charmap.map(c) != 0)
}

fn family_exists(db: &fontdb::Database, name: &str) -> bool {
    db.faces().any(|face| {
        face.families
            .iter()
            .any(|(family, _)| family.eq_ignore_ascii_case(name))
    })
}

/// Whether `c` is drawn from the colour emoji font by preference.
fn is_emoji(c: char) -> bool {
    matches!(c as u32, 0x1F000..=0x1FAFF | 0x2600..=0x27BF | 0x2B50 | 0x2B55 | 0xFE0F)
}

/// The cell size: the advance of '0' by the ascent plus descent, rounded to whole pixels so
/// that rows and columns land on pixel boundaries and box drawing joins exactly.
/// `metrics` with `offset` pixels more (or fewer) in each cell: the glyphs keep their place
/// in the cell's top-left, the lines under and through them move with the baseline, which
/// moves down by half the extra height.
fn with_offset(metrics: CellMetrics, offset: (i32, i32)) -> CellMetrics {
    let width = (metrics.width as i32 + offset.0).max(1) as u32;
    let height = (metrics.height as i32 + offset.1).max(2) as u32;
    let down = offset.1 / 2;
    let at =
        |v: u32| (v as i32 + down).clamp(0, (height - metrics.stroke.min(height)) as i32) as u32;
    CellMetrics {
        width,
        height,
        baseline: at(metrics.baseline),
        underline: at(metrics.underline),
        strikeout: at(metrics.strikeout),
        stroke: metrics.stroke,
    }
}

fn cell_metrics(system: &mut FontSystem, family: &str, size: f32) -> Result<CellMetrics> {
    let query = Query {
        families: &[Family::Name(family)],
        ..Query::default()
    };
    let id = system
        .db()
        .query(&query)
        .ok_or_else(|| Error::Font(format!("no face for family {family:?}")))?;
    let font = system
        .get_font(id, Weight::NORMAL)
        .ok_or_else(|| Error::Font(format!("cannot load {family:?}")))?;
    let swash = font.as_swash();
    let metrics = swash.metrics(&[]).scale(size);
    let glyph = swash.charmap().map('0');
    let advance = swash.glyph_metrics(&[]).scale(size).advance_width(glyph);
    let width = advance.round().max(1.0) as u32;
    let ascent = metrics.ascent.round();
    let height = (metrics.ascent + metrics.descent + metrics.leading)
        .round()
        .max(ascent + 1.0) as u32;
    let baseline = ascent as u32;
    let stroke = metrics.stroke_size.round().max(1.0) as u32;
    // underline_offset is the distance of the line's top below the baseline, negative upward.
    let underline = (baseline as f32 - metrics.underline_offset)
        .round()
        .clamp(0.0, (height - stroke) as f32) as u32;
    let strikeout = (baseline as f32 - metrics.strikeout_offset)
        .round()
        .clamp(0.0, (height - stroke) as f32) as u32;
    Ok(CellMetrics {
        width,
        height,
        baseline,
        underline,
        strikeout,
        stroke,
    })
}

#[cfg(test)]
mod resolve_tests {
    use super::*;

    fn system_db() -> fontdb::Database {
        let mut db = fontdb::Database::new();
        db.load_system_fonts();
        db
    }

    #[test]
    fn generic_names_resolve_to_a_monospace_family_and_unknown_ones_to_none() {
        let db = system_db();
        let mono = resolve_family(&db, "monospace").expect("fontconfig resolves monospace");
        assert!(family_exists(&db, &mono), "{mono}");
        assert!(
            db.faces()
                .any(|f| f.monospaced && f.families.iter().any(|(n, _)| *n == mono)),
            "{mono} is monospaced"
        );
        // fontconfig would offer a proportional best match for this; it is not taken.
        assert_eq!(resolve_family(&db, "No Such Family Anywhere"), None);
        assert_eq!(
            resolve_family(&db, "dejavu sans mono").as_deref(),
            Some("dejavu sans mono"),
            "an installed family is used as named"
        );
    }

    #[test]
    fn fallback_families_are_tried_in_order_for_what_the_main_one_lacks() {
        let font_of = |fallback: &[&str], text: &str| {
            let mut fonts = Fonts::new(&FontConfig {
                fallback: fallback.iter().map(|f| f.to_string()).collect(),
                ..FontConfig::default()
            })
            .unwrap();
            let style = GlyphStyle {
                bold: false,
                italic: false,
            };
            fonts.shape(text, style, 2).first().map(|g| g.key.font_id)
        };
        let serif = font_of(&["Noto Serif CJK JP", "Noto Sans CJK JP"], "漢");
        let sans = font_of(&["Noto Sans CJK JP", "Noto Serif CJK JP"], "漢");
        assert!(serif.is_some() && sans.is_some());
        assert_ne!(
            serif, sans,
            "the first fallback that has the glyph draws it"
        );
        // What the main family has is never taken from a fallback.
        assert_eq!(font_of(&["Noto Serif CJK JP"], "A"), font_of(&[], "A"));
    }
}

#[cfg(test)]
mod cache_tests {
    use super::*;

    #[test]
    fn the_shaping_caches_stay_within_their_limit_whatever_the_output() {
        let mut fonts = Fonts::new(&FontConfig::default()).unwrap();
        let style = GlyphStyle {
            bold: false,
            italic: false,
        };
        // More distinct characters than the limit, each shaped once.
        let chars = (0x4e00u32..).filter_map(char::from_u32);
        for c in chars.take(SHAPED_CACHE_LIMIT + 100) {
            fonts.shape_char(c, style, 2);
        }
        assert!(fonts.shaped_chars.len() <= SHAPED_CACHE_LIMIT);
        assert!(
            !fonts.shaped_chars.is_empty(),
            "the cache started afresh, not off"
        );
    }
}

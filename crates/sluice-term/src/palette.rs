//! The default colours, and how a cell's colour becomes RGB.

use alacritty_terminal::term::color::Colors;
use alacritty_terminal::vte::ansi::{Color, NamedColor};

pub use alacritty_terminal::vte::ansi::Rgb;

use crate::CellFlags;

/// Number of colour slots: 256 indexed, then foreground, background, cursor, eight dim
/// colours, bright foreground and dim foreground (`NamedColor`'s numbering).
pub const COUNT: usize = 269;

/// The colours a program has not overridden.
#[derive(Debug, Clone, PartialEq)]
pub struct Palette {
    colors: [Rgb; COUNT],
}

const fn rgb(hex: u32) -> Rgb {
    Rgb {
        r: (hex >> 16) as u8,
        g: (hex >> 8) as u8,
        b: hex as u8,
    }
}

/// The sixteen ANSI colours: a calm dark theme with enough contrast on its own background
/// that every colour stays readable, bright black (comments, dim prompts) included.
const ANSI: [Rgb; 16] = [
    rgb(0x1d1f21),
    rgb(0xcc6666),
    rgb(0xb5bd68),
    rgb(0xf0c674),
    rgb(0x81a2be),
    rgb(0xb294bb),
    rgb(0x8abeb7),
    rgb(0xc5c8c6),
    rgb(0x666666),
    rgb(0xd54e53),
    rgb(0xb9ca4a),
    rgb(0xe7c547),
    rgb(0x7aa6da),
    rgb(0xc397d8),
    rgb(0x70c0b1),
    rgb(0xeaeaea),
];

const FOREGROUND: Rgb = rgb(0xc5c8c6);
const BACKGROUND: Rgb = rgb(0x1d1f21);

impl Default for Palette {
    fn default() -> Self {
        Palette::with_colors(ANSI, FOREGROUND, BACKGROUND)
    }
}

impl Palette {
    /// A palette of these sixteen ANSI colours, foreground and background (a theme), with
    /// xterm's 256-colour cube and grey ramp, the cursor in the foreground colour, and dim
    /// colours derived.
    pub fn with_colors(ansi: [Rgb; 16], foreground: Rgb, background: Rgb) -> Self {
        let mut colors = [Rgb::default(); COUNT];
        colors[..16].copy_from_slice(&ansi);
        // The 6×6×6 colour cube, with xterm's channel levels.
        for i in 0..216 {
            let level = |v: usize| if v == 0 { 0 } else { (55 + v * 40) as u8 };
            colors[16 + i] = Rgb {
                r: level(i / 36),
                g: level((i / 6) % 6),
                b: level(i % 6),
            };
        }
        // The grey ramp, 8 to 238 in steps of 10.
        for i in 0..24 {
            let v = (8 + i * 10) as u8;
            colors[232 + i] = Rgb { r: v, g: v, b: v };
        }
        colors[NamedColor::Foreground as usize] = foreground;
        colors[NamedColor::Background as usize] = background;
        colors[NamedColor::Cursor as usize] = foreground;
        for i in 0..8 {
            colors[NamedColor::DimBlack as usize + i] = dim(ansi[i]);
        }
        colors[NamedColor::BrightForeground as usize] = ansi[15];
        colors[NamedColor::DimForeground as usize] = dim(foreground);
        Palette { colors }
    }
}

/// Dim text is drawn at two thirds of its colour's intensity, as Alacritty and xterm do.
fn dim(c: Rgb) -> Rgb {
    Rgb {
        r: (c.r as u16 * 2 / 3) as u8,
        g: (c.g as u16 * 2 / 3) as u8,
        b: (c.b as u16 * 2 / 3) as u8,
    }
}

impl Palette {
    /// The colour in slot `index`, ignoring anything a program set.
    pub fn get(&self, index: usize) -> Rgb {
        self.colors[index]
    }

    /// The cursor's colour (configuration).
    pub fn set_cursor(&mut self, color: Rgb) {
        self.colors[NamedColor::Cursor as usize] = color;
    }

    /// Dim text's colour where it has none of its own (configuration).
    pub fn set_dim_foreground(&mut self, color: Rgb) {
        self.colors[NamedColor::DimForeground as usize] = color;
    }

    /// Bright (bold) text's colour where it has none of its own (configuration).
    pub fn set_bright_foreground(&mut self, color: Rgb) {
        self.colors[NamedColor::BrightForeground as usize] = color;
    }

    /// Replaces slot `index` (configuration).
    pub fn set(&mut self, index: usize, color: Rgb) {
        self.colors[index] = color;
    }

    /// The colour in slot `index` as the terminal shows it now: the program's if it set one.
    pub fn effective(&self, overrides: &Colors, index: usize) -> Rgb {
        overrides[index].unwrap_or(self.colors[index])
    }

    /// Resolves a cell's foreground colour, applying dim.
    pub fn foreground(&self, overrides: &Colors, color: Color, flags: CellFlags) -> Rgb {
        let dimmed = flags.contains(CellFlags::DIM);
        match color {
            Color::Spec(rgb) if dimmed => dim(rgb),
            Color::Spec(rgb) => rgb,
            Color::Named(named) if dimmed => self.effective(overrides, named.to_dim() as usize),
            Color::Named(named) => self.effective(overrides, named as usize),
            Color::Indexed(i) if dimmed && i < 8 => {
                self.effective(overrides, NamedColor::DimBlack as usize + i as usize)
            }
            Color::Indexed(i) if dimmed => dim(self.effective(overrides, i as usize)),
            Color::Indexed(i) => self.effective(overrides, i as usize),
        }
    }

    /// Resolves a background (or underline) colour.
    pub fn background(&self, overrides: &Colors, color: Color) -> Rgb {
        match color {
            Color::Spec(rgb) => rgb,
            Color::Named(named) => self.effective(overrides, named as usize),
            Color::Indexed(i) => self.effective(overrides, i as usize),
        }
    }
}

/// The palette a running terminal uses, replaceable while it runs (a theme or colour changed
/// in the configuration): the UI thread reads it for each snapshot, the parser for colour
/// queries (OSC 4/10/11). Readers clone an `Arc`; a change is rare.
#[derive(Debug, Default)]
pub(crate) struct SharedPalette(std::sync::RwLock<std::sync::Arc<Palette>>);

impl SharedPalette {
    pub(crate) fn new(palette: Palette) -> Self {
        Self(std::sync::RwLock::new(std::sync::Arc::new(palette)))
    }

    pub(crate) fn get(&self) -> std::sync::Arc<Palette> {
        self.0.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Replaces the palette; false if it was the same.
    pub(crate) fn set(&self, palette: &Palette) -> bool {
        let mut current = self.0.write().unwrap_or_else(|e| e.into_inner());
        if **current == *palette {
            return false;
        }
        *current = std::sync::Arc::new(palette.clone());
        true
    }
}

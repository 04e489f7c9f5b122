//! The bundled colour themes (`colors.theme`, `sluice --list-themes`).
//!
//! Each is a well-known palette under a licence that lets it be bundled (all MIT); its
//! author and licence are kept beside its colours. A theme sets the foreground, background,
//! cursor and the sixteen ANSI colours; the 256-colour cube and grey ramp stay xterm's, and
//! dim colours are derived, as every terminal does. Light and dark variants are themes of
//! their own (`solarized-light`, `solarized-dark`); `light:NAME,dark:NAME` (Ghostty's form)
//! names one of each, and the desktop's colour scheme picks ([`choose`]).

/// One theme's colours, as 0xRRGGBB.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Theme {
    pub name: &'static str,
    pub author: &'static str,
    pub license: &'static str,
    pub foreground: u32,
    pub background: u32,
    pub cursor: u32,
    /// Black, red, green, yellow, blue, magenta, cyan, white.
    pub normal: [u32; 8],
    pub bright: [u32; 8],
}

/// The default: Tomorrow Night, calm, and readable in every colour on its own background.
pub const DEFAULT_THEME: &str = "tomorrow-night";

pub const THEMES: &[Theme] = &[
    Theme {
        name: "tomorrow-night",
        author: "Chris Kempson",
        license: "MIT",
        foreground: 0xc5c8c6,
        background: 0x1d1f21,
        cursor: 0xc5c8c6,
        normal: [
            0x1d1f21, 0xcc6666, 0xb5bd68, 0xf0c674, 0x81a2be, 0xb294bb, 0x8abeb7, 0xc5c8c6,
        ],
        bright: [
            0x666666, 0xd54e53, 0xb9ca4a, 0xe7c547, 0x7aa6da, 0xc397d8, 0x70c0b1, 0xeaeaea,
        ],
    },
    Theme {
        name: "tomorrow",
        author: "Chris Kempson",
        license: "MIT",
        foreground: 0x4d4d4c,
        background: 0xffffff,
        cursor: 0x4d4d4c,
        normal: [
            0x4d4d4c, 0xc82829, 0x718c00, 0xeab700, 0x4271ae, 0x8959a8, 0x3e999f, 0xd6d6d6,
        ],
        bright: [
            0x8e908c, 0xc82829, 0x718c00, 0xeab700, 0x4271ae, 0x8959a8, 0x3e999f, 0xefefef,
        ],
    },
    Theme {
        name: "solarized-dark",
        author: "Ethan Schoonover",
        license: "MIT",
        foreground: 0x839496,
        background: 0x002b36,
        cursor: 0x93a1a1,
        normal: [
            0x073642, 0xdc322f, 0x859900, 0xb58900, 0x268bd2, 0xd33682, 0x2aa198, 0xeee8d5,
        ],
        bright: [
            0x002b36, 0xcb4b16, 0x586e75, 0x657b83, 0x839496, 0x6c71c4, 0x93a1a1, 0xfdf6e3,
        ],
    },
    Theme {
        name: "solarized-light",
        author: "Ethan Schoonover",
        license: "MIT",
        foreground: 0x657b83,
        background: 0xfdf6e3,
        cursor: 0x586e75,
        normal: [
            0x073642, 0xdc322f, 0x859900, 0xb58900, 0x268bd2, 0xd33682, 0x2aa198, 0xeee8d5,
        ],
        bright: [
            0x002b36, 0xcb4b16, 0x586e75, 0x657b83, 0x839496, 0x6c71c4, 0x93a1a1, 0xfdf6e3,
        ],
    },
    Theme {
        name: "gruvbox-dark",
        author: "Pavel Pertsev",
        license: "MIT",
        foreground: 0xebdbb2,
        background: 0x282828,
        cursor: 0xebdbb2,
        normal: [
            0x282828, 0xcc241d, 0x98971a, 0xd79921, 0x458588, 0xb16286, 0x689d6a, 0xa89984,
        ],
        bright: [
            0x928374, 0xfb4934, 0xb8bb26, 0xfabd2f, 0x83a598, 0xd3869b, 0x8ec07c, 0xebdbb2,
        ],
    },
    Theme {
        name: "gruvbox-light",
        author: "Pavel Pertsev",
        license: "MIT",
        foreground: 0x3c3836,
        background: 0xfbf1c7,
        cursor: 0x3c3836,
        normal: [
            0xfbf1c7, 0xcc241d, 0x98971a, 0xd79921, 0x458588, 0xb16286, 0x689d6a, 0x7c6f64,
        ],
        bright: [
            0x928374, 0x9d0006, 0x79740e, 0xb57614, 0x076678, 0x8f3f71, 0x427b58, 0x3c3836,
        ],
    },
    Theme {
        name: "dracula",
        author: "Zeno Rocha",
        license: "MIT",
        foreground: 0xf8f8f2,
        background: 0x282a36,
        cursor: 0xf8f8f2,
        normal: [
            0x21222c, 0xff5555, 0x50fa7b, 0xf1fa8c, 0xbd93f9, 0xff79c6, 0x8be9fd, 0xf8f8f2,
        ],
        bright: [
            0x6272a4, 0xff6e6e, 0x69ff94, 0xffffa5, 0xd6acff, 0xff92df, 0xa4ffff, 0xffffff,
        ],
    },
    Theme {
        name: "nord",
        author: "Arctic Ice Studio",
        license: "MIT",
        foreground: 0xd8dee9,
        background: 0x2e3440,
        cursor: 0xd8dee9,
        normal: [
            0x3b4252, 0xbf616a, 0xa3be8c, 0xebcb8b, 0x81a1c1, 0xb48ead, 0x88c0d0, 0xe5e9f0,
        ],
        bright: [
            0x4c566a, 0xbf616a, 0xa3be8c, 0xebcb8b, 0x81a1c1, 0xb48ead, 0x8fbcbb, 0xeceff4,
        ],
    },
    Theme {
        name: "one-dark",
        author: "GitHub (Atom)",
        license: "MIT",
        foreground: 0xabb2bf,
        background: 0x282c34,
        cursor: 0x528bff,
        normal: [
            0x3f4451, 0xe06c75, 0x98c379, 0xe5c07b, 0x61afef, 0xc678dd, 0x56b6c2, 0xd7dae0,
        ],
        bright: [
            0x4f5666, 0xbe5046, 0x98c379, 0xd19a66, 0x61afef, 0xc678dd, 0x56b6c2, 0xe6e6e6,
        ],
    },
    Theme {
        name: "tokyo-night",
        author: "enkia",
        license: "MIT",
        foreground: 0xc0caf5,
        background: 0x1a1b26,
        cursor: 0xc0caf5,
        normal: [
            0x15161e, 0xf7768e, 0x9ece6a, 0xe0af68, 0x7aa2f7, 0xbb9af7, 0x7dcfff, 0xa9b1d6,
        ],
        bright: [
            0x414868, 0xf7768e, 0x9ece6a, 0xe0af68, 0x7aa2f7, 0xbb9af7, 0x7dcfff, 0xc0caf5,
        ],
    },
    Theme {
        name: "catppuccin-mocha",
        author: "Catppuccin",
        license: "MIT",
        foreground: 0xcdd6f4,
        background: 0x1e1e2e,
        cursor: 0xf5e0dc,
        normal: [
            0x45475a, 0xf38ba8, 0xa6e3a1, 0xf9e2af, 0x89b4fa, 0xf5c2e7, 0x94e2d5, 0xbac2de,
        ],
        bright: [
            0x585b70, 0xf38ba8, 0xa6e3a1, 0xf9e2af, 0x89b4fa, 0xf5c2e7, 0x94e2d5, 0xa6adc8,
        ],
    },
    Theme {
        name: "catppuccin-latte",
        author: "Catppuccin",
        license: "MIT",
        foreground: 0x4c4f69,
        background: 0xeff1f5,
        cursor: 0xdc8a78,
        normal: [
            0x5c5f77, 0xd20f39, 0x40a02b, 0xdf8e1d, 0x1e66f5, 0xea76cb, 0x179299, 0xacb0be,
        ],
        bright: [
            0x6c6f85, 0xd20f39, 0x40a02b, 0xdf8e1d, 0x1e66f5, 0xea76cb, 0x179299, 0xbcc0cc,
        ],
    },
    Theme {
        name: "rose-pine",
        author: "Rosé Pine",
        license: "MIT",
        foreground: 0xe0def4,
        background: 0x191724,
        cursor: 0x524f67,
        normal: [
            0x26233a, 0xeb6f92, 0x31748f, 0xf6c177, 0x9ccfd8, 0xc4a7e7, 0xebbcba, 0xe0def4,
        ],
        bright: [
            0x6e6a86, 0xeb6f92, 0x31748f, 0xf6c177, 0x9ccfd8, 0xc4a7e7, 0xebbcba, 0xe0def4,
        ],
    },
    Theme {
        name: "everforest-dark",
        author: "sainnhe",
        license: "MIT",
        foreground: 0xd3c6aa,
        background: 0x2d353b,
        cursor: 0xd3c6aa,
        normal: [
            0x475258, 0xe67e80, 0xa7c080, 0xdbbc7f, 0x7fbbb3, 0xd699b6, 0x83c092, 0xd3c6aa,
        ],
        bright: [
            0x859289, 0xe67e80, 0xa7c080, 0xdbbc7f, 0x7fbbb3, 0xd699b6, 0x83c092, 0xd3c6aa,
        ],
    },
    Theme {
        name: "kanagawa",
        author: "rebelot",
        license: "MIT",
        foreground: 0xdcd7ba,
        background: 0x1f1f28,
        cursor: 0xc8c093,
        normal: [
            0x090618, 0xc34043, 0x76946a, 0xc0a36e, 0x7e9cd8, 0x957fb8, 0x6a9589, 0xc8c093,
        ],
        bright: [
            0x727169, 0xe82424, 0x98bb6c, 0xe6c384, 0x7fb4ca, 0x938aa9, 0x7aa89f, 0xdcd7ba,
        ],
    },
];

/// The theme called `name`.
pub fn find(name: &str) -> Option<&'static Theme> {
    THEMES.iter().find(|t| t.name == name)
}

/// Whether the desktop prefers light colours (its `color-scheme` setting, read from the
/// settings portal by the application). Process state, not configuration: it only picks
/// between the two names of a `light:…,dark:…` theme. Dark until the desktop says otherwise,
/// as the default theme is.
static PREFERS_LIGHT: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Records the desktop's colour scheme; true if it changed.
pub fn set_prefers_light(light: bool) -> bool {
    PREFERS_LIGHT.swap(light, std::sync::atomic::Ordering::Relaxed) != light
}

pub fn prefers_light() -> bool {
    PREFERS_LIGHT.load(std::sync::atomic::Ordering::Relaxed)
}

/// The theme `spec` names for a desktop that prefers light (`light`) or dark colours: a
/// theme's name, or `light:NAME,dark:NAME` (either order; one side missing takes the other).
pub fn choose(spec: &str, light: bool) -> Option<&'static Theme> {
    if !spec.contains(':') {
        return find(spec);
    }
    let mut sides = (None, None);
    for part in spec.split(',') {
        match part.trim().split_once(':') {
            Some(("light", name)) => sides.0 = Some(find(name.trim())?),
            Some(("dark", name)) => sides.1 = Some(find(name.trim())?),
            _ => return None,
        }
    }
    match (sides, light) {
        ((Some(l), _), true) | ((_, Some(l)), false) => Some(l),
        ((l, d), _) => l.or(d),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_light_and_dark_pair_follows_the_desktop() {
        let spec = "light:tomorrow,dark:solarized-dark";
        assert_eq!(choose(spec, true).unwrap().name, "tomorrow");
        assert_eq!(choose(spec, false).unwrap().name, "solarized-dark");
        assert_eq!(
            choose("dark: nord , light: gruvbox-light", true)
                .unwrap()
                .name,
            "gruvbox-light"
        );
        assert_eq!(choose("light:tomorrow", false).unwrap().name, "tomorrow");
        assert_eq!(choose("nord", true).unwrap().name, "nord");
        assert!(choose("light:nope,dark:nord", false).is_none());
        assert!(choose("sideways:nord", false).is_none());
    }

    #[test]
    fn names_are_unique_and_the_default_exists() {
        let mut names: Vec<&str> = THEMES.iter().map(|t| t.name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), THEMES.len());
        assert!(THEMES.len() >= 12);
        assert!(find(DEFAULT_THEME).is_some());
        assert!(find("no-such-theme").is_none());
    }

    #[test]
    fn every_theme_keeps_text_readable_on_its_background() {
        // A contrast floor, so a typo in a hex value that made text vanish is caught.
        let luma = |c: u32| {
            let (r, g, b) = ((c >> 16) & 255, (c >> 8) & 255, c & 255);
            (299 * r + 587 * g + 114 * b) / 1000
        };
        for t in THEMES {
            let (fg, bg) = (luma(t.foreground), luma(t.background));
            assert!(fg.abs_diff(bg) >= 90, "{}: {fg} on {bg}", t.name);
        }
    }
}

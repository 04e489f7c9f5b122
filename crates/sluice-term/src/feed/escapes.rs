//! Escape sequences met while vte is in its ground state: SGR, cursor motion and erasing
//! executed by the feed, the rest measured so that vte can be given one whole sequence at a
//! time.
//!
//! Output that colours its text (`ls --color`, compilers, test runners, loggers) sends an SGR
//! every few characters. Through vte each costs its state machine a byte at a time and a
//! `Vec` of attributes; `perf` on `parse-ratio 2 8 color` put 28% of the parse in vte's
//! parser and its SGR mapping, and 20% in `Term::input` for the words between them, too short
//! for the search for runs the feed had then. [`scan`] reads an SGR whose parameters are
//! plain decimal numbers into the same [`Attr`]s vte's `attrs_from_sgr_parameters` gives,
//! skipping an unknown code or a colour out of range as vte does; any other form
//! (sub-parameters, a private marker, more parameters than vte keeps) is left to vte whole, so
//! that what vte does with the unusual stays its own. Cursor motion, erasing, and inserting or
//! deleting cells and lines with at most two such parameters ([`Csi`]) are executed the same
//! way: a TUI places each character it redraws with `CSI row ; col H`, and a progress
//! bar clears its line with `CSI 2 K` every redraw (docs/performance.md, "Cursor motion and
//! erasing").

use alacritty_terminal::vte::ansi::{
    Attr, ClearMode, Color, Handler, LineClearMode, NamedColor, Rgb,
};

const ESC: u8 = 0x1b;

/// The most parameters read from one SGR: vte 0.15's own limit (`params::MAX_PARAMS`, private),
/// past which vte ignores the sequence, so a longer one goes to vte to do so. Real output sends
/// far fewer: a true-colour foreground and background is ten.
const MAX_PARAMS: usize = 32;

/// An escape sequence at the start of some bytes, vte being in its ground state.
pub(super) enum Escape {
    /// `CSI … m` that the feed executes, of this many bytes.
    Sgr(Sgr, usize),
    /// A cursor motion, erase, insertion or deletion that the feed executes, of this many
    /// bytes.
    Csi(Csi, usize),
    /// A whole sequence of this many bytes after which vte is back in ground, its own state
    /// unchanged: a CSI or an escape that is not a string's start, with nothing inside that
    /// vte executes on the way (a control) or starts over at (another ESC).
    Whole(usize),
    /// A CSI that may start a synchronized update (`CSI ? … h`), after which vte holds output
    /// back: whole, of this many bytes, but vte's state after it is not known.
    MayHoldBack(usize),
    /// Anything else: a string (DCS, SOS, PM, APC), a sequence with a control inside, or one
    /// not finished in these bytes.
    Other,
}

/// The parameters of an SGR, all plain decimal numbers: what [`Sgr::attrs`] maps as vte does.
pub(super) struct Sgr {
    values: [u16; MAX_PARAMS],
    count: usize,
}

impl Sgr {
    /// Gives `apply` the SGR's attributes in order, as vte's `attrs_from_sgr_parameters`
    /// would: a code that maps to none (unknown, or a colour out of range or cut short) is
    /// skipped with the parameters it took, and the rest still apply. vtebench's `dense_cells`
    /// sends background indices up to 355 in most of its cells; while such SGRs went to vte
    /// whole, its state machine took a fifth of the run (`perf`, docs/performance.md,
    /// "SGRs with codes vte skips").
    #[inline]
    pub(super) fn attrs(&self, mut apply: impl FnMut(Attr)) {
        let mut params = self.values[..self.count].iter().copied();
        while let Some(code) = params.next() {
            if let Some(attr) = attr(code, &mut params) {
                apply(attr);
            }
        }
    }
}

/// A CSI that moves the cursor or erases, inserts or deletes cells or lines, with at most two
/// plain decimal parameters: what TUIs, progress bars and pagers send between their text
/// (`progress` clears its line with `CSI 2 K` and climbs with `CSI 1 A`, a TUI places each
/// piece with `CSI row ; col H`).
pub(super) struct Csi {
    action: u8,
    first: u16,
    second: u16,
}

impl Csi {
    /// `action` with `params`, if the feed executes it: a final byte below whose
    /// parameters vte takes as counts or positions, or as an erase mode it knows.
    fn new(action: u8, params: &[u16]) -> Option<Csi> {
        let (first, second) = match *params {
            [first] => (first, 0),
            [first, second] => (first, second),
            _ => return None,
        };
        let known = match action {
            b'@' | b'A' | b'B' | b'e' | b'C' | b'a' | b'D' | b'd' | b'G' | b'`' | b'H' | b'f'
            | b'L' | b'M' | b'P' | b'X' => true,
            b'J' => first <= 3,
            b'K' => first <= 2,
            _ => false,
        };
        known.then_some(Csi {
            action,
            first,
            second,
        })
    }

    /// Executes the sequence on `handler` as vte 0.15's `csi_dispatch` does: a parameter of 0
    /// (or none) is the default, 1 for counts and positions and 0 for erase modes.
    #[inline]
    pub(super) fn execute(&self, handler: &mut impl Handler) {
        let or_one = |value: u16| usize::from(value.max(1));
        let n = or_one(self.first);
        match self.action {
            b'@' => handler.insert_blank(n),
            b'A' => handler.move_up(n),
            b'B' | b'e' => handler.move_down(n),
            b'C' | b'a' => handler.move_forward(n),
            b'D' => handler.move_backward(n),
            b'd' => handler.goto_line(n as i32 - 1),
            b'G' | b'`' => handler.goto_col(n - 1),
            b'H' | b'f' => handler.goto(n as i32 - 1, or_one(self.second) - 1),
            b'J' => handler.clear_screen(match self.first {
                0 => ClearMode::Below,
                1 => ClearMode::Above,
                2 => ClearMode::All,
                _ => ClearMode::Saved,
            }),
            b'K' => handler.clear_line(match self.first {
                0 => LineClearMode::Right,
                1 => LineClearMode::Left,
                _ => LineClearMode::All,
            }),
            b'L' => handler.insert_blank_lines(n),
            b'M' => handler.delete_lines(n),
            b'P' => handler.delete_chars(n),
            b'X' => handler.erase_chars(n),
            _ => unreachable!("Csi::new admits only the actions above"),
        }
    }
}

/// What the escape sequence `bytes` starts with (`bytes[0]` is ESC) is, vte being in ground.
#[inline]
pub(super) fn scan(bytes: &[u8]) -> Escape {
    debug_assert_eq!(bytes.first(), Some(&ESC));
    match bytes.get(1) {
        Some(b'[') => scan_csi(bytes),
        Some(_) => scan_esc(bytes),
        None => Escape::Other,
    }
}

/// `ESC [` parameters (0x30–0x3F), intermediates (0x20–0x2F), a final (0x40–0x7E), read in
/// one pass that also reads plain decimal parameters for an SGR or a [`Csi`].
#[inline]
fn scan_csi(bytes: &[u8]) -> Escape {
    let mut sgr = Sgr {
        values: [0; MAX_PARAMS],
        count: 0,
    };
    // Whether the parameters so far are decimal numbers of at most three digits (which hold
    // every code and colour; vte saturates longer ones at 65,535) separated by `;`.
    let mut plain = true;
    let (mut value, mut digits) = (0u16, 0);
    let mut at = 2;
    while let Some(&byte) = bytes.get(at) {
        match byte {
            b'0'..=b'9' if digits < 3 => {
                value = value * 10 + u16::from(byte - b'0');
                digits += 1;
            }
            // An empty parameter is 0, as in vte.
            b';' if sgr.count + 1 < MAX_PARAMS => {
                sgr.values[sgr.count] = value;
                sgr.count += 1;
                (value, digits) = (0, 0);
            }
            0x30..=0x3f => plain = false,
            _ => break,
        }
        at += 1;
    }
    let params = at;
    while bytes.get(at).is_some_and(|b| (0x20..=0x2f).contains(b)) {
        at += 1;
    }
    let Some(&last) = bytes.get(at) else {
        return Escape::Other;
    };
    if !(0x40..=0x7e).contains(&last) {
        return Escape::Other;
    }
    let len = at + 1;
    if plain && at == params {
        sgr.values[sgr.count] = value;
        sgr.count += 1;
        if last == b'm' {
            return Escape::Sgr(sgr, len);
        } else if let Some(csi) = Csi::new(last, &sgr.values[..sgr.count]) {
            return Escape::Csi(csi, len);
        }
    }
    if last == b'h' && bytes[2..params].contains(&b'?') {
        return Escape::MayHoldBack(len);
    }
    Escape::Whole(len)
}

/// Whether `sequence`, a whole escape sequence, is a CSI that may be REP (`CSI Ps b`), after
/// which vte prints the last character it printed again.
pub(super) fn is_rep(sequence: &[u8]) -> bool {
    sequence.len() > 2 && sequence[1] == b'[' && sequence.last() == Some(&b'b')
}

/// `ESC`, intermediates (0x20–0x2F), a final (0x30–0x7E) that does not start a string (DCS
/// `P`, SOS `X`, OSC `]`, PM `^`, APC `_`: the prescan holds OSC strings back, so one here is
/// cut by a read) or a CSI.
fn scan_esc(bytes: &[u8]) -> Escape {
    let body = &bytes[1..];
    let intermediates = body
        .iter()
        .take_while(|b| (0x20..=0x2f).contains(*b))
        .count();
    let Some(&last) = body.get(intermediates) else {
        return Escape::Other;
    };
    let starts_string = intermediates == 0 && matches!(last, b'P' | b'X' | b']' | b'^' | b'_');
    if (0x30..=0x7e).contains(&last) && !starts_string {
        Escape::Whole(1 + intermediates + 1)
    } else {
        Escape::Other
    }
}

/// The attribute of SGR code `code`, taking the parameters of a colour from `rest`, as
/// vte's `attrs_from_sgr_parameters` maps it; `None` where vte sets no attribute, having taken
/// from `rest` what vte takes (a colour's parameters up to the first that is out of range).
fn attr(code: u16, rest: &mut impl Iterator<Item = u16>) -> Option<Attr> {
    Some(match code {
        0 => Attr::Reset,
        1 => Attr::Bold,
        2 => Attr::Dim,
        3 => Attr::Italic,
        4 => Attr::Underline,
        5 => Attr::BlinkSlow,
        6 => Attr::BlinkFast,
        7 => Attr::Reverse,
        8 => Attr::Hidden,
        9 => Attr::Strike,
        21 => Attr::CancelBold,
        22 => Attr::CancelBoldDim,
        23 => Attr::CancelItalic,
        24 => Attr::CancelUnderline,
        25 => Attr::CancelBlink,
        27 => Attr::CancelReverse,
        28 => Attr::CancelHidden,
        29 => Attr::CancelStrike,
        30..=37 => Attr::Foreground(Color::Named(NAMED[usize::from(code - 30)])),
        38 => Attr::Foreground(color(rest)?),
        39 => Attr::Foreground(Color::Named(NamedColor::Foreground)),
        40..=47 => Attr::Background(Color::Named(NAMED[usize::from(code - 40)])),
        48 => Attr::Background(color(rest)?),
        49 => Attr::Background(Color::Named(NamedColor::Background)),
        58 => Attr::UnderlineColor(Some(color(rest)?)),
        59 => Attr::UnderlineColor(None),
        90..=97 => Attr::Foreground(Color::Named(NAMED[usize::from(code - 90) + 8])),
        100..=107 => Attr::Background(Color::Named(NAMED[usize::from(code - 100) + 8])),
        _ => return None,
    })
}

/// `5;INDEX` or `2;R;G;B`, each within a byte; the parameters are taken up to and with the
/// first that is not, as vte's `parse_sgr_color` takes them.
fn color(rest: &mut impl Iterator<Item = u16>) -> Option<Color> {
    let mut byte = || rest.next().and_then(|v| u8::try_from(v).ok());
    match byte()? {
        5 => Some(Color::Indexed(byte()?)),
        2 => Some(Color::Spec(Rgb {
            r: byte()?,
            g: byte()?,
            b: byte()?,
        })),
        _ => None,
    }
}

/// The sixteen named colours in SGR order: 30–37 and 40–47, then 90–97 and 100–107.
const NAMED: [NamedColor; 16] = [
    NamedColor::Black,
    NamedColor::Red,
    NamedColor::Green,
    NamedColor::Yellow,
    NamedColor::Blue,
    NamedColor::Magenta,
    NamedColor::Cyan,
    NamedColor::White,
    NamedColor::BrightBlack,
    NamedColor::BrightRed,
    NamedColor::BrightGreen,
    NamedColor::BrightYellow,
    NamedColor::BrightBlue,
    NamedColor::BrightMagenta,
    NamedColor::BrightCyan,
    NamedColor::BrightWhite,
];

#[cfg(test)]
mod tests {
    use alacritty_terminal::vte::ansi::{Processor, StdSyncHandler};

    use super::*;

    fn attrs(bytes: &[u8]) -> Option<Vec<Attr>> {
        match scan(bytes) {
            Escape::Sgr(sgr, len) => {
                assert_eq!(len, bytes.len(), "{bytes:?}");
                let mut attrs = Vec::new();
                sgr.attrs(|attr| attrs.push(attr));
                Some(attrs)
            }
            _ => None,
        }
    }

    fn length(bytes: &[u8]) -> Option<usize> {
        match scan(bytes) {
            Escape::Whole(len) | Escape::Csi(_, len) => Some(len),
            _ => None,
        }
    }

    #[test]
    fn sgrs_map_to_vtes_attributes() {
        let rgb = |r, g, b| Color::Spec(Rgb { r, g, b });
        let cases: &[(&[u8], Vec<Attr>)] = &[
            (b"\x1b[m", vec![Attr::Reset]),
            (b"\x1b[0m", vec![Attr::Reset]),
            (b"\x1b[;1m", vec![Attr::Reset, Attr::Bold]),
            (
                b"\x1b[1;31;42m",
                vec![
                    Attr::Bold,
                    Attr::Foreground(Color::Named(NamedColor::Red)),
                    Attr::Background(Color::Named(NamedColor::Green)),
                ],
            ),
            (
                b"\x1b[97;107m",
                vec![
                    Attr::Foreground(Color::Named(NamedColor::BrightWhite)),
                    Attr::Background(Color::Named(NamedColor::BrightWhite)),
                ],
            ),
            (
                b"\x1b[38;5;208m",
                vec![Attr::Foreground(Color::Indexed(208))],
            ),
            (
                b"\x1b[38;2;1;2;3;48;2;4;5;6m",
                vec![
                    Attr::Foreground(rgb(1, 2, 3)),
                    Attr::Background(rgb(4, 5, 6)),
                ],
            ),
            (
                b"\x1b[58;5;1;59m",
                vec![
                    Attr::UnderlineColor(Some(Color::Indexed(1))),
                    Attr::UnderlineColor(None),
                ],
            ),
            (
                b"\x1b[4;24;22;39;49m",
                vec![
                    Attr::Underline,
                    Attr::CancelUnderline,
                    Attr::CancelBoldDim,
                    Attr::Foreground(Color::Named(NamedColor::Foreground)),
                    Attr::Background(Color::Named(NamedColor::Background)),
                ],
            ),
        ];
        for (bytes, expected) in cases {
            assert_eq!(attrs(bytes).as_ref(), Some(expected), "{bytes:?}");
        }
    }

    #[test]
    fn as_many_parameters_as_vte_keeps_are_read() {
        let bytes = format!("\x1b[{}1m", "0;".repeat(MAX_PARAMS - 1));
        let mut expected: Vec<Attr> = (1..MAX_PARAMS).map(|_| Attr::Reset).collect();
        expected.push(Attr::Bold);
        assert_eq!(attrs(bytes.as_bytes()), Some(expected));
    }

    /// The attributes vte itself gives a handler for `bytes`.
    fn vtes_attrs(bytes: &[u8]) -> Vec<Attr> {
        #[derive(Default)]
        struct Recorder(Vec<Attr>);
        impl Handler for Recorder {
            fn terminal_attribute(&mut self, attr: Attr) {
                self.0.push(attr);
            }
        }
        let mut recorder = Recorder::default();
        Processor::<StdSyncHandler>::new().advance(&mut recorder, bytes);
        recorder.0
    }

    #[test]
    fn codes_vte_skips_are_skipped_with_what_they_take() {
        let cases: &[(&[u8], Vec<Attr>)] = &[
            (b"\x1b[53m", vec![]), // a code vte ignores
            (b"\x1b[10;1m", vec![Attr::Bold]),
            (b"\x1b[38;5;256m", vec![]), // an index out of range
            (b"\x1b[38;2;1;2m", vec![]), // a colour cut short
            (b"\x1b[38m", vec![]),
            (b"\x1b[38;7;1m", vec![Attr::Bold]), // no such colour space: 7 is taken
            // A red out of range ends the colour; green and blue are codes of their own.
            (b"\x1b[38;2;300;4;1m", vec![Attr::Underline, Attr::Bold]),
            // vtebench's dense_cells.
            (
                b"\x1b[38;5;102;48;5;353;1;3;4m",
                vec![
                    Attr::Foreground(Color::Indexed(102)),
                    Attr::Bold,
                    Attr::Italic,
                    Attr::Underline,
                ],
            ),
        ];
        for (bytes, expected) in cases {
            assert_eq!(vtes_attrs(bytes), *expected, "vte, {bytes:?}");
            assert_eq!(attrs(bytes).as_ref(), Some(expected), "{bytes:?}");
        }
    }

    #[test]
    fn unusual_sgrs_are_left_to_vte_whole() {
        for bytes in [
            &b"\x1b[4:3m"[..],    // a sub-parameter
            b"\x1b[38:2::1:2:3m", // colon colour
            b"\x1b[1000m",        // more digits than any code
            b"\x1b[>4;1m",        // a private marker
            b"\x1b[0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0m", // 33, more than vte keeps
        ] {
            assert!(attrs(bytes).is_none(), "{bytes:?}");
            assert_eq!(length(bytes), Some(bytes.len()), "{bytes:?}");
        }
    }

    #[test]
    fn whole_sequences_are_measured_and_strings_are_not() {
        let cases: &[(&[u8], Option<usize>)] = &[
            (b"\x1b[2Kabc", Some(4)),
            (b"\x1b[12;1Hx", Some(7)),
            (b"\x1b[ qx", Some(4)),
            (b"\x1bMx", Some(2)),
            (b"\x1b(0x", Some(3)),
            (b"\x1b\\", Some(2)),
            (b"\x1b[2", None),     // cut by the read
            (b"\x1b[1\n2K", None), // a control inside
            (b"\x1b[1\x1b[2K", None),
            (b"\x1bPq#0\x1b\\", None), // DCS
            (b"\x1b]0;t\x07", None),
            (b"\x1b_x\x1b\\", None),
            (b"\x1b", None),
        ];
        for (bytes, expected) in cases {
            assert_eq!(length(bytes), *expected, "{bytes:?}");
        }
    }

    #[test]
    fn cursor_motion_and_erase_with_plain_parameters_are_executed_here() {
        let executed = |bytes: &[u8]| matches!(scan(bytes), Escape::Csi(..));
        let ours: &[&[u8]] = &[
            b"\x1b[H",
            b"\x1b[12;40H",
            b"\x1b[;5f",
            b"\x1b[7;H",
            b"\x1b[2K",
            b"\x1b[J",
            b"\x1b[3J",
            b"\x1b[1A",
            b"\x1b[999C",
            b"\x1b[0e",
            b"\x1b[4P",
            b"\x1b[X",
            b"\x1b[7d",
            b"\x1b[5`",
            b"\x1b[3L",
            b"\x1b[M",
            b"\x1b[2@",
        ];
        for bytes in ours {
            assert!(executed(bytes), "{bytes:?} executed by the feed");
        }
        let vtes: &[&[u8]] = &[
            b"\x1b[1;2;3H", // a third parameter
            b"\x1b[1000H",  // four digits
            b"\x1b[3K",     // an erase mode vte does not know
            b"\x1b[5J",
            b"\x1b[?1J",  // private
            b"\x1b[1:2H", // a sub-parameter
            b"\x1b[1 A",  // an intermediate
            b"\x1b[2E",   // not among those executed here
            b"\x1b[2b",   // REP
        ];
        for bytes in vtes {
            assert!(!executed(bytes), "{bytes:?} left to vte");
        }
    }

    #[test]
    fn a_private_mode_set_may_hold_output_back() {
        assert!(matches!(scan(b"\x1b[?2026h"), Escape::MayHoldBack(8)));
        assert!(matches!(scan(b"\x1b[?25;2026hx"), Escape::MayHoldBack(11)));
        assert!(matches!(scan(b"\x1b[4h"), Escape::Whole(4)));
        assert!(matches!(scan(b"\x1b[?2026l"), Escape::Whole(8)));
    }
}

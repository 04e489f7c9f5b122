//! Mouse events to the bytes a program that asked for them receives.
//!
//! Modes (xterm ctlseqs, "Mouse Tracking"): 1000 reports presses and releases, 1002 adds motion
//! while a button is held, 1003 adds all motion. Encodings: the default `CSI M Cb Cx Cy` with
//! each value + 32 in one byte (coordinates up to 223), UTF-8 (1005: coordinates up to 2015 as
//! UTF-8 characters) and SGR (1006: `CSI < b;x;y M`, `m` for a release, no limit).
//!
//! X10 compatibility mode (9) reports presses only, without modifiers. alacritty_terminal
//! does not track it; the parser thread does (`Snapshot::mouse_x10`), and it is passed here
//! alongside the modes.

use alacritty_terminal::term::TermMode;

use super::keyboard::Mods;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum MouseButton {
    Left,
    Middle,
    Right,
    WheelUp,
    WheelDown,
    WheelLeft,
    WheelRight,
    Back,
    Forward,
}

impl MouseButton {
    /// The button's number in xterm's encoding.
    fn code(self) -> u32 {
        match self {
            MouseButton::Left => 0,
            MouseButton::Middle => 1,
            MouseButton::Right => 2,
            MouseButton::WheelUp => 64,
            MouseButton::WheelDown => 65,
            MouseButton::WheelLeft => 66,
            MouseButton::WheelRight => 67,
            MouseButton::Back => 128,
            MouseButton::Forward => 129,
        }
    }

    pub fn is_wheel(self) -> bool {
        matches!(
            self,
            MouseButton::WheelUp
                | MouseButton::WheelDown
                | MouseButton::WheelLeft
                | MouseButton::WheelRight
        )
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum MouseEvent {
    Press(MouseButton),
    Release(MouseButton),
    /// The pointer moved to another cell, with this button held (the lowest-numbered one).
    Motion(Option<MouseButton>),
}

/// Whether the program asked for any mouse reports.
pub fn reporting(modes: TermMode, x10: bool) -> bool {
    x10 || modes.intersects(TermMode::MOUSE_MODE)
}

/// The bytes for a mouse event at cell (`col`, `row`) of the screen, 0-based, or `None` when
/// the program did not ask for this event (or it cannot be encoded in its encoding). `x10` is
/// X10 compatibility mode, which wins over the others, as the last one set does in xterm.
pub fn encode_mouse(
    event: MouseEvent,
    mods: Mods,
    col: usize,
    row: usize,
    modes: TermMode,
    x10: bool,
) -> Option<Vec<u8>> {
    let wanted = match event {
        _ if x10 => matches!(event, MouseEvent::Press(_)),
        MouseEvent::Press(_) => modes.intersects(TermMode::MOUSE_MODE),
        // Wheels have no release; they are reported as presses only.
        MouseEvent::Release(button) => modes.intersects(TermMode::MOUSE_MODE) && !button.is_wheel(),
        MouseEvent::Motion(held) => {
            modes.contains(TermMode::MOUSE_MOTION)
                || (held.is_some() && modes.contains(TermMode::MOUSE_DRAG))
        }
    };
    if !wanted {
        return None;
    }
    let modifiers = if x10 {
        0
    } else {
        4 * mods.shift as u32 + 8 * mods.alt as u32 + 16 * mods.ctrl as u32
    };
    let sgr = modes.contains(TermMode::SGR_MOUSE);
    let button = match event {
        MouseEvent::Press(b) => b.code(),
        // The default encodings cannot say which button was released.
        MouseEvent::Release(b) if sgr => b.code(),
        MouseEvent::Release(_) => 3,
        MouseEvent::Motion(held) => 32 + held.map_or(3, MouseButton::code),
    } + modifiers;

    if sgr {
        let last = if matches!(event, MouseEvent::Release(_)) {
            'm'
        } else {
            'M'
        };
        return Some(format!("\x1b[<{button};{};{}{last}", col + 1, row + 1).into_bytes());
    }
    let mut out = b"\x1b[M".to_vec();
    let utf8 = modes.contains(TermMode::UTF8_MOUSE);
    for value in [button, col as u32 + 1, row as u32 + 1] {
        push_coordinate(&mut out, value + 32, utf8)?;
    }
    Some(out)
}

/// One value of the default or UTF-8 encoding; `None` if it does not fit.
fn push_coordinate(out: &mut Vec<u8>, value: u32, utf8: bool) -> Option<()> {
    if utf8 {
        // xterm limits 1005 to 2047 so that every value is at most two bytes.
        let c = char::from_u32(value).filter(|_| value < 2048)?;
        let mut buf = [0; 4];
        out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
    } else {
        out.push(u8::try_from(value).ok()?);
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const CLICK: TermMode = TermMode::MOUSE_REPORT_CLICK;
    const SGR: TermMode = TermMode::MOUSE_REPORT_CLICK.union(TermMode::SGR_MOUSE);

    fn enc(event: MouseEvent, mods: Mods, col: usize, row: usize, modes: TermMode) -> Vec<u8> {
        encode_mouse(event, mods, col, row, modes, false).unwrap_or_default()
    }

    #[test]
    fn x10_reports_presses_only_without_modifiers() {
        let ctrl = Mods {
            ctrl: true,
            ..Mods::NONE
        };
        let x10 = |event, modes| encode_mouse(event, ctrl, 0, 0, modes, true);
        let left = MouseButton::Left;
        assert!(reporting(TermMode::empty(), true));
        assert_eq!(
            x10(MouseEvent::Press(left), TermMode::empty()).unwrap(),
            b"\x1b[M !!"
        );
        assert_eq!(x10(MouseEvent::Release(left), TermMode::empty()), None);
        assert_eq!(
            x10(MouseEvent::Motion(Some(left)), TermMode::MOUSE_MOTION),
            None
        );
        // With SGR asked for as well, the press is written as SGR.
        assert_eq!(
            x10(MouseEvent::Press(left), TermMode::SGR_MOUSE).unwrap(),
            b"\x1b[<0;1;1M"
        );
    }

    #[test]
    fn nothing_unless_asked() {
        let press = MouseEvent::Press(MouseButton::Left);
        assert_eq!(enc(press, Mods::NONE, 0, 0, TermMode::empty()), b"");
        // 1000 reports no motion; 1002 only motion with a button held; 1003 all motion.
        assert_eq!(enc(MouseEvent::Motion(None), Mods::NONE, 0, 0, CLICK), b"");
        let drag = TermMode::MOUSE_DRAG;
        assert_eq!(enc(MouseEvent::Motion(None), Mods::NONE, 0, 0, drag), b"");
        assert_eq!(
            enc(
                MouseEvent::Motion(Some(MouseButton::Left)),
                Mods::NONE,
                0,
                0,
                drag
            ),
            b"\x1b[M@!!"
        );
        let any = TermMode::MOUSE_MOTION;
        assert_eq!(
            enc(MouseEvent::Motion(None), Mods::NONE, 1, 2, any),
            b"\x1b[MC\"#"
        );
    }

    #[test]
    fn default_encoding() {
        let left = MouseButton::Left;
        // Button 0 + 32 = ' ', column 1 + 32 = '!', row 1 + 32 = '!'.
        assert_eq!(
            enc(MouseEvent::Press(left), Mods::NONE, 0, 0, CLICK),
            b"\x1b[M !!"
        );
        assert_eq!(
            enc(MouseEvent::Release(left), Mods::NONE, 9, 4, CLICK),
            b"\x1b[M#*%"
        );
        let right = MouseEvent::Press(MouseButton::Right);
        let ctrl = Mods {
            ctrl: true,
            ..Mods::NONE
        };
        assert_eq!(enc(right, ctrl, 0, 0, CLICK), b"\x1b[M2!!");
        let wheel = MouseEvent::Press(MouseButton::WheelUp);
        assert_eq!(enc(wheel, Mods::NONE, 0, 0, CLICK), b"\x1b[M`!!");
        assert_eq!(
            enc(
                MouseEvent::Release(MouseButton::WheelUp),
                Mods::NONE,
                0,
                0,
                CLICK
            ),
            b""
        );
        // Column 223 is the last one the single-byte encoding can hold.
        assert_eq!(
            enc(MouseEvent::Press(left), Mods::NONE, 222, 0, CLICK).len(),
            6
        );
        assert_eq!(enc(MouseEvent::Press(left), Mods::NONE, 223, 0, CLICK), b"");
    }

    #[test]
    fn utf8_encoding() {
        let modes = CLICK | TermMode::UTF8_MOUSE;
        let got = enc(
            MouseEvent::Press(MouseButton::Left),
            Mods::NONE,
            299,
            0,
            modes,
        );
        let mut want = b"\x1b[M !".to_vec();
        want.splice(4..4, "\u{14c}".bytes()); // 299 + 1 + 32 = 332 = U+014C.
        assert_eq!(got, want);
    }

    #[test]
    fn sgr_encoding() {
        let left = MouseButton::Left;
        assert_eq!(
            enc(MouseEvent::Press(left), Mods::NONE, 0, 0, SGR),
            b"\x1b[<0;1;1M"
        );
        assert_eq!(
            enc(MouseEvent::Release(left), Mods::NONE, 499, 299, SGR),
            b"\x1b[<0;500;300m"
        );
        let shift_alt = Mods {
            shift: true,
            alt: true,
            ..Mods::NONE
        };
        assert_eq!(
            enc(MouseEvent::Press(MouseButton::Middle), shift_alt, 2, 3, SGR),
            b"\x1b[<13;3;4M"
        );
        assert_eq!(
            enc(
                MouseEvent::Press(MouseButton::WheelDown),
                Mods::NONE,
                0,
                0,
                SGR
            ),
            b"\x1b[<65;1;1M"
        );
        let drag = SGR | TermMode::MOUSE_DRAG;
        assert_eq!(
            enc(
                MouseEvent::Motion(Some(MouseButton::Right)),
                Mods::NONE,
                4,
                5,
                drag
            ),
            b"\x1b[<34;5;6M"
        );
    }
}

//! The few X11 requests the driver needs: find the terminal's window, focus it, press a key
//! with XTest, read a pixel back.

use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use x11rb::connection::Connection;
use x11rb::protocol::xproto::{ConnectionExt as _, ImageFormat, InputFocus, MapState};
use x11rb::protocol::xtest::ConnectionExt as _;
use x11rb::rust_connection::RustConnection;
use x11rb::{CURRENT_TIME, NONE};

pub struct Display {
    conn: RustConnection,
    root: u32,
}

impl Display {
    pub fn connect() -> anyhow::Result<Self> {
        Self::connect_to(None)
    }

    /// Connects to `display` (`:N`), or to `$DISPLAY` for `None`.
    pub fn connect_to(display: Option<&str>) -> anyhow::Result<Self> {
        let (conn, screen) = x11rb::connect(display)?;
        let root = conn.setup().roots[screen].root;
        Ok(Self { conn, root })
    }

    /// The top-most viewable window (the terminal just started; the benchmark display has no
    /// other windows and no window manager).
    pub fn wait_for_window(&self, timeout: Duration) -> anyhow::Result<u32> {
        let deadline = Instant::now() + timeout;
        loop {
            let tree = self.conn.query_tree(self.root)?.reply()?;
            for &w in tree.children.iter().rev() {
                let attrs = self.conn.get_window_attributes(w)?.reply()?;
                if attrs.map_state == MapState::VIEWABLE && !attrs.override_redirect {
                    return Ok(w);
                }
            }
            if Instant::now() > deadline {
                bail!("no terminal window appeared");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    pub fn focus(&self, window: u32) -> anyhow::Result<()> {
        self.conn
            .set_input_focus(InputFocus::PARENT, window, CURRENT_TIME)?;
        self.conn.flush()?;
        Ok(())
    }

    pub fn size(&self, window: u32) -> anyhow::Result<(u16, u16)> {
        let g = self.conn.get_geometry(window)?.reply()?;
        Ok((g.width, g.height))
    }

    /// The keycode that types `c` without modifiers.
    pub fn keycode_for(&self, c: char) -> anyhow::Result<u8> {
        let setup = self.conn.setup();
        let (min, max) = (setup.min_keycode, setup.max_keycode);
        let map = self
            .conn
            .get_keyboard_mapping(min, max - min + 1)?
            .reply()?;
        let per = map.keysyms_per_keycode as usize;
        let index = map
            .keysyms
            .chunks(per)
            .position(|syms| syms.first() == Some(&(c as u32)))
            .with_context(|| format!("no key types {c:?}"))?;
        Ok(min + index as u8)
    }

    /// Presses and releases a key, as a user would.
    pub fn tap(&self, keycode: u8) -> anyhow::Result<()> {
        const KEY_PRESS: u8 = 2;
        const KEY_RELEASE: u8 = 3;
        for kind in [KEY_PRESS, KEY_RELEASE] {
            self.conn
                .xtest_fake_input(kind, keycode, CURRENT_TIME, NONE, 0, 0, 0)?;
        }
        self.conn.flush()?;
        Ok(())
    }

    /// The colour of one pixel of the window as shown.
    pub fn pixel(&self, window: u32, x: i16, y: i16) -> anyhow::Result<[u8; 3]> {
        let image = self
            .conn
            .get_image(ImageFormat::Z_PIXMAP, window, x, y, 1, 1, !0)?
            .reply()?;
        match image.data.as_slice() {
            // 24-bit TrueColor in 32-bit pixels, least significant byte first: B, G, R.
            [b, g, r, ..] => Ok([*r, *g, *b]),
            _ => bail!("unexpected image format (depth {})", image.depth),
        }
    }
}

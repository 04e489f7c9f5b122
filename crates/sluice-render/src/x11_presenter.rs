//! Showing the software renderer's frames in an X11 window, straight from their memory.
//!
//! Each pane's frame is a memory file the X server maps once (MIT-SHM `AttachFd`,
//! shared_memory.rs), so showing its changed rows is one `ShmPutImage` request per run of
//! rows (two where the run wraps round the frame's ring) and no copy on Sluice's side: the
//! copy of every changed row into a window image was 17% of the UI thread's time in a
//! Metro-like build at 100×30 and 28% at 200×60 (docs/performance.md, "The software
//! renderer"). Where the server cannot map Sluice's memory (a remote display), the rows go
//! over the socket with `PutImage`.
//!
//! The presenter has a connection of its own to the X server, on which it also asks for the
//! window's `Expose` events: a window without a compositor loses what another window covered,
//! and only an expose says so (winit reports it as a redraw, like any other).

use std::collections::HashMap;
use std::ops::Range;

use sluice_term::Rgb;
use wgpu::rwh::RawWindowHandle;
use x11rb::connection::{Connection as _, RequestConnection as _};
use x11rb::cookie::Cookie;
use x11rb::protocol::Event;
use x11rb::protocol::shm::{self, ConnectionExt as _};
use x11rb::protocol::xproto::{self, ConnectionExt as _, ImageFormat, ImageOrder, VisualClass};
use x11rb::rust_connection::RustConnection;

use crate::renderer::MemoryFrame;
use crate::surface::Placed;

/// A window on an X server, and how frames reach it.
pub(crate) struct X11Presenter {
    conn: RustConnection,
    window: u32,
    gc: u32,
    depth: u8,
    /// Whether the server maps Sluice's frames (MIT-SHM 1.2, on this machine).
    shm: bool,
    /// The segment each frame is attached as, by frame id.
    segments: HashMap<u64, u32>,
    /// The `GetInputFocus` sent after the last frame's requests: its reply means the server
    /// has read every row they name.
    pending: Option<u64>,
    /// The colour the GC fills with.
    fill: Option<Rgb>,
    /// Where rows are copied to go over the socket when the server cannot map a frame (no
    /// MIT-SHM): kept, so that each frame's rows do not allocate.
    socket_rows: Vec<u8>,
}

impl X11Presenter {
    /// A presenter for `window`, when it is an X11 window whose visual takes Sluice's pixels
    /// as they are (32-bit `0x__RRGGBB`, the server's byte order Sluice's); `None` otherwise.
    pub fn new(window: RawWindowHandle) -> Option<X11Presenter> {
        let window = match window {
            RawWindowHandle::Xlib(h) => u32::try_from(h.window).ok()?,
            RawWindowHandle::Xcb(h) => h.window.get(),
            _ => return None,
        };
        let (conn, _) = RustConnection::connect(None)
            .map_err(|err| tracing::debug!(%err, "no X connection of our own"))
            .ok()?;
        let depth = conn.get_geometry(window).ok()?.reply().ok()?.depth;
        let visual = conn
            .get_window_attributes(window)
            .ok()?
            .reply()
            .ok()?
            .visual;
        if !takes_our_pixels(conn.setup(), depth, visual) {
            tracing::debug!(depth, visual, "the window's visual is not 32-bit xRGB");
            return None;
        }
        let gc = conn.generate_id().ok()?;
        conn.create_gc(
            gc,
            window,
            &xproto::CreateGCAux::new().graphics_exposures(0),
        )
        .ok()?
        .check()
        .ok()?;
        // Our own event mask on the window, beside winit's: only exposures.
        conn.change_window_attributes(
            window,
            &xproto::ChangeWindowAttributesAux::new().event_mask(xproto::EventMask::EXPOSURE),
        )
        .ok()?
        .check()
        .ok()?;
        let shm = can_attach_fds(&conn);
        tracing::info!(shm, "software frames shown on X11 from their memory");
        Some(X11Presenter {
            conn,
            window,
            gc,
            depth,
            shm,
            segments: HashMap::new(),
            socket_rows: Vec::new(),
            pending: None,
            fill: None,
        })
    }

    /// Waits until the server has read the rows the last frame showed, so that they can be
    /// drawn again. Usually at once: the server copied them while Sluice was idle.
    pub fn wait(&mut self) {
        if let Some(sequence) = self.pending.take() {
            let cookie = Cookie::<_, xproto::GetInputFocusReply>::new(&self.conn, sequence);
            if let Err(err) = cookie.reply() {
                tracing::debug!(%err, "X server gone or out of sync");
            }
        }
    }

    /// Whether part of the window was exposed (and so lost) since the last call.
    pub fn exposed(&mut self) -> bool {
        let mut exposed = false;
        while let Ok(Some(event)) = self.conn.poll_for_event() {
            match event {
                Event::Expose(e) if e.window == self.window => exposed = true,
                Event::Error(err) => tracing::debug!(?err, "X error"),
                _ => {}
            }
        }
        exposed
    }

    /// Fills `(x, y, width, height)` of the window with `color`.
    pub fn fill(&mut self, color: Rgb, (x, y, width, height): (u32, u32, u32, u32)) {
        if self.fill != Some(color) {
            let pixel = u32::from_be_bytes([0, color.r, color.g, color.b]);
            let _ = self
                .conn
                .change_gc(self.gc, &xproto::ChangeGCAux::new().foreground(pixel))
                .map(|c| c.ignore_error());
            self.fill = Some(color);
        }
        let rectangle = xproto::Rectangle {
            x: clamp_i16(x),
            y: clamp_i16(y),
            width: clamp_u16(width),
            height: clamp_u16(height),
        };
        let _ = self
            .conn
            .poly_fill_rectangle(self.window, self.gc, &[rectangle])
            .map(|c| c.ignore_error());
    }

    /// Shows viewport `rows` of `frame` at the pane's place, cut to a window of `size`.
    pub fn put_rows(
        &mut self,
        placed: &Placed<'_>,
        frame: &MemoryFrame<'_>,
        rows: Range<usize>,
        size: (u32, u32),
    ) {
        let ring = frame.ring;
        let rh = ring.row_height;
        let visible = ring.width.min(size.0.saturating_sub(placed.x));
        if visible == 0 {
            return;
        }
        // The run in frame rows, in at most two pieces: up to the ring's end, then from its
        // start.
        let mut viewport_row = rows.start;
        while viewport_row < rows.end {
            let frame_row = ring.frame_row(viewport_row);
            let count = (rows.end - viewport_row).min(ring.rows - frame_row);
            let dst_y = placed.y + viewport_row as u32 * rh;
            let lines = (count as u32 * rh).min(size.1.saturating_sub(dst_y));
            if lines > 0 {
                let src_y = frame_row as u32 * rh;
                let at = (placed.x, dst_y);
                self.put(frame, (src_y, lines), visible, at);
            }
            viewport_row += count;
        }
    }

    /// One rectangle of `frame`: `lines` lines from `src_y`, `width` pixels, to `at`.
    fn put(
        &mut self,
        frame: &MemoryFrame<'_>,
        (src_y, lines): (u32, u32),
        width: u32,
        at: (u32, u32),
    ) {
        let ring = frame.ring;
        if let Some(segment) = self.shm.then(|| self.segment(frame)).flatten() {
            let _ = self
                .conn
                .shm_put_image(
                    self.window,
                    self.gc,
                    clamp_u16(ring.width),
                    clamp_u16(ring.height),
                    0,
                    clamp_u16(src_y),
                    clamp_u16(width),
                    clamp_u16(lines),
                    clamp_i16(at.0),
                    clamp_i16(at.1),
                    self.depth,
                    ImageFormat::Z_PIXMAP.into(),
                    false,
                    segment,
                    0,
                )
                .map(|c| c.ignore_error());
            return;
        }
        // Over the socket, in requests the server accepts (each line is 4 bytes a pixel).
        let line_bytes = width as usize * 4;
        let most = (self.conn.maximum_request_bytes().saturating_sub(64) / line_bytes).max(1);
        let mut data = std::mem::take(&mut self.socket_rows);
        for first in (0..lines).step_by(most) {
            let count = (lines - first).min(most as u32);
            data.clear();
            for line in src_y + first..src_y + first + count {
                let start = (line * ring.width) as usize;
                let pixels = &frame.pixels[start..start + width as usize];
                data.extend(pixels.iter().flat_map(|p| p.to_ne_bytes()));
            }
            let _ = self
                .conn
                .put_image(
                    ImageFormat::Z_PIXMAP,
                    self.window,
                    self.gc,
                    clamp_u16(width),
                    clamp_u16(count),
                    clamp_i16(at.0),
                    clamp_i16(at.1 + first),
                    0,
                    self.depth,
                    &data,
                )
                .map(|c| c.ignore_error());
        }
        self.socket_rows = data;
    }

    /// The segment `frame` is attached as, attaching it the first time.
    fn segment(&mut self, frame: &MemoryFrame<'_>) -> Option<u32> {
        if let Some(&segment) = self.segments.get(&frame.id) {
            return Some(segment);
        }
        let fd = frame.fd?.try_clone_to_owned().ok()?;
        let segment = self.conn.generate_id().ok()?;
        self.conn
            .shm_attach_fd(segment, fd, true)
            .ok()?
            .ignore_error();
        self.segments.insert(frame.id, segment);
        Some(segment)
    }

    /// Ends a frame: asks for the reply that [`wait`](Self::wait) waits for, detaches the
    /// segments of frames no longer shown (`shown`: the ids of those that are), and sends
    /// everything.
    pub fn finish(&mut self, shown: &[u64]) {
        let gone: Vec<u64> = self
            .segments
            .keys()
            .filter(|id| !shown.contains(id))
            .copied()
            .collect();
        for id in gone {
            if let Some(segment) = self.segments.remove(&id) {
                let _ = self.conn.shm_detach(segment).map(|c| c.ignore_error());
            }
        }
        if let Ok(cookie) = self.conn.get_input_focus() {
            self.pending = Some(cookie.sequence_number());
            // The reply is read by `wait`, from a cookie made anew for this sequence number.
            std::mem::forget(cookie);
        }
        if let Err(err) = self.conn.flush() {
            tracing::debug!(%err, "cannot send to the X server");
        }
    }
}

impl Drop for X11Presenter {
    fn drop(&mut self) {
        self.wait();
        for (_, segment) in self.segments.drain() {
            let _ = self.conn.shm_detach(segment).map(|c| c.ignore_error());
        }
        let _ = self.conn.free_gc(self.gc).map(|c| c.ignore_error());
        let _ = self.conn.flush();
    }
}

/// Whether a window of `depth` and `visual` stores a pixel as a 32-bit `0x__RRGGBB` in the
/// byte order this machine writes one.
fn takes_our_pixels(setup: &xproto::Setup, depth: u8, visual: u32) -> bool {
    let ours = if cfg!(target_endian = "little") {
        ImageOrder::LSB_FIRST
    } else {
        ImageOrder::MSB_FIRST
    };
    let bits = setup
        .pixmap_formats
        .iter()
        .any(|f| f.depth == depth && f.bits_per_pixel == 32);
    let masks = setup
        .roots
        .iter()
        .flat_map(|screen| &screen.allowed_depths)
        .filter(|d| d.depth == depth)
        .flat_map(|d| &d.visuals)
        .find(|v| v.visual_id == visual)
        .is_some_and(|v| {
            matches!(v.class, VisualClass::TRUE_COLOR | VisualClass::DIRECT_COLOR)
                && (v.red_mask, v.green_mask, v.blue_mask) == (0xff_0000, 0xff00, 0xff)
        });
    setup.image_byte_order == ours && bits && masks
}

/// Whether the server maps memory files Sluice hands it (MIT-SHM 1.2 and a local server):
/// tried with a small one.
fn can_attach_fds(conn: &RustConnection) -> bool {
    if conn
        .extension_information(shm::X11_EXTENSION_NAME)
        .ok()
        .flatten()
        .is_none()
    {
        return false;
    }
    let new_enough = conn
        .shm_query_version()
        .ok()
        .and_then(|c| c.reply().ok())
        .is_some_and(|v| (v.major_version, v.minor_version) >= (1, 2));
    if !new_enough {
        return false;
    }
    let memory = crate::shared_memory::FrameMemory::new(1024);
    let (Some(fd), Ok(segment)) = (
        memory.fd().and_then(|fd| fd.try_clone_to_owned().ok()),
        conn.generate_id(),
    ) else {
        return false;
    };
    let attached = conn
        .shm_attach_fd(segment, fd, true)
        .ok()
        .is_some_and(|c| c.check().is_ok());
    if attached {
        let _ = conn.shm_detach(segment).map(|c| c.ignore_error());
    }
    attached
}

fn clamp_u16(v: u32) -> u16 {
    v.min(u16::MAX as u32) as u16
}

fn clamp_i16(v: u32) -> i16 {
    v.min(i16::MAX as u32) as i16
}

//! Presenting frames to a window without a GPU.
//!
//! Each frame shows only the rows of panes whose fingerprint changed since the last one: a
//! keystroke's echo moves one row, not the window. On X11 the rows go to the server straight
//! from the panes' frames, which it maps (x11_presenter.rs); elsewhere (Wayland) they are
//! copied into the window's image in shared memory (softbuffer's `wl_shm` buffers) and only
//! those rows are handed over. With wgpu on a software adapter (lavapipe), each frame was
//! copied twice by lavapipe's queue thread and then, through Mesa's X11 presentation, sent
//! whole over the X socket (no MIT-SHM without DRI3 and Present, which Xvfb, Xvnc and xrdp
//! lack): 37% of the UI thread's time in a Metro-like build, plus the queue thread
//! (docs/performance.md, "The software renderer").

use std::num::NonZeroU32;
use std::ops::Range;

use sluice_term::Rgb;
use wgpu::rwh::{HasDisplayHandle, HasWindowHandle};

use crate::damage::UNDRAWN;
use crate::error::{Error, Result};
use crate::renderer::MemoryFrame;
use crate::surface::{Placed, Presented};
use crate::x11_presenter::X11Presenter;

/// A window's software surface, and what its window shows.
pub struct SoftwareSurface<W> {
    output: Output<W>,
    size: (u32, u32),
    /// What the window shows: what the last present left there.
    shown: Shown,
}

/// Where rows go.
enum Output<W> {
    /// Straight from the frames to the X server (boxed: its connection's buffers).
    X11(Box<X11Presenter>),
    /// Copied into the window's image, which softbuffer hands over.
    Image(softbuffer::Surface<W, W>),
}

/// What the window shows, so that a frame shows only what differs.
#[derive(Debug, Default, Clone, PartialEq)]
struct Shown {
    /// The colour of what no pane covers; `None`: the window shows nothing known.
    background: Option<Rgb>,
    panes: Vec<ShownPane>,
}

/// A pane's frame as it was last shown.
#[derive(Debug, Clone, PartialEq)]
struct ShownPane {
    x: u32,
    y: u32,
    /// The frame it came from ([`MemoryFrame::id`]) and the frame's size.
    frame: u64,
    width: u32,
    height: u32,
    /// The fingerprint of each viewport row shown.
    rows: Vec<u64>,
}

/// What a frame must show: everything (the background, then every row of every pane), or
/// only runs of changed rows, as (index of the pane, its viewport rows).
#[derive(Debug, Default, PartialEq)]
struct Plan {
    whole: bool,
    rows: Vec<(usize, Range<usize>)>,
}

/// The lines of the window a frame changes: `(x, y, width, height)` in pixels.
type Rect = (u32, u32, u32, u32);

impl<W: HasDisplayHandle + HasWindowHandle + Clone> SoftwareSurface<W> {
    /// A surface for `window`, `size` pixels: straight to the X server where the window is
    /// an X11 window that takes Sluice's pixels as they are, else through softbuffer.
    pub fn new(window: W, size: (u32, u32)) -> Result<Self> {
        let handle = window
            .window_handle()
            .map_err(|e| Error::Surface(format!("no window handle: {e}")))?
            .as_raw();
        let output = match X11Presenter::new(handle) {
            Some(x11) => Output::X11(Box::new(x11)),
            None => {
                let context = softbuffer::Context::new(window.clone())
                    .map_err(|e| Error::Surface(format!("no software surface: {e}")))?;
                let surface = softbuffer::Surface::new(&context, window)
                    .map_err(|e| Error::Surface(format!("no software surface: {e}")))?;
                Output::Image(surface)
            }
        };
        let mut this = Self {
            output,
            size: (0, 0),
            shown: Shown::default(),
        };
        this.resize(size);
        Ok(this)
    }

    /// The window's size in pixels, as last resized.
    pub fn size(&self) -> (u32, u32) {
        self.size
    }

    /// Follows a window resize: everything is shown again at the next frame.
    pub fn resize(&mut self, size: (u32, u32)) {
        let size = (size.0.max(1), size.1.max(1));
        if size == self.size {
            return;
        }
        if let Output::Image(surface) = &mut self.output {
            let (width, height) = (
                NonZeroU32::new(size.0).expect("at least 1"),
                NonZeroU32::new(size.1).expect("at least 1"),
            );
            if let Err(err) = surface.resize(width, height) {
                tracing::warn!(%err, "cannot resize the window's image");
            }
        }
        self.size = size;
        self.shown = Shown::default();
    }

    /// Waits, before frames are drawn, until the window system has read what the last
    /// present showed from them (on X11 it reads the frames themselves).
    pub fn before_drawing(&mut self) {
        if let Output::X11(x11) = &mut self.output {
            x11.wait();
        }
    }

    /// Composes `panes` onto the window, each at its place, the rest of the window filled
    /// with `background`, and shows what changed. Panes whose frames are not in memory (not
    /// drawn by the software renderer) are left out.
    pub(crate) fn present(&mut self, panes: &[Placed<'_>], background: Rgb) -> Presented {
        let frames: Vec<(Placed<'_>, MemoryFrame<'_>)> = panes
            .iter()
            .filter_map(|p| Some((*p, p.view.frame_memory()?)))
            .collect();
        match &mut self.output {
            Output::X11(x11) => {
                x11.wait();
                if x11.exposed() {
                    self.shown = Shown::default();
                }
                let (shown, plan) = plan(&self.shown, &frames, background);
                self.shown = shown;
                if plan.whole {
                    x11.fill(background, (0, 0, self.size.0, self.size.1));
                }
                for (pane, rows) in plan.rows {
                    let (placed, frame) = &frames[pane];
                    x11.put_rows(placed, frame, rows, self.size);
                }
                let ids: Vec<u64> = frames.iter().map(|(_, f)| f.id).collect();
                x11.finish(&ids);
                Presented::Shown
            }
            Output::Image(surface) => {
                let result = present_image(surface, &mut self.shown, &frames, background);
                result.unwrap_or_else(|err| {
                    tracing::warn!(%err, "cannot show the window's image");
                    self.shown = Shown::default();
                    Presented::Skipped
                })
            }
        }
    }
}

/// Shows `frames` through softbuffer's image of the window, which holds what `shown` says
/// when it is the image presented last.
fn present_image<W: HasDisplayHandle + HasWindowHandle>(
    surface: &mut softbuffer::Surface<W, W>,
    shown: &mut Shown,
    frames: &[(Placed<'_>, MemoryFrame<'_>)],
    background: Rgb,
) -> std::result::Result<Presented, softbuffer::SoftBufferError> {
    let mut buffer = surface.buffer_mut()?;
    *shown = holding(std::mem::take(shown), buffer.age());
    // The image's own size, which is the window's unless a resize failed.
    let (width, height) = (buffer.width().get(), buffer.height().get());
    let image = WindowImage {
        pixels: &mut buffer,
        width,
        height,
    };
    let (now, damage) = compose(image, shown, frames, background);
    *shown = now;
    if damage.is_empty() {
        return Ok(Presented::Shown);
    }
    let rects: Vec<softbuffer::Rect> = damage
        .iter()
        .filter_map(|&(x, y, w, h)| {
            Some(softbuffer::Rect {
                x,
                y,
                width: NonZeroU32::new(w)?,
                height: NonZeroU32::new(h)?,
            })
        })
        .collect();
    buffer.present_with_damage(&rects)?;
    Ok(Presented::Shown)
}

/// What an image the window system hands out holds, given what the last present left and the
/// image's age (softbuffer's: 1 for the image presented last, 2 for the one before it, 0 for
/// a new one). Only the image presented last holds what was presented; any other (a new one,
/// or the older of the two a Wayland compositor swaps between) holds nothing known and is
/// filled whole.
fn holding(shown: Shown, age: u8) -> Shown {
    if age == 1 { shown } else { Shown::default() }
}

/// What to show of `frames` placed over `background` on a window that shows what `shown`
/// says, and what it will show then. When the background or the panes' places or frames
/// differ from `shown`, everything; otherwise only the rows whose fingerprint differs from
/// the one shown (or that were never drawn).
fn plan(shown: &Shown, frames: &[(Placed<'_>, MemoryFrame<'_>)], background: Rgb) -> (Shown, Plan) {
    let now = Shown {
        background: Some(background),
        panes: frames
            .iter()
            .map(|(placed, frame)| ShownPane {
                x: placed.x,
                y: placed.y,
                frame: frame.id,
                width: frame.ring.width,
                height: frame.ring.height,
                rows: frame.drawn.to_vec(),
            })
            .collect(),
    };
    let same_layout = shown.background == now.background
        && shown.panes.len() == now.panes.len()
        && shown.panes.iter().zip(&now.panes).all(|(a, b)| {
            (a.x, a.y, a.frame, a.width, a.height) == (b.x, b.y, b.frame, b.width, b.height)
        });
    let mut plan = Plan {
        whole: !same_layout,
        rows: Vec::new(),
    };
    for (i, (_, frame)) in frames.iter().enumerate() {
        let before = same_layout.then(|| &shown.panes[i].rows);
        let changed = |row: usize| {
            frame.drawn[row] == UNDRAWN
                || before.is_none_or(|rows| rows.get(row) != Some(&frame.drawn[row]))
        };
        let mut row = 0;
        while row < frame.ring.rows {
            if !changed(row) {
                row += 1;
                continue;
            }
            let first = row;
            while row < frame.ring.rows && changed(row) {
                row += 1;
            }
            plan.rows.push((i, first..row));
        }
    }
    (now, plan)
}

/// The window's image: `width × height` pixels in `0xAARRGGBB`, lines top to bottom.
struct WindowImage<'a> {
    pixels: &'a mut [u32],
    width: u32,
    height: u32,
}

/// Brings `image`, holding what `shown` says, to `frames` placed over `background` ([`plan`]);
/// returns what it holds now and the rectangles that changed.
fn compose(
    image: WindowImage<'_>,
    shown: &Shown,
    frames: &[(Placed<'_>, MemoryFrame<'_>)],
    background: Rgb,
) -> (Shown, Vec<Rect>) {
    let (now, plan) = plan(shown, frames, background);
    let WindowImage {
        pixels,
        width,
        height,
    } = image;
    let mut damage = Vec::new();
    if plan.whole {
        let [a, r, g, b] = [255, background.r, background.g, background.b];
        pixels.fill(u32::from_be_bytes([a, r, g, b]));
        damage.push((0, 0, width, height));
    }
    for (pane, rows) in plan.rows {
        let (placed, frame) = &frames[pane];
        let rect = copy_rows(pixels, (width, height), placed, frame, rows);
        if !plan.whole && rect.2 > 0 && rect.3 > 0 {
            damage.push(rect);
        }
    }
    (now, damage)
}

/// Copies viewport `rows` of `frame` into the image at the pane's place, cut to the image;
/// returns the rectangle written.
fn copy_rows(
    pixels: &mut [u32],
    (width, height): (u32, u32),
    placed: &Placed<'_>,
    frame: &MemoryFrame<'_>,
    rows: Range<usize>,
) -> Rect {
    let ring = frame.ring;
    let rh = ring.row_height;
    let top = placed.y + rows.start as u32 * rh;
    let lines = (rows.len() as u32 * rh).min(height.saturating_sub(top));
    let visible = ring.width.min(width.saturating_sub(placed.x)) as usize;
    if visible == 0 || lines == 0 {
        return (placed.x, top, 0, 0);
    }
    let (fw, iw) = (ring.width as usize, width as usize);
    for line in 0..lines {
        let row = rows.start + (line / rh) as usize;
        let src = ring.top_of(row) as usize + (line % rh) as usize;
        let src = &frame.pixels[src * fw..src * fw + visible];
        let dst = (top + line) as usize * iw + placed.x as usize;
        pixels[dst..dst + visible].copy_from_slice(src);
    }
    (placed.x, top, visible as u32, lines)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frame::FrameRing;
    use crate::renderer::PaneView;

    /// A frame of `rows` rows of 2×2 pixels, 2 wide, with the ring's top at `origin`; each
    /// frame row's pixels hold its frame row number plus `base`.
    fn frame(rows: usize, origin: usize, base: u32) -> (Vec<u32>, FrameRing) {
        let ring = FrameRing {
            width: 2,
            height: rows as u32 * 2,
            rows,
            row_height: 2,
            origin,
        };
        let pixels = (0..rows as u32 * 4).map(|i| base + i / 4).collect();
        (pixels, ring)
    }

    /// `frame`'s pixels as frame `id` of a pane placed at `at`, its rows fingerprinted
    /// `drawn`.
    fn pane<'a>(
        view: &'a PaneView,
        (pixels, ring): &'a (Vec<u32>, FrameRing),
        drawn: &'a [u64],
        at: (u32, u32),
        id: u64,
    ) -> [(Placed<'a>, MemoryFrame<'a>); 1] {
        let placed = Placed {
            view,
            x: at.0,
            y: at.1,
        };
        let frame = MemoryFrame {
            id,
            pixels,
            fd: None,
            ring: *ring,
            drawn,
        };
        [(placed, frame)]
    }

    /// Composes `frames` into `image`, `width` pixels wide, which holds what `shown` says.
    fn compose_into(
        image: &mut [u32],
        width: u32,
        shown: &Shown,
        frames: &[(Placed<'_>, MemoryFrame<'_>)],
        background: Rgb,
    ) -> (Shown, Vec<Rect>) {
        let height = image.len() as u32 / width;
        let image = WindowImage {
            pixels: image,
            width,
            height,
        };
        compose(image, shown, frames, background)
    }

    const BG: Rgb = Rgb { r: 1, g: 2, b: 3 };
    const BG_PIXEL: u32 = 0xff01_0203;

    #[test]
    fn a_first_frame_fills_the_background_and_copies_every_pane_unwound() {
        let (view, frame, drawn) = (PaneView::default(), frame(3, 1, 10), [1, 2, 3]);
        let mut image = vec![0; 4 * 6];
        let frames = pane(&view, &frame, &drawn, (1, 0), 7);
        let (shown, damage) = compose_into(&mut image, 4, &Shown::default(), &frames, BG);
        assert_eq!(damage, [(0, 0, 4, 6)], "all of it");
        // Viewport rows 0, 1, 2 are frame rows 1, 2, 0 (values 11, 12, 10).
        let column = |x: usize| (0..6).map(|y| image[y * 4 + x]).collect::<Vec<_>>();
        assert_eq!(column(0), [BG_PIXEL; 6]);
        assert_eq!(column(1), [11, 11, 12, 12, 10, 10]);
        assert_eq!(column(3), [BG_PIXEL; 6]);
        assert_eq!(shown.panes[0].rows, drawn);
    }

    #[test]
    fn later_frames_copy_and_damage_only_the_rows_that_changed() {
        let (view, frame) = (PaneView::default(), frame(4, 0, 20));
        let mut image = vec![0; 2 * 10];
        let mut shown = Shown::default();
        for (drawn, expect) in [
            ([1, 2, 3, 4], vec![(0, 0, 2, 10)]),
            // Rows 1 and 2 changed: one rectangle of both.
            ([1, 5, 6, 4], vec![(0, 4, 2, 4)]),
            // Nothing changed.
            ([1, 5, 6, 4], vec![]),
            // A row never drawn is copied whatever its fingerprint was.
            ([1, 5, 6, UNDRAWN], vec![(0, 8, 2, 2)]),
        ] {
            let frames = pane(&view, &frame, &drawn, (0, 2), 1);
            let damage;
            (shown, damage) = compose_into(&mut image, 2, &shown, &frames, BG);
            assert_eq!(damage, expect, "{drawn:?}");
        }
    }

    #[test]
    fn a_new_frame_a_move_or_a_new_background_redraws_everything() {
        let (view, frame, drawn) = (PaneView::default(), frame(2, 0, 0), [1, 2]);
        let mut image = vec![0; 4 * 4];
        let first = pane(&view, &frame, &drawn, (0, 0), 1);
        let (shown, _) = compose_into(&mut image, 4, &Shown::default(), &first, BG);
        let other = Rgb { r: 9, g: 9, b: 9 };
        for (x, id, bg) in [(1, 1, BG), (0, 2, BG), (0, 1, other)] {
            let frames = pane(&view, &frame, &drawn, (x, 0), id);
            let (_, damage) = compose_into(&mut image, 4, &shown, &frames, bg);
            assert_eq!(damage, [(0, 0, 4, 4)], "moved, another frame or colour");
        }
    }

    #[test]
    fn only_the_image_presented_last_is_taken_to_hold_what_was_presented() {
        let (view, frame, drawn) = (PaneView::default(), frame(2, 0, 0), [1, 2]);
        let mut image = vec![0; 2 * 4];
        let frames = pane(&view, &frame, &drawn, (0, 0), 1);
        let (shown, _) = compose_into(&mut image, 2, &Shown::default(), &frames, BG);
        assert_eq!(holding(shown.clone(), 1), shown);
        for age in [0, 2, 3] {
            let held = holding(shown.clone(), age);
            let (_, damage) = compose_into(&mut image, 2, &held, &frames, BG);
            assert_eq!(damage, [(0, 0, 2, 4)], "age {age}: filled whole");
        }
    }

    #[test]
    fn a_pane_larger_than_the_window_is_cut_to_it() {
        let (view, frame, drawn) = (PaneView::default(), frame(3, 0, 40), [1, 2, 3]);
        let mut image = vec![0; 2 * 5];
        let frames = pane(&view, &frame, &drawn, (1, 3), 1);
        compose_into(&mut image, 2, &Shown::default(), &frames, BG);
        // One column of the pane fits, and its first row's two lines.
        assert_eq!(&image[6..], [BG_PIXEL, 40, BG_PIXEL, 40]);
    }
}

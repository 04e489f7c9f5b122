//! One desktop window: its surface, frame pacing, keyboard and mouse state, its tabs (each a
//! layout of panes) and the tab bar.
//!
//! The UI thread never parses and never touches the PTY: it takes a pane's snapshot when the
//! pane's parser wakes it (at most once per refresh, fewer under a flood, see [`pacing`]),
//! renders outside the terminal lock, and hands keystrokes to the pane's writer thread.
//! Panes that are not shown (background tabs, the others while one is zoomed) keep reading
//! and parsing and are not drawn; the frame budget is the window's, not each pane's.
//!
//! An idle window has no timer: the event loop sleeps until input, output, or a deadline
//! that something visible needs (a blinking cursor before its timeout, the bell, a selection
//! autoscrolling, the metrics overlay while there is activity).

mod actions;
pub mod bindings;
mod blink;
mod frame;
mod input;
mod keys;
pub mod layout;
mod mouse;
mod pacing;
pub mod tabs;
mod timers;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use sluice_pty::WinSize;
use sluice_render::{GpuSurface, PaneView, SoftwareSurface};
use sluice_term::{ClipboardKind, SnapshotModes, TermEvent};
use winit::dpi::{LogicalSize, PhysicalSize};
use winit::event_loop::ActiveEventLoop;
use winit::keyboard::ModifiersState;
use winit::window::{UserAttentionType, Window as OsWindow};

use crate::app::{Graphics, Shared};
use crate::events::PaneId;
use crate::pane::{Pane, Spawn};
use blink::Blink;
use layout::{Border, CellRect, SplitDirection, Towards};
use mouse::{Geometry, Mouse};
use pacing::FramePacer;
use tabs::Tab;

/// The space around the cells (`window.padding_x`, `padding_y`, `balanced_padding`).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Padding {
    /// Logical pixels.
    x: f64,
    y: f64,
    balanced: bool,
}

impl Padding {
    fn of(config: &crate::config::Config) -> Self {
        Self {
            x: config.window.padding_x.into(),
            y: config.window.padding_y.into(),
            balanced: config.window.balanced_padding,
        }
    }
}

/// What a window asks of the application, which owns the event loop and the other windows.
#[derive(Debug)]
pub enum Request {
    NewWindow(Spawn),
    /// A new font size in points, for every window (they share the glyph atlas).
    FontSize(f32),
    /// The window moved to a monitor of another scale: fonts are rasterised for it.
    ScaleFactor(f64),
}

/// Everything that exists while the window is open. Field order is drop order: the panes
/// (their parsers, then their PTYs) stop before the surface and the window go.
pub struct Window {
    panes: BTreeMap<PaneId, Pane>,
    tabs: Vec<Tab>,
    active: usize,
    /// The tab bar's picture (drawn as a row of cells), while it is shown.
    tab_bar: Option<PaneView>,
    /// The pictures of the split borders, reused from frame to frame.
    borders: Vec<PaneView>,
    surface: WindowSurface,
    /// Made with an alpha channel (`window.opacity` under 1 when it opened): fixed for the
    /// window's life, as X11 visuals are.
    translucent: bool,
    pub os: Arc<OsWindow>,
    pacer: FramePacer,
    pub modifiers: ModifiersState,
    pub frame_requested: bool,
    /// The input method's uncommitted text, drawn at the focused pane's cursor.
    preedit: Option<String>,
    mouse: Mouse,
    /// The pane a selection drag started in: it keeps the pointer until the button is up.
    selecting_in: Option<PaneId>,
    /// A split border being dragged.
    dragging: Option<Border>,
    blink: Blink,
    autoscroll_at: Option<Instant>,
    /// Whether the window has the keyboard.
    has_focus: bool,
    /// The window cannot be seen (minimised, or covered where the platform says so): its
    /// panes keep reading and parsing, and nothing is drawn until it can be seen again.
    occluded: bool,
    /// Requests for the application, taken after each event.
    pub requests: Vec<Request>,
    /// The window's size as last asked for or reported, in physical pixels.
    inner_size: PhysicalSize<u32>,
    padding: Padding,
    /// The title while no program has set one (or always, without dynamic titles).
    title: String,
    /// The generation of the configuration problems this window's bar was dismissed for.
    problems_dismissed: u64,
    dynamic_title: bool,
}

impl Window {
    /// Opens a window of `size` cells running `spawn` in its one pane. The first window also
    /// sets up the GPU device and the renderer that every later window shares.
    pub fn open(
        event_loop: &ActiveEventLoop,
        shared: &mut Shared,
        spawn: &Spawn,
        size: (u16, u16),
    ) -> anyhow::Result<Window> {
        // The real cell size once the fonts are loaded; before the first window, an estimate
        // that the first resize corrects.
        let (cw, ch) = shared.graphics.as_ref().map_or((9.0, 19.0), |g| {
            let m = g.renderer.cell_metrics();
            (m.width as f64 / g.scale, m.height as f64 / g.scale)
        });
        let padding = Padding::of(&shared.config);
        let translucent = shared.config.window.opacity < 1.0;
        let mut attributes = window_attributes(&shared.config)
            .with_transparent(translucent && !shared.cli.debug_opaque_visual)
            .with_inner_size(LogicalSize::new(
                size.0 as f64 * cw + 2.0 * padding.x,
                size.1 as f64 * ch + 2.0 * padding.y,
            ));
        if shared.graphics.is_none() {
            // The launcher's startup notification (DESKTOP_STARTUP_ID, XDG_ACTIVATION_TOKEN)
            // belongs to the first window: with it the desktop focuses the window and ends
            // its "starting" cursor. Programs never see it (sluice-pty strips it).
            use winit::platform::startup_notify::{
                EventLoopExtStartupNotify as _, WindowAttributesExtStartupNotify as _,
            };
            if let Some(token) = event_loop.read_token_from_env() {
                attributes = attributes.with_activation_token(token);
            }
        }
        let os = Arc::new(
            event_loop
                .create_window(attributes)
                .context("cannot open a window")?,
        );
        os.set_ime_allowed(true);
        os.set_cursor(winit::window::CursorIcon::Text);
        let raw_surface = match &shared.graphics {
            Some(_) => None,
            None => {
                let (graphics, surface) =
                    Graphics::for_window(event_loop, &os, &shared.config, os.scale_factor())?;
                shared.graphics = Some(graphics);
                surface
            }
        };
        let g = shared.graphics.as_ref().expect("set up above");
        // The window sized from the real font metrics: the first window's estimate is
        // corrected here, before its program starts at the wrong size.
        let m = g.renderer.cell_metrics();
        let scale = os.scale_factor();
        let wanted = PhysicalSize::new(
            size.0 as u32 * m.width + (2.0 * padding.x * scale) as u32,
            size.1 as u32 * m.height + (2.0 * padding.y * scale) as u32,
        );
        let mut inner = os.inner_size();
        if wanted != inner {
            inner = os.request_inner_size(wanted).unwrap_or(wanted);
        }
        let surface = window_surface(g, &os, raw_surface, inner, translucent)?;
        let refresh = os
            .current_monitor()
            .and_then(|m| m.refresh_rate_millihertz())
            .map(|mhz| Duration::from_secs_f64(1000.0 / mhz as f64));
        let now = Instant::now();
        let mut window = Window {
            inner_size: inner,
            padding,
            title: shared.config.window.title.clone(),
            problems_dismissed: 0,
            dynamic_title: shared.config.window.dynamic_title,
            panes: BTreeMap::new(),
            tabs: Vec::new(),
            active: 0,
            tab_bar: None,
            borders: Vec::new(),
            surface,
            translucent,
            os,
            pacer: FramePacer::new(refresh),
            modifiers: ModifiersState::empty(),
            frame_requested: true,
            preedit: None,
            mouse: Mouse::default(),
            selecting_in: None,
            dragging: None,
            blink: Blink::new(
                Duration::from_secs_f64(shared.config.cursor.blink_timeout),
                Duration::from_millis(shared.config.cursor.blink_interval.into()),
                now,
            ),
            autoscroll_at: None,
            has_focus: true,
            occluded: false,
            requests: Vec::new(),
        };
        window.new_tab(shared, spawn)?;
        Ok(window)
    }

    pub fn id(&self) -> winit::window::WindowId {
        self.os.id()
    }

    pub fn has_pane(&self, id: PaneId) -> bool {
        self.panes.contains_key(&id)
    }

    pub fn pane(&self, id: PaneId) -> Option<&Pane> {
        self.panes.get(&id)
    }

    pub fn pane_mut(&mut self, id: PaneId) -> Option<&mut Pane> {
        self.panes.get_mut(&id)
    }

    pub fn is_empty(&self) -> bool {
        self.panes.is_empty()
    }

    /// The pane with the keyboard: the active tab's focused pane.
    pub fn focused_id(&self) -> Option<PaneId> {
        self.tabs.get(self.active).map(|t| t.focused)
    }

    fn focused(&mut self) -> Option<&mut Pane> {
        let id = self.focused_id()?;
        self.panes.get_mut(&id)
    }

    /// The window's grid: how many cells fit inside the padding.
    fn grid(&self, g: &Graphics) -> (usize, usize) {
        let m = g.renderer.cell_metrics();
        let size = self.inner_size;
        let scale = self.os.scale_factor();
        let (px, py) = (
            (2.0 * self.padding.x * scale) as u32,
            (2.0 * self.padding.y * scale) as u32,
        );
        (
            (size.width.saturating_sub(px) / m.width) as usize,
            (size.height.saturating_sub(py) / m.height) as usize,
        )
    }

    /// Where the grid's top-left corner is, in physical pixels: the padding, or with
    /// balanced padding, half of what the cells leave on each axis.
    fn origin(&self, g: &Graphics) -> (f64, f64) {
        let scale = self.os.scale_factor();
        let (px, py) = (
            (self.padding.x * scale).floor(),
            (self.padding.y * scale).floor(),
        );
        if !self.padding.balanced {
            return (px, py);
        }
        let m = g.renderer.cell_metrics();
        let (cols, rows) = self.grid(g);
        let spare = |size: u32, used: usize, cell: u32| {
            (size.saturating_sub(used as u32 * cell) / 2) as f64
        };
        (
            spare(self.inner_size.width, cols, m.width),
            spare(self.inner_size.height, rows, m.height),
        )
    }

    fn tab_bar_shown(&self, shared: &Shared) -> bool {
        shared.config.window.tab_bar.shown(self.tabs.len())
    }

    /// The cells the panes share: the grid, less the tab bar's row when it is shown.
    fn pane_area(&self, shared: &Shared) -> CellRect {
        let (cols, rows) = shared.graphics.as_ref().map_or((0, 0), |g| self.grid(g));
        let bar = usize::from(self.tab_bar_shown(shared) && rows > 1);
        CellRect {
            col: 0,
            row: bar,
            cols,
            rows: rows - bar,
        }
    }

    /// The panes shown now and where: the active tab's, or its zoomed pane alone.
    fn visible(&self, shared: &Shared) -> Vec<(PaneId, CellRect)> {
        let Some(tab) = self.tabs.get(self.active) else {
            return Vec::new();
        };
        let area = self.pane_area(shared);
        if tab.zoomed {
            return vec![(tab.focused, area)];
        }
        tab.layout.place(area).0
    }

    /// Gives every pane of every tab its place (background tabs follow the window's size
    /// too, so a program there is never drawn at a stale size when its tab comes back).
    fn relayout(&mut self, shared: &Shared) {
        let Some(g) = &shared.graphics else {
            return;
        };
        let m = g.renderer.cell_metrics();
        let area = self.pane_area(shared);
        for tab in &self.tabs {
            let placed = if tab.zoomed {
                vec![(tab.focused, area)]
            } else {
                tab.layout.place(area).0
            };
            for (id, rect) in placed {
                if let Some(pane) = self.panes.get_mut(&id) {
                    pane.place(rect, (m.width, m.height));
                }
            }
        }
        self.tab_bar = self.tab_bar.take().filter(|_| self.tab_bar_shown(shared));
        self.request_frame();
    }

    /// The terminal size a pane of `rect` has.
    fn win_size(g: &Graphics, rect: CellRect) -> WinSize {
        let m = g.renderer.cell_metrics();
        WinSize {
            cols: rect.cols.max(1).min(u16::MAX as usize) as u16,
            rows: rect.rows.max(1).min(u16::MAX as usize) as u16,
            cell_width: m.width as u16,
            cell_height: m.height as u16,
        }
        .clamped()
    }

    fn start_pane(
        &mut self,
        shared: &Shared,
        spawn: &Spawn,
        rect: CellRect,
    ) -> anyhow::Result<PaneId> {
        let g = shared.graphics.as_ref().expect("a window has graphics");
        let size = Self::win_size(g, rect);
        let pane = Pane::start(spawn, size, &shared.pane_context())?;
        let id = pane.id;
        self.panes.insert(id, pane);
        Ok(id)
    }

    /// Opens a tab running `spawn` after the active one, and switches to it.
    pub fn new_tab(&mut self, shared: &Shared, spawn: &Spawn) -> anyhow::Result<PaneId> {
        // With the bar about to appear, the new pane starts at its final size.
        let shown_after = shared.config.window.tab_bar.shown(self.tabs.len() + 1);
        let mut area = self.pane_area(shared);
        if shown_after && !self.tab_bar_shown(shared) && area.rows > 1 {
            area.row += 1;
            area.rows -= 1;
        }
        let id = self.start_pane(shared, spawn, area)?;
        let at = if self.tabs.is_empty() {
            0
        } else {
            self.active + 1
        };
        self.tabs.insert(at, Tab::new(id));
        self.select_tab(at);
        self.relayout(shared);
        Ok(id)
    }

    /// Splits the focused pane, the new one (running `spawn`) to the right or below.
    pub fn split(
        &mut self,
        shared: &Shared,
        direction: SplitDirection,
        spawn: &Spawn,
    ) -> anyhow::Result<PaneId> {
        let area = self.pane_area(shared);
        let tab = self.tabs.get_mut(self.active).context("no tab")?;
        tab.zoomed = false;
        let target = tab.focused;
        // Try the split on a copy first: the new pane starts at the size it will have.
        let mut trial = tab.layout.clone();
        let placeholder = PaneId(u64::MAX);
        anyhow::ensure!(
            trial.split(area, target, direction, placeholder),
            "the pane is too small to split"
        );
        let rect = trial.rect_of(area, placeholder).expect("just split");
        let id = self.start_pane(shared, spawn, rect)?;
        let tab = &mut self.tabs[self.active];
        tab.layout.split(area, target, direction, id);
        tab.focused = id;
        self.relayout(shared);
        Ok(id)
    }

    /// Closes a pane (its program is hung up on). The window is empty when it was the last.
    pub fn close_pane(&mut self, shared: &Shared, id: PaneId) {
        if self.panes.remove(&id).is_none() {
            return;
        }
        if self.selecting_in == Some(id) {
            self.selecting_in = None;
        }
        if let Some(index) = self.tabs.iter().position(|t| t.layout.contains(id)) {
            let tab = &mut self.tabs[index];
            if tab.layout.remove(id) {
                if tab.focused == id {
                    tab.focused = tab.layout.panes()[0];
                }
                tab.zoomed = false;
            } else {
                self.tabs.remove(index);
                if self.active > index || self.active >= self.tabs.len() {
                    self.active = self.active.saturating_sub(1);
                }
            }
        }
        if !self.tabs.is_empty() {
            self.select_tab(self.active);
            self.relayout(shared);
        }
    }

    /// Makes tab `index` the active one (clamped to the tabs there are).
    pub fn select_tab(&mut self, index: usize) {
        if self.tabs.is_empty() {
            return;
        }
        let index = index.min(self.tabs.len() - 1);
        self.active = index;
        for id in self.tabs[index].layout.panes() {
            if let Some(pane) = self.panes.get_mut(&id) {
                // Seen now: the marks go. What it printed meanwhile is in its snapshot's
                // damage at the next frame, against what its view still holds.
                pane.unseen_output = false;
                pane.unseen_bell = false;
            }
        }
        self.update_title();
        self.request_frame();
    }

    /// Gives the keyboard to `id`, switching to its tab.
    pub fn focus_pane(&mut self, id: PaneId) -> bool {
        let Some(index) = self.tabs.iter().position(|t| t.layout.contains(id)) else {
            return false;
        };
        let tab = &mut self.tabs[index];
        if tab.zoomed && tab.focused != id {
            tab.zoomed = false;
        }
        tab.focused = id;
        self.select_tab(index);
        self.blink.input(Instant::now());
        true
    }

    fn move_focus(&mut self, shared: &Shared, towards: Towards) {
        let area = self.pane_area(shared);
        let Some(tab) = self.tabs.get(self.active) else {
            return;
        };
        if tab.zoomed {
            return;
        }
        if let Some(next) = tab.layout.neighbour(area, tab.focused, towards) {
            self.focus_pane(next);
        }
    }

    fn resize_split(&mut self, shared: &Shared, towards: Towards) {
        let area = self.pane_area(shared);
        let Some(tab) = self.tabs.get_mut(self.active) else {
            return;
        };
        let focused = tab.focused;
        if tab.layout.resize(area, focused, towards, 1) {
            self.relayout(shared);
        }
    }

    fn toggle_zoom(&mut self, shared: &Shared) {
        let Some(tab) = self.tabs.get_mut(self.active) else {
            return;
        };
        if tab.layout.panes().len() > 1 {
            tab.zoomed = !tab.zoomed;
            self.relayout(shared);
        }
    }

    /// The tabs, for `sluice msg list`: each tab's panes in order, and which is focused.
    pub fn tabs(&self) -> impl Iterator<Item = (usize, bool, Vec<PaneId>, PaneId)> + '_ {
        self.tabs
            .iter()
            .enumerate()
            .map(|(i, t)| (i, i == self.active, t.layout.panes(), t.focused))
    }

    pub fn has_focus(&self) -> bool {
        self.has_focus
    }

    /// The pane's program has something new: events, and a frame if the pane is shown.
    pub fn wakeup(&mut self, shared: &mut Shared, id: PaneId) {
        self.pane_events(shared, id);
        let shown = self.visible(shared).iter().any(|(p, _)| *p == id);
        let Some(pane) = self.panes.get_mut(&id) else {
            return;
        };
        let interactive = pane.output_was_interactive();
        if shown {
            if interactive {
                self.pacer.idle();
            }
            self.frame_requested = true;
        } else if !pane.unseen_output {
            // Drawn nowhere; only the tab bar's mark changes, once.
            pane.unseen_output = true;
            self.request_frame();
        }
    }

    /// What the pane's terminal reported: titles, the bell, the clipboard, blinking.
    fn pane_events(&mut self, shared: &mut Shared, id: PaneId) {
        let focused = self.focused_id() == Some(id);
        let Some(pane) = self.panes.get_mut(&id) else {
            return;
        };
        if let Some(failure) = pane.take_failure() {
            // The pane's screen stays as it was; the title says why it no longer changes.
            pane.title = Some(format!("the terminal failed ({failure})"));
            self.os
                .request_user_attention(Some(UserAttentionType::Critical));
            self.update_title();
            return;
        }
        let mut title_changed = false;
        for event in pane.session.terminal.take_events() {
            match event {
                TermEvent::Title(title) => {
                    pane.title = Some(title);
                    title_changed = true;
                }
                TermEvent::ResetTitle => {
                    pane.title = None;
                    title_changed = true;
                }
                TermEvent::Bell => {
                    pane.bell(&shared.config);
                    shared.bell_command.ring(&shared.config.bell.command);
                    if !focused {
                        pane.unseen_bell = true;
                    }
                    if !self.has_focus && shared.config.bell.urgency {
                        self.os
                            .request_user_attention(Some(UserAttentionType::Informational));
                    }
                    self.frame_requested = true;
                }
                TermEvent::ClipboardStore(kind, text) => shared.clipboard.set(kind, text),
                TermEvent::ClipboardLoad(kind, format) => {
                    // Only sent when `terminal.osc52_read` allows it.
                    let text = shared.clipboard.get(kind).unwrap_or_default();
                    pane.session
                        .terminal
                        .writer()
                        .write(format(&text).into_bytes());
                }
                TermEvent::CursorBlinkingChange => self.blink.input(Instant::now()),
                TermEvent::MouseCursorDirty => {}
                TermEvent::WorkingDirectory(dir) => pane.reported_directory = Some(dir),
                TermEvent::Notification(notification) => {
                    let notify = &shared.config.notifications;
                    if notify.when.shows(focused && self.has_focus)
                        && pane
                            .notifications
                            .allow(Instant::now(), min_interval(notify))
                    {
                        shared.notifier.send(notification);
                    }
                }
                TermEvent::CommandFinished { status, duration } => {
                    let notify = &shared.config.notifications;
                    let after = Duration::from_secs(notify.command_finished_after.into());
                    if !after.is_zero()
                        && duration >= after
                        && !(focused && self.has_focus)
                        && pane
                            .notifications
                            .allow(Instant::now(), min_interval(notify))
                    {
                        let title = pane.title.as_deref();
                        let notification =
                            crate::notifier::command_finished(status, duration, title);
                        shared.notifier.send(notification);
                    }
                }
            }
        }
        if title_changed {
            self.update_title();
            if self.tab_bar_shown(shared) {
                self.request_frame();
            }
        }
        self.update_pointer_icon();
    }

    /// The window's title is its focused pane's (with dynamic titles), else `window.title`.
    fn update_title(&self) {
        let title = self
            .focused_id()
            .and_then(|id| self.panes.get(&id))
            .and_then(|p| p.title.clone())
            .filter(|_| self.dynamic_title)
            .unwrap_or_else(|| self.title.clone());
        self.os.set_title(&title);
    }

    /// The pane's program ended: close the pane, or with `--hold` keep it with a line that
    /// says how it ended.
    pub fn child_exited(&mut self, shared: &Shared, id: PaneId) {
        let Some(pane) = self.panes.get_mut(&id) else {
            return;
        };
        if shared.cli.hold {
            pane.ended = Some(pane.ending());
            self.request_frame();
        } else {
            self.close_pane(shared, id);
        }
    }

    /// Asks for a frame at once, for something the user did.
    pub fn request_frame(&mut self) {
        self.pacer.idle();
        self.frame_requested = true;
    }

    /// When the next frame may be drawn, if one was asked for and the window can be seen.
    pub fn frame_due(&self) -> Option<Instant> {
        (self.frame_requested && !self.occluded).then(|| self.pacer.next_frame_at())
    }

    pub fn occlusion_changed(&mut self, occluded: bool) {
        self.occluded = occluded;
        if !occluded {
            // What was parsed meanwhile is in each shown pane's damage.
            self.request_frame();
        }
    }

    pub fn focus_changed(&mut self, focused: bool) {
        self.has_focus = focused;
        let report: &[u8] = if focused { b"\x1b[I" } else { b"\x1b[O" };
        if let Some(pane) = self.focused()
            && pane.snapshot.modes.contains(SnapshotModes::FOCUS_IN_OUT)
        {
            pane.session.terminal.writer().write(report);
        }
        self.blink.input(Instant::now());
        self.request_frame();
    }

    /// Where `pane` is on the window, for turning the pointer's position into cells.
    fn geometry(&self, g: &Graphics, pane: &Pane) -> Geometry {
        let m = g.renderer.cell_metrics();
        let (x, y) = self.origin(g);
        Geometry {
            x: x + pane.rect.col as f64 * m.width as f64,
            y: y + pane.rect.row as f64 * m.height as f64,
            cell_width: m.width as f64,
            cell_height: m.height as f64,
            cols: pane.snapshot.cols.min(pane.rect.cols),
            rows: pane.snapshot.rows.min(pane.rect.rows),
        }
    }

    /// The window cell under a point in physical pixels.
    fn cell_at(&self, g: &Graphics, x: f64, y: f64) -> Option<(usize, usize)> {
        let m = g.renderer.cell_metrics();
        let (ox, oy) = self.origin(g);
        let (fx, fy) = ((x - ox) / m.width as f64, (y - oy) / m.height as f64);
        (fx >= 0.0 && fy >= 0.0).then_some((fx as usize, fy as usize))
    }

    pub fn resize(&mut self, shared: &Shared, size: PhysicalSize<u32>) {
        self.inner_size = size;
        if let Some(g) = &shared.graphics {
            self.surface.resize(&g.renderer, (size.width, size.height));
        }
        self.relayout(shared);
        self.os.request_redraw();
    }

    /// The GPU device was lost and `g` is its replacement: a new surface for the window (from
    /// `raw`, the one the new device was chosen for, or made here) and new views for its
    /// panes, bar and borders, all drawn whole at the next frame.
    pub fn replace_graphics(
        &mut self,
        g: &Graphics,
        raw: Option<crate::app::GpuSurface>,
    ) -> anyhow::Result<()> {
        self.surface = window_surface(g, &self.os, raw, self.inner_size, self.translucent)?;
        for pane in self.panes.values_mut() {
            pane.view = g.renderer.new_view();
        }
        self.tab_bar = None;
        self.borders.clear();
        self.request_frame();
        Ok(())
    }

    /// The font changed (size or family, for every window): every pane is refitted.
    pub fn font_changed(&mut self, shared: &Shared) {
        self.relayout(shared);
    }

    /// Copies the focused pane's selection to the clipboard `kind`.
    fn copy_selection(&mut self, shared: &mut Shared, kind: ClipboardKind) {
        if let Some(text) = self
            .focused()
            .and_then(|p| p.session.terminal.selection_text())
        {
            shared.clipboard.set(kind, text);
        }
    }

    /// Pastes from the clipboard `kind` into the focused pane.
    fn paste_from(&mut self, shared: &mut Shared, kind: ClipboardKind) {
        let Some(text) = shared.clipboard.get(kind).filter(|t| !t.is_empty()) else {
            return;
        };
        self.paste(shared, &text);
    }

    /// Pastes `text`, or first asks whether to, as `paste.confirm` says.
    fn paste(&mut self, shared: &Shared, text: &str) {
        let confirm = shared.config.paste.confirm;
        let Some(pane) = self.focused() else {
            return;
        };
        let bracketed = pane.snapshot.modes.contains(SnapshotModes::BRACKETED_PASTE);
        if confirm.asks(text, bracketed) {
            pane.paste_confirm = Some(crate::pane::paste_confirm::PasteConfirm::new(
                text.to_owned(),
            ));
        } else {
            pane.paste_now(text);
        }
        self.request_frame();
    }

    /// Applies a new configuration to the window and its panes.
    pub fn reconfigure(&mut self, old: &crate::config::Config, shared: &Shared) {
        let new = &shared.config;
        let terminal = new.terminal_options();
        let overlay_toggled = new.metrics.overlay != old.metrics.overlay;
        for pane in self.panes.values_mut() {
            if terminal != old.terminal_options() {
                pane.session.terminal.reconfigure(&terminal);
            }
            if overlay_toggled && new.metrics.overlay != pane.overlay.is_some() {
                pane.toggle_overlay();
            }
            pane.view.invalidate();
        }
        self.padding = Padding::of(new);
        self.dynamic_title = new.window.dynamic_title;
        self.title = new.window.title.clone();
        self.update_title();
        self.blink.set_timeout(
            Duration::from_secs_f64(new.cursor.blink_timeout),
            Duration::from_millis(new.cursor.blink_interval.into()),
        );
        self.relayout(shared);
    }

    /// The palette may have changed without the configuration (the desktop's colour scheme
    /// picks a side of `light:…,dark:…`): every pane takes it again and is redrawn.
    pub fn palette_changed(&mut self, shared: &Shared) {
        let terminal = shared.config.terminal_options();
        for pane in self.panes.values_mut() {
            pane.session.terminal.reconfigure(&terminal);
            pane.view.invalidate();
        }
        self.request_frame();
    }

    /// The configuration's problems, as the bar across the focused pane's bottom row shows
    /// them, if it is shown (not dismissed here).
    fn problem_bar(&self, shared: &Shared) -> Option<String> {
        let problems = &shared.problems;
        if problems.messages.is_empty() || self.problems_dismissed == problems.generation {
            return None;
        }
        let more = match problems.messages.len() {
            1 => String::new(),
            n => format!(" (and {} more, in the log)", n - 1),
        };
        Some(format!(
            " configuration: {}{more}  [click to dismiss] ",
            problems.messages[0]
        ))
    }

    /// The directory a new tab, split or window opened from here starts in.
    pub fn focused_directory(&self) -> Option<std::path::PathBuf> {
        self.focused_id()
            .and_then(|id| self.panes.get(&id))
            .and_then(Pane::working_directory)
    }
}

/// A window as the configuration describes it: title, class, decorations, startup mode.
fn window_attributes(config: &crate::config::Config) -> winit::window::WindowAttributes {
    let w = &config.window;
    let mut attributes = OsWindow::default_attributes()
        .with_title(w.title.clone())
        .with_decorations(w.decorations == crate::config::Decorations::Full)
        .with_maximized(w.startup_mode == crate::config::StartupMode::Maximized);
    if w.startup_mode == crate::config::StartupMode::Fullscreen {
        attributes = attributes.with_fullscreen(Some(winit::window::Fullscreen::Borderless(None)));
    }
    // `general[,instance]`: WM_CLASS on X11, the app id on Wayland.
    let (general, instance) = w.class.split_once(',').unwrap_or((&w.class, &w.class));
    #[cfg(target_os = "linux")]
    {
        attributes =
            winit::platform::x11::WindowAttributesExtX11::with_name(attributes, general, instance);
        attributes = winit::platform::wayland::WindowAttributesExtWayland::with_name(
            attributes, general, instance,
        );
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (general, instance);
    attributes
}

/// `notifications.min_interval` as a duration (the option is checked to be 0 to 3600 s).
fn min_interval(notify: &sluice_config::Notifications) -> Duration {
    Duration::from_secs_f64(notify.min_interval)
}

/// A window's surface: a GPU surface, or the software renderer's image.
pub type WindowSurface = sluice_render::WindowSurface<Arc<OsWindow>>;

/// A surface for `os` of the kind `g` draws for, `size` pixels: the software renderer's
/// image, or a GPU surface (`raw`, made while choosing the device for the first window, or
/// made here from the device's instance).
fn window_surface(
    g: &Graphics,
    os: &Arc<OsWindow>,
    raw: Option<crate::app::GpuSurface>,
    size: PhysicalSize<u32>,
    translucent: bool,
) -> anyhow::Result<WindowSurface> {
    let size = (size.width, size.height);
    let Some(gpu) = &g.gpu else {
        return Ok(WindowSurface::Software(SoftwareSurface::new(
            os.clone(),
            size,
        )?));
    };
    let raw = match raw {
        Some(raw) => raw,
        None => gpu
            .instance
            .create_surface(os.clone())
            .context("cannot create a GPU surface")?,
    };
    Ok(WindowSurface::Gpu(GpuSurface::new(
        raw,
        &gpu.adapter,
        &gpu.device,
        size,
        translucent,
    )?))
}

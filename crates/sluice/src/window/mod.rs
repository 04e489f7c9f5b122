//! The desktop window: winit event loop, the pipeline, the renderer, presenting.
//!
//! The UI thread never parses and never touches the PTY: it takes a snapshot when the parser
//! wakes it (at most once per refresh, fewer under a flood, see [`pacing`]), renders outside
//! the terminal lock, and hands keystrokes to the writer thread's queue.
//!
//! An idle window has no timer: the event loop sleeps until input, output, or a deadline
//! that something visible needs (a blinking cursor before its timeout, the bell, a selection
//! autoscrolling, the metrics overlay while there is activity).

mod bar;
mod bindings;
mod blink;
mod clipboard;
mod frame;
mod input;
mod keys;
mod links;
mod mouse;
mod overlay;
mod pacing;
mod paste_confirm;
mod reload;
mod search;
mod timers;

use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use sluice_pty::{PtyOptions, WinSize};
use sluice_render::{FontConfig, Gpu, Renderer, WindowSurface};
use sluice_term::{ClipboardKind, Snapshot, SnapshotModes, TermEvent};
use winit::application::ApplicationHandler;
use winit::dpi::{LogicalSize, PhysicalSize};
use winit::event::WindowEvent;
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop, EventLoopProxy};
use winit::keyboard::ModifiersState;
use winit::window::{UserAttentionType, Window, WindowId};

use crate::cli::Cli;
use crate::config::{self, Config};
use crate::metrics::RuntimeMetrics;
use blink::{BELL_DURATION, Blink};
use clipboard::Clipboard;
use links::Link;
use mouse::{Geometry, Mouse};
use overlay::MetricsOverlay;
use pacing::FramePacer;
use search::SearchBar;

/// Padding around the grid, in logical pixels.
const PADDING: f64 = 4.0;

/// Messages from other threads to the UI thread.
#[derive(Debug)]
enum UserEvent {
    /// The parser has something new (a frame, or an event for the application).
    Wakeup,
    /// The child exited.
    ChildExited,
    /// The configuration file changed.
    ConfigChanged,
}

/// Runs the window until the child exits or the window is closed. Returns the exit status.
pub fn run(cli: &Cli, config: Config) -> anyhow::Result<i32> {
    let event_loop = EventLoop::<UserEvent>::with_user_event()
        .build()
        .context("cannot connect to a display")?;
    let proxy = event_loop.create_proxy();
    let mut app = App {
        cli,
        config,
        proxy,
        state: None,
        error: None,
        exit_code: 0,
    };
    event_loop.run_app(&mut app).context("event loop failed")?;
    match app.error {
        Some(err) => Err(err),
        None => Ok(app.exit_code),
    }
}

struct App<'a> {
    cli: &'a Cli,
    config: Config,
    proxy: EventLoopProxy<UserEvent>,
    state: Option<TermWindow>,
    error: Option<anyhow::Error>,
    exit_code: i32,
}

/// Everything that exists while the window is open. Field order is drop order: the
/// session (parser, then PTY) stops before the renderer and the window go.
struct TermWindow {
    session: sluice_term::Session,
    snapshot: Snapshot,
    renderer: Renderer,
    surface: WindowSurface<'static>,
    gpu: Gpu,
    window: Arc<Window>,
    config: Config,
    pacer: FramePacer,
    modifiers: ModifiersState,
    frame_requested: bool,
    font: FontConfig,
    font_points: f32,
    last_parsed: u64,
    metrics: RuntimeMetrics,
    overlay: Option<MetricsOverlay>,
    /// The parser's longest lock hold, shared out to the log and the overlay.
    longest_hold: Duration,
    mouse: Mouse,
    clipboard: Clipboard,
    search: Option<SearchBar>,
    /// A paste waiting for the user to confirm it (`paste.confirm`).
    paste_confirm: Option<paste_confirm::PasteConfirm>,
    hovered_link: Option<Link>,
    /// The input method's uncommitted text, drawn at the cursor.
    preedit: Option<String>,
    /// The view is frozen (Scroll Lock): the snapshot is not updated.
    frozen: bool,
    blink: Blink,
    bell_until: Option<Instant>,
    autoscroll_at: Option<Instant>,
    /// When to re-read the configuration file, which changed.
    reload_at: Option<Instant>,
    /// The command line, whose options win over the file's on every reload.
    cli: Cli,
    /// Whether the terminal's failure (its parser panicked) has been shown.
    failure_shown: bool,
    _config_watcher: Option<config::ConfigWatcher>,
}

impl ApplicationHandler<UserEvent> for App<'_> {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.state.is_some() {
            return;
        }
        match TermWindow::open(self.cli, &self.config, event_loop, self.proxy.clone()) {
            Ok(state) => self.state = Some(state),
            Err(err) => {
                self.error = Some(err);
                event_loop.exit();
            }
        }
    }

    fn user_event(&mut self, event_loop: &ActiveEventLoop, event: UserEvent) {
        let Some(state) = &mut self.state else {
            return;
        };
        match event {
            UserEvent::Wakeup => {
                state.handle_term_events();
                state.schedule_frame();
            }
            UserEvent::ConfigChanged => state.config_changed(),
            UserEvent::ChildExited => {
                self.exit_code = state
                    .session
                    .pty
                    .exit_status()
                    .map_or(0, |s| s.shell_code());
                event_loop.exit();
            }
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        let Some(state) = &mut self.state else {
            return;
        };
        match event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::RedrawRequested => state.draw(),
            WindowEvent::Resized(size) => state.resize(size),
            WindowEvent::ScaleFactorChanged { scale_factor, .. } => state.rescale(scale_factor),
            WindowEvent::Focused(focused) => state.focus_changed(focused),
            WindowEvent::ModifiersChanged(mods) => state.modifiers = mods.state(),
            WindowEvent::KeyboardInput { event, .. } => state.key(&event),
            WindowEvent::Ime(ime) => state.ime(ime),
            WindowEvent::CursorMoved { position, .. } => state.pointer_moved(position),
            WindowEvent::CursorLeft { .. } => state.pointer_left(),
            WindowEvent::MouseInput {
                state: pressed,
                button,
                ..
            } => state.mouse_button(button, pressed),
            WindowEvent::MouseWheel { delta, .. } => state.wheel(delta),
            _ => {}
        }
    }

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        let Some(state) = &mut self.state else {
            return;
        };
        let now = Instant::now();
        state.run_timers(now);
        let mut wake_at = state.next_deadline();
        if state.frame_requested {
            let at = state.pacer.next_frame_at();
            if at <= now {
                state.frame_requested = false;
                state.window.request_redraw();
            } else {
                wake_at = Some(wake_at.map_or(at, |w| w.min(at)));
            }
        }
        // Idle is free: no timer unless something visible needs one.
        event_loop.set_control_flow(wake_at.map_or(ControlFlow::Wait, ControlFlow::WaitUntil));
    }
}

impl TermWindow {
    fn open(
        cli: &Cli,
        config: &Config,
        event_loop: &ActiveEventLoop,
        proxy: EventLoopProxy<UserEvent>,
    ) -> anyhow::Result<Self> {
        let attributes = Window::default_attributes()
            .with_title("Sluice")
            .with_inner_size(LogicalSize::new(
                cli.size.0 as f64 * 9.0 + 2.0 * PADDING,
                cli.size.1 as f64 * 19.0 + 2.0 * PADDING,
            ));
        let window = Arc::new(
            event_loop
                .create_window(attributes)
                .context("cannot open a window")?,
        );
        window.set_ime_allowed(true);
        window.set_cursor(winit::window::CursorIcon::Text);
        let scale = window.scale_factor();
        let font = FontConfig {
            family: config.font_family.clone(),
            size_px: points_to_pixels(config.font_size, scale),
            ..FontConfig::default()
        };
        let instance = sluice_render::wgpu::Instance::new(
            sluice_render::wgpu::InstanceDescriptor::new_with_display_handle_from_env(Box::new(
                event_loop.owned_display_handle(),
            )),
        );
        let raw_surface = instance
            .create_surface(window.clone())
            .context("cannot create a GPU surface")?;
        let gpu = Gpu::with_instance(instance, Some(&raw_surface))?;
        tracing::info!(adapter = %gpu.describe(), "rendering");
        let size = window.inner_size();
        let surface = WindowSurface::new(
            raw_surface,
            &gpu.adapter,
            &gpu.device,
            (size.width, size.height),
        )?;
        let renderer = Renderer::new(&gpu.device, &gpu.queue, surface.format(), &font)?;
        let grid = grid_size(&renderer, size, scale);

        let wake_proxy = proxy.clone();
        let session = sluice_term::Session::start(
            &PtyOptions {
                command: cli.command.clone(),
                working_directory: cli.working_directory.clone(),
                size: grid,
                read_ahead: cli.read_ahead,
                flow_control: config.flow_control,
                ..PtyOptions::default()
            },
            config.terminal_options(),
            Arc::new(move || {
                let _ = wake_proxy.send_event(UserEvent::Wakeup);
            }),
        )?;
        let config_watcher = watch_config(cli, proxy.clone());
        let exited = session.pty.exit_signal();
        std::thread::Builder::new()
            .name("child-exit".into())
            .spawn(move || {
                let _ = exited.recv();
                let _ = proxy.send_event(UserEvent::ChildExited);
            })?;
        let now = Instant::now();
        let (pty_stats, term_stats) = (session.pty.stats().snapshot(), session.terminal.stats());
        let metrics = RuntimeMetrics::new(now, pty_stats, term_stats);
        let overlay = config
            .metrics_overlay
            .then(|| MetricsOverlay::new(now, pty_stats, term_stats));
        let refresh = window
            .current_monitor()
            .and_then(|m| m.refresh_rate_millihertz())
            .map(|mhz| Duration::from_secs_f64(1000.0 / mhz as f64));
        Ok(Self {
            session,
            snapshot: Snapshot::default(),
            renderer,
            surface,
            gpu,
            window,
            config: config.clone(),
            pacer: FramePacer::new(refresh),
            modifiers: ModifiersState::empty(),
            frame_requested: true,
            font,
            font_points: config.font_size,
            last_parsed: 0,
            metrics,
            overlay,
            longest_hold: Duration::ZERO,
            mouse: Mouse::default(),
            clipboard: Clipboard::new(),
            search: None,
            paste_confirm: None,
            hovered_link: None,
            preedit: None,
            frozen: false,
            blink: Blink::new(Duration::from_secs_f64(config.blink_timeout_s), now),
            bell_until: None,
            autoscroll_at: None,
            reload_at: None,
            cli: cli.clone(),
            failure_shown: false,
            _config_watcher: config_watcher,
        })
    }

    fn handle_term_events(&mut self) {
        if let Some(failure) = self.session.terminal.failure()
            && !self.failure_shown
        {
            // The screen stays as it was; the title says why it no longer changes.
            self.failure_shown = true;
            self.window
                .set_title(&format!("Sluice: the terminal failed ({failure})"));
            self.window
                .request_user_attention(Some(UserAttentionType::Critical));
        }
        for event in self.session.terminal.take_events() {
            match event {
                TermEvent::Title(title) => self.window.set_title(&title),
                TermEvent::ResetTitle => self.window.set_title("Sluice"),
                TermEvent::Bell => self.bell(),
                TermEvent::ClipboardStore(kind, text) => self.clipboard.set(kind, text),
                TermEvent::ClipboardLoad(kind, format) => {
                    // Only sent when `terminal.osc52_read` allows it.
                    let text = self.clipboard.get(kind).unwrap_or_default();
                    self.session
                        .terminal
                        .writer()
                        .write(format(&text).into_bytes());
                }
                TermEvent::CursorBlinkingChange => self.blink.input(Instant::now()),
                TermEvent::MouseCursorDirty => self.update_pointer_icon(),
            }
        }
    }

    fn bell(&mut self) {
        if self.config.visual_bell {
            self.bell_until = Some(Instant::now() + BELL_DURATION);
            self.request_frame();
        }
        if !self.window.has_focus() {
            self.window
                .request_user_attention(Some(UserAttentionType::Informational));
        }
    }

    /// Asks for a frame; a burst of wake-ups becomes one frame.
    fn schedule_frame(&mut self) {
        let parsed = self.session.terminal.stats().bytes_parsed;
        // Little output since the last frame: interactive, draw at the next refresh.
        if parsed - self.last_parsed < 64 * 1024 {
            self.pacer.idle();
        }
        self.last_parsed = parsed;
        self.frame_requested = true;
    }

    /// Asks for a frame at once, for something the user did.
    fn request_frame(&mut self) {
        self.pacer.idle();
        self.frame_requested = true;
    }

    fn focus_changed(&mut self, focused: bool) {
        self.renderer.focused = focused;
        if self.snapshot.modes.contains(SnapshotModes::FOCUS_IN_OUT) {
            let report: &[u8] = if focused { b"\x1b[I" } else { b"\x1b[O" };
            self.session.terminal.writer().write(report);
        }
        self.blink.input(Instant::now());
        self.request_frame();
    }

    fn geometry(&self) -> Geometry {
        let m = self.renderer.cell_metrics();
        Geometry {
            padding: PADDING * self.window.scale_factor(),
            cell_width: m.width as f64,
            cell_height: m.height as f64,
            cols: self.snapshot.cols,
            rows: self.snapshot.rows,
        }
    }

    fn resize(&mut self, size: PhysicalSize<u32>) {
        self.surface
            .resize(&self.gpu.device, (size.width, size.height));
        let grid = grid_size(&self.renderer, size, self.window.scale_factor());
        if (grid.cols as usize, grid.rows as usize) != (self.snapshot.cols, self.snapshot.rows) {
            // A frozen view cannot follow a new size: it thaws.
            self.frozen = false;
            if let Err(err) = self.session.resize(grid) {
                tracing::warn!(%err, "cannot resize the PTY");
            }
        }
        self.renderer.invalidate();
        self.request_frame();
        self.window.request_redraw();
    }

    fn rescale(&mut self, scale: f64) {
        self.set_font_points(self.font_points, scale);
    }

    /// Changes the font size (Ctrl+=, Ctrl+-, Ctrl+0) and refits the grid to the window.
    fn set_font_points(&mut self, points: f32, scale: f64) {
        self.font_points = points.clamp(3.0, 200.0);
        self.font.size_px = points_to_pixels(self.font_points, scale);
        if let Err(err) = self.renderer.set_font(&self.font) {
            tracing::warn!(%err, "cannot load the font at the new size");
        }
        self.resize(self.window.inner_size());
    }

    /// Copies the selection to the clipboard `kind`.
    fn copy_selection(&mut self, kind: ClipboardKind) {
        if let Some(text) = self.session.terminal.selection_text() {
            self.clipboard.set(kind, text);
        }
    }

    /// Pastes from the clipboard `kind`: bracketed and sanitised if the program asked.
    fn paste_from(&mut self, kind: ClipboardKind) {
        let Some(text) = self.clipboard.get(kind).filter(|t| !t.is_empty()) else {
            return;
        };
        self.paste(&text);
    }

    /// Pastes `text`, or first asks whether to, as `paste.confirm` says.
    fn paste(&mut self, text: &str) {
        let bracketed = self.snapshot.modes.contains(SnapshotModes::BRACKETED_PASTE);
        if self.config.paste_confirm.asks(text, bracketed) {
            self.paste_confirm = Some(paste_confirm::PasteConfirm::new(text.to_owned()));
            self.request_frame();
            return;
        }
        self.paste_now(text);
    }

    fn paste_now(&mut self, text: &str) {
        let bracketed = self.snapshot.modes.contains(SnapshotModes::BRACKETED_PASTE);
        let bytes = sluice_term::input::encode_paste(text, bracketed);
        self.scroll_to_bottom();
        self.session.terminal.writer().paste(bytes);
    }

    fn scroll_to_bottom(&mut self) {
        if self.snapshot.display_offset != 0 {
            self.session
                .terminal
                .scroll_view(-(self.snapshot.display_offset as i32));
            self.request_frame();
        }
    }
}

/// Watches the configuration file, if its directory exists, for live reload.
fn watch_config(cli: &Cli, proxy: EventLoopProxy<UserEvent>) -> Option<config::ConfigWatcher> {
    let path = config::path(cli.config.as_deref())?;
    let watched = config::watch(&path, move || {
        let _ = proxy.send_event(UserEvent::ConfigChanged);
    });
    watched
        .map_err(|err| {
            tracing::info!(%err, path = %path.display(), "configuration not watched; no live reload")
        })
        .ok()
}

fn points_to_pixels(points: f32, scale: f64) -> f32 {
    points * 96.0 / 72.0 * scale as f32
}

/// How many cells fit in the window.
fn grid_size(renderer: &Renderer, size: PhysicalSize<u32>, scale: f64) -> WinSize {
    let m = renderer.cell_metrics();
    let padding = (2.0 * PADDING * scale) as u32;
    let cols = (size.width.saturating_sub(padding) / m.width).clamp(2, u16::MAX as u32) as u16;
    let rows = (size.height.saturating_sub(padding) / m.height).clamp(1, u16::MAX as u32) as u16;
    WinSize {
        cols,
        rows,
        cell_width: m.width as u16,
        cell_height: m.height as u16,
    }
}

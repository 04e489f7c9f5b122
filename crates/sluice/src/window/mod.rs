//! The desktop window: winit event loop, the pipeline, the renderer, presenting.
//!
//! The UI thread never parses and never touches the PTY: it takes a snapshot when the parser
//! wakes it (at most once per refresh, fewer under a flood, see [`pacing`]), renders outside
//! the terminal lock, and hands keystrokes to the writer thread's queue.

mod keys;
mod pacing;

use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use sluice_pty::{Pty, PtyOptions, WinSize};
use sluice_render::{FontConfig, Gpu, Presented, Renderer, WindowSurface};
use sluice_term::{Snapshot, TermEvent, Terminal, TerminalOptions};
use winit::application::ApplicationHandler;
use winit::dpi::{LogicalSize, PhysicalSize};
use winit::event::{ElementState, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop, EventLoopProxy};
use winit::keyboard::ModifiersState;
use winit::window::{Window, WindowId};

use crate::cli::Cli;
use crate::metrics::{self, RuntimeMetrics};
use pacing::FramePacer;

/// Padding around the grid, in logical pixels.
const PADDING: f64 = 4.0;

/// Messages from other threads to the UI thread.
#[derive(Debug)]
enum UserEvent {
    /// The parser has something new (a frame, or an event for the application).
    Wakeup,
    /// The child exited.
    ChildExited,
}

/// Runs the window until the child exits or the window is closed. Returns the exit status.
pub fn run(cli: &Cli) -> anyhow::Result<i32> {
    let event_loop = EventLoop::<UserEvent>::with_user_event()
        .build()
        .context("cannot connect to a display")?;
    let proxy = event_loop.create_proxy();
    let mut app = App {
        cli,
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
    proxy: EventLoopProxy<UserEvent>,
    state: Option<Session>,
    error: Option<anyhow::Error>,
    exit_code: i32,
}

/// Everything that exists while the window is open. Field order is drop order: the
/// terminal's parser stops before the PTY hangs up.
struct Session {
    terminal: Terminal,
    pty: Pty,
    snapshot: Snapshot,
    renderer: Renderer,
    surface: WindowSurface<'static>,
    gpu: Gpu,
    window: Arc<Window>,
    pacer: FramePacer,
    modifiers: ModifiersState,
    frame_requested: bool,
    font: FontConfig,
    font_points: f32,
    last_parsed: u64,
    metrics: RuntimeMetrics,
}

impl ApplicationHandler<UserEvent> for App<'_> {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.state.is_some() {
            return;
        }
        match Session::open(self.cli, event_loop, self.proxy.clone()) {
            Ok(session) => self.state = Some(session),
            Err(err) => {
                self.error = Some(err);
                event_loop.exit();
            }
        }
    }

    fn user_event(&mut self, event_loop: &ActiveEventLoop, event: UserEvent) {
        let Some(session) = &mut self.state else {
            return;
        };
        match event {
            UserEvent::Wakeup => {
                session.handle_term_events();
                session.schedule_frame();
            }
            UserEvent::ChildExited => {
                self.exit_code = session.pty.exit_status().map_or(0, |s| s.shell_code());
                event_loop.exit();
            }
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        let Some(session) = &mut self.state else {
            return;
        };
        match event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::RedrawRequested => session.draw(),
            WindowEvent::Resized(size) => session.resize(size),
            WindowEvent::ScaleFactorChanged { scale_factor, .. } => session.rescale(scale_factor),
            WindowEvent::Focused(focused) => {
                session.renderer.focused = focused;
                session.window.request_redraw();
            }
            WindowEvent::ModifiersChanged(mods) => session.modifiers = mods.state(),
            WindowEvent::KeyboardInput { event, .. } if event.state == ElementState::Pressed => {
                if let Some(bytes) = keys::encode(&event, session.modifiers, session.snapshot.modes)
                {
                    session.terminal.writer().write(bytes);
                }
            }
            _ => {}
        }
    }

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        let Some(session) = &mut self.state else {
            return;
        };
        session.report_metrics();
        let metrics_due = session.metrics_due();
        if session.frame_requested {
            let at = session.pacer.next_frame_at();
            if at <= Instant::now() {
                session.frame_requested = false;
                session.window.request_redraw();
                event_loop.set_control_flow(wait_until(metrics_due));
            } else {
                event_loop.set_control_flow(ControlFlow::WaitUntil(
                    metrics_due.map_or(at, |m| m.min(at)),
                ));
            }
        } else {
            // Idle is free: no timer unless a metrics period with activity is still open.
            event_loop.set_control_flow(wait_until(metrics_due));
        }
    }
}

impl Session {
    fn open(
        cli: &Cli,
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
        let scale = window.scale_factor();
        let font = FontConfig {
            family: cli.font_family.clone(),
            size_px: (cli.font_size * 96.0 / 72.0) * scale as f32,
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
        let sluice_term::Session { terminal, pty } = sluice_term::Session::start(
            &PtyOptions {
                command: cli.command.clone(),
                working_directory: cli.working_directory.clone(),
                size: grid,
                read_ahead: cli.read_ahead,
                ..PtyOptions::default()
            },
            TerminalOptions {
                scrollback: cli.history,
                ..TerminalOptions::default()
            },
            Arc::new(move || {
                let _ = wake_proxy.send_event(UserEvent::Wakeup);
            }),
        )?;
        let exited = pty.exit_signal();
        std::thread::Builder::new()
            .name("child-exit".into())
            .spawn(move || {
                let _ = exited.recv();
                let _ = proxy.send_event(UserEvent::ChildExited);
            })?;
        let metrics = RuntimeMetrics::new(Instant::now(), pty.stats().snapshot(), terminal.stats());
        let refresh = window
            .current_monitor()
            .and_then(|m| m.refresh_rate_millihertz())
            .map(|mhz| Duration::from_secs_f64(1000.0 / mhz as f64));
        Ok(Self {
            terminal,
            pty,
            snapshot: Snapshot::default(),
            renderer,
            surface,
            gpu,
            window,
            pacer: FramePacer::new(refresh),
            modifiers: ModifiersState::empty(),
            frame_requested: true,
            font,
            font_points: cli.font_size,
            last_parsed: 0,
            metrics,
        })
    }

    fn handle_term_events(&mut self) {
        while let Ok(event) = self.terminal.events().try_recv() {
            match event {
                TermEvent::Title(title) => self.window.set_title(&title),
                TermEvent::ResetTitle => self.window.set_title("Sluice"),
                _ => tracing::debug!(?event, "not handled yet"),
            }
        }
    }

    /// Asks for a frame; a burst of wake-ups becomes one frame.
    fn schedule_frame(&mut self) {
        let parsed = self.terminal.stats().bytes_parsed;
        // Little output since the last frame: interactive, draw at the next refresh.
        if parsed - self.last_parsed < 64 * 1024 {
            self.pacer.idle();
        }
        self.last_parsed = parsed;
        self.frame_requested = true;
    }

    fn draw(&mut self) {
        let start = Instant::now();
        self.terminal.update_snapshot(&mut self.snapshot);
        self.renderer.render(&mut self.snapshot);
        let padding = (PADDING * self.window.scale_factor()) as u32;
        if self
            .surface
            .present(&self.renderer, (padding, padding), self.snapshot.background)
            == Presented::Skipped
        {
            self.renderer.invalidate();
            self.frame_requested = true;
        }
        // Waiting for the frame to finish makes its wall time a measure of what it cost: on
        // software rendering that is the rasteriser's CPU, which is what must stay in budget.
        let _ = self.gpu.device.poll(sluice_render::wgpu::PollType::Wait {
            submission_index: None,
            timeout: None,
        });
        self.pacer.frame_drawn(start, start.elapsed());
        self.metrics.frame(start.elapsed());
        self.report_metrics();
    }

    /// Logs the periodic metrics if a period with activity is over.
    fn report_metrics(&mut self) {
        let (now, pty) = (Instant::now(), self.pty.stats().snapshot());
        if self.metrics.due_at(&pty).is_none_or(|due| now < due) {
            return;
        }
        let hold = self.terminal.take_longest_lock_hold();
        if let Some(report) = self.metrics.report(now, pty, self.terminal.stats(), hold) {
            metrics::log(&report);
        }
    }

    /// When the metrics period ends, while one with activity is open.
    fn metrics_due(&self) -> Option<Instant> {
        self.metrics.due_at(&self.pty.stats().snapshot())
    }

    fn resize(&mut self, size: PhysicalSize<u32>) {
        self.surface
            .resize(&self.gpu.device, (size.width, size.height));
        let grid = grid_size(&self.renderer, size, self.window.scale_factor());
        if (grid.cols as usize, grid.rows as usize) != (self.snapshot.cols, self.snapshot.rows) {
            self.terminal.resize(grid);
            if let Err(err) = self.pty.resize(grid) {
                tracing::warn!(%err, "cannot resize the PTY");
            }
        }
        self.renderer.invalidate();
        self.frame_requested = true;
        self.window.request_redraw();
    }

    fn rescale(&mut self, scale: f64) {
        self.font.size_px = self.font_points * 96.0 / 72.0 * scale as f32;
        if let Err(err) = self.renderer.set_font(&self.font) {
            tracing::warn!(%err, "cannot reload the font at the new scale");
        }
        self.resize(self.window.inner_size());
    }
}

fn wait_until(at: Option<Instant>) -> ControlFlow {
    at.map_or(ControlFlow::Wait, ControlFlow::WaitUntil)
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

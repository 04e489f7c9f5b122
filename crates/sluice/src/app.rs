//! The application: what every window shares (the configuration, the GPU device, the
//! renderer with its fonts and glyph atlas, the clipboard, the configuration watcher, the
//! remote-control socket) and the map of open windows.
//!
//! One process serves every window: a second window shares the device and the glyph atlas,
//! so it opens without loading fonts or probing the GPU again. The process ends when its
//! last window closes; a window closes when its last pane ends.

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::Context;
use sluice_render::{Compositing, FontConfig, Gpu, Renderer};
use winit::application::ApplicationHandler;
use winit::event::WindowEvent;
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop, EventLoopProxy};
use winit::window::WindowId;

use crate::cli::Cli;
use crate::clipboard::Clipboard;
use crate::config::{self, Config};
use crate::events::{PaneId, UserEvent};
use crate::ipc::{self, Answer, Request, SpawnRequest};
use crate::pane::{PaneContext, Spawn};
use crate::window::bindings::Bindings;
use crate::window::layout::SplitDirection;
use crate::window::{self, Window};

/// Editors write a file in several steps (truncate, write, rename): wait for them to finish
/// and read it once.
const SETTLE: Duration = Duration::from_millis(50);

/// The renderer every window shares, with the GPU device it draws with (none for the
/// software renderer), set up with the first window (the device must be able to present to
/// its surface).
pub struct Graphics {
    pub renderer: Renderer,
    /// `None` when frames are drawn by the software renderer.
    pub gpu: Option<Gpu>,
    pub font: FontConfig,
    pub font_points: f32,
    /// The scale factor fonts are rasterised for: the first window's, then that of the last
    /// window to move to a monitor of another scale. (Windows share one atlas, so two
    /// windows on monitors of different scales share one scale; an atlas per scale is left
    /// for when that is asked for.)
    pub scale: f64,
}

/// A GPU surface made for the first window while choosing the device.
pub type GpuSurface = sluice_render::wgpu::Surface<'static>;

impl Graphics {
    /// The graphics for a first window, and, when they draw on a GPU, that window's surface.
    /// `renderer.backend` chooses ([`choose_backend`]): `auto` draws on the GPU where the
    /// machine has one and with the software renderer where it has none, or where the GPU
    /// backend finds only a software adapter or none at all.
    pub fn for_window(
        event_loop: &ActiveEventLoop,
        os: &std::sync::Arc<winit::window::Window>,
        config: &Config,
        scale: f64,
    ) -> anyhow::Result<(Graphics, Option<GpuSurface>)> {
        let auto = match choose_backend(config, sluice_render::has_gpu_device_node) {
            Choice::Software => {
                if config.window.opacity < 1.0 {
                    tracing::warn!(
                        "window.opacity: the software renderer draws opaque windows; \
                         renderer.backend = \"gpu\" (or \"auto\") shows them see-through"
                    );
                }
                return Ok((Graphics::software(config, scale)?, None));
            }
            Choice::Gpu => false,
            Choice::GpuUnlessSoftware => true,
        };
        match Graphics::on_gpu(event_loop, os, config, scale) {
            Ok((g, _)) if auto && g.gpu.as_ref().is_some_and(Gpu::is_software) => {
                tracing::info!(
                    "the only GPU adapter is a software one: drawing with the software \
                     renderer instead"
                );
                Ok((Graphics::software(config, scale)?, None))
            }
            Ok((g, surface)) => Ok((g, Some(surface))),
            Err(err) if auto => {
                tracing::warn!("no GPU to draw with ({err:#}): drawing with the software renderer");
                Ok((Graphics::software(config, scale)?, None))
            }
            Err(err) => Err(err),
        }
    }

    /// The software renderer: no GPU device, no driver.
    fn software(config: &Config, scale: f64) -> anyhow::Result<Graphics> {
        let font = font_config(config, points_to_pixels(config.font.size, scale));
        let renderer = Renderer::software(&font)?;
        tracing::info!("rendering on the CPU (the software renderer)");
        Ok(Graphics {
            renderer,
            gpu: None,
            font,
            font_points: config.font.size,
            scale,
        })
    }

    /// On a GPU: Vulkan (Metal, DX12 elsewhere) is asked first and GL only if none of them
    /// has an adapter for the window: an instance of every backend initialises Mesa's GL
    /// driver beside its Vulkan one, and that resident copy of a second LLVM-based rasteriser
    /// was all cost and no use (docs/performance.md, "Memory"). `WGPU_BACKEND` overrides the
    /// choice.
    fn on_gpu(
        event_loop: &ActiveEventLoop,
        os: &std::sync::Arc<winit::window::Window>,
        config: &Config,
        scale: f64,
    ) -> anyhow::Result<(Graphics, GpuSurface)> {
        use sluice_render::wgpu::{Backends, Instance, InstanceDescriptor};
        let from_env = || {
            InstanceDescriptor::new_with_display_handle_from_env(Box::new(
                event_loop.owned_display_handle(),
            ))
        };
        let attempts = if std::env::var_os("WGPU_BACKEND").is_some() {
            vec![from_env()]
        } else {
            [Backends::PRIMARY, Backends::GL]
                .into_iter()
                .map(|backends| InstanceDescriptor {
                    backends,
                    ..from_env()
                })
                .collect()
        };
        let mut no_adapter = None;
        for descriptor in attempts {
            let instance = Instance::new(descriptor);
            let surface = instance
                .create_surface(os.clone())
                .context("cannot create a GPU surface")?;
            match Graphics::new(instance, &surface, config, scale) {
                Ok(graphics) => return Ok((graphics, surface)),
                Err(err)
                    if matches!(
                        err.downcast_ref::<sluice_render::Error>(),
                        Some(sluice_render::Error::NoAdapter(_))
                    ) =>
                {
                    no_adapter = Some(err);
                }
                Err(err) => return Err(err),
            }
        }
        Err(no_adapter.unwrap_or_else(|| anyhow::anyhow!("no GPU backend to try")))
    }

    pub fn new(
        instance: sluice_render::wgpu::Instance,
        surface: &sluice_render::wgpu::Surface<'_>,
        config: &Config,
        scale: f64,
    ) -> anyhow::Result<Graphics> {
        let gpu = Gpu::with_instance(instance, Some(surface))?;
        tracing::info!(adapter = %gpu.describe(), "rendering");
        let format = sluice_render::preferred_format(surface, &gpu.adapter)?;
        let font = font_config(config, points_to_pixels(config.font.size, scale));
        let compositing = Compositing::for_adapter(&gpu.adapter.get_info(), format);
        let renderer = Renderer::new(&gpu.device, &gpu.queue, format, &font, compositing)?;
        tracing::info!(compositing = ?renderer.compositing(), "rows composited");
        Ok(Graphics {
            renderer,
            gpu: Some(gpu),
            font,
            font_points: config.font.size,
            scale,
        })
    }

    /// Changes the fonts or their size for every window (Ctrl+=, Ctrl+-, Ctrl+0, a reload).
    pub fn set_font(&mut self, config: &Config, points: f32) {
        self.font_points = points.clamp(*config::FONT_SIZES.start(), *config::FONT_SIZES.end());
        self.font = font_config(config, points_to_pixels(self.font_points, self.scale));
        if let Err(err) = self.renderer.set_font(&self.font) {
            tracing::warn!(%err, "cannot load the font at the new size");
        }
    }
}

/// The renderer's fonts as the configuration's `[font]` describes them, at `size_px`.
pub fn font_config(config: &Config, size_px: f32) -> FontConfig {
    let f = &config.font;
    FontConfig {
        family: f.family.clone(),
        bold_family: f.bold_family.clone(),
        italic_family: f.italic_family.clone(),
        bold_italic_family: f.bold_italic_family.clone(),
        styles: [
            (&f.style, sluice_render::FaceStyle::REGULAR),
            (&f.bold_style, sluice_render::FaceStyle::BOLD),
            (&f.italic_style, sluice_render::FaceStyle::ITALIC),
            (&f.bold_italic_style, sluice_render::FaceStyle::BOLD_ITALIC),
        ]
        .map(|(name, default)| {
            // Checked when the configuration was read: a bad name kept the default.
            match name.as_deref().map(sluice_config::font_style) {
                Some(Ok((weight, italic))) => sluice_render::FaceStyle { weight, italic },
                _ => default,
            }
        }),
        offset: (f.offset_x.into(), f.offset_y.into()),
        glyph_offset: (f.glyph_offset_x.into(), f.glyph_offset_y.into()),
        builtin_box_drawing: f.builtin_box_drawing,
        cursor_thickness: config.cursor.thickness,
        fallback: f.fallback.clone(),
        size_px,
        ..FontConfig::default()
    }
}

fn points_to_pixels(points: f32, scale: f64) -> f32 {
    points * 96.0 / 72.0 * scale as f32
}

/// What `renderer.backend` comes to on this machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Choice {
    Software,
    Gpu,
    /// Try the GPU; if it has no adapter, or only a software one, draw with the software
    /// renderer.
    GpuUnlessSoftware,
}

/// Chooses where frames are drawn: as `renderer.backend` says, and for `auto` by whether the
/// machine has a GPU device node (`has_gpu`, given `/dev`).
///
/// `auto` takes the software renderer where there is no GPU: there wgpu could only draw with
/// Mesa's software Vulkan (lavapipe), whose presentation copies each frame twice and, under
/// the X servers GPU-less machines run (Xvfb, Xvnc, xrdp), sends it whole over the X socket,
/// while the software renderer hands the window system only the rows that changed, through
/// shared memory, and loads no driver (docs/performance.md, "The software renderer").
/// Translucent windows stay on the GPU backend, the one that can show them.
pub fn choose_backend(config: &Config, has_gpu: impl Fn(&std::path::Path) -> bool) -> Choice {
    use sluice_config::RendererBackend;
    match config.renderer.backend {
        RendererBackend::Software => Choice::Software,
        RendererBackend::Gpu => Choice::Gpu,
        RendererBackend::Auto if config.window.opacity < 1.0 => Choice::Gpu,
        RendererBackend::Auto if !has_gpu(std::path::Path::new("/dev")) => Choice::Software,
        RendererBackend::Auto => Choice::GpuUnlessSoftware,
    }
}

/// What the windows share and reach through each event.
pub struct Shared {
    pub config: Config,
    /// The command line, whose options win over the file's on every reload.
    pub cli: Cli,
    pub proxy: EventLoopProxy<UserEvent>,
    pub clipboard: Clipboard,
    pub graphics: Option<Graphics>,
    /// The remote-control socket's path, for the programs' environment.
    pub socket: Option<PathBuf>,
    /// The key bindings: the defaults with `keyboard.bindings` over them.
    pub bindings: Bindings,
    /// What is wrong with the configuration as last read, shown in a bar until dismissed.
    pub problems: Problems,
    /// `bell.command`, while it runs.
    pub bell_command: BellCommand,
    /// Desktop notifications, sent from a thread of their own.
    pub notifier: crate::notifier::Notifier,
}

/// The program `bell.command` names, run on BEL: at most one at a time, so a flood of BELs
/// (a program printing a file of them) runs it once, not once a bell.
#[derive(Debug, Default)]
pub struct BellCommand {
    running: Option<std::process::Child>,
}

impl BellCommand {
    pub fn ring(&mut self, command: &[String]) {
        let Some((program, args)) = command.split_first() else {
            return;
        };
        if let Some(child) = &mut self.running {
            if matches!(child.try_wait(), Ok(None)) {
                return;
            }
            self.running = None;
        }
        match std::process::Command::new(program).args(args).spawn() {
            Ok(child) => self.running = Some(child),
            Err(err) => tracing::warn!(%err, program, "cannot run bell.command"),
        }
    }
}

/// The configuration's problems, numbered so a window knows whether it dismissed these.
#[derive(Debug, Default)]
pub struct Problems {
    pub messages: Vec<String>,
    pub generation: u64,
}

impl Problems {
    pub fn replace(&mut self, messages: Vec<String>) {
        if messages != self.messages {
            self.messages = messages;
            self.generation += 1;
        }
    }
}

impl Shared {
    pub fn pane_context(&self) -> PaneContext<'_> {
        PaneContext {
            config: &self.config,
            read_ahead: self.config.read_ahead(),
            proxy: &self.proxy,
            renderer: &self
                .graphics
                .as_ref()
                .expect("panes start in windows, after the graphics")
                .renderer,
            socket: self.socket.as_deref(),
        }
    }
}

/// Runs windows until the last one closes. Returns the exit status of the last program to
/// end (0 if the last window was closed by the user).
pub fn run(cli: &Cli, config: Config, problems: Vec<String>) -> anyhow::Result<i32> {
    let event_loop = EventLoop::<UserEvent>::with_user_event()
        .build()
        .context("cannot connect to a display")?;
    let proxy = event_loop.create_proxy();
    let listener = ipc::Listener::start(proxy.clone())
        .map_err(|err| tracing::warn!(%err, "no remote control (sluice msg)"))
        .ok();
    crate::appearance::watch(proxy.clone());
    let (bindings, binding_problems) = bindings_of(&config);
    let mut shown = Problems::default();
    shown.replace(problems.into_iter().chain(binding_problems).collect());
    let mut app = App {
        windows: HashMap::new(),
        _watcher: watch_config(cli, proxy.clone()),
        shared: Shared {
            bindings,
            problems: shown,
            bell_command: BellCommand::default(),
            notifier: crate::notifier::Notifier::start(),
            config,
            cli: cli.clone(),
            proxy,
            clipboard: Clipboard::new(),
            graphics: None,
            socket: listener.as_ref().map(|l| l.path().to_owned()),
        },
        _listener: listener,
        error: None,
        exit_code: 0,
        reload_at: None,
        lose_gpu_at: cli
            .debug_lose_gpu_after
            .map(|s| Instant::now() + Duration::from_secs_f64(s)),
        started: false,
    };
    event_loop.run_app(&mut app).context("event loop failed")?;
    match app.error {
        Some(err) => Err(err),
        None => Ok(app.exit_code),
    }
}

/// Field order is drop order: windows (and their panes) before what they share.
struct App {
    windows: HashMap<WindowId, Window>,
    shared: Shared,
    _watcher: Option<config::ConfigWatcher>,
    _listener: Option<ipc::Listener>,
    error: Option<anyhow::Error>,
    exit_code: i32,
    /// When to re-read the configuration file, which changed.
    reload_at: Option<Instant>,
    /// When to destroy the GPU device, to test recovery (`--debug-lose-gpu-after`).
    lose_gpu_at: Option<Instant>,
    started: bool,
}

impl ApplicationHandler<UserEvent> for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if std::mem::replace(&mut self.started, true) {
            return;
        }
        let spawn = Spawn {
            command: self.shared.cli.command.clone(),
            working_directory: self
                .shared
                .config
                .terminal
                .working_directory
                .as_ref()
                .map(PathBuf::from),
        };
        if let Err(err) = self.open_window(event_loop, &spawn) {
            self.error = Some(err);
            event_loop.exit();
        }
    }

    fn user_event(&mut self, event_loop: &ActiveEventLoop, event: UserEvent) {
        match event {
            UserEvent::Wakeup(id) => {
                if let Some(window) = self
                    .windows
                    .values()
                    .find(|w| w.has_pane(id))
                    .map(Window::id)
                {
                    self.guarded(window, |w, shared| w.wakeup(shared, id));
                }
            }
            UserEvent::ChildExited(id) => {
                let shared = &self.shared;
                if let Some(window) = window_with(&mut self.windows, id) {
                    if let Some(status) = window.pane(id).and_then(|p| p.session.pty.exit_status())
                    {
                        self.exit_code = status.shell_code();
                    }
                    window.child_exited(shared, id);
                }
            }
            UserEvent::ConfigChanged => {
                self.reload_at.get_or_insert(Instant::now() + SETTLE);
            }
            UserEvent::Remote(envelope) => {
                let answer = self.answer(event_loop, envelope.request);
                let _ = envelope.reply.send(answer);
            }
            UserEvent::PrefersLight(light) => {
                // Only a `light:…,dark:…` theme changes with it; the palettes are made again.
                if config::themes::set_prefers_light(light) {
                    tracing::info!(light, "the desktop's colour scheme changed");
                    let shared = &self.shared;
                    for window in self.windows.values_mut() {
                        window.palette_changed(shared);
                    }
                }
            }
        }
        self.after_event(event_loop);
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, id: WindowId, event: WindowEvent) {
        let Some(window) = self.windows.get_mut(&id) else {
            return;
        };
        if let WindowEvent::CloseRequested | WindowEvent::Destroyed = event {
            // The user closed it (or another client destroyed it): its programs are hung up
            // on, like closing any terminal.
            self.windows.remove(&id);
            self.exit_code = 0;
        } else {
            let _ = window;
            self.guarded(id, |w, shared| w.event(shared, event));
        }
        self.after_event(event_loop);
    }

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        let now = Instant::now();
        if self.reload_at.is_some_and(|at| now >= at) {
            self.reload_config();
        }
        if self.lose_gpu_at.is_some_and(|at| now >= at) {
            self.lose_gpu_at = None;
            if let Some(gpu) = self.shared.graphics.as_ref().and_then(|g| g.gpu.as_ref()) {
                tracing::warn!("destroying the GPU device (--debug-lose-gpu-after)");
                gpu.device.destroy();
                let _ = gpu.device.poll(sluice_render::wgpu::PollType::Poll);
            }
        }
        if self
            .shared
            .graphics
            .as_ref()
            .and_then(|g| g.gpu.as_ref())
            .is_some_and(Gpu::is_lost)
        {
            self.recover_graphics(event_loop);
        }
        let mut wake_at = [self.reload_at, self.lose_gpu_at]
            .into_iter()
            .flatten()
            .min();
        for window in self.windows.values_mut() {
            window.run_timers(&self.shared, now);
            let deadline = [window.next_deadline(), window.frame_due()]
                .into_iter()
                .flatten()
                .min();
            if let Some(at) = window.frame_due()
                && at <= now
            {
                window.frame_requested = false;
                window.os.request_redraw();
            }
            wake_at = [wake_at, deadline.filter(|&d| d > now)]
                .into_iter()
                .flatten()
                .min();
        }
        // Idle is free: no timer unless something visible needs one.
        event_loop.set_control_flow(wake_at.map_or(ControlFlow::Wait, ControlFlow::WaitUntil));
    }
}

impl App {
    fn open_window(
        &mut self,
        event_loop: &ActiveEventLoop,
        spawn: &Spawn,
    ) -> anyhow::Result<WindowId> {
        let started = Instant::now();
        let size = (
            self.shared.config.window.columns,
            self.shared.config.window.lines,
        );
        let window = Window::open(event_loop, &mut self.shared, spawn, size)?;
        let id = window.id();
        tracing::info!(
            ms = started.elapsed().as_secs_f64() * 1e3,
            windows = self.windows.len() + 1,
            "window opened"
        );
        self.windows.insert(id, window);
        Ok(id)
    }

    /// The GPU device was lost: a new one, chosen for the first window's new surface (or the
    /// software renderer, as `renderer.backend` allows), and new surfaces and views
    /// everywhere. The terminals never noticed: only drawing stopped.
    fn recover_graphics(&mut self, event_loop: &ActiveEventLoop) {
        let Some(old) = self.shared.graphics.take() else {
            return;
        };
        let result = (|| -> anyhow::Result<Graphics> {
            let first = self.windows.values().next().context("no window")?;
            let mut config = self.shared.config.clone();
            config.font.size = old.font_points;
            let (g, mut raw) = Graphics::for_window(event_loop, &first.os, &config, old.scale)?;
            let first_id = first.id();
            for (id, window) in &mut self.windows {
                let surface = if *id == first_id { raw.take() } else { None };
                window.replace_graphics(&g, surface)?;
            }
            Ok(g)
        })();
        drop(old);
        match result {
            Ok(g) => {
                let adapter = g.gpu.as_ref().map_or("software".into(), Gpu::describe);
                tracing::warn!(%adapter, "GPU device replaced");
                self.shared.graphics = Some(g);
            }
            Err(err) => {
                self.error = Some(err.context("the GPU device was lost and cannot be replaced"));
                event_loop.exit();
            }
        }
    }

    /// Runs `f` on window `id`, containing a panic: a bug in handling one window's event
    /// closes that window (its programs are hung up on, as when it is closed) and is
    /// reported, and the process and its other windows carry on.
    fn guarded(&mut self, id: WindowId, f: impl FnOnce(&mut Window, &mut Shared)) {
        let Some(window) = self.windows.get_mut(&id) else {
            return;
        };
        let shared = &mut self.shared;
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(window, shared)));
        if let Err(panic) = outcome {
            let message = sluice_pty::panic_message(&*panic);
            tracing::error!(%message, "handling a window's event panicked; closing that window");
            eprintln!("sluice: a window failed ({message}) and was closed");
            self.windows.remove(&id);
        }
    }

    fn window_of(&mut self, pane: PaneId) -> Option<&mut Window> {
        window_with(&mut self.windows, pane)
    }

    /// After any event: what windows asked for, windows left empty, the end of the process.
    fn after_event(&mut self, event_loop: &ActiveEventLoop) {
        let requests: Vec<window::Request> = self
            .windows
            .values_mut()
            .flat_map(|w| std::mem::take(&mut w.requests))
            .collect();
        for request in requests {
            match request {
                window::Request::NewWindow(spawn) => {
                    if let Err(err) = self.open_window(event_loop, &spawn) {
                        tracing::warn!("cannot open a window: {err:#}");
                    }
                }
                window::Request::FontSize(points) => self.set_font_points(points),
                window::Request::ScaleFactor(scale) => {
                    if let Some(g) = &mut self.shared.graphics {
                        g.scale = scale;
                    }
                    let points = self
                        .shared
                        .graphics
                        .as_ref()
                        .map_or(12.0, |g| g.font_points);
                    self.set_font_points(points);
                }
            }
        }
        self.windows.retain(|_, w| !w.is_empty());
        if self.windows.is_empty() && self.started {
            event_loop.exit();
        }
    }

    fn set_font_points(&mut self, points: f32) {
        if let Some(g) = &mut self.shared.graphics {
            g.set_font(&self.shared.config, points);
        }
        for window in self.windows.values_mut() {
            window.font_changed(&self.shared);
        }
    }

    /// Reads the configuration file again and applies what changed to every window. Bad
    /// values keep their defaults and are reported, as at start-up; the command line's
    /// options still win.
    fn reload_config(&mut self) {
        self.reload_at = None;
        let mut loaded =
            config::load_with(self.shared.cli.config.as_deref(), &self.shared.cli.options);
        loaded.report();
        let (bindings, binding_problems) = bindings_of(&loaded.config);
        let problems: Vec<String> = loaded
            .problems
            .iter()
            .cloned()
            .chain(binding_problems)
            .collect();
        self.shared.problems.replace(problems);
        for window in self.windows.values_mut() {
            window.request_frame();
        }
        if !loaded.parsed {
            // A file caught half-written, or a typo that breaks the TOML: keep what runs.
            tracing::warn!("the configuration file does not parse; keeping the current one");
            return;
        }
        self.shared.cli.apply_to(&mut loaded.config);
        if loaded.config == self.shared.config {
            return;
        }
        tracing::info!("configuration reloaded");
        self.shared.bindings = bindings;
        let old = std::mem::replace(&mut self.shared.config, loaded.config);
        let new = &self.shared.config;
        if font_config(new, new.font.size) != font_config(&old, old.font.size)
            && let Some(g) = &mut self.shared.graphics
        {
            g.set_font(new, new.font.size);
        }
        // What is fixed when a pane or window is made says so, once per change.
        let (n, o) = (&new.window, &old.window);
        const PANES: &str = "to panes opened from now on";
        const WINDOWS: &str = "to windows opened from now on";
        let later = [
            (
                new.terminal.flow_control != old.terminal.flow_control,
                "terminal.flow_control",
                PANES,
            ),
            (
                new.terminal.shell != old.terminal.shell,
                "terminal.shell",
                PANES,
            ),
            (new.terminal.env != old.terminal.env, "terminal.env", PANES),
            (
                new.terminal.read_ahead != old.terminal.read_ahead,
                "terminal.read_ahead",
                PANES,
            ),
            (
                n.decorations != o.decorations,
                "window.decorations",
                WINDOWS,
            ),
            (
                n.startup_mode != o.startup_mode,
                "window.startup_mode",
                WINDOWS,
            ),
            (n.class != o.class, "window.class", WINDOWS),
            (
                // A window is made with an alpha channel or without; the value itself
                // applies at once to windows that have one.
                (n.opacity < 1.0) != (o.opacity < 1.0),
                "window.opacity (to or from 1)",
                WINDOWS,
            ),
            (
                (n.columns, n.lines) != (o.columns, o.lines),
                "window.columns and window.lines",
                WINDOWS,
            ),
            (
                // The renderer is the process's, made with its first window.
                new.renderer.backend != old.renderer.backend,
                "renderer.backend",
                "when Sluice next starts",
            ),
        ];
        for (changed, option, what) in later {
            if changed {
                let message = format!("{option} applies {what}");
                eprintln!("sluice: {message}");
                tracing::warn!("{message}");
            }
        }
        for window in self.windows.values_mut() {
            window.reconfigure(&old, &self.shared);
        }
    }

    /// The focused window: the one with the keyboard, else any.
    fn focused_window_id(&self) -> Option<WindowId> {
        self.windows
            .values()
            .find(|w| w.has_focus())
            .or_else(|| self.windows.values().next())
            .map(Window::id)
    }

    fn focused_window(&mut self) -> Option<&mut Window> {
        let id = self.focused_window_id()?;
        self.windows.get_mut(&id)
    }

    /// Where a request's new pane starts: as asked, else the focused pane's directory.
    fn spawn_for(&mut self, request: SpawnRequest) -> Spawn {
        let working_directory = request
            .working_directory
            .or_else(|| self.focused_window().and_then(|w| w.focused_directory()));
        Spawn {
            command: request
                .command
                .map(|c| c.into_iter().map(Into::into).collect()),
            working_directory,
        }
    }

    /// Answers a `sluice msg` request.
    fn answer(&mut self, event_loop: &ActiveEventLoop, request: Request) -> Answer {
        match self.handle(event_loop, request) {
            Ok(value) => Answer::Ok(value),
            Err(err) => Answer::Error(format!("{err:#}")),
        }
    }

    fn handle(
        &mut self,
        event_loop: &ActiveEventLoop,
        request: Request,
    ) -> anyhow::Result<serde_json::Value> {
        use serde_json::json;
        match request {
            Request::CreateWindow { spawn } => {
                let spawn = self.spawn_for(spawn);
                let id = self.open_window(event_loop, &spawn)?;
                let window = &self.windows[&id];
                Ok(json!({ "window": u64::from(id), "pane": window.focused_id().map(|p| p.0) }))
            }
            Request::CreateTab { spawn } => {
                let spawn = self.spawn_for(spawn);
                let id = self
                    .focused_window_id()
                    .context("no window to add a tab to")?;
                let shared = &self.shared;
                let window = self.windows.get_mut(&id).expect("found above");
                let pane = window.new_tab(shared, &spawn)?;
                Ok(json!({ "pane": pane.0 }))
            }
            Request::Split {
                direction,
                pane,
                spawn,
            } => {
                let spawn = self.spawn_for(spawn);
                self.split(pane.map(PaneId), direction, &spawn)
            }
            Request::List => Ok(self.list()),
            Request::SendText { pane, text } => {
                let id = self.pane_or_focused(pane)?;
                let window = self.window_of(id).context("no such pane")?;
                let pane = window.pane_mut(id).context("no such pane")?;
                pane.scroll_to_bottom();
                pane.session.terminal.writer().write(text.into_bytes());
                Ok(json!({ "pane": id.0 }))
            }
            Request::GetText {
                pane,
                scrollback,
                ansi,
            } => {
                let id = self.pane_or_focused(pane)?;
                let window = self.window_of(id).context("no such pane")?;
                let pane = window.pane_mut(id).context("no such pane")?;
                let format = if ansi {
                    sluice_term::DumpFormat::Ansi
                } else {
                    sluice_term::DumpFormat::Text
                };
                let text = pane.session.terminal.dump(format, scrollback);
                Ok(json!({ "pane": id.0, "text": text }))
            }
            Request::Focus { pane } => {
                let id = PaneId(pane);
                let window = self
                    .window_of(id)
                    .with_context(|| format!("no pane {pane}"))?;
                window.focus_pane(id);
                window.os.focus_window();
                Ok(json!({ "pane": pane }))
            }
            Request::Close { pane } => {
                let id = PaneId(pane);
                let shared = &self.shared;
                let window = window_with(&mut self.windows, id)
                    .with_context(|| format!("no pane {pane}"))?;
                window.close_pane(shared, id);
                Ok(json!({ "pane": pane }))
            }
        }
    }

    fn pane_or_focused(&mut self, pane: Option<u64>) -> anyhow::Result<PaneId> {
        match pane {
            Some(id) => Ok(PaneId(id)),
            None => self
                .focused_window()
                .and_then(|w| w.focused_id())
                .context("no pane has the focus"),
        }
    }

    fn split(
        &mut self,
        pane: Option<PaneId>,
        direction: SplitDirection,
        spawn: &Spawn,
    ) -> anyhow::Result<serde_json::Value> {
        let target = self.pane_or_focused(pane.map(|p| p.0))?;
        let shared = &self.shared;
        let window =
            window_with(&mut self.windows, target).with_context(|| format!("no pane {target}"))?;
        window.focus_pane(target);
        let id = window.split(shared, direction, spawn)?;
        Ok(serde_json::json!({ "pane": id.0 }))
    }

    /// Every window, tab and pane, for `sluice msg list`.
    fn list(&self) -> serde_json::Value {
        use serde_json::json;
        let mut windows: Vec<&Window> = self.windows.values().collect();
        windows.sort_by_key(|w| u64::from(w.id()));
        let windows: Vec<serde_json::Value> = windows
            .into_iter()
            .map(|w| {
                let tabs: Vec<serde_json::Value> = w
                    .tabs()
                    .map(|(index, active, panes, focused)| {
                        let panes: Vec<serde_json::Value> = panes
                            .into_iter()
                            .filter_map(|id| w.pane(id))
                            .map(|p| {
                                json!({
                                    "id": p.id.0,
                                    "title": p.title(),
                                    "working_directory": p.working_directory(),
                                    "cols": p.rect.cols,
                                    "rows": p.rect.rows,
                                    "pid": p.pid(),
                                    "focused": p.id == focused,
                                })
                            })
                            .collect();
                        let shown = w.tab_marks(index);
                        json!({
                            "index": index,
                            "active": active,
                            "title": shown.title,
                            "activity": shown.activity,
                            "bell": shown.bell,
                            "panes": panes,
                        })
                    })
                    .collect();
                json!({ "id": u64::from(w.id()), "focused": w.has_focus(), "tabs": tabs })
            })
            .collect();
        json!({ "windows": windows })
    }
}

/// The bindings `config` asks for; what is wrong with its entries is reported (each bad
/// entry is dropped alone, the rest apply).
fn bindings_of(config: &Config) -> (Bindings, Vec<String>) {
    let (bindings, problems) = Bindings::new(
        &config.keyboard.bindings.specs,
        &config.hints.sets.sets,
        &config.mouse.bindings.specs,
    );
    for problem in &problems {
        eprintln!("sluice: {problem}");
        tracing::warn!("{problem}");
    }
    (bindings, problems)
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

/// The window that holds `pane`. A function of the map alone, so that callers can hold the
/// shared state beside it.
fn window_with(windows: &mut HashMap<WindowId, Window>, pane: PaneId) -> Option<&mut Window> {
    windows.values_mut().find(|w| w.has_pane(pane))
}

#[cfg(test)]
mod tests {
    use super::*;
    use sluice_config::RendererBackend;

    #[test]
    fn the_backend_is_chosen_by_the_option_the_machine_and_the_opacity() {
        let gpu_node = |_: &std::path::Path| true;
        let no_gpu_node = |_: &std::path::Path| false;
        for (backend, opacity, has_gpu, expect) in [
            (RendererBackend::Auto, 1.0, false, Choice::Software),
            (RendererBackend::Auto, 1.0, true, Choice::GpuUnlessSoftware),
            // Only the GPU backend shows a translucent window.
            (RendererBackend::Auto, 0.8, false, Choice::Gpu),
            (RendererBackend::Gpu, 1.0, false, Choice::Gpu),
            (RendererBackend::Software, 1.0, true, Choice::Software),
            (RendererBackend::Software, 0.8, true, Choice::Software),
        ] {
            let mut config = Config::default();
            config.renderer.backend = backend;
            config.window.opacity = opacity;
            let chosen = if has_gpu {
                choose_backend(&config, gpu_node)
            } else {
                choose_backend(&config, no_gpu_node)
            };
            assert_eq!(
                chosen, expect,
                "{backend:?}, opacity {opacity}, GPU {has_gpu}"
            );
        }
    }
}

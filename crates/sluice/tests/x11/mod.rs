//! Real windows under Xvfb, driven with xdotool and photographed with ImageMagick's `import`.
//! In CI these tools are installed; without them a test fails rather than skips.

#![allow(dead_code)] // Each test file uses its own part of this.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// An Xvfb server on a display of its own, killed on drop.
pub struct Xvfb {
    child: Child,
    pub display: String,
}

impl Xvfb {
    pub fn start() -> Xvfb {
        Self::start_with(&[])
    }

    /// A server started with `extra` arguments as well (`-extension MIT-SHM` turns one off).
    pub fn start_with(extra: &[&str]) -> Xvfb {
        // Tests run in parallel in one process: servers start one at a time, so each sees
        // the lock files of those before it. (Xvfb's own -displayfd search starts at :0,
        // where a server of another network namespace can answer on the abstract socket.)
        static STARTING: Mutex<()> = Mutex::new(());
        let _one_at_a_time = STARTING.lock().unwrap_or_else(|p| p.into_inner());
        let free = |n: &u32| {
            !Path::new(&format!("/tmp/.X{n}-lock")).exists()
                && !Path::new(&format!("/tmp/.X11-unix/X{n}")).exists()
        };
        let number = (150 + std::process::id() % 500..).find(free).unwrap();
        let mut child = Command::new("Xvfb")
            .args([
                &format!(":{number}"),
                "-screen",
                "0",
                "1024x768x24",
                "-nolisten",
                "tcp",
                // An X server resets when its last client leaves, refusing connections
                // meanwhile: the probe below, or xdotool, would make Sluice's start racy.
                "-noreset",
            ])
            .args(extra)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("Xvfb is installed (apt-get install xvfb)");
        let socket = PathBuf::from(format!("/tmp/.X11-unix/X{number}"));
        wait_until(Duration::from_secs(10), || socket.exists()).expect("Xvfb starts");
        // The socket appears before the server accepts connections: wait until a client
        // gets through, or Sluice could start too early and find no display.
        let display = format!(":{number}");
        wait_until(Duration::from_secs(10), || {
            Command::new("xdotool")
                .env("DISPLAY", &display)
                .arg("getdisplaygeometry")
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success())
        })
        .expect("Xvfb accepts connections");
        assert!(
            child.try_wait().unwrap().is_none(),
            "Xvfb keeps running on :{number}"
        );
        Xvfb {
            child,
            display: format!(":{number}"),
        }
    }
}

impl Drop for Xvfb {
    fn drop(&mut self) {
        // SIGTERM lets the server remove its socket and lock file; SIGKILL leaves them behind.
        let _ = Command::new("kill")
            .arg(self.child.id().to_string())
            .status();
        if wait_until(Duration::from_secs(3), || {
            matches!(self.child.try_wait(), Ok(Some(_)))
        })
        .is_err()
        {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

pub fn wait_until(timeout: Duration, mut done: impl FnMut() -> bool) -> Result<(), ()> {
    let deadline = Instant::now() + timeout;
    while Instant::now() < deadline {
        if done() {
            return Ok(());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    Err(())
}

pub fn xdotool(display: &str, args: &[&str]) -> String {
    let out = Command::new("xdotool")
        .env("DISPLAY", display)
        .args(args)
        .output()
        .expect("xdotool is installed");
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// The longest horizontal run of `color` in the image, and the row it is on.
pub fn longest_band(width: u32, height: u32, rgba: &[u8], color: [u8; 4]) -> (u32, u32) {
    (0..height)
        .map(|y| {
            let (mut best, mut run) = (0, 0);
            for x in 0..width {
                let i = ((y * width + x) * 4) as usize;
                run = if rgba[i..i + 4] == color { run + 1 } else { 0 };
                best = best.max(run);
            }
            (best, y)
        })
        .max()
        .unwrap()
}

/// Photographs the window.
pub fn screenshot(display: &str, window: &str, path: &Path) -> (u32, u32, Vec<u8>) {
    let status = Command::new("import")
        .env("DISPLAY", display)
        .args(["-window", window, path.to_str().unwrap()])
        .status()
        .expect("ImageMagick's import is installed");
    assert!(status.success());
    load_png(path)
}

/// Reads a PNG as RGBA rows.
pub fn load_png(path: &Path) -> (u32, u32, Vec<u8>) {
    let mut decoder =
        png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    // ImageMagick writes a screen of few colours as a palette or grey image: expand it.
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    let rgba = buf[..info.buffer_size()]
        .chunks(channels)
        .flat_map(|p| match p.len() {
            1 | 2 => [p[0], p[0], p[0], 255],
            _ => [p[0], p[1], p[2], 255],
        })
        .collect();
    (info.width, info.height, rgba)
}

/// Sluice running in its own Xvfb and directory, with its window found and focused.
pub struct Sluice {
    pub x: Xvfb,
    pub dir: PathBuf,
    pub child: Child,
    pub window: String,
}

impl Sluice {
    /// Starts `sluice ARGS…` in a fresh directory (its working directory and XDG dirs).
    pub fn start(name: &str, args: &[&str]) -> Sluice {
        Self::start_with_config(name, args, "")
    }

    /// The same, with `config` as the user's configuration file.
    pub fn start_with_config(name: &str, args: &[&str], config: &str) -> Sluice {
        Self::launch_with(name, args, config, &[])
    }

    /// `start`, with `env` set for Sluice (and so for every program it starts).
    pub fn start_with_env(name: &str, args: &[&str], env: &[(&str, &str)]) -> Sluice {
        Self::launch_with(name, args, "", env)
    }

    /// `start` with a configuration and an environment.
    pub fn launch_with(name: &str, args: &[&str], config: &str, env: &[(&str, &str)]) -> Sluice {
        Self::launch_on(Xvfb::start(), name, args, config, env)
    }

    /// `launch_with`, on the server `x`.
    pub fn launch_on(
        x: Xvfb,
        name: &str,
        args: &[&str],
        config: &str,
        env: &[(&str, &str)],
    ) -> Sluice {
        let dir = std::env::temp_dir().join(format!("sluice-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let runtime = dir.join("runtime");
        std::fs::create_dir_all(&runtime).unwrap();
        std::fs::create_dir_all(dir.join("config/sluice")).unwrap();
        std::fs::write(dir.join("config/sluice/sluice.toml"), config).unwrap();
        let child = Command::new(env!("CARGO_BIN_EXE_sluice"))
            .args(args)
            .env("DISPLAY", &x.display)
            .env("XDG_RUNTIME_DIR", &runtime)
            .env("XDG_CONFIG_HOME", dir.join("config"))
            .env("XDG_STATE_HOME", dir.join("state"))
            .env("PS1", "$ ")
            // New tabs and splits run the user's shell: the same one everywhere.
            .env("SHELL", "/bin/sh")
            .envs(env.iter().copied())
            .current_dir(&dir)
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(dir.join("sluice.log")).unwrap())
            .spawn()
            .unwrap();
        let mut window = String::new();
        let found = wait_until(Duration::from_secs(30), || {
            window = xdotool(&x.display, &["search", "--name", "Sluice"]);
            !window.is_empty()
        });
        let mut sluice = Sluice {
            x,
            dir,
            child,
            window: String::new(),
        };
        found.unwrap_or_else(|()| {
            let xvfb = sluice.x.child.try_wait();
            panic!(
                "the window opens on {} (Xvfb: {xvfb:?}); sluice's log:\n{}",
                sluice.x.display,
                sluice.log()
            )
        });
        sluice.window = window.lines().next().unwrap().to_string();
        sluice.xdotool(&["windowfocus", "--sync", &sluice.window.clone()]);
        // Let the program start and set its modes before input arrives.
        std::thread::sleep(Duration::from_millis(800));
        sluice
    }

    /// Runs `sluice msg ARGS…` against this instance, as a program outside it would (it
    /// finds the socket from the display). Returns the exit status's success, stdout, stderr.
    pub fn msg(&self, args: &[&str]) -> (bool, String, String) {
        let output = Command::new(env!("CARGO_BIN_EXE_sluice"))
            .arg("msg")
            .args(args)
            .env("DISPLAY", &self.x.display)
            .env("XDG_RUNTIME_DIR", self.dir.join("runtime"))
            .env_remove("SLUICE_SOCKET")
            .current_dir(&self.dir)
            .output()
            .unwrap();
        (
            output.status.success(),
            String::from_utf8_lossy(&output.stdout).into_owned(),
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    }

    /// `sluice msg list`, parsed.
    pub fn list(&self) -> serde_json::Value {
        let (ok, out, err) = self.msg(&["list"]);
        assert!(ok, "sluice msg list fails: {err}\n{}", self.log());
        serde_json::from_str(&out).expect("list prints JSON")
    }

    pub fn log(&self) -> String {
        std::fs::read_to_string(self.dir.join("sluice.log")).unwrap_or_default()
    }

    pub fn xdotool(&self, args: &[&str]) -> String {
        xdotool(&self.x.display, args)
    }

    /// Types `text` then presses Return.
    pub fn type_line(&self, text: &str) {
        self.xdotool(&["type", "--delay", "20", text]);
        self.xdotool(&["key", "Return"]);
    }

    /// Moves the pointer over the left half of cell (`col`, `row`) of the default font.
    pub fn point_at(&self, col: u32, row: u32) {
        let (w, _) = cell_size();
        self.move_to(col * w + w / 4, row);
    }

    /// Moves the pointer over the right half of a cell, so a drag ending there takes it.
    pub fn point_after(&self, col: u32, row: u32) {
        let (w, _) = cell_size();
        self.move_to(col * w + w * 3 / 4, row);
    }

    fn move_to(&self, x_in_grid: u32, row: u32) {
        let (_, h) = cell_size();
        let (x, y) = (4 + x_in_grid, 4 + row * h + h / 2);
        self.xdotool(&[
            "mousemove",
            "--sync",
            "--window",
            &self.window,
            &x.to_string(),
            &y.to_string(),
        ]);
    }

    /// Waits until the focused pane's screen shows `needle` (read with `sluice msg get-text`):
    /// keys that act on what is on screen (hints, search) must not race the program's output.
    pub fn wait_for_text(&self, needle: &str) {
        let mut text = String::new();
        let done = wait_until(Duration::from_secs(20), || {
            text = self.msg(&["get-text"]).1;
            text.contains(needle)
        });
        assert!(
            done.is_ok(),
            "{needle:?} never showed; the screen:\n{text}\nsluice's log:\n{}",
            self.log()
        );
    }

    /// Waits until `name` (relative to the directory) exists: proof a shell ran a command.
    pub fn wait_for_path(&self, name: &str) {
        let path = self.dir.join(name);
        let done = wait_until(Duration::from_secs(20), || path.exists());
        assert!(
            done.is_ok(),
            "{name} was never created\nsluice's log:\n{}",
            self.log()
        );
    }

    /// Waits until `name` in the directory holds at least `len` bytes, and returns them.
    pub fn wait_for_file(&self, name: &str, len: usize) -> Vec<u8> {
        let path = self.dir.join(name);
        let mut bytes = Vec::new();
        let done = wait_until(Duration::from_secs(20), || {
            bytes = std::fs::read(&path).unwrap_or_default();
            bytes.len() >= len
        });
        assert!(
            done.is_ok(),
            "{name} got {} of {len} bytes: {:?}\nsluice's log:\n{}",
            bytes.len(),
            String::from_utf8_lossy(&bytes),
            self.log()
        );
        bytes
    }
}

impl Drop for Sluice {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

/// The cell size of the bundled font at 12 pt on a 96 dpi screen (Xvfb's scale is 1).
pub fn cell_size() -> (u32, u32) {
    let fonts = sluice_render::font::Fonts::new(&sluice_render::FontConfig {
        size_px: 16.0,
        system_fonts: false,
        ..sluice_render::FontConfig::default()
    })
    .expect("the bundled font loads");
    let m = fonts.metrics();
    (m.width, m.height)
}

/// The `sluice-bench` binary next to `sluice`, built if a test run did not build it.
pub fn sluice_bench() -> PathBuf {
    let path = Path::new(env!("CARGO_BIN_EXE_sluice")).with_file_name("sluice-bench");
    if !path.exists() {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let status = Command::new(cargo)
            .args(["build", "-p", "sluice-bench"])
            .status()
            .expect("cargo runs");
        assert!(status.success(), "sluice-bench builds");
    }
    path
}

/// A D-Bus session bus of the test's own (dbus-daemon), for what Sluice says and hears on
/// the desktop's bus: notifications, the colour scheme.
pub struct SessionBus {
    pub address: String,
    daemon: Child,
}

impl SessionBus {
    pub fn start() -> SessionBus {
        use std::io::BufRead as _;
        let mut daemon = Command::new("dbus-daemon")
            .args(["--session", "--nofork", "--print-address=1"])
            .stdout(Stdio::piped())
            .spawn()
            .expect("dbus-daemon runs (scripts/setup.sh test installs it)");
        let mut address = String::new();
        std::io::BufReader::new(daemon.stdout.take().unwrap())
            .read_line(&mut address)
            .unwrap();
        let address = address.trim().to_owned();
        assert!(!address.is_empty(), "dbus-daemon printed its address");
        SessionBus { address, daemon }
    }
}

impl Drop for SessionBus {
    fn drop(&mut self) {
        let _ = self.daemon.kill();
        let _ = self.daemon.wait();
    }
}

//! A real window on Wayland: Weston's headless compositor (drawing with pixman, so its
//! screenshots hold the clients' pixels), Sluice as its client, photographed with
//! `weston-screenshooter`. In CI Weston is installed; without it the test fails.

use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

mod x11;
use x11::{load_png, longest_band, wait_until};

/// A headless Weston on a socket of its own, stopped on drop.
struct Weston {
    child: Child,
    runtime: PathBuf,
    socket: String,
}

impl Weston {
    fn start(dir: &Path) -> Weston {
        let runtime = dir.join("runtime");
        std::fs::create_dir_all(&runtime).unwrap();
        // Wayland wants its runtime directory private.
        std::fs::set_permissions(&runtime, std::fs::Permissions::from_mode(0o700)).unwrap();
        let socket = format!("sluice-test-{}", std::process::id());
        let child = Command::new("weston")
            .args([
                "--backend=headless-backend.so",
                "--use-pixman",
                &format!("--socket={socket}"),
                "--width=800",
                "--height=600",
                "--idle-time=0",
                // Lets weston-screenshooter take pictures.
                "--debug",
            ])
            .env("XDG_RUNTIME_DIR", &runtime)
            .env_remove("DISPLAY")
            .env_remove("WAYLAND_DISPLAY")
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(dir.join("weston.log")).unwrap())
            .spawn()
            .expect("weston is installed (apt-get install weston)");
        let path = runtime.join(&socket);
        wait_until(Duration::from_secs(10), || path.exists()).expect("weston starts");
        // The desktop shell (its panel) is up a moment after the socket.
        std::thread::sleep(Duration::from_millis(1500));
        Weston {
            child,
            runtime,
            socket,
        }
    }

    /// A client command on this compositor.
    fn client(&self, program: &str) -> Command {
        let mut command = Command::new(program);
        command
            .env("XDG_RUNTIME_DIR", &self.runtime)
            .env("WAYLAND_DISPLAY", &self.socket)
            .env_remove("DISPLAY");
        command
    }

    /// The whole output, as RGBA rows.
    fn screenshot(&self, dir: &Path) -> (u32, u32, Vec<u8>) {
        let shots = dir.join("shots");
        let _ = std::fs::remove_dir_all(&shots);
        std::fs::create_dir_all(&shots).unwrap();
        let status = self
            .client("weston-screenshooter")
            .current_dir(&shots)
            .status()
            .expect("weston-screenshooter is installed (weston)");
        assert!(status.success(), "weston-screenshooter succeeds");
        let png = std::fs::read_dir(&shots)
            .unwrap()
            .filter_map(Result::ok)
            .map(|e| e.path())
            .find(|p| p.extension().is_some_and(|e| e == "png"))
            .expect("a screenshot was written");
        load_png(&png)
    }
}

impl Drop for Weston {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The software renderer on Wayland, where softbuffer alternates two `wl_shm` buffers (the
/// compositor holds one while the next frame is drawn into the other): a screen scrolled by
/// 40 lines, then a red band drawn in one frame and a green band in the next, six rows lower,
/// each frame handing over only its changed row. (Weston repaints only what a frame damages,
/// so what the rest of a buffer holds cannot be seen here: `holding` in
/// software_surface.rs, which fills the older buffer whole, is tested on its own.)
#[test]
fn the_software_renderer_draws_on_wayland_across_buffer_swaps() {
    let dir = std::env::temp_dir().join(format!("sluice-wayland-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("config/sluice")).unwrap();
    std::fs::write(
        dir.join("config/sluice/sluice.toml"),
        "[renderer]\nbackend = \"software\"\n",
    )
    .unwrap();
    let weston = Weston::start(&dir);
    let script = r"printf '\033[?25l'; for i in $(seq 1 40); do echo line $i; sleep 0.02; done;
        sleep 1; printf '\033[2;1H\033[41m REDREDREDRED \033[0m'; sleep 0.5;
        printf '\033[8;1H\033[42m GREENGREENGREEN \033[0m'; touch drawn; sleep 30";
    let mut sluice = weston
        .client(env!("CARGO_BIN_EXE_sluice"))
        .args(["--size", "40x12", "-e", "sh", "-c", script])
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .env("XDG_STATE_HOME", dir.join("state"))
        .current_dir(&dir)
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(dir.join("sluice.log")).unwrap())
        .spawn()
        .unwrap();
    let log = || std::fs::read_to_string(dir.join("sluice.log")).unwrap_or_default();
    let (red, green) = ([0xcc, 0x66, 0x66, 255], [0xb5, 0xbd, 0x68, 255]);

    wait_until(Duration::from_secs(20), || dir.join("drawn").exists())
        .unwrap_or_else(|()| panic!("the program ran; sluice's log:\n{}", log()));
    let mut shot = (0, 0, Vec::new());
    let both = wait_until(Duration::from_secs(5), || {
        shot = weston.screenshot(&dir);
        longest_band(shot.0, shot.1, &shot.2, green).0 >= 15 * 6
    });
    let (width, height, rgba) = &shot;
    let (red_run, red_row) = longest_band(*width, *height, rgba, red);
    let (green_run, green_row) = longest_band(*width, *height, rgba, green);
    assert!(
        both.is_ok() && red_run >= 12 * 6,
        "both bands on screen (red {red_run} px, green {green_run} px); sluice's log:\n{}",
        log()
    );
    // Six rows of about 17 pixels apart.
    assert!(
        (80..130).contains(&(green_row - red_row)),
        "the green band six rows below the red one (rows {red_row} and {green_row})"
    );
    assert!(sluice.try_wait().unwrap().is_none(), "sluice runs on");
    let maps = std::fs::read_to_string(format!("/proc/{}/maps", sluice.id())).unwrap();
    assert!(
        !maps.contains("libvulkan"),
        "drawn by the software renderer, no Vulkan loaded"
    );
    let _ = sluice.kill();
    let _ = sluice.wait();
}

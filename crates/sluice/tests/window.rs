//! A real window under Xvfb, driven with xdotool and photographed with ImageMagick's
//! `import`: keystrokes go through winit to the shell, its output through the pipeline to the
//! renderer and onto the X server. In CI these tools are installed; without them the test
//! fails rather than skips.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// An Xvfb server on a display of its own, killed on drop.
struct Xvfb {
    child: Child,
    display: String,
}

impl Xvfb {
    fn start() -> Xvfb {
        let number = 150 + std::process::id() % 500;
        let child = Command::new("Xvfb")
            .args([
                &format!(":{number}"),
                "-screen",
                "0",
                "1024x768x24",
                "-nolisten",
                "tcp",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("Xvfb is installed (apt-get install xvfb)");
        let socket = PathBuf::from(format!("/tmp/.X11-unix/X{number}"));
        wait_until(Duration::from_secs(10), || socket.exists()).expect("Xvfb starts");
        Xvfb {
            child,
            display: format!(":{number}"),
        }
    }
}

impl Drop for Xvfb {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn wait_until(timeout: Duration, mut done: impl FnMut() -> bool) -> Result<(), ()> {
    let deadline = Instant::now() + timeout;
    while Instant::now() < deadline {
        if done() {
            return Ok(());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    Err(())
}

fn xdotool(display: &str, args: &[&str]) -> String {
    let out = Command::new("xdotool")
        .env("DISPLAY", display)
        .args(args)
        .output()
        .expect("xdotool is installed");
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// Reads a PNG as RGBA rows.
fn load_png(path: &Path) -> (u32, u32, Vec<u8>) {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    let rgba = buf[..info.buffer_size()]
        .chunks(channels)
        .flat_map(|p| [p[0], p[1], p[2], 255])
        .collect();
    (info.width, info.height, rgba)
}

#[test]
fn typing_into_a_shell_in_a_real_window_shows_its_output() {
    let x = Xvfb::start();
    let dir = std::env::temp_dir().join(format!("sluice-window-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let runtime = dir.join("runtime");
    std::fs::create_dir_all(&runtime).unwrap();
    let mut sluice = Command::new(env!("CARGO_BIN_EXE_sluice"))
        .args(["--size", "60x12", "-e", "sh"])
        .env("DISPLAY", &x.display)
        .env("XDG_RUNTIME_DIR", &runtime)
        .env("PS1", "$ ")
        .current_dir(&dir)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();

    let mut window = String::new();
    wait_until(Duration::from_secs(30), || {
        window = xdotool(&x.display, &["search", "--name", "Sluice"]);
        !window.is_empty()
    })
    .expect("the window opens");
    let window = window.lines().next().unwrap().to_string();
    xdotool(&x.display, &["windowfocus", "--sync", &window]);
    std::thread::sleep(Duration::from_millis(500));

    // Red reverse-video text, and a file as proof that the shell ran what was typed.
    xdotool(
        &x.display,
        &[
            "type",
            "--delay",
            "20",
            r"printf '\033[41m%s\033[0m\n' REDREDREDRED; touch typed",
        ],
    );
    xdotool(&x.display, &["key", "Return"]);
    wait_until(Duration::from_secs(20), || dir.join("typed").exists())
        .expect("the shell ran the typed command");
    std::thread::sleep(Duration::from_millis(700));

    let shot = dir.join("window.png");
    let status = Command::new("import")
        .env("DISPLAY", &x.display)
        .args(["-window", &window, shot.to_str().unwrap()])
        .status()
        .expect("ImageMagick's import is installed");
    assert!(status.success());
    let (width, height, rgba) = load_png(&shot);
    // Palette red (#cc6666) behind twelve characters: look for a long horizontal run of it.
    let red = [0xcc, 0x66, 0x66, 255];
    let longest_run = (0..height)
        .map(|y| {
            let (mut best, mut run) = (0, 0);
            for x in 0..width {
                let i = ((y * width + x) * 4) as usize;
                run = if rgba[i..i + 4] == red { run + 1 } else { 0 };
                best = best.max(run);
            }
            best
        })
        .max()
        .unwrap();
    assert!(
        longest_run >= 12 * 6,
        "a red band at least 12 cells wide is on screen (longest {longest_run} px)"
    );

    // Typing `exit` ends the shell, and with it Sluice, with the shell's status.
    xdotool(&x.display, &["type", "--delay", "20", "exit 3"]);
    xdotool(&x.display, &["key", "Return"]);
    let mut code = None;
    wait_until(Duration::from_secs(20), || {
        code = sluice.try_wait().unwrap().map(|s| s.code());
        code.is_some()
    })
    .expect("sluice exits with the shell");
    assert_eq!(code.unwrap(), Some(3));
    let _ = std::fs::remove_dir_all(&dir);
}

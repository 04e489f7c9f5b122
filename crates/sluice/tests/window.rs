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
        // A display nobody holds: no lock file and no socket (a killed server can leave one).
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
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("Xvfb is installed (apt-get install xvfb)");
        let socket = PathBuf::from(format!("/tmp/.X11-unix/X{number}"));
        wait_until(Duration::from_secs(10), || socket.exists()).expect("Xvfb starts");
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

/// The longest horizontal run of `color` in the image, and the row it is on.
fn longest_band(width: u32, height: u32, rgba: &[u8], color: [u8; 4]) -> (u32, u32) {
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
fn screenshot(display: &str, window: &str, path: &Path) -> (u32, u32, Vec<u8>) {
    let status = Command::new("import")
        .env("DISPLAY", display)
        .args(["-window", window, path.to_str().unwrap()])
        .status()
        .expect("ImageMagick's import is installed");
    assert!(status.success());
    load_png(path)
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
        .stderr(std::fs::File::create(dir.join("sluice.log")).unwrap())
        .spawn()
        .unwrap();
    let log = || std::fs::read_to_string(dir.join("sluice.log")).unwrap_or_default();

    let mut window = String::new();
    wait_until(Duration::from_secs(30), || {
        window = xdotool(&x.display, &["search", "--name", "Sluice"]);
        !window.is_empty()
    })
    .unwrap_or_else(|()| panic!("the window opens; sluice's log:\n{}", log()));
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

    let (width, height, rgba) = screenshot(&x.display, &window, &dir.join("window.png"));
    // Palette red (#cc6666) behind twelve characters: look for a long horizontal run of it.
    let (longest_run, _) = longest_band(width, height, &rgba, [0xcc, 0x66, 0x66, 255]);
    assert!(
        longest_run >= 12 * 6,
        "a red band at least 12 cells wide is on screen (longest {longest_run} px)"
    );

    // Scroll the screen several times over, then print a green band: it must be drawn just
    // above the prompt at the bottom, whatever the scrolling did to the frame texture's rows.
    xdotool(
        &x.display,
        &[
            "type",
            "--delay",
            "20",
            r"seq 1 40; printf '\033[42m%s\033[0m\n' GREENGREENGREEN; touch scrolled",
        ],
    );
    xdotool(&x.display, &["key", "Return"]);
    wait_until(Duration::from_secs(20), || dir.join("scrolled").exists())
        .expect("the shell ran the second command");
    std::thread::sleep(Duration::from_millis(700));
    let (width, height, rgba) = screenshot(&x.display, &window, &dir.join("scrolled.png"));
    let (green_run, green_row) = longest_band(width, height, &rgba, [0xb5, 0xbd, 0x68, 255]);
    assert!(
        green_run >= 15 * 6,
        "a green band is on screen (longest {green_run} px)"
    );
    assert!(
        green_row > height * 3 / 4,
        "the green band is at the bottom, row {green_row} of {height}"
    );
    let (red_run, _) = longest_band(width, height, &rgba, [0xcc, 0x66, 0x66, 255]);
    assert_eq!(red_run, 0, "the red band has scrolled away");

    // A resize reaches the program: the grid reflows and the PTY gets the new size.
    xdotool(&x.display, &["windowsize", &window, "400", "200"]);
    std::thread::sleep(Duration::from_millis(500));
    xdotool(
        &x.display,
        &["type", "--delay", "20", "stty size > size.txt"],
    );
    xdotool(&x.display, &["key", "Return"]);
    let size_file = dir.join("size.txt");
    wait_until(Duration::from_secs(20), || {
        std::fs::read_to_string(&size_file).is_ok_and(|s| s.ends_with('\n'))
    })
    .expect("stty ran after the resize");
    let size = std::fs::read_to_string(&size_file).unwrap();
    let (rows, cols): (u32, u32) = size
        .trim()
        .split_once(' ')
        .map(|(r, c)| (r.parse().unwrap(), c.parse().unwrap()))
        .unwrap();
    assert!(
        cols < 60 && rows < 12,
        "the PTY is smaller after the window shrank: {rows} rows, {cols} cols"
    );
    assert!(
        cols >= 30 && rows >= 5,
        "and sized to the new window: {rows} rows, {cols} cols"
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

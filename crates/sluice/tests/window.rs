//! A real window under Xvfb: keystrokes go through winit to the shell, its output through
//! the pipeline to the renderer and onto the X server.

use std::time::Duration;

mod x11;
use x11::{Sluice, longest_band, screenshot, wait_until, xdotool};

#[test]
fn typing_into_a_shell_in_a_real_window_shows_its_output() {
    let mut s = Sluice::start("typing", &["--size", "60x12", "-e", "sh"]);
    let (display, dir, window) = (s.x.display.clone(), s.dir.clone(), s.window.clone());

    // Red reverse-video text, and a file as proof that the shell ran what was typed.
    xdotool(
        &display,
        &[
            "type",
            "--delay",
            "20",
            r"printf '\033[41m%s\033[0m\n' REDREDREDRED; touch typed",
        ],
    );
    xdotool(&display, &["key", "Return"]);
    wait_until(Duration::from_secs(20), || dir.join("typed").exists())
        .expect("the shell ran the typed command");
    std::thread::sleep(Duration::from_millis(700));

    let (width, height, rgba) = screenshot(&display, &window, &dir.join("window.png"));
    // Palette red (#cc6666) behind twelve characters: look for a long horizontal run of it.
    let (longest_run, _) = longest_band(width, height, &rgba, [0xcc, 0x66, 0x66, 255]);
    assert!(
        longest_run >= 12 * 6,
        "a red band at least 12 cells wide is on screen (longest {longest_run} px)"
    );

    // Scroll the screen several times over, then print a green band: it must be drawn just
    // above the prompt at the bottom, whatever the scrolling did to the frame texture's rows.
    xdotool(
        &display,
        &[
            "type",
            "--delay",
            "20",
            r"seq 1 40; printf '\033[42m%s\033[0m\n' GREENGREENGREEN; touch scrolled",
        ],
    );
    xdotool(&display, &["key", "Return"]);
    wait_until(Duration::from_secs(20), || dir.join("scrolled").exists())
        .expect("the shell ran the second command");
    std::thread::sleep(Duration::from_millis(700));
    let (width, height, rgba) = screenshot(&display, &window, &dir.join("scrolled.png"));
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
    xdotool(&display, &["windowsize", &window, "400", "200"]);
    std::thread::sleep(Duration::from_millis(500));
    xdotool(
        &display,
        &["type", "--delay", "20", "stty size > size.txt"],
    );
    xdotool(&display, &["key", "Return"]);
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
    xdotool(&display, &["type", "--delay", "20", "exit 3"]);
    xdotool(&display, &["key", "Return"]);
    let mut code = None;
    wait_until(Duration::from_secs(20), || {
        code = s.child.try_wait().unwrap().map(|s| s.code());
        code.is_some()
    })
    .expect("sluice exits with the shell");
    assert_eq!(code.unwrap(), Some(3));
    }

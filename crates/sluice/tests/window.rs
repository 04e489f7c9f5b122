//! A real window under Xvfb: keystrokes go through winit to the shell, its output through
//! the pipeline to the renderer and onto the X server.

use std::time::Duration;

mod x11;
use x11::{Sluice, Xvfb, longest_band, screenshot, wait_until, xdotool};

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
    xdotool(&display, &["type", "--delay", "20", "stty size > size.txt"]);
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

/// Palette green (#b5bd68), the background `\e[42m` gives.
const GREEN: [u8; 4] = [0xb5, 0xbd, 0x68, 255];

#[test]
fn a_frozen_view_keeps_reading_and_catches_up_when_thawed() {
    let s = Sluice::start("freeze", &["--size", "60x12", "-e", "sh"]);
    let shot = |name: &str| screenshot(&s.x.display, &s.window, &s.dir.join(name));

    // Scroll Lock freezes the view; the program keeps running and its output is parsed.
    s.xdotool(&["key", "Scroll_Lock"]);
    s.type_line(r"seq 1 500; printf '\033[42m%s\033[0m\n' GREENGREENGREEN; touch printed");
    wait_until(Duration::from_secs(20), || s.dir.join("printed").exists())
        .expect("the program ran to the end behind a frozen view");
    std::thread::sleep(Duration::from_millis(500));
    let (w, h, rgba) = shot("frozen.png");
    assert_eq!(
        longest_band(w, h, &rgba, GREEN).0,
        0,
        "nothing new is shown"
    );

    // Thawed, the view shows the present at once.
    s.xdotool(&["key", "Scroll_Lock"]);
    std::thread::sleep(Duration::from_millis(500));
    let (w, h, rgba) = shot("thawed.png");
    let (run, _) = longest_band(w, h, &rgba, GREEN);
    assert!(run >= 15 * 6, "the green band is there (longest {run} px)");
}

#[test]
fn search_highlights_matches_and_the_metrics_overlay_toggles() {
    let s = Sluice::start("search", &["--size", "80x12", "-e", "sh"]);
    let shot = |name: &str| screenshot(&s.x.display, &s.window, &s.dir.join(name));
    s.type_line("echo needle; seq 1 30; echo needle haystack; touch printed");
    wait_until(Duration::from_secs(20), || s.dir.join("printed").exists()).unwrap();
    std::thread::sleep(Duration::from_millis(300));

    // Ctrl+Shift+F, then the pattern: the nearest match is focused (orange), the others
    // in view are amber.
    s.xdotool(&["key", "ctrl+shift+f"]);
    s.xdotool(&["type", "--delay", "20", "needle"]);
    std::thread::sleep(Duration::from_millis(500));
    let (w, h, rgba) = shot("search.png");
    let (orange, _) = longest_band(w, h, &rgba, [0xf0, 0x8d, 0x49, 255]);
    assert!(
        orange >= 6 * 6,
        "the focused match is highlighted ({orange} px)"
    );
    // Enter goes to the older match, far up in history: the view scrolls to it.
    s.xdotool(&["key", "Return"]);
    std::thread::sleep(Duration::from_millis(500));
    let (w, h, rgba) = shot("search-older.png");
    let (orange, row) = longest_band(w, h, &rgba, [0xf0, 0x8d, 0x49, 255]);
    assert!(
        orange >= 6 * 6 && row < h / 3,
        "the older match is near the top (row {row})"
    );
    s.xdotool(&["key", "Escape"]);

    // The metrics overlay: a block in the foreground colour, 36 cells wide, over the top
    // nine rows.
    let fg = [0xc5, 0xc8, 0xc6, 255];
    s.xdotool(&["key", "ctrl+shift+m"]);
    std::thread::sleep(Duration::from_millis(500));
    let (w, h, rgba) = shot("overlay.png");
    let (band, row) = longest_band(w, h, &rgba, fg);
    let (_, cell_height) = x11::cell_size();
    assert!(
        band >= 30 * 6 && row <= 4 + 9 * cell_height,
        "the overlay is shown ({band} px, row {row})"
    );
    s.xdotool(&["key", "ctrl+shift+m"]);
    std::thread::sleep(Duration::from_millis(500));
    let (w, h, rgba) = shot("no-overlay.png");
    let (band, _) = longest_band(w, h, &rgba, fg);
    assert!(band < 30 * 6, "the overlay is gone ({band} px)");
}

#[test]
fn the_configuration_can_show_the_metrics_overlay_from_the_start() {
    let s = Sluice::start_with_config(
        "overlay-config",
        &["--size", "80x12", "-e", "sh"],
        "[metrics]\noverlay = true\n",
    );
    let (w, h, rgba) = screenshot(&s.x.display, &s.window, &s.dir.join("overlay.png"));
    let (band, _) = longest_band(w, h, &rgba, [0xc5, 0xc8, 0xc6, 255]);
    assert!(band >= 30 * 6, "the overlay is shown ({band} px)");
}

/// `sluice-bench` from the same target directory (built first if this test runs alone).
#[test]
fn window_latency_is_measured_through_a_real_window() {
    let x = x11::Xvfb::start();
    let runtime = std::env::temp_dir().join(format!("sluice-latency-{}", std::process::id()));
    std::fs::create_dir_all(&runtime).unwrap();
    let out = std::process::Command::new(x11::sluice_bench())
        .args(["window-latency", "--samples", "10", "--json", "--"])
        .args([env!("CARGO_BIN_EXE_sluice"), "--size", "60x12", "-e", "{}"])
        .env("DISPLAY", &x.display)
        .env("XDG_RUNTIME_DIR", &runtime)
        .output()
        .expect("sluice-bench runs");
    let _ = std::fs::remove_dir_all(&runtime);
    assert!(
        out.status.success(),
        "window-latency succeeds: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let results: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let loads: Vec<&str> = results
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["load"].as_str().unwrap())
        .collect();
    assert_eq!(loads, ["idle", "flood"]);
    for r in results.as_array().unwrap() {
        for what in ["key_to_pty", "output_to_frame"] {
            let p = &r[what];
            assert_eq!(p["samples"], 10, "{r}");
            let (p50, max) = (p["p50_ms"].as_f64().unwrap(), p["max_ms"].as_f64().unwrap());
            // Loose bounds: real latencies, not zeros or clock mix-ups; the figures themselves
            // are the benchmark's (benches/window.sh).
            assert!(p50 > 0.0 && p50 <= max && max < 10_000.0, "{what}: {p}");
        }
    }
    // Idle, a key reaches the program within a frame's time even on a loaded CI machine.
    assert!(results[0]["key_to_pty"]["p50_ms"].as_f64().unwrap() < 100.0);
}

/// The cell of a Markdown table's second arm column (after the row label and the drain) in
/// the row whose label starts `label`.
fn second_column(table: &str, label: &str) -> String {
    table
        .lines()
        .find(|l| l.starts_with(label))
        .and_then(|l| l.split('|').nth(3))
        .map(|c| c.trim().to_owned())
        .unwrap_or_else(|| panic!("no row {label}: {table}"))
}

/// `sluice-bench compare`, one short round of Sluice against the drain: with no DISPLAY it
/// starts its own Xvfb, and every figure it reports comes from real runs.
#[test]
fn compare_measures_sluice_against_the_drain_on_a_private_display() {
    let dir = std::env::temp_dir().join(format!("sluice-compare-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (json, plot) = (dir.join("compare.json"), dir.join("compare.svg"));
    let sluice = format!(
        "sluice={} --size {{cols}}x{{rows}} -e {{}}",
        env!("CARGO_BIN_EXE_sluice")
    );
    let out = std::process::Command::new(x11::sluice_bench())
        .args([
            "compare",
            "--terminal",
            &sluice,
            "--rounds",
            "1",
            "--size",
            "60x12",
        ])
        .args([
            "--payloads",
            "plain,dense",
            "--bytes",
            "1M",
            "--samples",
            "5",
            "--idle",
            "1",
        ])
        .arg("--json")
        .arg(&json)
        .arg("--plot")
        .arg(&plot)
        .env_remove("DISPLAY")
        .output()
        .expect("sluice-bench runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "compare succeeds: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("| | drain | sluice |"), "{stdout}");
    assert!(
        stdout.contains("| read `dense`, × drain (MB/s) | 1.00× ("),
        "{stdout}"
    );
    // One round: the rounds' range of a ratio is that round's ratio at both ends.
    let sluice_cell = |label: &str| second_column(&stdout, label);
    let ratio = sluice_cell("| read `dense`, × drain (MB/s) |");
    let ratio = ratio.split('×').next().unwrap();
    assert_eq!(
        sluice_cell("| read `dense`, rounds' range × drain |"),
        format!("{ratio}–{ratio}"),
        "{stdout}"
    );
    let svg = std::fs::read_to_string(&plot).unwrap();
    assert!(
        svg.starts_with("<svg") && svg.contains("\nsluice\n</text>"),
        "the plot names Sluice"
    );

    let c: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let runs = c["runs"].as_array().unwrap();
    let arms: Vec<&str> = runs.iter().map(|r| r["arm"].as_str().unwrap()).collect();
    assert_eq!(arms, ["drain", "sluice"], "round 1 starts with the drain");
    for r in runs {
        let reads = r["reads"].as_array().unwrap();
        assert_eq!(reads.len(), 2, "{r}");
        // Six tries a payload for every arm (three in each of its two styles for the drain);
        // the fastest counts.
        for p in reads {
            let rate = p["mb_per_s"].as_f64().unwrap();
            assert!(rate > 0.1 && rate.is_finite(), "{p}");
            let rates: Vec<f64> = p["tries_mb_per_s"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t.as_f64().unwrap())
                .collect();
            assert_eq!(rates.len(), 6, "{p}");
            assert_eq!(rates.iter().copied().fold(0.0, f64::max), rate, "{p}");
            // The writer's own CPU in that try: 1 MB through a PTY costs it some.
            let program = &p["program"];
            let cpu = program["user_ms"].as_f64().unwrap() + program["system_ms"].as_f64().unwrap();
            assert!(cpu > 0.0 && cpu.is_finite(), "{p}");
        }
        assert!(
            r["build"]["seconds"].as_f64().unwrap() >= 1.0,
            "a whole warm build: {r}"
        );
        assert!(r["load_average"].as_f64().unwrap() >= 0.0);
    }
    assert!(runs[0]["window"].is_null(), "the drain has no window");
    let w = &runs[1]["window"];
    let startup = w["startup_ms"].as_f64().unwrap();
    assert!(startup > 0.0 && startup < 60_000.0, "{w}");
    for which in ["key_idle", "key_flood", "frame_idle", "frame_flood"] {
        assert_eq!(w[which]["samples"], 5, "{which}: {w}");
        assert!(w[which]["p50_ms"].as_f64().unwrap() > 0.0, "{which}: {w}");
    }
    let (rss, peak) = (
        w["rss_idle_mib"].as_f64().unwrap(),
        w["rss_peak_mib"].as_f64().unwrap(),
    );
    assert!(rss > 1.0 && peak >= rss, "{w}");
    // CPU is read in clock ticks of 10 ms, and 1 MB of plain lines costs Sluice about 8 ms:
    // a payload's figure may be 0. The warm build (0.14 s here) always costs ticks.
    for p in runs[1]["reads"].as_array().unwrap() {
        let cpu = p["cpu_seconds"].as_f64().unwrap();
        assert!(cpu >= 0.0 && cpu.is_finite(), "{p}");
    }
    let cpu = runs[1]["build"]["cpu_seconds"].as_f64().unwrap();
    assert!(
        cpu > 0.0,
        "a Metro-like build costs Sluice some CPU: {}",
        runs[1]
    );
    assert!(
        runs[0]["build"]["cpu_seconds"].is_null(),
        "the drain has none"
    );

    // `merge` reads the file back and pools it with itself: two rounds, each with the one
    // round's ratio, so the median and the range are that ratio again.
    let merged = std::process::Command::new(x11::sluice_bench())
        .arg("merge")
        .args([&json, &json])
        .arg("--plot")
        .arg(dir.join("merged.svg"))
        .output()
        .expect("sluice-bench runs");
    let merged_out = String::from_utf8_lossy(&merged.stdout).into_owned();
    assert!(
        merged.status.success(),
        "merge succeeds: {}",
        String::from_utf8_lossy(&merged.stderr)
    );
    assert!(
        merged_out.contains("2 round(s), 60×12 cells"),
        "{merged_out}"
    );
    let merged_cell = |label: &str| second_column(&merged_out, label);
    assert_eq!(
        merged_cell("| read `dense`, rounds' range × drain |"),
        format!("{ratio}–{ratio}")
    );
    assert!(
        merged_cell("| read `dense`, × drain (MB/s) |").starts_with(&format!("{ratio}×")),
        "{merged_out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn history_is_reached_with_shift_page_up_and_the_wheel() {
    let s = Sluice::start("history", &["--size", "60x10", "-e", "sh"]);
    let shot = |name: &str| screenshot(&s.x.display, &s.window, &s.dir.join(name));
    let green_shown = |name: &str| {
        let (w, h, rgba) = shot(name);
        longest_band(w, h, &rgba, GREEN).0 >= 15 * 6
    };
    s.type_line(r"printf '\033[42m%s\033[0m\n' GREENGREENGREEN; seq 1 40; touch printed");
    wait_until(Duration::from_secs(20), || s.dir.join("printed").exists()).unwrap();
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        !green_shown("bottom.png"),
        "the band has scrolled into history"
    );

    // Shift+PageUp scrolls a page at a time; the band is five pages up.
    for _ in 0..5 {
        s.xdotool(&["key", "shift+Prior"]);
    }
    std::thread::sleep(Duration::from_millis(500));
    assert!(green_shown("paged-up.png"), "Shift+PageUp reaches it");
    s.xdotool(&["key", "shift+End"]);
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        !green_shown("back.png"),
        "Shift+End goes back to the bottom"
    );

    // The wheel: each xdotool click is two notches of three lines here (see tests/input.rs).
    s.point_at(5, 5);
    s.xdotool(&["click", "--repeat", "10", "--delay", "20", "4"]);
    std::thread::sleep(Duration::from_millis(500));
    assert!(green_shown("wheel.png"), "the wheel reaches it");
}

#[test]
fn ctrl_click_opens_urls_and_osc8_links_of_allowed_schemes_only() {
    let dir = std::env::temp_dir().join(format!("sluice-links-{}", std::process::id()));
    let opener = dir.join("open.sh");
    let config = format!("[links]\nopener = \"{}\"\n", opener.display());
    let s = Sluice::start_with_config("links", &["--size", "80x10", "-e", "sh"], &config);
    let opened = s.dir.join("opened.txt");
    std::fs::write(
        &opener,
        format!("#!/bin/sh\necho \"$1\" >> '{}'\n", opened.display()),
    )
    .unwrap();
    std::process::Command::new("chmod")
        .args(["+x", opener.to_str().unwrap()])
        .status()
        .unwrap();
    std::fs::write(
        s.dir.join("links.sh"),
        "printf 'see https://example.com/x and file:///etc/passwd\\n'\n\
         printf '\\033]8;;https://example.org/osc8\\033\\\\click here\\033]8;;\\033\\\\\\n'\n",
    )
    .unwrap();
    s.type_line("sh links.sh");
    std::thread::sleep(Duration::from_millis(700));

    let ctrl_click = |col, row| {
        s.point_at(col, row);
        s.xdotool(&["keydown", "ctrl"]);
        s.xdotool(&["click", "1"]);
        s.xdotool(&["keyup", "ctrl"]);
        std::thread::sleep(Duration::from_millis(300));
    };
    ctrl_click(8, 1); // https://example.com/x
    ctrl_click(35, 1); // file:///etc/passwd: not an allowed scheme
    ctrl_click(2, 2); // the OSC 8 link behind "click here"
    // Hovered, the OSC 8 link's target shows in a bar across the bottom row (the foreground
    // colour behind " https://example.org/osc8 ", 26 cells) before anything is clicked.
    let (w, h, rgba) = screenshot(&s.x.display, &s.window, &s.dir.join("target.png"));
    let (band, row) = longest_band(w, h, &rgba, [0xc5, 0xc8, 0xc6, 255]);
    let (cell_width, cell_height) = x11::cell_size();
    assert!(
        band >= 20 * cell_width && row >= 4 + 9 * cell_height,
        "the link's target is shown on the bottom row ({band} px at row {row})"
    );
    // A plain click on a link selects; it does not open.
    s.point_at(10, 1);
    s.xdotool(&["click", "1"]);
    let expected = "https://example.com/x\nhttps://example.org/osc8\n";
    let mut got = String::new();
    let done = wait_until(Duration::from_secs(10), || {
        got = std::fs::read_to_string(&opened).unwrap_or_default();
        got.len() >= expected.len()
    });
    std::thread::sleep(Duration::from_millis(300));
    let got_now = std::fs::read_to_string(&opened).unwrap_or_default();
    assert!(done.is_ok(), "links opened: {got:?}\n{}", s.log());
    assert_eq!(got_now, expected);
}

#[test]
fn a_changed_configuration_file_applies_at_once() {
    let s = Sluice::start_with_config("reload", &["--size", "80x12", "-e", "sh"], "");
    let fg = [0xc5, 0xc8, 0xc6, 255];
    let overlay_shown = |name: &str| {
        let (w, h, rgba) = screenshot(&s.x.display, &s.window, &s.dir.join(name));
        longest_band(w, h, &rgba, fg).0 >= 30 * 6
    };
    assert!(!overlay_shown("before.png"));

    // Saved as editors do: a new file renamed over the old one. A bad value is reported and
    // keeps its default; the rest applies.
    let file = s.dir.join("config/sluice/sluice.toml");
    let tmp = s.dir.join("config/sluice/.sluice.toml.swp");
    std::fs::write(
        &tmp,
        "[metrics]\noverlay = true\n[font]\nsize = 18\n[bell]\nvisual = \"maybe\"\n",
    )
    .unwrap();
    std::fs::rename(&tmp, &file).unwrap();
    std::thread::sleep(Duration::from_millis(800));
    assert!(overlay_shown("after.png"), "the overlay was switched on");

    // The bigger font gives fewer cells in the same window, and the program is told.
    s.type_line("stty size > size.txt");
    let size = s.wait_for_file("size.txt", 4);
    let size = String::from_utf8_lossy(&size);
    let cols: u32 = size.split_whitespace().nth(1).unwrap().parse().unwrap();
    assert!(cols < 70, "18 pt leaves fewer than 80 columns: {size}");
    assert!(
        s.log().contains("bell.visual:"),
        "the bad value is reported"
    );
}

/// A title over ~16.7 MB made winit's X11 backend panic and took the process down. Now the
/// whole OSC string is dropped (over the 1 MiB cap), and a long title that fits is cut to
/// 4 KiB before it reaches the window system.
#[test]
fn huge_titles_cannot_take_the_window_down() {
    let s = Sluice::start("titles", &["--size", "60x8", "-e", "sh"]);
    std::fs::write(
        s.dir.join("titles.sh"),
        "printf '\\033]2;'; head -c 20000000 /dev/zero | tr '\\0' t; printf '\\007'\n\
         printf '\\033]2;'; head -c 100000 /dev/zero | tr '\\0' T; printf '\\007'\n\
         touch titled\n",
    )
    .unwrap();
    s.type_line("sh titles.sh");
    wait_until(Duration::from_secs(60), || s.dir.join("titled").exists())
        .unwrap_or_else(|()| panic!("the script ran\n{}", s.log()));
    let mut name = String::new();
    let done = wait_until(Duration::from_secs(10), || {
        name = s.xdotool(&["getwindowname", &s.window]);
        name.starts_with('T')
    });
    assert!(
        done.is_ok(),
        "the window has the second title: {:.80}",
        name
    );
    assert_eq!(name.len(), sluice_term::limits::MAX_TITLE_BYTES);
    assert!(name.chars().all(|c| c == 'T'));
}

#[test]
fn a_theme_colours_the_window_and_a_reload_recolours_it() {
    let s = Sluice::start_with_config(
        "theme",
        &["--size", "40x8", "-e", "sh"],
        "[colors]\ntheme = \"solarized-dark\"\n",
    );
    // How much of the window is `color`, as a share of its pixels.
    let share = |name: &str, color: [u8; 4]| {
        let (w, h, rgba) = screenshot(&s.x.display, &s.window, &s.dir.join(name));
        let n = rgba.chunks(4).filter(|p| *p == color).count();
        n as f64 / (w * h) as f64
    };
    let solarized = [0x00, 0x2b, 0x36, 255];
    assert!(
        share("dark.png", solarized) > 0.8,
        "solarized-dark's background"
    );

    // A theme and an override written while it runs: the whole window is recoloured.
    let file = s.dir.join("config/sluice/sluice.toml");
    std::fs::write(
        &file,
        "[colors]\ntheme = \"gruvbox-light\"\n[colors.normal]\nred = \"#123456\"\n",
    )
    .unwrap();
    let gruvbox = [0xfb, 0xf1, 0xc7, 255];
    wait_until(Duration::from_secs(10), || {
        share("light.png", gruvbox) > 0.8
    })
    .expect("gruvbox-light's background after the reload");
    s.type_line(r"printf '\033[41m%s\033[0m\n' REDREDREDRED");
    std::thread::sleep(Duration::from_millis(700));
    let (w, h, rgba) = screenshot(&s.x.display, &s.window, &s.dir.join("red.png"));
    let (run, _) = longest_band(w, h, &rgba, [0x12, 0x34, 0x56, 255]);
    assert!(run >= 12 * 6, "the overridden red: a band {run} px wide");
}

#[test]
fn title_and_class_come_from_the_command_line() {
    let s = Sluice::start(
        "title-class",
        &[
            "-T",
            "Sluice fixed title",
            "--class",
            "SluiceTest,sluicetest",
            "-e",
            "sh",
        ],
    );
    let name = || s.xdotool(&["getwindowname", &s.window]).trim().to_owned();
    assert_eq!(name(), "Sluice fixed title");
    // -T keeps it: a program's title does not replace it.
    s.type_line(r"printf '\033]2;from the program\007'; touch titled");
    s.wait_for_path("titled");
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(name(), "Sluice fixed title");
    let out = std::process::Command::new("xprop")
        .args(["-display", &s.x.display, "-id", &s.window, "WM_CLASS"])
        .output()
        .expect("xprop runs (x11-utils)");
    let class = String::from_utf8_lossy(&out.stdout);
    assert!(
        class.contains("\"sluicetest\", \"SluiceTest\""),
        "WM_CLASS is instance, class: {class}"
    );
    // Started without a terminal on stderr (as from a launcher): the log also goes to the
    // state directory, and its path is said at start-up.
    let log = s.dir.join("state/sluice/sluice.log");
    assert!(log.is_file(), "{}", s.log());
    assert!(s.log().contains(&format!("logging to {}", log.display())));
}

#[test]
fn configuration_problems_show_in_a_bar_that_a_click_dismisses() {
    let s = Sluice::start_with_config(
        "problem-bar",
        &["--size", "60x8", "-e", "sh"],
        "[font]\nsize = \"huge\"\n",
    );
    // The theme's red (#cc6666) behind the bar, across the bottom row.
    let red = [0xcc, 0x66, 0x66, 255];
    let bar = |name: &str| {
        let (w, h, rgba) = screenshot(&s.x.display, &s.window, &s.dir.join(name));
        let (run, row) = longest_band(w, h, &rgba, red);
        (run, row, h)
    };
    let (run, row, height) = bar("shown.png");
    assert!(run >= 40 * 6, "a red bar {run} px wide");
    assert!(row > height * 3 / 4, "at the bottom: row {row} of {height}");
    s.point_at(10, 7);
    s.xdotool(&["click", "1"]);
    std::thread::sleep(Duration::from_millis(500));
    let (run, _, _) = bar("dismissed.png");
    assert_eq!(run, 0, "the bar is gone after a click on it");
}

#[test]
fn an_o_option_goes_over_the_file_and_survives_a_reload() {
    let s = Sluice::start_with_config(
        "o-reload",
        &[
            "-o",
            "colors.theme=\"solarized-dark\"",
            "--size",
            "40x8",
            "-e",
            "sh",
        ],
        "[colors]\ntheme = \"gruvbox-light\"\n",
    );
    let share = |name: &str, color: [u8; 4]| {
        let (w, h, rgba) = screenshot(&s.x.display, &s.window, &s.dir.join(name));
        rgba.chunks(4).filter(|p| *p == color).count() as f64 / (w * h) as f64
    };
    let solarized = [0x00, 0x2b, 0x36, 255];
    assert!(share("start.png", solarized) > 0.8, "-o wins over the file");
    // The file changes (another option, and its theme again): -o still wins, and the
    // file's other change applies.
    let file = s.dir.join("config/sluice/sluice.toml");
    std::fs::write(
        &file,
        "[colors]\ntheme = \"gruvbox-light\"\n[window]\ntitle = \"Sluice reloaded\"\n",
    )
    .unwrap();
    wait_until(Duration::from_secs(10), || {
        s.xdotool(&["getwindowname", &s.window]).trim() == "Sluice reloaded"
    })
    .expect("the reload applied the new title");
    assert!(
        share("reloaded.png", solarized) > 0.8,
        "-o survives the reload"
    );
}

/// `window.opacity`: the window gets an alpha channel (a 32-bit visual, for the compositor),
/// and the default background is drawn that transparent, pre-multiplied, while a coloured
/// cell stays opaque. Xvfb has no compositor to show alpha, so the frames are photographed
/// through a window without one (`--debug-opaque-visual`): its pixels are the pre-multiplied
/// colours the compositor would blend.
#[test]
fn opacity_makes_the_default_background_see_through() {
    let script = r"printf '\033[41m   red   \033[0m'; sleep 30";
    let translucent = Sluice::start_with_config(
        "opacity-visual",
        &["--size", "20x3", "-e", "sh", "-c", script],
        "[window]\nopacity = 0.5\n",
    );
    let out = std::process::Command::new("xwininfo")
        .args([
            "-display",
            &translucent.x.display,
            "-id",
            &translucent.window,
        ])
        .output()
        .expect("xwininfo runs (x11-utils)");
    let info = String::from_utf8_lossy(&out.stdout);
    assert!(info.contains("Depth: 32"), "an alpha channel: {info}");
    drop(translucent);

    let s = Sluice::start_with_config(
        "opacity",
        &[
            "--debug-opaque-visual",
            "--size",
            "20x3",
            "-e",
            "sh",
            "-c",
            script,
        ],
        "[window]\nopacity = 0.5\n",
    );
    let (width, height, rgba) = screenshot(&s.x.display, &s.window, &s.dir.join("half.png"));
    let pixel = |x: u32, y: u32| {
        let i = ((y * width + x) * 4) as usize;
        [rgba[i], rgba[i + 1], rgba[i + 2]]
    };
    let (cw, ch) = x11::cell_size();
    // tomorrow-night's background (1d 1f 21) at half: 0e/0f 0f/10 10/11; red stays red.
    let half = pixel(width / 2, height - 8);
    for (got, full) in half.iter().zip([0x1d, 0x1f, 0x21]) {
        assert!(
            (*got as i32 - full / 2).abs() <= 1,
            "half the background: {half:02x?}"
        );
    }
    assert_eq!(
        pixel(4 + cw / 2, 4 + ch / 4),
        [0xcc, 0x66, 0x66],
        "an opaque red cell"
    );
    assert!(pixel(2, 2)[0].abs_diff(0x0e) <= 1, "the padding too");
}

/// The GPU backend on a machine without a GPU (forced: `auto` draws with the software
/// renderer there): the Vulkan loader opens only software drivers, and the programs run in
/// panes do not inherit that choice.
#[test]
fn without_a_gpu_only_software_vulkan_drivers_are_loaded_and_children_see_none_of_it() {
    let s = Sluice::start_with_config(
        "vulkan-drivers",
        &[
            "--size",
            "40x10",
            "-e",
            "sh",
            "-c",
            "printf '%s.' \"${VK_LOADER_DRIVERS_SELECT-unset}\" > env; sleep 30",
        ],
        "[renderer]\nbackend = \"gpu\"\n",
    );
    let env = s.wait_for_file("env", 2);
    assert_eq!(
        String::from_utf8_lossy(&env),
        "unset.",
        "the driver choice Sluice makes for itself is not passed on to its programs"
    );
    let drivers = mapped(&s, "libvulkan_");
    assert!(
        !drivers.is_empty(),
        "the window draws through a Vulkan driver; mapped: {drivers:?}\n{}",
        s.log()
    );
    if !sluice_render::has_gpu_device_node(std::path::Path::new("/dev")) {
        let hardware: Vec<&String> = drivers
            .iter()
            .filter(|d| !d.contains("lvp") && !d.contains("swiftshader"))
            .collect();
        assert!(
            hardware.is_empty(),
            "no GPU device node, so no hardware driver is opened; mapped: {drivers:?}"
        );
    }
}

/// The libraries mapped into Sluice's process whose file names start with `prefix`.
fn mapped(s: &Sluice, prefix: &str) -> Vec<String> {
    let maps = std::fs::read_to_string(format!("/proc/{}/maps", s.child.id())).unwrap();
    let mut names: Vec<String> = maps
        .lines()
        .filter_map(|line| line.rsplit('/').next())
        .filter(|name| name.starts_with(prefix))
        .map(str::to_owned)
        .collect();
    names.sort_unstable();
    names.dedup();
    names
}

/// GPU driver libraries and what they load: the Vulkan loader and drivers, GL and EGL,
/// Mesa's LLVM.
const GPU_LIBRARIES: [&str; 5] = ["libvulkan", "libGL", "libEGL", "libLLVM", "libgallium"];

/// The software renderer in a real window: no GPU library is loaded at all, and the window
/// shows, pixel for pixel, what the GPU backend shows for the same output (on a software
/// adapter both composite rows with the same code; what differs is how the frame reaches the
/// X server: here from the frames' shared memory, a changed row at a time, and on a server
/// without MIT-SHM over the socket).
#[test]
fn the_software_renderer_loads_no_gpu_library_and_shows_what_the_gpu_backend_shows() {
    // Colours, wide glyphs, box drawing, bold, a scroll of the whole screen, then a last line.
    let script = r"printf '\033[?25l\033[41m REDRED \033[0m 漢字 😀 ─┼─ \033[1mbold\033[0m\n'; \
                   seq 1 30; printf '\033[44m blue \033[0m end'; sleep 30";
    let ways = [
        ("software", Xvfb::start()),
        ("gpu", Xvfb::start()),
        ("software", Xvfb::start_with(&["-extension", "MIT-SHM"])),
    ];
    let shots: Vec<_> = ways
        .into_iter()
        .enumerate()
        .map(|(i, (backend, x))| {
            let s = Sluice::launch_on(
                x,
                &format!("backend-{i}-{backend}"),
                &["--size", "40x12", "-e", "sh", "-c", script],
                &format!("[renderer]\nbackend = \"{backend}\"\n"),
                &[],
            );
            s.wait_for_text("blue  end");
            let gpu_libraries: Vec<String> = GPU_LIBRARIES
                .iter()
                .flat_map(|prefix| mapped(&s, prefix))
                .collect();
            if backend == "software" {
                assert!(
                    gpu_libraries.is_empty(),
                    "the software renderer loads no GPU library; mapped: {gpu_libraries:?}"
                );
            } else {
                assert!(
                    gpu_libraries.iter().any(|l| l.starts_with("libvulkan")),
                    "the GPU backend draws through Vulkan; mapped: {gpu_libraries:?}"
                );
            }
            // The last frame is drawn within a refresh of the text being parsed.
            std::thread::sleep(Duration::from_millis(500));
            let shot = screenshot(&s.x.display, &s.window, &s.dir.join("window.png"));
            (s, shot)
        })
        .collect();
    let (first, (w, h, reference)) = &shots[0];
    let blue = longest_band(*w, *h, reference, [0x81, 0xa2, 0xbe, 255]).0;
    assert!(
        blue >= 6 * 6,
        "the last line is on screen: a blue band {blue} px wide"
    );
    for (other, (w2, h2, pixels)) in &shots[1..] {
        assert_eq!((w, h), (w2, h2), "windows of the same size");
        let differing = reference.iter().zip(pixels).filter(|(x, y)| x != y).count();
        assert_eq!(
            differing, 0,
            "the windows differ in {differing} channels (screenshots in {:?} and {:?})",
            first.dir, other.dir
        );
    }
}

/// A window without a compositor loses what another window covered: when it is uncovered,
/// the software renderer shows it again (it hears the X server's exposures), though nothing
/// in the terminal changed.
#[test]
fn an_uncovered_window_is_shown_again() {
    let s = Sluice::start_with_config(
        "exposed",
        &[
            "--size",
            "40x12",
            "-e",
            "sh",
            "-c",
            r"printf '\033[?25l\033[41m%s\033[0m' REDREDREDRED; sleep 30",
        ],
        "[renderer]\nbackend = \"software\"\n",
    );
    s.wait_for_text("REDREDREDRED");
    std::thread::sleep(Duration::from_millis(300));
    let red = [0xcc, 0x66, 0x66, 255];
    let shot = || screenshot(&s.x.display, &s.window, &s.dir.join("window.png"));
    let (w, h, before) = shot();
    assert!(longest_band(w, h, &before, red).0 >= 12 * 6, "red before");

    // A white window over Sluice's, then gone.
    let mut cover = std::process::Command::new("xmessage")
        .args([
            "-geometry",
            "600x300+0+0",
            "-bg",
            "white",
            "-fg",
            "white",
            "cover",
        ])
        .env("DISPLAY", &s.x.display)
        .spawn()
        .expect("xmessage is installed (x11-utils)");
    wait_until(Duration::from_secs(10), || {
        !xdotool(&s.x.display, &["search", "--name", "xmessage"]).is_empty()
    })
    .expect("the covering window opens");
    for id in xdotool(&s.x.display, &["search", "--name", "xmessage"]).lines() {
        xdotool(&s.x.display, &["windowmove", id, "0", "0"]);
    }
    std::thread::sleep(Duration::from_millis(500));
    let (w, h, covered) = shot();
    assert!(
        longest_band(w, h, &covered, red).0 < 12 * 6,
        "the covering window hides the red band"
    );
    let _ = cover.kill();
    let _ = cover.wait();
    let mut uncovered = Vec::new();
    let shown = wait_until(Duration::from_secs(5), || {
        uncovered = shot().2;
        uncovered == before
    });
    assert!(
        shown.is_ok(),
        "uncovered, the window shows again what it showed ({} channels differ)",
        before
            .iter()
            .zip(&uncovered)
            .filter(|(a, b)| a != b)
            .count()
    );
}

/// Idle is free: a window whose program prints nothing wakes none of Sluice's threads (no
/// timer, no poll with a timeout, no thread pool checking for work), once its start-up is
/// over.
#[test]
fn an_idle_window_wakes_no_thread() {
    let s = Sluice::start("idle", &["--size", "40x10", "-e", "sleep", "60"]);
    let switches = || -> std::collections::BTreeMap<String, u64> {
        let tasks = std::fs::read_dir(format!("/proc/{}/task", s.child.id())).unwrap();
        tasks
            .filter_map(Result::ok)
            .map(|task| {
                let status =
                    std::fs::read_to_string(task.path().join("status")).unwrap_or_default();
                let count = status
                    .lines()
                    .filter(|l| l.contains("ctxt_switches"))
                    .filter_map(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
                    .sum();
                let name = std::fs::read_to_string(task.path().join("comm")).unwrap_or_default();
                (
                    format!("{} {}", name.trim(), task.file_name().to_string_lossy()),
                    count,
                )
            })
            .collect()
    };
    // Start-up work (fonts, the first frames, D-Bus) and any pool thread's idle timeout end
    // well within this.
    std::thread::sleep(Duration::from_secs(3));
    let before = switches();
    std::thread::sleep(Duration::from_secs(3));
    let after = switches();
    let woke: Vec<String> = after
        .iter()
        .filter(|(thread, n)| before.get(*thread).is_none_or(|b| b != *n))
        .map(|(thread, n)| format!("{thread}: {}", n - before.get(thread).copied().unwrap_or(0)))
        .collect();
    assert!(
        woke.is_empty(),
        "threads woke while idle: {woke:?}\n{}",
        s.log()
    );
}

//! The whole pipeline, headless: real programs on real PTYs through the reader, the ring, the
//! parser thread and the terminal, checked by the screen `sluice --headless` prints.

mod common;

use common::{sh, sluice};

#[test]
fn text_dump_shows_printed_text_and_cursor_movement() {
    let run = sh(
        &["--size", "40x6"],
        r"printf 'hello\nworld\033[2;3HXY\033[5;10Hlast'",
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(run.stdout, "hello\nwoXYd\n\n\n         last\n");
}

#[test]
fn text_dump_handles_erase_and_carriage_return_redraws() {
    // A progress bar redrawn in place, the way Metro does it.
    let script = r"for i in 1 2 3; do printf '\r\033[2Kbuilding %s/3' $i; done; printf '\ndone'";
    let run = sh(&["--size", "30x4"], script);
    assert_eq!(run.stdout, "building 3/3\ndone\n");
}

#[test]
fn ansi_dump_reproduces_colours_and_attributes() {
    let script = r"printf '\033[1;31mred\033[0m \033[38;5;208mor\033[0m \033[48;2;1;2;3mtc\033[0m \033[4;3mu\033[0m'";
    let run = sh(&["--size", "20x2", "--dump", "ansi"], script);
    let first = run.stdout.lines().next().unwrap();
    assert_eq!(
        first,
        "\x1b[0;1;31mred\x1b[0m \x1b[0;38;5;208mor\x1b[0m \x1b[0;48;2;1;2;3mtc\x1b[0m \x1b[0;3;4mu\x1b[0m"
    );
    assert_eq!(run.stdout.lines().count(), 2, "one line per row");
}

#[test]
fn json_dump_has_resolved_colours_spans_and_cursor() {
    let script = r"printf 'ab\033[31mcd\033[0m\033[7mE\033[0m\n\033[3Cx'";
    let run = sh(&["--size", "10x3", "--dump", "json"], script);
    let screen: serde_json::Value = serde_json::from_str(&run.stdout).expect("valid JSON");
    assert_eq!(screen["cols"], 10);
    assert_eq!(screen["rows"], 3);
    assert_eq!(screen["cursor"]["row"], 1);
    assert_eq!(screen["cursor"]["col"], 4);
    assert_eq!(screen["cursor"]["visible"], true);
    let line = &screen["lines"][0];
    assert_eq!(line["text"], "abcdE");
    let spans = line["spans"].as_array().unwrap();
    assert_eq!(spans[0]["text"], "ab");
    assert_eq!(spans[1]["col"], 2);
    assert_eq!(spans[1]["text"], "cd");
    assert_eq!(spans[1]["fg"], "#cc6666", "palette red");
    assert_eq!(spans[2]["text"], "E");
    assert_eq!(spans[2]["attrs"][0], "inverse");
    assert_eq!(screen["lines"][1]["text"], "   x");
}

#[test]
fn scrollback_is_dumped_above_the_screen_when_asked() {
    let script = "i=1; while [ $i -le 30 ]; do echo line$i; i=$((i+1)); done; printf end";
    let screen_only = sh(&["--size", "20x5"], script);
    assert_eq!(screen_only.stdout, "line27\nline28\nline29\nline30\nend\n");
    let with_history = sh(&["--size", "20x5", "--scrollback"], script);
    let lines: Vec<&str> = with_history.stdout.lines().collect();
    assert_eq!(lines.len(), 31);
    assert_eq!(lines[0], "line1");
    assert_eq!(lines[30], "end");
}

#[test]
fn wide_and_combining_characters_keep_their_cells() {
    let run = sh(
        &["--size", "20x2", "--dump", "json"],
        "printf '漢字|e\\314\\201|'",
    );
    let screen: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(
        screen["lines"][0]["text"], "漢字|e\u{301}|",
        "the combining mark stays with its cell"
    );
    // Two wide characters take four cells; '|', 'é' (one cell with its mark) and '|' three.
    assert_eq!(screen["cursor"]["col"], 7);
    assert_eq!(
        screen["lines"][0]["spans"][1]["col"], 4,
        "the cell after the wide pair"
    );
}

#[test]
fn device_attributes_and_cursor_position_reports_reach_the_program() {
    // The program asks for DA1 and DSR 6, reads the answers from its stdin, then prints them
    // in hex so the dump shows exactly which bytes arrived.
    let script = r#"stty raw -echo; printf '\033[3;7H\033[c\033[6n'; r=$(dd bs=1 count=11 2>/dev/null); stty sane; printf '\033[2J\033[H'; printf '%s' "$r" | od -An -tx1"#;
    let run = sh(&["--size", "60x5"], script);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    // ESC [ ? 6 c   then   ESC [ 3 ; 7 R
    assert_eq!(
        run.stdout.split_whitespace().collect::<Vec<_>>().join(" "),
        "1b 5b 3f 36 63 1b 5b 33 3b 37 52"
    );
}

#[test]
fn stty_sees_the_size_and_flow_control_off() {
    let run = sh(
        &["--size", "93x27"],
        "stty size; stty -a | tr ' ' '\\n' | grep -x -- '-*ixon'",
    );
    assert_eq!(run.stdout, "27 93\n-ixon\n");
}

#[test]
fn environment_identifies_sluice() {
    let run = sh(
        &[],
        r#"printf '%s|%s|%s\n' "$TERM" "$COLORTERM" "$TERM_PROGRAM""#,
    );
    assert_eq!(run.stdout, "xterm-256color|truecolor|sluice\n");
}

#[test]
fn working_directory_defaults_to_ours_and_can_be_set() {
    let run = sh(&[], "pwd");
    assert_eq!(
        run.stdout.trim(),
        std::env::current_dir().unwrap().to_str().unwrap()
    );
    let run = sh(&["--working-directory", "/usr"], "pwd");
    assert_eq!(run.stdout, "/usr\n");
}

#[test]
fn a_relative_program_path_is_found_under_the_working_directory() {
    let dir = std::env::temp_dir().join(format!("sluice-relative-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("bin")).unwrap();
    let script = dir.join("bin/hello");
    std::fs::write(&script, "#!/bin/sh\necho hello from \"$0\"\n").unwrap();
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let dir_arg = dir.to_str().unwrap();
    for program in ["bin/hello", "./bin/hello"] {
        let run = sluice(&["--working-directory", dir_arg, "-e", program]);
        assert_eq!(run.code, Some(0), "{program}: {}", run.stderr);
        assert!(
            run.stdout.starts_with("hello from /"),
            "{program}: {}",
            run.stdout
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn exit_status_is_the_childs() {
    assert_eq!(sh(&[], "exit 0").code, Some(0));
    assert_eq!(sh(&[], "exit 7").code, Some(7));
    // Killed by SIGTERM: 128 + 15, as a shell reports it.
    assert_eq!(sh(&[], "kill -TERM $$").code, Some(143));
}

#[test]
fn output_written_just_before_exit_is_not_lost() {
    let run = sh(&["--size", "20x3"], "printf 'bye'; exit 3");
    assert_eq!(run.code, Some(3));
    assert_eq!(run.stdout, "bye\n");
}

#[test]
fn a_background_job_holding_the_pty_does_not_hang_the_run() {
    let started = std::time::Instant::now();
    let run = sh(&[], "sleep 30 & echo started");
    assert_eq!(run.code, Some(0));
    assert_eq!(run.stdout, "started\n");
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
}

#[test]
fn unknown_command_is_a_clear_error() {
    let run = sluice(&["-e", "/nonexistent/program-sluice-test"]);
    assert_eq!(run.code, Some(127));
    assert!(
        run.stderr.starts_with("sluice: cannot run"),
        "{}",
        run.stderr
    );
    assert!(run.stdout.is_empty());
}

#[test]
fn unusable_working_directory_is_a_clear_error() {
    let run = sluice(&["--working-directory", "/nonexistent/dir", "-e", "true"]);
    assert_eq!(run.code, Some(1));
    assert!(
        run.stderr
            .contains("working directory \"/nonexistent/dir\" is not usable"),
        "{}",
        run.stderr
    );
    let run = sluice(&["--working-directory", "/etc/passwd", "-e", "true"]);
    assert_eq!(run.code, Some(1));
    assert!(run.stderr.contains("is not usable"), "{}", run.stderr);
}

#[test]
fn bad_size_is_a_clear_error() {
    for bad in ["0x10", "80", "axb", "70000x10"] {
        let run = sluice(&["--size", bad, "-e", "true"]);
        assert_eq!(run.code, Some(2), "--size {bad}");
        assert!(run.stderr.contains("--size"), "{}", run.stderr);
    }
}

#[test]
fn the_configuration_file_applies_and_a_bad_value_keeps_its_default_with_a_report() {
    let dir = std::env::temp_dir().join(format!("sluice-config-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.join("sluice.toml");
    std::fs::write(
        &config,
        "[scrolling]\nhistory = 3\n[font]\nsize = \"huge\"\n[colours]\nbg = 1\n",
    )
    .unwrap();
    let config = config.to_str().unwrap();
    let run = sh(
        &["--size", "10x2", "--scrollback", "--config", config],
        "seq 1 9",
    );
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    // Three lines of history kept, as configured, above the two-row screen.
    assert_eq!(run.stdout, "6\n7\n8\n9\n");
    assert!(
        run.stderr.contains("font.size:") && run.stderr.contains("keeping the default"),
        "the bad value is reported: {}",
        run.stderr
    );
    assert!(
        run.stderr.contains("colours.bg: unknown option"),
        "{}",
        run.stderr
    );
    // The command line wins over the file.
    let run = sh(
        &[
            "--size",
            "10x2",
            "--scrollback",
            "--history",
            "1",
            "--config",
            config,
        ],
        "seq 1 9",
    );
    assert!(
        run.stderr.contains("cannot read"),
        "the file is gone now: {}",
        run.stderr
    );
    assert_eq!(run.stdout, "8\n9\n");
}

#[test]
fn random_bytes_and_invalid_utf8_never_panic() {
    let dir = std::env::temp_dir().join(format!("sluice-random-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("hostile.bin");
    std::fs::write(&file, hostile_bytes(4 << 20)).unwrap();
    let path = file.to_str().unwrap();
    for dump in ["text", "ansi", "json"] {
        let run = sluice(&[
            "--size", "100x30", "--dump", dump, "--stats", "-e", "cat", path,
        ]);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        assert!(run.stats()["bytes_parsed"].as_u64().unwrap() >= 4 << 20);
        if dump == "json" {
            serde_json::from_str::<serde_json::Value>(&run.stdout).expect("still valid JSON");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Deterministic garbage, weighted towards the bytes that steer a terminal parser: ESC, CSI
/// and OSC introducers, digits and separators, C0 and C1 controls and broken UTF-8.
fn hostile_bytes(len: usize) -> Vec<u8> {
    const STEERING: &[u8] =
        b"\x1b\x1b\x1b[[];;?0123456789\x07\x9b\x9d\x90\x98\xc3\xe2\xf0\x80\xbf\r\n\x08\t";
    let mut state = 0x2545_f491_4f6c_dd1du64;
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            if state.is_multiple_of(3) {
                STEERING[(state >> 8) as usize % STEERING.len()]
            } else {
                (state >> 24) as u8
            }
        })
        .collect()
}

#[test]
fn a_quarter_gigabyte_arrives_whole_and_in_order() {
    // 2,684,355 numbered 100-byte lines: 256 MiB. The PTY turns each \n into \r\n.
    const LINES: u64 = 2_684_355;
    let pad = "x".repeat(89);
    let format = format!("%09.0f {pad}");
    let run = sluice(&[
        "--size",
        "100x24",
        "--stats",
        "--digest",
        "--scrollback",
        "-e",
        "seq",
        "-f",
        &format,
        "1",
        &LINES.to_string(),
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);

    let mut expected_digest = sluice_term::fnv1a(0xcbf2_9ce4_8422_2325, &[]);
    let mut line = String::with_capacity(128);
    for i in 1..=LINES {
        line.clear();
        line.push_str(&format!("{i:09} {pad}\r\n"));
        expected_digest = sluice_term::fnv1a(expected_digest, line.as_bytes());
    }
    let stats = run.stats();
    assert_eq!(stats["bytes_read"], LINES * 101);
    assert_eq!(
        stats["bytes_parsed"],
        LINES * 101,
        "every byte read was parsed"
    );
    assert_eq!(
        stats["digest"],
        format!("{expected_digest:016x}"),
        "the parsed stream is the one written, in order"
    );

    // The screen and the 10,000 lines of history above it hold the last lines, in order.
    let lines: Vec<&str> = run.stdout.lines().collect();
    let numbers: Vec<u64> = lines.iter().map(|l| l[..9].parse().unwrap()).collect();
    assert_eq!(*numbers.last().unwrap(), LINES);
    assert!(numbers.len() >= 10_000);
    assert!(numbers.windows(2).all(|w| w[1] == w[0] + 1), "consecutive");
}

#[test]
fn headless_screenshot_renders_the_final_screen() {
    let dir = std::env::temp_dir().join(format!("sluice-shot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let shot = dir.join("screen.png");
    let run = sh(
        &["--size", "20x4", "--screenshot", shot.to_str().unwrap()],
        r"printf '\033[?25l\033[41m          \033[0m\nplain'",
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&shot).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut pixels).unwrap();
    // 20×4 cells of the default 12 pt font (10×19 pixels).
    assert_eq!(info.width % 20, 0, "whole cells wide: {}", info.width);
    assert_eq!(info.height % 4, 0, "whole cells high: {}", info.height);
    let (cell_w, cell_h) = (info.width / 20, info.height / 4);
    let pixel = |x: u32, y: u32| {
        let i = ((y * info.width + x) * 4) as usize;
        [pixels[i], pixels[i + 1], pixels[i + 2]]
    };
    // Ten red cells on the first row, then the default background.
    assert_eq!(pixel(cell_w / 2, cell_h / 2), [0xcc, 0x66, 0x66]);
    assert_eq!(pixel(10 * cell_w - 1, cell_h - 1), [0xcc, 0x66, 0x66]);
    assert_eq!(pixel(10 * cell_w + 1, cell_h / 2), [0x1d, 0x1f, 0x21]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn print_config_prints_every_default_and_o_options_apply_over_the_file() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sluice"))
        .arg("--print-config")
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let table: toml::Table = text.parse().expect("--print-config prints valid TOML");
    assert_eq!(table["scrolling"]["history"].as_integer(), Some(10_000));

    // -o with a history of 0: nothing scrolled off is kept; a bad -o is reported, not fatal.
    let run = common::sluice(&[
        "-o",
        "scrolling.history=0",
        "-o",
        "font.size=banana",
        "--size",
        "20x2",
        "--scrollback",
        "-e",
        "sh",
        "-c",
        "printf 'one\\ntwo\\nthree'",
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        !run.stdout.contains("one"),
        "no history kept: {:?}",
        run.stdout
    );
    assert!(run.stdout.contains("three"));
    assert!(run.stderr.contains("-o font.size=banana"), "{}", run.stderr);
}

#[test]
fn a_theme_and_a_colour_override_show_in_the_json_dump() {
    let run = common::sluice(&[
        "--size",
        "10x2",
        "--dump",
        "json",
        "-o",
        "colors.theme=\"dracula\"",
        "-o",
        "colors.normal.red=\"#123456\"",
        "-e",
        "printf",
        "\\033[31mab\\033[0m c",
    ]);
    let dump: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let spans = &dump["lines"][0]["spans"];
    assert_eq!(spans[0]["fg"], "#123456", "{spans}");
    assert_eq!(spans[0]["bg"], "#282a36", "dracula's background");
    assert_eq!(spans[1]["fg"], "#f8f8f2", "dracula's foreground");
}

#[test]
fn term_is_sluice_where_its_terminfo_entry_is_installed_else_xterm_256color() {
    let dir = std::env::temp_dir().join(format!("sluice-terminfo-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (with, without) = (dir.join("with"), dir.join("without"));
    std::fs::create_dir_all(&with).unwrap();
    std::fs::create_dir_all(&without).unwrap();
    let source = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../assets/terminfo/sluice.terminfo"
    );
    let tic = std::process::Command::new("tic")
        .args(["-x", "-o"])
        .arg(&with)
        .arg(source)
        .output()
        .expect("tic runs (ncurses-bin)");
    assert!(
        tic.status.success() && tic.stderr.is_empty(),
        "the entry compiles cleanly: {}",
        String::from_utf8_lossy(&tic.stderr)
    );
    let run = |terminfo: &std::path::Path| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_sluice"))
            .args(["--headless", "--size", "40x4", "-e", "sh", "-c"])
            .arg("echo $TERM $(tput colors); tput RGB && echo truecolor")
            .env("XDG_CONFIG_HOME", "/nonexistent/sluice-tests")
            .env("TERMINFO", terminfo)
            .env("HOME", &without)
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let screen = run(&with);
    assert!(screen.contains("sluice 256"), "{screen}");
    assert!(screen.contains("truecolor"), "tput RGB answers: {screen}");
    let screen = run(&without);
    assert!(screen.contains("xterm-256color 256"), "{screen}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_mistyped_flag_is_a_usage_error_with_status_2() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sluice"))
        .arg("--hedless")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--hedless") && err.contains("--headless"),
        "{err}"
    );
}

#[test]
fn completions_and_the_manual_come_from_the_command_line_definition() {
    let run = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_sluice"))
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    for shell in ["bash", "zsh", "fish"] {
        let script = run(&["--completions", shell]);
        assert!(script.contains("print-config"), "{shell}");
        assert!(script.contains("working-directory"), "{shell}");
    }
    let man = run(&["--man"]);
    assert!(man.contains(".TH sluice 1"));
    assert!(
        man.contains("print\\-config"),
        "every option is in the manual"
    );
}

#[test]
fn the_shell_its_environment_and_the_log_file_come_from_the_configuration() {
    let dir = std::env::temp_dir().join(format!("sluice-shell-env-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // Alacritty's [env] and Sluice's [terminal.env] both apply, the latter winning.
    let config = dir.join("sluice.toml");
    std::fs::write(
        &config,
        "[env]\nFROM_ENV = \"a\"\nBOTH = \"env\"\n[terminal.env]\nBOTH = \"terminal\"\n\
         [terminal]\nshell = [\"sh\", \"-c\", \"echo shell $FROM_ENV $BOTH\"]\n",
    )
    .unwrap();
    let log = dir.join("sluice.log");
    let run = common::sluice(&[
        "--config-file",
        config.to_str().unwrap(),
        "-o",
        &format!("debug.log_file=\"{}\"", log.display()),
        "-vv",
        "--size",
        "30x3",
    ]);
    assert!(run.stdout.contains("shell a terminal"), "{}", run.stdout);
    let logged = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(
        logged.contains("DEBUG"),
        "-vv logs debug events, to the file too: {logged}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_launchers_startup_notification_is_not_passed_to_programs() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sluice"))
        .args(["--headless", "--size", "40x3", "-e", "sh", "-c"])
        .arg("echo startup=${DESKTOP_STARTUP_ID:-none},${XDG_ACTIVATION_TOKEN:-none}")
        .env("XDG_CONFIG_HOME", "/nonexistent/sluice-tests")
        .env("DESKTOP_STARTUP_ID", "launcher-1")
        .env("XDG_ACTIVATION_TOKEN", "launcher-2")
        .output()
        .unwrap();
    let screen = String::from_utf8_lossy(&out.stdout);
    assert!(screen.contains("startup=none,none"), "{screen}");
}

#[test]
fn the_json_dump_reports_the_directory_the_shell_reported() {
    let run = common::sh(
        &["--size", "20x2", "--dump", "json"],
        r"printf '\033]7;file://localhost/srv/my%%20dir\007'",
    );
    let dump: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(dump["working_directory"], "/srv/my dir");
    // Another host's directory (a shell over ssh) is not this machine's.
    let run = common::sh(
        &["--size", "20x2", "--dump", "json"],
        r"printf '\033]7;file://elsewhere.example/tmp\007'",
    );
    let dump: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert!(dump.get("working_directory").is_none(), "{dump}");
}

/// `font.style` picks the face regular text is drawn in: "Bold" lights more pixels than the
/// default ("Regular"), and `font.bold_style = "Regular"` draws bold (SGR 1) text as thin as
/// regular text. Rendered on the GPU (`--screenshot`).
#[test]
fn font_styles_choose_the_face_each_kind_of_text_is_drawn_in() {
    let dir = std::env::temp_dir().join(format!("sluice-styles-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let lit = |name: &str, options: &[&str], script: &str| {
        let shot = dir.join(format!("{name}.png"));
        let mut args = vec!["--size", "24x2", "--screenshot", shot.to_str().unwrap()];
        args.extend_from_slice(options);
        let run = sh(&args, script);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        let decoder =
            png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&shot).unwrap()));
        let mut reader = decoder.read_info().unwrap();
        let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut pixels).unwrap();
        let background = [0x1d, 0x1f, 0x21];
        pixels[..info.buffer_size()]
            .chunks(4)
            .filter(|p| p[..3] != background)
            .count()
    };
    let text = r"printf '\033[?25lHello, World'";
    let bold_text = r"printf '\033[?25l\033[1mHello, World'";
    let regular = lit("regular", &[], text);
    let bold = lit("bold", &["-o", r#"font.style="Bold""#], text);
    let sgr_bold = lit("sgr-bold", &[], bold_text);
    let sgr_regular = lit(
        "sgr-regular",
        &["-o", r#"font.bold_style="Regular""#],
        bold_text,
    );
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(
        bold as f64 > regular as f64 * 1.1,
        "bold {bold} against regular {regular}"
    );
    assert!(
        sgr_bold as f64 > regular as f64 * 1.1,
        "SGR 1 is bold by default"
    );
    assert_eq!(
        sgr_regular, regular,
        "bold_style = Regular draws SGR 1 as regular"
    );
}

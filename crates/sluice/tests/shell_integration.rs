//! The shell integration scripts (assets/shell-integration/) in real shells: bash, zsh and fish
//! mark prompts, commands, output and exit statuses (OSC 133) and report the directory (OSC 7);
//! Sluice keeps the marks (`--dump json`) and copies the last command's output with
//! Ctrl+Shift+G in a real window.

use std::path::PathBuf;
use std::process::Command;

mod x11;
use x11::Sluice;

fn script(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../assets/shell-integration")
        .join(name);
    assert!(path.exists(), "{} is missing", path.display());
    path.canonicalize().unwrap().display().to_string()
}

/// bash reading commands from a pipe is still interactive with `-i`: it prints its prompts,
/// runs PROMPT_COMMAND and PS0, so the marks can be checked without a keyboard.
#[test]
fn bash_marks_prompts_output_and_exit_statuses() {
    let dir = std::env::temp_dir().join(format!("sluice-bash-marks-{}", std::process::id()));
    let odd = dir.join("a b é");
    std::fs::create_dir_all(&odd).unwrap();
    let shell = format!(
        "printf 'seq 3\\nfalse\\ncd \"{}\"\\n' | bash --noprofile --rcfile {} -i",
        odd.display(),
        script("sluice.bash")
    );
    let output = Command::new(env!("CARGO_BIN_EXE_sluice"))
        .args(["--headless", "--dump", "json", "--size", "60x12"])
        .args(["-e", "sh", "-c", &shell])
        .env("PS1", "$ ")
        .current_dir(&dir)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let screen: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON dump");
    let marks: Vec<(String, u64, Option<i64>)> = screen["marks"]
        .as_array()
        .expect("marks")
        .iter()
        .map(|m| {
            (
                m["kind"].as_str().unwrap().to_owned(),
                m["line"].as_u64().unwrap(),
                m["status"].as_i64(),
            )
        })
        .collect();
    let lines: Vec<&str> = screen["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["text"].as_str().unwrap())
        .collect();
    let mark = |kind: &str, line, status| (kind.to_owned(), line, status);
    assert_eq!(
        marks[..8],
        [
            mark("A", 0, None),
            mark("B", 0, None),
            // `seq 3` printed lines 1 to 3 and finished with 0 on line 4.
            mark("C", 1, None),
            mark("D", 4, Some(0)),
            mark("A", 4, None),
            mark("B", 4, None),
            // `false` printed nothing and failed.
            mark("C", 5, None),
            mark("D", 5, Some(1)),
        ],
        "screen: {lines:#?}"
    );
    assert_eq!(lines[1..4], ["1", "2", "3"]);
    assert_eq!(
        screen["working_directory"].as_str(),
        Some(odd.to_str().unwrap()),
        "OSC 7 percent-encodes the space and the é, and Sluice decodes them"
    );
}

/// Runs `seq 3` in the shell, copies its output with Ctrl+Shift+G and pastes it into a file.
fn copies_the_last_output(s: &Sluice) {
    s.type_line("seq 3");
    std::thread::sleep(std::time::Duration::from_millis(700));
    s.xdotool(&["key", "ctrl+shift+g"]);
    s.type_line("cat > out.txt");
    std::thread::sleep(std::time::Duration::from_millis(500));
    // Lines outside a bracketed paste ask first: Return pastes, a second ends the last line.
    s.xdotool(&["key", "ctrl+shift+v"]);
    std::thread::sleep(std::time::Duration::from_millis(300));
    s.xdotool(&["key", "Return"]);
    std::thread::sleep(std::time::Duration::from_millis(300));
    s.xdotool(&["key", "Return", "ctrl+d"]);
    let got = s.wait_for_file("out.txt", 6);
    assert_eq!(String::from_utf8_lossy(&got), "1\n2\n3\n", "{}", s.log());
}

#[test]
fn ctrl_shift_g_copies_the_last_output_in_bash() {
    let rc = script("sluice.bash");
    let s = Sluice::start(
        "marks-bash",
        &["-e", "bash", "--noprofile", "--rcfile", &rc, "-i"],
    );
    copies_the_last_output(&s);
}

#[test]
fn ctrl_shift_g_copies_the_last_output_in_zsh() {
    let zdot = std::env::temp_dir().join(format!("sluice-zdot-{}", std::process::id()));
    std::fs::create_dir_all(&zdot).unwrap();
    std::fs::write(
        zdot.join(".zshrc"),
        format!("PS1='%% '\nsource {}\n", script("sluice.zsh")),
    )
    .unwrap();
    let command = format!("ZDOTDIR={} exec zsh -i", zdot.display());
    let s = Sluice::start("marks-zsh", &["-e", "sh", "-c", &command]);
    copies_the_last_output(&s);
    let _ = std::fs::remove_dir_all(&zdot);
}

#[test]
fn ctrl_shift_g_copies_the_last_output_in_fish() {
    let source = format!(
        "set -g fish_greeting; function fish_prompt; echo -n '> '; end; source {}",
        script("sluice.fish")
    );
    let s = Sluice::start(
        "marks-fish",
        &["-e", "fish", "--no-config", "-i", "-C", &source],
    );
    copies_the_last_output(&s);
}

/// Ctrl+Shift+H opens the scrollback, colours included, in `$PAGER` in a new tab (here a pager
/// that keeps a copy of what it was given and reports where it was), and the file is removed
/// when the pager exits; `sluice msg get-text --scrollback` prints the same text plainly.
#[test]
fn the_scrollback_opens_in_the_pager_and_get_text_prints_it() {
    let pager = "sh -c 'cp \"$1\" paged.txt; echo \"$1\" > paged-from.txt' pager";
    let s = Sluice::start_with_env(
        "pager",
        &["--size", "60x10", "-e", "sh"],
        &[("PAGER", pager)],
    );
    s.type_line("seq 1 40; printf '\\033[31mred\\033[0m\\n'");
    std::thread::sleep(std::time::Duration::from_millis(700));
    s.xdotool(&["key", "ctrl+shift+h"]);
    s.wait_for_path("paged-from.txt");
    let paged = String::from_utf8(s.wait_for_file("paged.txt", 100)).unwrap();
    assert!(
        paged.contains("\n1\n") || paged.contains("\n1\x1b"),
        "{paged:?}"
    );
    assert!(paged.contains("40"), "the history is in it");
    assert!(
        paged.contains("\x1b[0;31mred"),
        "with its colours: {paged:?}"
    );
    // The pager's tab ends with it; the file goes too.
    let from = std::fs::read_to_string(s.dir.join("paged-from.txt")).unwrap();
    let from = std::path::Path::new(from.trim());
    x11::wait_until(std::time::Duration::from_secs(10), || !from.exists())
        .expect("the scrollback file is removed after the pager");

    let (ok, text, err) = s.msg(&["get-text", "--scrollback"]);
    assert!(ok, "{err}");
    let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    assert!(lines.contains(&"1") && lines.contains(&"40") && lines.contains(&"red"));
    assert!(!text.contains('\x1b'), "plain text unless --ansi");
    let (ok, ansi, _) = s.msg(&["get-text", "--ansi"]);
    assert!(ok && ansi.contains("\x1b[0;31mred"), "{ansi:?}");
    assert!(
        !ansi.contains("\n1\x1b"),
        "the screen only, without --scrollback"
    );
}

/// OSC 7 from the bash script: after `cd` into a directory (with a space, percent-encoded in
/// the report), a new tab starts there. The shell's own current directory says the same
/// here; that the report is read and decoded is `bash_marks_prompts_output_and_exit_statuses`'s
/// check.
#[test]
fn a_new_tab_starts_where_the_shell_reported_it_was() {
    let rc = script("sluice.bash");
    let s = Sluice::start(
        "osc7-tab",
        &["-e", "bash", "--noprofile", "--rcfile", &rc, "-i"],
    );
    let target = s.dir.join("deep dir");
    std::fs::create_dir_all(&target).unwrap();
    s.type_line("cd 'deep dir'");
    std::thread::sleep(std::time::Duration::from_millis(600));
    s.xdotool(&["key", "ctrl+shift+t"]);
    std::thread::sleep(std::time::Duration::from_millis(800));
    s.type_line("pwd > where.txt");
    let file = "deep dir/where.txt";
    s.wait_for_path(file);
    let got = std::fs::read_to_string(s.dir.join(file)).unwrap();
    assert_eq!(
        std::path::Path::new(got.trim()).canonicalize().unwrap(),
        target.canonicalize().unwrap()
    );
}

/// `shell_integration.prompt_marks`: each prompt's first cell is drawn in the theme's blue,
/// and a failed command's status in red at the end of its line; a row without a mark has
/// neither.
#[test]
fn prompt_marks_are_drawn_in_the_margin_when_asked() {
    let script = "printf '\\033]133;A\\007$ false\\r\\n\\033]133;C\\007\\033]133;D;2\\007\
                  \\033]133;A\\007$ \\r\\nplain row'; sleep 30";
    let s = Sluice::start_with_config(
        "prompt-marks",
        &["--size", "40x5", "-e", "sh", "-c", script],
        "[shell_integration]\nprompt_marks = true\n",
    );
    let (width, _, rgba) = x11::screenshot(&s.x.display, &s.window, &s.dir.join("marks.png"));
    let (cw, ch) = x11::cell_size();
    // Pixels of `color` in the cells `cols` of row `row` (the window has 4 px of padding).
    let count = |row: u32, cols: std::ops::Range<u32>, color: [u8; 3]| {
        let mut n = 0;
        for y in 4 + row * ch..4 + (row + 1) * ch {
            for x in 4 + cols.start * cw..4 + cols.end * cw {
                let i = ((y * width + x) * 4) as usize;
                n += (rgba[i..i + 3] == color) as u32;
            }
        }
        n
    };
    // tomorrow-night's blue and red.
    let (blue, red) = ([0x81, 0xa2, 0xbe], [0xcc, 0x66, 0x66]);
    let cell = cw * ch;
    assert!(count(0, 0..1, blue) > cell / 3, "the first prompt's mark");
    assert!(count(1, 0..1, blue) > cell / 3, "the second prompt's mark");
    assert!(
        count(1, 32..40, red) > cell,
        "exit 2 at the end of the line"
    );
    assert_eq!(
        count(2, 0..40, blue) + count(2, 0..40, red),
        0,
        "an unmarked row"
    );
    assert_eq!(
        count(0, 32..40, red),
        0,
        "no status where no command failed"
    );
}

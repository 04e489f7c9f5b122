//! Many terminals in one process, in real windows under Xvfb with real shells: tabs, splits,
//! second windows, and `sluice msg`.

use std::io::{BufRead, BufReader, Write};
use std::os::unix::fs::PermissionsExt;
use std::time::Duration;

use serde_json::Value;

mod x11;
use x11::{Sluice, wait_until};

/// `stty size` as the program sees it: (rows, cols).
fn size_in(s: &Sluice, file: &str) -> (u32, u32) {
    let text = String::from_utf8(s.wait_for_file(file, 4)).unwrap();
    let _ = wait_until(Duration::from_secs(5), || {
        std::fs::read_to_string(s.dir.join(file)).is_ok_and(|t| t.ends_with('\n'))
    });
    let text = std::fs::read_to_string(s.dir.join(file)).unwrap_or(text);
    let (rows, cols) = text.trim().split_once(' ').expect("rows cols");
    (rows.parse().unwrap(), cols.parse().unwrap())
}

fn tabs(list: &Value) -> &Vec<Value> {
    list["windows"][0]["tabs"].as_array().expect("tabs")
}

fn active_tab(list: &Value) -> usize {
    tabs(list)
        .iter()
        .position(|t| t["active"] == true)
        .expect("an active tab")
}

fn window_name(s: &Sluice) -> String {
    s.xdotool(&["getwindowname", &s.window]).trim().to_owned()
}

/// Waits until `done` holds for `sluice msg list`, and returns the list.
fn list_until(s: &Sluice, what: &str, done: impl Fn(&Value) -> bool) -> Value {
    let mut list = Value::Null;
    let found = wait_until(Duration::from_secs(20), || {
        list = s.list();
        done(&list)
    });
    assert!(found.is_ok(), "{what}; the list is {list:#}\n{}", s.log());
    list
}

#[test]
fn tabs_open_switch_by_key_and_click_show_activity_and_close() {
    let mut s = Sluice::start("tabs", &["--size", "80x24", "-e", "sh"]);
    s.type_line(r"printf '\033]2;first\007'");
    wait_until(Duration::from_secs(20), || window_name(&s) == "first").expect("titled");

    // A new tab opens in the focused pane's directory, runs its own shell and gets the keys.
    std::fs::create_dir(s.dir.join("sub")).unwrap();
    s.type_line("cd sub");
    std::thread::sleep(Duration::from_millis(300));
    s.xdotool(&["key", "ctrl+shift+t"]);
    let list = list_until(&s, "a second tab", |l| tabs(l).len() == 2);
    assert_eq!(active_tab(&list), 1, "the new tab is active");
    let second = &tabs(&list)[1]["panes"][0];
    assert!(
        second["working_directory"]
            .as_str()
            .unwrap()
            .ends_with("/sub"),
        "the new tab starts where the first tab's shell is: {second}"
    );
    std::thread::sleep(Duration::from_millis(500));
    s.type_line(r"printf '\033]2;second\007'; touch typed-in-second");
    s.wait_for_path("sub/typed-in-second");
    wait_until(Duration::from_secs(20), || window_name(&s) == "second")
        .expect("the window's title is the focused tab's");
    let list = s.list();
    assert_eq!(tabs(&list)[0]["title"], "first");
    assert_eq!(tabs(&list)[1]["title"], "second");

    // Ctrl+Tab back to the first; output in the second (in the background) marks it.
    s.xdotool(&["key", "ctrl+Tab"]);
    list_until(&s, "Ctrl+Tab selects the first tab", |l| active_tab(l) == 0);
    let second_id = second["id"].as_u64().unwrap().to_string();
    let (ok, _, err) = s.msg(&["send-text", "--pane", &second_id, "echo printed\n"]);
    assert!(ok, "{err}");
    list_until(&s, "the background tab shows activity", |l| {
        tabs(l)[1]["activity"] == true && tabs(l)[0]["activity"] == false
    });
    let (ok, _, err) = s.msg(&["send-text", "--pane", &second_id, "printf '\\a'\n"]);
    assert!(ok, "{err}");
    list_until(&s, "the background tab shows the bell", |l| {
        tabs(l)[1]["bell"] == true && tabs(l)[0]["bell"] == false
    });

    // A click on the second tab in the bar selects it and clears its mark.
    let (cols, _) = (80u32, 24u32);
    s.point_at(cols / 2 + 3, 0);
    s.xdotool(&["click", "1"]);
    let list = list_until(&s, "a click selects the second tab", |l| active_tab(l) == 1);
    assert_eq!(tabs(&list)[1]["activity"], false, "seen now");

    // Alt+1 goes to the first; Ctrl+PageDown to the next.
    s.xdotool(&["key", "alt+1"]);
    list_until(&s, "Alt+1 selects the first tab", |l| active_tab(l) == 0);
    s.xdotool(&["key", "ctrl+Next"]);
    list_until(&s, "Ctrl+PageDown selects the second", |l| {
        active_tab(l) == 1
    });

    // Ctrl+Shift+W closes the second tab; the first is still there and working.
    s.xdotool(&["key", "ctrl+shift+w"]);
    list_until(&s, "one tab left", |l| tabs(l).len() == 1);
    std::thread::sleep(Duration::from_millis(300));
    s.type_line("touch still-working");
    s.wait_for_path("sub/still-working");

    // The last pane's end closes the window and ends the process with its status.
    s.type_line("exit 4");
    let mut code = None;
    wait_until(Duration::from_secs(20), || {
        code = s.child.try_wait().unwrap().map(|s| s.code());
        code.is_some()
    })
    .expect("sluice exits with its last shell");
    assert_eq!(code.unwrap(), Some(4));
}

#[test]
fn splits_get_their_own_keys_and_sizes_resize_by_keys_and_drags_and_zoom() {
    let s = Sluice::start("splits", &["--size", "81x24", "-e", "sh"]);
    s.xdotool(&["key", "ctrl+shift+d"]);
    let list = list_until(&s, "a split", |l| {
        tabs(l)[0]["panes"].as_array().unwrap().len() == 2
    });
    let panes = tabs(&list)[0]["panes"].as_array().unwrap().clone();
    assert_eq!(panes[1]["focused"], true, "the new pane has the keyboard");
    std::thread::sleep(Duration::from_millis(500));
    s.type_line("stty size > right.txt");
    assert_eq!(size_in(&s, "right.txt"), (24, 40));

    // Back to the left pane by key; its shell gets the keys and its own size.
    s.xdotool(&["key", "ctrl+alt+Left"]);
    std::thread::sleep(Duration::from_millis(300));
    s.type_line("stty size > left.txt");
    assert_eq!(size_in(&s, "left.txt"), (24, 40));

    // Split the left one down: two shells of 11 and 12 rows.
    s.xdotool(&["key", "ctrl+shift+e"]);
    list_until(&s, "three panes", |l| {
        tabs(l)[0]["panes"].as_array().unwrap().len() == 3
    });
    std::thread::sleep(Duration::from_millis(500));
    s.type_line("stty size > lower.txt");
    assert_eq!(size_in(&s, "lower.txt"), (12, 40));
    s.xdotool(&["key", "ctrl+alt+Up"]);
    std::thread::sleep(Duration::from_millis(300));
    s.type_line("stty size > upper.txt");
    assert_eq!(size_in(&s, "upper.txt"), (11, 40));

    // Move the vertical border right by two cells with keys: the upper-left pane and the
    // right one get new sizes (SIGWINCH with them).
    s.xdotool(&["key", "ctrl+alt+shift+Right", "ctrl+alt+shift+Right"]);
    std::thread::sleep(Duration::from_millis(300));
    s.type_line("stty size > upper-wider.txt");
    assert_eq!(size_in(&s, "upper-wider.txt"), (11, 42));
    s.xdotool(&["key", "ctrl+alt+Right"]);
    std::thread::sleep(Duration::from_millis(300));
    s.type_line("stty size > right-narrower.txt");
    assert_eq!(size_in(&s, "right-narrower.txt"), (24, 38));

    // Drag the vertical border (now at column 42) to column 60 with the mouse.
    s.point_at(42, 5);
    s.xdotool(&["mousedown", "1"]);
    s.point_at(60, 5);
    s.xdotool(&["mouseup", "1"]);
    std::thread::sleep(Duration::from_millis(300));
    s.type_line("stty size > right-dragged.txt");
    assert_eq!(size_in(&s, "right-dragged.txt"), (24, 20));

    // Zoom: the focused pane takes the whole window, and back.
    s.xdotool(&["key", "ctrl+shift+Return"]);
    std::thread::sleep(Duration::from_millis(300));
    s.type_line("stty size > zoomed.txt");
    assert_eq!(size_in(&s, "zoomed.txt"), (24, 81));
    s.xdotool(&["key", "ctrl+shift+Return"]);
    std::thread::sleep(Duration::from_millis(300));
    s.type_line("stty size > unzoomed.txt");
    assert_eq!(size_in(&s, "unzoomed.txt"), (24, 20));
}

#[test]
fn sluice_msg_opens_windows_tabs_and_splits_lists_them_and_sends_text() {
    let s = Sluice::start("msg", &["--size", "80x24", "-e", "sh"]);
    let list = s.list();
    let windows = list["windows"].as_array().unwrap();
    assert_eq!(windows.len(), 1);
    let first = &tabs(&list)[0]["panes"][0];
    assert_eq!(first["cols"], 80);
    assert_eq!(first["rows"], 24);
    assert!(first["pid"].as_i64().unwrap() > 1);
    assert_eq!(
        first["working_directory"].as_str().unwrap(),
        s.dir.canonicalize().unwrap().to_str().unwrap()
    );

    // The socket is its user's alone.
    let socket = std::fs::read_dir(s.dir.join("runtime/sluice"))
        .unwrap()
        .flatten()
        .find(|e| e.file_name().to_string_lossy().ends_with(".sock"))
        .expect("a socket")
        .path();
    let mode = std::fs::metadata(&socket).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600, "{socket:?}");

    // A split through msg, then text sent to it runs in its shell.
    let (ok, out, err) = s.msg(&["split", "--direction", "down", "-e", "sh"]);
    assert!(ok, "{err}");
    let split: Value = serde_json::from_str(&out).unwrap();
    let split_id = split["pane"].as_u64().unwrap();
    std::thread::sleep(Duration::from_millis(500));
    let id = split_id.to_string();
    let (ok, _, err) = s.msg(&["send-text", "--pane", &id, "touch sent-by-msg\n"]);
    assert!(ok, "{err}");
    s.wait_for_path("sent-by-msg");
    let list = s.list();
    let panes = tabs(&list)[0]["panes"].as_array().unwrap();
    assert_eq!(panes.len(), 2);
    assert_eq!(panes[1]["id"], split_id);
    assert_eq!(
        (panes[0]["rows"].as_u64(), panes[1]["rows"].as_u64()),
        (Some(11), Some(12))
    );

    // Inside Sluice, `sluice msg` finds its instance through SLUICE_SOCKET alone.
    let inside = format!(
        "env -u XDG_RUNTIME_DIR -u DISPLAY {} msg list > inside.json\n",
        env!("CARGO_BIN_EXE_sluice")
    );
    let (ok, _, err) = s.msg(&["send-text", "--pane", &id, &inside]);
    assert!(ok, "{err}");
    let listed: Value = serde_json::from_slice(&s.wait_for_file("inside.json", 20)).unwrap();
    assert_eq!(tabs(&listed)[0]["panes"][1]["id"], split_id);

    // A tab in another directory.
    let (ok, _, err) = s.msg(&["create-tab", "--working-directory", "/tmp"]);
    assert!(ok, "{err}");
    let list = s.list();
    assert_eq!(tabs(&list).len(), 2);
    assert_eq!(tabs(&list)[1]["panes"][0]["working_directory"], "/tmp");

    // Bad requests: a clear error and a non-zero exit.
    let (ok, _, err) = s.msg(&["focus", "--pane", "9999"]);
    assert!(!ok);
    assert!(err.contains("no pane 9999"), "{err}");
    let (ok, _, err) = s.msg(&["send-text", "--pane", "9999", "x"]);
    assert!(!ok && err.contains("no such pane"), "{err}");
    let mut raw = std::os::unix::net::UnixStream::connect(&socket).unwrap();
    raw.write_all(b"{\"request\": \"explode\"}\n").unwrap();
    let mut answer = String::new();
    BufReader::new(raw).read_line(&mut answer).unwrap();
    assert!(answer.starts_with("{\"error\":"), "{answer}");

    // A second window, of the same process, with its own shell. (Without a directory it
    // would start where the focused pane is: /tmp, the tab just opened.)
    let dir = s.dir.to_str().unwrap().to_owned();
    let (ok, out, err) = s.msg(&["create-window", "--working-directory", &dir, "-e", "sh"]);
    assert!(ok, "{err}");
    let created: Value = serde_json::from_str(&out).unwrap();
    let new_pane = created["pane"].as_u64().unwrap().to_string();
    let list = s.list();
    assert_eq!(list["windows"].as_array().unwrap().len(), 2);
    let pid = s.child.id().to_string();
    let windows = s.xdotool(&["search", "--pid", &pid]);
    assert!(
        windows.lines().count() >= 2,
        "two X windows of one process: {windows}"
    );
    std::thread::sleep(Duration::from_millis(500));
    let (ok, _, err) = s.msg(&["send-text", "--pane", &new_pane, "touch from-window-two\n"]);
    assert!(ok, "{err}");
    s.wait_for_path("from-window-two");

    // Closing it leaves the first working.
    let (ok, _, err) = s.msg(&["close", "--pane", &new_pane]);
    assert!(ok, "{err}");
    list_until(&s, "one window left", |l| {
        l["windows"].as_array().unwrap().len() == 1
    });
    let (ok, _, err) = s.msg(&["send-text", "--pane", &id, "touch after-close\n"]);
    assert!(ok, "{err}");
    s.wait_for_path("after-close");
}

#[test]
fn ctrl_shift_n_opens_a_second_window_that_closes_alone() {
    let s = Sluice::start("new-window", &["--size", "60x12", "-e", "sh"]);
    // The shell reports a directory it is not in (OSC 7): the new window starts there.
    s.type_line(r"mkdir reported; printf '\033]7;file://localhost%s/reported\007' $PWD");
    s.wait_for_path("reported");
    std::thread::sleep(Duration::from_millis(300));
    s.xdotool(&["key", "ctrl+shift+n"]);
    let list = list_until(&s, "a second window", |l| {
        l["windows"].as_array().unwrap().len() == 2
    });
    let second = list["windows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|w| w["id"].as_u64().map(|id| id.to_string()).as_deref() != Some(s.window.as_str()))
        .unwrap()
        .clone();
    let pane = second["tabs"][0]["panes"][0].clone();
    let reported = s.dir.canonicalize().unwrap().join("reported");
    assert_eq!(
        pane["working_directory"].as_str().unwrap(),
        reported.to_str().unwrap()
    );
    std::thread::sleep(Duration::from_millis(500));
    let id = pane["id"].as_u64().unwrap().to_string();
    let (ok, _, err) = s.msg(&["send-text", "--pane", &id, "touch two; exit\n"]);
    assert!(ok, "{err}");
    s.wait_for_path("reported/two");
    list_until(&s, "its shell's exit closes the second window", |l| {
        l["windows"].as_array().unwrap().len() == 1
    });
    // The first window still types into its shell.
    s.xdotool(&["windowfocus", "--sync", &s.window]);
    s.type_line("touch one");
    s.wait_for_path("one");
}

#[test]
fn a_program_in_a_background_tab_writes_as_fast_as_in_the_focused_one() {
    let s = Sluice::start("background", &["--size", "100x30", "-e", "sh"]);
    let bench = x11::sluice_bench();
    let write = |out: &str| {
        format!(
            "{} write --payload plain --bytes 64M --json --output {out}",
            bench.display()
        )
    };
    let rate = |file: &str| -> f64 {
        let json: Value = serde_json::from_slice(&s.wait_for_file(file, 10)).unwrap();
        json[0]["mb_per_s"].as_f64().unwrap()
    };
    s.type_line(&write("focused.json"));
    let focused = rate("focused.json");

    // The writer's tab opens active; the first is selected again before it starts writing.
    let first = tabs(&s.list())[0]["panes"][0]["id"].to_string();
    let script = format!("sleep 1; {}; sleep 60", write("background.json"));
    let (ok, _, err) = s.msg(&["create-tab", "-e", "sh", "-c", &script]);
    assert!(ok, "{err}");
    let (ok, _, err) = s.msg(&["focus", "--pane", &first]);
    assert!(ok, "{err}");
    let background = rate("background.json");
    let list = s.list();
    assert_eq!(active_tab(&list), 0, "the writer stayed in the background");
    assert_eq!(
        tabs(&list)[1]["activity"],
        true,
        "and its mark shows it printed"
    );
    // A generous bound: the figures themselves are the benchmark's (benches/tabs.sh).
    assert!(
        background >= focused * 0.5,
        "a background tab reads {background:.1} MB/s, the focused one {focused:.1} MB/s"
    );
}

#[test]
fn hold_keeps_a_pane_whose_program_exited_until_it_is_closed() {
    let mut s = Sluice::start(
        "hold",
        &["--hold", "--size", "60x12", "-e", "sh", "-c", "exit 3"],
    );
    std::thread::sleep(Duration::from_millis(1000));
    assert!(
        s.child.try_wait().unwrap().is_none(),
        "the window stays open after its program ended"
    );
    let list = s.list();
    assert_eq!(tabs(&list)[0]["panes"].as_array().unwrap().len(), 1);
    // Typing goes nowhere; Ctrl+Shift+W closes the pane, the window and Sluice, which exits
    // with the program's status.
    s.type_line("echo nothing");
    s.xdotool(&["key", "ctrl+shift+w"]);
    let mut code = None;
    wait_until(Duration::from_secs(20), || {
        code = s.child.try_wait().unwrap().map(|s| s.code());
        code.is_some()
    })
    .expect("closing the held pane ends Sluice");
    assert_eq!(code.unwrap(), Some(3));
}

#[test]
fn key_bindings_from_the_file_send_text_run_actions_and_unbind_defaults() {
    let config = r#"
[[keyboard.bindings]]
key = "j"
mods = "Control|Shift"
chars = "touch by-chars\n"

[[keyboard.bindings]]
key = "F5"
action = "CreateNewTab"

[[keyboard.bindings]]
key = "t"
mods = "Control|Shift"
action = "None"

[[keyboard.bindings]]
key = "F6"
action = "NoSuchAction"
"#;
    let s = Sluice::start_with_config("bindings", &["--size", "60x12", "-e", "sh"], config);
    s.xdotool(&["key", "ctrl+shift+j"]);
    s.wait_for_path("by-chars");
    s.xdotool(&["key", "F5"]);
    list_until(&s, "F5 opens a tab", |l| tabs(l).len() == 2);
    // The unbound default reaches the program instead of opening a third tab.
    s.xdotool(&["key", "ctrl+shift+t"]);
    std::thread::sleep(Duration::from_millis(800));
    assert_eq!(tabs(&s.list()).len(), 2);
    assert!(
        s.log()
            .contains("keyboard.bindings[3]: no action \"NoSuchAction\""),
        "the bad entry is reported and the others apply: {}",
        s.log()
    );
}

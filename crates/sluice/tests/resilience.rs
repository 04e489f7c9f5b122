//! What must not take a window down, in real windows under Xvfb: a lost GPU device, the
//! window destroyed by another client, the program killed, a background job holding the PTY,
//! and panes closed during floods (no thread left behind). How long each shutdown takes is
//! measured by benches/shutdown.sh; these tests only bound it generously.

use std::time::{Duration, Instant};

mod x11;
use x11::{Sluice, longest_band, screenshot, wait_until};

fn threads(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/task"))
        .map(|d| d.count())
        .unwrap_or(0)
}

/// Waits for Sluice to exit; returns its exit code and how long it took.
fn exit_of(s: &mut Sluice) -> (Option<i32>, Duration) {
    let start = Instant::now();
    let mut code = None;
    wait_until(Duration::from_secs(10), || {
        code = s.child.try_wait().unwrap().map(|s| s.code());
        code.is_some()
    })
    .unwrap_or_else(|()| panic!("sluice did not exit; its log:\n{}", s.log()));
    (code.unwrap(), start.elapsed())
}

/// (On the GPU backend, which `auto` takes only where there is a GPU: forced here.)
#[test]
fn a_lost_gpu_device_is_replaced_and_the_window_carries_on() {
    let s = Sluice::start(
        "gpu-lost",
        &[
            "-o",
            "renderer.backend=\"gpu\"",
            "--debug-lose-gpu-after",
            "1.5",
            "--size",
            "60x12",
            "-e",
            "sh",
        ],
    );
    s.type_line("echo before");
    wait_until(Duration::from_secs(20), || {
        s.log().contains("GPU device replaced")
    })
    .unwrap_or_else(|()| panic!("the device is replaced; log:\n{}", s.log()));
    s.type_line(r"printf '\033[41m%s\033[0m\n' REDREDREDRED; touch drawn");
    s.wait_for_path("drawn");
    std::thread::sleep(Duration::from_millis(700));
    let (width, height, rgba) = screenshot(&s.x.display, &s.window, &s.dir.join("after.png"));
    let (run, _) = longest_band(width, height, &rgba, [0xcc, 0x66, 0x66, 255]);
    assert!(
        run >= 12 * 6,
        "the new device draws: a red band {run} px wide"
    );
    assert!(!s.log().contains("panicked"), "{}", s.log());
}

#[test]
fn a_window_destroyed_by_another_client_ends_sluice_without_a_panic() {
    let mut s = Sluice::start("destroyed", &["--size", "60x12", "-e", "sh", "-c", "yes"]);
    std::thread::sleep(Duration::from_millis(500));
    s.xdotool(&["windowclose", &s.window.clone()]);
    let (code, _) = exit_of(&mut s);
    assert_eq!(code, Some(0), "log:\n{}", s.log());
    assert!(!s.log().contains("panicked"), "{}", s.log());
}

#[test]
fn the_program_killed_or_gone_with_a_job_holding_the_pty_ends_sluice() {
    // Killed during a flood: Sluice ends with the status a shell reports for SIGKILL.
    let mut s = Sluice::start("killed", &["--size", "60x12", "-e", "sh", "-c", "yes"]);
    let list = s.list();
    let pid = list["windows"][0]["tabs"][0]["panes"][0]["pid"]
        .as_i64()
        .unwrap();
    std::process::Command::new("kill")
        .args(["-9", &pid.to_string()])
        .status()
        .unwrap();
    let (code, took) = exit_of(&mut s);
    assert_eq!(code, Some(128 + 9));
    assert!(took < Duration::from_secs(5), "{took:?}");

    // The shell exits, a background job still holds the PTY: Sluice does not wait for it.
    let mut s = Sluice::start(
        "job",
        &[
            "--size",
            "60x12",
            "-e",
            "sh",
            "-c",
            "sleep 100 & sleep 1; exit 5",
        ],
    );
    let (code, took) = exit_of(&mut s);
    assert_eq!(code, Some(5));
    assert!(took < Duration::from_secs(5), "{took:?}");
}

#[test]
fn closing_panes_during_floods_leaves_no_thread_behind() {
    let s = Sluice::start("threads", &["--size", "60x12", "-e", "sh"]);
    let pid = s.child.id();
    std::thread::sleep(Duration::from_millis(500));
    let baseline = threads(pid);
    for how in ["close", "kill", "window"] {
        let args: &[&str] = match how {
            "window" => &["create-window", "-e", "sh", "-c", "cat /dev/urandom"],
            _ => &["create-tab", "-e", "sh", "-c", "yes"],
        };
        let (ok, out, err) = s.msg(args);
        assert!(ok, "{err}");
        let pane: serde_json::Value = serde_json::from_str(&out).unwrap();
        let id = pane["pane"].to_string();
        std::thread::sleep(Duration::from_millis(700));
        assert!(threads(pid) > baseline, "a pane has threads of its own");
        match how {
            "kill" => {
                let list = s.list();
                let child = list["windows"][0]["tabs"][1]["panes"][0]["pid"].to_string();
                std::process::Command::new("kill")
                    .args(["-9", &child])
                    .status()
                    .unwrap();
            }
            _ => {
                let (ok, _, err) = s.msg(&["close", "--pane", &id]);
                assert!(ok, "{err}");
            }
        }
        wait_until(Duration::from_secs(10), || threads(pid) == baseline).unwrap_or_else(|()| {
            panic!(
                "after {how}: {} threads, {baseline} before the pane",
                threads(pid)
            )
        });
    }
    let list = s.list();
    assert_eq!(list["windows"].as_array().unwrap().len(), 1);
    assert_eq!(list["windows"][0]["tabs"].as_array().unwrap().len(), 1);
}

#[test]
fn a_panic_handling_one_windows_event_closes_that_window_only() {
    let s = Sluice::start(
        "ui-panic",
        &["--debug-window-panic", "--size", "40x8", "-e", "sh"],
    );
    let dir = s.dir.to_str().unwrap().to_owned();
    let (ok, out, err) = s.msg(&["create-window", "--working-directory", &dir, "-e", "sh"]);
    assert!(ok, "{err}");
    let created: serde_json::Value = serde_json::from_str(&out).unwrap();
    let pane = created["pane"].to_string();
    // A key in the first window panics its handler: that window goes, the process stays.
    s.xdotool(&["windowfocus", "--sync", &s.window]);
    s.xdotool(&["key", "a"]);
    wait_until(Duration::from_secs(10), || {
        s.list()["windows"].as_array().unwrap().len() == 1
    })
    .unwrap_or_else(|()| panic!("the failed window closes; log:\n{}", s.log()));
    assert!(s.log().contains("a window failed"), "{}", s.log());
    std::thread::sleep(Duration::from_millis(300));
    let (ok, _, err) = s.msg(&["send-text", "--pane", &pane, "touch still-alive\n"]);
    assert!(ok, "{err}");
    s.wait_for_path("still-alive");
}

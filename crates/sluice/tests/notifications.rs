//! Desktop notifications in a real window, seen on a private D-Bus session bus by
//! dbus-monitor: a program's OSC 9 / 777 / 99 from a pane out of sight becomes a freedesktop
//! `Notify` call; from the pane in front of you, by default, none; and a long command marked
//! by shell integration says how it ended.

use std::process::{Child, Command};
use std::time::Duration;

mod x11;
use x11::{Sluice, wait_until};

/// A session bus of the test's own, and dbus-monitor recording every notification call on it.
struct Bus {
    bus: x11::SessionBus,
    monitor: Child,
    log: std::path::PathBuf,
}

impl Bus {
    fn start(log: std::path::PathBuf) -> Bus {
        let bus = x11::SessionBus::start();
        let monitor = Command::new("dbus-monitor")
            .args(["--address", &bus.address])
            .arg("interface='org.freedesktop.Notifications',member='Notify'")
            .stdout(std::fs::File::create(&log).unwrap())
            .spawn()
            .expect("dbus-monitor runs");
        // The monitor must be listening before anything is sent.
        std::thread::sleep(Duration::from_millis(300));
        Bus { bus, monitor, log }
    }

    fn seen(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

impl Drop for Bus {
    fn drop(&mut self) {
        let _ = self.monitor.kill();
        let _ = self.monitor.wait();
    }
}

#[test]
fn programs_out_of_sight_notify_the_desktop_and_long_commands_report_their_end() {
    let log = std::env::temp_dir().join(format!("sluice-notify-bus-{}.log", std::process::id()));
    let bus = Bus::start(log.clone());
    // The first tab's program waits until a second tab has taken the focus, then asks for
    // notifications (a flood of OSC 9 among them, which is rate-limited to one, its last),
    // then runs a "long" command.
    let background = concat!(
        "sleep 2; printf '\\033]9;from the background\\007'; sleep 0.6; ",
        "for i in $(seq 50); do printf '\\033]9;flood %s\\007' $i; done; sleep 0.6; ",
        "printf '\\033]777;notify;Make;all \\001targets\\007'; sleep 0.6; ",
        // kitty's, in two chunks, the body in base64.
        "printf '\\033]99;i=7:d=0;Kitty \\033\\\\\\033]99;i=7:p=body:e=1;Ym9keQ==\\033\\\\'; sleep 0.6; ",
        "printf '\\033]133;C\\007'; sleep 1.3; printf '\\033]133;D;3\\007'; sleep 30"
    );
    let config = "[notifications]\ncommand_finished_after = 1\nmin_interval = 0.5\n";
    let s = Sluice::launch_with(
        "notify",
        &["-e", "sh", "-c", background],
        config,
        &[("DBUS_SESSION_BUS_ADDRESS", &bus.bus.address)],
    );
    s.xdotool(&["key", "ctrl+shift+t"]);
    std::thread::sleep(Duration::from_millis(500));
    // The focused tab's own notification is not shown (notifications.when = "unfocused").
    s.type_line("printf '\\033]9;in front of you\\007'");

    let finished = wait_until(Duration::from_secs(20), || {
        bus.seen().contains("Command failed (exit status 3)")
    });
    let seen = bus.seen();
    let _ = std::fs::remove_file(&log);
    assert!(
        finished.is_ok(),
        "no notification at the command's end:\n{seen}\n{}",
        s.log()
    );
    assert!(seen.contains("string \"from the background\""), "{seen}");
    assert!(seen.contains("string \"Make\""), "{seen}");
    assert!(
        seen.contains("string \"Kitty\"") && seen.contains("string \"body\""),
        "both chunks of the kitty notification, the body decoded: {seen}"
    );
    assert!(
        seen.contains("string \"all  targets\""),
        "the control is a space: {seen}"
    );
    let floods = seen.matches("flood ").count();
    assert!(
        floods <= 1,
        "a flood is rate-limited, {floods} got through: {seen}"
    );
    assert!(!seen.contains("in front of you"), "{seen}");
    assert!(seen.contains("string \"Sluice\""), "the app name: {seen}");
}

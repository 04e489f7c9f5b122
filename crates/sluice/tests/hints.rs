//! Keyboard hints in a real window: Ctrl+Shift+Y labels the URLs, paths and hashes on screen
//! and typing a label copies its match (checked by pasting it back into the program);
//! Ctrl+Shift+O opens a URL through the configured opener (a script that logs its argument),
//! and a URL whose scheme is not allowed is not opened.

use std::time::Duration;

mod x11;
use x11::Sluice;

fn press(s: &Sluice, keys: &[&str]) {
    for key in keys {
        s.xdotool(&["key", key]);
        std::thread::sleep(Duration::from_millis(150));
    }
}

#[test]
fn hints_copy_and_open_what_they_label() {
    let opener = std::env::temp_dir().join(format!("sluice-hint-opener-{}", std::process::id()));
    std::fs::write(&opener, "#!/bin/sh\necho \"$1\" >> opened.txt\n").unwrap();
    std::fs::set_permissions(&opener, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let config = format!(
        "[links]\nopener = \"{}\"\n[paste]\nconfirm = \"never\"\n",
        opener.display()
    );
    // Output only (no command line echoed): one line with two URLs, a path and a hash, then
    // a program that records what is pasted into it.
    let script = "printf 'see https://example.com/x file:///tmp/x /etc/hosts 3f2a9c1\\n'; \
                  stty -echo; cat > out.txt";
    let s = Sluice::start_with_config(
        "hints",
        &["--size", "80x8", "-e", "sh", "-c", script],
        &config,
    );

    // Under load the window can be up before the line is printed: hints label what is on
    // screen when they start, so wait for it.
    s.wait_for_text("3f2a9c1");
    // Labels go in screen order: j, f, k, d for the two URLs, the path and the hash.
    press(&s, &["ctrl+shift+y", "d", "ctrl+shift+v", "Return"]);
    press(&s, &["ctrl+shift+y", "k", "ctrl+shift+v", "Return"]);
    // A hint set shows only its own patterns: URLs are j and f.
    press(&s, &["ctrl+shift+o", "j"]);
    press(&s, &["ctrl+shift+o", "f"]);
    // Escape takes the labels away without acting.
    press(&s, &["ctrl+shift+y", "Escape", "ctrl+d"]);

    let got = s.wait_for_file("out.txt", 19);
    assert_eq!(
        String::from_utf8_lossy(&got),
        "3f2a9c1\n/etc/hosts\n",
        "{}",
        s.log()
    );
    let opened = s.dir.join("opened.txt");
    x11::wait_until(Duration::from_secs(10), || opened.exists()).expect("the URL was opened");
    std::thread::sleep(Duration::from_millis(300));
    let log = std::fs::read_to_string(&opened).unwrap();
    let _ = std::fs::remove_file(&opener);
    assert_eq!(
        log, "https://example.com/x\n",
        "file: is not in links.schemes"
    );
}

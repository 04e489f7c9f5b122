//! Vi mode in a real window: into the scrollback with a search, a word, a line and a block
//! selected with motions and counts and copied with `y`, each pasted back into a program to
//! check the clipboard; leaving vi mode gives the keys back to the program.

use std::time::Duration;

mod x11;
use x11::Sluice;

/// A step in vi mode: text typed, or a key pressed.
enum Step<'a> {
    Type(&'a str),
    Key(&'a str),
}
use Step::{Key, Type};

/// Enters vi mode, runs `steps`, yanks, leaves, and pastes into the running `cat`.
fn yank_and_paste(s: &Sluice, steps: &[Step]) {
    s.xdotool(&["key", "ctrl+shift+space"]);
    for step in steps {
        match step {
            Type(text) => s.xdotool(&["type", "--delay", "30", text]),
            Key(key) => s.xdotool(&["key", key]),
        };
    }
    s.xdotool(&["key", "y", "i"]);
    std::thread::sleep(Duration::from_millis(200));
    s.xdotool(&["key", "ctrl+shift+v", "Return"]);
    std::thread::sleep(Duration::from_millis(200));
}

#[test]
fn vi_mode_selects_and_copies_from_the_scrollback() {
    let s = Sluice::start_with_config(
        "vi",
        &["--size", "40x8", "-e", "sh"],
        "[paste]\nconfirm = \"never\"\n[colors]\nvi_cursor = \"#00ff00\"\n",
    );
    s.type_line("printf 'alpha bravo charlie\\nline two here\\nthird (x y) z\\n'; seq 1 30");
    std::thread::sleep(Duration::from_millis(500));
    s.type_line("cat > out.txt");
    std::thread::sleep(Duration::from_millis(300));

    // The vi cursor is drawn in `colors.vi_cursor`; leaving vi mode takes it away.
    let green = |name: &str| {
        let (_, _, rgba) = x11::screenshot(&s.x.display, &s.window, &s.dir.join(name));
        rgba.chunks(4).filter(|p| p[..3] == [0, 0xff, 0]).count()
    };
    s.xdotool(&["key", "ctrl+shift+space"]);
    std::thread::sleep(Duration::from_millis(300));
    let (cw, ch) = x11::cell_size();
    assert!(
        green("vi.png") as u32 > cw * ch / 3,
        "the vi cursor is drawn"
    );
    s.xdotool(&["key", "Escape"]);
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(green("typing.png"), 0, "and gone after vi mode");

    // ?bravo Enter: up to "bravo" in the scrollback; v, e: the word.
    yank_and_paste(&s, &[Type("?bravo"), Key("Return"), Type("ve")]);
    // A search for the line, then V: the whole line.
    yank_and_paste(&s, &[Type("?line two"), Key("Return"), Key("V")]);
    // The third line, f( onto the bracket, then a block: one up and, with a count, three to
    // the right: columns 6 to 9 of two lines.
    yank_and_paste(
        &s,
        &[
            Type("?third"),
            Key("Return"),
            Type("f("),
            Key("ctrl+v"),
            Type("k3l"),
        ],
    );
    s.xdotool(&["key", "ctrl+d"]);

    let got = s.wait_for_file("out.txt", 30);
    let got = String::from_utf8_lossy(&got);
    let lines: Vec<&str> = got.lines().filter(|l| !l.is_empty()).collect();
    assert_eq!(
        lines,
        ["bravo", "line two here", "wo h", "(x y"],
        "in the file: {got:?}\n{}",
        s.log()
    );
}

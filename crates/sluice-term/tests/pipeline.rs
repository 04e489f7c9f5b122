//! The pipeline's invariants, end to end on real PTYs: the child, the reader, the ring, the
//! parser thread, the terminal and the snapshot a renderer would draw.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use sluice_pty::{ExitStatus, WinSize};

mod common;
use common::Harness;

#[test]
fn resize_reaches_the_child_as_sigwinch_with_the_new_size() {
    let mut s = Harness::start(
        r#"trap 'echo "winch $(stty size)"' WINCH; echo ready; while :; do sleep 0.02; done"#,
        WinSize::cells(80, 24),
    );
    s.wait_for(Duration::from_secs(10), |t| t.contains("ready"))
        .expect("shell starts");
    let size = WinSize::cells(100, 30);
    s.terminal.resize(size);
    s.pty.resize(size).unwrap();
    let screen = s
        .wait_for(Duration::from_secs(10), |t| t.contains("winch 30 100"))
        .expect("SIGWINCH seen");
    assert_eq!(s.snapshot.cols, 100);
    assert_eq!(s.snapshot.rows, 30);
    assert!(screen.contains("ready"));
}

#[test]
fn interactive_output_is_parsed_at_once_and_wakes_the_ui() {
    let mut s = Harness::start(
        "stty -echo; while read line; do echo \"got $line\"; done",
        WinSize::cells(40, 5),
    );
    // The first read after a quiet spell must not wait for a batching timer.
    std::thread::sleep(Duration::from_millis(200));
    let before = s.wakes.load(Ordering::Relaxed);
    s.terminal.writer().write(b"one\r".to_vec());
    s.wait_for(Duration::from_secs(5), |t| t.contains("got one"))
        .expect("echo arrives");
    assert!(
        s.wakes.load(Ordering::Relaxed) > before,
        "the parser woke the UI"
    );
}

#[test]
fn replies_to_queries_are_built_from_terminal_state() {
    // OSC 11 asks for the background colour, CSI 14 t for the text area in pixels.
    let script = r#"stty raw -echo; printf '\033]11;?\033\\\033[14t'; r=$(dd bs=1 count=37 2>/dev/null); stty sane; printf '%s' "$r" | od -An -c | tr -d ' \n'; echo; sleep 5"#;
    let mut s = Harness::start(
        script,
        WinSize {
            cols: 20,
            rows: 10,
            cell_width: 9,
            cell_height: 18,
        },
    );
    let screen = s
        .wait_for(Duration::from_secs(10), |t| t.contains("t"))
        .expect("replies arrive");
    let text: String = screen.split_whitespace().collect();
    // rgb:1d1d/1f1f/2121 is the default background, answered with the ST the query used (od
    // prints ESC as 033 and the backslash bare); 180x180 = 10 rows × 18 px, 20 cols × 9 px.
    assert!(
        text.starts_with(r"033]11;rgb:1d1d/1f1f/2121033\033[4;180;180t"),
        "{text}"
    );
}

#[test]
fn an_open_synchronized_update_is_shown_after_the_deadline() {
    let mut s = Harness::start(
        r"printf 'before\n\033[?2026hheld back'; sleep 10",
        WinSize::cells(40, 5),
    );
    let started = Instant::now();
    let screen = s
        .wait_for(Duration::from_secs(5), |t| t.contains("held back"))
        .expect("shown after the deadline");
    assert!(screen.contains("before"));
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(
        s.pty.exit_status().is_none(),
        "shown while the program still runs"
    );
}

#[test]
fn a_child_that_never_reads_cannot_stall_output_and_a_stuck_paste_can_be_cancelled() {
    let mut s = Harness::start(
        "stty -echo; i=0; while :; do echo tick $i; i=$((i+1)); sleep 0.02; done",
        WinSize::cells(40, 5),
    );
    s.wait_for(Duration::from_secs(10), |t| t.contains("tick 1"))
        .expect("ticks start");

    // 10 MB of lines: the kernel takes a few KiB of it, then the paste is stuck.
    let paste: Vec<u8> = b"pasted line that nobody reads\n".repeat(10_000_000 / 30);
    let paste_len = paste.len() as u64;
    s.terminal.writer().paste(paste);
    std::thread::sleep(Duration::from_millis(300));
    let queued = s.terminal.writer().queued_bytes();
    assert!(
        queued > paste_len - 1_000_000,
        "the paste is stuck: {queued} of {paste_len} queued"
    );

    // Output keeps flowing and being parsed while the paste is stuck.
    let parsed = s.terminal.stats().bytes_parsed;
    let tick = |t: &str| {
        t.lines()
            .filter_map(|l| l.strip_prefix("tick ")?.parse::<u64>().ok())
            .max()
            .unwrap_or(0)
    };
    let seen = tick(&s.screen());
    s.wait_for(Duration::from_secs(5), |t| tick(t) >= seen + 10)
        .expect("output keeps coming");
    assert!(s.terminal.stats().bytes_parsed > parsed);

    // Cancelling drops the rest of the paste and what the child had not read, so ^C gets through.
    s.terminal.writer().cancel_pastes();
    let deadline = Instant::now() + Duration::from_secs(5);
    while s.terminal.writer().queued_bytes() > 0 {
        assert!(Instant::now() < deadline, "cancel empties the queue");
        std::thread::sleep(Duration::from_millis(5));
    }
    s.terminal.writer().write(b"\x03".to_vec());
    let status = s.pty.wait_exit(Some(Duration::from_secs(5)));
    assert_eq!(status, Some(ExitStatus::Signal(libc_sigint())));

    // Shutdown is clean and fast.
    let started = Instant::now();
    drop(s);
    assert!(started.elapsed() < Duration::from_secs(2));
}

#[test]
fn shutdown_is_fast_even_with_a_paste_stuck_and_the_child_alive() {
    let mut s = Harness::start(
        "stty -echo; while :; do sleep 1; done",
        WinSize::cells(40, 5),
    );
    s.wait_for(Duration::from_secs(2), |_| true).unwrap();
    s.terminal.writer().paste(b"x\n".repeat(5_000_000));
    std::thread::sleep(Duration::from_millis(200));
    let started = Instant::now();
    drop(s);
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "took {:?}",
        started.elapsed()
    );
}

#[test]
fn snapshot_damage_covers_only_changed_rows() {
    let mut s = Harness::start(
        r"printf 'a\nb\nc'; read x; printf '\033[2;1Hchanged'; sleep 10",
        WinSize::cells(20, 5),
    );
    s.wait_for(Duration::from_secs(5), |t| t.contains('c'))
        .unwrap();
    s.snapshot.take_damage();
    s.terminal.writer().write(b"\r".to_vec());
    s.wait_for(Duration::from_secs(5), |t| t.contains("changed"))
        .unwrap();
    let damage = s.snapshot.take_damage();
    assert!(!damage.full);
    let rows = damage.rows;
    // The echoed newline moves the cursor; the redraw is on row 1. Nothing else is damaged.
    assert!(rows.contains(&1), "{rows:?}");
    assert!(rows.len() <= 3, "{rows:?}");
}

fn libc_sigint() -> i32 {
    2
}

/// A hundred resizes during a flood of wide and combining text: no panic, every byte parsed,
/// and the screen the program draws last is the one a replay of the same bytes at the final
/// size shows.
#[test]
fn resizing_during_a_flood_of_wide_text_loses_nothing() {
    let line = "漢字かな表示🎉é\u{301}a\u{300}\u{301}\u{302} wide and combining text ";
    let last = "\x1b[2J\x1b[Hfinal 漢字 🎉 e\u{301}\u{302} screen\r\nsecond row";
    // The flood goes on until the resizes are over (the test creates `go`), then the last
    // screen is drawn: drawn during the resizes, growing the grid would rightly pull history
    // back into view.
    let go = std::env::temp_dir().join(format!("sluice-resize-{}", std::process::id()));
    let _ = std::fs::remove_file(&go);
    let script = format!(
        "i=0; while [ ! -e {go} ]; do printf '%s %s\\n' $i '{line}'; i=$((i+1)); done; \
         printf '{last}'; sleep 0.5",
        go = go.display()
    );
    let mut h = Harness::start(&script, WinSize::cells(80, 24));
    for i in 0..100u16 {
        let size = WinSize::cells(20 + (i * 7) % 100, 5 + (i * 3) % 30);
        h.terminal.resize(size);
        h.pty.resize(size).unwrap();
        std::thread::sleep(Duration::from_millis(3));
    }
    let (cols, rows) = (57, 13);
    h.terminal.resize(WinSize::cells(cols, rows));
    h.pty.resize(WinSize::cells(cols, rows)).unwrap();
    std::fs::write(&go, "").unwrap();
    h.pty.wait_exit(Some(Duration::from_secs(60))).unwrap();
    std::fs::remove_file(&go).unwrap();
    h.pty
        .drain_after_exit(Duration::from_millis(200), Duration::from_secs(2));
    h.terminal.wait_parsed();
    assert_eq!(
        h.terminal.stats().bytes_parsed,
        h.pty.stats().snapshot().bytes_read,
        "every byte read was parsed"
    );
    let mut replay = sluice_term::Replay::new(cols, rows, 0);
    replay.feed(last.as_bytes());
    let expected = replay.dump(sluice_term::DumpFormat::Text, false);
    let got = h.terminal.dump(sluice_term::DumpFormat::Text, false);
    assert_eq!(got, expected);
}

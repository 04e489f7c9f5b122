//! Hostile output, through the whole headless pipeline: each output that once crashed, froze
//! or bloated Sluice (FINDINGS.md, "Pitfalls found by probing Sluice"), kept as a reproducer.
//! Every run must end with its text after the attack shown, exit 0 (the test helper fails on
//! any panic message) and stay within the caps in `sluice_term::limits`.

mod common;

use std::time::{Duration, Instant};

use common::{sh, sluice};
use sluice_term::limits;

/// Peak RSS a headless run may reach whatever the output: the default 16 MiB ring, a screen
/// and 10,000 lines of history, and the fixed base (binary, allocator, threads) with room for
/// the debug build. Before the caps, each attack below went past 600 MB.
const RSS_BOUND_KIB: u64 = 160 * 1024;

fn assert_bounded(run: &common::Run) {
    let rss = run.stats()["peak_rss_kib"].as_u64().expect("peak_rss_kib");
    assert!(rss < RSS_BOUND_KIB, "peak RSS {rss} KiB");
}

#[test]
fn a_deep_kitty_keyboard_stack_does_not_kill_the_parser() {
    // 4,097 pushes made alacritty_terminal 0.26 remove from an empty title stack and panic.
    let run = sh(
        &["--size", "40x4"],
        r"printf '\033[>1u%.0s' $(seq 5000); printf '\033[?u'; echo after",
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    // The flags query is still answered: the program's own read is not part of the screen,
    // but the text after the pushes is.
    assert!(run.stdout.contains("after"), "{}", run.stdout);
}

#[test]
fn a_huge_title_is_capped() {
    let run = sh(
        &["--size", "40x4", "--stats"],
        r"printf '\033]2;'; head -c 20000000 /dev/zero | tr '\0' t; printf '\007'; echo after",
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.stdout.contains("after"));
    // 20 MB is over the OSC cap: the whole sequence is dropped, not cut.
    let stats = run.stats();
    assert_eq!(stats["osc_dropped"], 1);
    assert!(stats["title"].is_null(), "{}", stats["title"]);
    assert_bounded(&run);

    // One under the OSC cap but over the title cap is cut to the title cap.
    let run = sh(
        &["--size", "40x4", "--stats"],
        r"printf '\033]2;'; head -c 100000 /dev/zero | tr '\0' t; printf '\007'; echo after",
    );
    let title = run.stats()["title"].as_str().unwrap().to_owned();
    assert_eq!(title.len(), limits::MAX_TITLE_BYTES);
}

#[test]
fn a_flood_of_bells_and_titles_is_coalesced() {
    // One second of BELs reached 1.5-2 GB in an unbounded event channel.
    let run = sh(
        &["--size", "40x4", "--stats"],
        r"head -c 30000000 /dev/zero | tr '\0' '\a'; i=0; while [ $i -lt 2000 ]; do printf '\033]2;t%s\007' $i; i=$((i+1)); done; echo after",
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.stdout.contains("after"));
    assert_eq!(run.stats()["title"], "t1999", "the last title wins");
    assert_bounded(&run);
}

#[test]
fn replies_to_a_child_that_never_reads_are_bounded() {
    // The child writes 5 MB of DA requests and never reads its input: each reply would queue.
    // (No echo, so that the replies the line discipline takes are not shown after the text.)
    let run = sh(
        &["--size", "40x4", "--stats"],
        r"stty -echo; yes $(printf '\033[c') | head -c 5000000 | tr -d '\n'; echo after",
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.stdout.contains("after"));
    let stats = run.stats();
    let dropped = stats["replies_dropped"].as_u64().unwrap();
    assert!(dropped > 100_000, "{dropped} replies dropped");
    assert_bounded(&run);
}

#[test]
fn an_unterminated_osc_string_is_dropped() {
    // 200 MB in an unterminated OSC string was 637 MB RSS: vte buffered it all.
    let run = sh(
        &["--size", "40x4", "--stats"],
        r"printf '\033]8;;'; head -c 100000000 /dev/zero | tr '\0' u; printf '\033\\'; echo after",
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(run.stdout.lines().next(), Some("after"));
    assert_eq!(run.stats()["osc_dropped"], 1);
    assert_bounded(&run);
}

#[test]
fn combining_marks_on_one_cell_are_capped() {
    // A million marks on one cell: 820 MB in a window.
    let run = sh(
        &["--size", "20x3", "--dump", "json", "--stats"],
        r"printf 'e'; yes $(printf '\314\201') | tr -d '\n' | head -c 2000000; echo; echo after",
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let screen: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let first = screen["lines"][0]["text"].as_str().unwrap();
    assert_eq!(first.chars().next(), Some('e'));
    assert_eq!(
        first.chars().filter(|&c| c == '\u{301}').count(),
        limits::MAX_COMBINING_PER_CELL
    );
    assert_eq!(screen["lines"][1]["text"], "after");
    assert_bounded(&run);
}

#[test]
fn rep_and_decaln_do_not_hold_the_lock() {
    // Each `CSI 65535 b` is 65,535 characters from 8 bytes; 64 KiB of them held the lock for
    // over a second. The parser's own budget is 4 ms; this bound is generous for a debug build
    // on a loaded machine, and far under the seconds it was.
    let run = sh(
        &["--size", "200x50", "--stats", "--history", "100"],
        r"printf 'x'; i=0; while [ $i -lt 3000 ]; do printf '\033[65535b\033#8'; i=$((i+1)); done; printf '\033[2J\033[Hafter'",
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(run.stdout.lines().next(), Some("after"));
    let held = run.stats()["longest_lock_hold_us"].as_f64().unwrap();
    assert!(held < 100_000.0, "lock held {held} µs");
}

#[test]
fn sizes_and_read_ahead_beyond_the_limits_are_refused_with_a_message() {
    for (args, says) in [
        (&["--size", "1x1"][..], "2 to 2048"),
        (&["--size", "65535x65535"], "2 to 2048"),
        (&["--size", "80x5000"], "1 to 1024"),
        (
            &["--read-ahead", "100000G"],
            "more than half of this machine's memory",
        ),
    ] {
        let mut all = args.to_vec();
        all.extend(["-e", "true"]);
        let run = sluice(&all);
        assert_eq!(run.code, Some(2), "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains(says), "{args:?}: {}", run.stderr);
    }
    // The smallest grid takes a wide character without panicking.
    let run = sh(&["--size", "2x1"], "printf '漢字'");
    assert_eq!(run.code, Some(0), "{}", run.stderr);
}

#[test]
fn headless_ends_although_a_background_job_keeps_writing() {
    let dir = std::env::temp_dir().join(format!("sluice-bg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pid_file = dir.join("pid");
    let script = format!(
        r#"(trap '' HUP; echo $$ > {pid}; while :; do echo tick || exit; sleep 0.2; done) & sleep 0.3; echo started"#,
        pid = pid_file.display()
    );
    let started = Instant::now();
    // With the history: the job's ticks scroll "started" off a small screen.
    let run = sh(&["--size", "20x5", "--scrollback"], &script);
    let took = started.elapsed();
    if let Ok(pid) = std::fs::read_to_string(&pid_file) {
        let _ = std::process::Command::new("kill").arg(pid.trim()).status();
    }
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.stdout.contains("started"));
    assert!(took < Duration::from_secs(15), "took {took:?}");
}

#[test]
fn a_device_or_fifo_as_the_configuration_is_reported_and_sluice_runs() {
    let run = sluice(&["--config", "/dev/zero", "-e", "echo", "ran"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.stderr.contains("not a regular file"), "{}", run.stderr);
    assert!(run.stdout.starts_with("ran"));
}

#[test]
fn a_panic_in_the_parser_is_reported_and_headless_fails() {
    let run = common::sluice_allowing_panic(&[
        "--debug-parser-panic",
        "-e",
        "sh",
        "-c",
        "head -c 1000000 /dev/zero; echo done",
    ]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(
        run.stderr.contains("the terminal failed") && run.stderr.contains("asked to panic"),
        "{}",
        run.stderr
    );
}

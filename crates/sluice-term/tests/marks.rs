//! Shell integration marks (OSC 133) through the feed into a real `Term`: each lands on the
//! line it was sent on and stays there through scrolling, reflow on resize and the trimming of
//! history, and `--dump json` reports them.

use std::time::Duration;

use sluice_pty::WinSize;
use sluice_term::marks::{Mark, MarkKind, marks};
use sluice_term::{Direction, DumpFormat, Replay};

mod common;
use common::Harness;

/// One round of a shell with integration: prompt, command line, output, exit status.
fn command(prompt: &str, command: &str, output: &[&str], status: i32) -> String {
    let mut out = format!("\x1b]133;A\x07{prompt}\x1b]133;B\x07{command}\r\n\x1b]133;C\x07");
    for line in output {
        out += line;
        out += "\r\n";
    }
    out + &format!("\x1b]133;D;{status}\x07")
}

fn kinds_and_lines(replay: &mut Replay) -> Vec<(MarkKind, usize, Option<i32>)> {
    marks(replay.term_mut())
        .into_iter()
        .map(|m: Mark| (m.kind, m.line, m.status))
        .collect()
}

#[test]
fn marks_land_on_their_lines_and_scroll_with_them() {
    use MarkKind::*;
    let mut replay = Replay::new(30, 5, 100);
    replay.feed(command("$ ", "ls", &["a", "b", "c"], 0).as_bytes());
    replay.feed(command("$ ", "false", &[], 1).as_bytes());
    replay.feed(b"\x1b]133;A\x07$ ");
    let expected = vec![
        (Prompt, 0, None),
        (Command, 0, None),
        (Output, 1, None),
        (Finished, 4, Some(0)),
        (Prompt, 4, None),
        (Command, 4, None),
        // `false` printed nothing: its output, its end and the next prompt share a cell.
        (Output, 5, None),
        (Finished, 5, Some(1)),
        (Prompt, 5, None),
    ];
    // Six lines on a five-line screen: the first has scrolled into history, still line 0.
    assert_eq!(kinds_and_lines(&mut replay), expected);

    // Ten more lines scroll everything up; the marks keep their distance from the top.
    replay.feed("x\r\n".repeat(10).as_bytes());
    assert_eq!(kinds_and_lines(&mut replay), expected);
}

#[test]
fn marks_follow_reflow_and_go_with_trimmed_history() {
    use MarkKind::*;
    let mut replay = Replay::new(20, 4, 6);
    // A long output line that wraps at 20 columns and reflows at 10 and 40.
    let long = "0123456789".repeat(3);
    replay.feed(command("$ ", "cat", &[&long], 0).as_bytes());
    replay.feed(b"\x1b]133;A\x07$ ");
    let at_20 = kinds_and_lines(&mut replay);
    assert_eq!(
        at_20.iter().map(|m| (m.0, m.1)).collect::<Vec<_>>(),
        vec![
            (Prompt, 0),
            (Command, 0),
            (Output, 1),
            (Finished, 3),
            (Prompt, 3)
        ]
    );
    replay.resize(10, 4);
    let at_10: Vec<_> = kinds_and_lines(&mut replay)
        .iter()
        .map(|m| (m.0, m.1))
        .collect();
    // "$ cat" fits in 10; the output now takes three rows.
    assert_eq!(
        at_10,
        vec![
            (Prompt, 0),
            (Command, 0),
            (Output, 1),
            (Finished, 4),
            (Prompt, 4)
        ]
    );
    replay.resize(40, 4);
    // At 40 the output is one row again.
    let at_40: Vec<_> = kinds_and_lines(&mut replay)
        .iter()
        .map(|m| (m.0, m.1))
        .collect();
    assert_eq!(
        at_40,
        vec![
            (Prompt, 0),
            (Command, 0),
            (Output, 1),
            (Finished, 2),
            (Prompt, 2)
        ]
    );

    // History of 6 lines: 20 more lines push the first command out, and its marks with it.
    replay.feed("y\r\n".repeat(20).as_bytes());
    assert!(
        marks(replay.term_mut()).is_empty(),
        "trimmed history takes its marks with it"
    );
}

#[test]
fn the_json_dump_reports_marks_and_the_last_output_is_found() {
    let mut replay = Replay::new(30, 6, 100);
    replay.feed(command("$ ", "seq 2", &["1", "2"], 0).as_bytes());
    replay.feed(command("$ ", "boom", &["oops"], 2).as_bytes());
    replay.feed(b"\x1b]133;A\x07$ ");
    let dump: serde_json::Value =
        serde_json::from_str(&replay.dump(DumpFormat::Json, true)).expect("valid JSON");
    let marks = dump["marks"].as_array().expect("marks");
    let kinds: String = marks.iter().map(|m| m["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, "ABCDABCDA");
    assert_eq!(marks[3]["line"], 3);
    assert_eq!(marks[3]["status"], 0);
    assert_eq!(marks[7]["status"], 2);
    assert!(marks[0].get("status").is_none());
}

/// Only a mark the shell sent is a mark: an OSC 8 link cannot pose as one, and a mark does not
/// take the place of a program's link.
#[test]
fn links_and_marks_stay_apart() {
    let mut replay = Replay::new(30, 4, 10);
    replay.feed(b"\x1b]8;id=\x01sluice-mark:A;https://x/\x07fake\x1b]8;;\x07\r\n");
    replay.feed(b"\x1b]133;A\x07\x1b]8;;https://y/\x07link\x1b]8;;\x07\r\n");
    assert!(marks(replay.term_mut()).is_empty());
}

/// Through a real PTY and the parser thread: the jump keys put each prompt at the top of the
/// view, in turn, and back at the bottom past the last; the last output is the last finished
/// command's.
#[test]
fn prompts_are_jumped_to_and_the_last_output_is_copied() {
    // Three commands of 12 output lines each on a 6-row screen, then a prompt.
    let script = r#"for n in 1 2 3; do
  printf '\033]133;A\007$ \033]133;B\007cmd%s\r\n\033]133;C\007' $n
  for i in $(seq 12); do printf 'out%s.%s\r\n' $n $i; done
  printf '\033]133;D;0\007'
done
printf '\033]133;A\007$ done'; sleep 30"#;
    let mut s = Harness::start(script, WinSize::cells(30, 6));
    s.wait_for(Duration::from_secs(10), |t| t.contains("$ done"))
        .expect("the script runs");
    let top_row = |s: &mut Harness| {
        s.terminal.update_snapshot(&mut s.snapshot);
        s.snapshot.row_text(0).trim_end().to_owned()
    };
    assert!(s.terminal.scroll_to_prompt(Direction::Left));
    assert_eq!(top_row(&mut s), "$ cmd3");
    assert!(s.terminal.scroll_to_prompt(Direction::Left));
    assert_eq!(top_row(&mut s), "$ cmd2");
    assert!(s.terminal.scroll_to_prompt(Direction::Left));
    assert_eq!(top_row(&mut s), "$ cmd1");
    assert!(
        !s.terminal.scroll_to_prompt(Direction::Left),
        "no prompt above the first"
    );
    assert!(s.terminal.scroll_to_prompt(Direction::Right));
    assert_eq!(top_row(&mut s), "$ cmd2");
    assert!(s.terminal.scroll_to_prompt(Direction::Right));
    assert_eq!(top_row(&mut s), "$ cmd3");
    // The last prompt is on the screen's bottom line, as far down as the view goes.
    assert!(s.terminal.scroll_to_prompt(Direction::Right));
    top_row(&mut s);
    assert_eq!(s.snapshot.display_offset, 0, "the bottom");

    let expected: Vec<String> = (1..=12).map(|i| format!("out3.{i}")).collect();
    assert_eq!(
        s.terminal.last_output_text().as_deref(),
        Some(expected.join("\n").as_str())
    );
}

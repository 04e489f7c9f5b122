//! In a flood the reader yields its CPU rather than sleep when it catches up with the kernel,
//! and a build's trickle of log lines never makes it yield: real PTYs and real programs, every
//! byte checked.

mod common;

use common::{read_all, spawn, trickle_output, trickle_script};

#[test]
fn a_flood_is_read_whole_with_the_reader_yielding() {
    // Raw, in big writes: the kernel passes it as fast as it can. The reader yields only when
    // it catches up with the kernel, which a machine too busy to let it may never do in one
    // run: three runs to see it once.
    const BYTES: usize = 32 << 20;
    const RUNS: usize = 3;
    let script = format!("stty raw -echo && exec head -c {BYTES} /dev/zero");
    let mut seen = Vec::new();
    for _ in 0..RUNS {
        let (pty, mut ring) = spawn(&script);
        let received = read_all(&mut ring, BYTES);
        assert!(received.iter().all(|&b| b == 0), "the flood came whole");
        let stats = pty.stats().snapshot();
        if stats.flood_yields > 0 {
            return;
        }
        seen.push(stats.reads);
    }
    panic!("no yield in {RUNS} floods of {BYTES} bytes (reads: {seen:?})");
}

#[test]
fn a_trickle_of_log_lines_never_makes_the_reader_yield() {
    // 100-byte lines 100 µs apart, each written on its own, about as often as a build logs.
    const LINES: usize = 3_000;
    let script = trickle_script(LINES);
    let expected = trickle_output(LINES);
    let (pty, mut ring) = spawn(&script);
    let received = read_all(&mut ring, expected.len());
    assert!(received == expected, "the lines came whole and in order");
    let stats = pty.stats().snapshot();
    assert_eq!(
        stats.flood_yields, 0,
        "{} reads of {LINES} lines: a trickle must not cost a spinning CPU",
        stats.reads
    );
}

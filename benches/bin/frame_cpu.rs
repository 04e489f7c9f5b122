//! `frame-cpu`: CPU time per frame on the main thread and for the whole process (lavapipe
//! rasterises on threads of its own), for each kind of change, with ratios against the
//! one-row change measured in the same run.
//!
//! Usage: `frame-cpu [FRAMES] [gpu|software] [CHANGE]`   (default 200 per scenario, on the
//! default GPU adapter, every change; medians over rounds of 10 frames; CHANGE is one of the
//! names printed, e.g. `log_page`, to profile one alone). With `software` the frames are
//! drawn by the software renderer, into memory: what a window adds to show them is not
//! included, and the share of glyphs copied from a glyph tile is printed for each size.

use sluice_benches::frames::{Change, FrameBench};
use sluice_benches::measure::{cpu_time, median};

fn main() {
    let frames: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(200);
    let software = match std::env::args().nth(2).as_deref() {
        None | Some("gpu") => false,
        Some("software") => true,
        Some(other) => {
            eprintln!("frame-cpu: {other:?} is neither gpu nor software");
            std::process::exit(2);
        }
    };
    println!(
        "{:<10} {:<12} {:>12} {:>12} {:>10} {:>8} {:>8}",
        "size", "change", "main_ms", "process_ms", "rows", "quads", "x_1row"
    );
    for (cols, rows) in [(160u16, 50u16), (300, 80)] {
        let mut bench = FrameBench::new(cols, rows, software);
        let mut one_row_main = None;
        let only = std::env::args().nth(3);
        for change in Change::ALL
            .into_iter()
            .filter(|c| only.as_deref().is_none_or(|name| name == c.name()))
        {
            let n = if matches!(change, Change::Full | Change::Page) {
                frames / 4
            } else {
                frames
            }
            .max(10);
            for _ in 0..10 {
                bench.step(change);
                bench.gpu.wait_idle();
            }
            let (mut main, mut process, mut drawn, mut quads) = (Vec::new(), Vec::new(), 0, 0);
            // Rounds of 10 frames: the process clock's resolution is too coarse per frame. Only
            // the frame is timed (snapshot copy, render, GPU work), not the parsing that the
            // parser thread does between frames.
            for _ in 0..n / 10 {
                let (mut main_s, mut process_s) = (0.0, 0.0);
                for _ in 0..10 {
                    bench.change(change);
                    let (t0, p0) = (cpu_time(false), cpu_time(true));
                    let report = bench.frame();
                    (drawn, quads) = (drawn + report.rows_drawn, quads + report.quads);
                    bench.gpu.wait_idle();
                    main_s += cpu_time(false) - t0;
                    process_s += cpu_time(true) - p0;
                }
                main.push(main_s / 10.0);
                process.push(process_s / 10.0);
            }
            let (main, process) = (median(main) * 1e3, median(process) * 1e3);
            let base = *one_row_main.get_or_insert(main);
            println!(
                "{:<10} {:<12} {:>12.3} {:>12.3} {:>10.1} {:>8.0} {:>8.2}",
                format!("{cols}x{rows}"),
                change.name(),
                main,
                process,
                drawn as f64 / (n / 10 * 10) as f64,
                quads as f64 / (n / 10 * 10) as f64,
                main / base
            );
        }
        if let Some((used, missed)) = bench.gpu.renderer.glyph_tiles() {
            let share = used as f64 / (used + missed).max(1) as f64;
            println!(
                "{:<10} glyph tiles found for {:.1}% of the masks over a plain background",
                format!("{cols}x{rows}"),
                share * 100.0
            );
        }
    }
}

//! Frame scenarios for the renderer benchmarks: a screen of text, then per frame one of
//! three kinds of change, rendered offscreen on the default adapter or by the software
//! renderer.

use sluice_render::{FontConfig, FrameReport, Offscreen};
use sluice_term::{Replay, Snapshot};

/// What changes between two frames.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// A Metro-style status line redrawn in place: one row.
    OneRow,
    /// One new line at the bottom: the screen scrolls by one.
    Scroll,
    /// Every row drawn again (what a renderer without damage tracking does every frame).
    Full,
    /// A build's log scrolling by faster than the screen: one and a half screens of short
    /// lines (a module each, as `metro-sim --log-every 1` logs them) since the last frame, so
    /// every row is copied out of the terminal and drawn again. What each frame of a
    /// Metro-like build is at 200×60 (~95 lines a frame at 60 Hz; docs/performance.md,
    /// "Frames of a build's log").
    Page,
}

impl Change {
    pub const ALL: [Change; 4] = [Change::OneRow, Change::Scroll, Change::Full, Change::Page];

    pub fn name(self) -> &'static str {
        match self {
            Change::OneRow => "one_row",
            Change::Scroll => "scroll",
            Change::Full => "full_redraw",
            Change::Page => "log_page",
        }
    }
}

/// A terminal full of coloured text and a renderer that has drawn it once.
pub struct FrameBench {
    pub gpu: Offscreen,
    replay: Replay,
    snapshot: Snapshot,
    frame: usize,
    rows: usize,
}

impl FrameBench {
    /// On the default GPU adapter, or with the software renderer when `software`.
    pub fn new(cols: u16, rows: u16, software: bool) -> Self {
        let fonts = FontConfig::default();
        let gpu = if software {
            Offscreen::software(&fonts).expect("the software renderer")
        } else {
            Offscreen::new(&fonts).expect("a GPU adapter")
        };
        let mut replay = Replay::new(cols, rows, 1000);
        let screen =
            crate::payload("color", cols as usize * rows as usize * 3).expect("known payload");
        replay.feed(&screen);
        let mut bench = Self {
            gpu,
            replay,
            snapshot: Snapshot::default(),
            frame: 0,
            rows: rows.into(),
        };
        bench.step(Change::Full);
        bench.gpu.wait_idle();
        bench
    }

    /// Applies one change and renders it (without waiting for the GPU).
    pub fn step(&mut self, change: Change) -> FrameReport {
        self.change(change);
        self.frame()
    }

    /// What the parser thread would do: feed the change into the terminal.
    pub fn change(&mut self, change: Change) {
        self.frame += 1;
        let i = self.frame;
        match change {
            Change::OneRow => self.replay.feed(
                format!(
                    "\r\x1b[2K\x1b[42;30m BUNDLE \x1b[0m index.js {:5.1}% ({i}/7317)",
                    i as f64 % 100.0
                )
                .as_bytes(),
            ),
            Change::Scroll => self.replay.feed(
                format!("\r\n{i:08} INFO transform module resolve cache worker asset graph")
                    .as_bytes(),
            ),
            Change::Full => self.gpu.view.invalidate(),
            Change::Page => {
                let lines = self.rows * 3 / 2;
                let mut log = String::new();
                for n in 0..lines {
                    let module = i * lines + n;
                    log.push_str(&format!(
                        "\r\n transform node_modules/pkg/module-{module:05}.js"
                    ));
                }
                self.replay.feed(log.as_bytes());
            }
        }
    }

    /// What the UI thread does at a frame: copy what changed, then render it.
    pub fn frame(&mut self) -> FrameReport {
        self.replay.update_snapshot(&mut self.snapshot);
        self.gpu.render(&mut self.snapshot)
    }
}

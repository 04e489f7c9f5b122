//! A terminal on a real PTY running `sh -c SCRIPT`, polled as a renderer would poll it.

#![allow(dead_code)] // Each test file uses its own part of this.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use sluice_pty::{Pty, PtyOptions, WinSize};
use sluice_term::{Snapshot, Terminal, TerminalOptions};

pub struct Harness {
    pub pty: Pty,
    pub terminal: Terminal,
    pub snapshot: Snapshot,
    pub wakes: Arc<AtomicUsize>,
}

impl Harness {
    pub fn start(script: &str, size: WinSize) -> Harness {
        let options = PtyOptions {
            command: Some(vec!["sh".into(), "-c".into(), script.into()]),
            size,
            ..PtyOptions::default()
        };
        let wakes = Arc::new(AtomicUsize::new(0));
        let counter = wakes.clone();
        let sluice_term::Session { terminal, pty } = sluice_term::Session::start(
            &options,
            TerminalOptions::default(),
            Arc::new(move || {
                counter.fetch_add(1, Ordering::Relaxed);
            }),
        )
        .expect("start sh and its terminal");
        Harness {
            pty,
            terminal,
            snapshot: Snapshot::default(),
            wakes,
        }
    }

    pub fn screen(&mut self) -> String {
        self.terminal.update_snapshot(&mut self.snapshot);
        (0..self.snapshot.rows)
            .map(|r| self.snapshot.row_text(r))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Polls the snapshot, as a renderer would, until `done` holds or `timeout` passes.
    pub fn wait_for(
        &mut self,
        timeout: Duration,
        done: impl Fn(&str) -> bool,
    ) -> Result<String, String> {
        let deadline = Instant::now() + timeout;
        loop {
            let screen = self.screen();
            if done(&screen) {
                return Ok(screen);
            }
            if Instant::now() > deadline {
                return Err(screen);
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

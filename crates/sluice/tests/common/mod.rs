//! Helpers for driving the real `sluice` binary in headless mode.

#![allow(dead_code)]

use std::process::{Command, Output};

/// The outcome of one headless run.
pub struct Run {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// The `--stats` line, parsed.
    pub fn stats(&self) -> serde_json::Value {
        let line = self
            .stderr
            .lines()
            .rev()
            .find(|l| l.starts_with('{'))
            .expect("a --stats line on stderr");
        serde_json::from_str(line).expect("--stats prints JSON")
    }
}

fn finish(output: Output) -> Run {
    let run = finish_allowing_panic(output);
    assert!(
        !run.stderr.contains("panicked"),
        "sluice panicked:\n{}",
        run.stderr
    );
    run
}

fn finish_allowing_panic(output: Output) -> Run {
    Run {
        code: output.status.code(),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

fn headless(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sluice"))
        .arg("--headless")
        .args(args)
        // No configuration file but the one a test passes: the defaults are what is tested.
        .env("XDG_CONFIG_HOME", "/nonexistent/sluice-tests")
        .output()
        .expect("sluice runs")
}

/// Runs `sluice --headless ARGS…`; fails the test if anything in it panicked.
pub fn sluice(args: &[&str]) -> Run {
    finish(headless(args))
}

/// Runs `sluice --headless ARGS…`, for tests of panics that must be contained.
pub fn sluice_allowing_panic(args: &[&str]) -> Run {
    finish_allowing_panic(headless(args))
}

/// Runs `sluice --headless OPTIONS -e sh -c SCRIPT`.
pub fn sh(options: &[&str], script: &str) -> Run {
    let mut args = options.to_vec();
    args.extend(["-e", "sh", "-c", script]);
    sluice(&args)
}

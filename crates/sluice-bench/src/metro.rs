//! `sluice-bench metro-sim`: a stand-in for a bundler's dev server (React Native's Metro).
//!
//! Its main thread works through N modules, busy for most of the time as a real build is;
//! every 100 ms it redraws a progress status as three writes (cursor up, clear the line, the
//! status), the way Metro's reporter does, and optionally logs a line every K modules. It
//! times every write: in a fast terminal they are nearly free, behind a slow or stalled one
//! the build waits inside them. Run it under `sluice-bench reader`, or inside a terminal.

use std::io::Write;
use std::time::{Duration, Instant};

use serde::Serialize;

/// The status is redrawn this often, as Metro's reporter throttles it.
pub const STATUS_INTERVAL: Duration = Duration::from_millis(100);

/// Metro's module count in the measured warm build (a React Native app's bundle).
pub const WARM_MODULES: usize = 7316;

/// A build to simulate.
#[derive(Debug, Clone, Copy)]
pub struct Build {
    pub modules: usize,
    /// How long the build takes with a free terminal.
    pub duration: Duration,
    /// The share of that time the main thread is busy (the rest it waits on workers).
    pub busy: f64,
    /// Log one line every this many modules.
    pub log_every: Option<usize>,
}

impl Build {
    /// A warm build: 7,316 modules in about 1.2 s, main thread 97% busy (measured on Metro).
    pub fn warm(modules: usize, log_every: Option<usize>) -> Self {
        Self {
            modules,
            duration: Duration::from_millis(1200),
            busy: 0.97,
            log_every,
        }
    }

    /// A cold build: about 10 s, main thread 57% busy.
    pub fn cold(modules: usize, log_every: Option<usize>) -> Self {
        Self {
            modules,
            duration: Duration::from_secs(10),
            busy: 0.57,
            log_every,
        }
    }

    /// Busy and idle time per module.
    pub fn per_module(&self) -> (Duration, Duration) {
        let per = self.duration.div_f64(self.modules.max(1) as f64);
        (per.mul_f64(self.busy), per.mul_f64(1.0 - self.busy))
    }
}

/// What the build measured.
#[derive(Debug, Clone, Default, Serialize)]
pub struct BuildReport {
    pub build_seconds: f64,
    pub writes: u64,
    pub write_seconds: f64,
    pub longest_write_ms: f64,
    pub status_updates: u64,
    pub log_lines: u64,
}

fn timed_write(
    out: &mut impl Write,
    bytes: &[u8],
    report: &mut BuildReport,
) -> std::io::Result<()> {
    let t = Instant::now();
    out.write_all(bytes)?;
    out.flush()?;
    let spent = t.elapsed();
    report.writes += 1;
    report.write_seconds += spent.as_secs_f64();
    report.longest_write_ms = report.longest_write_ms.max(spent.as_secs_f64() * 1e3);
    Ok(())
}

/// Keeps the CPU busy for `length`, as transforming a module does.
fn spin(length: Duration) {
    let until = Instant::now() + length;
    while Instant::now() < until {
        std::hint::spin_loop();
    }
}

/// The line logged for `module`: up a row to the line the status left free, clear it, the
/// line, then down past the status's row (which the next status redraw takes back).
pub fn log_line(module: usize) -> String {
    format!("\x1b[1A\r\x1b[2K transform node_modules/pkg/module-{module:05}.js\n\n")
}

/// The status after `module` of `modules`, as the three writes Metro's reporter makes: cursor
/// up, clear the line, the status and its line end.
pub fn status_writes(module: usize, modules: usize) -> [String; 3] {
    let percent = module as f64 * 100.0 / modules as f64;
    let filled = module * 16 / modules;
    let status = format!(
        " \x1b[42;30m BUNDLE \x1b[0m index.js \x1b[32m{}{}\x1b[0m {percent:5.1}% ({module}/{modules})",
        "█".repeat(filled),
        "░".repeat(16 - filled),
    );
    [
        "\x1b[1A".to_owned(),
        "\r\x1b[2K".to_owned(),
        format!("{status}\n"),
    ]
}

/// A build's whole output without its timing: every module logged, a status after every
/// `status_every` of them and at the end, as `run` writes for `log_every` 1 (what a parser
/// benchmark replays).
pub fn output(modules: usize, status_every: usize) -> Vec<u8> {
    let mut out = b"\n".to_vec();
    for module in 1..=modules {
        out.extend_from_slice(log_line(module).as_bytes());
        if module % status_every.max(1) == 0 || module == modules {
            for part in status_writes(module, modules) {
                out.extend_from_slice(part.as_bytes());
            }
        }
    }
    out
}

/// Runs the build, writing its output to `out`.
pub fn run(build: &Build, out: &mut impl Write) -> std::io::Result<BuildReport> {
    let mut report = BuildReport::default();
    let (busy, idle) = build.per_module();
    let started = Instant::now();
    let mut last_status = started;
    let mut idle_debt = Duration::ZERO;
    timed_write(out, b"\n", &mut report)?;
    for module in 1..=build.modules {
        spin(busy);
        // Sleeping in tiny slices costs more than it waits; pay idle time in whole milliseconds.
        idle_debt += idle;
        if idle_debt >= Duration::from_millis(1) {
            std::thread::sleep(idle_debt);
            idle_debt = Duration::ZERO;
        }
        if build.log_every.is_some_and(|k| module % k.max(1) == 0) {
            timed_write(out, log_line(module).as_bytes(), &mut report)?;
            report.log_lines += 1;
        }
        if last_status.elapsed() >= STATUS_INTERVAL || module == build.modules {
            last_status = Instant::now();
            for part in status_writes(module, build.modules) {
                timed_write(out, part.as_bytes(), &mut report)?;
            }
            report.status_updates += 1;
        }
    }
    report.build_seconds = started.elapsed().as_secs_f64();
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_module_time_adds_up_to_the_build() {
        let build = Build::warm(7316, None);
        let (busy, idle) = build.per_module();
        let total = (busy + idle).mul_f64(7316.0);
        assert!((total.as_secs_f64() - 1.2).abs() < 1e-3);
        assert!((busy.as_secs_f64() / (busy + idle).as_secs_f64() - 0.97).abs() < 1e-4);
    }

    #[test]
    fn the_untimed_output_logs_every_module_and_a_status_every_so_often() {
        let text = String::from_utf8(output(300, 100)).unwrap();
        assert_eq!(text.matches(" transform ").count(), 300);
        assert!(
            text.starts_with("\n\x1b[1A\r\x1b[2K transform node_modules/pkg/module-00001.js\n\n")
        );
        assert_eq!(text.matches(" BUNDLE ").count(), 3);
        assert!(text.ends_with("(300/300)\n"), "{text:?}");
        // A last status when the count is not a multiple.
        let text = String::from_utf8(output(250, 100)).unwrap();
        assert_eq!(text.matches(" BUNDLE ").count(), 3);
    }

    #[test]
    fn a_short_build_writes_statuses_as_three_writes_and_its_log_lines() {
        let build = Build {
            modules: 300,
            duration: Duration::from_millis(350),
            busy: 0.5,
            log_every: Some(100),
        };
        let mut sink = Vec::new();
        let report = run(&build, &mut sink).unwrap();
        // ~350 ms at one status per 100 ms, plus the final one.
        assert!((3..=5).contains(&report.status_updates), "{report:?}");
        assert_eq!(report.log_lines, 3);
        assert_eq!(
            report.writes,
            1 + 3 * report.status_updates + report.log_lines
        );
        assert!(
            report.build_seconds >= 0.35 && report.build_seconds < 1.5,
            "{report:?}"
        );
        let text = String::from_utf8(sink).unwrap();
        assert!(text.contains("(300/300)"));
    }
}

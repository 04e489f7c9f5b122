//! What `/proc` says about a terminal's process: CPU time, wake-ups, memory.

use std::path::PathBuf;

use anyhow::Context;

/// One reading of a process.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Reading {
    /// User and system time of every thread, living or gone, in seconds (not its children:
    /// the probe's own time is not the terminal's).
    pub cpu_seconds: f64,
    /// Context switches of the living threads, voluntary and not: each is a wake-up.
    pub switches: u64,
    pub rss_mib: f64,
    /// The anonymous part of the resident set (heap, stacks): what the terminal itself holds,
    /// as opposed to mapped libraries and drivers.
    pub anon_mib: f64,
    /// The resident set's high-water mark since the process started.
    pub peak_mib: f64,
}

/// Reads process `pid` now.
pub fn read(pid: u32) -> anyhow::Result<Reading> {
    let dir = PathBuf::from(format!("/proc/{pid}"));
    let stat = std::fs::read_to_string(dir.join("stat"))
        .with_context(|| format!("process {pid} is gone"))?;
    let status = std::fs::read_to_string(dir.join("status"))?;
    let mut switches = 0;
    if let Ok(tasks) = std::fs::read_dir(dir.join("task")) {
        for task in tasks.flatten() {
            if let Ok(s) = std::fs::read_to_string(task.path().join("status")) {
                switches += kib(&s, "voluntary_ctxt_switches:").unwrap_or(0)
                    + kib(&s, "nonvoluntary_ctxt_switches:").unwrap_or(0);
            }
        }
    }
    Ok(Reading {
        cpu_seconds: cpu_ticks(&stat).context("malformed /proc stat")? as f64 / clock_ticks(),
        switches,
        rss_mib: kib(&status, "VmRSS:").unwrap_or(0) as f64 / 1024.0,
        anon_mib: kib(&status, "RssAnon:").unwrap_or(0) as f64 / 1024.0,
        peak_mib: kib(&status, "VmHWM:").unwrap_or(0) as f64 / 1024.0,
    })
}

/// utime + stime from a `/proc/PID/stat` line. The command name (field 2) may hold spaces
/// and parentheses, so fields are counted from its closing parenthesis.
fn cpu_ticks(stat: &str) -> Option<u64> {
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // After the name: state is field 3, utime field 14 and stime field 15.
    let utime: u64 = fields.get(14 - 3)?.parse().ok()?;
    let stime: u64 = fields.get(15 - 3)?.parse().ok()?;
    Some(utime + stime)
}

/// The number on the line of `/proc/PID/status` that starts with `key`.
fn kib(status: &str, key: &str) -> Option<u64> {
    let line = status.lines().find(|l| l.starts_with(key))?;
    line[key.len()..].split_whitespace().next()?.parse().ok()
}

fn clock_ticks() -> f64 {
    // SAFETY: sysconf only reads a system constant.
    let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    if ticks > 0 { ticks as f64 } else { 100.0 }
}

/// The 1-minute load average, recorded with every run so a noisy one can be told apart.
pub fn load_average() -> f64 {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(f64::NAN)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_counted_after_the_name_whatever_it_holds() {
        let stat = "1234 (a (weird) name) S 1 2 3 4 5 6 7 8 9 10 250 50 0 0 20 0 4 0";
        assert_eq!(cpu_ticks(stat), Some(300));
        assert_eq!(cpu_ticks("garbage"), None);
        let status = "Name:\tx\nVmHWM:\t  2048 kB\nVmRSS:\t  1024 kB\nRssAnon:\t 512 kB\n";
        assert_eq!(kib(status, "VmRSS:"), Some(1024));
        assert_eq!(kib(status, "VmSwap:"), None);
    }

    #[test]
    fn this_process_reads_as_alive_and_using_memory() {
        let busy = std::time::Instant::now();
        while busy.elapsed() < std::time::Duration::from_millis(50) {
            std::hint::black_box(0);
        }
        let r = read(std::process::id()).unwrap();
        assert!(
            r.cpu_seconds > 0.0 && r.rss_mib > 0.0 && r.peak_mib >= r.rss_mib,
            "{r:?}"
        );
        assert!(r.switches > 0 && r.anon_mib > 0.0, "{r:?}");
        assert!(load_average() >= 0.0);
    }
}

//! What the benchmark binaries measure with: CPU clocks and medians.

/// CPU time of the calling thread, or of the whole process, in seconds.
pub fn cpu_time(process: bool) -> f64 {
    let clock = if process {
        libc::CLOCK_PROCESS_CPUTIME_ID
    } else {
        libc::CLOCK_THREAD_CPUTIME_ID
    };
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes into a valid timespec.
    unsafe { libc::clock_gettime(clock, &mut ts) };
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

/// The median of `samples` (the upper one of the middle two for an even count).
pub fn median(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

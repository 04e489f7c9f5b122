//! Small shared arithmetic for reports.

use std::time::Duration;

/// Megabytes (10⁶ bytes) per second.
pub fn mb_per_s(bytes: u64, elapsed: Duration) -> f64 {
    let secs = elapsed.as_secs_f64();
    if secs > 0.0 {
        bytes as f64 / 1e6 / secs
    } else {
        f64::INFINITY
    }
}

/// Byte counts with K/M/G suffixes, shared with `sluice --read-ahead`.
pub use sluice_pty::parse_bytes;

/// Parses seconds as a decimal number, e.g. `0.5`.
pub fn parse_seconds(s: &str) -> Result<Duration, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(Duration::from_secs_f64(v)),
        _ => Err(format!("{s:?} is not a number of seconds")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_counts() {
        assert_eq!(parse_bytes("4096"), Ok(4096));
        assert_eq!(parse_bytes("64K"), Ok(65536));
        assert_eq!(parse_bytes("16m"), Ok(16 << 20));
        assert!(parse_bytes("0").is_err());
        assert!(parse_bytes("x").is_err());
        assert!(parse_bytes("-5").is_err());
    }

    #[test]
    fn rates() {
        assert_eq!(mb_per_s(10_000_000, Duration::from_secs(2)), 5.0);
        assert_eq!(parse_seconds("1.5"), Ok(Duration::from_millis(1500)));
        assert!(parse_seconds("-1").is_err());
    }
}

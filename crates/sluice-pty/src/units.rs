//! Byte counts as people type them.

/// Parses a byte count with an optional K/M/G suffix (powers of 1024), e.g. `64M`.
pub fn parse_bytes(s: &str) -> Result<u64, String> {
    let s = s.trim();
    let (digits, multiplier) = match s.char_indices().last() {
        Some((i, 'k' | 'K')) => (&s[..i], 1 << 10),
        Some((i, 'm' | 'M')) => (&s[..i], 1 << 20),
        Some((i, 'g' | 'G')) => (&s[..i], 1 << 30),
        _ => (s, 1),
    };
    digits
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(multiplier))
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("{s:?} is not a byte count (for example 4096, 64K, 16M)"))
}

/// The largest read-ahead allowed: half of this machine's physical memory (the ring is
/// allocated whole at start). Larger, the allocation could abort the process, and a ring
/// that outgrew memory would swap rather than help.
pub fn max_read_ahead() -> u64 {
    // SAFETY: sysconf has no preconditions.
    let (pages, page) = unsafe {
        (
            libc::sysconf(libc::_SC_PHYS_PAGES),
            libc::sysconf(libc::_SC_PAGESIZE),
        )
    };
    if pages <= 0 || page <= 0 {
        // Unknown: a size any machine that runs a desktop has.
        return 1 << 30;
    }
    (pages as u64).saturating_mul(page as u64) / 2
}

/// What to say about a read-ahead of `bytes` over [`max_read_ahead`].
pub fn read_ahead_too_large(bytes: u64) -> String {
    let gib = |b: u64| b as f64 / (1u64 << 30) as f64;
    format!(
        "a read-ahead of {:.1} GiB is more than half of this machine's memory (at most {:.1} GiB)",
        gib(bytes),
        gib(max_read_ahead())
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suffixes_are_powers_of_1024() {
        assert_eq!(parse_bytes("4096"), Ok(4096));
        assert_eq!(parse_bytes("64K"), Ok(65536));
        assert_eq!(parse_bytes("16m"), Ok(16 << 20));
        assert_eq!(parse_bytes("1G"), Ok(1 << 30));
        assert!(parse_bytes("0").is_err());
        assert!(parse_bytes("12X").is_err());
        assert!(parse_bytes("").is_err());
    }

    #[test]
    fn the_read_ahead_limit_is_half_of_memory() {
        let limit = max_read_ahead();
        assert!(limit >= 64 << 20, "{limit}");
        assert!(read_ahead_too_large(limit * 4).contains("more than half"));
    }
}

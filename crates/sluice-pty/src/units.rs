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
}

//! The driver and the probe talk in lines of text over a Unix socket; times are
//! `CLOCK_MONOTONIC` nanoseconds, which both processes read from the same clock.

use anyhow::bail;

/// Nanoseconds of `CLOCK_MONOTONIC`, comparable between processes on one machine (unlike
/// `Instant`, which cannot leave its process).
pub fn monotonic_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid timespec for clock_gettime to fill.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

/// What the probe tells the driver.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Message {
    /// The probe runs in a terminal of this many rows.
    Ready { rows: u16 },
    /// A byte of input was read at this time.
    Key { ns: u64 },
    /// The marker was written at this time.
    Painted { ns: u64 },
}

impl Message {
    pub fn parse(line: &str) -> anyhow::Result<Message> {
        let mut words = line.split_whitespace();
        let (Some(kind), Some(value)) = (words.next(), words.next()) else {
            bail!("malformed message from the probe: {line:?}");
        };
        Ok(match kind {
            "ready" => Message::Ready {
                rows: value.parse()?,
            },
            "key" => Message::Key { ns: value.parse()? },
            "painted" => Message::Painted { ns: value.parse()? },
            _ => bail!("unknown message from the probe: {line:?}"),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_round_trip() {
        assert_eq!(
            Message::parse("ready 24\n").unwrap(),
            Message::Ready { rows: 24 }
        );
        assert_eq!(Message::parse("key 17").unwrap(), Message::Key { ns: 17 });
        assert_eq!(
            Message::parse("painted 5\n").unwrap(),
            Message::Painted { ns: 5 }
        );
        assert!(Message::parse("bogus 1").is_err());
        assert!(Message::parse("key").is_err());
        let (a, b) = (monotonic_ns(), monotonic_ns());
        assert!(b >= a && a > 0);
    }
}

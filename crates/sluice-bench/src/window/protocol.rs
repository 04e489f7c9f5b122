//! The driver and the probe talk in lines of text over a Unix socket; times are
//! `CLOCK_MONOTONIC` nanoseconds, which both processes read from the same clock.

use anyhow::bail;

use crate::write::ProgramTime;

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

/// The colour the probe paints its marker row in as soon as it starts, before it says it is
/// ready: the driver times start-up to the first frame by it. Unlike either of the sampled
/// colours, so the first sample cannot be mistaken for it.
pub const START_MARK: [u8; 3] = [0xff, 0xff, 0x00];

/// What the probe tells the driver.
#[derive(Debug, Clone, PartialEq)]
pub enum Message {
    /// The probe runs in a terminal of this many rows.
    Ready { rows: u16 },
    /// A byte of input was read at this time.
    Key { ns: u64 },
    /// The marker was written at this time.
    Painted { ns: u64 },
    /// A payload (`write NAME BYTES`) was written: this many bytes (whole records), in writes
    /// that took this long in all, the longest one this long, and where the writing thread's
    /// time went meanwhile.
    Wrote {
        bytes: u64,
        seconds: f64,
        longest_ms: f64,
        program: ProgramTime,
    },
    /// A Metro-like build (`build`) took this long.
    Built { seconds: f64 },
}

/// A message as the probe sends it, one line without its newline: what [`Message::parse`]
/// reads back, so that the line's fields are defined in one place.
impl std::fmt::Display for Message {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Message::Ready { rows } => write!(f, "ready {rows}"),
            Message::Key { ns } => write!(f, "key {ns}"),
            Message::Painted { ns } => write!(f, "painted {ns}"),
            Message::Wrote {
                bytes,
                seconds,
                longest_ms,
                program: p,
            } => write!(
                f,
                "wrote {bytes} {seconds} {longest_ms} {} {} {} {}",
                p.user_ms, p.system_ms, p.waits, p.preemptions
            ),
            Message::Built { seconds } => write!(f, "built {seconds}"),
        }
    }
}

impl Message {
    pub fn parse(line: &str) -> anyhow::Result<Message> {
        let mut words = line.split_whitespace();
        let (Some(kind), Some(value)) = (words.next(), words.next()) else {
            bail!("malformed message from the probe: {line:?}");
        };
        let mut number = |what: &str| -> anyhow::Result<f64> {
            match words.next().map(str::parse::<f64>) {
                Some(Ok(v)) if v.is_finite() => Ok(v),
                _ => bail!("{what} missing from the probe's {line:?}"),
            }
        };
        Ok(match kind {
            "wrote" => Message::Wrote {
                bytes: value.parse()?,
                seconds: number("the write time")?,
                longest_ms: number("the longest write")?,
                program: ProgramTime {
                    user_ms: number("the writer's user time")?,
                    system_ms: number("the writer's system time")?,
                    waits: number("the writer's waits")? as u64,
                    preemptions: number("the writer's preemptions")? as u64,
                },
            },
            "built" => Message::Built {
                seconds: value.parse()?,
            },
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
        assert_eq!(
            Message::parse("wrote 1000 0.5 12.25 1.5 40.25 7 3\n").unwrap(),
            Message::Wrote {
                bytes: 1000,
                seconds: 0.5,
                longest_ms: 12.25,
                program: ProgramTime {
                    user_ms: 1.5,
                    system_ms: 40.25,
                    waits: 7,
                    preemptions: 3
                }
            }
        );
        assert_eq!(
            Message::parse("built 1.25").unwrap(),
            Message::Built { seconds: 1.25 }
        );
        // What the probe sends is what the driver reads.
        for message in [
            Message::Ready { rows: 30 },
            Message::Key { ns: 42 },
            Message::Painted { ns: 7 },
            Message::Wrote {
                bytes: 16_000_100,
                seconds: 0.125,
                longest_ms: 3.5,
                program: ProgramTime {
                    user_ms: 0.25,
                    system_ms: 81.5,
                    waits: 600,
                    preemptions: 408,
                },
            },
            Message::Built { seconds: 1.3 },
        ] {
            assert_eq!(Message::parse(&message.to_string()).unwrap(), message);
        }
        assert!(Message::parse("wrote 1000 0.5").is_err());
        assert!(Message::parse("wrote 1000 0.5 12.25 1.5 40.25 7").is_err());
        assert!(Message::parse("bogus 1").is_err());
        assert!(Message::parse("key").is_err());
        let (a, b) = (monotonic_ns(), monotonic_ns());
        assert!(b >= a && a > 0);
    }
}

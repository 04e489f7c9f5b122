//! What the feed looks at before vte does: OSC strings, which it caps, and the few sequences
//! that ask for much more work than they have bytes, after which parsing may pause.
//!
//! vte 0.15 (std) buffers an OSC string until it is terminated, with no cap: output alone grew
//! it by hundreds of MB (FINDINGS.md). So the feed holds each OSC string back itself, from its
//! `]` to its terminator, and hands it to vte whole once it ends; one that grows past
//! [`MAX_OSC_BYTES`] is dropped whole instead, never dispatched cut short (a truncated OSC 52
//! would put the wrong text on the clipboard, a truncated OSC 8 open the wrong link).
//!
//! REP (`CSI Pn b`, up to 65,535 characters from 8 bytes) and DECALN (`ESC # 8`, a screenful
//! from 3) end a [`Step::Pass`], so that the parser can stop between them and let go of the
//! terminal lock ([`Feeder::advance_within`](super::Feeder::advance_within)).
//!
//! This follows vte's own state machine where it matters: ESC always leads to its escape state
//! (from every state), C0 controls other than CAN and SUB leave that state as it is, `]` then
//! starts an OSC string, and BEL, CAN, SUB or ESC end it.

/// The longest OSC string passed on, in bytes (from `]` to the terminator).
///
/// The largest legitimate OSC strings are OSC 52 clipboard writes: 1 MiB carries 768 KiB of
/// text in base64, more than any clipboard copy through a terminal needs (kitty splits larger
/// ones into chunks of 4 KiB). Titles and links are capped much lower after parsing
/// (`feed::limits`).
pub const MAX_OSC_BYTES: usize = 1 << 20;

const BEL: u8 = 0x07;
const CAN: u8 = 0x18;
const SUB: u8 = 0x1a;
const ESC: u8 = 0x1b;

/// Where the stream is, as far as OSC strings go.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Not in an OSC string and not right after ESC.
    #[default]
    Scan,
    /// ESC was passed on (vte is in its escape state); a `]` now starts an OSC string.
    AfterEsc,
    /// An OSC string is being held back.
    Holding,
    /// An OSC string grew too long: it is skipped to its terminator.
    Dropping,
}

/// What an OSC string says, without its `]` and its terminator (BEL, or ESC `\`): the form
/// the feed's readers of OSC 7, 133 and 9/777/99 take it in. `None` if it is not an OSC string.
pub(crate) fn osc_body(osc: &[u8]) -> Option<&[u8]> {
    let body = osc.strip_prefix(b"]")?;
    Some(
        body.strip_suffix(b"\x07")
            .or_else(|| body.strip_suffix(b"\x1b\\"))
            .unwrap_or(body),
    )
}

/// What to do with the next bytes of the stream.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Step {
    /// Pass the first `n` bytes to vte.
    Pass(usize),
    /// The first `n` bytes were taken into the held OSC string.
    Held(usize),
    /// The first `n` bytes end the held OSC string: pass [`Prescan::take_held`] to vte.
    Release(usize),
    /// The held string grew too long: pass [`ABORT`] to vte and skip the first `n` bytes.
    Abort(usize),
    /// Skip the first `n` bytes (the rest of a dropped OSC string).
    Skip(usize),
}

/// Takes vte out of its escape state with no effect: CAN there is executed (ignored by the
/// terminal) and returns vte to ground. The ESC that preceded the dropped `]` thus does nothing.
pub(super) const ABORT: &[u8] = &[CAN];

/// The OSC string held back, and where the stream is.
#[derive(Debug, Default)]
pub(super) struct Prescan {
    state: State,
    held: Vec<u8>,
    /// OSC strings dropped for their length.
    pub(super) dropped: u64,
}

impl Prescan {
    /// Decides what to do with the start of `bytes` (not empty).
    pub(super) fn step(&mut self, bytes: &[u8]) -> Step {
        debug_assert!(!bytes.is_empty());
        match self.state {
            // Passes everything up to an ESC that may start an OSC string. Ordinary escape
            // sequences (a colour on every character) cost a look at the byte after them: a CSI
            // sequence's parameters are read only when a `b` (REP's final byte) comes before
            // the next ESC, which `b_at` (the next `b`, searched once per `b`) tells.
            State::Scan => {
                let mut escs = memchr::memchr_iter(ESC, bytes).peekable();
                let mut b_at = 0;
                while let Some(esc) = escs.next() {
                    match bytes.get(esc + 1) {
                        Some(b'[') => {
                            if b_at < esc + 2 {
                                b_at = memchr::memchr(b'b', &bytes[esc + 2..])
                                    .map_or(bytes.len(), |i| esc + 2 + i);
                            }
                            let next_esc = escs.peek().copied().unwrap_or(bytes.len());
                            if b_at < next_esc
                                && let Some(len) = rep_len(&bytes[esc + 2..])
                            {
                                return Step::Pass(esc + 2 + len);
                            }
                        }
                        Some(b'#') if bytes.get(esc + 2) == Some(&b'8') => {
                            return Step::Pass(esc + 3);
                        }
                        Some(&next) if !keeps_escape(next) => {}
                        // The end of the bytes, `]`, or a byte that leaves vte in its escape
                        // state: what comes next decides.
                        _ => {
                            self.state = State::AfterEsc;
                            return Step::Pass(esc + 1);
                        }
                    }
                }
                Step::Pass(bytes.len())
            }
            State::AfterEsc => match bytes[0] {
                b']' => {
                    self.state = State::Holding;
                    self.held.clear();
                    self.held.push(b']');
                    Step::Held(1)
                }
                b if keeps_escape(b) => Step::Pass(1),
                _ => {
                    self.state = State::Scan;
                    self.step(bytes)
                }
            },
            State::Holding => {
                let end = terminator(bytes);
                let content = end.unwrap_or(bytes.len());
                if self.held.len() + content > MAX_OSC_BYTES {
                    self.state = State::Dropping;
                    self.held = Vec::new();
                    self.dropped += 1;
                    tracing::debug!("OSC string over {MAX_OSC_BYTES} bytes dropped");
                    return Step::Abort(content);
                }
                self.held.extend_from_slice(&bytes[..content]);
                match end {
                    None => Step::Held(content),
                    Some(i) if bytes[i] == BEL => {
                        self.held.push(BEL);
                        self.state = State::Scan;
                        Step::Release(i + 1)
                    }
                    // CAN, SUB and ESC end the string and then act as they do anywhere: they
                    // are passed on after it.
                    Some(i) => {
                        self.state = State::Scan;
                        Step::Release(i)
                    }
                }
            }
            State::Dropping => match terminator(bytes) {
                None => Step::Skip(bytes.len()),
                Some(i) => {
                    self.state = State::Scan;
                    // A BEL ends the string; passed on, it would ring the bell.
                    Step::Skip(i + (bytes[i] == BEL) as usize)
                }
            },
        }
    }

    /// The OSC string just released, to pass to vte.
    pub(super) fn take_held(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.held)
    }

    /// Gives back the buffer [`take_held`](Self::take_held) returned, to keep its capacity
    /// (small strings only: a large one's memory goes back to the allocator).
    pub(super) fn recycle(&mut self, mut buffer: Vec<u8>) {
        if buffer.capacity() <= 4096 && self.held.is_empty() {
            buffer.clear();
            self.held = buffer;
        }
    }
}

/// If `params` (what follows `ESC [`) is REP's parameters and final byte, their length: REP
/// ends a pass. Ordinary CSI sequences (SGR every few words) cost a scan of their parameters.
fn rep_len(params: &[u8]) -> Option<usize> {
    // Digits, ';' and ':' then the final byte; a private marker or an intermediate makes it
    // some other sequence. Cut off by the end of the bytes, it is not known to be one.
    let end = params
        .iter()
        .position(|b| !matches!(b, b'0'..=b'9' | b';' | b':'))?;
    (params[end] == b'b').then_some(end + 1)
}

/// Whether `byte`, after ESC, leaves vte in its escape state or starts an OSC string: `]`, ESC
/// again, or a C0 control vte executes there without leaving it.
fn keeps_escape(byte: u8) -> bool {
    matches!(byte, b']' | 0x00..=0x17 | 0x19 | 0x1b..=0x1f)
}

/// Where an OSC string's terminator is in `bytes`, if there.
fn terminator(bytes: &[u8]) -> Option<usize> {
    bytes
        .iter()
        .position(|&b| matches!(b, BEL | CAN | SUB | ESC))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What vte would be given for `pieces`, fed in that order.
    fn filter(limiter: &mut Prescan, pieces: &[&[u8]]) -> Vec<u8> {
        let mut out = Vec::new();
        for piece in pieces {
            let mut rest = *piece;
            while !rest.is_empty() {
                let n = match limiter.step(rest) {
                    Step::Pass(n) => {
                        out.extend_from_slice(&rest[..n]);
                        n
                    }
                    Step::Held(n) | Step::Skip(n) => n,
                    Step::Release(n) => {
                        let held = limiter.take_held();
                        out.extend_from_slice(&held);
                        limiter.recycle(held);
                        n
                    }
                    Step::Abort(n) => {
                        out.extend_from_slice(ABORT);
                        n
                    }
                };
                rest = &rest[n..];
            }
        }
        out
    }

    #[test]
    fn short_strings_pass_whole_and_in_order() {
        let stream: &[u8] =
            b"a\x1b]0;title\x07b\x1b]8;;http://x\x1b\\link\x1b[1mc\x1b\x1b]2;t\x18d";
        let mut limiter = Prescan::default();
        assert_eq!(filter(&mut limiter, &[stream]), stream);
        // Cut anywhere, the same bytes come out.
        for cut in 0..stream.len() {
            let mut limiter = Prescan::default();
            let (a, b) = stream.split_at(cut);
            assert_eq!(filter(&mut limiter, &[a, b]), stream, "cut at {cut}");
        }
    }

    #[test]
    fn a_string_over_the_cap_is_dropped_whole() {
        let long = vec![b'x'; MAX_OSC_BYTES];
        for terminator in [&b"\x07"[..], b"\x1b\\"] {
            let mut limiter = Prescan::default();
            let out = filter(
                &mut limiter,
                &[b"a\x1b]0;", &long, &long[..10], terminator, b"after"],
            );
            let mut expected = b"a\x1b\x18".to_vec();
            if terminator != b"\x07" {
                expected.extend_from_slice(terminator);
            }
            expected.extend_from_slice(b"after");
            assert_eq!(out, expected);
            assert_eq!(limiter.dropped, 1);
        }
    }

    #[test]
    fn a_string_at_the_cap_passes() {
        let mut body = b"]52;c;".to_vec();
        body.resize(MAX_OSC_BYTES, b'A');
        let stream = [&b"\x1b"[..], &body, b"\x07"].concat();
        let mut limiter = Prescan::default();
        assert_eq!(filter(&mut limiter, &[&stream]), stream);
        assert_eq!(limiter.dropped, 0);
    }

    #[test]
    fn rep_and_decaln_end_a_pass() {
        let stream: &[u8] = b"ab\x1b[31mc\x1b[65535bd\x1b#8e\x1b[?5bf\x1b[1;2b";
        let mut prescan = Prescan::default();
        let mut passes = Vec::new();
        let mut rest = stream;
        while !rest.is_empty() {
            let Step::Pass(n) = prescan.step(rest) else {
                panic!("only passes here")
            };
            passes.push(&rest[..n]);
            rest = &rest[n..];
        }
        let expected: [&[u8]; 3] = [
            b"ab\x1b[31mc\x1b[65535b",
            b"d\x1b#8",
            b"e\x1b[?5bf\x1b[1;2b",
        ];
        assert_eq!(passes, expected);
        // A sequence cut off at the end of the bytes is not known to be one; it passes.
        assert_eq!(rep_len(b"12"), None);
        assert_eq!(rep_len(b"12;3b"), Some(5));
        assert_eq!(rep_len(b"?5b"), None);
    }

    #[test]
    fn other_escapes_are_not_held() {
        // ESC followed by anything but `]` (after C0s) is not an OSC string: a `]` later is text.
        let stream: &[u8] = b"\x1b[31m]\x1bP]x\x1b\\\x1b\x07]";
        let mut limiter = Prescan::default();
        let mut rest = stream;
        while !rest.is_empty() {
            match limiter.step(rest) {
                Step::Pass(n) => rest = &rest[n..],
                Step::Held(_) => {
                    // Only the `]` after "ESC BEL" may start one.
                    assert_eq!(rest, b"]");
                    break;
                }
                other => panic!("{other:?} at {rest:?}"),
            }
        }
    }
}

//! Desktop notifications a program asks for: OSC 9 (iTerm2's `ESC ] 9 ; text`), OSC 777
//! (urxvt's `ESC ] 777 ; notify ; title ; body`, as foot, Ghostty and WezTerm read it) and
//! OSC 99 (kitty's protocol: `ESC ] 99 ; key=value:… ; payload`, in chunks, plain or base64).
//!
//! Everything here is program output, so it is treated as hostile: controls become spaces
//! (a notification daemon may interpret markup or escapes), and title and body are cut to
//! [`MAX_TITLE_CHARS`] and [`MAX_BODY_CHARS`]. A kitty notification in chunks is held until
//! its last chunk, at most `MAX_KITTY_PENDING_BYTES` of it; what is over is dropped.

/// The longest title kept, in characters: a notification shows one line of it.
pub const MAX_TITLE_CHARS: usize = 128;
/// The longest body kept, in characters: daemons show a few lines at most.
pub const MAX_BODY_CHARS: usize = 1024;
/// How much of a chunked kitty notification is held before its last chunk.
const MAX_KITTY_PENDING_BYTES: usize = 8 * 1024;

/// A notification, sanitised and cut to size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notification {
    pub title: String,
    pub body: String,
}

impl Notification {
    fn new(title: &str, body: &str) -> Option<Notification> {
        let title = sanitised(title, MAX_TITLE_CHARS);
        let body = sanitised(body, MAX_BODY_CHARS);
        (!title.is_empty() || !body.is_empty()).then_some(Notification { title, body })
    }
}

/// `text` with every control character a space and at most `max` characters (an ellipsis
/// marks a cut), trimmed.
fn sanitised(text: &str, max: usize) -> String {
    let clean: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let clean = clean.trim();
    match clean.char_indices().nth(max) {
        Some((cut, _)) => format!("{}…", &clean[..cut]),
        None => clean.to_owned(),
    }
}

/// The parts of kitty notifications still waiting for their last chunk.
#[derive(Debug, Default)]
pub(crate) struct KittyChunks {
    id: String,
    title: String,
    body: String,
}

/// The notification an OSC string (as the prescan holds it: `]` to its terminator) finishes,
/// if it is one of the three kinds and finishes one.
pub(crate) fn parse(osc: &[u8], kitty: &mut KittyChunks) -> Option<Notification> {
    let body = crate::feed::prescan::osc_body(osc)?;
    let text = String::from_utf8_lossy(body);
    if let Some(text) = text.strip_prefix("9;") {
        // ConEmu's OSC 9 subcommands (`9;4;…` is a progress bar) are numbers: not messages.
        let subcommand = text.split(';').next().unwrap_or_default();
        if !subcommand.is_empty() && subcommand.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        return Notification::new(text, "");
    }
    if let Some(rest) = text.strip_prefix("777;notify;") {
        let (title, body) = rest.split_once(';').unwrap_or((rest, ""));
        return Notification::new(title, body);
    }
    let rest = text.strip_prefix("99;")?;
    kitty.add(rest)
}

impl KittyChunks {
    /// One OSC 99 (`metadata;payload`); the notification if this chunk was its last.
    fn add(&mut self, osc: &str) -> Option<Notification> {
        let (metadata, payload) = osc.split_once(';')?;
        let (mut id, mut done, mut part, mut base64) = ("", true, "title", false);
        for pair in metadata.split(':') {
            match pair.split_once('=') {
                Some(("i", v)) => id = v,
                Some(("d", v)) => done = v != "0",
                Some(("p", v)) => part = v,
                Some(("e", v)) => base64 = v == "1",
                _ => {}
            }
        }
        if id != self.id {
            // A new notification: whatever the last one held is abandoned.
            *self = KittyChunks {
                id: id.to_owned(),
                ..KittyChunks::default()
            };
        }
        let payload = if base64 {
            use base64::Engine as _;
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(payload)
                .ok()?;
            String::from_utf8_lossy(&bytes).into_owned()
        } else {
            payload.to_owned()
        };
        let room = MAX_KITTY_PENDING_BYTES.saturating_sub(self.title.len() + self.body.len());
        let payload = &payload[..floor_char_boundary(&payload, room)];
        match part {
            "title" => self.title.push_str(payload),
            "body" => self.body.push_str(payload),
            // Icons, buttons, queries: not shown.
            _ => {}
        }
        if !done {
            return None;
        }
        let chunks = std::mem::take(self);
        Notification::new(&chunks.title, &chunks.body)
    }
}

fn floor_char_boundary(s: &str, at: usize) -> usize {
    let mut at = at.min(s.len());
    while !s.is_char_boundary(at) {
        at -= 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(osc: &str) -> Option<Notification> {
        parse(osc.as_bytes(), &mut KittyChunks::default())
    }

    fn note(title: &str, body: &str) -> Option<Notification> {
        Some(Notification {
            title: title.into(),
            body: body.into(),
        })
    }

    #[test]
    fn each_kind_gives_its_title_and_body() {
        assert_eq!(one("]9;Build done\x07"), note("Build done", ""));
        assert_eq!(
            one("]777;notify;Make;all targets\x1b\\"),
            note("Make", "all targets")
        );
        assert_eq!(
            one("]777;notify;Only a title\x07"),
            note("Only a title", "")
        );
        assert_eq!(one("]99;;Hello\x07"), note("Hello", ""));
        assert_eq!(one("]99;p=body;Just a body\x07"), note("", "Just a body"));
        assert_eq!(one("]99;e=1;SGk=\x07"), note("Hi", ""));
        assert_eq!(one("]9;4;1;50\x07"), None, "ConEmu's progress bar");
        assert_eq!(one("]9;\x07"), None, "nothing to say");
        assert_eq!(one("]777;other;x\x07"), None);
        assert_eq!(one("]2;a title\x07"), None);
    }

    #[test]
    fn kitty_chunks_are_joined_until_the_last() {
        let mut kitty = KittyChunks::default();
        let mut add = |osc: &str| parse(osc.as_bytes(), &mut kitty);
        assert_eq!(add("]99;i=1:d=0;Hello \x07"), None);
        assert_eq!(add("]99;i=1:d=0;world\x07"), None);
        assert_eq!(add("]99;i=1:p=body;Body\x07"), note("Hello world", "Body"));
        // A new id abandons an unfinished one.
        assert_eq!(add("]99;i=2:d=0;lost\x07"), None);
        assert_eq!(add("]99;i=3;kept\x07"), note("kept", ""));
        // An endless chunked notification holds at most its cap.
        for _ in 0..10_000 {
            add("]99;i=4:d=0;xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\x07");
        }
        let last = add("]99;i=4;end\x07").expect("the last chunk finishes it");
        assert_eq!(
            last.title.chars().count(),
            MAX_TITLE_CHARS + 1,
            "cut, with an ellipsis"
        );
    }

    #[test]
    fn controls_are_spaces_and_long_text_is_cut() {
        assert_eq!(one("]9;rm\x01-rf\u{9b}x\x07"), note("rm -rf x", ""));
        let long = "é".repeat(5000);
        let got = one(&format!("]777;notify;t;{long}\x07")).unwrap();
        assert_eq!(got.body.chars().count(), MAX_BODY_CHARS + 1);
        assert!(got.body.ends_with('…'));
    }
}

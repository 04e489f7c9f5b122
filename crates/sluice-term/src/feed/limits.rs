//! What one program's output may make the terminal hold, and the state `Term` keeps private
//! that the caps need to know.
//!
//! alacritty_terminal keeps whatever it is sent: every combining mark on a cell, a title or a
//! link target of any length, and a kitty keyboard stack whose overflow handling panics
//! (FINDINGS.md). Each cap here is applied in [`Forward`](super::forward::Forward), on the way
//! from vte to `Term`, so `Term` only ever sees what it can hold. OSC strings as a whole are
//! capped before vte ([`super::prescan`]).

use alacritty_terminal::event::EventListener;
use alacritty_terminal::grid::Row;
use alacritty_terminal::index::Column;
use alacritty_terminal::term::cell::{Cell, Flags};
use alacritty_terminal::term::{Term, TermMode};
use alacritty_terminal::vte::ansi::{CharsetIndex, Handler, Hyperlink};

use crate::marks::PendingMark;

/// The longest window title kept, in bytes; longer ones are cut at a character boundary.
///
/// A title over ~16.7 MB makes winit's X11 backend panic (MaximumRequestLengthExceeded), and a
/// title bar shows a few hundred characters at most; 4 KiB is plenty for any real title.
pub const MAX_TITLE_BYTES: usize = 4096;

/// How many titles the title stack (`CSI 22 t`) keeps; further pushes are ignored.
///
/// alacritty_terminal keeps 4,096, which with [`MAX_TITLE_BYTES`] could be 16 MiB per terminal.
/// Programs push once when they start and pop when they end (vim, tmux), so a depth of 64 is
/// far beyond real nesting.
pub const MAX_TITLE_STACK: usize = 64;

/// The most combining (zero-width) characters one cell keeps; more are dropped.
///
/// Unicode's Stream-Safe Text Format (UAX #15) never needs more than 30 non-starters in a row,
/// so no text in any script needs more. Without a cap, a million marks on one cell cost 820 MB
/// in a window, and the renderer reshaped all of them every frame.
pub const MAX_COMBINING_PER_CELL: usize = 30;

/// The longest OSC 8 link target (and link id) kept, in bytes; a longer link is not a link.
///
/// Each run of linked cells shares its target, but a program can start a new link on every
/// cell, so this bounds what a cell of the scrollback can hold. 2,048 bytes is the limit of
/// the sitemaps protocol and of what browsers have long been safe with; real links are shorter.
pub const MAX_URI_BYTES: usize = 2048;

/// alacritty_terminal's `KEYBOARD_MODE_STACK_MAX_DEPTH`. Its `push_keyboard_mode` removes from
/// the title stack instead of its own once its stack is this deep, and panics when the title
/// stack is empty: 4,097 `CSI > 1 u` were enough (0.26).
const TERM_KEYBOARD_STACK_MAX: usize = 4096;

/// Shell integration marks kept for one cell: a full round (`D`, `A`, `B`, `C`) when a command
/// prints nothing before the next prompt.
const MAX_PENDING_MARKS: usize = 4;

/// State `Term` keeps private and the feed needs: the active charset (for the ASCII fast path),
/// the depths of the keyboard mode stacks and of the title stack (for the caps), and how much
/// work the calls since the last [`take_work`](Self::take_work) asked for.
///
/// Every call that changes them passes through [`Forward`](super::forward::Forward).
#[derive(Debug, Default)]
pub(crate) struct Mirror {
    pub(crate) active_charset: CharsetIndex,
    keyboard_depth: usize,
    /// The other screen's stack: `Term` keeps one per screen and swaps them with the screen.
    inactive_keyboard_depth: usize,
    title_depth: usize,
    work: u64,
    /// Shell integration marks sent (OSC 133) and not yet on a cell: the next character
    /// printed carries them ([`crate::marks`]).
    pending_marks: Vec<PendingMark>,
    /// How much of each scrollback row its clear touches, for the prefetch.
    pub(super) line_extent: super::ascii::LineExtent,
}

impl Mirror {
    /// Cells written or cleared by calls that do much for few bytes (REP, DECALN), and one per
    /// character printed through `Term::input`, since the last call.
    pub(crate) fn take_work(&mut self) -> u64 {
        std::mem::take(&mut self.work)
    }

    /// The work counted since the last [`take_work`](Self::take_work).
    pub(crate) fn work(&self) -> u64 {
        self.work
    }

    #[inline(always)]
    pub(super) fn add_work(&mut self, cells: u64) {
        self.work += cells;
    }

    /// Makes room for one more keyboard mode, if the stack is full, by popping its top: the
    /// mode pushed next is then the active one, as the program expects. (The kitty protocol
    /// says the oldest entry goes; `Term` offers no way to remove it.)
    pub(super) fn before_keyboard_push<L: EventListener>(&mut self, term: &mut Term<L>) {
        if self.keyboard_depth >= TERM_KEYBOARD_STACK_MAX {
            term.pop_keyboard_modes(1);
            self.keyboard_depth -= 1;
        }
        self.keyboard_depth += 1;
    }

    pub(super) fn keyboard_popped(&mut self, count: u16) {
        self.keyboard_depth = self.keyboard_depth.saturating_sub(count as usize);
    }

    /// Whether a title push may go through; counts it if so.
    pub(super) fn title_push_allowed(&mut self) -> bool {
        let allowed = self.title_depth < MAX_TITLE_STACK;
        self.title_depth += allowed as usize;
        allowed
    }

    pub(super) fn title_popped(&mut self) {
        self.title_depth = self.title_depth.saturating_sub(1);
    }

    /// Follows a screen switch: `Term` swaps the keyboard stacks with the screens.
    pub(super) fn screen_switched(&mut self) {
        std::mem::swap(&mut self.keyboard_depth, &mut self.inactive_keyboard_depth);
    }

    /// Keeps `mark` for the next character printed. A flood of marks with nothing printed in
    /// between keeps the last [`MAX_PENDING_MARKS`].
    pub(super) fn mark_sent(&mut self, mark: PendingMark) {
        if self.pending_marks.len() == MAX_PENDING_MARKS {
            self.pending_marks.remove(0);
        }
        self.pending_marks.push(mark);
    }

    #[inline(always)]
    pub(super) fn marks_pending(&self) -> bool {
        !self.pending_marks.is_empty()
    }

    /// Puts the pending marks on the cell the last `Term::input` wrote, unless that cell holds
    /// a program's link (see [`crate::marks`]).
    #[inline(never)]
    pub(super) fn place_marks<L: EventListener>(&mut self, term: &mut Term<L>) {
        let marks = std::mem::take(&mut self.pending_marks);
        let point = last_written(term);
        let cell = &mut term.grid_mut()[point];
        if cell.hyperlink().is_none() {
            cell.set_hyperlink(Some(crate::marks::link_of(&marks)));
        }
    }

    /// RIS: `Term` empties every stack and goes back to G0.
    pub(super) fn reset(&mut self) {
        *self = Self {
            work: self.work,
            ..Self::default()
        };
    }
}

/// Runs `call`, then tells `mirror` if it switched screens.
pub(super) fn watch_screen<L: EventListener>(
    term: &mut Term<L>,
    mirror: &mut Mirror,
    call: impl FnOnce(&mut Term<L>),
) {
    let alt = term.mode().contains(TermMode::ALT_SCREEN);
    call(term);
    if term.mode().contains(TermMode::ALT_SCREEN) != alt {
        mirror.screen_switched();
    }
}

/// `title` cut to [`MAX_TITLE_BYTES`] at a character boundary.
pub(super) fn cap_title(mut title: String) -> String {
    if title.len() > MAX_TITLE_BYTES {
        let mut end = MAX_TITLE_BYTES;
        while !title.is_char_boundary(end) {
            end -= 1;
        }
        title.truncate(end);
    }
    title
}

/// The link, unless its target or id is longer than [`MAX_URI_BYTES`].
pub(super) fn cap_hyperlink(link: Option<Hyperlink>) -> Option<Hyperlink> {
    link.filter(|l| {
        l.uri.len() <= MAX_URI_BYTES && l.id.as_ref().is_none_or(|id| id.len() <= MAX_URI_BYTES)
    })
}

/// Whether `c` could be a combining (zero-width) character: no character before the combining
/// diacritics (U+0300) is but the soft hyphen. Inlined into every character printed through
/// vte, so that text in Latin scripts pays one comparison and nothing else.
#[inline(always)]
pub(super) fn may_combine(c: char) -> bool {
    (c as u32) >= 0x300 || c == '\u{ad}'
}

/// Whether `Term::input(c)` would add a combining mark to a cell that already holds
/// [`MAX_COMBINING_PER_CELL`] of them. Finds the cell as `Term::input` does. Out of line: the
/// per-character path only calls it for [`may_combine`] characters.
#[inline(never)]
pub(super) fn combining_cell_full<L: EventListener>(term: &Term<L>, c: char) -> bool {
    use unicode_width::UnicodeWidthChar;
    // The width first: cheaper than finding the cell, and most characters past U+0300 in
    // output (box drawing, blocks, CJK) are not combining.
    if c.width() != Some(0) {
        return false;
    }
    holds_most_marks(&term.grid()[last_written(term)])
}

/// Whether `cell` holds [`MAX_COMBINING_PER_CELL`] combining marks: the next is dropped.
#[inline(always)]
pub(super) fn holds_most_marks(cell: &Cell) -> bool {
    cell.zerowidth()
        .is_some_and(|marks| marks.len() >= MAX_COMBINING_PER_CELL)
}

/// The column of `row` a combining mark joins when the last cell written is just before `end`,
/// as `Term::input` finds it: that cell, or the wide character itself rather than its spacer.
#[inline(always)]
pub(super) fn mark_column(row: &Row<Cell>, end: usize) -> Column {
    let at = end.saturating_sub(1);
    if row[Column(at)].flags.contains(Flags::WIDE_CHAR_SPACER) {
        Column(at.saturating_sub(1))
    } else {
        Column(at)
    }
}

/// Mends what `Term::delete_chars` (DCH, `CSI P`) leaves when it deletes the first half of a
/// wide character at column 0: the second half (a `WIDE_CHAR_SPACER`) moves to column 0 with
/// nothing before it. alacritty_terminal 0.26 then underflows a column wherever it steps left
/// from a spacer (the cursor of every snapshot, a selection starting there, vi motions): the
/// `feed` fuzz target found it (fuzz/found/feed-cursor-column-overflow). The orphan becomes the
/// blank it shows as, and the line above loses the mark at its end that said a wide character
/// wrapped onto this line (`LEADING_WIDE_CHAR_SPACER`), which `Term` itself removes once the
/// orphan is written over (the `feed` fuzz target found the difference when it was left). Only
/// column 0: an orphan further right steps left onto a real cell, so it is left as `Term` made
/// it, and the differential tests stay exact everywhere else (`sluice_term::testing` counts
/// both as `Term` would leave them once the orphan is overwritten).
pub(super) fn mend_orphan_spacer<L: EventListener>(term: &mut Term<L>) {
    use alacritty_terminal::grid::Dimensions;
    let line = term.grid().cursor.point.line;
    let first = &mut term.grid_mut()[line][Column(0)];
    if !first.flags.contains(Flags::WIDE_CHAR_SPACER) {
        return;
    }
    first.flags.remove(Flags::WIDE_CHAR_SPACER);
    if line > term.topmost_line() {
        let last = term.last_column();
        term.grid_mut()[line - 1i32][last]
            .flags
            .remove(Flags::LEADING_WIDE_CHAR_SPACER);
    }
}

/// The cell the last character printed went to, found as `Term::input` finds the cell a
/// combining mark joins ([`mark_column`]).
fn last_written<L: EventListener>(term: &Term<L>) -> alacritty_terminal::index::Point {
    let cursor = &term.grid().cursor;
    // Just past the last cell written: the cursor's column, or past it with a wrap pending.
    let end = cursor.point.column.0 + usize::from(cursor.input_needs_wrap);
    let line = cursor.point.line;
    alacritty_terminal::index::Point::new(line, mark_column(&term.grid()[line], end))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_are_cut_at_a_character_boundary() {
        let title = "é".repeat(MAX_TITLE_BYTES); // two bytes each
        let capped = cap_title(title);
        assert_eq!(capped.len(), MAX_TITLE_BYTES);
        let odd = format!("x{}", "é".repeat(MAX_TITLE_BYTES));
        let capped = cap_title(odd);
        assert_eq!(capped.len(), MAX_TITLE_BYTES - 1);
        assert_eq!(cap_title("short".into()), "short");
    }

    #[test]
    fn long_links_are_not_links() {
        let link = |uri: usize, id: usize| Hyperlink {
            id: (id > 0).then(|| "i".repeat(id)),
            uri: "u".repeat(uri),
        };
        assert!(cap_hyperlink(Some(link(MAX_URI_BYTES, 0))).is_some());
        assert!(cap_hyperlink(Some(link(MAX_URI_BYTES + 1, 0))).is_none());
        assert!(cap_hyperlink(Some(link(10, MAX_URI_BYTES + 1))).is_none());
        assert!(cap_hyperlink(None).is_none());
    }

    /// What `combining_cell_full`'s early return relies on.
    #[test]
    fn nothing_before_u0300_is_zero_width() {
        use unicode_width::UnicodeWidthChar;
        let zero: Vec<char> = ('\0'..'\u{300}').filter(|c| c.width() == Some(0)).collect();
        assert_eq!(zero, ['\u{ad}']);
        assert_eq!('\u{300}'.width(), Some(0));
    }

    #[test]
    fn the_title_stack_stops_at_its_cap() {
        let mut mirror = Mirror::default();
        let allowed = (0..MAX_TITLE_STACK + 10)
            .filter(|_| mirror.title_push_allowed())
            .count();
        assert_eq!(allowed, MAX_TITLE_STACK);
        mirror.title_popped();
        assert!(mirror.title_push_allowed());
        assert!(!mirror.title_push_allowed());
    }
}

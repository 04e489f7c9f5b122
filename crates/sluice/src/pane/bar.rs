//! A bar the window draws across one row over the cells: the search prompt, the paste
//! question, a link's target.

use sluice_render::Label;
use sluice_term::Rgb;

/// `text` across the whole of `row`, padded with spaces to `cols` (never cut: the renderer
/// clips), in inverted colours so that it reads as part of the window, not of the output.
pub fn bar(row: usize, mut text: String, cols: usize, fg: Rgb, bg: Rgb) -> Label {
    let width = text.chars().count();
    text.extend(std::iter::repeat_n(' ', cols.saturating_sub(width)));
    Label {
        row,
        col: 0,
        text,
        fg: bg,
        bg: fg,
        underline: false,
    }
}

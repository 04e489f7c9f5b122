//! Tabs and the tab bar: each tab is a layout of panes with one focused; the bar is one row
//! of cells across the top of the window, drawn by the same renderer as the panes.

use sluice_term::{CellFlags, RenderCell, Rgb};

use super::layout::Layout;
use crate::events::PaneId;

/// One tab: its split tree and which of its panes has the keyboard.
#[derive(Debug, Clone)]
pub struct Tab {
    pub layout: Layout,
    pub focused: PaneId,
    /// The focused pane fills the tab (the others keep running, unseen).
    pub zoomed: bool,
}

impl Tab {
    pub fn new(pane: PaneId) -> Self {
        Self {
            layout: Layout::new(pane),
            focused: pane,
            zoomed: false,
        }
    }
}

/// What the bar shows of one tab.
#[derive(Debug, Clone, PartialEq)]
pub struct TabLabel {
    pub title: String,
    /// A program in it printed while it was in the background.
    pub activity: bool,
    /// The bell rang in it while it was in the background.
    pub bell: bool,
}

/// Each tab's share of the bar: equal widths, the last taking what division leaves.
fn widths(tabs: usize, cols: usize) -> Vec<usize> {
    if tabs == 0 {
        return Vec::new();
    }
    let each = cols / tabs;
    let mut w = vec![each; tabs];
    if let Some(last) = w.last_mut() {
        *last += cols - each * tabs;
    }
    w
}

/// The tab under column `col` of the bar.
pub fn tab_at(tabs: usize, cols: usize, col: usize) -> Option<usize> {
    let mut start = 0;
    for (i, w) in widths(tabs, cols).into_iter().enumerate() {
        if col < start + w {
            return Some(i);
        }
        start += w;
    }
    None
}

/// The bar's cells: "N title" for each tab, the active one in reverse video, a mark before
/// the title of a background tab that printed (•) or rang the bell (!). Titles too long for
/// their share end in "…".
pub fn cells(tabs: &[TabLabel], active: usize, cols: usize, fg: Rgb, bg: Rgb) -> Vec<RenderCell> {
    let mut out = Vec::with_capacity(cols);
    for (i, (tab, width)) in tabs.iter().zip(widths(tabs.len(), cols)).enumerate() {
        let mark = if i == active {
            ' '
        } else if tab.bell {
            '!'
        } else if tab.activity {
            '•'
        } else {
            ' '
        };
        let text = format!("{mark}{} {}", i + 1, tab.title);
        let mut chars: Vec<char> = text
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        // A border of one space between tabs.
        let room = width.saturating_sub(1);
        if chars.len() > room {
            chars.truncate(room.saturating_sub(1));
            chars.push('…');
        }
        chars.resize(room, ' ');
        let (tab_fg, tab_bg, flags) = if i == active {
            (bg, fg, CellFlags::BOLD)
        } else {
            (fg, bg, CellFlags::empty())
        };
        out.extend(chars.into_iter().map(|c| RenderCell {
            c,
            fg: tab_fg,
            bg: tab_bg,
            flags,
            ..RenderCell::default()
        }));
        if width > 0 {
            out.push(RenderCell {
                fg,
                bg,
                ..RenderCell::default()
            });
        }
    }
    out.resize(
        cols,
        RenderCell {
            fg,
            bg,
            ..RenderCell::default()
        },
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn label(title: &str) -> TabLabel {
        TabLabel {
            title: title.into(),
            activity: false,
            bell: false,
        }
    }

    fn text(cells: &[RenderCell]) -> String {
        cells.iter().map(|c| c.c).collect()
    }

    #[test]
    fn tabs_share_the_bar_and_clicks_find_them() {
        assert_eq!(widths(3, 80), vec![26, 26, 28]);
        assert_eq!(tab_at(3, 80, 0), Some(0));
        assert_eq!(tab_at(3, 80, 26), Some(1));
        assert_eq!(tab_at(3, 80, 79), Some(2));
        assert_eq!(tab_at(3, 80, 80), None);
        assert_eq!(tab_at(0, 80, 3), None);
    }

    #[test]
    fn the_bar_shows_numbered_titles_and_marks() {
        let fg = Rgb {
            r: 200,
            g: 200,
            b: 200,
        };
        let bg = Rgb { r: 0, g: 0, b: 0 };
        let mut tabs = vec![
            label("bash"),
            label("a very long title indeed"),
            label("vim"),
        ];
        tabs[1].activity = true;
        tabs[2].bell = true;
        let cells = cells(&tabs, 0, 30, fg, bg);
        assert_eq!(cells.len(), 30);
        assert_eq!(text(&cells), " 1 bash   •2 a ver… !3 vim    ");
        assert_eq!(cells[0].bg, fg, "the active tab is in reverse video");
        assert_eq!(cells[10].bg, bg);
        // A program's title cannot put controls into the bar.
        let cells = super::cells(&[label("a\u{1b}b")], 0, 10, fg, bg);
        assert_eq!(text(&cells), " 1 a b    ");
    }
}

//! The `Handler` vte drives: `Term`'s own, with three things observed on the way through.
//!
//! Every call is passed to `Term` unchanged. On the way, [`Forward`] notes whether the byte the
//! fast path probed with was printed, mirrors the active charset (which `Term` keeps private)
//! and, at each line feed, prefetches the scrollback row a later scroll will recycle.

use alacritty_terminal::event::EventListener;
use alacritty_terminal::term::Term;
use alacritty_terminal::vte::ansi::{
    Attr, CharsetIndex, ClearMode, CursorShape, CursorStyle, Handler, Hyperlink, KeyboardModes,
    KeyboardModesApplyBehavior, LineClearMode, Mode, ModifyOtherKeys, PrivateMode, Rgb,
    ScpCharPath, ScpUpdateMode, StandardCharset, TabulationClearMode,
};
use cursor_icon::CursorIcon;

use super::ascii;

pub(super) struct Forward<'a, L: EventListener> {
    term: &'a mut Term<L>,
    active_charset: &'a mut CharsetIndex,
    watched: Option<char>,
    saw_watched: bool,
}

impl<'a, L: EventListener> Forward<'a, L> {
    pub(super) fn new(term: &'a mut Term<L>, active_charset: &'a mut CharsetIndex) -> Self {
        Self {
            term,
            active_charset,
            watched: None,
            saw_watched: false,
        }
    }

    /// Watches for `c` being printed.
    pub(super) fn watch_for(&mut self, c: char) {
        self.watched = Some(c);
    }

    pub(super) fn saw_watched(&self) -> bool {
        self.saw_watched
    }
}

impl<L: EventListener> Handler for Forward<'_, L> {
    fn input(&mut self, c: char) {
        self.saw_watched |= self.watched == Some(c);
        self.term.input(c)
    }

    fn linefeed(&mut self) {
        ascii::prefetch_recycled_row(self.term);
        self.term.linefeed()
    }

    fn newline(&mut self) {
        ascii::prefetch_recycled_row(self.term);
        self.term.newline()
    }

    fn set_active_charset(&mut self, index: CharsetIndex) {
        *self.active_charset = index;
        self.term.set_active_charset(index)
    }

    fn reset_state(&mut self) {
        *self.active_charset = CharsetIndex::default();
        self.term.reset_state()
    }

    // Everything else, straight through.

    fn set_title(&mut self, title: Option<String>) {
        self.term.set_title(title)
    }

    fn set_cursor_style(&mut self, style: Option<CursorStyle>) {
        self.term.set_cursor_style(style)
    }

    fn set_cursor_shape(&mut self, shape: CursorShape) {
        self.term.set_cursor_shape(shape)
    }

    fn goto(&mut self, line: i32, col: usize) {
        self.term.goto(line, col)
    }

    fn goto_line(&mut self, line: i32) {
        self.term.goto_line(line)
    }

    fn goto_col(&mut self, col: usize) {
        self.term.goto_col(col)
    }

    fn insert_blank(&mut self, count: usize) {
        self.term.insert_blank(count)
    }

    fn move_up(&mut self, lines: usize) {
        self.term.move_up(lines)
    }

    fn move_down(&mut self, lines: usize) {
        self.term.move_down(lines)
    }

    fn identify_terminal(&mut self, intermediate: Option<char>) {
        self.term.identify_terminal(intermediate)
    }

    fn device_status(&mut self, kind: usize) {
        self.term.device_status(kind)
    }

    fn move_forward(&mut self, col: usize) {
        self.term.move_forward(col)
    }

    fn move_backward(&mut self, col: usize) {
        self.term.move_backward(col)
    }

    fn move_down_and_cr(&mut self, row: usize) {
        self.term.move_down_and_cr(row)
    }

    fn move_up_and_cr(&mut self, row: usize) {
        self.term.move_up_and_cr(row)
    }

    fn put_tab(&mut self, count: u16) {
        self.term.put_tab(count)
    }

    fn backspace(&mut self) {
        self.term.backspace()
    }

    fn carriage_return(&mut self) {
        self.term.carriage_return()
    }

    fn bell(&mut self) {
        self.term.bell()
    }

    fn substitute(&mut self) {
        self.term.substitute()
    }

    fn set_horizontal_tabstop(&mut self) {
        self.term.set_horizontal_tabstop()
    }

    fn scroll_up(&mut self, lines: usize) {
        self.term.scroll_up(lines)
    }

    fn scroll_down(&mut self, lines: usize) {
        self.term.scroll_down(lines)
    }

    fn insert_blank_lines(&mut self, lines: usize) {
        self.term.insert_blank_lines(lines)
    }

    fn delete_lines(&mut self, lines: usize) {
        self.term.delete_lines(lines)
    }

    fn erase_chars(&mut self, count: usize) {
        self.term.erase_chars(count)
    }

    fn delete_chars(&mut self, count: usize) {
        self.term.delete_chars(count)
    }

    fn move_backward_tabs(&mut self, count: u16) {
        self.term.move_backward_tabs(count)
    }

    fn move_forward_tabs(&mut self, count: u16) {
        self.term.move_forward_tabs(count)
    }

    fn save_cursor_position(&mut self) {
        self.term.save_cursor_position()
    }

    fn restore_cursor_position(&mut self) {
        self.term.restore_cursor_position()
    }

    fn clear_line(&mut self, mode: LineClearMode) {
        self.term.clear_line(mode)
    }

    fn clear_screen(&mut self, mode: ClearMode) {
        self.term.clear_screen(mode)
    }

    fn clear_tabs(&mut self, mode: TabulationClearMode) {
        self.term.clear_tabs(mode)
    }

    fn set_tabs(&mut self, interval: u16) {
        self.term.set_tabs(interval)
    }

    fn reverse_index(&mut self) {
        self.term.reverse_index()
    }

    fn terminal_attribute(&mut self, attr: Attr) {
        self.term.terminal_attribute(attr)
    }

    fn set_mode(&mut self, mode: Mode) {
        self.term.set_mode(mode)
    }

    fn unset_mode(&mut self, mode: Mode) {
        self.term.unset_mode(mode)
    }

    fn report_mode(&mut self, mode: Mode) {
        self.term.report_mode(mode)
    }

    fn set_private_mode(&mut self, mode: PrivateMode) {
        self.term.set_private_mode(mode)
    }

    fn unset_private_mode(&mut self, mode: PrivateMode) {
        self.term.unset_private_mode(mode)
    }

    fn report_private_mode(&mut self, mode: PrivateMode) {
        self.term.report_private_mode(mode)
    }

    fn set_scrolling_region(&mut self, top: usize, bottom: Option<usize>) {
        self.term.set_scrolling_region(top, bottom)
    }

    fn set_keypad_application_mode(&mut self) {
        self.term.set_keypad_application_mode()
    }

    fn unset_keypad_application_mode(&mut self) {
        self.term.unset_keypad_application_mode()
    }

    fn configure_charset(&mut self, index: CharsetIndex, charset: StandardCharset) {
        self.term.configure_charset(index, charset)
    }

    fn set_color(&mut self, index: usize, color: Rgb) {
        self.term.set_color(index, color)
    }

    fn dynamic_color_sequence(&mut self, prefix: String, index: usize, terminator: &str) {
        self.term.dynamic_color_sequence(prefix, index, terminator)
    }

    fn reset_color(&mut self, index: usize) {
        self.term.reset_color(index)
    }

    fn clipboard_store(&mut self, clipboard: u8, base64: &[u8]) {
        self.term.clipboard_store(clipboard, base64)
    }

    fn clipboard_load(&mut self, clipboard: u8, terminator: &str) {
        self.term.clipboard_load(clipboard, terminator)
    }

    fn decaln(&mut self) {
        self.term.decaln()
    }

    fn push_title(&mut self) {
        self.term.push_title()
    }

    fn pop_title(&mut self) {
        self.term.pop_title()
    }

    fn text_area_size_pixels(&mut self) {
        self.term.text_area_size_pixels()
    }

    fn text_area_size_chars(&mut self) {
        self.term.text_area_size_chars()
    }

    fn set_hyperlink(&mut self, hyperlink: Option<Hyperlink>) {
        self.term.set_hyperlink(hyperlink)
    }

    fn set_mouse_cursor_icon(&mut self, icon: CursorIcon) {
        self.term.set_mouse_cursor_icon(icon)
    }

    fn report_keyboard_mode(&mut self) {
        self.term.report_keyboard_mode()
    }

    fn push_keyboard_mode(&mut self, mode: KeyboardModes) {
        self.term.push_keyboard_mode(mode)
    }

    fn pop_keyboard_modes(&mut self, to_pop: u16) {
        self.term.pop_keyboard_modes(to_pop)
    }

    fn set_keyboard_mode(&mut self, mode: KeyboardModes, behavior: KeyboardModesApplyBehavior) {
        self.term.set_keyboard_mode(mode, behavior)
    }

    fn set_modify_other_keys(&mut self, mode: ModifyOtherKeys) {
        self.term.set_modify_other_keys(mode)
    }

    fn report_modify_other_keys(&mut self) {
        self.term.report_modify_other_keys()
    }

    fn set_scp(&mut self, char_path: ScpCharPath, update_mode: ScpUpdateMode) {
        self.term.set_scp(char_path, update_mode)
    }
}

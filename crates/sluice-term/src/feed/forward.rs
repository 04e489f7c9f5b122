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

/// Implements each listed `Handler` method by passing the call on to `self.term` unchanged.
macro_rules! forward {
    ($($method:ident($($arg:ident: $ty:ty),*);)*) => {
        $(
            fn $method(&mut self, $($arg: $ty),*) {
                self.term.$method($($arg),*)
            }
        )*
    };
}

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
    forward! {
        set_title(title: Option<String>);
        set_cursor_style(style: Option<CursorStyle>);
        set_cursor_shape(shape: CursorShape);
        goto(line: i32, col: usize);
        goto_line(line: i32);
        goto_col(col: usize);
        insert_blank(count: usize);
        move_up(lines: usize);
        move_down(lines: usize);
        identify_terminal(intermediate: Option<char>);
        device_status(kind: usize);
        move_forward(col: usize);
        move_backward(col: usize);
        move_down_and_cr(row: usize);
        move_up_and_cr(row: usize);
        put_tab(count: u16);
        backspace();
        carriage_return();
        bell();
        substitute();
        set_horizontal_tabstop();
        scroll_up(lines: usize);
        scroll_down(lines: usize);
        insert_blank_lines(lines: usize);
        delete_lines(lines: usize);
        erase_chars(count: usize);
        delete_chars(count: usize);
        move_backward_tabs(count: u16);
        move_forward_tabs(count: u16);
        save_cursor_position();
        restore_cursor_position();
        clear_line(mode: LineClearMode);
        clear_screen(mode: ClearMode);
        clear_tabs(mode: TabulationClearMode);
        set_tabs(interval: u16);
        reverse_index();
        terminal_attribute(attr: Attr);
        set_mode(mode: Mode);
        unset_mode(mode: Mode);
        report_mode(mode: Mode);
        set_private_mode(mode: PrivateMode);
        unset_private_mode(mode: PrivateMode);
        report_private_mode(mode: PrivateMode);
        set_scrolling_region(top: usize, bottom: Option<usize>);
        set_keypad_application_mode();
        unset_keypad_application_mode();
        configure_charset(index: CharsetIndex, charset: StandardCharset);
        set_color(index: usize, color: Rgb);
        dynamic_color_sequence(prefix: String, index: usize, terminator: &str);
        reset_color(index: usize);
        clipboard_store(clipboard: u8, base64: &[u8]);
        clipboard_load(clipboard: u8, terminator: &str);
        decaln();
        push_title();
        pop_title();
        text_area_size_pixels();
        text_area_size_chars();
        set_hyperlink(hyperlink: Option<Hyperlink>);
        set_mouse_cursor_icon(icon: CursorIcon);
        report_keyboard_mode();
        push_keyboard_mode(mode: KeyboardModes);
        pop_keyboard_modes(to_pop: u16);
        set_keyboard_mode(mode: KeyboardModes, behavior: KeyboardModesApplyBehavior);
        set_modify_other_keys(mode: ModifyOtherKeys);
        report_modify_other_keys();
        set_scp(char_path: ScpCharPath, update_mode: ScpUpdateMode);
    }
}

//! The `Handler` vte drives: `Term`'s own, with three things observed on the way through.
//!
//! Every call is passed to `Term` unchanged, except where output asks for more than the terminal
//! keeps ([`super::limits`]) and a whole line's erase, which is done to the same
//! effect without writing the cells that are blank already ([`erase`](super::erase)). On the
//! way, [`Forward`] notes whether the byte the fast path probed with was printed, mirrors
//! what `Term` keeps private ([`Mirror`]), counts the work asked for and, at each line feed,
//! prefetches the scrollback row a later scroll will recycle.

use alacritty_terminal::event::EventListener;
use alacritty_terminal::grid::Dimensions;
use alacritty_terminal::term::Term;
use alacritty_terminal::vte::ansi::{
    Attr, CharsetIndex, ClearMode, CursorShape, CursorStyle, Handler, Hyperlink, KeyboardModes,
    KeyboardModesApplyBehavior, LineClearMode, Mode, ModifyOtherKeys, PrivateMode, Rgb,
    ScpCharPath, ScpUpdateMode, StandardCharset, TabulationClearMode,
};
use cursor_icon::CursorIcon;

use super::ascii;
use super::limits::{self, Mirror};

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

pub(crate) struct Forward<'a, L: EventListener> {
    term: &'a mut Term<L>,
    mirror: &'a mut Mirror,
    watched: Option<char>,
    saw_watched: bool,
    /// Whole lines are erased by `Term::clear_line` itself, not [`erase`](super::erase): the
    /// differential tests' reference, so that they judge the feed's erase too.
    erase_in_term: bool,
}

impl<'a, L: EventListener> Forward<'a, L> {
    pub(crate) fn new(term: &'a mut Term<L>, mirror: &'a mut Mirror) -> Self {
        Self {
            term,
            mirror,
            watched: None,
            saw_watched: false,
            erase_in_term: false,
        }
    }

    /// The `Handler` of the differential tests' reference ([`crate::testing::Reference`]):
    /// this one, with lines erased by `Term` itself.
    pub(crate) fn reference(term: &'a mut Term<L>, mirror: &'a mut Mirror) -> Self {
        Self {
            erase_in_term: true,
            ..Self::new(term, mirror)
        }
    }

    /// Watches for `c` being printed.
    pub(super) fn watch_for(&mut self, c: char) {
        self.watched = Some(c);
    }

    pub(super) fn saw_watched(&self) -> bool {
        self.saw_watched
    }

    /// Notes how far the cursor's line is written, as far as the cursor shows it: where a line
    /// ends, at its carriage return or line feed.
    #[inline(always)]
    fn note_line_extent(&mut self) {
        let column = self.term.grid().cursor.point.column.0;
        self.mirror.line_extent.note(column + 1);
    }

    fn prefetch_recycled_row(&mut self) {
        self.note_line_extent();
        ascii::prefetch_recycled_row(self.term, self.mirror.line_extent.cells());
    }
}

impl<L: EventListener> Handler for Forward<'_, L> {
    // Inlined into vte's loop, as the plain pass-through was: out of line, this call cost the
    // escape-heavy payloads 5-10% (`parse-ratio`, progress and dense).
    #[inline(always)]
    fn input(&mut self, c: char) {
        self.saw_watched |= self.watched == Some(c);
        // REP is vte calling this once per repeat: counted so the parser can bound its hold.
        self.mirror.add_work(1);
        if limits::may_combine(c) && limits::combining_cell_full(self.term, c) {
            return;
        }
        self.term.input(c);
        if self.mirror.marks_pending() {
            self.mirror.place_marks(self.term);
        }
    }

    fn linefeed(&mut self) {
        self.prefetch_recycled_row();
        self.term.linefeed()
    }

    fn newline(&mut self) {
        self.prefetch_recycled_row();
        self.term.newline()
    }

    fn carriage_return(&mut self) {
        self.note_line_extent();
        self.term.carriage_return()
    }

    fn set_active_charset(&mut self, index: CharsetIndex) {
        self.mirror.active_charset = index;
        self.term.set_active_charset(index)
    }

    fn reset_state(&mut self) {
        self.mirror.reset();
        self.term.reset_state()
    }

    fn set_title(&mut self, title: Option<String>) {
        self.term.set_title(title.map(limits::cap_title))
    }

    fn push_title(&mut self) {
        if self.mirror.title_push_allowed() {
            self.term.push_title()
        }
    }

    fn pop_title(&mut self) {
        self.mirror.title_popped();
        self.term.pop_title()
    }

    fn set_hyperlink(&mut self, hyperlink: Option<Hyperlink>) {
        self.term.set_hyperlink(limits::cap_hyperlink(hyperlink))
    }

    fn push_keyboard_mode(&mut self, mode: KeyboardModes) {
        self.mirror.before_keyboard_push(self.term);
        self.term.push_keyboard_mode(mode)
    }

    fn pop_keyboard_modes(&mut self, to_pop: u16) {
        self.mirror.keyboard_popped(to_pop);
        self.term.pop_keyboard_modes(to_pop)
    }

    fn set_private_mode(&mut self, mode: PrivateMode) {
        limits::watch_screen(self.term, self.mirror, |t| t.set_private_mode(mode))
    }

    fn unset_private_mode(&mut self, mode: PrivateMode) {
        limits::watch_screen(self.term, self.mirror, |t| t.unset_private_mode(mode))
    }

    fn delete_chars(&mut self, count: usize) {
        self.term.delete_chars(count);
        limits::mend_orphan_spacer(self.term)
    }

    fn clear_line(&mut self, mode: LineClearMode) {
        if self.erase_in_term {
            self.term.clear_line(mode)
        } else {
            super::erase::clear_line(self.term, mode)
        }
    }

    fn decaln(&mut self) {
        self.mirror
            .add_work((self.term.columns() * self.term.screen_lines()) as u64);
        self.term.decaln()
    }

    // Everything else, straight through.
    forward! {
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
        bell();
        substitute();
        set_horizontal_tabstop();
        scroll_up(lines: usize);
        scroll_down(lines: usize);
        insert_blank_lines(lines: usize);
        delete_lines(lines: usize);
        erase_chars(count: usize);
        move_backward_tabs(count: u16);
        move_forward_tabs(count: u16);
        save_cursor_position();
        restore_cursor_position();
        clear_screen(mode: ClearMode);
        clear_tabs(mode: TabulationClearMode);
        set_tabs(interval: u16);
        reverse_index();
        terminal_attribute(attr: Attr);
        set_mode(mode: Mode);
        unset_mode(mode: Mode);
        report_mode(mode: Mode);
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
        text_area_size_pixels();
        text_area_size_chars();
        set_mouse_cursor_icon(icon: CursorIcon);
        report_keyboard_mode();
        set_keyboard_mode(mode: KeyboardModes, behavior: KeyboardModesApplyBehavior);
        set_modify_other_keys(mode: ModifyOtherKeys);
        report_modify_other_keys();
        set_scp(char_path: ScpCharPath, update_mode: ScpUpdateMode);
    }
}

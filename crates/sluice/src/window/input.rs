//! What the user does with the keyboard, the input method and the mouse: bound actions, the
//! search bar, keys and mouse reports for the program, selection, links and scrolling.

use std::time::Instant;

use sluice_term::input::{self, KeyAction, MouseButton, MouseEvent};
use sluice_term::{ClipboardKind, Direction, SelectionKind, SnapshotModes};
use winit::event::{ElementState, Ime, KeyEvent, MouseScrollDelta};
use winit::keyboard::{Key, NamedKey};
use winit::platform::modifier_supplement::KeyEventExtModifierSupplement;
use winit::window::CursorIcon;

use super::bindings::{self, Action};
use super::mouse::{AUTOSCROLL_INTERVAL, LINES_PER_NOTCH};
use super::paste_confirm::Choice;
use super::search::SearchBar;
use super::{TermWindow, keys, links};

impl TermWindow {
    pub(super) fn key(&mut self, event: &KeyEvent) {
        let pressed = event.state == ElementState::Pressed;
        if pressed {
            self.blink.input(Instant::now());
        }
        if let Some(bar) = &mut self.paste_confirm {
            // Every key answers the question or is ignored: nothing reaches the program while
            // it is open.
            if pressed && let Some(choice) = bar.answer(&event.logical_key) {
                self.paste_confirm = None;
                if let Choice::Paste(text) = choice {
                    self.paste_now(&text);
                }
                self.request_frame();
            }
            return;
        }
        if let Some(action) = bindings::action(&event.key_without_modifiers(), self.modifiers) {
            // The release of a bound key is swallowed too, so a program using the kitty
            // protocol never sees a release without its press.
            if pressed {
                self.act(action);
            }
            return;
        }
        if self.search.is_some() {
            if pressed {
                self.search_key(event);
            }
            return;
        }
        let Some(press) = keys::key_press(event, self.modifiers) else {
            return;
        };
        let Some(bytes) = input::encode_key(&press, self.snapshot.modes) else {
            return;
        };
        if press.action != KeyAction::Release {
            self.hide_pointer();
            self.scroll_to_bottom();
        }
        let writer = self.session.terminal.writer();
        if bytes == [0x03] {
            // ^C also drops what is left of a paste the program is not reading, so the
            // interrupt is not queued behind megabytes of it.
            writer.cancel_pastes();
        }
        writer.write(bytes);
    }

    fn act(&mut self, action: Action) {
        let rows = self.snapshot.rows as i32;
        match action {
            Action::Copy => self.copy_selection(ClipboardKind::Clipboard),
            Action::Paste => self.paste_from(ClipboardKind::Clipboard),
            Action::PastePrimary => self.paste_from(ClipboardKind::Selection),
            Action::ScrollPageUp => self.scroll_view(rows),
            Action::ScrollPageDown => self.scroll_view(-rows),
            Action::ScrollLineUp => self.scroll_view(1),
            Action::ScrollLineDown => self.scroll_view(-1),
            Action::ScrollToTop => self.scroll_view(self.snapshot.history_size as i32),
            Action::ScrollToBottom => self.scroll_to_bottom(),
            Action::FontBigger => self.set_font_points(self.font_points + 1.0, self.scale()),
            Action::FontSmaller => self.set_font_points(self.font_points - 1.0, self.scale()),
            Action::FontReset => self.set_font_points(self.config.font_size, self.scale()),
            Action::Search => {
                self.search = match self.search.take() {
                    Some(_) => None,
                    None => Some(SearchBar::default()),
                };
                self.request_frame();
            }
            Action::ToggleFreeze => {
                self.frozen = !self.frozen;
                self.request_frame();
            }
            Action::ToggleMetricsOverlay => self.toggle_overlay(),
        }
    }

    fn scale(&self) -> f64 {
        self.window.scale_factor()
    }

    fn scroll_view(&mut self, lines: i32) {
        self.session.terminal.scroll_view(lines);
        self.request_frame();
    }

    /// Keys while the search bar is open: they edit the pattern instead of going to the
    /// program.
    fn search_key(&mut self, event: &KeyEvent) {
        let Some(search) = &mut self.search else {
            return;
        };
        let terminal = &self.session.terminal;
        match &event.logical_key {
            Key::Named(NamedKey::Escape) => self.search = None,
            Key::Named(NamedKey::Enter) if self.modifiers.shift_key() => {
                search.advance(terminal, Direction::Right)
            }
            Key::Named(NamedKey::Enter) => search.advance(terminal, Direction::Left),
            Key::Named(NamedKey::Backspace) => search.backspace(terminal),
            _ => {
                if let Some(text) = event.text.as_deref().filter(|t| {
                    !t.chars().any(char::is_control)
                        && !self.modifiers.control_key()
                        && !self.modifiers.alt_key()
                }) {
                    search.push(text, terminal);
                }
            }
        }
        self.request_frame();
    }

    pub(super) fn ime(&mut self, ime: Ime) {
        match ime {
            Ime::Preedit(text, _) => self.preedit = (!text.is_empty()).then_some(text),
            Ime::Commit(text) => {
                self.preedit = None;
                if let Some(search) = &mut self.search {
                    search.push(&text, &self.session.terminal);
                } else {
                    self.scroll_to_bottom();
                    self.session.terminal.writer().write(text.into_bytes());
                }
            }
            Ime::Enabled | Ime::Disabled => self.preedit = None,
        }
        self.request_frame();
    }

    fn hide_pointer(&mut self) {
        if !self.mouse.hidden {
            self.mouse.hidden = true;
            self.window.set_cursor_visible(false);
        }
    }

    /// Whether mouse events go to the program: it asked, and Shift is not held (Shift
    /// bypasses reporting so the user can still select, as in xterm).
    fn reporting(&self) -> bool {
        input::reporting(self.snapshot.modes, self.snapshot.mouse_x10)
            && !self.modifiers.shift_key()
    }

    fn report(&mut self, event: MouseEvent) {
        let (cell, _) = self.geometry().cell(self.mouse.x, self.mouse.y);
        let mods = keys::mods(self.modifiers);
        let (modes, x10) = (self.snapshot.modes, self.snapshot.mouse_x10);
        if let Some(bytes) = input::encode_mouse(event, mods, cell.col, cell.row, modes, x10) {
            self.session.terminal.writer().write(bytes);
        }
        self.mouse.reported_cell = Some(cell);
    }

    pub(super) fn pointer_moved(&mut self, position: winit::dpi::PhysicalPosition<f64>) {
        (self.mouse.x, self.mouse.y) = (position.x, position.y);
        if self.mouse.hidden {
            self.mouse.hidden = false;
            self.window.set_cursor_visible(true);
        }
        let g = self.geometry();
        let (cell, side) = g.cell(position.x, position.y);
        if self.mouse.selecting {
            self.session.terminal.extend_selection(cell, side);
            if g.autoscroll_lines(position.y) != 0 && self.autoscroll_at.is_none() {
                self.autoscroll_at = Some(Instant::now() + AUTOSCROLL_INTERVAL);
            }
            self.request_frame();
            return;
        }
        if self.reporting() {
            if self.mouse.reported_cell != Some(cell) {
                self.report(MouseEvent::Motion(self.mouse.held));
            }
            return;
        }
        if self.mouse.hover_cell != Some(cell) {
            self.mouse.hover_cell = Some(cell);
            self.hover(cell);
        }
    }

    /// Looks again for the link under the pointer after the text under it moved (output,
    /// scrolling), so an underline never stays on text that is no longer a link.
    pub(super) fn refresh_hover(&mut self) {
        if self.hovered_link.is_some()
            && let Some(cell) = self.mouse.hover_cell
        {
            self.hover(cell);
        }
    }

    /// Underlines the link under the pointer, if any, and shows a hand over it.
    fn hover(&mut self, cell: sluice_term::ViewportPoint) {
        let link = self
            .session
            .terminal
            .hyperlink_at(cell)
            .map(|h| links::Link {
                uri: h.uri,
                spans: h.spans,
                hyperlink: true,
            })
            .or_else(|| links::url_at(&self.snapshot.lines, cell.row, cell.col));
        if link != self.hovered_link {
            self.hovered_link = link;
            self.update_pointer_icon();
            self.request_frame();
        }
    }

    pub(super) fn pointer_left(&mut self) {
        self.mouse.hover_cell = None;
        if self.hovered_link.take().is_some() {
            self.update_pointer_icon();
            self.request_frame();
        }
    }

    pub(super) fn update_pointer_icon(&self) {
        let icon = if self.hovered_link.is_some() {
            CursorIcon::Pointer
        } else if input::reporting(self.snapshot.modes, self.snapshot.mouse_x10) {
            CursorIcon::Default
        } else {
            CursorIcon::Text
        };
        self.window.set_cursor(icon);
    }

    pub(super) fn mouse_button(&mut self, button: winit::event::MouseButton, state: ElementState) {
        let Some(button) = mouse_button(button) else {
            return;
        };
        let pressed = state == ElementState::Pressed;
        if self.reporting() && !self.mouse.selecting {
            if pressed {
                self.mouse.held.get_or_insert(button);
                self.report(MouseEvent::Press(button));
            } else {
                self.report(MouseEvent::Release(button));
                if self.mouse.held == Some(button) {
                    self.mouse.held = None;
                }
            }
            return;
        }
        match (button, pressed) {
            (MouseButton::Left, true) => self.left_press(),
            (MouseButton::Left, false) => {
                self.mouse.selecting = false;
                self.autoscroll_at = None;
                // Selecting copies to the primary selection, as on every X11 terminal.
                self.copy_selection(ClipboardKind::Selection);
            }
            (MouseButton::Middle, true) => self.paste_from(ClipboardKind::Selection),
            _ => {}
        }
    }

    fn left_press(&mut self) {
        let (cell, side) = self.geometry().cell(self.mouse.x, self.mouse.y);
        let ctrl = self.modifiers.control_key();
        if ctrl && let Some(link) = &self.hovered_link {
            if links::allowed(&link.uri, &self.config.link_schemes) {
                links::open(&self.config.link_opener, &link.uri);
            } else {
                tracing::warn!(uri = %link.uri, "link scheme not allowed; not opening it");
            }
            return;
        }
        let terminal = &self.session.terminal;
        let clicks = self.mouse.click(cell, Instant::now());
        if clicks == 1 && self.modifiers.shift_key() && terminal.has_selection() {
            terminal.extend_selection(cell, side);
        } else {
            let kind = match clicks {
                2 => SelectionKind::Word,
                3 => SelectionKind::Line,
                _ if ctrl => SelectionKind::Block,
                _ => SelectionKind::Simple,
            };
            terminal.start_selection(kind, cell, side);
            if kind != SelectionKind::Simple {
                // Words and lines are selected by the click itself, with no drag.
                terminal.extend_selection(cell, side);
            }
        }
        self.mouse.selecting = true;
        self.request_frame();
    }

    /// One autoscroll step while a selection is dragged past the top or bottom edge.
    pub(super) fn autoscroll(&mut self, now: Instant) {
        let g = self.geometry();
        let lines = g.autoscroll_lines(self.mouse.y);
        if !self.mouse.selecting || lines == 0 {
            self.autoscroll_at = None;
            return;
        }
        self.session.terminal.scroll_view(-lines);
        let (cell, side) = g.cell(self.mouse.x, self.mouse.y);
        self.session.terminal.extend_selection(cell, side);
        self.autoscroll_at = Some(now + AUTOSCROLL_INTERVAL);
        self.request_frame();
    }

    pub(super) fn wheel(&mut self, delta: MouseScrollDelta) {
        // A notch scrolls three lines, but is one report to a program that asked for
        // mouse events (it decides what a notch is worth); a touchpad reports per line.
        let (lines, reports) = match delta {
            MouseScrollDelta::LineDelta(_, y) => {
                let notches = y.round() as i32;
                (notches * LINES_PER_NOTCH, notches)
            }
            MouseScrollDelta::PixelDelta(p) => {
                let height = self.geometry().cell_height;
                let lines = self.mouse.wheel_pixels(p.y, height);
                (lines, lines)
            }
        };
        if lines == 0 {
            return;
        }
        let modes = self.snapshot.modes;
        if self.reporting() {
            let button = if lines > 0 {
                MouseButton::WheelUp
            } else {
                MouseButton::WheelDown
            };
            for _ in 0..reports.unsigned_abs() {
                self.report(MouseEvent::Press(button));
            }
        } else if modes.contains(SnapshotModes::ALT_SCREEN | SnapshotModes::ALTERNATE_SCROLL)
            && !self.modifiers.shift_key()
        {
            // Full-screen programs without mouse support (less, man) scroll with arrows.
            let arrow: &[u8] = match (lines > 0, modes.contains(SnapshotModes::APP_CURSOR)) {
                (true, true) => b"\x1bOA",
                (true, false) => b"\x1b[A",
                (false, true) => b"\x1bOB",
                (false, false) => b"\x1b[B",
            };
            let bytes = arrow.repeat(lines.unsigned_abs() as usize);
            self.session.terminal.writer().write(bytes);
        } else {
            self.scroll_view(lines);
        }
    }
}

fn mouse_button(button: winit::event::MouseButton) -> Option<MouseButton> {
    use winit::event::MouseButton as W;
    Some(match button {
        W::Left => MouseButton::Left,
        W::Middle => MouseButton::Middle,
        W::Right => MouseButton::Right,
        W::Back => MouseButton::Back,
        W::Forward => MouseButton::Forward,
        W::Other(_) => return None,
    })
}

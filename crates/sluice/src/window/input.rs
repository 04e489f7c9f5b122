//! What the user does with the keyboard, the input method and the mouse: bound actions, the
//! search bar, keys and mouse reports for the focused pane's program, selection, links,
//! scrolling, clicks on the tab bar and drags of split borders.
//!
//! The keyboard goes to the focused pane; the mouse to the pane under the pointer (a click
//! there also focuses it), except that a selection drag stays with the pane it started in.

use std::time::Instant;

use sluice_term::input::{self, MouseButton, MouseEvent};
use sluice_term::{ClipboardKind, Direction, SelectionKind, SnapshotModes};
use winit::event::{ElementState, Ime, KeyEvent, MouseScrollDelta, WindowEvent};
use winit::keyboard::{Key, ModifiersState, NamedKey};
use winit::window::CursorIcon;

use super::actions::{self, KeyTarget};
use super::bindings::{Action, KeyModes, Target};
use super::keys::KeyInput;
use super::layout::SplitDirection;
use super::mouse::AUTOSCROLL_INTERVAL;
use super::{Request, Window, keys, tabs};
use crate::app::Shared;
use crate::events::PaneId;
use crate::pane::hints::HintMatch;
use crate::pane::paste_confirm::Choice;
use crate::pane::search::{MatchColors, SearchBar};
use crate::pane::{Spawn, links};
use sluice_config::hints::HintAction;

/// The window as key handling sees it ([`actions::ActionContext`]): the focused pane and
/// what the window and the application can do.
struct WindowContext<'a> {
    window: &'a mut Window,
    shared: &'a mut Shared,
}

impl WindowContext<'_> {
    fn pane(&mut self) -> Option<&mut crate::pane::Pane> {
        self.window.focused()
    }
}

impl actions::ActionContext for WindowContext<'_> {
    fn modifiers(&self) -> ModifiersState {
        self.window.modifiers
    }

    fn key_target(&self) -> KeyTarget {
        let Some(pane) = self
            .window
            .focused_id()
            .and_then(|id| self.window.panes.get(&id))
        else {
            return KeyTarget::Nothing;
        };
        if pane.paste_confirm.is_some() {
            KeyTarget::PasteConfirm
        } else if pane.hints.is_some() {
            KeyTarget::Hints
        } else if pane.search.is_some() {
            KeyTarget::Search
        } else if pane.vi.is_some() {
            KeyTarget::Vi
        } else if pane.ended.is_some() {
            KeyTarget::Ended
        } else {
            KeyTarget::Program
        }
    }

    fn modes(&self) -> SnapshotModes {
        self.window
            .focused_id()
            .and_then(|id| self.window.panes.get(&id))
            .map_or(SnapshotModes::empty(), |p| p.snapshot.modes)
    }

    fn binding(&self, key: &Key) -> Option<Target> {
        let modes = self.modes();
        let key_modes = KeyModes {
            alt_screen: modes.contains(SnapshotModes::ALT_SCREEN),
            app_cursor: modes.contains(SnapshotModes::APP_CURSOR),
            app_keypad: modes.contains(SnapshotModes::APP_KEYPAD),
            search: self.key_target() == KeyTarget::Search,
        };
        self.shared
            .bindings
            .lookup(key, self.window.modifiers, key_modes)
            .cloned()
    }

    fn spawn(&mut self, command: &[String]) {
        let Some((program, args)) = command.split_first() else {
            return;
        };
        let mut process = std::process::Command::new(program);
        process.args(args);
        if let Some(dir) = self.window.focused_directory() {
            process.current_dir(dir);
        }
        match process.spawn() {
            // Reaped on a thread of its own, so it never stays a zombie.
            Ok(mut child) => {
                let _ = std::thread::Builder::new()
                    .name("bound-command".into())
                    .spawn(move || child.wait());
            }
            Err(err) => tracing::warn!(%err, program, "cannot run the bound command"),
        }
    }

    fn key_pressed(&mut self) {
        self.window.blink.input(Instant::now());
    }

    fn answer_paste(&mut self, key: &Key) {
        if let Some(pane) = self.pane()
            && let Some(bar) = &mut pane.paste_confirm
            && let Some(choice) = bar.answer(key)
        {
            pane.paste_confirm = None;
            if let Choice::Paste(text) = choice {
                pane.paste_now(&text);
            }
            self.window.request_frame();
        }
    }

    fn search_key(&mut self, key: &KeyInput) {
        let mods = self.window.modifiers;
        if let Some(pane) = self.pane() {
            search_key(pane, key, mods);
            self.window.request_frame();
        }
    }

    fn hint_key(&mut self, key: &KeyInput) {
        use crate::pane::hints::HintKey;
        let Some(pane) = self.window.focused() else {
            return;
        };
        let Some(hints) = &mut pane.hints else {
            return;
        };
        let answer = match &key.logical_key {
            Key::Named(NamedKey::Escape) => hints.key(None),
            Key::Named(NamedKey::Backspace) => {
                hints.backspace();
                HintKey::Pending
            }
            _ => match key
                .text
                .as_deref()
                .filter(|t| !t.chars().any(char::is_control))
            {
                Some(text) => hints.key(Some(text)),
                None => HintKey::Pending,
            },
        };
        let action = hints.action;
        match answer {
            HintKey::Pending => {}
            HintKey::Cancel => pane.hints = None,
            HintKey::Chosen(chosen) => {
                pane.hints = None;
                self.run_hint(action, chosen);
            }
        }
        self.window.request_frame();
    }

    fn vi_key(&mut self, key: &KeyInput) {
        let ctrl = self.window.modifiers.control_key();
        let shared = &mut *self.shared;
        if let Some(pane) = self.window.focused() {
            vi_key(pane, shared, key, ctrl);
        }
        self.window.request_frame();
    }

    fn run(&mut self, action: Action) {
        self.window.act(self.shared, action);
    }

    fn cancel_pastes(&mut self) {
        if let Some(pane) = self.pane() {
            pane.session.terminal.writer().cancel_pastes();
        }
    }

    fn write_to_program(&mut self, bytes: Vec<u8>, typed: bool) {
        let Some(pane) = self.pane() else {
            return;
        };
        let scrolled = typed && pane.scroll_to_bottom();
        pane.session.terminal.writer().write(bytes);
        if scrolled {
            self.window.request_frame();
        }
        if typed && self.shared.config.mouse.hide_when_typing {
            self.window.hide_pointer();
        }
    }
}

impl WindowContext<'_> {
    /// Runs a hint set's action on the match whose label was typed.
    fn run_hint(&mut self, action: HintAction, chosen: HintMatch) {
        let config = &self.shared.config;
        match action {
            HintAction::Open => {
                // A path is a `file` URL: opened only if `links.schemes` allows `file`.
                let uri = if chosen.path {
                    format!("file://{}", chosen.text)
                } else {
                    chosen.text.clone()
                };
                if links::allowed(&uri, &config.links.schemes) {
                    links::open(
                        &config.links.opener,
                        if chosen.path { &chosen.text } else { &uri },
                    );
                } else {
                    tracing::info!(uri, "not opened: its scheme is not in links.schemes");
                }
            }
            HintAction::Copy => self
                .shared
                .clipboard
                .set(ClipboardKind::Clipboard, chosen.text),
            HintAction::Paste => self.window.paste(self.shared, &chosen.text),
            HintAction::Select => {
                if let Some(pane) = self.window.focused() {
                    let terminal = &pane.session.terminal;
                    let (first, last) = (chosen.spans[0], chosen.spans[chosen.spans.len() - 1]);
                    let at = |row, col| sluice_term::ViewportPoint { row, col };
                    terminal.start_selection(
                        SelectionKind::Simple,
                        at(first.row, first.start),
                        sluice_term::Side::Left,
                    );
                    terminal.extend_selection(
                        at(last.row, last.end.saturating_sub(1)),
                        sluice_term::Side::Right,
                    );
                    if let Some(text) = terminal.selection_text() {
                        self.shared.clipboard.set(ClipboardKind::Selection, text);
                    }
                }
            }
        }
    }
}

impl Window {
    /// Handles one event from the windowing system.
    pub fn event(&mut self, shared: &mut Shared, event: WindowEvent) {
        match event {
            WindowEvent::RedrawRequested => self.draw(shared),
            WindowEvent::Resized(size) => self.resize(shared, size),
            WindowEvent::ScaleFactorChanged { scale_factor, .. } => {
                self.requests.push(Request::ScaleFactor(scale_factor));
            }
            WindowEvent::Focused(focused) => self.focus_changed(focused),
            WindowEvent::Occluded(occluded) => self.occlusion_changed(occluded),
            WindowEvent::ModifiersChanged(mods) => self.modifiers = mods.state(),
            WindowEvent::KeyboardInput { event, .. } => self.key(shared, &event),
            WindowEvent::Ime(ime) => self.ime(ime),
            WindowEvent::CursorMoved { position, .. } => self.pointer_moved(shared, position),
            WindowEvent::CursorLeft { .. } => self.pointer_left(),
            WindowEvent::MouseInput {
                state: pressed,
                button,
                ..
            } => self.mouse_button(shared, button, pressed),
            WindowEvent::MouseWheel { delta, .. } => self.wheel(shared, delta),
            _ => {}
        }
    }

    fn key(&mut self, shared: &mut Shared, event: &KeyEvent) {
        if shared.cli.debug_window_panic && event.state == ElementState::Pressed {
            panic!("--debug-window-panic: a key was pressed");
        }
        let key = KeyInput::from_event(event);
        actions::key_input(
            &mut WindowContext {
                window: self,
                shared,
            },
            &key,
        );
    }

    /// The directory a new pane opened from the focused one starts in.
    fn spawn_here(&self) -> Spawn {
        Spawn {
            command: None,
            working_directory: self.focused_directory(),
        }
    }

    fn act(&mut self, shared: &mut Shared, action: Action) {
        let Some(id) = self.focused_id() else {
            return;
        };
        let font_points = shared.graphics.as_ref().map_or(12.0, |g| g.font_points);
        let Some(pane) = self.panes.get_mut(&id) else {
            return;
        };
        let rows = pane.snapshot.rows as i32;
        match action {
            Action::Copy => self.copy_selection(shared, ClipboardKind::Clipboard),
            Action::Paste => self.paste_from(shared, ClipboardKind::Clipboard),
            Action::PastePrimary => self.paste_from(shared, ClipboardKind::Selection),
            Action::ScrollPageUp => pane.scroll_view(rows),
            Action::ScrollPageDown => pane.scroll_view(-rows),
            Action::ScrollLineUp => pane.scroll_view(1),
            Action::ScrollLineDown => pane.scroll_view(-1),
            Action::ScrollToTop => pane.scroll_view(pane.snapshot.history_size as i32),
            Action::ScrollToBottom => {
                pane.scroll_to_bottom();
            }
            Action::FontBigger => self.requests.push(Request::FontSize(font_points + 1.0)),
            Action::FontSmaller => self.requests.push(Request::FontSize(font_points - 1.0)),
            Action::FontReset => self
                .requests
                .push(Request::FontSize(shared.config.font.size)),
            Action::Search => {
                pane.search = match pane.search.take() {
                    Some(_) => None,
                    None => Some(SearchBar::new(MatchColors::of(&shared.config))),
                };
            }
            Action::ToggleFreeze => pane.frozen = !pane.frozen,
            Action::ToggleMetricsOverlay => pane.toggle_overlay(),
            Action::NewWindow => {
                let spawn = self.spawn_here();
                self.requests.push(Request::NewWindow(spawn));
            }
            Action::NewInstance => match std::env::current_exe() {
                Ok(exe) => {
                    let mut command = std::process::Command::new(exe);
                    if let Some(dir) = self.focused_directory() {
                        command.current_dir(dir);
                    }
                    match command.spawn() {
                        Ok(mut child) => {
                            let _ = std::thread::Builder::new()
                                .name("new-instance".into())
                                .spawn(move || child.wait());
                        }
                        Err(err) => tracing::warn!(%err, "cannot start a new Sluice"),
                    }
                }
                Err(err) => tracing::warn!(%err, "cannot find Sluice's own binary"),
            },
            Action::NewTab => {
                let spawn = self.spawn_here();
                if let Err(err) = self.new_tab(shared, &spawn) {
                    tracing::warn!("cannot open a tab: {err:#}");
                }
            }
            Action::ClosePane => self.close_pane(shared, id),
            Action::NextTab => self.select_tab((self.active + 1) % self.tabs.len().max(1)),
            Action::PreviousTab => {
                let n = self.tabs.len().max(1);
                self.select_tab((self.active + n - 1) % n);
            }
            Action::GoToTab(index) => {
                if index < self.tabs.len() {
                    self.select_tab(index);
                }
            }
            Action::SplitRight | Action::SplitDown => {
                let direction = if action == Action::SplitRight {
                    SplitDirection::Right
                } else {
                    SplitDirection::Down
                };
                let spawn = self.spawn_here();
                if let Err(err) = self.split(shared, direction, &spawn) {
                    tracing::warn!("cannot split: {err:#}");
                }
            }
            Action::Focus(towards) => self.move_focus(shared, towards),
            Action::ResizeSplit(towards) => self.resize_split(shared, towards),
            Action::ToggleZoom => self.toggle_zoom(shared),
            Action::ScrollToPrompt(direction) => {
                pane.session.terminal.scroll_to_prompt(direction);
            }
            Action::CopyLastOutput => {
                if let Some(text) = pane.session.terminal.last_output_text() {
                    shared.clipboard.set(ClipboardKind::Clipboard, text);
                }
            }
            Action::ToggleViMode => pane.toggle_vi(),
            Action::Hints(index) => {
                let hints = &shared.config.hints;
                pane.hints = hints.sets.sets.get(index).and_then(|set| {
                    crate::pane::hints::Hints::start(set, &hints.alphabet, &pane.snapshot.lines)
                });
            }
            Action::ShowScrollback => {
                let text = pane
                    .session
                    .terminal
                    .dump(sluice_term::DumpFormat::Ansi, true);
                let spawn = self.spawn_here();
                match crate::pane::pager::spawn_for(text, spawn) {
                    Ok(spawn) => {
                        if let Err(err) = self.new_tab(shared, &spawn) {
                            tracing::warn!("cannot open the scrollback: {err:#}");
                        }
                    }
                    Err(err) => tracing::warn!("cannot write the scrollback: {err:#}"),
                }
            }
        }
        self.request_frame();
    }

    fn ime(&mut self, ime: Ime) {
        match ime {
            Ime::Preedit(text, _) => self.preedit = (!text.is_empty()).then_some(text),
            Ime::Commit(text) => {
                self.preedit = None;
                if let Some(pane) = self.focused() {
                    if let Some(search) = &mut pane.search {
                        search.push(&text, &pane.session.terminal);
                    } else {
                        pane.scroll_to_bottom();
                        pane.session.terminal.writer().write(text.into_bytes());
                    }
                }
            }
            Ime::Enabled | Ime::Disabled => self.preedit = None,
        }
        self.request_frame();
    }

    fn hide_pointer(&mut self) {
        if !self.mouse.hidden {
            self.mouse.hidden = true;
            self.os.set_cursor_visible(false);
        }
    }

    /// The shown pane under the pointer.
    fn pane_under_pointer(&self, shared: &Shared) -> Option<PaneId> {
        let g = shared.graphics.as_ref()?;
        let (col, row) = self.cell_at(g, self.mouse.x, self.mouse.y)?;
        self.visible(shared)
            .into_iter()
            .find(|(_, rect)| rect.contains(col, row))
            .map(|(id, _)| id)
    }

    /// Whether mouse events go to `pane`'s program: it asked, and Shift is not held (Shift
    /// bypasses reporting so the user can still select, as in xterm).
    fn reporting(&self, pane: PaneId) -> bool {
        self.panes.get(&pane).is_some_and(|p| {
            input::reporting(p.snapshot.modes, p.snapshot.mouse_x10) && !self.modifiers.shift_key()
        })
    }

    fn report(&mut self, shared: &Shared, id: PaneId, event: MouseEvent) {
        let (Some(g), Some(pane)) = (&shared.graphics, self.panes.get(&id)) else {
            return;
        };
        let (cell, _) = self.geometry(g, pane).cell(self.mouse.x, self.mouse.y);
        let mods = keys::mods(self.modifiers);
        let (modes, x10) = (pane.snapshot.modes, pane.snapshot.mouse_x10);
        if let Some(bytes) = input::encode_mouse(event, mods, cell.col, cell.row, modes, x10) {
            pane.session.terminal.writer().write(bytes);
        }
        self.mouse.reported_cell = Some(cell);
    }

    fn pointer_moved(&mut self, shared: &Shared, position: winit::dpi::PhysicalPosition<f64>) {
        (self.mouse.x, self.mouse.y) = (position.x, position.y);
        if self.mouse.hidden {
            self.mouse.hidden = false;
            self.os.set_cursor_visible(true);
        }
        let Some(g) = &shared.graphics else {
            return;
        };
        if let Some(border) = &self.dragging {
            let area = self.pane_area(shared);
            let to = self.cell_at(g, position.x, position.y).map_or(0, |(c, r)| {
                match border.direction {
                    SplitDirection::Right => c as i64,
                    SplitDirection::Down => r as i64,
                }
            });
            if let Some(tab) = self.tabs.get_mut(self.active) {
                let border = border.clone();
                if tab.layout.drag(area, &border, to) {
                    // The border moved: find it again where it is now.
                    self.dragging = tab
                        .layout
                        .place(area)
                        .1
                        .into_iter()
                        .find(|b| b.direction == border.direction && b.same_split(&border));
                    self.relayout(shared);
                }
            }
            return;
        }
        if let Some(id) = self.selecting_in {
            let Some(pane) = self.panes.get(&id) else {
                return;
            };
            let geometry = self.geometry(g, pane);
            let (cell, side) = geometry.cell(position.x, position.y);
            pane.session.terminal.extend_selection(cell, side);
            if geometry.autoscroll_lines(position.y) != 0 && self.autoscroll_at.is_none() {
                self.autoscroll_at = Some(Instant::now() + AUTOSCROLL_INTERVAL);
            }
            self.request_frame();
            return;
        }
        let Some(id) = self.pane_under_pointer(shared) else {
            self.pointer_left();
            return;
        };
        if self.reporting(id) {
            let cell = self
                .geometry(g, &self.panes[&id])
                .cell(position.x, position.y)
                .0;
            if self.mouse.reported_cell != Some(cell) {
                self.report(shared, id, MouseEvent::Motion(self.mouse.held));
            }
            return;
        }
        let cell = self
            .geometry(g, &self.panes[&id])
            .cell(position.x, position.y)
            .0;
        if self.mouse.hover_cell != Some((id, cell)) {
            self.mouse.hover_cell = Some((id, cell));
            self.hover(id, cell);
        }
    }

    /// Looks again for the link under the pointer after the text under it moved (output,
    /// scrolling), so an underline never stays on text that is no longer a link.
    pub(super) fn refresh_hover(&mut self, _shared: &Shared) {
        if let Some((id, cell)) = self.mouse.hover_cell
            && self
                .panes
                .get(&id)
                .is_some_and(|p| p.hovered_link.is_some())
        {
            self.hover(id, cell);
        }
    }

    /// Underlines the link under the pointer, if any, and shows a hand over it.
    fn hover(&mut self, id: PaneId, cell: sluice_term::ViewportPoint) {
        let Some(pane) = self.panes.get_mut(&id) else {
            return;
        };
        let link = pane
            .session
            .terminal
            .hyperlink_at(cell)
            .map(|h| links::Link {
                uri: h.uri,
                spans: h.spans,
                hyperlink: true,
            })
            .or_else(|| links::url_at(&pane.snapshot.lines, cell.row, cell.col));
        if link != pane.hovered_link {
            pane.hovered_link = link;
            self.update_pointer_icon();
            self.request_frame();
        }
    }

    fn pointer_left(&mut self) {
        if let Some((id, _)) = self.mouse.hover_cell.take()
            && let Some(pane) = self.panes.get_mut(&id)
            && pane.hovered_link.take().is_some()
        {
            self.update_pointer_icon();
            self.request_frame();
        }
    }

    pub(super) fn update_pointer_icon(&self) {
        let pane = self
            .mouse
            .hover_cell
            .and_then(|(id, _)| self.panes.get(&id))
            .or_else(|| self.focused_id().and_then(|id| self.panes.get(&id)));
        let icon = match pane {
            Some(p) if p.hovered_link.is_some() => CursorIcon::Pointer,
            Some(p) if input::reporting(p.snapshot.modes, p.snapshot.mouse_x10) => {
                CursorIcon::Default
            }
            _ => CursorIcon::Text,
        };
        self.os.set_cursor(icon);
    }

    fn mouse_button(
        &mut self,
        shared: &mut Shared,
        button: winit::event::MouseButton,
        state: ElementState,
    ) {
        let Some(button) = mouse_button(button) else {
            return;
        };
        let pressed = state == ElementState::Pressed;
        if !pressed && self.dragging.take().is_some() {
            return;
        }
        if pressed && self.press_outside_panes(shared, button) {
            return;
        }
        if pressed && self.press_on_problem_bar(shared) {
            return;
        }
        let Some(id) = self
            .selecting_in
            .or_else(|| self.pane_under_pointer(shared))
        else {
            return;
        };
        if pressed && self.focused_id() != Some(id) {
            self.focus_pane(id);
        }
        if self.reporting(id) && self.selecting_in.is_none() {
            if pressed {
                self.mouse.held.get_or_insert(button);
                self.report(shared, id, MouseEvent::Press(button));
            } else {
                self.report(shared, id, MouseEvent::Release(button));
                if self.mouse.held == Some(button) {
                    self.mouse.held = None;
                }
            }
            return;
        }
        if pressed && self.mouse_binding(shared, button) {
            return;
        }
        match (button, pressed) {
            (MouseButton::Left, true) => self.left_press(shared, id),
            (MouseButton::Left, false) => {
                self.selecting_in = None;
                self.autoscroll_at = None;
                // Selecting copies to the primary selection, as on every X11 terminal.
                self.copy_selection(shared, ClipboardKind::Selection);
                if shared.config.selection.copy_on_select {
                    self.copy_selection(shared, ClipboardKind::Clipboard);
                }
            }
            _ => {}
        }
    }

    /// A press of a button bound in `mouse.bindings` (the middle button's paste among
    /// them). True if it was bound. A bound left button no longer selects.
    fn mouse_binding(&mut self, shared: &mut Shared, button: MouseButton) -> bool {
        let Some(target) = shared.bindings.mouse(button, self.modifiers).cloned() else {
            return false;
        };
        let mut ctx = WindowContext {
            window: self,
            shared,
        };
        use actions::ActionContext as _;
        match target {
            Target::Action(action) => ctx.run(action),
            Target::Chars(text) => ctx.write_to_program(text.into_bytes(), true),
            Target::Command(command) => ctx.spawn(&command),
        }
        true
    }

    /// A press on the tab bar (left selects a tab, middle closes it) or on a split border
    /// (starts dragging it). True if it was one of those.
    fn press_outside_panes(&mut self, shared: &Shared, button: MouseButton) -> bool {
        let Some(g) = &shared.graphics else {
            return false;
        };
        let Some((col, row)) = self.cell_at(g, self.mouse.x, self.mouse.y) else {
            return false;
        };
        if self.tab_bar_shown(shared) && row == 0 {
            let cols = self.grid(g).0;
            if let Some(index) = tabs::tab_at(self.tabs.len(), cols, col) {
                match button {
                    MouseButton::Left => self.select_tab(index),
                    MouseButton::Middle => {
                        for id in self.tabs[index].layout.panes() {
                            self.close_pane(shared, id);
                        }
                    }
                    _ => {}
                }
            }
            return true;
        }
        if button == MouseButton::Left
            && let Some(tab) = self.tabs.get(self.active)
            && !tab.zoomed
            && let Some(border) = tab.layout.border_at(self.pane_area(shared), col, row)
        {
            self.dragging = Some(border);
            return true;
        }
        false
    }

    /// A press on the configuration's problem bar dismisses it (in this window, until the
    /// configuration has other problems).
    fn press_on_problem_bar(&mut self, shared: &Shared) -> bool {
        if self.problem_bar(shared).is_none() {
            return false;
        }
        let (Some(g), Some(pane)) = (
            &shared.graphics,
            self.focused_id().and_then(|id| self.panes.get(&id)),
        ) else {
            return false;
        };
        let geometry = self.geometry(g, pane);
        let bottom = geometry.y + geometry.rows as f64 * geometry.cell_height;
        let on_bar = self.mouse.y >= bottom - geometry.cell_height
            && self.mouse.y < bottom
            && self.mouse.x >= geometry.x
            && self.mouse.x < geometry.x + geometry.cols as f64 * geometry.cell_width;
        if on_bar {
            self.problems_dismissed = shared.problems.generation;
            self.request_frame();
        }
        on_bar
    }

    fn left_press(&mut self, shared: &Shared, id: PaneId) {
        let Some(g) = &shared.graphics else {
            return;
        };
        let Some(pane) = self.panes.get(&id) else {
            return;
        };
        let (cell, side) = self.geometry(g, pane).cell(self.mouse.x, self.mouse.y);
        let ctrl = self.modifiers.control_key();
        if ctrl && let Some(link) = &pane.hovered_link {
            if links::allowed(&link.uri, &shared.config.links.schemes) {
                links::open(&shared.config.links.opener, &link.uri);
            } else {
                tracing::warn!(uri = %link.uri, "link scheme not allowed; not opening it");
            }
            return;
        }
        let terminal = &pane.session.terminal;
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
        self.selecting_in = Some(id);
        self.request_frame();
    }

    /// One autoscroll step while a selection is dragged past the top or bottom edge.
    pub(super) fn autoscroll(&mut self, shared: &Shared, now: Instant) {
        let (Some(g), Some(pane)) = (
            &shared.graphics,
            self.selecting_in.and_then(|id| self.panes.get(&id)),
        ) else {
            self.autoscroll_at = None;
            return;
        };
        let geometry = self.geometry(g, pane);
        let lines = geometry.autoscroll_lines(self.mouse.y);
        if lines == 0 {
            self.autoscroll_at = None;
            return;
        }
        pane.session.terminal.scroll_view(-lines);
        let (cell, side) = geometry.cell(self.mouse.x, self.mouse.y);
        pane.session.terminal.extend_selection(cell, side);
        self.autoscroll_at = Some(now + AUTOSCROLL_INTERVAL);
        self.request_frame();
    }

    fn wheel(&mut self, shared: &Shared, delta: MouseScrollDelta) {
        let Some(id) = self.pane_under_pointer(shared) else {
            return;
        };
        let cell_height = shared
            .graphics
            .as_ref()
            .map_or(1.0, |g| g.renderer.cell_metrics().height as f64);
        // A notch scrolls three lines, but is one report to a program that asked for
        // mouse events (it decides what a notch is worth); a touchpad reports per line.
        let (lines, reports) = match delta {
            MouseScrollDelta::LineDelta(_, y) => {
                let notches = y.round() as i32;
                (
                    notches * i32::from(shared.config.scrolling.multiplier),
                    notches,
                )
            }
            MouseScrollDelta::PixelDelta(p) => {
                let lines = self.mouse.wheel_pixels(p.y, cell_height);
                (lines, lines)
            }
        };
        if lines == 0 {
            return;
        }
        if self.reporting(id) {
            let button = if lines > 0 {
                MouseButton::WheelUp
            } else {
                MouseButton::WheelDown
            };
            for _ in 0..reports.unsigned_abs() {
                self.report(shared, id, MouseEvent::Press(button));
            }
            return;
        }
        let shift = self.modifiers.shift_key();
        let Some(pane) = self.panes.get_mut(&id) else {
            return;
        };
        let modes = pane.snapshot.modes;
        if modes.contains(SnapshotModes::ALT_SCREEN | SnapshotModes::ALTERNATE_SCROLL) && !shift {
            // Full-screen programs without mouse support (less, man) scroll with arrows.
            let arrow: &[u8] = match (lines > 0, modes.contains(SnapshotModes::APP_CURSOR)) {
                (true, true) => b"\x1bOA",
                (true, false) => b"\x1b[A",
                (false, true) => b"\x1bOB",
                (false, false) => b"\x1b[B",
            };
            let bytes = arrow.repeat(lines.unsigned_abs() as usize);
            pane.session.terminal.writer().write(bytes);
        } else {
            pane.scroll_view(lines);
            self.request_frame();
        }
    }
}

/// Keys while the search bar is open: they edit the pattern instead of going to the
/// program.
fn search_key(pane: &mut crate::pane::Pane, event: &KeyInput, mods: ModifiersState) {
    let Some(search) = &mut pane.search else {
        return;
    };
    let terminal = &pane.session.terminal;
    match &event.logical_key {
        Key::Named(NamedKey::Escape) => pane.search = None,
        Key::Named(NamedKey::Enter) if search.vi_forward.is_some() => {
            let forward = search.vi_forward.unwrap_or(true);
            let query = search.query().to_owned();
            pane.search = None;
            vi_search(pane, &query, forward);
        }
        Key::Named(NamedKey::Enter) if mods.shift_key() => {
            search.advance(terminal, Direction::Right)
        }
        Key::Named(NamedKey::Enter) => search.advance(terminal, Direction::Left),
        Key::Named(NamedKey::Backspace) => search.backspace(terminal),
        _ => {
            if let Some(text) = event.text.as_deref().filter(|t| {
                !t.chars().any(char::is_control) && !mods.control_key() && !mods.alt_key()
            }) {
                search.push(text, terminal);
            }
        }
    }
}

/// A key in vi mode ([`crate::pane::vi`]).
fn vi_key(pane: &mut crate::pane::Pane, shared: &mut Shared, event: &KeyInput, ctrl: bool) {
    use crate::pane::vi::ViAction;
    let rows = pane.snapshot.rows;
    let Some(vi) = &mut pane.vi else {
        return;
    };
    let action = vi.key(&event.logical_key, ctrl, rows);
    let terminal = &pane.session.terminal;
    match action {
        ViAction::None => {}
        ViAction::Command(command) => {
            terminal.vi(command);
        }
        ViAction::Yank => {
            if let Some(text) = terminal.selection_text() {
                shared.clipboard.set(ClipboardKind::Clipboard, text);
            }
            terminal.clear_selection();
        }
        ViAction::Exit => pane.toggle_vi(),
        ViAction::Escape if terminal.has_selection() => terminal.clear_selection(),
        ViAction::Escape => pane.toggle_vi(),
        ViAction::Search { forward } => {
            let mut bar = SearchBar::new(MatchColors::of(&shared.config));
            bar.vi_forward = Some(forward);
            pane.search = Some(bar);
        }
        ViAction::SearchAgain { reverse } => {
            if let (Some((search, forward)), Some(cursor)) =
                (&mut pane.vi_search, terminal.vi_cursor())
            {
                let direction = sluice_term::vi::search_direction(*forward != reverse);
                if search.advance_from(terminal, Some(cursor), direction)
                    && let Some(start) = search.focused_start()
                {
                    terminal.vi_goto(start);
                }
            }
        }
        ViAction::OpenLink => open_link_at_vi_cursor(pane, shared),
    }
    // The selection is the primary selection as it grows, as a mouse selection is.
    if let Some(text) = pane.session.terminal.selection_text() {
        shared.clipboard.set(ClipboardKind::Selection, text);
    }
}

/// Enter in a search bar opened from vi mode: the vi cursor goes to the first match after it
/// (`/`) or before it (`?`), and `n` and `N` go on from there.
fn vi_search(pane: &mut crate::pane::Pane, query: &str, forward: bool) {
    let terminal = &pane.session.terminal;
    let (Ok(mut search), Some(cursor)) = (sluice_term::Search::new(query), terminal.vi_cursor())
    else {
        return;
    };
    let direction = sluice_term::vi::search_direction(forward);
    if search.advance_from(terminal, Some(cursor), direction)
        && let Some(start) = search.focused_start()
    {
        terminal.vi_goto(start);
    }
    pane.vi_search = Some((search, forward));
}

/// `o` in vi mode: the link under the cursor (OSC 8, else a URL in the text), if its scheme
/// is allowed.
fn open_link_at_vi_cursor(pane: &mut crate::pane::Pane, shared: &Shared) {
    let terminal = &pane.session.terminal;
    let Some((row, col)) = terminal.vi_cursor_in_view() else {
        return;
    };
    let uri = terminal
        .hyperlink_at(sluice_term::ViewportPoint { row, col })
        .map(|link| link.uri)
        .or_else(|| links::url_at(&pane.snapshot.lines, row, col).map(|link| link.uri));
    if let Some(uri) = uri
        && links::allowed(&uri, &shared.config.links.schemes)
    {
        links::open(&shared.config.links.opener, &uri);
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

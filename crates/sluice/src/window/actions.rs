//! Where a key goes, decided through an action context (Alacritty's `ActionContext` is the
//! model): the routing is written once against the trait, the window implements it, and the
//! tests below drive it with a context that only records what it was asked, no window needed.
//!
//! The order: a paste waiting for confirmation takes every key, then hints waiting for a
//! label do; then the window's bindings
//! (press acts, release is swallowed so a kitty-protocol program never sees a release without
//! its press); then the search bar; then vi mode; a pane whose program ended (`--hold`) takes nothing else;
//! everything else is encoded for the program.

use sluice_term::SnapshotModes;
use sluice_term::input::{self, KeyAction};
use winit::keyboard::{Key, ModifiersState};

use super::bindings::{Action, Target};
use super::keys::{self, KeyInput};

/// What the focused pane's keys go to now, besides bindings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyTarget {
    /// No pane (a window closing).
    Nothing,
    /// A paste is waiting for the user to confirm it.
    PasteConfirm,
    /// Hints are shown, waiting for a label.
    Hints,
    /// The search bar is open.
    Search,
    /// Vi mode is on: keys move its cursor, none go to the program.
    Vi,
    /// The program ended and the pane is held open.
    Ended,
    Program,
}

/// What key handling may read and do.
pub trait ActionContext {
    fn modifiers(&self) -> ModifiersState;
    fn key_target(&self) -> KeyTarget;
    /// What `key` (as typed without modifiers) is bound to with the modifiers held now, in
    /// the focused pane's modes.
    fn binding(&self, key: &Key) -> Option<Target>;
    /// The focused pane's terminal modes (cursor keys, kitty flags, …).
    fn modes(&self) -> SnapshotModes;
    /// A key went down: the cursor shows at once and its blinking starts over.
    fn key_pressed(&mut self);
    fn answer_paste(&mut self, key: &Key);
    fn hint_key(&mut self, key: &KeyInput);
    fn search_key(&mut self, key: &KeyInput);
    fn vi_key(&mut self, key: &KeyInput);
    fn run(&mut self, action: Action);
    /// Starts a bound command, and leaves it running.
    fn spawn(&mut self, command: &[String]);
    /// Drops what is left of pastes the program is not reading (before a ^C).
    fn cancel_pastes(&mut self);
    /// Bytes for the focused pane's program. `typed`: a press or repeat, which scrolls the
    /// view back to the bottom and hides the pointer.
    fn write_to_program(&mut self, bytes: Vec<u8>, typed: bool);
}

/// Handles one key event.
pub fn key_input(ctx: &mut impl ActionContext, key: &KeyInput) {
    let pressed = key.pressed();
    if pressed {
        ctx.key_pressed();
    }
    let target = ctx.key_target();
    match target {
        KeyTarget::Nothing => return,
        KeyTarget::PasteConfirm => {
            // Every key answers the question or is ignored: nothing reaches the program
            // while it is open.
            if pressed {
                ctx.answer_paste(&key.logical_key);
            }
            return;
        }
        KeyTarget::Hints => {
            // Labels are letters that bindings may use too: the hints come first.
            if pressed {
                ctx.hint_key(key);
            }
            return;
        }
        _ => {}
    }
    if let Some(target) = ctx.binding(&key.key_without_modifiers) {
        if pressed {
            match target {
                Target::Action(action) => ctx.run(action),
                Target::Chars(text) => ctx.write_to_program(text.into_bytes(), true),
                Target::Command(command) => ctx.spawn(&command),
            }
        }
        return;
    }
    match target {
        KeyTarget::Search => {
            if pressed {
                ctx.search_key(key);
            }
            return;
        }
        KeyTarget::Vi => {
            if pressed {
                ctx.vi_key(key);
            }
            return;
        }
        KeyTarget::Ended => return,
        _ => {}
    }
    let mods = ctx.modifiers();
    let Some(press) = keys::key_press(key, mods) else {
        return;
    };
    let Some(bytes) = input::encode_key(&press, ctx.modes()) else {
        return;
    };
    if bytes == [0x03] {
        // ^C also drops what is left of a paste the program is not reading, so the interrupt
        // is not queued behind megabytes of it.
        ctx.cancel_pastes();
    }
    ctx.write_to_program(bytes, press.action != KeyAction::Release);
}

#[cfg(test)]
mod tests {
    use super::super::bindings::KeyModes;
    use winit::event::ElementState;
    use winit::keyboard::{KeyLocation, NamedKey};

    use super::*;

    #[derive(Debug, Clone, PartialEq)]
    enum Call {
        Pressed,
        Answer(Key),
        Search(Key),
        Vi(Key),
        Hint(Key),
        Run(Action),
        Cancel,
        Write(Vec<u8>, bool),
        Spawn(Vec<String>),
    }

    struct Recorder {
        bindings: super::super::bindings::Bindings,
        mods: ModifiersState,
        target: KeyTarget,
        modes: SnapshotModes,
        calls: Vec<Call>,
    }

    impl ActionContext for Recorder {
        fn modifiers(&self) -> ModifiersState {
            self.mods
        }
        fn key_target(&self) -> KeyTarget {
            self.target
        }
        fn binding(&self, key: &Key) -> Option<Target> {
            let modes = KeyModes {
                search: self.target == KeyTarget::Search,
                ..KeyModes::default()
            };
            self.bindings.lookup(key, self.mods, modes).cloned()
        }
        fn spawn(&mut self, command: &[String]) {
            self.calls.push(Call::Spawn(command.to_vec()));
        }
        fn modes(&self) -> SnapshotModes {
            self.modes
        }
        fn key_pressed(&mut self) {
            self.calls.push(Call::Pressed);
        }
        fn answer_paste(&mut self, key: &Key) {
            self.calls.push(Call::Answer(key.clone()));
        }
        fn search_key(&mut self, key: &KeyInput) {
            self.calls.push(Call::Search(key.logical_key.clone()));
        }
        fn hint_key(&mut self, key: &KeyInput) {
            self.calls.push(Call::Hint(key.logical_key.clone()));
        }
        fn vi_key(&mut self, key: &KeyInput) {
            self.calls.push(Call::Vi(key.logical_key.clone()));
        }
        fn run(&mut self, action: Action) {
            self.calls.push(Call::Run(action));
        }
        fn cancel_pastes(&mut self) {
            self.calls.push(Call::Cancel);
        }
        fn write_to_program(&mut self, bytes: Vec<u8>, typed: bool) {
            self.calls.push(Call::Write(bytes, typed));
        }
    }

    fn key(c: &str, state: ElementState) -> KeyInput {
        KeyInput {
            logical_key: Key::Character(c.into()),
            key_without_modifiers: Key::Character(c.into()),
            text: Some(c.into()),
            location: KeyLocation::Standard,
            state,
            repeat: false,
        }
    }

    fn calls(target: KeyTarget, mods: ModifiersState, keys: &[KeyInput]) -> Vec<Call> {
        let mut ctx = Recorder {
            bindings: Default::default(),
            mods,
            target,
            modes: SnapshotModes::empty(),
            calls: Vec::new(),
        };
        for k in keys {
            key_input(&mut ctx, k);
        }
        ctx.calls
    }

    const DOWN: ElementState = ElementState::Pressed;
    const UP: ElementState = ElementState::Released;

    #[test]
    fn keys_go_where_the_pane_is_at() {
        let none = ModifiersState::empty();
        let cs = ModifiersState::CONTROL | ModifiersState::SHIFT;
        let a = [key("a", DOWN), key("a", UP)];
        let t = [key("t", DOWN), key("t", UP)];
        let (w, c) = ([key("w", DOWN)], [key("c", DOWN)]);
        use Call::*;
        let table: Vec<(KeyTarget, ModifiersState, &[KeyInput], Vec<Call>)> = vec![
            // Typed text reaches the program; its release does not (no kitty flags).
            (
                KeyTarget::Program,
                none,
                &a,
                vec![Pressed, Write(b"a".to_vec(), true)],
            ),
            // A binding acts on the press and swallows the release.
            (
                KeyTarget::Program,
                cs,
                &t,
                vec![Pressed, Run(Action::NewTab)],
            ),
            // The paste bar takes everything, bindings included.
            (
                KeyTarget::PasteConfirm,
                none,
                &a,
                vec![Pressed, Answer(Key::Character("a".into()))],
            ),
            (
                KeyTarget::PasteConfirm,
                cs,
                &t,
                vec![Pressed, Answer(Key::Character("t".into()))],
            ),
            // The search bar takes text, but bindings come first.
            (
                KeyTarget::Search,
                none,
                &a,
                vec![Pressed, Search(Key::Character("a".into()))],
            ),
            (
                KeyTarget::Search,
                cs,
                &t,
                vec![Pressed, Run(Action::NewTab)],
            ),
            // Hints take every key, bound or not.
            (
                KeyTarget::Hints,
                cs,
                &t,
                vec![Pressed, Hint(Key::Character("t".into()))],
            ),
            // Vi mode takes plain keys; bindings still act.
            (
                KeyTarget::Vi,
                none,
                &a,
                vec![Pressed, Vi(Key::Character("a".into()))],
            ),
            (KeyTarget::Vi, cs, &t, vec![Pressed, Run(Action::NewTab)]),
            // A held pane whose program ended types nothing, but still closes by its key.
            (KeyTarget::Ended, none, &a, vec![Pressed]),
            (
                KeyTarget::Ended,
                cs,
                &w,
                vec![Pressed, Run(Action::ClosePane)],
            ),
            (KeyTarget::Nothing, none, &a, vec![Pressed]),
            // ^C cancels stuck pastes before it is sent.
            (
                KeyTarget::Program,
                ModifiersState::CONTROL,
                &c,
                vec![Pressed, Cancel, Write(vec![0x03], true)],
            ),
        ];
        for (target, mods, keys, want) in table {
            assert_eq!(
                calls(target, mods, keys),
                want,
                "{target:?} {mods:?} {keys:?}"
            );
        }
    }

    #[test]
    fn a_kitty_program_gets_releases_of_unbound_keys_only() {
        let mut ctx = Recorder {
            bindings: Default::default(),
            mods: ModifiersState::empty(),
            target: KeyTarget::Program,
            modes: SnapshotModes::DISAMBIGUATE_ESC_CODES
                | SnapshotModes::REPORT_EVENT_TYPES
                | SnapshotModes::REPORT_ALL_KEYS_AS_ESC,
            calls: Vec::new(),
        };
        key_input(&mut ctx, &key("a", UP));
        assert!(
            matches!(ctx.calls.last(), Some(Call::Write(_, false))),
            "a release, reported but not typed: {:?}",
            ctx.calls
        );
        let enter = KeyInput {
            logical_key: Key::Named(NamedKey::Enter),
            key_without_modifiers: Key::Named(NamedKey::Enter),
            text: Some("\r".into()),
            location: KeyLocation::Standard,
            state: DOWN,
            repeat: false,
        };
        ctx.calls.clear();
        ctx.mods = ModifiersState::CONTROL | ModifiersState::SHIFT;
        key_input(&mut ctx, &enter);
        assert_eq!(
            ctx.calls,
            vec![Call::Pressed, Call::Run(Action::ToggleZoom)]
        );
    }
}

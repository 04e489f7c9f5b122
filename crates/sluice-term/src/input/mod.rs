//! Encoding what the user sends to the program: keys, mouse events and pastes.
//!
//! Everything here is a pure function of the input and the terminal's modes, with no window
//! types, so front ends share it and tests check it table-wise against the sequences xterm
//! and kitty document.

pub mod keyboard;
pub mod mouse;
mod paste;

pub use keyboard::{Key, KeyAction, KeyPress, Keypad, Modifier, Mods, Named, encode_key};
pub use mouse::{MouseButton, MouseEvent, encode_mouse, reporting};
pub use paste::{encode_paste, is_unsafe_paste};

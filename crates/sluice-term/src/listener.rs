//! The `EventListener` alacritty_terminal calls from inside `advance()`.
//!
//! It runs with the terminal lock held, so it only queues: no PTY writes, no channel that can
//! block, no wake-ups. The parser thread routes the queue after each slice.

use std::sync::{Arc, Mutex};

use alacritty_terminal::event::{Event, EventListener};

/// Queues the terminal's events for the parser thread to route. Opaque outside this crate.
#[derive(Clone, Default)]
pub struct EventQueue {
    events: Arc<Mutex<Vec<Event>>>,
}

impl EventQueue {
    /// Takes everything queued so far. The swap keeps the vector's capacity on our side.
    pub(crate) fn drain_into(&self, out: &mut Vec<Event>) {
        let mut events = self.events.lock().unwrap_or_else(|p| p.into_inner());
        if !events.is_empty() {
            std::mem::swap(&mut *events, out);
        }
    }
}

impl EventListener for EventQueue {
    fn send_event(&self, event: Event) {
        // Only the thread holding the terminal lock calls this, so the mutex is uncontended.
        self.events
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(event);
    }
}

/// The listener type of Sluice's `Term`, as seen by [`Terminal::with_term`](crate::Terminal::with_term).
pub type TermListener = EventQueue;

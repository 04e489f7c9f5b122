//! What other threads tell the UI thread, and the ids that say whom it concerns.
//!
//! Every event that comes from a terminal carries its pane's id, so the application finds
//! the window and the pane it is for; nothing assumes there is one terminal.

use std::sync::atomic::{AtomicU64, Ordering};

/// A pane: one terminal, anywhere in the process. Ids are never reused, so an event for a
/// pane that has closed finds nothing instead of finding its successor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PaneId(pub u64);

impl PaneId {
    /// A new id, unique in this process.
    pub fn next() -> PaneId {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        PaneId(NEXT.fetch_add(1, Ordering::Relaxed))
    }
}

impl std::fmt::Display for PaneId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// Messages from other threads to the UI thread.
#[derive(Debug)]
pub enum UserEvent {
    /// The pane's parser has something new (a frame, or an event for the application).
    Wakeup(PaneId),
    /// The pane's program exited.
    ChildExited(PaneId),
    /// The configuration file changed.
    ConfigChanged,
    /// A request from `sluice msg`, with where its answer goes.
    Remote(crate::ipc::Envelope),
    /// The desktop's colour scheme is (now) light, or dark (`crate::appearance`).
    PrefersLight(bool),
}

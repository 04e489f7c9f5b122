//! Desktop notifications (freedesktop, over D-Bus, through notify-rust): what programs ask for
//! with OSC 9, 777 and 99, and long commands that finished while their pane was out of sight.
//!
//! Sending one is a D-Bus round trip to the notification daemon (a few milliseconds, and no
//! bound when the session bus is stuck), so it happens on a thread of its own, never on the UI
//! thread. The queue to it is bounded ([`QUEUE`]): what a stuck daemon cannot take is dropped,
//! not kept. How often one pane may notify is [`RateLimit`]'s, per pane.

use std::sync::mpsc::{SyncSender, TrySendError};
use std::time::{Duration, Instant};

use sluice_term::Notification;

/// Notifications waiting for the daemon. Each pane sends at most one every
/// `notifications.min_interval`, so this only fills when the daemon stops answering.
const QUEUE: usize = 16;

/// The sending thread's end of the queue.
pub struct Notifier {
    queue: Option<SyncSender<Notification>>,
}

impl Notifier {
    /// Starts the sending thread (it ends when the process does).
    pub fn start() -> Notifier {
        let (queue, receive) = std::sync::mpsc::sync_channel::<Notification>(QUEUE);
        let thread = std::thread::Builder::new()
            .name("notifier".into())
            .spawn(move || {
                let mut warned = false;
                for notification in receive {
                    if let Err(err) = show(&notification)
                        && !std::mem::replace(&mut warned, true)
                    {
                        tracing::warn!(%err, "cannot show a desktop notification");
                    }
                }
            });
        match thread {
            Ok(_) => Notifier { queue: Some(queue) },
            Err(err) => {
                tracing::warn!(%err, "cannot start the notification thread");
                Notifier { queue: None }
            }
        }
    }

    /// Queues `notification`; drops it if the daemon is that far behind.
    pub fn send(&self, notification: Notification) {
        if let Some(queue) = &self.queue
            && let Err(TrySendError::Full(_)) = queue.try_send(notification)
        {
            tracing::debug!("notification dropped: the daemon is not keeping up");
        }
    }
}

fn show(notification: &Notification) -> Result<(), notify_rust::error::Error> {
    let summary = if notification.title.is_empty() {
        "Sluice"
    } else {
        &notification.title
    };
    notify_rust::Notification::new()
        .appname("Sluice")
        .summary(summary)
        .body(&notification.body)
        .icon("dev.sluice.Sluice")
        .show()
        .map(drop)
}

/// The notification for a command that ran `duration` and ended with `status`.
pub fn command_finished(
    status: Option<i32>,
    duration: Duration,
    pane_title: Option<&str>,
) -> Notification {
    let outcome = match status {
        Some(0) | None => "Command finished".to_owned(),
        Some(code) => format!("Command failed (exit status {code})"),
    };
    Notification {
        title: outcome,
        body: format!(
            "{}after {}",
            pane_title.map(|t| format!("{t}, ")).unwrap_or_default(),
            human(duration)
        ),
    }
}

fn human(duration: Duration) -> String {
    let secs = duration.as_secs();
    match secs {
        0..60 => format!("{secs} s"),
        60..3600 => format!("{} min {} s", secs / 60, secs % 60),
        _ => format!("{} h {} min", secs / 3600, secs % 3600 / 60),
    }
}

/// At most one notification per `min_interval` from one pane; the ones in between are
/// dropped.
#[derive(Debug, Default)]
pub struct RateLimit {
    last: Option<Instant>,
}

impl RateLimit {
    /// Whether one may go out at `now`; counts it if so.
    pub fn allow(&mut self, now: Instant, min_interval: Duration) -> bool {
        let allowed = self
            .last
            .is_none_or(|last| now.saturating_duration_since(last) >= min_interval);
        if allowed {
            self.last = Some(now);
        }
        allowed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pane_notifies_at_most_once_an_interval() {
        let mut limit = RateLimit::default();
        let t0 = Instant::now();
        let every = Duration::from_secs(2);
        assert!(limit.allow(t0, every));
        assert!(!limit.allow(t0 + Duration::from_millis(100), every));
        assert!(!limit.allow(t0 + Duration::from_millis(1999), every));
        assert!(limit.allow(t0 + every, every));
        assert!(limit.allow(t0 + every, Duration::ZERO), "0 limits nothing");
    }

    #[test]
    fn finished_commands_say_how_they_ended_and_how_long_they_ran() {
        let done = command_finished(Some(0), Duration::from_secs(75), Some("make"));
        assert_eq!(done.title, "Command finished");
        assert_eq!(done.body, "make, after 1 min 15 s");
        let failed = command_finished(Some(2), Duration::from_secs(12), None);
        assert_eq!(failed.title, "Command failed (exit status 2)");
        assert_eq!(failed.body, "after 12 s");
        assert_eq!(human(Duration::from_secs(7322)), "2 h 2 min");
    }
}

//! Applying a configuration file that changed while the window is open.
//!
//! Everything applies at once except `terminal.flow_control`, which is a property of the PTY
//! set when the program starts; a change to it is reported and applies to new windows.

use std::time::{Duration, Instant};

use super::TermWindow;
use crate::config::{self, Config};

/// Editors write a file in several steps (truncate, write, rename): wait for them to finish
/// and read it once.
pub(super) const SETTLE: Duration = Duration::from_millis(50);

impl TermWindow {
    /// The configuration file changed: read it when it has settled.
    pub(super) fn config_changed(&mut self) {
        self.reload_at.get_or_insert(Instant::now() + SETTLE);
    }

    /// Reads the file again and applies what changed. Bad values keep their defaults and are
    /// reported, as at start-up; the command line's options still win.
    pub(super) fn reload_config(&mut self) {
        self.reload_at = None;
        let mut loaded = config::load(self.cli.config.as_deref());
        loaded.report();
        self.cli.apply_to(&mut loaded.config);
        if loaded.config != self.config {
            tracing::info!("configuration reloaded");
            self.apply_config(loaded.config);
        }
    }

    fn apply_config(&mut self, new: Config) {
        let old = std::mem::replace(&mut self.config, new.clone());
        if (&new.font_family, new.font_size) != (&old.font_family, old.font_size) {
            self.font.family = new.font_family.clone();
            self.set_font_points(new.font_size, self.window.scale_factor());
        }
        let terminal = new.terminal_options();
        if terminal != old.terminal_options() {
            self.session.terminal.reconfigure(&terminal);
        }
        if new.metrics_overlay != self.overlay.is_some()
            && new.metrics_overlay != old.metrics_overlay
        {
            self.toggle_overlay();
        }
        if new.blink_timeout_s != old.blink_timeout_s {
            self.blink
                .set_timeout(Duration::from_secs_f64(new.blink_timeout_s));
        }
        if new.flow_control != old.flow_control {
            let message = "terminal.flow_control applies to windows opened from now on";
            eprintln!("sluice: {message}");
            tracing::warn!("{message}");
        }
        self.request_frame();
    }
}

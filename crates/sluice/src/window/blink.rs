//! The cursor's blinking, which stops a while after the last key press so that an idle
//! window draws nothing.

use std::time::{Duration, Instant};

#[derive(Debug)]
pub struct Blink {
    timeout: Duration,
    /// Half a blink period (`cursor.blink_interval`).
    interval: Duration,
    last_input: Instant,
    visible: bool,
    next_toggle: Option<Instant>,
}

impl Blink {
    pub fn new(timeout: Duration, interval: Duration, now: Instant) -> Self {
        Self {
            timeout,
            interval,
            last_input: now,
            visible: true,
            next_toggle: None,
        }
    }

    /// How long after the last key press blinking stops (a configuration reload).
    pub fn set_timeout(&mut self, timeout: Duration, interval: Duration) {
        self.timeout = timeout;
        self.interval = interval;
    }

    /// A key was pressed: the cursor shows at once and blinking starts over.
    pub fn input(&mut self, now: Instant) {
        self.last_input = now;
        self.visible = true;
        self.next_toggle = None;
    }

    /// Whether the cursor is drawn now, given whether it should blink at all; advances the
    /// phase when its time has come. Returns (visible, changed).
    pub fn update(&mut self, blinking: bool, focused: bool, now: Instant) -> (bool, bool) {
        let was = self.visible;
        if !blinking || !focused || now.duration_since(self.last_input) >= self.timeout {
            self.visible = true;
            self.next_toggle = None;
        } else {
            match self.next_toggle {
                Some(at) if now >= at => {
                    self.visible = !self.visible;
                    self.next_toggle = Some(now + self.interval);
                }
                Some(_) => {}
                None => self.next_toggle = Some(now + self.interval),
            }
        }
        (self.visible, self.visible != was)
    }

    /// When the cursor next changes, if it blinks.
    pub fn next_change(&self) -> Option<Instant> {
        self.next_toggle
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blinks_then_stops_after_the_timeout() {
        let t0 = Instant::now();
        let mut blink = Blink::new(Duration::from_secs(5), Duration::from_millis(530), t0);
        assert_eq!(blink.update(true, true, t0), (true, false));
        assert_eq!(
            blink.next_change(),
            Some(t0 + Duration::from_millis(530)),
            "the interval is the configured one"
        );
        let mut blink = Blink::new(Duration::from_secs(5), Duration::from_millis(530), t0);
        assert_eq!(blink.update(true, true, t0), (true, false));
        let at = blink.next_change().unwrap();
        assert_eq!(blink.update(true, true, at), (false, true));
        let at = blink.next_change().unwrap();
        assert_eq!(blink.update(true, true, at), (true, true));
        // Past the timeout it stays visible and asks for no more wake-ups.
        let late = t0 + Duration::from_secs(6);
        blink.update(true, true, late);
        assert_eq!(blink.update(true, true, late), (true, false));
        assert_eq!(blink.next_change(), None);
        // A key press starts it again.
        blink.input(late);
        blink.update(true, true, late);
        assert!(blink.next_change().is_some());
        // A steady cursor never blinks.
        assert_eq!(blink.update(false, true, late), (true, false));
        assert_eq!(blink.next_change(), None);
    }
}

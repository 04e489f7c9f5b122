//! A private X server for a comparison run where there is no display: every terminal is
//! measured on the same bare server (no window manager, no compositor), which is also what
//! makes runs on different machines compare.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};

use super::ParentDeath as _;

/// The display the environment names, if any. An empty `DISPLAY` is none: an X client given
/// it fails to connect, and `DISPLAY= sluice-bench compare …` had every terminal exit before
/// its probe started, where it should have run on a private server.
pub fn given_display(value: Option<std::ffi::OsString>) -> Option<String> {
    value
        .map(|v| v.to_string_lossy().into_owned())
        .filter(|v| !v.is_empty())
}

/// A running Xvfb, stopped when dropped.
pub struct Xvfb {
    pub display: String,
    child: Child,
}

impl Xvfb {
    /// Starts Xvfb on the first free display from :90 and waits until it takes clients.
    pub fn start() -> anyhow::Result<Xvfb> {
        let free = |n: &u32| {
            !Path::new(&format!("/tmp/.X{n}-lock")).exists()
                && !Path::new(&format!("/tmp/.X11-unix/X{n}")).exists()
        };
        let number = (90..1000).find(free).context("no free X display number")?;
        let display = format!(":{number}");
        let child = Command::new("Xvfb")
            // 1920x1200 holds a 200x60 window of DejaVu Sans Mono 10 pt.
            .args([&display, "-screen", "0", "1920x1200x24", "-nolisten", "tcp"])
            // An X server resets when its last client leaves, refusing connections meanwhile,
            // which would race the next terminal's start.
            .arg("-noreset")
            .with_parent_death_signal()
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .context("there is no DISPLAY and Xvfb cannot be started (apt-get install xvfb)")?;
        let mut xvfb = Xvfb { display, child };
        let deadline = Instant::now() + Duration::from_secs(10);
        while x11rb::connect(Some(&xvfb.display)).is_err() {
            if let Some(status) = xvfb.child.try_wait()? {
                bail!("Xvfb {} exited at once ({status})", xvfb.display);
            }
            if Instant::now() > deadline {
                bail!("Xvfb {} did not take clients within 10 s", xvfb.display);
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        Ok(xvfb)
    }
}

impl Drop for Xvfb {
    /// SIGTERM, so the server removes its lock file and socket (SIGKILL leaves them, and the
    /// display number stays taken); SIGKILL only if it has not gone within 2 s.
    fn drop(&mut self) {
        // SAFETY: signals the server this value started.
        unsafe { libc::kill(self.child.id() as libc::pid_t, libc::SIGTERM) };
        let deadline = Instant::now() + Duration::from_secs(2);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::given_display;

    #[test]
    fn an_unset_or_empty_display_names_none() {
        assert_eq!(given_display(None), None);
        assert_eq!(given_display(Some("".into())), None);
        assert_eq!(given_display(Some(":0".into())), Some(":0".to_owned()));
        assert_eq!(
            given_display(Some("localhost:10.0".into())),
            Some("localhost:10.0".to_owned())
        );
    }
}

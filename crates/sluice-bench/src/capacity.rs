//! `sluice-bench pty-capacity`: how many bytes a PTY (cooked and raw) and a pipe accept with
//! nobody reading, i.e. how long a program can write before a stalled reader stops it.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};

use serde::Serialize;

/// One measurement.
#[derive(Debug, Clone, Serialize)]
pub struct Capacity {
    pub channel: &'static str,
    pub bytes: usize,
}

fn set_nonblocking(fd: RawFd) -> io::Result<()> {
    // SAFETY: fcntl flag calls on a descriptor we own.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        if flags < 0 || libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) < 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Writes into `fd` (non-blocking) until the kernel refuses, and counts what it took.
/// Big writes first, then single bytes, so the count is exact.
fn fill(fd: RawFd) -> io::Result<usize> {
    let block = [b'x'; 1024];
    let mut total = 0;
    for size in [1024, 1] {
        loop {
            // SAFETY: writes from a valid buffer to a descriptor we own.
            let n = unsafe { libc::write(fd, block.as_ptr().cast(), size) };
            if n > 0 {
                total += n as usize;
                continue;
            }
            let err = io::Error::last_os_error();
            if err.kind() == io::ErrorKind::WouldBlock {
                break;
            }
            if err.kind() != io::ErrorKind::Interrupted {
                return Err(err);
            }
        }
    }
    Ok(total)
}

/// What a program writing to a PTY slave can write before it blocks, with nobody reading the
/// master. `raw` puts the line discipline in raw mode first (no output processing).
pub fn pty(raw: bool) -> io::Result<usize> {
    let (mut master, mut slave) = (0, 0);
    // SAFETY: openpty fills in two descriptors, which we then own.
    if unsafe {
        libc::openpty(
            &mut master,
            &mut slave,
            std::ptr::null_mut(),
            std::ptr::null(),
            std::ptr::null(),
        )
    } != 0
    {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: both descriptors were just returned by openpty.
    let (_master, slave) = unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
    if raw {
        // SAFETY: termios is plain data filled by tcgetattr before use.
        let mut tio: libc::termios = unsafe { std::mem::zeroed() };
        unsafe {
            if libc::tcgetattr(slave.as_raw_fd(), &mut tio) != 0 {
                return Err(io::Error::last_os_error());
            }
            libc::cfmakeraw(&mut tio);
            if libc::tcsetattr(slave.as_raw_fd(), libc::TCSANOW, &tio) != 0 {
                return Err(io::Error::last_os_error());
            }
        }
    }
    set_nonblocking(slave.as_raw_fd())?;
    fill(slave.as_raw_fd())
}

/// What a pipe takes with nobody reading.
pub fn pipe() -> io::Result<usize> {
    let mut fds = [0; 2];
    // SAFETY: pipe2 fills in two descriptors, which we then own.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_NONBLOCK | libc::O_CLOEXEC) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: both descriptors were just returned by pipe2.
    let (_read, write) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    fill(write.as_raw_fd())
}

/// All three measurements.
pub fn measure() -> io::Result<Vec<Capacity>> {
    Ok(vec![
        Capacity {
            channel: "pty (cooked)",
            bytes: pty(false)?,
        },
        Capacity {
            channel: "pty (raw)",
            bytes: pty(true)?,
        },
        Capacity {
            channel: "pipe",
            bytes: pipe()?,
        },
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pty_and_a_pipe_hold_a_bounded_amount() {
        let cooked = pty(false).unwrap();
        let raw = pty(true).unwrap();
        let pipe = pipe().unwrap();
        // Linux: a few KiB to a few tens of KiB for a PTY, 64 KiB for a pipe by default.
        assert!((1024..1 << 20).contains(&cooked), "cooked {cooked}");
        assert!((1024..1 << 20).contains(&raw), "raw {raw}");
        assert!((4096..16 << 20).contains(&pipe), "pipe {pipe}");
    }
}

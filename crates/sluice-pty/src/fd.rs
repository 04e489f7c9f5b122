//! Thin, safe wrappers over the few system calls the PTY threads need.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;
use std::time::Duration;

/// Returns a new descriptor for the same open file, close-on-exec.
pub(crate) fn dup(fd: RawFd) -> io::Result<OwnedFd> {
    // SAFETY: F_DUPFD_CLOEXEC only reads `fd`; a valid result is a descriptor we now own.
    let new = unsafe { libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, 0) };
    if new < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `new` was just returned by the kernel and is owned by nobody else.
    Ok(unsafe { OwnedFd::from_raw_fd(new) })
}

/// Puts the open file behind `fd` into non-blocking mode.
///
/// The flag belongs to the open file description, so every dup of the master sees it: the
/// reader and the writer both go through `poll(2)`, which is what lets each of them be woken
/// for shutdown or cancellation instead of sleeping inside `read`/`write` forever.
pub(crate) fn set_nonblocking(fd: RawFd) -> io::Result<()> {
    // SAFETY: F_GETFL/F_SETFL on a descriptor we hold; no memory is passed.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        if flags < 0 || libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) < 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Sets the line discipline up the way Sluice wants it before the child starts.
///
/// On Linux, termios calls on a PTY master act on the slave's settings, which is what the
/// child sees. `IXON` off: a stray ^S reaches the program (readline's forward search, editors)
/// instead of silently freezing its output and blocking it. `IUTF8` on: the kernel's line
/// editor erases whole UTF-8 characters in cooked mode.
pub(crate) fn configure_line_discipline(fd: RawFd, flow_control: bool) -> io::Result<()> {
    // SAFETY: termios is plain data; tcgetattr fills it before we read it.
    let mut tio: libc::termios = unsafe { std::mem::zeroed() };
    if unsafe { libc::tcgetattr(fd, &mut tio) } != 0 {
        return Err(io::Error::last_os_error());
    }
    if flow_control {
        tio.c_iflag |= libc::IXON;
    } else {
        tio.c_iflag &= !libc::IXON;
    }
    tio.c_iflag |= libc::IUTF8;
    // SAFETY: `tio` is a valid termios read from the same descriptor.
    if unsafe { libc::tcsetattr(fd, libc::TCSANOW, &tio) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Discards whatever is queued on the slave side for the child to read.
///
/// A paste into a child that does not read its input fills the slave's queue; until it is
/// flushed, not even ^C gets through. Flushing from the master side does not reach that queue
/// on Linux, so the slave is opened by name for the moment it takes.
pub(crate) fn flush_slave_input(tty: &Path) -> io::Result<()> {
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .custom_flags(libc::O_NOCTTY | libc::O_NONBLOCK | libc::O_CLOEXEC)
        .open(tty)?;
    // SAFETY: tcflush on a descriptor we hold.
    if unsafe { libc::tcflush(file.as_raw_fd(), libc::TCIFLUSH) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// What `wait_for` saw.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Ready {
    /// The descriptor is ready (or has hung up: the next read/write reports how).
    Fd,
    /// The wake pipe was signalled.
    Woken,
    /// The timeout passed.
    Timeout,
}

/// Waits until `fd` is ready for `events`, or `wake` is signalled, or `timeout` passes.
pub(crate) fn wait_for(
    fd: RawFd,
    events: libc::c_short,
    wake: &WakePipe,
    timeout: Option<Duration>,
) -> io::Result<Ready> {
    let mut fds = [
        libc::pollfd {
            fd,
            events,
            revents: 0,
        },
        libc::pollfd {
            fd: wake.read.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        },
    ];
    let timeout_ms = timeout.map_or(-1, |t| t.as_millis().min(i32::MAX as u128) as libc::c_int);
    loop {
        // SAFETY: `fds` is a valid array of two pollfd structures for the whole call.
        let n = unsafe { libc::poll(fds.as_mut_ptr(), 2, timeout_ms) };
        if n < 0 {
            let err = io::Error::last_os_error();
            if err.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return Err(err);
        }
        if n == 0 {
            return Ok(Ready::Timeout);
        }
        if fds[1].revents != 0 {
            wake.drain();
            return Ok(Ready::Woken);
        }
        return Ok(Ready::Fd);
    }
}

/// A self-pipe: one thread blocks in `poll(2)` on it, another writes a byte to wake it.
#[derive(Debug)]
pub(crate) struct WakePipe {
    read: OwnedFd,
    write: OwnedFd,
}

impl WakePipe {
    pub(crate) fn new() -> io::Result<Self> {
        let mut fds = [0 as RawFd; 2];
        // SAFETY: pipe2 writes two descriptors into `fds`, which we then own.
        if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_NONBLOCK | libc::O_CLOEXEC) } != 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: both descriptors were just created and are owned by nobody else.
        unsafe {
            Ok(Self {
                read: OwnedFd::from_raw_fd(fds[0]),
                write: OwnedFd::from_raw_fd(fds[1]),
            })
        }
    }

    /// Wakes the waiting thread. A full pipe already guarantees a wake-up, so errors are moot.
    pub(crate) fn wake(&self) {
        let byte = 1u8;
        // SAFETY: writes one byte from a valid buffer to a descriptor we hold.
        let _ = unsafe { libc::write(self.write.as_raw_fd(), (&byte as *const u8).cast(), 1) };
    }

    fn drain(&self) {
        let mut buf = [0u8; 64];
        // SAFETY: reads into a valid buffer from a non-blocking descriptor we hold.
        while unsafe { libc::read(self.read.as_raw_fd(), buf.as_mut_ptr().cast(), buf.len()) } > 0 {
        }
    }
}

/// A one-way "stop now" for a thread that blocks in `poll(2)`: a flag checked between system
/// calls, plus a wake pipe for when it is asleep.
#[derive(Debug)]
pub(crate) struct Stopper {
    requested: std::sync::atomic::AtomicBool,
    pub(crate) pipe: WakePipe,
}

impl Stopper {
    pub(crate) fn new() -> io::Result<Self> {
        Ok(Self {
            requested: std::sync::atomic::AtomicBool::new(false),
            pipe: WakePipe::new()?,
        })
    }

    pub(crate) fn stop(&self) {
        self.requested
            .store(true, std::sync::atomic::Ordering::Release);
        self.pipe.wake();
    }

    pub(crate) fn requested(&self) -> bool {
        self.requested.load(std::sync::atomic::Ordering::Acquire)
    }
}

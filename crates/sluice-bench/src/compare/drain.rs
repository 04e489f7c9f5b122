//! The limit arm: the probe on a bare PTY whose master is drained by a loop of 64 KiB
//! `read(2)`s and nothing else. It is the baseline every table is measured against, and it
//! reads in one of two ways ([`DrainStyle`]), which `compare` both tries, keeping the faster:
//! blocking reads, the textbook drain; and non-blocking reads that yield the CPU when the
//! kernel is empty, for a moment before they block. Where the CPUs sit idle during a burst (a
//! quarter of it on two virtual CPUs here), each hand-over from the program through the
//! kernel to a sleeping reader waits for a CPU to wake, and a reader that keeps its CPU awake
//! lets the program write faster: the yielding drain read plain lines at 1.05× and dense
//! colour at 1.23× the blocking one (docs/performance.md, "The drain is not the limit here"),
//! and a terminal whose parser or busy wait keeps its CPU awake came out above the blocking
//! drain alone. Short lines are the exception still: there every read that empties the
//! kernel costs the program a wake-up of the kernel's flush worker, and terminals that read
//! less often let it write 1.2–2.7× faster than a drain (docs/performance.md, "Short lines
//! as fast as a program writes them"). A terminal above the drain is at the limit, or the
//! round is noise (docs/benchmarks.md).

use std::ffi::OsString;
use std::io::{self, Read};
use std::os::fd::RawFd;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use anyhow::anyhow;
use portable_pty::{Child, CommandBuilder, MasterPty, PtySize, native_pty_system};

/// The drain's read size: as large as a read from a PTY master ever returns here.
const READ: usize = 64 * 1024;

/// How long a yielding drain goes on yielding after the kernel last had output for it,
/// before it blocks in `poll(2)`: long past any gap inside a burst in which the program still
/// has its CPU (microseconds), short enough that the drain does not hold a CPU through the
/// pause between payloads.
const YIELD_FOR: Duration = Duration::from_millis(1);

/// How a drain waits when the kernel has nothing for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum DrainStyle {
    /// Blocks in `read(2)`: the CPU halts until the kernel wakes it.
    Blocking,
    /// Reads without blocking and yields the CPU when the kernel is empty, for up to
    /// `YIELD_FOR` (1 ms), then blocks in `poll(2)`: the CPU stays awake through a burst.
    Yielding,
}

impl DrainStyle {
    pub const ALL: [DrainStyle; 2] = [DrainStyle::Blocking, DrainStyle::Yielding];
}

/// The probe running on a drained PTY.
pub struct Drain {
    child: Box<dyn Child + Send + Sync>,
    reader: Option<JoinHandle<u64>>,
    /// The style the reader uses from its next read on: whether it yields.
    yielding: Arc<AtomicBool>,
    _master: Box<dyn MasterPty + Send>,
}

impl Drain {
    /// Runs `command` on a PTY of `cols`×`rows` and starts draining it in `style`.
    pub fn start(
        command: &[String],
        (cols, rows): (u16, u16),
        style: DrainStyle,
    ) -> anyhow::Result<Drain> {
        let pair = native_pty_system()
            .openpty(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .map_err(|e| anyhow!("cannot open a PTY: {e:#}"))?;
        // As in a terminal started from here: relative paths in the command, the program's
        // own included, mean the same.
        let cwd = std::env::current_dir()?;
        let mut argv: Vec<OsString> = command.iter().map(Into::into).collect();
        if let Some(program) = argv.first_mut() {
            *program = sluice_pty::program_path(program, &cwd);
        }
        let mut builder = CommandBuilder::from_argv(argv);
        builder.env("TERM", "xterm-256color");
        builder.cwd(cwd);
        let child = pair
            .slave
            .spawn_command(builder)
            .map_err(|e| anyhow!("cannot run the probe on a PTY: {e:#}"))?;
        drop(pair.slave);
        let mut master = pair
            .master
            .try_clone_reader()
            .map_err(|e| anyhow!("{e:#}"))?;
        let fd = pair
            .master
            .as_raw_fd()
            .ok_or_else(|| anyhow!("the PTY master has no descriptor"))?;
        let yielding = Arc::new(AtomicBool::new(style == DrainStyle::Yielding));
        let style = Arc::clone(&yielding);
        let reader = std::thread::Builder::new()
            .name("drain".into())
            .spawn(move || drain(&mut master, fd, &style))?;
        Ok(Drain {
            child,
            reader: Some(reader),
            yielding,
            _master: pair.master,
        })
    }

    /// Reads in `style` from the next read on (a read already blocked ends in the old style).
    pub fn set_style(&self, style: DrainStyle) {
        self.yielding
            .store(style == DrainStyle::Yielding, Ordering::Relaxed);
    }

    pub fn has_exited(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(Some(_)))
    }
}

/// The reader's loop: reads until every slave descriptor is closed; returns the bytes read.
/// `fd` is `master`'s open file description (a clone shares its flags).
fn drain(master: &mut impl Read, fd: RawFd, yielding: &AtomicBool) -> u64 {
    let mut buf = vec![0u8; READ];
    let mut total = 0u64;
    let mut non_blocking = false;
    let mut last_output = Instant::now();
    loop {
        let yields = yielding.load(Ordering::Relaxed);
        if yields != non_blocking && set_non_blocking(fd, yields).is_ok() {
            non_blocking = yields;
        }
        match master.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                total += n as u64;
                if non_blocking {
                    last_output = Instant::now();
                }
            }
            // Only without blocking: yield while output came a moment ago, else wait for it
            // (a wait that times out goes straight back to waiting).
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                if last_output.elapsed() < YIELD_FOR {
                    std::thread::yield_now();
                } else {
                    wait_readable(fd);
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            // EIO: every slave descriptor is closed.
            Err(_) => break,
        }
    }
    total
}

fn set_non_blocking(fd: RawFd, on: bool) -> io::Result<()> {
    // SAFETY: fcntl on a descriptor the drain's PTY master keeps open for the reader's life.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    let flags = if on {
        flags | libc::O_NONBLOCK
    } else {
        flags & !libc::O_NONBLOCK
    };
    // SAFETY: as above.
    if flags < 0 || unsafe { libc::fcntl(fd, libc::F_SETFL, flags) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Blocks until `fd` is readable or hung up, or 100 ms pass (so that a change of style is
/// seen in a quiet drain too).
fn wait_readable(fd: RawFd) {
    let mut pollfd = libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: one valid pollfd for the call's duration.
    unsafe { libc::poll(&mut pollfd, 1, 100) };
}

impl Drop for Drain {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if let Some(reader) = self.reader.take() {
            let _ = reader.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A real PTY and a real program: whichever style the drain reads in, and however often
    /// it changes, it reads every byte and ends when the program's side is closed.
    #[test]
    fn each_style_reads_every_byte_to_the_end() {
        for styles in [&[false][..], &[true], &[true, false, true]] {
            let pair = native_pty_system()
                .openpty(PtySize::default())
                .expect("a PTY");
            // NULs pass the line discipline's output processing unchanged.
            let script =
                "sleep 0.2; head -c 3000000 /dev/zero; sleep 0.1; head -c 1000000 /dev/zero";
            let mut child = pair
                .slave
                .spawn_command(CommandBuilder::from_argv(
                    ["sh", "-c", script].map(OsString::from).to_vec(),
                ))
                .expect("sh runs");
            drop(pair.slave);
            let mut master = pair.master.try_clone_reader().expect("a reader");
            let fd = pair.master.as_raw_fd().expect("a descriptor");
            let yielding = Arc::new(AtomicBool::new(styles[0]));
            let style = Arc::clone(&yielding);
            let reader = std::thread::spawn(move || drain(&mut master, fd, &style));
            for &yields in &styles[1..] {
                std::thread::sleep(Duration::from_millis(100));
                yielding.store(yields, Ordering::Relaxed);
            }
            child.wait().expect("sh exits");
            assert_eq!(
                reader.join().expect("the drain ends"),
                4_000_000,
                "{styles:?}"
            );
        }
    }
}

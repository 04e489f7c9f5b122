//! The limit arm: the probe on a bare PTY whose master is drained by a tight loop of 64 KiB
//! blocking `read(2)`s and nothing else. It is the baseline every table is measured against,
//! and nearly the limit: where the CPUs sit idle during a burst (a quarter of it on two
//! virtual CPUs here), each hand-over from the program through the kernel to a sleeping reader
//! waits for a CPU to wake, and a reader that keeps its CPU awake (one that yields instead of
//! sleeping, or a terminal whose parser runs beside its reader) lets the program write faster.
//! Short lines are the exception to "nearly": there every read that empties the kernel costs
//! the program a wake-up of the kernel's flush worker, and terminals that read less often let
//! it write 1.2–2.7× faster than this drain (docs/performance.md, "Short lines as fast as a
//! program writes them"). A terminal above it is at the limit, or the round is noise
//! (docs/benchmarks.md).

use std::ffi::OsString;
use std::io::Read;
use std::thread::JoinHandle;

use anyhow::anyhow;
use portable_pty::{Child, CommandBuilder, MasterPty, PtySize, native_pty_system};

/// The drain's read size: as large as a read from a PTY master ever returns here.
const READ: usize = 64 * 1024;

/// The probe running on a drained PTY.
pub struct Drain {
    child: Box<dyn Child + Send + Sync>,
    reader: Option<JoinHandle<u64>>,
    _master: Box<dyn MasterPty + Send>,
}

impl Drain {
    /// Runs `command` on a PTY of `cols`×`rows` and starts draining it.
    pub fn start(command: &[String], (cols, rows): (u16, u16)) -> anyhow::Result<Drain> {
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
        let reader = std::thread::Builder::new()
            .name("drain".into())
            .spawn(move || {
                let mut buf = vec![0u8; READ];
                let mut total = 0u64;
                loop {
                    match master.read(&mut buf) {
                        Ok(0) => break,
                        Ok(n) => total += n as u64,
                        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                        // EIO: every slave descriptor is closed.
                        Err(_) => break,
                    }
                }
                total
            })?;
        Ok(Drain {
            child,
            reader: Some(reader),
            _master: pair.master,
        })
    }

    pub fn has_exited(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(Some(_)))
    }
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

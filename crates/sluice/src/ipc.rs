//! Remote control: `sluice msg` talks to a running Sluice over a Unix socket.
//!
//! One socket per instance, `$XDG_RUNTIME_DIR/sluice/DISPLAY-PID.sock`, in a directory only
//! its user can enter and itself mode 0600, so another user's request is refused by the
//! kernel before Sluice reads a byte. Every program Sluice starts finds it in `SLUICE_SOCKET`;
//! outside Sluice, `sluice msg` looks for an instance on the same display.
//!
//! The protocol is one JSON request per line and one JSON answer per line:
//! `{"ok": …}` or `{"error": "…"}`. A request is at most [`MAX_REQUEST_BYTES`]; the answer
//! comes from the UI thread, which handles it between frames like any other event.

use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use anyhow::Context;
use serde::{Deserialize, Serialize};
use winit::event_loop::EventLoopProxy;

use crate::events::UserEvent;
use crate::window::layout::SplitDirection;

/// A request larger than this is refused: `send-text` of a megabyte is already unusual.
pub const MAX_REQUEST_BYTES: u64 = 1 << 20;

/// How long a client waits for the answer, and the UI thread has to give it.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(10);

/// What to run in a new window, tab or split.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SpawnRequest {
    /// Where it starts; the focused pane's directory if absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub working_directory: Option<PathBuf>,
    /// The program and its arguments; the user's shell if absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<Vec<String>>,
}

/// What `sluice msg` can ask.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "request", rename_all = "kebab-case")]
pub enum Request {
    CreateWindow {
        #[serde(flatten)]
        spawn: SpawnRequest,
    },
    CreateTab {
        #[serde(flatten)]
        spawn: SpawnRequest,
    },
    Split {
        direction: SplitDirection,
        /// The pane to split; the focused one if absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pane: Option<u64>,
        #[serde(flatten)]
        spawn: SpawnRequest,
    },
    List,
    SendText {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pane: Option<u64>,
        text: String,
    },
    /// A pane's text: the screen, or the whole scrollback; plain or with its colours (ANSI).
    GetText {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pane: Option<u64>,
        #[serde(default)]
        scrollback: bool,
        #[serde(default)]
        ansi: bool,
    },
    Focus {
        pane: u64,
    },
    Close {
        pane: u64,
    },
}

/// The answer to a request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Answer {
    Ok(serde_json::Value),
    Error(String),
}

/// A request on its way to the UI thread, with where its answer goes.
#[derive(Debug)]
pub struct Envelope {
    pub request: Request,
    pub reply: mpsc::Sender<Answer>,
}

/// The directory of this user's sockets (and of other private files: scrollback for the pager).
fn socket_dir() -> PathBuf {
    match std::env::var_os("XDG_RUNTIME_DIR") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir).join("sluice"),
        // SAFETY: getuid has no failure and no preconditions.
        _ => std::env::temp_dir().join(format!("sluice-{}", unsafe { libc::getuid() })),
    }
}

/// [`socket_dir`], created (only this user may enter it) if it is not there.
pub(crate) fn private_dir() -> anyhow::Result<PathBuf> {
    let dir = socket_dir();
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(&dir)
        .with_context(|| format!("cannot create {}", dir.display()))?;
    Ok(dir)
}

/// The display this process shows on, as it appears in socket names.
fn display_name() -> String {
    let display = std::env::var("WAYLAND_DISPLAY")
        .or_else(|_| std::env::var("DISPLAY"))
        .unwrap_or_default();
    file_safe(&display)
}

/// `name` with everything but ASCII letters and digits replaced, so it is one path component.
fn file_safe(name: &str) -> String {
    let safe: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if safe.is_empty() { "none".into() } else { safe }
}

/// The listening socket; removed when dropped.
pub struct Listener {
    path: PathBuf,
}

impl Listener {
    /// Binds this instance's socket and answers requests on a thread of its own, handing each
    /// to the UI thread through `proxy`.
    pub fn start(proxy: EventLoopProxy<UserEvent>) -> anyhow::Result<Listener> {
        let dir = private_dir()?;
        let path = dir.join(format!("{}-{}.sock", display_name(), std::process::id()));
        let _ = std::fs::remove_file(&path);
        let listener =
            UnixListener::bind(&path).with_context(|| format!("cannot bind {}", path.display()))?;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600))?;
        std::thread::Builder::new()
            .name("remote-control".into())
            .spawn(move || {
                let slots = ClientSlots::default();
                for stream in listener.incoming().flatten() {
                    let Some(slot) = slots.take() else {
                        // A script opening connections in a loop gets told, not a thread each.
                        refuse(&stream, "too many clients at once; try again");
                        continue;
                    };
                    let proxy = proxy.clone();
                    // One thread per client, so a client that never sends its line cannot
                    // hold up the next one.
                    let _ = std::thread::Builder::new()
                        .name("remote-client".into())
                        .spawn(move || {
                            serve(stream, &proxy);
                            drop(slot);
                        });
                }
            })?;
        Ok(Listener { path })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Clients served at once. Each holds a thread for at most its read and answer timeouts
/// (10 s each); the socket is the user's alone, so this only stops a runaway script of
/// theirs from spawning threads without end.
const MAX_CLIENTS: usize = 32;

/// How many clients are being served.
#[derive(Default, Clone)]
struct ClientSlots(std::sync::Arc<std::sync::atomic::AtomicUsize>);

/// A client being served; its slot is free again when this is dropped.
struct ClientSlot(std::sync::Arc<std::sync::atomic::AtomicUsize>);

impl ClientSlots {
    fn take(&self) -> Option<ClientSlot> {
        use std::sync::atomic::Ordering;
        let taken = self
            .0
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < MAX_CLIENTS).then_some(n + 1)
            })
            .is_ok();
        taken.then(|| ClientSlot(self.0.clone()))
    }
}

impl Drop for ClientSlot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, std::sync::atomic::Ordering::AcqRel);
    }
}

/// Answers `stream` with an error at once, without reading its request.
fn refuse(stream: &UnixStream, why: &str) {
    let mut text = serde_json::to_string(&Answer::Error(why.into())).expect("answers serialise");
    text.push('\n');
    let _ = (&*stream).write_all(text.as_bytes());
}

/// Reads one request, has the UI thread answer it, writes the answer.
fn serve(stream: UnixStream, proxy: &EventLoopProxy<UserEvent>) {
    let _ = stream.set_read_timeout(Some(ANSWER_TIMEOUT));
    let mut line = String::new();
    let read = BufReader::new((&stream).take(MAX_REQUEST_BYTES + 1)).read_line(&mut line);
    let answer = match read {
        Ok(_) if line.len() as u64 > MAX_REQUEST_BYTES => Answer::Error(format!(
            "the request is larger than {} KiB",
            MAX_REQUEST_BYTES >> 10
        )),
        Ok(_) => match serde_json::from_str::<Request>(&line) {
            Ok(request) => ask(proxy, request),
            Err(err) => Answer::Error(format!("not a request Sluice knows: {err}")),
        },
        Err(err) => Answer::Error(format!("cannot read the request: {err}")),
    };
    let mut text = serde_json::to_string(&answer).expect("answers serialise");
    text.push('\n');
    let _ = (&stream).write_all(text.as_bytes());
}

fn ask(proxy: &EventLoopProxy<UserEvent>, request: Request) -> Answer {
    let (reply, answer) = mpsc::channel();
    if proxy
        .send_event(UserEvent::Remote(Envelope { request, reply }))
        .is_err()
    {
        return Answer::Error("Sluice is shutting down".into());
    }
    answer
        .recv_timeout(ANSWER_TIMEOUT)
        .unwrap_or_else(|_| Answer::Error("Sluice did not answer in time".into()))
}

/// The socket `sluice msg` talks to: `--socket`, else `SLUICE_SOCKET` (inside Sluice), else
/// the most recent live instance on this display.
pub fn find_socket(given: Option<&Path>) -> anyhow::Result<PathBuf> {
    if let Some(path) = given {
        return Ok(path.to_owned());
    }
    if let Some(path) = std::env::var_os("SLUICE_SOCKET").filter(|p| !p.is_empty()) {
        return Ok(PathBuf::from(path));
    }
    let dir = socket_dir();
    let prefix = format!("{}-", display_name());
    let mut candidates: Vec<(std::time::SystemTime, PathBuf)> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .flatten()
                .filter(|e| {
                    let name = e.file_name();
                    let name = name.to_string_lossy();
                    name.starts_with(&prefix) && name.ends_with(".sock")
                })
                .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
                .collect()
        })
        .unwrap_or_default();
    candidates.sort();
    candidates
        .into_iter()
        .rev()
        .map(|(_, path)| path)
        .find(|path| UnixStream::connect(path).is_ok())
        .with_context(|| {
            format!(
                "no running Sluice on display {:?} (looked in {})",
                display_name(),
                dir.display()
            )
        })
}

/// Sends `request` to the instance at `socket` and returns its answer.
pub fn send(socket: &Path, request: &Request) -> anyhow::Result<Answer> {
    let mut stream = UnixStream::connect(socket)
        .with_context(|| format!("cannot connect to {}", socket.display()))?;
    stream.set_read_timeout(Some(ANSWER_TIMEOUT + Duration::from_secs(1)))?;
    let mut line = serde_json::to_string(request)?;
    line.push('\n');
    stream.write_all(line.as_bytes())?;
    let mut answer = String::new();
    BufReader::new(stream)
        .read_line(&mut answer)
        .context("no answer")?;
    serde_json::from_str(&answer).with_context(|| format!("a garbled answer: {answer:?}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_one_json_object_each() {
        let request = Request::Split {
            direction: SplitDirection::Down,
            pane: Some(3),
            spawn: SpawnRequest {
                working_directory: Some("/tmp".into()),
                command: None,
            },
        };
        let text = serde_json::to_string(&request).unwrap();
        assert_eq!(
            text,
            r#"{"request":"split","direction":"down","pane":3,"working_directory":"/tmp"}"#
        );
        assert_eq!(serde_json::from_str::<Request>(&text).unwrap(), request);
        assert_eq!(
            serde_json::from_str::<Request>(r#"{"request":"list"}"#).unwrap(),
            Request::List
        );
        assert!(serde_json::from_str::<Request>(r#"{"request":"explode"}"#).is_err());
        assert!(serde_json::from_str::<Request>(r#"{"request":"focus"}"#).is_err());
        let ok = serde_json::to_string(&Answer::Ok(serde_json::json!({"pane": 1}))).unwrap();
        assert_eq!(ok, r#"{"ok":{"pane":1}}"#);
    }

    #[test]
    fn clients_past_the_cap_are_refused_until_one_is_done() {
        let slots = ClientSlots::default();
        let mut held: Vec<ClientSlot> = (0..MAX_CLIENTS).map(|_| slots.take().unwrap()).collect();
        assert!(slots.take().is_none(), "one more than the cap");
        held.pop();
        held.push(slots.take().expect("a slot is free again"));
        assert!(slots.take().is_none(), "and taken again");
    }

    #[test]
    fn display_names_are_safe_in_file_names() {
        assert_eq!(file_safe(":99.0/../x"), "_99_0____x");
        assert_eq!(file_safe("wayland-1"), "wayland_1");
        assert_eq!(file_safe(""), "none");
    }
}

//! Threads whose panic is caught at the thread's boundary: logged with the thread's name the
//! moment it happens and recorded as the session's failure, so the application can say which
//! terminal stopped and why, and nothing a thread does can take the process down with it.

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, OnceLock};
use std::thread::{self, JoinHandle};

/// The first panic of a session's threads, as "THREAD panicked: MESSAGE".
pub(crate) type Failure = Arc<OnceLock<String>>;

/// Starts `body` on a thread named `name`. The handle gives `None` if it panicked.
pub(crate) fn spawn<T: Send + 'static>(
    name: &str,
    failure: Failure,
    body: impl FnOnce() -> T + Send + 'static,
) -> std::io::Result<JoinHandle<Option<T>>> {
    let thread_name = name.to_owned();
    thread::Builder::new()
        .name(thread_name.clone())
        .spawn(move || match catch_unwind(AssertUnwindSafe(body)) {
            Ok(value) => Some(value),
            Err(panic) => {
                let message = panic_message(&*panic);
                tracing::error!(thread = %thread_name, %message, "a thread panicked");
                let _ = failure.set(format!("{thread_name} panicked: {message}"));
                None
            }
        })
}

/// The message a panic carried, if it was a string.
pub fn panic_message(panic: &(dyn Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_is_caught_recorded_and_named() {
        let failure = Failure::default();
        let fine = spawn("fine", failure.clone(), || 7).unwrap();
        assert_eq!(fine.join().unwrap(), Some(7));
        assert!(failure.get().is_none());
        let broken = spawn("pty-reader", failure.clone(), || -> u8 {
            panic!("read {} bytes", 3)
        })
        .unwrap();
        assert_eq!(broken.join().expect("the panic stays in the thread"), None);
        assert_eq!(
            failure.get().map(String::as_str),
            Some("pty-reader panicked: read 3 bytes")
        );
    }
}

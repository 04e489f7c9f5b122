//! Memory the X server can read directly: the software renderer's frames, so that presenting
//! a row is one `ShmPutImage` request and no copy on Sluice's side (x11_presenter.rs).
//!
//! Each block is an anonymous memory file (`memfd_create`) mapped shared; its descriptor is
//! handed to the X server once (MIT-SHM `AttachFd`), which then maps the same pages. Where
//! there is no `memfd_create` (not Linux), frames are ordinary memory.

use std::ops::{Deref, DerefMut};
use std::os::fd::{AsFd, BorrowedFd, FromRawFd, OwnedFd};

/// A frame's pixels: shared with the window system where possible.
pub(crate) enum FrameMemory {
    Shared(SharedPixels),
    Heap(Vec<u32>),
}

impl FrameMemory {
    /// `len` pixels, all 0.
    pub fn new(len: usize) -> FrameMemory {
        match SharedPixels::new(len) {
            Ok(shared) => FrameMemory::Shared(shared),
            Err(err) => {
                tracing::debug!(%err, "frame in ordinary memory: no shared memory");
                FrameMemory::Heap(vec![0; len])
            }
        }
    }

    /// The descriptor of the memory file, when the pixels are shared.
    pub fn fd(&self) -> Option<BorrowedFd<'_>> {
        match self {
            FrameMemory::Shared(shared) => Some(shared.file.as_fd()),
            FrameMemory::Heap(_) => None,
        }
    }
}

impl Deref for FrameMemory {
    type Target = [u32];
    fn deref(&self) -> &[u32] {
        match self {
            FrameMemory::Shared(shared) => shared,
            FrameMemory::Heap(pixels) => pixels,
        }
    }
}

impl DerefMut for FrameMemory {
    fn deref_mut(&mut self) -> &mut [u32] {
        match self {
            FrameMemory::Shared(shared) => shared,
            FrameMemory::Heap(pixels) => pixels,
        }
    }
}

/// Pixels in a memory file mapped shared, zeroed when made.
pub(crate) struct SharedPixels {
    file: OwnedFd,
    ptr: std::ptr::NonNull<u32>,
    len: usize,
}

// SAFETY: the mapping is owned by this value alone (the X server reads it, and never while
// Sluice writes: x11_presenter.rs waits for the server before each frame is drawn); access
// goes through &self and &mut self as for a Vec.
unsafe impl Send for SharedPixels {}
// SAFETY: as above; shared references only read.
unsafe impl Sync for SharedPixels {}

impl SharedPixels {
    #[cfg(target_os = "linux")]
    fn new(len: usize) -> std::io::Result<SharedPixels> {
        let bytes = (len.max(1) * 4) as libc::off_t;
        // SAFETY: a valid C string and flags; the result is checked.
        let fd = unsafe { libc::memfd_create(c"sluice-frame".as_ptr(), libc::MFD_CLOEXEC) };
        if fd < 0 {
            return Err(std::io::Error::last_os_error());
        }
        // SAFETY: `fd` was just returned by memfd_create and is owned by nothing else.
        let file = unsafe { OwnedFd::from_raw_fd(fd) };
        // SAFETY: ftruncate on the descriptor we own; a new memory file reads as zeros.
        if unsafe { libc::ftruncate(fd, bytes) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
        // SAFETY: maps `bytes` of the file we own, shared and writable; checked below.
        let ptr = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                bytes as usize,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED,
                fd,
                0,
            )
        };
        if ptr == libc::MAP_FAILED {
            return Err(std::io::Error::last_os_error());
        }
        let ptr = std::ptr::NonNull::new(ptr.cast::<u32>()).expect("mmap succeeded");
        Ok(SharedPixels { file, ptr, len })
    }

    #[cfg(not(target_os = "linux"))]
    fn new(_len: usize) -> std::io::Result<SharedPixels> {
        Err(std::io::Error::other("no memfd_create here"))
    }
}

impl Deref for SharedPixels {
    type Target = [u32];
    fn deref(&self) -> &[u32] {
        // SAFETY: the mapping holds `len` u32s (page-aligned, so aligned), lives as long as
        // self, and is written only through &mut self.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl DerefMut for SharedPixels {
    fn deref_mut(&mut self) -> &mut [u32] {
        // SAFETY: as in `deref`, and &mut self makes this the only reference.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for SharedPixels {
    fn drop(&mut self) {
        // SAFETY: unmaps exactly what `new` mapped; nothing borrows it any more. The X
        // server keeps its own mapping until the segment is detached.
        unsafe { libc::munmap(self.ptr.as_ptr().cast(), self.len.max(1) * 4) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_memory_starts_zeroed_and_holds_what_is_written() {
        let mut memory = FrameMemory::new(1000);
        assert!(memory.iter().all(|&p| p == 0));
        memory[999] = 0xff00_ff00;
        memory[0] = 7;
        assert_eq!(
            (memory[0], memory[999], memory.len()),
            (7, 0xff00_ff00, 1000)
        );
        #[cfg(target_os = "linux")]
        assert!(
            memory.fd().is_some(),
            "on Linux a frame is a shared memory file"
        );
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_second_mapping_of_the_file_sees_the_pixels() {
        // What the X server does with the descriptor.
        let mut memory = FrameMemory::new(16);
        memory[3] = 0x0102_0304;
        let fd = memory.fd().unwrap();
        let file = std::fs::File::from(fd.try_clone_to_owned().unwrap());
        let mut bytes = Vec::new();
        use std::io::Read as _;
        (&file).read_to_end(&mut bytes).unwrap();
        assert_eq!(bytes.len(), 64);
        assert_eq!(&bytes[12..16], 0x0102_0304u32.to_ne_bytes());
    }
}

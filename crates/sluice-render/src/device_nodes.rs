//! Whether the machine has a GPU a hardware driver could reach.

use std::path::Path;

/// Device nodes under `/dev` through which a hardware Vulkan or GL driver reaches a GPU: a
/// directory that holds any entry (`dri/renderD128`, `dri/card0`), or a file (NVIDIA's
/// `nvidia0` and `nvidiactl`, WSL's `dxg`).
const GPU_NODES: &[&str] = &["dri", "dxg", "nvidia0", "nvidiactl"];

/// Whether `dev` (the machine's `/dev`) holds a GPU device node. An empty `dri` directory (a
/// container the GPU was not passed into) is none.
pub fn has_gpu_device_node(dev: &Path) -> bool {
    GPU_NODES.iter().any(|node| {
        let path = dev.join(node);
        match std::fs::read_dir(&path) {
            Ok(mut entries) => entries.next().is_some(),
            // Not a directory: a device file, if it exists.
            Err(_) => path.exists(),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stand-in for `/dev` holding `nodes`, removed when dropped.
    struct Dev(std::path::PathBuf);

    impl Drop for Dev {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn dev_with(nodes: &[&str]) -> Dev {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let dev = Dev(std::env::temp_dir().join(format!(
            "sluice-dev-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        )));
        std::fs::create_dir_all(&dev.0).unwrap();
        for node in nodes {
            let path = dev.0.join(node);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, b"").unwrap();
        }
        dev
    }

    #[test]
    fn a_gpu_is_any_dri_entry_or_an_nvidia_or_wsl_device() {
        let cases: &[(&[&str], bool)] = &[
            (&[], false),
            (&["null", "tty0", "pts/0"], false),
            (&["dri/renderD128"], true),
            (&["dri/card0"], true),
            (&["nvidia0"], true),
            (&["nvidiactl"], true),
            (&["dxg"], true),
        ];
        for (nodes, gpu) in cases {
            let dev = dev_with(nodes);
            assert_eq!(has_gpu_device_node(&dev.0), *gpu, "{nodes:?}");
        }
        let dev = dev_with(&[]);
        std::fs::create_dir(dev.0.join("dri")).unwrap();
        assert!(!has_gpu_device_node(&dev.0), "an empty /dev/dri is no GPU");
    }
}

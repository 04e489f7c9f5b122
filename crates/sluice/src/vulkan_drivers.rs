//! Which Vulkan drivers the loader may open, on a machine that has no GPU.
//!
//! The Vulkan loader opens every installed driver (ICD) to ask it for devices, and keeps each
//! one loaded for as long as the instance lives. Debian's `mesa-vulkan-drivers` installs
//! lavapipe beside the radeon, intel and intel_hasvk drivers, so a window on a machine with no
//! GPU carried three drivers that could never find a device: 1 MiB of their relocated pages
//! (anonymous memory) and 6 MiB of resident code (docs/performance.md, "Memory"). A hardware
//! driver reaches its GPU through a device node (`/dev/dri/*`, `/dev/nvidia*`, WSL's
//! `/dev/dxg`); where there is none, only a software driver can offer a device, so Sluice
//! asks the loader for those alone (`VK_LOADER_DRIVERS_SELECT`, Vulkan loader 1.3.234 and
//! later). If no software driver matches either, wgpu finds no Vulkan adapter and the window
//! falls back to GL, as it would on a machine without Vulkan.
//!
//! The loader reads its environment, so the variable is set for Sluice's own process, before
//! any thread starts, and removed from the environment of every program run in a pane: it
//! sees the machine's drivers as they are. Helpers Sluice starts itself (a link's opener, a
//! bell command) inherit it, which changes nothing for them on a machine that has no GPU
//! device node. Whoever already chose drivers with any of the loader's variables keeps that
//! choice.

use std::ffi::OsString;
use std::path::Path;
use std::sync::OnceLock;

/// The loader's variable that names, by glob, the driver manifests it may load.
const SELECT: &str = "VK_LOADER_DRIVERS_SELECT";

/// Globs of the software drivers' manifests (`lvp_icd.x86_64.json`,
/// `vk_swiftshader_icd.json`).
const SOFTWARE_DRIVERS: &str = "*lvp*,*swiftshader*";

/// The loader's variables that choose drivers: if the user set any, the choice is theirs.
const DRIVER_CHOICE_VARS: &[&str] = &[
    SELECT,
    "VK_LOADER_DRIVERS_DISABLE",
    "VK_DRIVER_FILES",
    "VK_ICD_FILENAMES",
    "VK_ADD_DRIVER_FILES",
];

/// Device nodes through which a hardware Vulkan driver reaches a GPU: a directory that
/// holds any entry, or a file, under `/dev`.
const GPU_NODES: &[&str] = &["dri", "dxg", "nvidia0", "nvidiactl"];

/// What Sluice set in its own environment for the loader, once decided.
static SET_FOR_SELF: OnceLock<Option<&'static str>> = OnceLock::new();

/// Limits the loader to software drivers when the machine has no GPU device node and the
/// user made no choice of drivers. Call it once, before any thread starts (it changes the
/// process's environment).
pub fn limit_to_software_without_gpu() {
    let software_only = should_limit(|var| std::env::var_os(var).is_some(), Path::new("/dev"));
    if software_only {
        // SAFETY: called from `main` before any thread exists, so nothing reads the
        // environment concurrently.
        unsafe { std::env::set_var(SELECT, SOFTWARE_DRIVERS) };
    }
    let _ = SET_FOR_SELF.set(software_only.then_some(SELECT));
}

/// Logs the choice, once logging is set up (which is after the choice: it may start threads).
pub fn report() {
    if SET_FOR_SELF.get().copied().flatten().is_some() {
        tracing::info!(
            "no GPU device node: the Vulkan loader may open only software drivers \
             ({SELECT}={SOFTWARE_DRIVERS})"
        );
    }
}

/// The variables Sluice set for itself that children must not inherit.
pub fn not_for_children() -> Vec<OsString> {
    SET_FOR_SELF
        .get()
        .copied()
        .flatten()
        .map(OsString::from)
        .into_iter()
        .collect()
}

/// Whether to limit the loader: no driver choice in the environment (`is_set`) and no GPU
/// device node under `dev`.
fn should_limit(is_set: impl Fn(&str) -> bool, dev: &Path) -> bool {
    !DRIVER_CHOICE_VARS.iter().any(|var| is_set(var)) && !has_gpu_node(dev)
}

fn has_gpu_node(dev: &Path) -> bool {
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

    impl Dev {
        fn path(&self) -> &Path {
            &self.0
        }
    }

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
        std::fs::create_dir_all(dev.path()).unwrap();
        for node in nodes {
            let path = dev.path().join(node);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, b"").unwrap();
        }
        dev
    }

    #[test]
    fn limits_only_without_gpu_nodes_and_without_a_users_choice() {
        let nothing_set = |_: &str| false;
        let cases: &[(&[&str], bool)] = &[
            (&[], true),
            (&["null", "tty0", "pts/0"], true),
            (&["dri/renderD128"], false),
            (&["dri/card0"], false),
            (&["nvidia0"], false),
            (&["nvidiactl"], false),
            (&["dxg"], false),
        ];
        for (nodes, limit) in cases {
            let dev = dev_with(nodes);
            assert_eq!(should_limit(nothing_set, dev.path()), *limit, "{nodes:?}");
        }
        // An empty /dev/dri (a container without the GPU passed in) is no GPU.
        let dev = dev_with(&[]);
        std::fs::create_dir(dev.path().join("dri")).unwrap();
        assert!(should_limit(nothing_set, dev.path()));
    }

    #[test]
    fn a_users_driver_choice_is_kept() {
        let dev = dev_with(&[]);
        for var in DRIVER_CHOICE_VARS {
            assert!(!should_limit(|v| v == *var, dev.path()), "{var}");
        }
    }
}

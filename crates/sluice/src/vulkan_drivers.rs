//! Which Vulkan drivers the loader may open, on a machine that has no GPU.
//!
//! The Vulkan loader opens every installed driver (ICD) to ask it for devices, and keeps each
//! one loaded for as long as the instance lives. Debian's `mesa-vulkan-drivers` installs
//! lavapipe beside the radeon, intel and intel_hasvk drivers, so a window on a machine with no
//! GPU carried three drivers that could never find a device: 1 MiB of their relocated pages
//! (anonymous memory) and 6 MiB of resident code (docs/performance.md, "Memory"). A hardware
//! driver reaches its GPU through a device node (`/dev/dri/*`, `/dev/nvidia0`,
//! `/dev/nvidiactl`, WSL's `/dev/dxg`: `sluice_render::has_gpu_device_node`); where there is none, only a software driver can offer a device, so Sluice
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
use std::sync::atomic::{AtomicBool, Ordering};

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

/// Whether Sluice set [`SELECT`] in its own environment.
static LIMITED: AtomicBool = AtomicBool::new(false);

/// Limits the loader to software drivers when the machine has no GPU device node and the
/// user made no choice of drivers. Call it once, before any thread starts (it changes the
/// process's environment).
pub fn limit_to_software_without_gpu() {
    if should_limit(|var| std::env::var_os(var).is_some(), Path::new("/dev")) {
        // SAFETY: called from `main` before any thread exists, so nothing reads the
        // environment concurrently.
        unsafe { std::env::set_var(SELECT, SOFTWARE_DRIVERS) };
        LIMITED.store(true, Ordering::Relaxed);
    }
}

/// Logs the choice, once logging is set up (which is after the choice: it may start threads).
pub fn report() {
    if LIMITED.load(Ordering::Relaxed) {
        tracing::info!(
            "no GPU device node: the Vulkan loader may open only software drivers \
             ({SELECT}={SOFTWARE_DRIVERS})"
        );
    }
}

/// The variables Sluice set for itself that children must not inherit.
pub fn not_for_children() -> Vec<OsString> {
    if LIMITED.load(Ordering::Relaxed) {
        vec![SELECT.into()]
    } else {
        Vec::new()
    }
}

/// Whether to limit the loader: no driver choice in the environment (`is_set`) and no GPU
/// device node under `dev`.
fn should_limit(is_set: impl Fn(&str) -> bool, dev: &Path) -> bool {
    !DRIVER_CHOICE_VARS.iter().any(|var| is_set(var)) && !sluice_render::has_gpu_device_node(dev)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `/dev` without a single node (which nodes make a GPU is
    /// `sluice_render::has_gpu_device_node`'s test).
    const NO_GPU: &str = "/nonexistent/dev";

    #[test]
    fn limits_without_gpu_nodes_and_without_a_users_choice() {
        assert!(should_limit(|_| false, Path::new(NO_GPU)));
    }

    #[test]
    fn a_users_driver_choice_is_kept() {
        for var in DRIVER_CHOICE_VARS {
            assert!(!should_limit(|v| v == *var, Path::new(NO_GPU)), "{var}");
        }
    }
}

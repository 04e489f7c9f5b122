//! The GPU: adapter, device and queue.

use crate::error::{Error, Result};

/// A device to render with. On machines without a GPU this is Mesa's lavapipe (software
/// Vulkan) or llvmpipe through GL; `WGPU_BACKEND` chooses explicitly.
pub struct Gpu {
    pub instance: wgpu::Instance,
    pub adapter: wgpu::Adapter,
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
}

impl Gpu {
    /// A device for offscreen rendering: no window, no surface.
    ///
    /// Vulkan (lavapipe where there is no GPU) is tried first and GL only if it offers no
    /// adapter: probing GL on a headless machine logs EGL errors that are only noise when
    /// Vulkan works. `WGPU_BACKEND` overrides the choice.
    pub fn headless() -> Result<Self> {
        let from_env = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
        if std::env::var_os("WGPU_BACKEND").is_some() {
            return Self::with_instance(wgpu::Instance::new(from_env), None);
        }
        let primary = wgpu::InstanceDescriptor {
            backends: wgpu::Backends::PRIMARY,
            ..from_env
        };
        match Self::with_instance(wgpu::Instance::new(primary), None) {
            Err(Error::NoAdapter(_)) => {
                let gl = wgpu::InstanceDescriptor {
                    backends: wgpu::Backends::GL,
                    ..wgpu::InstanceDescriptor::new_without_display_handle_from_env()
                };
                Self::with_instance(wgpu::Instance::new(gl), None)
            }
            other => other,
        }
    }

    /// A device that can present to `surface`, which must come from `instance`.
    pub fn with_instance(
        instance: wgpu::Instance,
        surface: Option<&wgpu::Surface<'_>>,
    ) -> Result<Self> {
        let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::LowPower,
            force_fallback_adapter: false,
            compatible_surface: surface,
            ..Default::default()
        }))
        .map_err(|e| Error::NoAdapter(e.to_string()))?;
        let info = adapter.get_info();
        tracing::info!(name = %info.name, backend = ?info.backend, "GPU adapter");
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("sluice"),
            required_limits:
                wgpu::Limits::downlevel_webgl2_defaults().using_resolution(adapter.limits()),
            ..Default::default()
        }))
        .map_err(|e| Error::Device(e.to_string()))?;
        Ok(Self {
            instance,
            adapter,
            device,
            queue,
        })
    }

    /// The adapter's name and backend, for logs and reports.
    pub fn describe(&self) -> String {
        let info = self.adapter.get_info();
        format!("{} ({:?})", info.name, info.backend)
    }
}

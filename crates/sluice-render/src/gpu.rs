//! The GPU: adapter, device and queue.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::error::{Error, Result};

/// A device to render with. On machines without a GPU this is Mesa's lavapipe (software
/// Vulkan) or llvmpipe through GL; `WGPU_BACKEND` chooses explicitly.
///
/// An error from the device is logged and counted, never fatal (wgpu's default handler
/// panics: a window destroyed by another client took the process down when its surface
/// could no longer be configured). A lost device is flagged ([`Gpu::is_lost`]) so that
/// the application can set up a new one and carry on.
pub struct Gpu {
    pub instance: wgpu::Instance,
    pub adapter: wgpu::Adapter,
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
    health: Arc<Health>,
}

#[derive(Default)]
struct Health {
    lost: AtomicBool,
    errors: AtomicU64,
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
        let health = Arc::new(Health::default());
        let errors = health.clone();
        device.on_uncaptured_error(Arc::new(move |error: wgpu::Error| {
            errors.errors.fetch_add(1, Ordering::Relaxed);
            tracing::error!(%error, "GPU error");
        }));
        let lost = health.clone();
        device.set_device_lost_callback(move |reason, message| {
            lost.lost.store(true, Ordering::Release);
            tracing::error!(?reason, %message, "GPU device lost");
        });
        Ok(Self {
            instance,
            adapter,
            device,
            queue,
            health,
        })
    }

    /// Whether the device was lost (driver reset, GPU removed, destroyed): nothing drawn
    /// with it shows any more, and everything made from it must be made again.
    pub fn is_lost(&self) -> bool {
        self.health.lost.load(Ordering::Acquire)
    }

    /// Whether the adapter is itself software (lavapipe, llvmpipe, WARP): a CPU drawing
    /// through a GPU's interface.
    pub fn is_software(&self) -> bool {
        self.adapter.get_info().device_type == wgpu::DeviceType::Cpu
    }

    /// GPU errors logged so far.
    pub fn errors(&self) -> u64 {
        self.health.errors.load(Ordering::Relaxed)
    }

    /// The adapter's name and backend, for logs and reports.
    pub fn describe(&self) -> String {
        let info = self.adapter.get_info();
        format!("{} ({:?})", info.name, info.backend)
    }
}

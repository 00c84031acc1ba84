//! Choosing where tensors live: a CPU backend by default, the GPU through wgpu when
//! asked, and a clear message plus CPU when no GPU adapter exists.

use std::sync::OnceLock;

use burn::tensor::Device;

use super::events::BackendInfo;
use crate::config::BackendChoice;

/// The CPU backend `BackendChoice::Cpu` means (measured by `bench`; see README).
pub const DEFAULT_CPU: BackendChoice = BackendChoice::Flex;

pub struct ResolvedBackend {
    /// The plain (inference) device; `device.clone().autodiff()` trains.
    pub device: Device,
    pub info: BackendInfo,
    /// The backend really used: `Flex`, `Ndarray` or `Gpu` (never `Cpu`).
    pub kind: BackendChoice,
}

impl ResolvedBackend {
    /// Whether training runs on the GPU (not a CPU fallback).
    pub fn is_gpu(&self) -> bool {
        self.info.adapter.is_some()
    }
}

/// Resolve a choice to a device; never fails (GPU falls back to CPU).
pub fn resolve(choice: BackendChoice) -> ResolvedBackend {
    let requested = name(choice).to_string();
    let cpu = |fallback_reason: Option<String>| {
        let (device, used) = cpu_device(DEFAULT_CPU);
        ResolvedBackend {
            device,
            info: BackendInfo {
                requested: requested.clone(),
                used,
                adapter: None,
                fallback_reason,
                composed_because: None,
            },
            kind: DEFAULT_CPU,
        }
    };
    match choice {
        BackendChoice::Cpu => cpu(None),
        BackendChoice::Ndarray | BackendChoice::Flex => {
            let (device, used) = cpu_device(choice);
            ResolvedBackend {
                device,
                info: BackendInfo {
                    requested,
                    used,
                    adapter: None,
                    fallback_reason: None,
                    composed_because: None,
                },
                kind: choice,
            }
        }
        BackendChoice::Gpu => match gpu() {
            Ok((device, adapter)) => ResolvedBackend {
                device: device.clone(),
                info: BackendInfo {
                    requested,
                    used: "gpu (wgpu)".to_string(),
                    adapter: Some(adapter.clone()),
                    fallback_reason: None,
                    composed_because: None,
                },
                kind: BackendChoice::Gpu,
            },
            Err(reason) => cpu(Some(format!("no usable GPU: {reason}; training on the CPU instead"))),
        },
    }
}

pub fn name(choice: BackendChoice) -> &'static str {
    match choice {
        BackendChoice::Cpu => "cpu",
        BackendChoice::Gpu => "gpu",
        BackendChoice::Ndarray => "ndarray",
        BackendChoice::Flex => "flex",
    }
}

fn cpu_device(choice: BackendChoice) -> (Device, String) {
    match choice {
        #[allow(deprecated)]
        BackendChoice::Ndarray => (Device::ndarray(), "cpu (ndarray)".to_string()),
        _ => (Device::flex(), "cpu (flex)".to_string()),
    }
}

/// The wgpu device of this process, once started.
static GPU: OnceLock<Result<(Device, String), String>> = OnceLock::new();

/// Whether this process started a GPU device. Software Vulkan drivers (lavapipe)
/// can crash while tearing down at process exit; the CLI then exits without
/// running that teardown (see `main.rs`).
pub fn gpu_started() -> bool {
    GPU.get().is_some_and(Result::is_ok)
}

/// The wgpu device and its adapter name, initialised once per process.
/// Set `AW_DISABLE_GPU=1` to act as if no adapter existed (tests of the fallback).
fn gpu() -> Result<&'static (Device, String), String> {
    if std::env::var_os("AW_DISABLE_GPU").is_some() {
        return Err("GPU disabled by AW_DISABLE_GPU".to_string());
    }
    GPU.get_or_init(|| {
        let init = std::panic::catch_unwind(|| Device::wgpu_options().init());
        match init {
            Ok(Ok(device)) => {
                let adapter = match device.identity() {
                    Some(id) if id.physical.is_none() => format!("{} (software, no GPU card)", id.name),
                    Some(id) => id.name,
                    None => "unknown adapter".to_string(),
                };
                Ok((device, adapter))
            }
            Ok(Err(err)) => Err(err.to_string()),
            Err(_) => Err("the wgpu runtime panicked while starting".to_string()),
        }
    })
    .as_ref()
    .map_err(Clone::clone)
}

/// Limit the CPU threads the backends use. Call once, before any training;
/// later calls keep the first setting.
pub fn set_cpu_threads(threads: usize) {
    static SET: OnceLock<()> = OnceLock::new();
    SET.get_or_init(|| {
        let threads = threads.max(1);
        // SAFETY: called at start-up from the main thread, before worker threads exist.
        unsafe { std::env::set_var("MATMUL_NUM_THREADS", threads.to_string()) };
        let _ = rayon::ThreadPoolBuilder::new().num_threads(threads).build_global();
    });
}

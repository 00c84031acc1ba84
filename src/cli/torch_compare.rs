//! `bench --compare-torch`: our throughput against the PyTorch eager reference
//! (`.ci/bench/torch_reference.py`, carried in the binary) on the same machine, in
//! one sitting: for each preset and thread count the reference runs, then ours,
//! back to back, each in its own process so each gets its own thread pool.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use crate::config::{Activation, MaskKind, ModelConfig, NormPlacement, PositionalEncoding};

/// The reference script, as committed beside the CI scripts.
const REFERENCE: &str = include_str!("../../.ci/bench/torch_reference.py");

/// How to get a Python with torch, printed when none is found.
const SETUP: &str = "no Python with torch was found (tried $AW_TORCH_PYTHON, ~/.cache/torchref/venv/bin/python and python3).
Set one up (about 5 GiB; PyPI's torch wheel brings CUDA libraries it will not use here):
    python3 -m venv ~/.cache/torchref/venv
    ~/.cache/torchref/venv/bin/pip install torch numpy
or point AW_TORCH_PYTHON at a Python that can `import torch`.";

/// What one comparison row measured.
struct Row {
    pub preset: String,
    pub threads: usize,
    pub torch_steps_per_s: f64,
    /// The share of the machine other processes used while the reference ran.
    pub torch_other_cpu: f64,
    /// The reference under torch.compile (steps/s, other processes' share), when asked.
    pub compiled: Option<(f64, f64)>,
    pub ours_steps_per_s: f64,
    pub backend: String,
}

/// The reference's model knobs for a preset, or why the reference cannot model it.
pub fn reference_args(model: &ModelConfig) -> Result<Vec<String>, String> {
    if model.family != crate::config::ModelFamily::Decoder {
        return Err(format!("the PyTorch reference is a decoder-only Transformer; this preset's model.family is {}", model.family.name()));
    }
    let first = model.layers.first().ok_or("the preset has no layers")?;
    let same = model.layers.iter().all(|l| l.heads == first.heads && l.d_ff == first.d_ff);
    let standard = model.layers.iter().all(|l| {
        l.attention && l.ffn && l.residual && l.scale && l.norm == NormPlacement::Post
            && l.activation == Activation::Gelu && l.mask == MaskKind::Causal
    });
    if !same || !standard || model.positional != PositionalEncoding::Learned {
        return Err("the PyTorch reference models only post-LN, GELU, causal, scaled layers with learned \
                    positions and the same heads and d_ff in every layer"
            .to_string());
    }
    Ok(vec![
        format!("--d-model={}", model.d_model),
        format!("--heads={}", first.heads),
        format!("--d-ff={}", first.d_ff),
        format!("--layers={}", model.layers.len()),
    ])
}

/// The first Python that can import torch.
fn find_python() -> Option<PathBuf> {
    let mut candidates: Vec<PathBuf> = Vec::new();
    if let Some(p) = std::env::var_os("AW_TORCH_PYTHON") {
        candidates.push(p.into());
    }
    if let Some(home) = std::env::var_os("HOME") {
        candidates.push(PathBuf::from(home).join(".cache/torchref/venv/bin/python"));
    }
    candidates.push("python3".into());
    candidates.into_iter().find(|python| {
        Command::new(python)
            .args(["-c", "import torch"])
            .output()
            .is_ok_and(|out| out.status.success())
    })
}

/// Steps per repeat, untimed steps before each, and repeats: the same for both sides.
#[derive(Clone, Copy)]
pub struct Timing {
    pub steps: usize,
    pub warmup: usize,
    pub repeats: usize,
}

impl Timing {
    fn args(self) -> [String; 3] {
        [format!("--steps={}", self.steps), format!("--warmup={}", self.warmup), format!("--repeats={}", self.repeats)]
    }
}

/// Run the comparison and print the table (or JSON lines).
pub fn run(presets: &[String], thread_counts: &[usize], timing: Timing, json: bool, compile: bool) -> anyhow::Result<ExitCode> {
    let Some(python) = find_python() else {
        eprintln!("error: {SETUP}");
        return Ok(ExitCode::from(2));
    };
    let script = tempfile::Builder::new().prefix("torch_reference").suffix(".py").tempfile()?;
    std::fs::write(script.path(), REFERENCE)?;
    let cpu = cpu_name();
    let tier = crate::training::fused::simd_tier().name();
    if !json {
        let peers = if compile { "PyTorch eager and torch.compile" } else { "PyTorch eager" };
        println!("CPU: {cpu} (fused loops: {tier}); {peers} vs attention-workbench, training steps/s on the reverse task (batch 64, sequence 33)");
        if compile {
            println!("{:<8} {:>7} {:>10} {:>10} {:>10} {:>7} {:>9}  backend", "preset", "threads", "eager", "compiled", "ours", "÷eager", "÷compiled");
        } else {
            println!("{:<8} {:>7} {:>14} {:>14} {:>7}  backend", "preset", "threads", "PyTorch", "ours", "ratio");
        }
    }
    for name in presets {
        let config = crate::config::preset(name).ok_or_else(|| anyhow::anyhow!("unknown preset \"{name}\""))?;
        let model_args = reference_args(&config.model).map_err(|why| anyhow::anyhow!("preset \"{name}\": {why}"))?;
        for &threads in thread_counts {
            let torch = run_reference(&python, script.path(), &model_args, threads, timing, false)?;
            let compiled = compile.then(|| run_reference(&python, script.path(), &model_args, threads, timing, true)).transpose()?;
            let ours = run_ours(name, threads, timing)?;
            let row = Row {
                preset: name.clone(),
                threads,
                torch_steps_per_s: torch.0,
                torch_other_cpu: torch.1,
                compiled,
                ours_steps_per_s: ours.0,
                backend: ours.1,
            };
            print_row(&row, &cpu, json);
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn print_row(row: &Row, cpu: &str, json: bool) {
    let ratio = row.ours_steps_per_s / row.torch_steps_per_s;
    if json {
        let line = serde_json::json!({
            "preset": row.preset,
            "threads": row.threads,
            "torch_steps_per_s": row.torch_steps_per_s,
            "torch_other_cpu_share": row.torch_other_cpu,
            "steps_per_s": row.ours_steps_per_s,
            "ratio": (ratio * 1000.0).round() / 1000.0,
            "compiled_steps_per_s": row.compiled.map(|c| c.0),
            "ratio_compiled": row.compiled.map(|c| (row.ours_steps_per_s / c.0 * 1000.0).round() / 1000.0),
            "backend": row.backend,
            "cpu": cpu,
            "simd": crate::training::fused::simd_tier().name(),
        });
        println!("{line}");
    } else {
        let other = row.torch_other_cpu.max(row.compiled.map_or(0.0, |c| c.1));
        let busy = if other > 0.05 { "  (the machine was busy: run again)" } else { "" };
        if let Some((compiled, _)) = row.compiled {
            println!(
                "{:<8} {:>7} {:>10.2} {:>10.2} {:>10.2} {:>7.2} {:>9.2}  {}{busy}",
                row.preset, row.threads, row.torch_steps_per_s, compiled, row.ours_steps_per_s, ratio, row.ours_steps_per_s / compiled, row.backend
            );
            return;
        }
        println!(
            "{:<8} {:>7} {:>14.2} {:>14.2} {:>7.2}  {}{busy}",
            row.preset, row.threads, row.torch_steps_per_s, row.ours_steps_per_s, ratio, row.backend
        );
    }
}

/// (median steps/s, other processes' CPU share) from the reference's RESULT line.
fn run_reference(python: &Path, script: &Path, model_args: &[String], threads: usize, timing: Timing, compile: bool) -> anyhow::Result<(f64, f64)> {
    let out = Command::new(python)
        .arg(script)
        .args(model_args)
        .args(compile.then_some("--compile"))
        .arg(format!("--threads={threads}"))
        .args(timing.args())
        .output()?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let result = stdout
        .lines()
        .find_map(|line| line.strip_prefix("RESULT "))
        .ok_or_else(|| anyhow::anyhow!("the PyTorch reference printed no RESULT line: {}", String::from_utf8_lossy(&out.stderr)))?;
    let value: serde_json::Value = serde_json::from_str(result)?;
    let rate = value["median_steps_per_s"].as_f64().ok_or_else(|| anyhow::anyhow!("the reference's RESULT has no median_steps_per_s: {result}"))?;
    Ok((rate, value["max_other_cpu_share"].as_f64().unwrap_or(f64::NAN)))
}

/// (median steps/s, backend) from `bench --json` in a child process.
fn run_ours(preset: &str, threads: usize, timing: Timing) -> anyhow::Result<(f64, String)> {
    let out = Command::new(std::env::current_exe()?)
        .args(["bench", "--json", "--preset", preset])
        .arg(format!("--threads={threads}"))
        .args(timing.args())
        .output()?;
    anyhow::ensure!(out.status.success(), "bench --preset {preset} failed: {}", String::from_utf8_lossy(&out.stderr));
    let value: serde_json::Value = serde_json::from_slice(&out.stdout)?;
    let rate = value["steps_per_s"].as_f64().ok_or_else(|| anyhow::anyhow!("bench printed no steps_per_s"))?;
    Ok((rate, value["backend"].as_str().unwrap_or("?").to_string()))
}

/// The CPU model, as the kernel names it.
pub fn cpu_name() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find_map(|l| l.strip_prefix("model name").and_then(|r| r.split_once(':')).map(|(_, v)| v.trim().to_string()))
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string())
}

//! `attention-workbench bench`: training throughput of presets on the reverse task
//! (16 tokens, separator, 16 reversed: sequence 33, batch 64, Adam), the same model
//! and task as `.ci/bench/torch_reference.py`, for a side-by-side ratio.
//!
//! Method, like the reference: warm-up steps, then timed steps, median of repeats.
//! Our timed step also generates its batch and reads back the loss and every
//! gradient norm (the trainer always does), which the reference does not.

use std::process::ExitCode;
use std::time::Instant;

use clap::Args;

use super::BackendArg;
use super::torch_compare;
use crate::config::{BackendChoice, PRESET_NAMES, preset};
use crate::experiments::{LengthOutcome, measure_length};
use crate::t;
use crate::tasks::{TaskConfig, TaskKind};
use crate::training::backend::set_cpu_threads;
use crate::training::{Session, StepOutcome};

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Preset(s) to measure (default: lesson and large).
    #[arg(long)]
    preset: Vec<String>,
    /// CPU threads for the backend (default: all cores). With --compare-torch, a
    /// list such as 1,2 measures each count in its own process.
    #[arg(long, value_delimiter = ',')]
    threads: Vec<usize>,
    /// Backend to measure.
    #[arg(long, value_enum, default_value = "cpu")]
    backend: BackendArg,
    /// Timed steps per repeat.
    #[arg(long, default_value_t = 100)]
    steps: usize,
    /// Untimed steps before each repeat.
    #[arg(long, default_value_t = 10)]
    warmup: usize,
    /// Repeats; the median is reported.
    #[arg(long, default_value_t = 3)]
    repeats: usize,
    /// One JSON object per preset.
    #[arg(long)]
    json: bool,
    /// Also run the PyTorch eager reference (same model and task) back to back with
    /// ours and print the ratio; needs a Python with torch (it says how to get one).
    #[arg(long)]
    compare_torch: bool,
    /// With --compare-torch: also run the reference under torch.compile (the
    /// stronger peer; needs a C++ compiler) and print both ratios.
    #[arg(long, requires = "compare_torch")]
    compile: bool,
    /// Train with burn's composed autodiff even where the fused CPU step applies,
    /// to compare the two paths.
    #[arg(long)]
    composed: bool,
    /// Train for this many minutes with snapshots, evaluations and saves, printing
    /// resident memory and steps/s over time (both should stay flat).
    #[arg(long, value_name = "MINUTES")]
    soak: Option<f64>,
    /// Sequence lengths to time on the character model (lesson 11), e.g.
    /// 32,64,128,256: step time (the fastest of at least a second of steps) and
    /// attention memory per length, with the first preset (default tiny) and at
    /// least the timed steps asked for (at most 20) per length.
    #[arg(long, value_delimiter = ',')]
    lengths: Vec<usize>,
    /// The head sweep (lesson 22): an experiment config JSON trained with 1, 2, 4,
    /// 8 and 16 heads at its d_model, each for its steps, with validation and test
    /// accuracy, step time and the pick made on validation.
    #[arg(long, value_name = "CONFIG")]
    heads: Option<std::path::PathBuf>,
    /// Every lesson's own experiment and every *Try it*, trained as the window
    /// trains them, to the steps each asks for: seconds each (lesson ids, numbers
    /// or paths as for `lesson verify`; all shipped lessons when none is given).
    #[arg(long, value_name = "LESSON", num_args = 0.., conflicts_with_all = ["compare_torch", "composed", "soak", "lengths", "heads", "preset"])]
    tries: Option<Vec<String>>,
}

pub fn run(args: BenchArgs) -> anyhow::Result<ExitCode> {
    let presets: Vec<String> = if args.preset.is_empty() {
        vec!["lesson".to_string(), "large".to_string()]
    } else {
        args.preset.clone()
    };
    if args.compare_torch {
        anyhow::ensure!(
            matches!(args.backend, BackendArg::Cpu),
            "--compare-torch measures the default CPU backend, as the PyTorch reference runs on the CPU; drop --backend"
        );
        let counts = if args.threads.is_empty() { vec![rayon::current_num_threads()] } else { args.threads.clone() };
        let timing = torch_compare::Timing {
            steps: args.steps,
            warmup: args.warmup,
            repeats: args.repeats,
        };
        return torch_compare::run(&presets, &counts, timing, args.json, args.compile);
    }
    match args.threads[..] {
        [] => {}
        [threads] => set_cpu_threads(threads),
        _ => anyhow::bail!("--threads takes one count here; a list such as 1,2 goes with --compare-torch"),
    }
    if let Some(minutes) = args.soak {
        return super::soak::run(minutes, args.json);
    }
    if let Some(targets) = &args.tries {
        let (lessons, unreadable) = super::lesson::select_all(targets)?;
        return super::bench_tries::run(&lessons, unreadable, args.json);
    }
    if let Some(path) = &args.heads {
        return heads(path, args.json);
    }
    if !args.lengths.is_empty() {
        let name = args.preset.first().map_or("tiny", String::as_str);
        return lengths(name, &args.lengths, args.steps.min(20), args.json);
    }
    let threads = rayon::current_num_threads();
    for name in &presets {
        let mut config = preset(name).ok_or_else(|| {
            anyhow::anyhow!("unknown preset \"{name}\"; the presets are: {}", PRESET_NAMES.join(", "))
        })?;
        config.task = TaskConfig::for_kind(TaskKind::Reverse);
        config.batch_size = 64;
        config.backend = BackendChoice::from(args.backend);
        let mut session = Session::new(config)?;
        if args.composed {
            session.force_composed();
        }
        let used = session.backend().info.used.clone();
        let path = if session.backend().info.composed_because.is_none() { t!("top-step-fused") } else { t!("top-step-composed") };
        let tokens_per_step = (64 * session.task().seq_len()) as f64;
        let mut rates = Vec::with_capacity(args.repeats);
        for _ in 0..args.repeats.max(1) {
            for _ in 0..args.warmup {
                step(&mut session)?;
            }
            let start = Instant::now();
            for _ in 0..args.steps.max(1) {
                step(&mut session)?;
            }
            rates.push(args.steps.max(1) as f64 / start.elapsed().as_secs_f64());
        }
        rates.sort_by(f64::total_cmp);
        let median = rates[rates.len() / 2];
        if args.json {
            let line = serde_json::json!({
                "preset": name,
                "steps_per_s": round3(median),
                "tokens_per_s": round3(median * tokens_per_step),
                "threads": threads,
                "backend": used,
                "fused_step": session.backend().info.composed_because.is_none(),
                "all_steps_per_s": rates.iter().map(|r| round3(*r)).collect::<Vec<_>>(),
            });
            println!("{line}");
        } else {
            println!(
                "{name:<8} {used:<14} {}  {}",
                t!(
                    "cli-bench-rate",
                    threads = threads,
                    steps = format!("{median:8.2}"),
                    tokens = format!("{:10.0}", median * tokens_per_step)
                ),
                t!("cli-bench-path", path = path.as_str())
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Step time and attention memory of one preset at each sequence length.
fn lengths(name: &str, lengths: &[usize], steps: usize, json: bool) -> anyhow::Result<ExitCode> {
    let base = preset(name).ok_or_else(|| anyhow::anyhow!("unknown preset \"{name}\"; the presets are: {}", PRESET_NAMES.join(", ")))?;
    if !json {
        println!(
            "{}",
            t!(
                "cli-bench-lengths-intro",
                preset = name,
                batch = base.batch_size,
                threads = rayon::current_num_threads(),
                steps = steps
            )
        );
        println!(
            "{:>7} {:>10} {:>15} {:>11}",
            t!("cli-bench-length"),
            t!("cli-bench-step-ms"),
            t!("cli-bench-attention-mib"),
            t!("cli-bench-total-mib")
        );
    }
    for &length in lengths {
        let outcome = measure_length(&base, length, steps);
        if json {
            println!("{}", serde_json::to_string(&outcome)?);
            continue;
        }
        match outcome {
            LengthOutcome::Measured(c) => println!("{:>7} {:>10.2} {:>15.1} {:>11.1}", c.length, c.step_ms, c.attention_mib, c.total_mib),
            LengthOutcome::Refused { length, message } => println!("{length:>7} {}", t!("cli-bench-refused", message = message.as_str())),
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The head sweep on one experiment config, a row per head count, then the pick.
fn heads(path: &std::path::Path, json: bool) -> anyhow::Result<ExitCode> {
    use crate::experiments::{HEAD_COUNTS, HeadsOutcome, measure_heads, verdict};
    let base = super::base_config(None, Some(&path.to_path_buf()), None)?;
    if !json {
        println!("{}", t!("cli-bench-heads-intro", task = base.task.kind.name(), d_model = base.model.d_model, steps = base.steps, threads = rayon::current_num_threads()));
        println!("{:>6} {:>11} {:>9} {:>9} {:>11}", t!("cli-bench-heads"), t!("cli-bench-validation"), t!("cli-bench-test"), t!("cli-bench-step-ms"), t!("cli-bench-train-loss"));
    }
    let mut outcomes = Vec::new();
    for heads in HEAD_COUNTS {
        let Some(outcome) = measure_heads(&base, heads, &|| false) else { continue };
        if json {
            println!("{}", serde_json::to_string(&outcome)?);
        } else {
            match &outcome {
                HeadsOutcome::Measured(p) => println!("{:>6} {:>11.3} {:>9.3} {:>9.2} {:>11.3}", p.heads, p.validation_accuracy, p.test_accuracy, p.step_ms, p.train_loss),
                HeadsOutcome::Refused { heads, message } => println!("{heads:>6} {}", t!("cli-bench-refused", message = message.as_str())),
            }
        }
        outcomes.push(outcome);
    }
    if let (Some(v), false) = (verdict(&outcomes), json) {
        println!("{}", t!("cli-bench-heads-pick", heads = v.pick, test = format!("{:.3}", v.pick_test_accuracy), best = format!("{:.3}", v.best_test_accuracy)));
    }
    Ok(ExitCode::SUCCESS)
}

fn step(session: &mut Session) -> anyhow::Result<()> {
    match session.step(false) {
        StepOutcome::Done { .. } => Ok(()),
        StepOutcome::NonFinite { step, .. } => anyhow::bail!("the loss went non-finite at step {step}"),
    }
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

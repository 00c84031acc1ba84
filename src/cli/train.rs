//! `attention-workbench train`: the worker thread the window uses, driven from a terminal.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use super::{BackendArg, base_config};
use crate::config::validate;
use crate::t;
use crate::training::{TrainCommand, TrainEvent, TrainerHandle, backend::set_cpu_threads};

#[derive(Args, Debug)]
pub struct TrainArgs {
    /// Task to train on (see `list`); overrides the config's task.
    #[arg(long)]
    task: Option<String>,
    /// Named preset to start from (default: lesson).
    #[arg(long, conflicts_with = "config")]
    preset: Option<String>,
    /// Experiment config JSON to start from.
    #[arg(long)]
    config: Option<PathBuf>,
    /// Training steps.
    #[arg(long)]
    steps: Option<usize>,
    /// Seed for weights, data and dropout.
    #[arg(long)]
    seed: Option<u64>,
    /// Learning rate.
    #[arg(long)]
    lr: Option<f64>,
    /// Sequences per step.
    #[arg(long)]
    batch: Option<usize>,
    /// Where to train (gpu falls back to cpu when no adapter exists).
    #[arg(long, value_enum)]
    backend: Option<BackendArg>,
    /// CPU threads for the backend (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Save the run folder here when training ends.
    #[arg(long)]
    save: Option<PathBuf>,
    /// One JSON object per line instead of readable progress.
    #[arg(long)]
    json: bool,
    /// Also print attention snapshots (large) with --json.
    #[arg(long)]
    attention: bool,
}

pub fn run(args: TrainArgs) -> anyhow::Result<ExitCode> {
    if let Some(threads) = args.threads {
        set_cpu_threads(threads);
    }
    let mut config = base_config(args.preset.as_deref(), args.config.as_ref(), args.task.as_deref())?;
    if let Some(steps) = args.steps {
        config.steps = steps;
    }
    if let Some(seed) = args.seed {
        config.seed = seed;
    }
    if let Some(lr) = args.lr {
        config.lr = lr;
    }
    if let Some(batch) = args.batch {
        config.batch_size = batch;
    }
    if let Some(backend) = args.backend {
        config.backend = backend.into();
    }
    let problems = validate(&config);
    if !problems.is_empty() {
        let lines: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
        anyhow::bail!("{}", t!("cli-invalid-config", problems = lines.join("; ")));
    }

    let (events_tx, events) = crate::training::event_queue();
    let total_steps = config.steps;
    let task_name = config.task.kind.name();
    let trainer = TrainerHandle::spawn(config, events_tx, None);
    trainer.send(TrainCommand::Start);
    let printer = Printer { json: args.json, attention: args.attention, total_steps };
    let mut exit = ExitCode::SUCCESS;
    let mut saving = false;
    for event in events.iter() {
        printer.print(&event, task_name);
        match &event {
            TrainEvent::Finished { .. } => match &args.save {
                Some(dir) if !saving => {
                    saving = true;
                    trainer.send(TrainCommand::Save(dir.clone()));
                }
                _ => break,
            },
            TrainEvent::Saved { .. } => break,
            TrainEvent::NonFinite { .. } => {
                exit = ExitCode::from(3);
                break;
            }
            TrainEvent::Error { .. } => {
                exit = ExitCode::from(2);
                break;
            }
            _ => {}
        }
    }
    trainer.shutdown();
    Ok(exit)
}

struct Printer {
    json: bool,
    attention: bool,
    total_steps: usize,
}

impl Printer {
    fn print(&self, event: &TrainEvent, task: &str) {
        if self.json {
            if self.attention || !matches!(event, TrainEvent::Attention(_)) {
                println!("{}", serde_json::to_string(event).expect("events serialise"));
            }
            return;
        }
        match event {
            TrainEvent::Ready { parameters, backend, seq_len, vocab, .. } => {
                println!(
                    "{}",
                    t!(
                        "cli-train-ready",
                        task = task,
                        backend = backend.used.as_str(),
                        parameters = *parameters,
                        seq_len = *seq_len,
                        vocab = vocab.len()
                    )
                );
                if let Some(reason) = &backend.fallback_reason {
                    println!("{}", t!("cli-note", message = reason.as_str()));
                }
                if let Some(adapter) = &backend.adapter {
                    println!("{}", t!("cli-train-adapter", adapter = adapter.as_str()));
                }
            }
            TrainEvent::Step(m) if m.step % 100 == 0 || m.step == 1 => {
                let remaining = self.total_steps.saturating_sub(m.step) as f32;
                let eta = if m.steps_per_s > 0.0 { remaining / m.steps_per_s } else { 0.0 };
                println!(
                    "{}",
                    t!(
                        "cli-train-step",
                        step = format!("{:>6}", m.step),
                        total = self.total_steps,
                        loss = format!("{:.4}", m.loss),
                        accuracy = format!("{:5.1}", 100.0 * m.accuracy),
                        speed = format!("{:.1}", m.steps_per_s),
                        eta = format_secs(eta)
                    )
                );
            }
            TrainEvent::Note { message } => println!("{}", t!("cli-note", message = message.as_str())),
            TrainEvent::Eval(e) => {
                println!(
                    "{}",
                    t!(
                        "cli-train-eval",
                        step = format!("{:>6}", e.step),
                        loss = format!("{:.4}", e.loss),
                        accuracy = format!("{:5.1}", 100.0 * e.accuracy),
                        sequences = format!("{:5.1}", 100.0 * e.sequence_accuracy)
                    )
                );
                if !e.by_length.is_empty() {
                    println!("{}", length_line(&e.by_length));
                }
                // A bucket no held-out sentence fell in has no accuracy: say how to get one.
                if let Some(b) = e.by_length.iter().find(|b| b.sentences == 0) {
                    eprintln!("{}", t!("cli-warning", message = t!("rep-metric-empty-bucket", shortest = b.shortest, longest = b.longest)));
                }
            }
            TrainEvent::NonFinite { hint, .. } => eprintln!("{}", t!("cli-train-stopped", hint = hint.as_str())),
            TrainEvent::Finished { step, eval_accuracy, elapsed_secs, .. } => println!(
                "{}",
                t!(
                    "cli-train-finished",
                    step = *step,
                    time = format_secs(*elapsed_secs),
                    accuracy = format!("{:.1}", 100.0 * eval_accuracy)
                )
            ),
            TrainEvent::Saved { dir } => println!("{}", t!("cli-train-saved", dir = dir.display().to_string())),
            TrainEvent::Error { message } => eprintln!("{}", t!("cli-error", message = message.as_str())),
            _ => {}
        }
    }
}

fn format_secs(secs: f32) -> String {
    let secs = secs.max(0.0).round() as u64;
    if secs >= 60 {
        format!("{}m{:02}s", secs / 60, secs % 60)
    } else {
        format!("{secs}s")
    }
}

/// "by source length: 3–8 words 95.1% (112 sentences) · …": token accuracy per bucket.
fn length_line(buckets: &[crate::training::LengthBucket]) -> String {
    let parts: Vec<String> = buckets
        .iter()
        .map(|b| {
            let accuracy = if b.sentences == 0 { "—".to_string() } else { format!("{:.1}%", 100.0 * b.accuracy) };
            t!("cli-train-length-bucket", shortest = b.shortest, longest = b.longest, accuracy = accuracy, sentences = b.sentences)
        })
        .collect();
    t!("cli-train-lengths", buckets = parts.join(" · "))
}

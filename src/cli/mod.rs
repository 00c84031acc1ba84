//! The headless command line: the same `training` code as the window, without one.

mod bench;
mod bench_tries;
mod eval;
mod generate;
mod inspect;
mod lesson;
mod probe;
mod soak;
pub mod torch_compare;
mod train;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::config::{BackendChoice, ExperimentConfig, PRESET_NAMES, preset};
use crate::t;
use crate::tasks::{TaskConfig, TaskKind};

#[derive(Parser, Debug)]
#[command(name = "attention-workbench", version, about = "Learn attention by training a small Transformer live. No command opens the window.")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Language of readable output and lesson texts: en or zh (default: the system's).
    /// The window's language is chosen in its Language menu.
    #[arg(long, global = true, value_parser = ["en", "zh"])]
    pub lang: Option<String>,
    /// Open a lesson pack in the window (a folder of lesson folders, with bugs/ and
    /// pack.toml if it has them); opened packs are remembered. May be repeated.
    #[arg(long, value_name = "DIR")]
    pub pack: Vec<PathBuf>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Train a model headlessly and print progress (one JSON object per line with --json).
    Train(train::TrainArgs),
    /// Evaluate a saved run folder on its task's held-out set.
    Eval(eval::EvalArgs),
    /// Measure training throughput (steps/s, tokens/s) of presets on the reverse task.
    Bench(bench::BenchArgs),
    /// Run, check or list lessons.
    Lesson(lesson::LessonArgs),
    /// Check a model for attention leaks: future tokens (causality) or padding.
    Probe(probe::ProbeArgs),
    /// Write greedily from a prompt with a saved model, with and without a KV cache, timing each token.
    Generate(generate::GenerateArgs),
    /// Open a Hugging Face BERT or GPT-2 folder and print its tokens, attention
    /// weights, hidden states and predictions for a sentence (or two, padded).
    Inspect(inspect::InspectArgs),
    /// List the tasks and presets.
    List,
    /// Print a preset's experiment config as JSON (a starting point for --config files).
    Config {
        /// Preset to print.
        #[arg(long, default_value = "lesson")]
        preset: String,
        /// Task to put in it.
        #[arg(long)]
        task: Option<String>,
    },
}

/// Run a headless command; errors are one line on stderr and a non-zero exit.
pub fn run(command: Command) -> ExitCode {
    let result = match command {
        Command::Train(args) => train::run(args),
        Command::Eval(args) => eval::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Probe(args) => probe::run(args),
        Command::Generate(args) => generate::run(args),
        Command::Lesson(args) => lesson::run(args),
        Command::Inspect(args) => inspect::run(args),
        Command::List => {
            list();
            Ok(ExitCode::SUCCESS)
        }
        Command::Config { preset, task } => base_config(Some(&preset), None, task.as_deref()).map(|config| {
            println!("{}", config.to_json());
            ExitCode::SUCCESS
        }),
    };
    result.unwrap_or_else(|err| {
        eprintln!("{}", t!("cli-error", message = format!("{err:#}")));
        ExitCode::from(2)
    })
}

fn list() {
    println!("{}", t!("cli-list-tasks"));
    for kind in TaskKind::ALL {
        println!("  {:<11} {}", kind.name(), kind.describe());
    }
    println!("{}", t!("cli-list-presets"));
    for name in PRESET_NAMES {
        let config = preset(name).expect("listed preset");
        let m = &config.model;
        let described = match (m.family, m.layers.first()) {
            (crate::config::ModelFamily::Rnn, _) | (_, None) => {
                t!("cli-list-preset-rnn", d_model = m.d_model, cell = format!("{:?}", m.rnn_cell).to_uppercase(), task = config.task.kind.name())
            }
            (family, Some(layer)) => {
                let layers = t!("cli-list-preset", d_model = m.d_model, heads = layer.heads, d_ff = layer.d_ff, layers = m.layers.len());
                if family == crate::config::ModelFamily::EncoderDecoder {
                    t!("cli-list-preset-encoder", layers = layers, encoder = m.encoder_layers.len(), task = config.task.kind.name())
                } else {
                    layers
                }
            }
        };
        println!("  {:<15} {}", name, described);
    }
}

/// The experiment named by `--preset` or `--config`, with `--task` applied.
pub(crate) fn base_config(
    preset_name: Option<&str>,
    config_file: Option<&PathBuf>,
    task: Option<&str>,
) -> anyhow::Result<ExperimentConfig> {
    let mut config = match (preset_name, config_file) {
        (Some(_), Some(_)) => anyhow::bail!("{}", t!("cli-preset-or-config")),
        (_, Some(path)) => crate::runs::read_json::<ExperimentConfig>(path)?,
        (name, None) => {
            let name = name.unwrap_or("lesson");
            preset(name).ok_or_else(|| {
                anyhow::anyhow!("{}", t!("cli-unknown-preset", name = name, presets = PRESET_NAMES.join(", ")))
            })?
        }
    };
    if let Some(name) = task {
        let kind = TaskKind::from_name(name).ok_or_else(|| {
            let names: Vec<&str> = TaskKind::ALL.iter().map(|k| k.name()).collect();
            anyhow::anyhow!("{}", t!("cli-unknown-task", name = name, tasks = names.join(", ")))
        })?;
        if kind != config.task.kind {
            config.task = TaskConfig::for_kind(kind);
        }
        config.fit_max_len_to_task();
    }
    Ok(config)
}

/// `--backend` values.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum BackendArg {
    Cpu,
    Gpu,
    Ndarray,
    Flex,
}

impl From<BackendArg> for BackendChoice {
    fn from(arg: BackendArg) -> Self {
        match arg {
            BackendArg::Cpu => BackendChoice::Cpu,
            BackendArg::Gpu => BackendChoice::Gpu,
            BackendArg::Ndarray => BackendChoice::Ndarray,
            BackendArg::Flex => BackendChoice::Flex,
        }
    }
}

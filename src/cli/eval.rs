//! `attention-workbench eval DIR`: load a run folder and measure it on the held-out set.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::t;
use crate::training::backend::set_cpu_threads;

#[derive(Args, Debug)]
pub struct EvalArgs {
    /// The run folder (made by `train --save` or the window's Save run).
    dir: PathBuf,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// CPU threads for the backend (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
}

pub fn run(args: EvalArgs) -> anyhow::Result<ExitCode> {
    if let Some(threads) = args.threads {
        set_cpu_threads(threads);
    }
    let mut session = crate::training::Session::load(&args.dir)?;
    let eval = session.evaluate();
    if args.json {
        let line = serde_json::json!({
            "event": "eval",
            "dir": args.dir,
            "task": session.config().task.kind.name(),
            "step": eval.step,
            "loss": eval.loss,
            "accuracy": eval.accuracy,
            "sequence_accuracy": eval.sequence_accuracy,
        });
        println!("{line}");
    } else {
        println!(
            "{}",
            t!(
                "cli-eval-result",
                dir = args.dir.display().to_string(),
                task = session.config().task.kind.name(),
                step = eval.step,
                loss = format!("{:.4}", eval.loss),
                accuracy = format!("{:.1}", 100.0 * eval.accuracy),
                sequences = format!("{:.1}", 100.0 * eval.sequence_accuracy)
            )
        );
    }
    Ok(ExitCode::SUCCESS)
}

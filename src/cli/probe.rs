//! `attention-workbench probe causality|padding (--config FILE | --run DIR) [--json]`:
//! does information reach positions it must not? Exits 0 whether or not it leaks.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};

use crate::probe::LeakReport;
use crate::runs::read_json;
use crate::t;
use crate::training::Session;
use crate::training::backend::set_cpu_threads;

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum ProbeKind {
    /// Change tokens after each position; outputs at or before it must not move.
    Causality,
    /// Change padding tokens; outputs at real positions must not move.
    Padding,
}

#[derive(Args, Debug)]
pub struct ProbeArgs {
    /// Which probe.
    #[arg(value_enum)]
    kind: ProbeKind,
    /// Probe a fresh model built from this experiment config (random weights suffice:
    /// a leak is a property of the masks).
    #[arg(long, conflicts_with = "run")]
    config: Option<PathBuf>,
    /// Probe a saved run's trained model.
    #[arg(long)]
    run: Option<PathBuf>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// CPU threads for the backend (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
}

pub fn run(args: ProbeArgs) -> anyhow::Result<ExitCode> {
    if let Some(threads) = args.threads {
        set_cpu_threads(threads);
    }
    let session = match (&args.config, &args.run) {
        (Some(path), None) => Session::new(read_json(path)?).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?,
        (None, Some(dir)) => crate::training::Session::load(dir)?,
        _ => anyhow::bail!("{}", t!("cli-probe-give-source")),
    };
    let report = match args.kind {
        ProbeKind::Causality => session.causality_probe(),
        ProbeKind::Padding => session.padding_probe(),
    };
    if args.json {
        println!("{}", serde_json::to_string(&report)?);
    } else {
        print_report(&report);
    }
    Ok(ExitCode::SUCCESS)
}

fn print_report(report: &LeakReport) {
    if let Some(note) = &report.note {
        println!("{}", t!("cli-probe-note", probe = report.probe, note = note.as_str()));
        return;
    }
    let verdict = if report.leak { t!("cli-probe-leak") } else { t!("cli-probe-no-leak") };
    println!(
        "{}",
        t!("cli-probe-verdict", probe = report.probe, verdict = verdict, tolerance = format!("{:e}", report.tolerance))
    );
    for layer in &report.layers {
        let first = layer
            .first_leaking_position
            .map_or("-".to_string(), |p| p.to_string());
        println!(
            "  {}",
            t!("cli-probe-layer", layer = layer.layer, score = format!("{:.3e}", layer.score), first = first)
        );
    }
}

//! `attention-workbench generate --run DIR --prompt TEXT --tokens N [--no-cache] [--json]`:
//! a saved model writes greedily from a prompt, one token at a time, with a KV cache
//! (and, unless `--no-cache`, also without one, to compare), timing every token.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use serde::Serialize;

use crate::t;
use crate::training::backend::set_cpu_threads;
use crate::training::{Session, Written};

#[derive(Args, Debug)]
pub struct GenerateArgs {
    /// A saved run folder (from `train --save` or the window's Save).
    #[arg(long)]
    run: PathBuf,
    /// Text to continue: characters for a character model, space-separated tokens otherwise.
    #[arg(long)]
    prompt: String,
    /// How many new tokens to write.
    #[arg(long, default_value_t = 50)]
    tokens: usize,
    /// Write only without the cache (every token re-reads the whole text).
    #[arg(long)]
    no_cache: bool,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// CPU threads for the backend (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
}

/// One decoder's output as the CLI prints it.
#[derive(Serialize)]
struct Decoded {
    cache: bool,
    text: String,
    tokens: Vec<String>,
    ms_per_token: Vec<f64>,
    mean_ms: f64,
}

pub fn run(args: GenerateArgs) -> anyhow::Result<ExitCode> {
    if let Some(threads) = args.threads {
        set_cpu_threads(threads);
    }
    let session = crate::training::Session::load(&args.run)?;
    let runs = if args.no_cache {
        vec![decode(&session, &args, false)?]
    } else {
        // Without the cache first, so the cached run is the one compared against it.
        vec![decode(&session, &args, false)?, decode(&session, &args, true)?]
    };
    let identical = runs.windows(2).all(|w| w[0].tokens == w[1].tokens);
    if args.json {
        let out = serde_json::json!({ "prompt": args.prompt, "runs": runs, "identical": identical });
        println!("{out}");
    } else {
        for run in &runs {
            let name = if run.cache { t!("gen-with") } else { t!("gen-without") };
            println!("{name}: {}", t!("cli-ms-per-token", ms = format!("{:.3}", run.mean_ms)));
            println!("  {}{}", args.prompt, run.text);
        }
        if runs.len() == 2 {
            let verdict = if identical { t!("gen-same") } else { t!("cli-tokens-differ") };
            println!("{verdict}; {}", t!("cli-cache-faster", speedup = format!("{:.1}", runs[0].mean_ms / runs[1].mean_ms)));
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn decode(session: &Session, args: &GenerateArgs, cache: bool) -> anyhow::Result<Decoded> {
    let vocab = session.task().vocab();
    let prompt = vocab.parse(&args.prompt).map_err(|e| anyhow::anyhow!("--prompt: {e}"))?;
    let written: Written = session.write(&prompt, args.tokens, cache).map_err(|e| anyhow::anyhow!("{e}"))?;
    let tokens = vocab.render(&written.tokens);
    let space = if vocab.is_char_level() { "" } else { " " };
    let text = format!("{space}{}", vocab.text(&written.tokens));
    Ok(Decoded { cache, text, tokens, mean_ms: written.mean_ms(), ms_per_token: written.ms_per_token })
}

//! `attention-workbench inspect --model DIR --text "…" [--text2 "…"] [--json]`: open a
//! Hugging Face BERT or GPT-2 folder and print what it computes on one sentence
//! (or two, padded to one length): tokens, every layer's and head's attention
//! weights, the hidden states and the model's own predictions. `--json` mirrors
//! `transformers`' `output_attentions` / `output_hidden_states` layout.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;

use crate::pretrained::{Inspection, Predictions};
use crate::t;
use crate::training::backend::set_cpu_threads;

#[derive(Args, Debug)]
pub struct InspectArgs {
    /// The checkpoint folder: config.json, model.safetensors (or its shards) and
    /// tokenizer.json, vocab.txt (BERT) or vocab.json + merges.txt (GPT-2).
    #[arg(long, value_name = "DIR")]
    model: PathBuf,
    /// The sentence (BERT: type [MASK] where it should guess a word).
    #[arg(long)]
    text: String,
    /// A second sentence: the two run as one padded batch with an attention mask.
    #[arg(long)]
    text2: Option<String>,
    /// Print one JSON object: tokens, attentions [layer][sequence][head][query][key],
    /// hidden_states [layer + 1][sequence][token][d_model], predictions.
    #[arg(long)]
    json: bool,
    /// CPU threads for the backend (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
}

pub fn run(args: InspectArgs) -> anyhow::Result<ExitCode> {
    if let Some(threads) = args.threads {
        set_cpu_threads(threads);
    }
    let opened = Instant::now();
    let model = crate::pretrained::open(&args.model, &mut |_, _| {})?;
    let open_ms = opened.elapsed().as_secs_f64() * 1e3;
    let mut texts = vec![args.text.as_str()];
    texts.extend(args.text2.as_deref());
    let started = Instant::now();
    let inspection = model.inspect(&texts).map_err(|e| anyhow::anyhow!("{e}"))?;
    let forward_ms = started.elapsed().as_secs_f64() * 1e3;
    for (count, _) in inspection.truncated.iter().zip(&texts).filter(|(c, _)| **c > 0) {
        eprintln!("{}", t!("msg-pretrained-truncated", count = *count, max = model.config.model.max_len));
    }
    if args.json {
        println!("{}", serde_json::to_string(&inspection)?);
    } else {
        println!("{}", t!("cli-inspect-model", class = model.config.class.as_str(), layers = model.config.model.layers.len(), heads = model.config.model.layers[0].heads, d = model.config.model.d_model, open = format!("{open_ms:.0}"), forward = format!("{forward_ms:.0}")));
        print_inspection(&inspection);
    }
    Ok(ExitCode::SUCCESS)
}

fn print_inspection(inspection: &Inspection) {
    for (s, tokens) in inspection.tokens.iter().enumerate() {
        println!("{}", t!("cli-inspect-tokens", sequence = s + 1, tokens = tokens.join(" ")));
    }
    for (layer, sequences) in inspection.attentions.iter().enumerate() {
        for (s, heads) in sequences.iter().enumerate() {
            for (head, rows) in heads.iter().enumerate() {
                println!("{}", t!("cli-inspect-head", layer = layer, head = head, sequence = s + 1));
                for (q, row) in rows.iter().enumerate() {
                    let cells: Vec<String> = row.iter().map(|w| format!("{w:.2}")).collect();
                    println!("  {:>12} {}", inspection.tokens[s][q], cells.join(" "));
                }
            }
        }
    }
    println!("{}", t!("cli-inspect-hidden"));
    for (layer, sequences) in inspection.hidden_states.iter().enumerate() {
        for (s, tokens) in sequences.iter().enumerate() {
            let norms: Vec<String> = tokens.iter().map(|v| format!("{:.2}", v.iter().map(|x| x * x).sum::<f32>().sqrt())).collect();
            println!("  [{layer}] {} {}", s + 1, norms.join(" "));
        }
    }
    match &inspection.predictions {
        Predictions::MaskFill(guesses) => {
            for guess in guesses {
                let top: Vec<String> = guess.top.iter().map(|(t, p)| format!("{t} {:.1}%", 100.0 * p)).collect();
                println!("{}", t!("cli-inspect-mask", sequence = guess.sequence + 1, position = guess.position, top = top.join(", ")));
            }
        }
        Predictions::Continuation { text, .. } => println!("{}", t!("cli-inspect-continuation", text = text.as_str())),
        Predictions::None(why) => println!("{why}"),
    }
}

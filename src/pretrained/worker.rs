//! The opened checkpoint lives on a thread of its own: opening a large one takes
//! seconds, and the window must stay responsive (it shows the progress). The
//! window sends commands and hears plain-data events back.

use crate::t;
use std::path::PathBuf;
use std::sync::mpsc::{Sender, channel};
use std::time::Instant;

use burn::tensor::{Int, Tensor, TensorData};

use super::reading::{PretrainedInfo, PretrainedReading};
use super::Pretrained;
use crate::model::{Capture, Dropout};
use crate::training::HeadTraceData;

pub enum PretrainedCommand {
    Open(PathBuf),
    /// Read one or two sentences.
    Read(Vec<String>),
    /// One head's computation on sentence `sequence` of the last reading.
    Trace { sequence: usize, layer: usize, head: usize },
}

#[derive(Clone, Debug)]
pub enum PretrainedEvent {
    Progress { fraction: f32, stage: String },
    Opened(Box<PretrainedInfo>),
    Read(Box<PretrainedReading>),
    /// One head traced on sentence `sequence`.
    Traced { sequence: usize, trace: Box<HeadTraceData> },
    Failed(String),
}

/// Start the thread; `send` delivers each event (false: the window is gone).
pub fn spawn(send: impl Fn(PretrainedEvent) -> bool + Send + 'static) -> Sender<PretrainedCommand> {
    let (tx, rx) = channel::<PretrainedCommand>();
    std::thread::Builder::new()
        .name("pretrained model".into())
        .spawn(move || {
            // Not lowered like training: opening is one burst the learner waits
            // for, and the window needs little while it waits (measured under Xvfb:
            // BERT-base opened in 1.3-2.7 s at normal priority, 2.1-4.9 s lowered).
            let mut opened: Option<Pretrained> = None;
            let mut last_texts: Vec<String> = Vec::new();
            while let Ok(command) = rx.recv() {
                let event = match command {
                    PretrainedCommand::Open(dir) => {
                        let started = Instant::now();
                        let result = super::open(&dir, &mut |fraction, stage| {
                            send(PretrainedEvent::Progress { fraction, stage: stage.to_string() });
                        });
                        match result {
                            Ok(model) => {
                                let info = model.info(started.elapsed().as_secs_f64() * 1e3);
                                opened = Some(model);
                                PretrainedEvent::Opened(Box::new(info))
                            }
                            Err(err) => PretrainedEvent::Failed(err.to_string()),
                        }
                    }
                    PretrainedCommand::Read(texts) => match &opened {
                        Some(model) => match model.read(&texts) {
                            Ok(reading) => {
                                last_texts = texts;
                                PretrainedEvent::Read(Box::new(reading))
                            }
                            Err(err) => PretrainedEvent::Failed(err),
                        },
                        None => continue,
                    },
                    PretrainedCommand::Trace { sequence, layer, head } => match &opened {
                        Some(model) => match trace(model, &last_texts, sequence, layer, head) {
                            Ok(trace) => PretrainedEvent::Traced { sequence, trace: Box::new(trace) },
                            Err(err) => PretrainedEvent::Failed(err),
                        },
                        None => continue,
                    },
                };
                if !send(event) {
                    return;
                }
            }
        })
        .expect("spawn the pretrained model's thread");
    tx
}

/// One head of one layer on sentence `sequence`, stage by stage, on the real weights.
fn trace(model: &Pretrained, texts: &[String], sequence: usize, layer: usize, head: usize) -> Result<HeadTraceData, String> {
    let text = texts.get(sequence).ok_or_else(|| t!("msg-pretrained-no-sentence", n = sequence + 1))?;
    let encoded = model.tokenizer.encode(text, model.config.model.max_len)?;
    let seq = encoded.ids.len();
    let layer_config = model.config.model.layers.get(layer).ok_or_else(|| t!("msg-worker-no-head-to-trace", layer = layer, head = head))?;
    if head >= layer_config.heads || seq == 0 {
        return Err(t!("msg-worker-no-head-to-trace", layer = layer, head = head));
    }
    let ids = Tensor::<2, Int>::from_data(TensorData::new(encoded.ids.iter().map(|i| *i as i64).collect::<Vec<_>>(), [1, seq]), &model.device); // [1, seq]
    let capture = Capture { trace: Some((layer, head)), ..Capture::default() };
    let trace = model.model.forward(ids, None, capture, &mut Dropout::off()).trace.ok_or_else(|| t!("msg-worker-no-head-to-trace", layer = layer, head = head))?;
    let about = HeadTraceData {
        layer,
        name: crate::model::UnitName::Layer(layer),
        head,
        d_k: model.config.model.head_dim(layer_config),
        tokens: encoded.tokens,
        scaled: layer_config.scale,
        ..Default::default()
    };
    Ok(crate::training::views::with_stages(about, trace, seq))
}

//! The three model families on the whole `source | target` frame: shapes, which
//! block each attention unit reads, and that the decoder reads the source only
//! through cross-attention (or, for the RNN, through its encoder).

use burn::tensor::{Device, Int, Tensor, TensorData};

use super::{Capture, Dropout, Transformer, attention_units};
use crate::config::{ExperimentConfig, ModelFamily, RnnAttention, preset};
use crate::model::readback::read_floats;
use crate::tasks::{Batch, Rng, Split, Task};

fn setup(name: &str, edit: impl Fn(&mut ExperimentConfig)) -> (ExperimentConfig, Box<dyn Task>, Transformer, Device) {
    let mut config = preset(name).unwrap();
    config.task.length = 6;
    config.fit_max_len_to_task();
    edit(&mut config);
    assert_eq!(crate::config::validate(&config), vec![]);
    let task = config.task.build().unwrap();
    let device = Device::flex();
    let model = Transformer::new(&config.model, task.vocab().len(), 5, &device).with_source_len(task.source_len());
    (config, task, model, device)
}

fn batch(task: &dyn Task, rows: usize) -> Batch {
    task.batch(&mut Rng::new(11), Split::Train, rows)
}

fn logits(model: &Transformer, batch: &Batch, device: &Device) -> Vec<f32> {
    let tokens = Tensor::<2, Int>::from_data(TensorData::new(batch.tokens.clone(), [batch.batch_size, batch.seq_len]), device);
    let padding = batch.has_padding().then_some(&batch.padding[..]);
    read_floats(model.forward(tokens, padding, Capture::default(), &mut Dropout::off()).logits.flatten::<1>(0, 2))
}

/// Largest change of the logits at target positions (≥ S) when `change` edits the batch.
fn target_change(model: &Transformer, batch: &Batch, device: &Device, source_len: usize, vocab: usize, change: impl Fn(&mut Batch)) -> f32 {
    let before = logits(model, batch, device);
    let mut changed = batch.clone();
    change(&mut changed);
    let after = logits(model, &changed, device);
    let seq = batch.seq_len;
    let mut gap = 0.0f32;
    for r in 0..batch.batch_size {
        for t in source_len..seq {
            for v in 0..vocab {
                let i = (r * seq + t) * vocab + v;
                gap = gap.max((before[i] - after[i]).abs());
            }
        }
    }
    gap
}

/// A different real word at the last source position of every row.
fn swap_last_source_word(batch: &mut Batch, source_len: usize) {
    for r in 0..batch.batch_size {
        let i = r * batch.seq_len + source_len - 1;
        batch.tokens[i] = if batch.tokens[i] == 0 { 1 } else { 0 };
    }
}

#[test]
fn every_family_scores_the_whole_frame_with_one_map_per_attention_unit() {
    for name in ["lesson", "encoder_decoder", "rnn"] {
        let (config, task, model, device) = setup(name, |c| {
            if c.model.family == ModelFamily::Rnn {
                c.model.rnn_attention = RnnAttention::Additive;
            }
            if c.model.family == ModelFamily::Decoder {
                c.task = crate::tasks::TaskConfig { length: 6, ..crate::tasks::TaskConfig::for_kind(crate::tasks::TaskKind::Translate) };
            }
        });
        let b = batch(task.as_ref(), 3);
        let tokens = Tensor::<2, Int>::from_data(TensorData::new(b.tokens.clone(), [3, b.seq_len]), &device);
        let out = model.forward(tokens, Some(&b.padding), Capture { attention: true, ..Capture::default() }, &mut Dropout::off());
        assert_eq!(out.logits.dims(), [3, b.seq_len, task.vocab().len()], "{name}");
        let units = attention_units(&config.model, task.source_len().unwrap());
        assert_eq!(out.attention.len(), units.len(), "{name}");
        for (unit, weights) in units.iter().zip(out.attention) {
            let weights = weights.unwrap_or_else(|| panic!("{name}: {} has weights", unit.name));
            let [rows, heads, seq, _] = weights.dims();
            let w = read_floats(weights.flatten::<1>(0, 3));
            for r in 0..rows {
                for h in 0..heads {
                    for q in 0..seq {
                        let row = &w[((r * heads + h) * seq + q) * seq..][..seq];
                        let sum: f32 = row.iter().sum();
                        // A cross-attention or RNN alignment row reads only real source words.
                        if unit.is_cross() {
                            let s = task.source_len().unwrap();
                            let outside: f32 = (0..seq).filter(|&k| k >= s || b.padding[r * seq + k]).map(|k| row[k]).sum();
                            assert!(outside < 1e-6, "{name} {}: weight {outside} outside the real source", unit.name);
                            if q >= s {
                                assert!((sum - 1.0).abs() < 1e-4, "{name} {} row {q} sums to {sum}", unit.name);
                            } else {
                                assert!(sum < 1e-6, "{name} {}: a source row reads nothing", unit.name);
                            }
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn the_decoder_reads_the_source_only_through_cross_attention() {
    let (_, task, model, device) = setup("encoder_decoder", |_| {});
    let s = task.source_len().unwrap();
    let b = batch(task.as_ref(), 4);
    let vocab = task.vocab().len();
    let with_cross = target_change(&model, &b, &device, s, vocab, |b| swap_last_source_word(b, s));
    assert!(with_cross > 1e-3, "a source word changes what the decoder writes: {with_cross}");

    let (_, task, model, device) = setup("encoder_decoder", |c| c.model.layers.iter_mut().for_each(|l| l.cross_attention = false));
    let without = target_change(&model, &b, &device, s, task.vocab().len(), |b| swap_last_source_word(b, s));
    assert_eq!(without, 0.0, "without cross-attention no source word reaches the decoder");

    // Causal inside the target: a later target word never changes an earlier output.
    let (_, task, model, device) = setup("encoder_decoder", |_| {});
    let seq = b.seq_len;
    let before = logits(&model, &b, &device);
    let mut later = b.clone();
    for r in 0..4 {
        later.tokens[r * seq + seq - 1] = 0;
    }
    let after = logits(&model, &later, &device);
    let v = task.vocab().len();
    let earlier_gap = (0..4).flat_map(|r| (0..(seq - 1) * v).map(move |i| r * seq * v + i)).map(|i| (before[i] - after[i]).abs()).fold(0.0f32, f32::max);
    assert_eq!(earlier_gap, 0.0, "the last target word leaks into earlier outputs");
}

#[test]
fn the_rnn_carries_the_source_in_its_last_state() {
    for attention in [RnnAttention::None, RnnAttention::Dot] {
        let (_, task, model, device) = setup("rnn", |c| c.model.rnn_attention = attention);
        let s = task.source_len().unwrap();
        let b = batch(task.as_ref(), 4);
        let change = target_change(&model, &b, &device, s, task.vocab().len(), |b| swap_last_source_word(b, s));
        assert!(change > 1e-4, "{attention:?}: the source reaches the decoder ({change})");
    }
}


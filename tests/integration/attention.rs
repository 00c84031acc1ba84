//! What the hand-written attention guarantees, checked on untrained models.

use attention_workbench::config::{AttentionKind, MaskKind, ModelConfig, PositionalEncoding, preset};
use attention_workbench::model::{Capture, Dropout, Transformer};
use attention_workbench::tasks::Rng;
use burn::tensor::{Device, Int, Tensor, TensorData};

const VOCAB: usize = 11;

fn model_with(edit: impl FnOnce(&mut ModelConfig)) -> (Transformer, Device) {
    let mut config = preset("lesson").unwrap().model;
    edit(&mut config);
    let device = Device::flex();
    (Transformer::new(&config, VOCAB, 7, &device), device)
}

fn random_tokens(batch: usize, seq: usize, seed: u64) -> Vec<i64> {
    let mut rng = Rng::new(seed);
    (0..batch * seq).map(|_| rng.below(VOCAB) as i64).collect()
}

fn tokens_tensor(tokens: Vec<i64>, batch: usize, seq: usize, device: &Device) -> Tensor<2, Int> {
    Tensor::from_data(TensorData::new(tokens, [batch, seq]), device)
}

fn values<const D: usize>(t: Tensor<D>) -> Vec<f32> {
    t.into_data().convert::<f32>().try_into_vec::<f32>().unwrap()
}

/// Per layer, all attention weights `[batch, heads, seq, seq]` flattened.
fn attention(model: &Transformer, device: &Device, tokens: Vec<i64>, batch: usize, seq: usize, padding: Option<&[bool]>) -> Vec<Vec<f32>> {
    let capture = Capture { attention: true, ..Capture::default() };
    let out = model.forward(tokens_tensor(tokens, batch, seq, device), padding, capture, &mut Dropout::off());
    out.attention.into_iter().map(|a| values(a.expect("attention on"))).collect()
}

#[test]
fn every_attention_row_sums_to_one() {
    for mask in [MaskKind::Causal, MaskKind::Bidirectional, MaskKind::SlidingWindow] {
        let (model, device) = model_with(|m| m.layers.iter_mut().for_each(|l| l.mask = mask));
        let (batch, seq) = (3, 10);
        for layer in attention(&model, &device, random_tokens(batch, seq, 1), batch, seq, None) {
            for row in layer.chunks(seq) {
                let sum: f32 = row.iter().sum();
                assert!((sum - 1.0).abs() < 1e-5, "{mask:?}: a row sums to {sum}");
            }
        }
    }
}

#[test]
fn causal_mask_puts_exactly_zero_weight_above_the_diagonal() {
    let (model, device) = model_with(|_| {});
    let (batch, seq) = (2, 12);
    let layers = attention(&model, &device, random_tokens(batch, seq, 2), batch, seq, None);
    for layer in layers {
        for (r, row) in layer.chunks(seq).enumerate() {
            let q = r % seq;
            for (k, w) in row.iter().enumerate() {
                if k > q {
                    assert_eq!(*w, 0.0, "query {q} gives weight {w} to future key {k}");
                } else {
                    assert!(*w > 0.0);
                }
            }
        }
    }
}

#[test]
fn padding_gets_zero_weight_and_an_all_padding_row_is_zero_not_nan() {
    let (model, device) = model_with(|m| m.layers.iter_mut().for_each(|l| l.mask = MaskKind::Causal));
    let (batch, seq) = (2, 6);
    // Row 0: right padding (last two). Row 1: left padding (first two), so under the
    // causal mask queries 0 and 1 of row 1 see no key at all.
    let padding = [
        false, false, false, false, true, true, //
        true, true, false, false, false, false,
    ];
    let tokens = random_tokens(batch, seq, 3);
    let capture = Capture { attention: true, ..Capture::default() };
    let out = model.forward(tokens_tensor(tokens.clone(), batch, seq, &device), Some(&padding), capture, &mut Dropout::off());
    assert!(values(out.logits).iter().all(|v| v.is_finite()), "logits must stay finite");
    let heads = 4;
    for layer in attention(&model, &device, tokens, batch, seq, Some(&padding)) {
        assert!(layer.iter().all(|w| w.is_finite()), "no NaN anywhere");
        for b in 0..batch {
            for h in 0..heads {
                for q in 0..seq {
                    let row = &layer[((b * heads + h) * seq + q) * seq..][..seq];
                    for (k, w) in row.iter().enumerate() {
                        if padding[b * seq + k] {
                            assert_eq!(*w, 0.0, "batch {b} query {q} looks at padded key {k}");
                        }
                    }
                    let sum: f32 = row.iter().sum();
                    let empty = b == 1 && q < 2;
                    let expected = if empty { 0.0 } else { 1.0 };
                    assert!((sum - expected).abs() < 1e-5, "batch {b} query {q}: row sums to {sum}");
                }
            }
        }
    }
}

#[test]
fn without_positions_self_attention_is_permutation_equivariant() {
    let (model, device) = model_with(|m| {
        m.positional = PositionalEncoding::None;
        m.layers.iter_mut().for_each(|l| l.mask = MaskKind::Bidirectional);
    });
    let seq = 9;
    let tokens = random_tokens(1, seq, 4);
    let mut order: Vec<usize> = (0..seq).collect();
    Rng::new(5).shuffle(&mut order);
    let shuffled: Vec<i64> = order.iter().map(|&i| tokens[i]).collect();
    let run = |t: Vec<i64>| {
        let out = model.forward(tokens_tensor(t, 1, seq, &device), None, Capture::default(), &mut Dropout::off());
        values(out.logits)
    };
    let plain = run(tokens);
    let permuted = run(shuffled);
    for (new_pos, &old_pos) in order.iter().enumerate() {
        for v in 0..VOCAB {
            let a = plain[old_pos * VOCAB + v];
            let b = permuted[new_pos * VOCAB + v];
            assert!((a - b).abs() < 1e-5, "position {old_pos}->{new_pos} token {v}: {a} vs {b}");
        }
    }
    // And with learned positions the same shuffle does change the outputs.
    let (with_positions, device) = model_with(|m| m.layers.iter_mut().for_each(|l| l.mask = MaskKind::Bidirectional));
    let tokens = random_tokens(1, seq, 4);
    let shuffled: Vec<i64> = order.iter().map(|&i| tokens[i]).collect();
    let a = values(with_positions.forward(tokens_tensor(tokens, 1, seq, &device), None, Capture::default(), &mut Dropout::off()).logits);
    let b = values(with_positions.forward(tokens_tensor(shuffled, 1, seq, &device), None, Capture::default(), &mut Dropout::off()).logits);
    let moved = order.iter().enumerate().any(|(n, &o)| (a[o * VOCAB] - b[n * VOCAB]).abs() > 1e-3);
    assert!(moved, "positions should break the symmetry");
}

#[test]
fn uniform_average_gives_each_visible_key_the_same_weight() {
    let (model, device) = model_with(|m| m.layers.iter_mut().for_each(|l| l.attention_kind = AttentionKind::UniformAverage));
    let seq = 5;
    for layer in attention(&model, &device, random_tokens(1, seq, 6), 1, seq, None) {
        for (r, row) in layer.chunks(seq).enumerate() {
            let q = r % seq;
            for (k, w) in row.iter().enumerate() {
                let expected = if k <= q { 1.0 / (q + 1) as f32 } else { 0.0 };
                assert!((w - expected).abs() < 1e-6);
            }
        }
    }
}

#[test]
fn a_convolution_reads_only_the_last_window_positions_with_weights_that_ignore_the_tokens() {
    let (model, device) = model_with(|m| {
        m.layers.iter_mut().for_each(|l| {
            l.attention_kind = AttentionKind::Convolution;
            l.window = 3;
            l.mask = MaskKind::Bidirectional; // the kernel still looks back only
        })
    });
    let seq = 6;
    let maps = |seed| attention(&model, &device, random_tokens(1, seq, seed), 1, seq, None);
    let (first, second) = (maps(6), maps(7));
    assert_eq!(first, second, "other tokens, the same weights: they depend only on the offset");
    for layer in first {
        for (r, row) in layer.chunks(seq).enumerate() {
            let q = r % seq;
            for (k, w) in row.iter().enumerate() {
                let in_window = k <= q && q - k < 3;
                // A fresh kernel is zero, so its softmax spreads 1/3 over the offsets.
                let expected = if in_window { 1.0 / 3.0 } else { 0.0 };
                assert!((w - expected).abs() < 1e-6, "query {q}, key {k}: {w}");
            }
        }
    }
}

#[test]
fn a_head_trace_is_consistent_stage_by_stage() {
    let (model, device) = model_with(|_| {});
    let seq = 7;
    let capture = Capture { attention: true, trace: Some((1, 2)), ..Capture::default() };
    let out = model.forward(tokens_tensor(random_tokens(1, seq, 8), 1, seq, &device), None, capture, &mut Dropout::off());
    let trace = out.trace.expect("trace of layer 1 head 2");
    let d_k = 64 / 4;
    assert_eq!(trace.q.dims(), [1, seq, d_k]);
    let raw = values(trace.raw_scores.clone());
    let scaled = values(trace.scaled_scores.clone());
    for (r, s) in raw.iter().zip(&scaled) {
        assert!((r / (d_k as f32).sqrt() - s).abs() < 1e-5);
    }
    // raw = Q Kᵀ
    let q = values(trace.q.clone());
    let k = values(trace.k.clone());
    let dot: f32 = (0..d_k).map(|i| q[3 * d_k + i] * k[d_k + i]).sum();
    assert!((dot - raw[3 * seq + 1]).abs() < 1e-4);
    // weights = the layer's head 2 weights; output = weights × V
    let layer_weights = values(out.attention[1].clone().unwrap());
    let head = &layer_weights[2 * seq * seq..3 * seq * seq];
    let weights = values(trace.weights.clone());
    assert!(head.iter().zip(&weights).all(|(a, b)| (a - b).abs() < 1e-6));
    let v = values(trace.v.clone());
    let output = values(trace.output.clone());
    let expected: f32 = (0..seq).map(|j| weights[4 * seq + j] * v[j * d_k + 5]).sum();
    assert!((expected - output[4 * d_k + 5]).abs() < 1e-4);
    assert!(!trace.mask.get(0, 2, 3) && trace.mask.get(0, 3, 2));
}

#[test]
fn untrained_attention_is_close_to_uniform() {
    // Lesson 02's claim: at initialisation, scaled scores are small, so softmax is near
    // uniform and each row's entropy is close to log(visible keys).
    let (model, device) = model_with(|m| m.layers.iter_mut().for_each(|l| l.mask = MaskKind::Bidirectional));
    let seq = 16;
    for layer in attention(&model, &device, random_tokens(4, seq, 9), 4, seq, None) {
        let mean_entropy: f32 = layer
            .chunks(seq)
            .map(|row| -row.iter().map(|p| if *p > 0.0 { p * p.ln() } else { 0.0 }).sum::<f32>())
            .sum::<f32>()
            / (layer.len() / seq) as f32;
        let max = (seq as f32).ln();
        assert!(mean_entropy > 0.85 * max, "entropy {mean_entropy} vs log n {max}");
    }
}

#[test]
fn the_config_layout_matches_the_built_model() {
    use attention_workbench::config::{NormPlacement, param_layout};
    use attention_workbench::model::param_shapes;
    let variants: Vec<Box<dyn Fn(&mut ModelConfig)>> = vec![
        Box::new(|_| {}),
        Box::new(|m| m.positional = PositionalEncoding::Sinusoidal),
        Box::new(|m| {
            m.layers[0].norm = NormPlacement::Pre;
            m.layers[1].ffn = false;
        }),
        Box::new(|m| {
            m.layers[1].attention = false;
            m.layers[0].norm = NormPlacement::None;
        }),
    ];
    // The other families, each with its own knobs.
    use attention_workbench::config::{ModelFamily, RnnAttention, RnnCell};
    let mut variants = variants;
    // BERT's and GPT-2's knobs: token types, a LayerNorm on the embeddings, BERT's
    // head transform, and an output layer tied to the token embeddings.
    variants.push(Box::new(|m| {
        m.token_types = 2;
        m.embedding_norm = true;
        m.head_transform = true;
        m.tied_embeddings = true;
    }));
    variants.push(Box::new(|m| m.tied_embeddings = true));
    // A convolution layer beside an attention layer: its kernel is one number per head and offset.
    variants.push(Box::new(|m| {
        m.layers[0].attention_kind = attention_workbench::config::AttentionKind::Convolution;
        m.layers[0].window = 3;
    }));
    // Rotary and ALiBi add no parameters.
    variants.push(Box::new(|m| m.positional = PositionalEncoding::Rotary));
    variants.push(Box::new(|m| m.positional = PositionalEncoding::Alibi));
    variants.push(Box::new(|m| m.switch_family(ModelFamily::EncoderDecoder)));
    variants.push(Box::new(|m| {
        m.switch_family(ModelFamily::EncoderDecoder);
        m.encoder_layers[0].norm = NormPlacement::Pre;
        m.layers[1].cross_attention = false;
    }));
    for (cell, attention) in [(RnnCell::Gru, RnnAttention::None), (RnnCell::Gru, RnnAttention::Additive), (RnnCell::Lstm, RnnAttention::Dot)] {
        variants.push(Box::new(move |m| {
            m.switch_family(ModelFamily::Rnn);
            (m.rnn_cell, m.rnn_attention) = (cell, attention);
        }));
    }
    for edit in variants {
        let (model, _) = model_with(|m| edit(m));
        let from_model: Vec<(String, Vec<usize>)> = param_shapes(&model).into_iter().map(|p| (p.path, p.shape)).collect();
        let mut config = preset("lesson").unwrap().model;
        edit(&mut config);
        assert_eq!(param_layout(&config, VOCAB), from_model, "{:?}", config.family);
        // The count the editor shows is burn's own count of the built model.
        assert_eq!(attention_workbench::config::parameter_count(&config, VOCAB), burn::module::Module::num_params(&model));
    }
}

#[test]
fn an_ablated_head_keeps_its_map_but_stops_changing_the_output() {
    let (full, device) = model_with(|_| {});
    let (ablated, _) = model_with(|m| m.layers[0].ablated_heads = vec![0, 1, 2, 3]);
    let (batch, seq) = (2, 9);
    let tokens = random_tokens(batch, seq, 3);
    // Same weights (same seed): layer 0's maps are identical, ablated or not (layer
    // 1's differ, since it reads layer 0's changed output).
    let maps = |model: &Transformer| attention(model, &device, tokens.clone(), batch, seq, None).remove(0);
    assert!(maps(&full) == maps(&ablated), "an ablated head still computes and shows its map");
    let logits = |model: &Transformer, tokens: Vec<i64>| {
        values(model.forward(tokens_tensor(tokens, batch, seq, &device), None, Capture::default(), &mut Dropout::off()).logits)
    };
    assert!(logits(&full, tokens.clone()) != logits(&ablated, tokens.clone()), "zeroing heads changes the output");
    // With every head zeroed in every layer nothing moves between positions: changing
    // token 0 changes position 0's output and no other.
    let (silent, _) = model_with(|m| m.layers.iter_mut().for_each(|l| l.ablated_heads = (0..l.heads).collect()));
    let mut changed = tokens.clone();
    changed[0] = (changed[0] + 1) % VOCAB as i64;
    let (before, after) = (logits(&silent, tokens), logits(&silent, changed));
    let per_row = VOCAB;
    assert!(before[..per_row] != after[..per_row], "position 0 itself changes");
    assert!(before[per_row..seq * per_row] == after[per_row..seq * per_row], "no other position of that sequence hears it");
}

#[test]
fn ablating_a_head_the_layer_lacks_is_a_problem_naming_the_knob() {
    let mut config = preset("lesson").unwrap();
    config.model.layers[1].ablated_heads = vec![7];
    let problems = attention_workbench::config::validate(&config);
    assert!(problems.iter().any(|p| p.knob == "model.layers[1].ablated_heads" && p.message.contains("head 7")), "{problems:?}");
}

//! The speed changes keep the numbers: each faster formulation is compared with the
//! composed one it replaces (forward values and gradients), and a seed's curve is
//! bit-identical whatever the thread count.

use std::process::Command;

use attention_workbench::cli::torch_compare::reference_args;
use attention_workbench::config::{NormPlacement, preset};
use attention_workbench::model::rows::linear_rows;
use attention_workbench::tasks::Rng;
use burn::nn::LinearConfig;
use burn::tensor::activation::softmax;
use burn::tensor::{Bool, Device, Tensor, TensorData};

fn random(shape: [usize; 3], seed: u64, device: &Device) -> Tensor<3> {
    let mut rng = Rng::new(seed);
    let n = shape.iter().product();
    let values: Vec<f32> = (0..n).map(|_| rng.below(2001) as f32 / 1000.0 - 1.0).collect();
    Tensor::from_data(TensorData::new(values, shape), device)
}

fn values<const D: usize>(t: Tensor<D>) -> Vec<f32> {
    t.into_data().convert::<f32>().try_into_vec::<f32>().unwrap()
}

fn max_diff(a: &[f32], b: &[f32]) -> f32 {
    assert_eq!(a.len(), b.len());
    a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0, f32::max)
}

#[test]
fn a_linear_over_folded_rows_matches_the_batched_linear_in_values_and_gradients() {
    let device = Device::flex().autodiff();
    let layer = LinearConfig::new(24, 40).init(&device);
    // 33 rows per sample: not a multiple of the gemm tile, the case the fold is for.
    let x = random([5, 33, 24], 1, &device).require_grad();
    let upstream = random([5, 33, 40], 2, &device);

    let run = |fold: bool| {
        let x = x.clone();
        let out = if fold { linear_rows(&layer, x.clone()) } else { layer.forward(x.clone()) }; // [5, 33, 40]
        let grads = (out.clone() * upstream.clone()).sum().backward();
        let dx = values(x.grad(&grads).unwrap());
        let dw = values(layer.weight.val().grad(&grads).unwrap());
        let db = values(layer.bias.as_ref().unwrap().val().grad(&grads).unwrap());
        (values(out), dx, dw, db)
    };
    let (folded, composed) = (run(true), run(false));
    assert!(max_diff(&folded.0, &composed.0) < 1e-5, "forward differs");
    assert!(max_diff(&folded.1, &composed.1) < 1e-5, "input gradient differs");
    assert!(max_diff(&folded.2, &composed.2) < 1e-4, "weight gradient differs");
    assert!(max_diff(&folded.3, &composed.3) < 1e-4, "bias gradient differs");
    assert!(folded.2.iter().any(|g| *g != 0.0), "the weight received a gradient");
}

#[test]
fn filling_blocked_scores_with_minus_infinity_gives_the_same_weights_and_gradients_as_minus_1e9() {
    let device = Device::flex().autodiff();
    let (batch, seq) = (3, 9);
    let scores = random([batch, seq, seq], 3, &device).mul_scalar(4.0).require_grad();
    let upstream = random([batch, seq, seq], 4, &device);
    // Causal: every row keeps at least its own position.
    let blocked: Vec<bool> = (0..batch * seq * seq).map(|i| (i % seq) > (i / seq) % seq).collect();
    let blocked = Tensor::<3, Bool>::from_data(TensorData::new(blocked, [batch, seq, seq]), &device);

    let run = |fill: f32| {
        let weights = softmax(scores.clone().mask_fill(blocked.clone(), fill), 2); // [batch, seq, seq]
        let grads = (weights.clone() * upstream.clone()).sum().backward();
        (values(weights), values(scores.grad(&grads).unwrap()))
    };
    let (neg_inf, large) = (run(f32::NEG_INFINITY), run(-1.0e9));
    assert_eq!(neg_inf.0, large.0, "weights are bit-identical");
    assert_eq!(neg_inf.1, large.1, "gradients are bit-identical");
    assert!(neg_inf.0.iter().all(|w| w.is_finite()));
}

#[test]
fn a_seed_trains_to_bit_identical_losses_with_one_thread_or_two() {
    let losses = |threads: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_attention-workbench")).env("LC_ALL", "C.UTF-8")
            .args(["train", "--task", "reverse", "--steps", "12", "--seed", "5", "--json", "--threads", threads])
            .env("AW_DISABLE_GPU", "1")
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let losses: Vec<String> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .filter(|v| v["event"] == "step")
            .map(|v| v["loss"].to_string())
            .collect();
        assert_eq!(losses.len(), 12);
        losses
    };
    assert_eq!(losses("1"), losses("2"));
}

#[test]
fn the_torch_reference_gets_the_presets_shapes_and_refuses_what_it_does_not_model() {
    let args = |name: &str| reference_args(&preset(name).unwrap().model).unwrap().join(" ");
    assert_eq!(args("lesson"), "--d-model=64 --heads=4 --d-ff=256 --layers=2");
    assert_eq!(args("large"), "--d-model=128 --heads=8 --d-ff=512 --layers=4");
    let mut pre_ln = preset("lesson").unwrap().model;
    pre_ln.layers[1].norm = NormPlacement::Pre;
    let why = reference_args(&pre_ln).unwrap_err();
    assert!(why.contains("post-LN"), "{why}");
}

#[test]
fn compare_torch_without_a_torch_python_says_how_to_get_one() {
    let empty = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_attention-workbench")).env("LC_ALL", "C.UTF-8")
        .args(["bench", "--compare-torch", "--preset", "lesson"])
        .env("AW_TORCH_PYTHON", empty.path().join("no-python"))
        .env("HOME", empty.path())
        .env("PATH", empty.path())
        .env("AW_DISABLE_GPU", "1")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("pip install torch"), "{stderr}");
    assert!(out.stdout.is_empty(), "no table without a reference");
}

#[test]
fn a_batch_in_chunks_gives_the_loss_and_gradients_of_the_whole_batch() {
    use attention_workbench::tasks::{Split, TaskConfig, TaskKind};
    use attention_workbench::training::chunks::forward_backward;
    use burn::module::{Module, ModuleVisitor, Param};
    use burn::optim::GradientsParams;

    struct Collect<'a>(&'a GradientsParams, Vec<Vec<f32>>);
    impl ModuleVisitor for Collect<'_> {
        fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
            if let Some(grad) = self.0.get::<D>(param.id) {
                self.1.push(values(grad));
            }
        }
    }
    let mut config = preset("lesson").unwrap();
    config.task = TaskConfig::for_kind(TaskKind::Reverse);
    let task = config.task.build().unwrap();
    let device = Device::flex().autodiff();
    let model = attention_workbench::model::Transformer::new(&config.model, config.model_vocab_size(task.vocab().len()), 0, &device);
    let batch = task.batch(&mut Rng::new(9), Split::Train, 70); // two full chunks and a short one
    let run = |rows: usize| {
        let out = forward_backward(&model, &batch, &device, rows, (0, 0), 0.0);
        let mut collect = Collect(&out.grads, Vec::new());
        model.visit(&mut collect);
        (values(out.loss)[0], values(out.correct)[0], collect.1)
    };
    let (whole, chunked) = (run(70), run(32));
    assert!((whole.0 - chunked.0).abs() < 1e-5, "loss {} vs {}", whole.0, chunked.0);
    assert_eq!(whole.1, chunked.1, "hits");
    assert_eq!(whole.2.len(), chunked.2.len(), "every parameter has a gradient both ways");
    for (a, b) in whole.2.iter().zip(&chunked.2) {
        assert!(max_diff(a, b) < 1e-4, "a gradient differs by {}", max_diff(a, b));
    }
    assert!(whole.2.iter().flatten().any(|g| *g != 0.0));
}

#[test]
fn the_models_weights_equal_the_minus_1e9_definition_with_and_without_an_empty_row() {
    use attention_workbench::config::MaskApplication;
    use attention_workbench::model::{Capture, Dropout, Transformer};
    use burn::tensor::Int;

    let device = Device::flex();
    for offset in [0, -1] {
        // offset -1 hides the diagonal too, so query 0 sees no key at all.
        let mut config = preset("lesson").unwrap().model;
        for layer in &mut config.layers {
            layer.mask_application = MaskApplication::FillLargeNegative;
            layer.diagonal_offset = offset;
        }
        let model = Transformer::new(&config, 11, 4, &device);
        let (batch, seq) = (3, 10);
        let mut rng = Rng::new(6);
        let tokens: Vec<i64> = (0..batch * seq).map(|_| rng.below(11) as i64).collect();
        let tokens = Tensor::<2, Int>::from_data(TensorData::new(tokens, [batch, seq]), &device);
        let capture = Capture { trace: Some((0, 1)), ..Capture::default() };
        let trace = model.forward(tokens, None, capture, &mut Dropout::off()).trace.expect("a trace");
        let mask = &trace.mask;
        let keep: Vec<f32> = (0..batch).flat_map(|_| mask.as_f32()).collect();
        let blocked = keep.iter().map(|k| *k == 0.0).collect::<Vec<_>>();
        let blocked = Tensor::<3, Bool>::from_data(TensorData::new(blocked, [batch, seq, seq]), &device);
        let keep = Tensor::<3>::from_data(TensorData::new(keep, [batch, seq, seq]), &device);
        let by_definition = softmax(trace.scaled_scores.clone().mask_fill(blocked, -1.0e9), 2) * keep; // [batch, seq, seq]
        let weights = values(trace.weights);
        assert_eq!(weights, values(by_definition), "offset {offset}");
        assert!(weights.iter().all(|w| w.is_finite()), "offset {offset}");
        let first_row_sum: f32 = weights[..seq].iter().sum();
        assert_eq!(first_row_sum > 0.5, offset == 0, "query 0's row with offset {offset}");
    }
}

#[test]
fn with_dropout_a_seed_trains_to_the_same_losses_on_one_thread_or_two() {
    use attention_workbench::training::{Session, StepOutcome};

    let losses = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        let mut config = preset("lesson").unwrap();
        config.model.dropout = 0.1;
        let mut session = Session::new(config).unwrap();
        pool.install(|| {
            (0..6)
                .map(|_| match session.step(false) {
                    StepOutcome::Done { metrics, .. } => metrics.loss,
                    StepOutcome::NonFinite { step, .. } => panic!("non-finite at step {step}"),
                })
                .collect::<Vec<f32>>()
        })
    };
    let one = losses(1);
    assert_eq!(one, losses(2));
    assert!(one.iter().all(|l| l.is_finite() && *l > 0.0));
}

/// The model with every parameter moved by a seeded amount in ±0.2: LayerNorm's γ
/// off 1 and β off 0 (their start), biases and embeddings off theirs, so a kernel
/// that drops one of them (`* g`, `+ b`) gives other numbers.
fn perturbed(model: attention_workbench::model::Transformer, seed: u64) -> attention_workbench::model::Transformer {
    use burn::module::{Module, ModuleMapper, Param};
    struct Perturb(Rng);
    impl ModuleMapper for Perturb {
        fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
            let (id, value, mapper) = param.consume();
            let (shape, device) = (value.shape(), value.device());
            let moved: Vec<f32> = values(value).into_iter().map(|v| v + self.0.uniform(-0.2, 0.2) as f32).collect();
            // A new leaf (not a sum of tracked tensors), tracked like any parameter.
            let moved = Tensor::<D>::from_data(TensorData::new(moved, shape), &device).require_grad();
            Param::from_mapped_value(id, moved, mapper)
        }
    }
    model.map(&mut Perturb(Rng::new(seed)))
}

fn l2(v: &[f32]) -> f64 {
    v.iter().map(|x| (*x as f64) * (*x as f64)).sum::<f64>().sqrt()
}

/// How far `b` lies from `a`, relative to the larger of the two (L2 norms of the
/// whole tensor).
fn relative_gap(a: &[f32], b: &[f32]) -> f64 {
    assert_eq!(a.len(), b.len());
    let gap: Vec<f32> = a.iter().zip(b).map(|(x, y)| x - y).collect();
    l2(&gap) / l2(a).max(l2(b)).max(f64::MIN_POSITIVE)
}

/// Every parameter's gradient by id (None where the step gives it none: a uniform
/// layer's Q and K), for comparing two ways of computing a step.
fn gradients_by_param(model: &attention_workbench::model::Transformer, grads: &burn::optim::GradientsParams) -> Vec<(String, Option<Vec<f32>>)> {
    use burn::module::{Module, ModuleVisitor, Param};
    struct Collect<'a>(&'a burn::optim::GradientsParams, Vec<String>, Vec<(String, Option<Vec<f32>>)>);
    impl ModuleVisitor for Collect<'_> {
        fn enter_module(&mut self, name: &str, _: &str) {
            self.1.push(name.to_string());
        }
        fn exit_module(&mut self, _: &str, _: &str) {
            self.1.pop();
        }
        fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
            let path = self.1.join(".");
            self.2.push((path, self.0.get::<D>(param.id).map(values)));
        }
    }
    let mut collect = Collect(grads, Vec::new(), Vec::new());
    model.visit(&mut collect);
    collect.2
}

#[test]
fn the_fused_cpu_step_gives_the_composed_models_loss_and_every_gradient_for_every_knob_it_accepts() {
    use attention_workbench::config::{Activation, AttentionKind, ExperimentConfig, MaskApplication, MaskKind, MaskReading, PaddingMask, PositionalEncoding};
    use attention_workbench::model::Transformer;
    use attention_workbench::tasks::{Split, TaskConfig, TaskKind};
    use attention_workbench::training::chunks::forward_backward;
    use attention_workbench::training::fused;

    type Edit = fn(&mut ExperimentConfig);
    let variants: Vec<(&str, Edit)> = vec![
        ("lesson preset: post-LN, GELU, learned positions, causal", |_| {}),
        ("pre-LN with a final LayerNorm, ReLU", |c| {
            for l in &mut c.model.layers {
                l.norm = NormPlacement::Pre;
                l.activation = Activation::Relu;
            }
        }),
        ("pre-LN, GELU by its tanh approximation (GPT-2's)", |c| {
            for l in &mut c.model.layers {
                l.norm = NormPlacement::Pre;
                l.activation = Activation::GeluTanh;
            }
        }),
        ("post-LN with BERT's LayerNorm ε = 1e-12", |c| {
            c.model.layer_norm_eps = 1e-12;
        }),
        ("pre-LN with a LayerNorm ε of 0.5 (far from the default)", |c| {
            for l in &mut c.model.layers {
                l.norm = NormPlacement::Pre;
            }
            c.model.layer_norm_eps = 0.5;
        }),
        ("no LayerNorm, no residual, no activation, no scaling", |c| {
            for l in &mut c.model.layers {
                l.norm = NormPlacement::None;
                l.residual = false;
                l.activation = Activation::None;
                l.scale = false;
            }
            c.model.init_scale = 0.5;
        }),
        ("sinusoidal positions, sliding window, -inf added, an ablated head", |c| {
            c.model.positional = PositionalEncoding::Sinusoidal;
            c.model.layers[0].mask = MaskKind::SlidingWindow;
            c.model.layers[0].window = 3;
            c.model.layers[1].mask_application = MaskApplication::AddNegInfinity;
            c.model.layers[1].ablated_heads = vec![1];
        }),
        ("no positions, bidirectional, mask after the softmax", |c| {
            c.model.positional = PositionalEncoding::None;
            c.model.layers[0].mask = MaskKind::Bidirectional;
            c.model.layers[1].mask_application = MaskApplication::MultiplyAfterSoftmax;
        }),
        ("a diagonal hidden from itself (query 0 sees nothing), a layer without FFN, one without attention", |c| {
            c.model.layers[0].diagonal_offset = -1;
            c.model.layers[0].ffn = false;
            c.model.layers[1].attention = false;
        }),
        ("no attention anywhere (every layer works position by position)", |c| {
            for l in &mut c.model.layers {
                l.attention = false;
            }
        }),
        ("a character model: every position is scored", |c| {
            c.task = TaskConfig::for_kind(TaskKind::CharLm);
            c.model.layers[1].norm = NormPlacement::Pre;
        }),
        ("padded brackets, padding hidden on the wrong axis in one layer", |c| {
            c.task = TaskConfig::for_kind(TaskKind::Brackets);
            c.model.layers[0].padding_mask = PaddingMask::Queries;
        }),
        ("padded brackets, padding on the wrong axis in the last layer (scored queries with no key), -inf added", |c| {
            c.task = TaskConfig::for_kind(TaskKind::Brackets);
            c.model.layers[1].padding_mask = PaddingMask::Queries;
            c.model.layers[1].mask_application = MaskApplication::AddNegInfinity;
        }),
        ("three layers, d_k = 12 (36 wide, 3 heads), inverted mask reading and one token ahead in the last", |c| {
            c.model.d_model = 36;
            c.model.layers.push(c.model.layers[0].clone());
            for l in &mut c.model.layers {
                l.heads = 3;
            }
            c.model.layers[2].mask_reading = MaskReading::MaskedIsTrue;
            c.model.layers[1].diagonal_offset = 1;
        }),
        ("d_k = 8 (8 heads), sequences shorter than a block (modular addition), mask after the softmax", |c| {
            c.task = TaskConfig::for_kind(TaskKind::ModAdd);
            for l in &mut c.model.layers {
                l.heads = 8;
                l.mask_application = MaskApplication::MultiplyAfterSoftmax;
            }
        }),
        // Accepted configurations no variant above compared (issue 22's list).
        ("padded brackets: sliding window with a diagonal offset, padding mask off in the other layer", |c| {
            c.task = TaskConfig::for_kind(TaskKind::Brackets);
            c.model.layers[0].mask = MaskKind::SlidingWindow;
            c.model.layers[0].window = 4;
            c.model.layers[0].diagonal_offset = 1;
            c.model.layers[1].padding_mask = PaddingMask::Off;
        }),
        ("padded brackets: inverted mask reading, sinusoidal positions", |c| {
            c.task = TaskConfig::for_kind(TaskKind::Brackets);
            c.model.positional = PositionalEncoding::Sinusoidal;
            c.model.layers[1].mask_reading = MaskReading::MaskedIsTrue;
        }),
        ("padded brackets: mask after the softmax with an empty first row", |c| {
            c.task = TaskConfig::for_kind(TaskKind::Brackets);
            for l in &mut c.model.layers {
                l.mask_application = MaskApplication::MultiplyAfterSoftmax;
            }
            c.model.layers[0].diagonal_offset = -1;
        }),
        ("pre-LN without the residual, then post-LN without the residual", |c| {
            c.model.layers[0].norm = NormPlacement::Pre;
            c.model.layers[0].residual = false;
            c.model.layers[1].norm = NormPlacement::Post;
            c.model.layers[1].residual = false;
        }),
        ("pre-LN with no attention layer", |c| {
            for l in &mut c.model.layers {
                l.norm = NormPlacement::Pre;
                l.attention = false;
            }
        }),
        ("a layer with neither attention nor FFN", |c| {
            c.model.layers[1].attention = false;
            c.model.layers[1].ffn = false;
        }),
        ("d_k = 32 (64 wide, 2 heads) and d_k = 64 (one head)", |c| {
            c.model.d_model = 64;
            c.model.layers[0].heads = 2;
            c.model.layers[1].heads = 1;
        }),
        ("rotary positions, causal, a sliding window in one layer", |c| {
            c.model.positional = PositionalEncoding::Rotary;
            c.model.layers[1].mask = MaskKind::SlidingWindow;
            c.model.layers[1].window = 3;
        }),
        ("rotary positions, a character model (every position scored), d_k = 12", |c| {
            c.task = TaskConfig::for_kind(TaskKind::CharLm);
            c.model.positional = PositionalEncoding::Rotary;
            c.model.d_model = 36;
            for l in &mut c.model.layers {
                l.heads = 3;
            }
        }),
        ("rotary positions, bidirectional, mask after the softmax, an ablated head", |c| {
            c.model.positional = PositionalEncoding::Rotary;
            c.model.layers[0].mask = MaskKind::Bidirectional;
            c.model.layers[1].mask_application = MaskApplication::MultiplyAfterSoftmax;
            c.model.layers[1].ablated_heads = vec![0];
        }),
        ("ALiBi, causal, pre-LN, 8 heads in one layer", |c| {
            c.model.positional = PositionalEncoding::Alibi;
            c.model.layers[0].heads = 8;
            for l in &mut c.model.layers {
                l.norm = NormPlacement::Pre;
            }
        }),
        ("ALiBi, bidirectional, mask after the softmax, a character model", |c| {
            c.task = TaskConfig::for_kind(TaskKind::CharLm);
            c.model.positional = PositionalEncoding::Alibi;
            c.model.layers[0].mask = MaskKind::Bidirectional;
            c.model.layers[1].mask_application = MaskApplication::MultiplyAfterSoftmax;
        }),
        ("ALiBi, padded brackets, -inf added", |c| {
            c.task = TaskConfig::for_kind(TaskKind::Brackets);
            c.model.positional = PositionalEncoding::Alibi;
            c.model.layers[1].mask_application = MaskApplication::AddNegInfinity;
        }),
        ("odd d_k = 7 (35 wide, 5 heads), GELU off in one layer", |c| {
            c.model.d_model = 35;
            for l in &mut c.model.layers {
                l.heads = 5;
            }
            c.model.layers[1].activation = Activation::None;
        }),
    ];
    // A chunk with no scored position: the middle chunk of 32 rows is scored nowhere.
    let unscored_chunk: fn(&mut attention_workbench::tasks::Batch) = |b| {
        let row = b.seq_len;
        b.loss_weights[32 * row..64 * row].fill(0.0);
    };
    let keep: fn(&mut attention_workbench::tasks::Batch) = |_| {};
    // Dropout and uniform-average attention (issue 26): the masks come from the same
    // seeded streams on both paths, so the same elements are dropped.
    let more: Vec<(&str, Edit)> = vec![
        ("rnn: GRU encoder–decoder without attention (the fixed vector), translate (padded)", |c| *c = preset("rnn").unwrap()),
        ("rnn: GRU with dot-product attention, dropout 0.1 on the embedding", |c| {
            *c = preset("rnn").unwrap();
            c.model.rnn_attention = attention_workbench::config::RnnAttention::Dot;
            c.model.dropout = 0.1;
        }),
        ("rnn: GRU with additive (Bahdanau) attention, translate (padded)", |c| {
            *c = preset("rnn").unwrap();
            c.model.rnn_attention = attention_workbench::config::RnnAttention::Additive;
        }),
        ("rnn: GRU with dot-product attention on 12-symbol reversals (no padding)", |c| {
            *c = preset("rnn").unwrap();
            c.task = TaskConfig::for_kind(TaskKind::Reverse);
            c.task.length = 12;
            c.model.rnn_attention = attention_workbench::config::RnnAttention::Dot;
        }),
        ("dropout 0.1 on the lesson preset", |c| c.model.dropout = 0.1),
        ("dropout 0.3, pre-LN, a character model (every position scored)", |c| {
            c.task = TaskConfig::for_kind(TaskKind::CharLm);
            c.model.dropout = 0.3;
            for l in &mut c.model.layers {
                l.norm = NormPlacement::Pre;
            }
        }),
        ("dropout 0.2, no attention anywhere (rows gathered before the layers)", |c| {
            c.model.dropout = 0.2;
            for l in &mut c.model.layers {
                l.attention = false;
            }
        }),
        ("dropout 0.1, no FFN in the last layer, no residual in the first", |c| {
            c.model.dropout = 0.1;
            c.model.layers[1].ffn = false;
            c.model.layers[0].residual = false;
        }),
        ("uniform-average attention in the first layer, softmax in the second", |c| {
            c.model.layers[0].attention_kind = AttentionKind::UniformAverage;
        }),
        ("uniform-average attention in the last layer (only scored queries), rotary positions", |c| {
            c.model.positional = PositionalEncoding::Rotary;
            c.model.layers[1].attention_kind = AttentionKind::UniformAverage;
        }),
        ("uniform-average everywhere, padded brackets, an ablated head, ALiBi, mask after the softmax", |c| {
            c.task = TaskConfig::for_kind(TaskKind::Brackets);
            c.model.positional = PositionalEncoding::Alibi;
            for l in &mut c.model.layers {
                l.attention_kind = AttentionKind::UniformAverage;
                l.mask_application = MaskApplication::MultiplyAfterSoftmax;
            }
            c.model.layers[0].ablated_heads = vec![2];
            c.model.layers[1].diagonal_offset = -1;
        }),
        ("uniform-average, key-value lookup (lesson 01's other side), dropout 0.1", |c| {
            c.task = TaskConfig::for_kind(TaskKind::Lookup);
            c.model.dropout = 0.1;
            for l in &mut c.model.layers {
                l.attention_kind = AttentionKind::UniformAverage;
            }
        }),
        // The convolution kind (lesson 24).
        ("a convolution over 4 taps in the first layer, softmax in the second", |c| {
            c.model.layers[0].attention_kind = AttentionKind::Convolution;
            c.model.layers[0].window = 4;
        }),
        ("convolutions everywhere, padded brackets, bidirectional in one layer, an ablated head, dropout 0.1", |c| {
            c.task = TaskConfig::for_kind(TaskKind::Brackets);
            c.model.dropout = 0.1;
            for l in &mut c.model.layers {
                l.attention_kind = AttentionKind::Convolution;
                l.window = 3;
            }
            c.model.layers[0].mask = MaskKind::Bidirectional;
            c.model.layers[1].ablated_heads = vec![0];
        }),
        ("a one-tap convolution in the last layer, a character model, mask after the softmax", |c| {
            c.task = TaskConfig::for_kind(TaskKind::CharLm);
            c.model.layers[1].attention_kind = AttentionKind::Convolution;
            c.model.layers[1].window = 1;
            c.model.layers[1].mask_application = MaskApplication::MultiplyAfterSoftmax;
        }),
        ("an encoder–decoder whose decoder layer is a convolution (its cross-attention stays softmax)", |c| {
            *c = preset("encoder_decoder").unwrap();
            c.model.layers[0].attention_kind = AttentionKind::Convolution;
            c.model.layers[0].window = 2;
        }),
        ("a convolution as the encoder of an encoder–decoder", |c| {
            *c = preset("encoder_decoder").unwrap();
            c.model.encoder_layers[0].attention_kind = AttentionKind::Convolution;
            c.model.encoder_layers[0].window = 3;
        }),
        // The encoder–decoder family (lessons 19 and 20).
        ("encoder–decoder preset on translate: bidirectional encoder, cross-attention, post-LN", |c| {
            *c = preset("encoder_decoder").unwrap();
        }),
        ("encoder–decoder, pre-LN (the encoder's norm and the final norm), two decoder layers, dropout 0.1", |c| {
            *c = preset("encoder_decoder").unwrap();
            c.model.layers.push(c.model.layers[0].clone());
            for l in c.model.layers.iter_mut().chain(&mut c.model.encoder_layers) {
                l.norm = NormPlacement::Pre;
            }
            c.model.dropout = 0.1;
        }),
        ("encoder–decoder, uniform-average attention in the decoder (lesson 19's other side)", |c| {
            *c = preset("encoder_decoder").unwrap();
            c.model.layers[0].attention_kind = AttentionKind::UniformAverage;
        }),
        ("encoder–decoder without cross-attention (nothing reads the encoder, whose dropout masks are still drawn), sinusoidal positions, dropout 0.1", |c| {
            *c = preset("encoder_decoder").unwrap();
            c.model.dropout = 0.1;
            c.model.positional = PositionalEncoding::Sinusoidal;
            c.model.layers[0].cross_attention = false;
        }),
        ("encoder–decoder, rotary positions, two encoder layers, no FFN in the decoder, an ablated cross head", |c| {
            *c = preset("encoder_decoder").unwrap();
            c.model.positional = PositionalEncoding::Rotary;
            c.model.encoder_layers.push(c.model.encoder_layers[0].clone());
            c.model.layers[0].ffn = false;
            c.model.layers[0].ablated_heads = vec![1];
        }),
        // From the decoder's last self-attention layer on only the scored rows are
        // computed: a layer after it with cross-attention alone, and a decoder with
        // no self-attention (every row computed, the scored ones kept at the end).
        ("encoder–decoder, a second decoder layer with cross-attention but no self-attention, dropout 0.1", |c| {
            *c = preset("encoder_decoder").unwrap();
            c.model.layers.push(c.model.layers[0].clone());
            c.model.layers[1].attention = false;
            c.model.dropout = 0.1;
        }),
        ("encoder–decoder whose decoder has no self-attention (cross-attention only)", |c| {
            *c = preset("encoder_decoder").unwrap();
            c.model.layers[0].attention = false;
        }),
    ];
    let variants = variants.into_iter().chain(more).map(|(name, edit)| (name, edit, keep)).chain([("the lesson preset with a chunk of rows scored nowhere", (|_| {}) as Edit, unscored_chunk)]);
    let device = Device::flex().autodiff();
    for (name, edit, edit_batch) in variants {
        let mut config = preset("lesson").unwrap();
        config.task = TaskConfig::for_kind(TaskKind::Reverse);
        edit(&mut config);
        let backend = attention_workbench::training::backend::resolve(config.backend);
        assert_eq!(fused::support(&config, backend.kind), Ok(()), "{name}");
        let task = config.task.build().unwrap();
        let model = perturbed(Transformer::new(&config.model, config.model_vocab_size(task.vocab().len()), 3, &device).with_source_len(task.source_len()), 17);
        // Two full chunks and a short one of 20 rows: passes of 8 rows, and a short last pass of 4.
        let mut batch = task.batch(&mut Rng::new(11), Split::Train, 84);
        edit_batch(&mut batch);
        let p = config.model.dropout;
        let composed = forward_backward(&model, &batch, &device, 32, (7, 3), p);
        let fast = fused::forward_backward(&model, &batch, &device.clone().inner(), 32, (7, 3), p, &mut fused::FusedArena::default());
        let (loss_c, loss_f) = (values(composed.loss)[0], values(fast.loss)[0]);
        assert!(loss_c.is_finite() && (loss_c - loss_f).abs() < 1e-4, "{name}: loss {loss_c} vs {loss_f}");
        assert_eq!(values(composed.correct), values(fast.correct), "{name}: hits");
        let (gc, gf) = (gradients_by_param(&model, &composed.grads), gradients_by_param(&model, &fast.grads));
        let mut nonzero = 0;
        // A gradient that is zero in exact arithmetic (a key's bias: the softmax does
        // not see a shift every score of a row shares) is rounding noise both ways,
        // and compared as that: both below a millionth of the largest gradient.
        let gc: Vec<(String, Vec<f32>)> = gc
            .into_iter()
            .zip(&gf)
            .filter_map(|((path, a), (_, b))| {
                assert_eq!(a.is_some(), b.is_some(), "{name}: {path} has a gradient on one path only");
                a.map(|a| (path, a))
            })
            .collect();
        let gf: Vec<Vec<f32>> = gf.into_iter().filter_map(|(_, b)| b).collect();
        let largest = gc.iter().map(|(_, g)| l2(g)).fold(0.0, f64::max);
        for ((path, a), b) in gc.iter().zip(&gf) {
            assert_eq!(a.len(), b.len(), "{name}: {path} has a gradient both ways");
            let noise = 1e-6 * largest;
            if l2(a) < noise && l2(b) < noise {
                continue;
            }
            // Per tensor and relative to its own size, however small the gradient is
            // (measured: at most 1.2e-6 on an AMD Zen 5, the worst a Q or K weight).
            let gap = relative_gap(a, b);
            assert!(gap < 2e-5, "{name}: {path} differs by {gap:.1e} of its size (composed {:.2e}, fused {:.2e})", l2(a), l2(b));
            nonzero += a.iter().any(|v| *v != 0.0) as usize;
        }
        assert!(nonzero * 2 > gc.len(), "{name}: most parameters get a gradient ({nonzero} of {})", gc.len());
    }
}

#[test]
fn the_fused_step_says_which_knobs_send_a_run_to_the_composed_path() {
    use attention_workbench::config::{AttentionKind, BackendChoice};
    use attention_workbench::training::fused::support;

    let config = preset("lesson").unwrap();
    assert_eq!(support(&config, BackendChoice::Flex), Ok(()));
    assert!(support(&config, BackendChoice::Ndarray).unwrap_err().contains("ndarray"));
    assert!(support(&config, BackendChoice::Gpu).unwrap_err().contains("gpu"));
    // Dropout, uniform-average attention and the convolution run fused (issue 26).
    let mut dropout = config.clone();
    dropout.model.dropout = 0.1;
    assert_eq!(support(&dropout, BackendChoice::Flex), Ok(()));
    let mut uniform = config.clone();
    uniform.model.layers[1].attention_kind = AttentionKind::UniformAverage;
    assert_eq!(support(&uniform, BackendChoice::Flex), Ok(()));
    // Lesson 16 fine-tunes the shipped pretrained model, which keeps its dropout.
    let pretrained: attention_workbench::config::ExperimentConfig =
        serde_json::from_str(&std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/pretrained/english/config.json")).unwrap()).unwrap();
    assert!(pretrained.model.dropout > 0.0);
    assert_eq!(support(&pretrained, BackendChoice::Flex), Ok(()));
    let mut encoder_decoder = preset("encoder_decoder").unwrap();
    assert_eq!(support(&encoder_decoder, BackendChoice::Flex), Ok(()));
    encoder_decoder.model.encoder_layers[0].attention_kind = AttentionKind::Convolution;
    assert_eq!(support(&encoder_decoder, BackendChoice::Flex), Ok(()));
    // The GRU runs fused (its encoder–decoder in fused/recurrent.rs); the LSTM does not.
    let mut rnn = preset("rnn").unwrap();
    assert_eq!(support(&rnn, BackendChoice::Flex), Ok(()));
    rnn.model.rnn_cell = attention_workbench::config::RnnCell::Lstm;
    assert!(support(&rnn, BackendChoice::Flex).unwrap_err().contains("model.rnn_cell = lstm"));
    let mut convolution = config.clone();
    convolution.model.layers[1].attention_kind = AttentionKind::Convolution;
    assert_eq!(support(&convolution, BackendChoice::Flex), Ok(()));
}

/// The whole step on both paths (on the CPU the fused one hands its gradients to
/// the plain optimizer as they are; the composed one goes through burn): the same
/// losses, gradient norms, clipping and gradient report, before and after a
/// config change to AdamW (that the change starts AdamW without Adam's moments is
/// `session::tests::a_new_optimizer_kind_starts_with_no_moments`).
#[test]
fn a_session_trains_to_the_same_losses_on_the_fused_and_the_composed_path() {
    use attention_workbench::config::OptimizerKind;
    use attention_workbench::tasks::{TaskConfig, TaskKind};
    use attention_workbench::training::{GradientReport, Session, StepOutcome};

    // Per step: loss, gradient norm, and (every third step) the report's
    // per-group gradient norms and update ratios.
    let run = |composed: bool| {
        let mut config = preset("lesson").unwrap();
        config.task = TaskConfig::for_kind(TaskKind::Reverse);
        config.seed = 4;
        config.clip_grad_norm = Some(0.05);
        let mut session = Session::new(config.clone()).unwrap();
        if composed {
            session.force_composed();
        }
        let step = |session: &mut Session, i: usize| match session.step(i % 3 == 0) {
            StepOutcome::Done { metrics, gradients } => (metrics.loss, metrics.grad_norm, gradients.map(|r: GradientReport| r.groups.iter().map(|g| (g.grad_norm, g.update_ratio)).collect::<Vec<_>>())),
            StepOutcome::NonFinite { step, .. } => panic!("non-finite at step {step}"),
        };
        let mut out: Vec<_> = (0..6).map(|i| step(&mut session, i)).collect();
        // A config change keeps the path it was asked for, and the optimizer state.
        config.lr = 5e-4;
        session.apply_config(config.clone()).unwrap();
        assert_eq!(session.backend().info.composed_because.is_some(), composed);
        out.extend((6..8).map(|i| step(&mut session, i)));
        config.optimizer = OptimizerKind::AdamW;
        session.apply_config(config).unwrap();
        out.extend((8..10).map(|i| step(&mut session, i)));
        out
    };
    let (fused, composed) = (run(false), run(true));
    let close = |what: &str, step: usize, f: f32, c: f32| assert!((f - c).abs() <= 1e-3 * c.abs().max(1.0), "step {}: {what}: fused {f} vs composed {c}", step + 1);
    assert!(composed.iter().any(|(_, norm, _)| *norm > 0.05), "the clip at 0.05 acts on some step: {composed:?}");
    for (step, ((fl, fg, fr), (cl, cg, cr))) in fused.iter().zip(&composed).enumerate() {
        close("loss", step, *fl, *cl);
        close("gradient norm", step, *fg, *cg);
        assert_eq!(fr.is_some(), cr.is_some());
        if let (Some(fr), Some(cr)) = (fr, cr) {
            assert!(!fr.is_empty() && fr.len() == cr.len(), "{} groups fused, {} composed", fr.len(), cr.len());
            for ((fg, fu), (cg, cu)) in fr.iter().zip(cr) {
                close("a group's gradient norm", step, *fg, *cg);
                close("a group's update ratio", step, *fu, *cu);
            }
        }
    }
}

/// The fused step keeps its plain copy of the weights from one step to the next,
/// updated beside the burn model. Weights put in place another way (a run folder's,
/// through `restore`) are what the next step reads: its loss and gradient norm equal
/// those of a fresh session given the same weights, bit for bit.
#[test]
fn weights_put_in_place_are_what_the_next_fused_step_reads() {
    use attention_workbench::tasks::{TaskConfig, TaskKind};
    use attention_workbench::training::{Session, StepOutcome};

    let mut config = preset("lesson").unwrap();
    config.task = TaskConfig::for_kind(TaskKind::Reverse);
    let step = |session: &mut Session| match session.step(false) {
        StepOutcome::Done { metrics, .. } => (metrics.loss.to_bits(), metrics.grad_norm.to_bits()),
        StepOutcome::NonFinite { step, .. } => panic!("non-finite at step {step}"),
    };
    let trained = |seed: u64| {
        let mut session = Session::new(attention_workbench::config::ExperimentConfig { seed, ..config.clone() }).unwrap();
        assert!(session.backend().info.composed_because.is_none(), "the lesson preset trains on the fused step");
        for _ in 0..3 {
            step(&mut session);
        }
        session
    };
    let other = trained(9);
    let mut kept = trained(2); // its plain copy holds seed 2's weights
    let (weights, history) = (other.model().clone(), other.history().clone());
    kept.restore(weights.clone(), history.clone());
    // The same seed as `kept`: a step's batch comes from (seed, step).
    let mut fresh = Session::new(attention_workbench::config::ExperimentConfig { seed: 2, ..config.clone() }).unwrap();
    fresh.restore(weights, history);
    assert_eq!(step(&mut kept), step(&mut fresh), "the step after `restore` reads the restored weights");
}

#[test]
fn every_simd_tier_the_cpu_has_gives_the_portable_tiers_numbers() {
    use attention_workbench::config::{Activation, AttentionKind, ExperimentConfig};
    use attention_workbench::model::Transformer;
    use attention_workbench::tasks::{Split, TaskConfig, TaskKind};
    use attention_workbench::training::fused::{self, SimdTier, use_simd_tier};

    // AVX2 and AVX-512 run the crate's own matrix products (in the layers and in
    // the attention core), which fuse each multiply and add: within rounding of the
    // portable numbers, and the same bits as each other (every other loop gives
    // the same bits on every tier: Rust never fuses a multiply and an add on its
    // own).
    let tiers: Vec<SimdTier> = SimdTier::ALL.into_iter().filter(|t| *t <= SimdTier::detected()).collect();
    eprintln!("comparing {:?} with the portable tier", &tiers[1..]);
    type Edit = fn(&mut ExperimentConfig);
    let configs: Vec<(&str, Edit)> = vec![
        ("lesson preset, dropout 0.1", |c| c.model.dropout = 0.1),
        ("character model, pre-LN, GPT-2's GELU, d_k = 12", |c| {
            c.task = TaskConfig::for_kind(TaskKind::CharLm);
            c.model.d_model = 36;
            for l in &mut c.model.layers {
                l.heads = 3;
                l.norm = NormPlacement::Pre;
                l.activation = Activation::GeluTanh;
            }
        }),
        ("encoder–decoder, uniform attention in the decoder", |c| {
            *c = preset("encoder_decoder").unwrap();
            c.model.layers[0].attention_kind = AttentionKind::UniformAverage;
        }),
        // The GRU's gates, the additive alignment's tanh and the recurrent softmax
        // run through each tier's copy of the `squash` loops.
        ("GRU with additive attention, padded translations", |c| {
            *c = preset("rnn").unwrap();
            c.model.rnn_attention = attention_workbench::config::RnnAttention::Additive;
        }),
    ];
    let device = Device::flex().autodiff();
    for (name, edit) in configs {
        let mut config = preset("lesson").unwrap();
        config.task = TaskConfig::for_kind(TaskKind::Reverse);
        edit(&mut config);
        let task = config.task.build().unwrap();
        let model = perturbed(Transformer::new(&config.model, config.model_vocab_size(task.vocab().len()), 3, &device).with_source_len(task.source_len()), 5);
        let batch = task.batch(&mut Rng::new(2), Split::Train, 40);
        let run = |tier: SimdTier| {
            assert_eq!(use_simd_tier(tier), tier);
            let out = fused::forward_backward(&model, &batch, &device.clone().inner(), 32, (1, 2), config.model.dropout, &mut fused::FusedArena::default());
            let grads: Vec<Option<Vec<f32>>> = gradients_by_param(&model, &out.grads).into_iter().map(|(_, g)| g).collect();
            (values(out.loss), grads)
        };
        let portable = run(SimdTier::Portable);
        assert!(portable.0[0].is_finite(), "{name}");
        let mut avx2: Option<(Vec<f32>, Vec<Option<Vec<f32>>>)> = None;
        for &tier in &tiers[1..] {
            let other = run(tier);
            match &avx2 {
                Some(avx2) => {
                    assert_eq!(other.0, avx2.0, "{name}: loss on {tier:?} against AVX2's");
                    assert!(other.1 == avx2.1, "{name}: a gradient differs on {tier:?} from AVX2's");
                }
                None => avx2 = Some(other.clone()),
            }
            // Per tensor, the same numbers up to rounding.
            assert!((other.0[0] - portable.0[0]).abs() < 1e-5 * portable.0[0].abs(), "{name}: loss {} on {tier:?} vs {}", other.0[0], portable.0[0]);
            // A gradient that is zero in exact arithmetic (a key's bias) is rounding
            // noise on both tiers: both below a millionth of the largest gradient.
            let largest = portable.1.iter().flatten().map(|g| l2(g)).fold(0.0, f64::max);
            for (index, (a, b)) in portable.1.iter().zip(&other.1).enumerate() {
                let (a, b) = (a.as_ref().map(|a| &a[..]), b.as_ref().map(|b| &b[..]));
                assert_eq!(a.is_some(), b.is_some(), "{name}: parameter {index} on {tier:?}");
                if let (Some(a), Some(b)) = (a, b) {
                    let gap = relative_gap(a, b);
                    let noise = 1e-6 * largest;
                    assert!(gap < 1e-5 || (l2(a) < noise && l2(b) < noise), "{name}: parameter {index} differs by {gap:.1e} of its size on {tier:?} ({:.1e} and {:.1e}, the largest {largest:.1e})", l2(a), l2(b));
                }
            }
        }
    }
}

#[test]
fn the_held_out_evaluation_gives_the_composed_models_numbers_on_the_fused_path() {
    use attention_workbench::config::{AttentionKind, ExperimentConfig, PositionalEncoding, RnnAttention};
    use attention_workbench::tasks::{Split, TaskConfig, TaskKind};
    use attention_workbench::training::{EvalMetrics, Session, StepOutcome};

    type Edit = fn(&mut ExperimentConfig);
    let configs: Vec<(&str, Split, Edit)> = vec![
        ("the lesson preset on reverse (half the positions scored), two chunks of the held-out set", Split::Eval, |c| {
            c.task = TaskConfig::for_kind(TaskKind::Reverse);
            c.eval_size = 300;
        }),
        ("the character model at four times its training length, rotary, pre-LN, dropout 0.2 in training", Split::Eval, |c| {
            c.model.dropout = 0.2;
            c.task = TaskConfig::for_kind(TaskKind::CharLm);
            c.task.length = 16;
            c.task.eval_length = 64;
            c.model.max_len = 64;
            c.model.positional = PositionalEncoding::Rotary;
            for l in &mut c.model.layers {
                l.norm = NormPlacement::Pre;
            }
        }),
        ("ALiBi and a uniform-average layer on lookup, the validation half", Split::Validation, |c| {
            c.task = TaskConfig::for_kind(TaskKind::Lookup);
            c.model.positional = PositionalEncoding::Alibi;
            c.model.layers[0].attention_kind = AttentionKind::UniformAverage;
        }),
        ("the encoder–decoder on padded translations (by source length)", Split::Eval, |c| *c = preset("encoder_decoder").unwrap()),
        ("the encoder–decoder with a second decoder layer of cross-attention only, padded translations", Split::Eval, |c| {
            *c = preset("encoder_decoder").unwrap();
            c.model.layers.push(c.model.layers[0].clone());
            c.model.layers[1].attention = false;
        }),
        ("the GRU with additive attention on padded translations", Split::Eval, |c| {
            *c = preset("rnn").unwrap();
            c.model.rnn_attention = RnnAttention::Additive;
        }),
    ];
    let close = |what: &str, a: f32, b: f32, tolerance: f32| {
        assert!(a.is_finite() && b.is_finite() && (a - b).abs() <= tolerance * b.abs().max(1e-3), "{what}: fused {a} vs composed {b}");
    };
    let same = |name: &str, fused: &EvalMetrics, composed: &EvalMetrics| {
        close(&format!("{name}: loss"), fused.loss, composed.loss, 1e-5);
        // Predictions are argmaxes of logits equal to rounding: equal unless two
        // logits tie to within it.
        close(&format!("{name}: accuracy"), fused.accuracy, composed.accuracy, 1e-3);
        close(&format!("{name}: whole sequences"), fused.sequence_accuracy, composed.sequence_accuracy, 1e-3);
        assert_eq!(fused.by_length.len(), composed.by_length.len(), "{name}");
        for (f, c) in fused.by_length.iter().zip(&composed.by_length) {
            assert_eq!((f.shortest, f.longest, f.sentences), (c.shortest, c.longest, c.sentences), "{name}");
            if f.sentences > 0 {
                close(&format!("{name}: bucket {}–{}", f.shortest, f.longest), f.accuracy, c.accuracy, 1e-3);
            }
        }
    };
    for (name, split, edit) in configs {
        let mut config = preset("lesson").unwrap();
        config.seed = 5;
        edit(&mut config);
        let mut session = Session::new(config).unwrap();
        assert!(session.backend().info.composed_because.is_none(), "{name}: trains on the fused path");
        for _ in 0..30 {
            assert!(matches!(session.step(false), StepOutcome::Done { .. }), "{name}: trains");
        }
        let fused = session.evaluate_on(split);
        let fused_ablated = session.evaluate_with_head_ablated(0, 1);
        session.force_composed();
        let composed = session.evaluate_on(split);
        let composed_ablated = session.evaluate_with_head_ablated(0, 1);
        assert!(composed.accuracy > 0.0 && composed.accuracy < 1.0, "{name}: a model part-way, so that predictions matter ({})", composed.accuracy);
        same(name, &fused, &composed);
        // Head ablation is for decoder-only models (the encoder–decoder and the GRU
        // have no such head to zero: None on both paths).
        let decoder = session.config().model.family == attention_workbench::config::ModelFamily::Decoder;
        match (fused_ablated, composed_ablated) {
            (Some(f), Some(c)) => {
                assert!((f.loss - fused.loss).abs() > 1e-4, "{name}: the ablation changes the loss");
                same(&format!("{name}, head 1 ablated"), &f, &c)
            }
            (f, c) => assert!(!decoder && f.is_none() && c.is_none(), "{name}: ablated {} on the fused path, {} on the composed", f.is_some(), c.is_some()),
        }
    }
}

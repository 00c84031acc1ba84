//! The shipped lessons: well-formed, complete, and every claim true with three
//! seeds (the claims must be true, not lucky). One test per lesson so they run
//! in parallel.

use attention_workbench::lessons::{self, Lesson, Segment, verify_lesson};

fn lesson(id_prefix: &str) -> Lesson {
    lessons::builtin()
        .into_iter()
        .map(|l| l.unwrap_or_else(|e| panic!("{e}")))
        .find(|l| l.id.starts_with(id_prefix))
        .unwrap_or_else(|| panic!("lesson {id_prefix}"))
}

#[test]
fn every_shipped_lesson_is_complete() {
    let all = lessons::builtin();
    assert_eq!(all.len(), lessons::BUILTIN.len());
    assert!(all.len() >= 10);
    for loaded in all {
        let lesson = loaded.unwrap_or_else(|e| panic!("{e}"));
        assert!(lesson.tries().count() >= 2, "{}: at least two try blocks", lesson.id);
        assert!(lesson.checks().count() >= 1, "{}: at least one check", lesson.id);
        assert!(lesson.claims().count() >= 1, "{}: at least one claim", lesson.id);
        // The last words are a question for the learner (its answer block may follow).
        let Some(Segment::Markdown(last)) = lesson.body.iter().rev().find(|s| !matches!(s, Segment::Answer(_))) else {
            panic!("{}: should end with text", lesson.id)
        };
        assert!(last.trim_end().ends_with('?'), "{}: should end with a question for the learner", lesson.id);
        for block in lesson.tries() {
            block.apply_to(&lesson.start).unwrap_or_else(|e| panic!("{} line {}: {e}", lesson.id, block.line));
        }
    }
}

#[test]
fn a_broken_lesson_in_a_pack_names_file_and_line_and_the_rest_still_load() {
    let pack = tempfile::tempdir().unwrap();
    let good = pack.path().join("01-good");
    let bad = pack.path().join("02-bad");
    std::fs::create_dir_all(&good).unwrap();
    std::fs::create_dir_all(&bad).unwrap();
    std::fs::write(good.join("lesson.md"), lessons::BUILTIN[0].1).unwrap();
    let broken = lessons::BUILTIN[0].1.replace("steps = 600\n```", "steps = many\n```");
    std::fs::write(bad.join("lesson.md"), broken).unwrap();
    let loaded = lessons::load_path(pack.path()).unwrap();
    assert_eq!(loaded.len(), 2);
    assert!(loaded[0].is_ok());
    let err = loaded[1].as_ref().unwrap_err().to_string();
    assert!(err.contains("02-bad/lesson.md:") && err.contains("steps"), "{err}");
    assert!(lessons::load_path(&pack.path().join("nothing")).is_err());
}

fn verify(id_prefix: &str) {
    verify_with(id_prefix, &lessons::DEFAULT_SEEDS);
}

fn verify_with(id_prefix: &str, seeds: &[u64]) {
    let lesson = lesson(id_prefix);
    let reports = verify_lesson(&lesson, seeds);
    assert!(!reports.is_empty());
    for report in &reports {
        assert!(report.passed, "{} seed {}: {}\n{:#?}", report.lesson, report.seed, report.claim, report.conditions);
    }
}

/// Threads spinning until dropped: busy programs beside a test.
struct Busy {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl Busy {
    fn on(cores: usize) -> Self {
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let threads = (0..cores)
            .map(|_| {
                let stop = stop.clone();
                std::thread::spawn(move || {
                    let mut x = 1u64;
                    while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                        x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407));
                    }
                })
            })
            .collect();
        Self { stop, threads }
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}

/// The claims that read times (lesson 11's step times, lesson 12's writing times)
/// hold with a busy thread spinning on every core the whole time, on seeds the
/// lessons were not tuned on: their sides take turns, so a busy spell slows both
/// alike, and each side keeps its fastest times, the ones the spinning slowed least.
#[test]
fn timing_claims_hold_with_every_core_busy_beside_them() {
    let _busy = Busy::on(std::thread::available_parallelism().map_or(2, |n| n.get()));
    verify_with("11", &[3, 4, 5]);
    verify_with("12", &[3, 4, 5]);
}

#[test]
fn lesson_01_claims_hold_for_three_seeds() {
    verify("01");
}

#[test]
fn lesson_02_claims_hold_for_three_seeds() {
    verify("02");
}

#[test]
fn lesson_03_claims_hold_for_three_seeds() {
    verify("03");
}

#[test]
fn lesson_04_claims_hold_for_three_seeds() {
    verify("04");
}

#[test]
fn lesson_05_claims_hold_for_three_seeds() {
    verify("05");
}

#[test]
fn lesson_06_claims_hold_for_three_seeds() {
    verify("06");
}

#[test]
fn lesson_07_claims_hold_for_three_seeds() {
    verify("07");
}

#[test]
fn lesson_08_claims_hold_for_three_seeds() {
    verify("08");
}

#[test]
fn lesson_09_claims_hold_for_three_seeds() {
    verify("09");
}

#[test]
fn lesson_10_claims_hold_for_three_seeds() {
    verify("10");
}

#[test]
fn lesson_11_claims_hold_for_three_seeds() {
    verify("11");
}

#[test]
fn lesson_12_claims_hold_for_three_seeds() {
    verify("12");
}

#[test]
fn lesson_13_claims_hold_for_three_seeds() {
    verify("13");
}

#[test]
fn lesson_14_claims_hold_for_three_seeds() {
    verify("14");
}

#[test]
fn lesson_15_claims_hold_for_three_seeds() {
    verify("15");
}

#[test]
fn lesson_16_claims_hold_for_three_seeds() {
    verify("16");
}

#[test]
fn lesson_17_claims_hold_for_three_seeds() {
    verify("17");
}

#[test]
fn lesson_18_claims_hold_for_three_seeds() {
    verify("18");
}

#[test]
fn lesson_19_claims_hold_for_three_seeds() {
    verify("19");
}

#[test]
fn lesson_20_claims_hold_for_three_seeds() {
    verify("20");
}

#[test]
fn lesson_21_claims_hold_for_three_seeds() {
    verify("21");
}

#[test]
fn lesson_22_claims_hold_for_three_seeds() {
    verify("22");
}

#[test]
fn lesson_23_claims_hold_for_three_seeds() {
    verify("23");
}

#[test]
fn lesson_24_claims_hold_for_three_seeds() {
    verify("24");
}

#[test]
fn the_readme_example_lesson_parses_and_its_claim_holds() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let start = readme.find("````markdown\n").expect("an example lesson in the README") + "````markdown\n".len();
    let end = start + readme[start..].find("\n````").unwrap();
    let lesson = lessons::parse_lesson("README.md", &readme[start..end]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(lesson.tries().count(), 2);
    let reports = verify_lesson(&lesson, &[0]);
    assert!(reports.iter().all(|r| r.passed), "{reports:#?}");
}

/// The checks the learner sees tick for the model the lesson wants and not for the
/// one it warns about: each lesson's check is evaluated on the facts of real runs.
mod checks_tick_only_for_the_right_model {
    use attention_workbench::config::{LayerConfig, MaskKind, MaskReading};
    use attention_workbench::lessons::LiveFacts;
    use attention_workbench::training::{Session, StepOutcome};

    use super::lesson;

    fn trained(config: attention_workbench::config::ExperimentConfig, steps: usize) -> Session {
        let mut session = Session::new(config).unwrap();
        for _ in 0..steps {
            assert!(matches!(session.step(false), StepOutcome::Done { .. }));
        }
        session
    }

    #[test]
    fn lesson_03_soft_fresh_attention_ticks_only_with_scaling() {
        let lesson = lesson("03");
        let check = lesson.checks().next().unwrap();
        for seed in 0..6 {
            for scale in [true, false] {
                let mut config = lesson.start.clone();
                config.seed = seed;
                config.model.layers.iter_mut().for_each(|l| l.scale = scale);
                let session = trained(config, 1);
                let snapshot = session.attention_snapshot();
                let facts = LiveFacts { step: 1, attention: Some(&snapshot), ..LiveFacts::default() };
                assert_eq!(check.condition.evaluate(&facts), Some(scale), "seed {seed}, scale {scale}: {}", check.condition.text);
            }
        }
    }

    /// The facts the window would have after training `config` for `steps`.
    fn check_after(check: &attention_workbench::lessons::CheckBlock, config: attention_workbench::config::ExperimentConfig, steps: usize) -> Option<bool> {
        let mut session = trained(config, steps);
        let eval = session.evaluate();
        let loss = session.recent_train_loss(20);
        let facts = LiveFacts {
            step: steps,
            eval_step: Some(eval.step),
            loss,
            eval_loss: Some(eval.loss),
            eval_accuracy: Some(eval.accuracy),
            sequence_accuracy: Some(eval.sequence_accuracy),
            generation_loss: Some(eval.generation_loss),
            longest_accuracy: eval.by_length.last().filter(|b| b.sentences > 0).map(|b| b.accuracy),
            shortest_accuracy: eval.by_length.first().filter(|b| b.sentences > 0).map(|b| b.accuracy),
            ..LiveFacts::default()
        };
        check.condition.evaluate(&facts)
    }

    #[test]
    fn lesson_18_ticks_with_attention_and_not_for_the_fixed_vector() {
        let lesson = lesson("18");
        let check = lesson.checks().next().unwrap();
        let mut with = lesson.start.clone();
        with.model.rnn_attention = attention_workbench::config::RnnAttention::Dot;
        assert_eq!(check_after(check, with, lesson.start.steps), Some(true), "with attention");
        assert_eq!(check_after(check, lesson.start.clone(), lesson.start.steps), Some(false), "the fixed vector");
    }

    #[test]
    fn lesson_19_ticks_with_cross_attention_and_not_without_it() {
        let lesson = lesson("19");
        let check = lesson.checks().next().unwrap();
        assert_eq!(check_after(check, lesson.start.clone(), lesson.start.steps), Some(true), "with cross-attention");
        let mut without = lesson.start.clone();
        without.model.layers.iter_mut().for_each(|l| l.cross_attention = false);
        assert_eq!(check_after(check, without, lesson.start.steps), Some(false), "without cross-attention");
    }

    #[test]
    fn lesson_20_ticks_for_the_transformer_and_not_for_the_gru_alone() {
        let lesson = lesson("20");
        let check = lesson.checks().next().unwrap();
        assert_eq!(check_after(check, lesson.start.clone(), lesson.start.steps), Some(false), "the GRU without attention");
        let transformer = attention_workbench::config::preset_keeping("encoder_decoder", &lesson.start).unwrap();
        assert_eq!(check_after(check, transformer, lesson.start.steps), Some(true), "the encoder–decoder Transformer");
    }

    /// For each seed and each `(name, change, expected)`: the lesson's first check,
    /// after 300 steps of the lesson's experiment with `change` applied.
    fn check_verdicts(id: &str, seeds: std::ops::Range<u64>, cases: &[(&str, &dyn Fn(&mut LayerConfig), bool)]) {
        let lesson = lesson(id);
        let check = lesson.checks().next().unwrap();
        for seed in seeds {
            for (name, change, expected) in cases {
                let mut config = lesson.start.clone();
                config.seed = seed;
                config.model.layers.iter_mut().for_each(|l| change(l));
                assert_eq!(check_after(check, config, 300), Some(*expected), "seed {seed}, {name}: {}", check.condition.text);
            }
        }
    }

    #[test]
    fn lesson_07_ticks_for_the_causal_model_and_not_for_the_peeking_one() {
        check_verdicts("07", 0..2, &[
            ("Causal", &|l| l.mask = MaskKind::Causal, true),
            ("Bidirectional", &|l| l.mask = MaskKind::Bidirectional, false),
        ]);
    }

    #[test]
    fn lesson_10_ticks_with_the_activation_and_not_without_it() {
        use attention_workbench::config::Activation;
        let lesson = lesson("10");
        let check = lesson.checks().next().unwrap();
        for seed in [0, 5] {
            for (activation, expected) in [(Activation::Gelu, true), (Activation::None, false)] {
                let mut config = lesson.start.clone();
                config.seed = seed;
                config.model.layers.iter_mut().for_each(|l| l.activation = activation);
                let steps = config.steps;
                assert_eq!(check_after(check, config, steps), Some(expected), "seed {seed}, {activation:?}: {}", check.condition.text);
            }
        }
    }

    #[test]
    fn lesson_11_ticks_when_the_measured_cost_grows_faster_than_the_length() {
        use attention_workbench::experiments::{LengthCost, LengthOutcome};
        use attention_workbench::workbench::run_view::RunView;
        use attention_workbench::workbench::window::{Background, live_facts};
        let lesson = lesson("11");
        let check = lesson.checks().next().unwrap();
        // Timed on the lesson's own experiment.
        let measured = |times: &[(usize, f64)]| Background {
            lengths: times.iter().map(|&(length, step_ms)| LengthOutcome::Measured(LengthCost { length, step_ms, attention_mib: 1.0, total_mib: 2.0 })).collect(),
            lengths_base: Some(lesson.start.clone()),
            ..Background::default()
        };
        let view = RunView::default();
        let verdict = |background: &Background| check.condition.evaluate(&live_facts(&view, &lesson.start, background));
        // The lesson's own figures (tiny model, one thread): 14 ms at 64, 82 at 256.
        assert_eq!(verdict(&measured(&[(16, 2.3), (32, 5.0), (64, 14.0), (128, 28.0), (256, 82.0)])), Some(true));
        // Attention switched off: the cost grows like the length (3.1-4.0 measured).
        assert_eq!(verdict(&measured(&[(64, 10.0), (256, 36.0)])), Some(false));
        // A run trained at length 256, without pressing Measure, ticks nothing.
        assert_eq!(verdict(&Background::default()), None);
        assert_eq!(verdict(&measured(&[(64, 14.0)])), None, "256 not measured yet");
        // The same figures timed on another model, before this lesson's was loaded.
        let mut elsewhere = measured(&[(16, 2.3), (32, 5.0), (64, 14.0), (128, 28.0), (256, 82.0)]);
        elsewhere.lengths_base.as_mut().unwrap().model.d_model *= 2;
        assert_eq!(verdict(&elsewhere), None, "another experiment's times tick nothing");
        assert!(check.condition.waiting_for(&live_facts(&view, &lesson.start, &Background::default())).contains("press Measure"));
    }

    #[test]
    fn lesson_13_ticks_only_when_a_pinned_run_is_retrained_to_the_same_curve() {
        use attention_workbench::training::{StepMetrics, TrainEvent};
        use attention_workbench::workbench::run_view::RunView;
        let lesson = lesson("13");
        let check = lesson.checks().next().unwrap();
        let steps = lesson.start.steps;
        assert!(steps >= 300);
        let ready = || TrainEvent::Ready { task: lesson.start.task.kind, parameters: 1, backend: attention_workbench::training::BackendInfo { requested: "cpu".into(), used: "cpu".into(), adapter: None, fallback_reason: None, composed_because: None }, seq_len: 1, vocab: Vec::new() };
        // Train `config` and fold its steps into `view`, as the window would.
        let train_into = |view: &mut RunView, config: attention_workbench::config::ExperimentConfig| {
            view.apply(ready());
            let session = trained(config, steps);
            for (i, record) in session.history().steps.iter().enumerate() {
                view.apply(TrainEvent::Step(StepMetrics { step: i + 1, loss: record.loss, accuracy: 0.0, lr: 0.0, grad_norm: 0.0, steps_per_s: 1.0, tokens_per_s: 1.0 }));
            }
        };
        let verdict = |second: Option<&dyn Fn(&mut attention_workbench::config::ExperimentConfig)>| {
            let mut view = RunView::default();
            train_into(&mut view, lesson.start.clone());
            view.pin();
            if let Some(change) = second {
                let mut config = lesson.start.clone();
                change(&mut config);
                train_into(&mut view, config);
            }
            check.condition.evaluate(&view.live_facts())
        };
        assert_eq!(verdict(Some(&|_| {})), Some(true), "same seed, same config: the curves coincide");
        assert_eq!(verdict(Some(&|c| c.seed += 1)), Some(false), "another seed");
        assert_eq!(verdict(Some(&|c| c.model.dropout = 0.1)), Some(false), "dropout on");
        assert_eq!(verdict(None), None, "pinned but not retrained: nothing to compare");
    }

    #[test]
    fn lesson_21_ticks_for_a_model_whose_loss_travels_and_not_for_learned_or_sinusoidal_positions() {
        use attention_workbench::config::PositionalEncoding;
        use attention_workbench::workbench::run_view::RunView;
        use attention_workbench::workbench::window::{Background, live_facts};
        let lesson = lesson("21");
        let check = lesson.checks().next().unwrap();
        let steps = lesson.start.steps;
        let verdict = |config: attention_workbench::config::ExperimentConfig| {
            let stretch = live_facts(&RunView::default(), &config, &Background::default()).held_out_stretch;
            let mut session = trained(config, steps);
            let eval = session.evaluate();
            let facts = LiveFacts { step: steps, eval_step: Some(eval.step), eval_loss: Some(eval.loss), held_out_stretch: stretch, ..LiveFacts::default() };
            check.condition.evaluate(&facts)
        };
        for seed in [0, 3] {
            for (positional, expected) in [(PositionalEncoding::Alibi, true), (PositionalEncoding::Learned, false), (PositionalEncoding::Sinusoidal, false)] {
                let mut config = lesson.start.clone();
                config.seed = seed;
                config.model.positional = positional;
                assert_eq!(verdict(config), Some(expected), "seed {seed}, {positional:?}: {}", check.condition.text);
            }
        }
        // Tested at the training length, even a good loss says nothing about travel.
        let mut same_length = lesson.start.clone();
        same_length.model.positional = PositionalEncoding::Rotary;
        same_length.task.eval_length = 0;
        assert_eq!(verdict(same_length), Some(false), "held-out length = training length");
    }

    #[test]
    fn lesson_22_ticks_for_the_picked_head_count_trained_well_and_not_for_sixteen_heads() {
        use attention_workbench::experiments::{HeadsOutcome, HeadsPoint};
        use attention_workbench::workbench::run_view::RunView;
        use attention_workbench::workbench::window::{Background, live_facts};
        let lesson = lesson("22");
        let check = lesson.checks().next().unwrap();
        // The sweep as the Heads tab reports it (seed 0's measured shape): one head wins on validation.
        let point = |heads: usize, validation: f64| HeadsOutcome::Measured(HeadsPoint { heads, validation_accuracy: validation, validation_loss: 1.0 - validation, test_accuracy: validation, test_loss: 1.0 - validation, step_ms: 3.0, train_loss: 0.1 });
        let swept = Background { heads: vec![point(1, 1.0), point(2, 0.99), point(4, 0.98), point(8, 0.36), point(16, 0.37)], heads_base: Some(lesson.start.clone()), ..Background::default() };
        let verdict = |heads: usize, background: &Background| {
            let mut config = lesson.start.clone();
            config.model.layers.iter_mut().for_each(|l| l.heads = heads);
            let mut session = trained(config.clone(), config.steps);
            let eval = session.evaluate();
            let view = RunView::default();
            let facts = LiveFacts { step: config.steps, eval_step: Some(eval.step), eval_accuracy: Some(eval.accuracy), ..live_facts(&view, &config, background) };
            check.condition.evaluate(&facts)
        };
        assert_eq!(verdict(1, &swept), Some(true), "the pick, trained");
        assert_eq!(verdict(16, &swept), Some(false), "the lesson's start: sixteen heads");
        assert_eq!(verdict(4, &swept), Some(false), "a good model, but not the pick");
        assert_eq!(verdict(1, &Background::default()), None, "no sweep yet");
        let mut other = lesson.start.clone();
        other.model.d_model = 32;
        assert_eq!(verdict(1, &Background { heads_base: Some(other), ..swept.clone() }), None, "a sweep of another experiment");
        assert_eq!(verdict(1, &Background { heads_running: true, ..swept }), None, "a sweep still running");
    }

    #[test]
    fn lesson_23_ticks_for_the_tagger_with_attention_and_not_without() {
        let lesson = lesson("23");
        let check = lesson.checks().next().unwrap();
        for seed in 0..2 {
            for attention in [true, false] {
                let mut config = lesson.start.clone();
                config.seed = seed;
                config.model.layers.iter_mut().for_each(|l| l.attention = attention);
                let steps = config.steps;
                assert_eq!(check_after(check, config, steps), Some(attention), "seed {seed}, attention {attention}: {}", check.condition.text);
            }
        }
    }

    #[test]
    fn lesson_24_ticks_for_the_bag_of_tokens_and_not_for_attention_that_memorises() {
        use attention_workbench::config::{AttentionKind, PositionalEncoding};
        let lesson = lesson("24");
        let check = lesson.checks().next().unwrap();
        for seed in 0..3 {
            for (bag, expected) in [(true, true), (false, false)] {
                let mut config = lesson.start.clone();
                config.seed = seed;
                if bag {
                    config.model.positional = PositionalEncoding::None;
                    config.model.layers.iter_mut().for_each(|l| {
                        l.attention_kind = AttentionKind::UniformAverage;
                        l.mask = MaskKind::Bidirectional;
                    });
                }
                let steps = config.steps;
                assert_eq!(check_after(check, config, steps), Some(expected), "seed {seed}, bag {bag}: {}", check.condition.text);
            }
        }
    }

    #[test]
    fn lesson_12_ticks_after_training_and_a_long_cached_write_and_not_for_the_peeking_model() {
        let lesson = lesson("12");
        let check = lesson.checks().next().unwrap();
        let facts_after = |mask: MaskKind, steps: usize, tokens: usize| {
            let mut config = lesson.start.clone();
            config.model.layers.iter_mut().for_each(|l| l.mask = mask);
            let session = trained(config, steps);
            let report = session.compare_writing("The sea", tokens).unwrap();
            let speedup = (report.mismatches == Some(0)).then(|| report.cached.as_ref().map(|c| (report.uncached.mean_ms / c.mean_ms) as f32)).flatten();
            (report, LiveFacts { step: steps, cache_speedup: speedup, ..LiveFacts::default() })
        };
        let (report, facts) = facts_after(MaskKind::Causal, 300, 100);
        assert_eq!(report.mismatches, Some(0), "cached and uncached text agree");
        assert_eq!(check.condition.evaluate(&facts), Some(true), "{}: {}", check.condition.text, check.condition.waiting_for(&facts));
        let (_, facts) = facts_after(MaskKind::Causal, 100, 100);
        assert_eq!(check.condition.evaluate(&facts), Some(false), "too few steps");
        let (report, facts) = facts_after(MaskKind::Bidirectional, 300, 100);
        assert!(report.cached.is_none() && report.no_cache_reason.as_deref().is_some_and(|r| r.contains("bidirectional")));
        assert_eq!(check.condition.evaluate(&facts), None, "no cached write, nothing to tick");
        assert!(check.condition.waiting_for(&facts).contains("press Write"));
    }

    #[test]
    fn lesson_14_ticks_for_the_healthy_model_and_not_for_a_planted_bug() {
        let lesson = lesson("14");
        let check = lesson.checks().next().unwrap();
        for seed in 0..2 {
            let cases: [(&str, f64, MaskKind, bool); 3] = [
                ("init scale 1", 1.0, MaskKind::Causal, true),
                ("init scale 10 (the start)", 10.0, MaskKind::Causal, false),
                ("no causal mask", 1.0, MaskKind::Bidirectional, false),
            ];
            for (name, init_scale, mask, expected) in cases {
                let mut config = lesson.start.clone();
                config.seed = seed;
                config.model.init_scale = init_scale;
                config.model.layers.iter_mut().for_each(|l| l.mask = mask);
                assert_eq!(check_after(check, config, 300), Some(expected), "seed {seed}, {name}: {}", check.condition.text);
            }
        }
    }

    #[test]
    fn lesson_16_ticks_for_gentle_fine_tuning_and_not_for_a_fresh_start_or_a_large_learning_rate() {
        let lesson = lesson("16");
        let check = lesson.checks().next().unwrap();
        let cases: [(&str, Option<&str>, f64, bool); 3] = [
            ("fine-tune at 0.0001 (the start)", Some("pretrained/english"), 1e-4, true),
            ("random weights at 0.001", None, 1e-3, false),
            ("fine-tune at 0.001", Some("pretrained/english"), 1e-3, false),
        ];
        for (name, init_from, lr, expected) in cases {
            let mut config = lesson.start.clone();
            config.init_from = init_from.map(str::to_string);
            config.lr = lr;
            assert_eq!(check_after(check, config, 150), Some(expected), "{name}: {}", check.condition.text);
        }
    }

    #[test]
    fn lesson_17_finds_a_previous_token_head_in_two_layers_and_the_one_layer_model_fails_the_accuracy_check() {
        let lesson = lesson("17");
        let mut checks = lesson.checks();
        let (previous_token, accuracy) = (checks.next().unwrap(), checks.next().unwrap());
        let mut two = trained(lesson.start.clone(), lesson.start.steps);
        let snapshot = two.attention_snapshot();
        let facts = LiveFacts { step: lesson.start.steps, attention: Some(&snapshot), ..LiveFacts::default() };
        assert_eq!(previous_token.condition.evaluate(&facts), Some(true), "{}", previous_token.condition.text);
        let eval = two.evaluate();
        let facts = LiveFacts { step: lesson.start.steps, eval_step: Some(eval.step), eval_accuracy: Some(eval.accuracy), ..LiveFacts::default() };
        assert_eq!(accuracy.condition.evaluate(&facts), Some(true), "two layers: {}", eval.accuracy);
        let mut one = lesson.start.clone();
        one.model.layers.truncate(1);
        assert_eq!(check_after(accuracy, one, lesson.start.steps), Some(false), "one layer");
    }

    #[test]
    fn lesson_15_ticks_for_a_window_of_three_and_not_for_a_window_of_one() {
        let lesson = lesson("15");
        let check = lesson.checks().next().unwrap();
        for seed in 0..2 {
            for (window, expected) in [(3, true), (1, false)] {
                let mut config = lesson.start.clone();
                config.seed = seed;
                config.model.layers.iter_mut().for_each(|l| l.window = window);
                assert_eq!(check_after(check, config, 600), Some(expected), "seed {seed}, window {window}: {}", check.condition.text);
            }
        }
    }

    #[test]
    fn lesson_08_ticks_for_the_correct_mask_and_not_for_the_inverted_one() {
        check_verdicts("08", 0..3, &[
            ("KeepIsTrue", &|l| l.mask_reading = MaskReading::KeepIsTrue, true),
            ("MaskedIsTrue", &|l| l.mask_reading = MaskReading::MaskedIsTrue, false),
        ]);
    }
}

#[test]
fn every_shipped_lesson_has_a_chinese_version_that_pairs_with_it() {
    use attention_workbench::i18n::Lang;
    let errors = lessons::builtin_translation_errors();
    assert!(errors.is_empty(), "{}", errors.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n"));
    let (english, chinese) = (lessons::builtin(), lessons::builtin_in(Lang::Zh));
    assert_eq!(lessons::BUILTIN_ZH.len(), lessons::BUILTIN.len(), "every lesson is in both languages");
    for (en, zh) in english.iter().zip(&chinese) {
        let (en, zh) = (en.as_ref().unwrap(), zh.as_ref().unwrap());
        assert_eq!(en.id, zh.id);
        assert!(zh.source.ends_with("lesson.zh.md"), "{} is shown from its Chinese file", zh.id);
        assert!(zh.title.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)), "{}: the title is in Chinese: {}", zh.id, zh.title);
        // The same blocks at the same lines, so progress and claims are shared.
        let lines = |l: &Lesson| l.checks().map(|c| c.line).chain(l.claims().map(|c| c.line)).chain(l.tries().map(|t| t.line)).collect::<Vec<_>>();
        assert_eq!(lines(en), lines(zh), "{}", en.id);
        for (a, b) in en.claims().zip(zh.claims()) {
            assert_eq!(a.claim.conditions, b.claim.conditions, "{}: the claim is the same experiment", en.id);
        }
    }
}

#[test]
fn a_translation_that_changes_an_experiment_is_refused_naming_the_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("01-x");
    std::fs::create_dir_all(&folder).unwrap();
    let original = lessons::BUILTIN[0].1;
    std::fs::write(folder.join("lesson.md"), original).unwrap();
    // The Chinese file trains its try for other steps than the original.
    let (_, zh) = lessons::BUILTIN_ZH[0];
    let tampered = zh.replacen("steps = ", "steps = 1", 1);
    assert_ne!(tampered, zh);
    std::fs::write(folder.join("lesson.zh.md"), &tampered).unwrap();
    let loaded = lessons::load_path_in(dir.path(), attention_workbench::i18n::Lang::Zh).unwrap();
    let err = loaded[0].as_ref().unwrap_err().to_string();
    assert!(err.contains("lesson.zh.md") && err.contains("only label, hint and statement may be translated"), "{err}");
    // `lesson check` reports it too.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_attention-workbench")).env("LC_ALL", "C.UTF-8")
        .args(["lesson", "check", dir.path().to_str().unwrap()])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("FAIL"), "{}", String::from_utf8_lossy(&out.stdout));
}

#[test]
fn editing_a_lessons_text_keeps_a_students_progress_and_only_an_id_change_loses_a_tick() {
    use attention_workbench::progress::Progress;
    let (file, text) = lessons::BUILTIN.iter().find(|(f, _)| f.contains("04-no-order")).unwrap();
    let lesson = lessons::parse_lesson(file, text).unwrap();
    let mut progress = Progress::default();
    for check in lesson.checks() {
        progress.pass_check(&lesson.id, &check.id, 100);
    }
    let answer = lesson.answers().next().expect("lesson 04 has an answer").id.clone();
    progress.reveal_answer(&lesson.id, &answer, 101);
    // The teacher rewrites the prose: a new paragraph on top moves every block
    // down, and a check's label and hint change.
    let first_check = lesson.checks().next().unwrap();
    let edited = text
        .replacen("\n# ", "\nA new opening paragraph.\n\nAnd a second one, so every block moves.\n\n# ", 1)
        .replace(&format!("label = \"{}\"", first_check.label), "label = \"Reworded by the teacher\"");
    let edited_lesson = lessons::parse_lesson(file, &edited).unwrap();
    let moved = edited_lesson.checks().next().unwrap();
    assert_ne!(moved.line, first_check.line, "the edit moved the blocks");
    assert_eq!(moved.label, "Reworded by the teacher");
    for check in edited_lesson.checks() {
        assert!(progress.check_passed(&edited_lesson.id, &check.id), "{} keeps its tick", check.id);
    }
    assert!(progress.answer_revealed(&edited_lesson.id, &answer));
    // Renaming an id is what a student's tick hangs on.
    let renamed = edited.replace(&format!("id = \"{}\"", first_check.id), "id = \"renamed\"");
    let renamed = lessons::parse_lesson(file, &renamed).unwrap();
    assert!(!progress.check_passed(&renamed.id, &renamed.checks().next().unwrap().id));
}

#[test]
fn every_shipped_lesson_answers_its_your_turn_questions() {
    for lesson in lessons::builtin().into_iter().map(|l| l.unwrap_or_else(|e| panic!("{e}"))) {
        assert!(lesson.answers().count() >= 1, "{} has an answer block", lesson.id);
    }
}

#[test]
fn a_translation_missing_the_originals_lock_is_refused_naming_lock_at_a_real_line() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("01-x");
    std::fs::create_dir_all(&folder).unwrap();
    // The English lesson locks the seed; its Chinese file forgot the [lock] table.
    let text = lessons::BUILTIN[0].1;
    let close = 3 + text[3..].find("\n+++\n").expect("the front matter closes") + 1;
    let original = format!("{}[lock]\nknobs = [\"seed\"]\nreason = \"The class compares one seed.\"\n{}", &text[..close], &text[close..]);
    std::fs::write(folder.join("lesson.md"), &original).unwrap();
    std::fs::write(folder.join("lesson.zh.md"), lessons::BUILTIN_ZH[0].1).unwrap();
    let loaded = lessons::load_path_in(dir.path(), attention_workbench::i18n::Lang::Zh).unwrap();
    let err = loaded[0].as_ref().unwrap_err();
    assert!(err.message.contains("[lock]") && err.message.contains("\"seed\""), "{err}");
    assert!(!err.message.contains("minutes"), "the lock is named, not [start] or minutes: {err}");
    assert!(err.line >= 1, "a real line, not 0: {err}");
}

//! The model editor: global knobs, training knobs, the layer stack as cards, a live
//! parameter count and memory estimate, and every validation problem next to its knob.

use eframe::egui;

use super::bounded::Bounded;

use crate::workbench::actions::AppAction;
use crate::workbench::window::WindowData;

use crate::t;

use super::knob_help as help;
use super::knob_row::{choice_row, widget_row};
use super::layer_card::{CardAction, CardPlace, hidden_row, inline_problem, layer_card_ui};
use crate::config::{ConfigProblem, LayerConfig, ModelFamily, OptimizerKind, PositionalEncoding, RnnAttention, RnnCell, SHIPPED_MODELS, estimate_memory};

/// The model editor panel: every knob of the edited config.
#[derive(Default)]
pub struct ModelEditor;

impl super::Panel for ModelEditor {
    fn show(&mut self, ui: &mut egui::Ui, data: &mut WindowData<'_>, _actions: &mut Vec<AppAction>) {
        let locks = data.lessons.active_locks();
        let (problems, facts, hide_planted_knobs) = (&data.checked.problems, data.checked.facts.as_ref(), data.hide_mask_knobs);
        let config = &mut data.state.config;
        ui.heading(t!("editor-model"));
        let lock = |knob: &str| locks.filter(|l| l.covers(knob)).map(|l| t!("lesson-locked-tip", reason = l.reason.as_str()));
        if let Some(locks) = locks {
            ui.colored_label(ui.visuals().warn_fg_color, format!("🔒 {}", t!("lesson-locks", knobs = crate::lessons::knob_names(&locks.knobs), reason = locks.reason.as_str())))
                .on_hover_text(t!("lesson-locks-active-tip"));
        }
        if let Some(facts) = facts {
            let vocab = config.model_vocab_size(facts.vocab);
            let estimate = estimate_memory(config, vocab, facts.seq_len);
            ui.label(t!(
                "editor-estimate",
                parameters = group_digits(estimate.parameters),
                total = format!("{:.1}", estimate.total_mib()),
                attention = format!("{:.1}", estimate.attention_bytes as f64 / 1048576.0)
            ))
            .on_hover_text(t!("editor-estimate-tip"));
        }
        let problem = |knob: &str| problems.iter().find(|p| p.knob == knob);
        egui::CollapsingHeader::new(t!("task-heading")).id_salt("Task").default_open(false).show(ui, |ui| {
            super::task_knobs::task_knobs_ui(ui, config, problems);
        });
        egui::CollapsingHeader::new(t!("editor-global")).id_salt("Global").default_open(true).show(ui, |ui| {
            // A new grid when problems come or go (see layer_card: rows keep last frame's height).
            egui::Grid::new(("global_knobs", problems.len())).num_columns(2).spacing([8.0, 4.0]).show(ui, |ui| {
                let m = &mut config.model;
                let mut family = m.family;
                let names = ModelFamily::ALL.map(ModelFamily::label);
                let choices: Vec<(ModelFamily, &str)> = ModelFamily::ALL.into_iter().zip(names.iter().map(String::as_str)).collect();
                choice_row(ui, &t!("editor-family"), &help::text(help::FAMILY), lock("model.family"), &mut family, &choices);
                m.switch_family(family);
                inline_problem(ui, problem("model.family"));
                if m.family == ModelFamily::Rnn {
                    choice_row(ui, &t!("editor-rnn-cell"), &help::text(help::RNN_CELL), lock("model.rnn_cell"), &mut m.rnn_cell, &[(RnnCell::Gru, "GRU"), (RnnCell::Lstm, "LSTM")]);
                    choice_row(ui, &t!("editor-rnn-attention"), &help::text(help::RNN_ATTENTION), lock("model.rnn_attention"), &mut m.rnn_attention, &[
                        (RnnAttention::None, t!("editor-rnn-fixed-vector").as_str()),
                        (RnnAttention::Dot, t!("editor-rnn-dot").as_str()),
                        (RnnAttention::Additive, t!("editor-rnn-additive").as_str()),
                    ]);
                }
                widget_row(ui, "d_model", &help::text(help::D_MODEL), lock("model.d_model"), Bounded::new(&mut m.d_model, 1..=1024).key("model.d_model"));
                inline_problem(ui, problem("model.d_model"));
                choice_row(ui, &t!("editor-positions"), &help::text(help::POSITIONAL), lock("model.positional"), &mut m.positional, &[
                    (PositionalEncoding::None, t!("editor-none").as_str()),
                    (PositionalEncoding::Sinusoidal, t!("editor-sinusoidal").as_str()),
                    (PositionalEncoding::Learned, t!("editor-learned").as_str()),
                    (PositionalEncoding::Rotary, t!("editor-rotary").as_str()),
                    (PositionalEncoding::Alibi, t!("editor-alibi").as_str()),
                ]);
                widget_row(ui, &t!("editor-max-length"), &help::text(help::MAX_LEN), lock("model.max_len"), Bounded::new(&mut m.max_len, 1..=4096).key("model.max_len"));
                inline_problem(ui, problem("model.max_len"));
                widget_row(ui, &t!("editor-layer-norm-eps"), &help::text(help::LAYER_NORM_EPS), lock("model.layer_norm_eps"), Bounded::new(&mut m.layer_norm_eps, 1e-12..=1e-1).speed(1e-6).max_decimals(12).key("model.layer_norm_eps"));
                inline_problem(ui, problem("model.layer_norm_eps"));
                widget_row(ui, &t!("editor-token-types"), &help::text(help::TOKEN_TYPES), lock("model.token_types"), Bounded::new(&mut m.token_types, 0..=16).key("model.token_types"));
                inline_problem(ui, problem("model.token_types"));
                widget_row(ui, &t!("editor-embedding-norm"), &help::text(help::EMBEDDING_NORM), lock("model.embedding_norm"), egui::Checkbox::without_text(&mut m.embedding_norm));
                widget_row(ui, &t!("editor-tied-embeddings"), &help::text(help::TIED_EMBEDDINGS), lock("model.tied_embeddings"), egui::Checkbox::without_text(&mut m.tied_embeddings));
                widget_row(ui, &t!("editor-head-transform"), &help::text(help::HEAD_TRANSFORM), lock("model.head_transform"), egui::Checkbox::without_text(&mut m.head_transform));
                widget_row(ui, &t!("editor-dropout"), &help::text(help::DROPOUT), lock("model.dropout"), Bounded::new(&mut m.dropout, 0.0..=0.9).speed(0.01).key("model.dropout"));
                inline_problem(ui, problem("model.dropout"));
                if hide_planted_knobs {
                    hidden_row(ui, &t!("editor-init-scale"));
                } else {
                    widget_row(ui, &t!("editor-init-scale"), &help::text(help::INIT_SCALE), lock("model.init_scale"), Bounded::new(&mut m.init_scale, 0.001..=1000.0).speed(0.01).key("model.init_scale"));
                    inline_problem(ui, problem("model.init_scale"));
                }
            });
        });
        egui::CollapsingHeader::new(t!("editor-training")).id_salt("Training").default_open(true).show(ui, |ui| {
            egui::Grid::new(("training_knobs", problems.len())).num_columns(2).spacing([8.0, 4.0]).show(ui, |ui| {
                if hide_planted_knobs {
                    hidden_row(ui, &t!("editor-optimizer"));
                    hidden_row(ui, &t!("editor-learning-rate"));
                } else {
                    choice_row(ui, &t!("editor-optimizer"), &help::text(help::OPTIMIZER), lock("optimizer"), &mut config.optimizer, &[
                        (OptimizerKind::Adam, "Adam"),
                        (OptimizerKind::AdamW, "AdamW"),
                        (OptimizerKind::Sgd, "SGD"),
                    ]);
                    widget_row(ui, &t!("editor-learning-rate"), &help::text(help::LR), lock("lr"), Bounded::new(&mut config.lr, 1e-6..=10.0).speed(0.0001).max_decimals(5).key("lr"));
                    inline_problem(ui, problem("lr"));
                }
                widget_row(ui, &t!("editor-warmup-steps"), &help::text(help::WARMUP), lock("warmup_steps"), Bounded::new(&mut config.warmup_steps, 0..=100_000).key("warmup_steps"));
                widget_row(ui, &t!("editor-batch"), &help::text(help::BATCH), lock("batch_size"), Bounded::new(&mut config.batch_size, 1..=4096).key("batch_size"));
                inline_problem(ui, problem("batch_size"));
                widget_row(ui, &t!("editor-steps"), &help::text(help::STEPS), lock("steps"), Bounded::new(&mut config.steps, 1..=1_000_000).key("steps"));
                init_from_row(ui, &mut config.init_from);
                inline_problem(ui, problem("init_from"));
            });
        });
        ui.separator();
        let family = config.model.family;
        let d_model = config.model.d_model;
        if family == ModelFamily::Rnn {
            ui.strong(t!("editor-rnn-card", cell = if config.model.rnn_cell == RnnCell::Gru { "GRU" } else { "LSTM" }));
            ui.label(if config.model.rnn_attention == RnnAttention::None { t!("editor-rnn-card-fixed") } else { t!("editor-rnn-card-attention") });
            inline_problem_line(ui, problem("model.layers"));
            inline_problem_line(ui, problem("model.encoder_layers"));
        }
        if family == ModelFamily::EncoderDecoder {
            stack_ui(ui, true, false, &mut config.model.encoder_layers, d_model, problems, hide_planted_knobs, locks);
            ui.separator();
        }
        if family != ModelFamily::Rnn {
            stack_ui(ui, false, family == ModelFamily::EncoderDecoder, &mut config.model.layers, d_model, problems, hide_planted_knobs, locks);
            if family == ModelFamily::Decoder {
                inline_problem_line(ui, problem("model.encoder_layers"));
            }
        }
        let shown = |k: &str| {
            k.starts_with("model.layers[")
                || k.starts_with("model.encoder_layers")
                || matches!(k, "model.d_model" | "model.max_len" | "model.layer_norm_eps" | "model.token_types" | "model.dropout" | "model.init_scale" | "lr" | "batch_size" | "model.layers" | "init_from" | "task.length" | "task.symbols" | "task.corpus" | "model.family")
        };
        for p in problems.iter().filter(|p| !shown(&p.knob)) {
            ui.colored_label(ui.visuals().error_fg_color, format!("⚠ {p}"));
        }
    }
}

/// One stack of layer cards (the encoder's, or the decoder's / the only one), with
/// its count, its add button and the problems of its layers beside their knobs.
fn stack_ui(
    ui: &mut egui::Ui,
    encoder: bool,
    cross: bool,
    layers: &mut Vec<LayerConfig>,
    d_model: usize,
    problems: &[ConfigProblem],
    hide_planted_knobs: bool,
    locks: Option<&crate::lessons::Locks>,
) {
    let path = if encoder { "model.encoder_layers" } else { "model.layers" };
    ui.horizontal(|ui| {
        ui.strong(if encoder { t!("editor-encoder-layers", count = layers.len()) } else { t!("editor-layers", count = layers.len()) });
        if ui.button(t!("editor-add-layer")).on_hover_text(t!("editor-add-layer-tip")).clicked() {
            let layer = layers.last().cloned().unwrap_or_default();
            layers.push(layer);
        }
    });
    inline_problem_line(ui, problems.iter().find(|p| p.knob == path));
    let count = layers.len();
    let mut action = None;
    for index in 0..count {
        let prefix = format!("{path}[{index}].");
        let layer_problems: Vec<&ConfigProblem> = problems.iter().filter(|p| p.knob.starts_with(&prefix)).collect();
        let place = CardPlace { encoder, cross, index, count };
        if let Some(a) = layer_card_ui(ui, place, &mut layers[index], d_model, &layer_problems, hide_planted_knobs, locks) {
            action = Some((index, a));
        }
        ui.add_space(4.0);
    }
    if let Some((index, action)) = action {
        apply_card_action(layers, index, action);
    }
}

/// "start from": random weights, a shipped model, or the run folder already set.
fn init_from_row(ui: &mut egui::Ui, init_from: &mut Option<String>) {
    ui.label(t!("editor-start-from")).on_hover_text(help::text(help::INIT_FROM));
    let shown = init_from.clone().unwrap_or_else(|| t!("editor-random-weights"));
    egui::ComboBox::from_id_salt("init_from").selected_text(shown).show_ui(ui, |ui| {
        ui.selectable_value(init_from, None, t!("editor-random-weights"));
        for name in SHIPPED_MODELS {
            ui.selectable_value(init_from, Some(name.to_string()), name);
        }
    })
    .response
    .on_hover_text(help::text(help::INIT_FROM));
    ui.end_row();
}

fn inline_problem_line(ui: &mut egui::Ui, problem: Option<&ConfigProblem>) {
    if let Some(p) = problem {
        ui.colored_label(ui.visuals().error_fg_color, t!("editor-problem-line", message = p.message.as_str(), fix = p.fix.as_str()));
    }
}

/// Remove, duplicate or move a layer.
pub fn apply_card_action(layers: &mut Vec<LayerConfig>, index: usize, action: CardAction) {
    match action {
        CardAction::Remove if layers.len() > 1 => {
            layers.remove(index);
        }
        CardAction::Duplicate => {
            let copy = layers[index].clone();
            layers.insert(index + 1, copy);
        }
        CardAction::MoveUp if index > 0 => layers.swap(index, index - 1),
        CardAction::MoveDown if index + 1 < layers.len() => layers.swap(index, index + 1),
        _ => {}
    }
}

/// 106257 → "106,257".
pub fn group_digits(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::preset;

    #[test]
    fn card_actions_reorder_copy_and_remove() {
        let mut layers = preset("lesson").unwrap().model.layers;
        layers[0].heads = 1;
        apply_card_action(&mut layers, 0, CardAction::MoveDown);
        assert_eq!(layers[1].heads, 1);
        apply_card_action(&mut layers, 1, CardAction::Duplicate);
        assert_eq!(layers.len(), 3);
        assert_eq!(layers[2].heads, 1);
        apply_card_action(&mut layers, 0, CardAction::Remove);
        apply_card_action(&mut layers, 0, CardAction::Remove);
        apply_card_action(&mut layers, 0, CardAction::Remove);
        assert_eq!(layers.len(), 1, "the last layer cannot be removed");
        assert_eq!(group_digits(106257), "106,257");
        assert_eq!(group_digits(12), "12");
    }
}

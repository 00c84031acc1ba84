//! Generate (lesson 12): the model writes from a prompt one token at a time,
//! once re-reading the whole text for every token and once with a KV cache; the
//! two texts and their timings sit side by side, with each token's cost plotted
//! against its position (the uncached line climbs, the cached one stays flat).

use eframe::egui;

use super::bounded::Bounded;
use crate::workbench::window::WindowData;
use egui_plot::{Corner, Line, Plot, PlotPoints};

use crate::workbench::actions::AppAction;
use crate::workbench::run_view::RunView;
use crate::t;
use crate::training::{GenerationReport, WrittenText};

/// The request being typed: the prompt and how many tokens to write.
pub struct GenerationPanel {
    pub prompt: String,
    /// How many new tokens the learner asked for (shown capped by max_len).
    pub tokens: usize,
    /// The prompt of the last request: its refusal is shown only while the prompt
    /// is still that one (typing a new prompt answers it).
    sent_prompt: Option<String>,
}

impl Default for GenerationPanel {
    fn default() -> Self {
        Self { prompt: String::new(), tokens: 100, sent_prompt: None }
    }
}

/// The start of the attention probe as a prompt the model can read, written as
/// the prompt is parsed: characters run together for the character model, other
/// tasks' tokens apart ("hello" is no token of the lookup task).
/// None for an encoder–decoder, which does not write from a prompt.
fn example_prompt(view: &RunView, seq2seq: bool) -> Option<String> {
    let snapshot = view.attention.as_ref().filter(|_| !seq2seq)?;
    // Padding is no part of a prompt (brackets pad on the left).
    let start: Vec<&str> = snapshot.tokens.iter().zip(snapshot.padding.iter().chain(std::iter::repeat(&false))).filter(|(_, pad)| !**pad).map(|(t, _)| t.as_str()).take(6).collect();
    let glue = if view.task == Some(crate::tasks::TaskKind::CharLm) { "" } else { " " };
    // (A space may be drawn as "␣" in the maps' labels.)
    (!start.is_empty()).then(|| start.join(glue).replace('␣', " "))
}

impl GenerationPanel {
    /// `max_len` bounds prompt plus new tokens.
    pub fn ui(&mut self, ui: &mut egui::Ui, view: &RunView, (max_len, seq2seq): (usize, bool), actions: &mut Vec<AppAction>) {
        let (report, error, waiting) = (view.generated.as_ref(), view.generation_error.as_deref(), view.generating);
        ui.heading(t!("gen-heading"));
        ui.label(t!("gen-intro"));
        ui.horizontal(|ui| {
            ui.label(t!("gen-prompt"));
            // The hint shows only while the prompt is empty: built only then.
            let example = if self.prompt.is_empty() { example_prompt(view, seq2seq) } else { None };
            let hint = example.map_or_else(|| t!("gen-prompt-hint"), |example| t!("gen-prompt-hint-example", example = example));
            let field = egui::TextEdit::singleline(&mut self.prompt)
                .hint_text(hint)
                .desired_width(260.0);
            let response = ui.add(field).on_hover_text(t!("gen-prompt-tip"));
            let enter = response.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            ui.label(t!("gen-tokens"));
            let most = max_len.saturating_sub(self.prompt.chars().count().max(1)).max(1);
            let wanted = self.tokens.max(1);
            let mut shown = wanted;
            if ui.add(Bounded::new(&mut shown, 1..=4096)).on_hover_text(t!("gen-tokens-tip", most = most, max_len = max_len)).changed() {
                self.tokens = shown;
            }
            let label = if waiting { t!("gen-writing") } else { t!("gen-write") };
            let clicked = ui
                .add_enabled(!waiting, egui::Button::new(label))
                .on_hover_text(t!("gen-write-tip"))
                .clicked();
            if (clicked || enter) && !waiting {
                self.sent_prompt = Some(self.prompt.clone());
                actions.push(AppAction::Generate { prompt: self.prompt.clone(), tokens: self.tokens.min(most) });
            }
            if waiting {
                ui.spinner();
            }
        });
        // Under the row, so the Write button stays where it is.
        let most = max_len.saturating_sub(self.prompt.chars().count().max(1)).max(1);
        if self.tokens > most {
            ui.weak(t!("gen-tokens-capped", most = most, max_len = max_len));
        }
        if let Some(error) = error.filter(|_| self.sent_prompt.as_deref().is_none_or(|p| p == self.prompt)) {
            ui.colored_label(ui.visuals().error_fg_color, error);
        }
        let Some(report) = report else {
            ui.weak(t!("gen-empty"));
            return;
        };
        ui.separator();
        summary_ui(ui, report);
        ui.columns(2, |columns| {
            written_ui(&mut columns[0], &t!("gen-without"), &report.prompt_text, Some(&report.uncached), None);
            written_ui(&mut columns[1], &t!("gen-with"), &report.prompt_text, report.cached.as_ref(), report.no_cache_reason.as_deref());
        });
        timing_plot(ui, report);
    }
}

/// One line that says whether the texts match, the speed-up and the cache's size.
fn summary_ui(ui: &mut egui::Ui, report: &GenerationReport) {
    let Some(cached) = &report.cached else {
        ui.label(t!("gen-no-cache", step = report.step));
        return;
    };
    let same = match report.mismatches {
        Some(0) => t!("gen-same"),
        Some(n) => t!("gen-different", count = n),
        None => "—".to_string(),
    };
    ui.label(t!(
        "gen-summary",
        step = report.step,
        same = same,
        without = format!("{:.2}", report.uncached.mean_ms),
        with = format!("{:.2}", cached.mean_ms),
        speedup = format!("{:.1}", report.uncached.mean_ms / cached.mean_ms),
        bytes = readable_bytes(report.cache_bytes),
    ));
}

/// One decoder's text (the prompt dimmed) and its time per token.
fn written_ui(ui: &mut egui::Ui, title: &str, prompt: &str, written: Option<&WrittenText>, missing: Option<&str>) {
    ui.strong(title);
    let Some(written) = written else {
        ui.label(missing.map_or_else(|| t!("gen-not-run"), str::to_string));
        return;
    };
    let mut job = egui::text::LayoutJob::default();
    let font = egui::TextStyle::Monospace.resolve(ui.style());
    job.append(prompt, 0.0, egui::TextFormat::simple(font.clone(), ui.visuals().weak_text_color()));
    job.append(&written.text, 0.0, egui::TextFormat::simple(font, ui.visuals().strong_text_color()));
    job.wrap.max_width = ui.available_width();
    ui.label(job);
    let total: f64 = written.ms_per_token.iter().sum();
    ui.label(t!("gen-timing", count = written.tokens.len(), total = if total < 10.0 { format!("{total:.2}") } else { format!("{total:.0}") }, mean = format!("{:.2}", written.mean_ms)));
}

/// Milliseconds of each new token against its position, both decoders.
fn timing_plot(ui: &mut egui::Ui, report: &GenerationReport) {
    let points = |w: &WrittenText| -> PlotPoints {
        w.ms_per_token.iter().enumerate().map(|(i, ms)| [(report.prompt.len() + i + 1) as f64, *ms]).collect()
    };
    Plot::new("generation_timing")
        .height(220.0)
        .legend(super::chart_axes::legend().position(Corner::LeftTop))
        .x_axis_label(t!("gen-axis-x"))
        .y_axis_label(t!("gen-axis-y"))
        .allow_scroll(false)
        .show(ui, |plot| {
            plot.line(Line::new(t!("gen-line-without"), points(&report.uncached)));
            if let Some(cached) = &report.cached {
                plot.line(Line::new(t!("gen-line-with"), points(cached)));
            }
        });
}

fn readable_bytes(bytes: usize) -> String {
    match bytes {
        b if b >= 1 << 20 => format!("{:.1} MiB", b as f64 / (1 << 20) as f64),
        b if b >= 1 << 10 => format!("{:.1} KiB", b as f64 / 1024.0),
        b => format!("{b} bytes"),
    }
}

impl super::Panel for GenerationPanel {
    fn show(&mut self, ui: &mut egui::Ui, data: &mut WindowData<'_>, actions: &mut Vec<AppAction>) {
        let model = (data.applied.model.max_len, data.applied.model.family.is_seq2seq());
        egui::ScrollArea::vertical().show(ui, |ui| self.ui(ui, data.view, model, actions));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_read_in_the_largest_whole_unit() {
        assert_eq!(readable_bytes(512), "512 bytes");
        assert_eq!(readable_bytes(2048), "2.0 KiB");
        assert_eq!(readable_bytes(3 << 20), "3.0 MiB");
    }
}

//! Generate (lesson 12): the model writes from a prompt one token at a time,
//! once re-reading the whole text for every token and once with a KV cache; the
//! two texts and their timings sit side by side, with each token's cost plotted
//! against its position (the uncached line climbs, the cached one stays flat).

use eframe::egui;
use egui_plot::{Corner, Legend, Line, Plot, PlotPoints};

use crate::app::actions::AppAction;
use crate::app::run_view::RunView;
use crate::training::{GenerationReport, WrittenText};

/// The request being typed: the prompt and how many tokens to write.
pub struct GenerationPanel {
    pub prompt: String,
    pub tokens: usize,
}

impl Default for GenerationPanel {
    fn default() -> Self {
        Self { prompt: String::new(), tokens: 100 }
    }
}

impl GenerationPanel {
    /// `max_len` bounds prompt plus new tokens.
    pub fn ui(&mut self, ui: &mut egui::Ui, view: &RunView, max_len: usize, actions: &mut Vec<AppAction>) {
        let (report, error, waiting) = (view.generated.as_ref(), view.generation_error.as_deref(), view.generating);
        ui.heading("Writing from a prompt");
        ui.label(
            "The model writes after your prompt one token at a time, always taking its most likely next token. \
             It writes twice: once running the whole text so far through the model for every new token, \
             and once keeping each layer's keys and values (the KV cache) so only the new token is computed.",
        );
        ui.horizontal(|ui| {
            ui.label("Prompt");
            let field = egui::TextEdit::singleline(&mut self.prompt)
                .hint_text("text to continue")
                .desired_width(260.0);
            let response = ui.add(field).on_hover_text("Characters for a character model, space-separated tokens otherwise");
            let enter = response.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            ui.label("New tokens");
            let most = max_len.saturating_sub(self.prompt.chars().count().max(1)).max(1);
            self.tokens = self.tokens.clamp(1, most);
            ui.add(egui::DragValue::new(&mut self.tokens).range(1..=most))
                .on_hover_text(format!("At most {most}: prompt and new tokens must fit the model's max_len ({max_len})"));
            let label = if waiting { "Writing…" } else { "Write" };
            let clicked = ui
                .add_enabled(!waiting, egui::Button::new(label))
                .on_hover_text("Write with and without the cache and time every token")
                .clicked();
            if (clicked || enter) && !waiting {
                                actions.push(AppAction::Generate { prompt: self.prompt.clone(), tokens: self.tokens });
            }
            if waiting {
                ui.spinner();
            }
        });
        if let Some(error) = error {
            ui.colored_label(ui.visuals().error_fg_color, error);
        }
        let Some(report) = report else {
            ui.weak("Type a prompt and press Write. Train the model first, or it writes noise (the timings hold either way).");
            return;
        };
        ui.separator();
        summary_ui(ui, report);
        ui.columns(2, |columns| {
            written_ui(&mut columns[0], "Without cache", &report.prompt_text, Some(&report.uncached), None);
            written_ui(&mut columns[1], "With KV cache", &report.prompt_text, report.cached.as_ref(), report.no_cache_reason.as_deref());
        });
        timing_plot(ui, report);
    }
}

/// One line that says whether the texts match, the speed-up and the cache's size.
fn summary_ui(ui: &mut egui::Ui, report: &GenerationReport) {
    let Some(cached) = &report.cached else {
        ui.label(format!("At step {}: no cache for this model.", report.step));
        return;
    };
    let same = match report.mismatches {
        Some(0) => "the same tokens".to_string(),
        Some(n) => format!("{n} different tokens"),
        None => "—".to_string(),
    };
    ui.label(format!(
        "At step {}: {same}; {:.2} ms per token without the cache, {:.2} ms with it ({:.1}× faster). \
         The cache held {} of keys and values.",
        report.step,
        report.uncached.mean_ms,
        cached.mean_ms,
        report.uncached.mean_ms / cached.mean_ms,
        readable_bytes(report.cache_bytes),
    ));
}

/// One decoder's text (the prompt dimmed) and its time per token.
fn written_ui(ui: &mut egui::Ui, title: &str, prompt: &str, written: Option<&WrittenText>, missing: Option<&str>) {
    ui.strong(title);
    let Some(written) = written else {
        ui.label(missing.unwrap_or("not run"));
        return;
    };
    let mut job = egui::text::LayoutJob::default();
    let font = egui::TextStyle::Monospace.resolve(ui.style());
    job.append(prompt, 0.0, egui::TextFormat::simple(font.clone(), ui.visuals().weak_text_color()));
    job.append(&written.text, 0.0, egui::TextFormat::simple(font, ui.visuals().strong_text_color()));
    job.wrap.max_width = ui.available_width();
    ui.label(job);
    let total: f64 = written.ms_per_token.iter().sum();
    ui.label(format!("{} tokens in {total:.0} ms: {:.2} ms per token", written.tokens.len(), written.mean_ms));
}

/// Milliseconds of each new token against its position, both decoders.
fn timing_plot(ui: &mut egui::Ui, report: &GenerationReport) {
    let points = |w: &WrittenText| -> PlotPoints {
        w.ms_per_token.iter().enumerate().map(|(i, ms)| [(report.prompt.len() + i + 1) as f64, *ms]).collect()
    };
    Plot::new("generation_timing")
        .height(220.0)
        .legend(Legend::default().position(Corner::LeftTop))
        .x_axis_label("length of the text so far")
        .y_axis_label("ms for this token")
        .allow_scroll(false)
        .show(ui, |plot| {
            plot.line(Line::new("without cache", points(&report.uncached)));
            if let Some(cached) = &report.cached {
                plot.line(Line::new("with KV cache", points(cached)));
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

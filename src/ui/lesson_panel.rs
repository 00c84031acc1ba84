//! The lesson panel: the lesson list with progress, the lesson's Markdown with its
//! `try` buttons, live `check`s and `claim`s, previous / next.

use eframe::egui;

use crate::workbench::window::WindowData;
use egui_commonmark::{CommonMarkCache, CommonMarkViewer};

use crate::workbench::actions::AppAction;
use crate::workbench::lesson_runner::ClaimState;
use crate::lessons::Segment;
use crate::t;

/// The lesson panel, with the rendered Markdown kept between frames.
#[derive(Default)]
pub struct LessonPanel {
    markdown: CommonMarkCache,
    /// The reader's place, kept across a language switch.
    scroll_anchor: super::scroll_anchor::ScrollAnchor,
}

impl super::Panel for LessonPanel {
    fn show(&mut self, ui: &mut egui::Ui, data: &mut WindowData<'_>, actions: &mut Vec<AppAction>) {
        let facts = crate::workbench::window::live_facts(data.view, data.applied, data.background);
        let sweeping_tab = data.background.sweeping_tab();
        let sweeping_tab = sweeping_tab.as_deref();
        let (runner, presenter) = (data.lessons, data.presenter);
        let state = &mut *data.state;
        let (progress, student, facts) = (&state.progress, &mut state.student_name, &facts);
        let (cache, anchor) = (&mut self.markdown, &mut self.scroll_anchor);
        let heading = ui.horizontal(|ui| {
            let heading = ui.heading(t!("lesson-heading"));
            if ui.button(t!("lesson-open-pack")).on_hover_text(t!("lesson-open-pack-tip")).clicked() {
                actions.push(AppAction::OpenLessonPack);
            }
            heading.id
        });
        let heading = heading.inner;
        // Numbered within its pack ("3. Why √d_k"), as the lessons refer to each other.
        let number = |i: usize| {
            let pack = runner.lesson_pack.get(i).copied().unwrap_or(0);
            runner.lesson_pack[..i].iter().filter(|p| **p == pack).count() + 1
        };
        let label = |i: usize| match &runner.lessons[i] {
            Ok(l) => {
                let total = l.checks().count();
                let done = l.checks().filter(|c| progress.check_passed(&l.id, &c.id)).count();
                let tick = if total > 0 && done == total { "✔" } else { " " };
                format!("{tick} {}. {} ({done}/{total})", number(i), l.title)
            }
            Err(e) => format!("⚠ {}. {}", number(i), e.file),
        };
        ui.horizontal(|ui| {
            if ui.add_enabled(runner.current > 0, egui::Button::new("◀")).on_hover_text(t!("lesson-previous")).clicked() {
                actions.push(AppAction::OpenLesson(runner.current - 1));
            }
            // Truncated to the panel: a tick appearing in the title ("✓ 1. …") must not
            // widen the panel and move the boundary with the centre.
            let current = if runner.lessons.is_empty() { t!("lesson-no-lessons") } else { label(runner.current) };
            let width = ui.available_width() - 40.0;
            let height = ui.spacing().interact_size.y;
            ui.allocate_ui_with_layout(egui::vec2(width, height), egui::Layout::left_to_right(egui::Align::Center), |ui| {
            egui::ComboBox::from_id_salt("lesson_list")
                .width(width)
                .truncate()
                .selected_text(current.clone())
                .show_ui(ui, |ui| {
                    for i in 0..runner.lessons.len() {
                        // Each pack's lessons under the pack's title.
                        let pack = runner.lesson_pack.get(i).copied().unwrap_or(0);
                        if runner.packs.len() > 1 && (i == 0 || runner.lesson_pack.get(i - 1) != Some(&pack)) {
                            if i > 0 {
                                ui.separator();
                            }
                            ui.strong(runner.packs.get(pack).map_or("", |p| p.title.as_str()));
                        }
                        if ui.selectable_label(i == runner.current, label(i)).clicked() {
                            actions.push(AppAction::OpenLesson(i));
                        }
                    }
                })
                .response
                .labelled_by(heading)
                // Built only while hovered, not on every frame.
                .on_hover_ui(|ui| {
                    ui.label(current);
                    ui.add_space(6.0);
                    ui.label(t!("lesson-list-count-tip"));
                });
            });
            if ui.add_enabled(runner.current + 1 < runner.lessons.len(), egui::Button::new("▶")).on_hover_text(t!("lesson-next")).clicked() {
                actions.push(AppAction::OpenLesson(runner.current + 1));
            }
        });
        if let Some(error) = runner.error() {
            ui.colored_label(ui.visuals().error_fg_color, t!("lesson-unreadable", error = error.to_string()));
            return;
        }
        let Some(lesson) = runner.lesson() else {
            ui.label(t!("lesson-none-loaded"));
            return;
        };
        ui.weak(t!("lesson-summary", summary = lesson.summary.as_str(), minutes = lesson.minutes));
        // The text describes the lesson's own model: when another is on screen, the
        // load button stands out and one line says so (the reason on hover).
        let loaded = runner.runs_this_lesson();
        // Wrapped, as the export row below: a row wider than the panel would push
        // the panel's edge over the central view.
        ui.horizontal_wrapped(|ui| {
            let load = egui::Button::new(t!("lesson-load-start"));
            let load = if loaded { load } else { load.stroke(egui::Stroke::new(1.5, ui.visuals().warn_fg_color)) };
            if ui.add(load).on_hover_text(t!("lesson-load-start-tip")).clicked() {
                actions.push(AppAction::LoadLessonStart);
            }
            if runner.saved_experiment.is_some() && ui.button(t!("lesson-restore")).clicked() {
                actions.push(AppAction::RestoreExperiment);
            }
            if ui.button(t!("menu-glossary")).on_hover_text(t!("lesson-glossary-tip")).clicked() {
                actions.push(AppAction::ShowGlossary);
            }
        });
        if !lesson.locks.is_empty() {
            let active = runner.active_locks().is_some();
            let text = t!("lesson-locks", knobs = crate::lessons::knob_names(&lesson.locks.knobs), reason = lesson.locks.reason.as_str());
            let label = ui.label(format!("🔒 {text}"));
            label.on_hover_text(if active { t!("lesson-locks-active-tip") } else { t!("lesson-locks-idle-tip") });
        }
        if !loaded {
            ui.colored_label(ui.visuals().warn_fg_color, t!("lesson-not-loaded"))
                .on_hover_text(t!("lesson-not-loaded-tip"));
        }
        // On the projector the class sees the lesson, not one student's name field.
        if !presenter {
            export_row(ui, student, actions);
        }
        ui.separator();
        // One scroll position per lesson: the next lesson opens at its top. A
        // language switch keeps the reader's place (`scroll_anchor`).
        let mut area = egui::ScrollArea::vertical().id_salt(("lesson_body", &lesson.id));
        if let Some(offset) = anchor.begin(&lesson.id, &lesson.title) {
            area = area.vertical_scroll_offset(offset);
        }
        let body = area.show(ui, |ui| {
            // Everything wraps at the panel's width, code lines too: a wide line would
            // otherwise widen the panel for good (lesson 08's code).
            ui.set_max_width(ui.available_width());
            ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Wrap);
            let content_top = ui.min_rect().top();
            let mut tops = anchor.reuse_tops();
            for segment in &lesson.body {
                tops.push(ui.cursor().min.y - content_top);
                match segment {
                    Segment::Markdown(text) => {
                        CommonMarkViewer::new().show(ui, cache, text);
                    }
                    Segment::Try(block) => {
                        ui.add_space(4.0);
                        let tip = match block.steps {
                            Some(steps) => t!("lesson-try-tip-steps", steps = steps),
                            None => t!("lesson-try-tip"),
                        };
                        if ui.button(t!("lesson-try", label = block.label.as_str())).on_hover_text(tip).clicked() {
                            actions.push(AppAction::LessonTry(block.line));
                        }
                        if let Some(((id, line), diff)) = &runner.last_diff
                            && *id == lesson.id
                            && *line == block.line
                        {
                            let text = if diff.is_empty() { t!("lesson-try-unchanged") } else { diff.join("\n") };
                            ui.weak(t!("lesson-try-changed", text = text));
                        }
                    }
                    Segment::Check(block) => {
                        ui.add_space(4.0);
                        let done = progress.check_passed(&lesson.id, &block.id);
                        // Wrapped: a long label flows onto a second line and the button
                        // follows it, rather than being squeezed to one letter a line.
                        ui.horizontal_wrapped(|ui| {
                            if done {
                                ui.colored_label(egui::Color32::from_rgb(90, 200, 120), format!("✔ {}", block.label));
                            } else {
                                ui.label(format!("☐ {}", block.label));
                                if ui.small_button(t!("lesson-check-now")).clicked() {
                                    actions.push(AppAction::LessonCheck(block.id.clone()));
                                }
                            }
                        })
                        .response
                        .on_hover_text(t!("lesson-check-tip", condition = block.condition.text.as_str()));
                        let now = block.condition.evaluate(facts);
                        let other_task = facts.task.filter(|t| *t != block.task);
                        if let (false, true, Some(now)) = (done, runner.runs_this_lesson(), other_task) {
                            ui.weak(t!("lesson-check-other-task", task = block.task.label(), now = now.label()));
                        } else if !done && runner.runs_this_lesson() {
                            ui.weak(t!("lesson-check-waiting", condition = block.condition.waiting_for(facts)));
                        } else if !done {
                            ui.weak(t!("lesson-check-own-runs"));
                        }
                        if !done && runner.hints_shown.contains(&(lesson.id.clone(), block.id.clone())) && now != Some(true) {
                            ui.colored_label(ui.visuals().warn_fg_color, t!("lesson-check-hint", hint = block.hint.as_str()));
                        }
                    }
                    Segment::Answer(block) => {
                        ui.add_space(4.0);
                        if presenter {
                            // The room sees that there is an answer, never the answer itself.
                            ui.weak(t!("lesson-answer-hidden-presenter"));
                        } else if progress.answer_revealed(&lesson.id, &block.id) {
                            egui::Frame::group(ui.style()).show(ui, |ui| {
                                ui.strong(t!("lesson-answer"));
                                CommonMarkViewer::new().show(ui, cache, &block.text);
                            });
                        } else if ui.button(t!("lesson-show-answer")).on_hover_text(t!("lesson-show-answer-tip")).clicked() {
                            actions.push(AppAction::RevealAnswer(block.id.clone()));
                        }
                    }
                    Segment::Claim(block) => {
                        ui.add_space(4.0);
                        egui::Frame::group(ui.style()).show(ui, |ui| {
                            ui.strong(t!("lesson-claim"));
                            ui.label(&block.claim.statement);
                            // What a and b are, in the editor's words, before any verdict.
                            if let Some((a, b)) = &block.sides {
                                ui.weak(t!("lesson-claim-sides", a = a, b = b));
                            }
                            let key = (lesson.id.clone(), block.id.clone());
                            match runner.claims.get(&key) {
                                None => verify_button(ui, runner, sweeping_tab, &block.id, false, actions),
                                Some(ClaimState::Running { seeds, progress, cancelling }) => {
                                    ui.horizontal(|ui| {
                                        // No spinner: its animation repaints every frame, and where
                                        // the window is drawn in software that takes the cores the
                                        // claim is timing. The bar moves with each progress report.
                                        ui.label(t!("lesson-claim-verifying", seeds = super::number_list(seeds)));
                                        super::top_bar::cancel_claim_button(ui, *cancelling, actions);
                                    });
                                    ui.add(super::progress_bar(progress.fraction()).text(super::top_bar::claim_steps_text(progress)));
                                }
                                Some(ClaimState::Done(results)) => {
                                    let seeds: Vec<u64> = results.iter().map(|r| r.seed).collect();
                                    let failing: Vec<u64> = results.iter().filter(|r| !r.passed).map(|r| r.seed).collect();
                                    if failing.is_empty() {
                                        ui.label(t!("lesson-claim-holds", seeds = super::number_list(&seeds)));
                                    } else {
                                        ui.label(t!("lesson-claim-fails", failing = super::number_list(&failing), seeds = super::number_list(&seeds)));
                                    }
                                    // Beside its verdict, not under the list of conditions.
                                    verify_button(ui, runner, sweeping_tab, &block.id, true, actions);
                                    ui.weak(if block.claim.sides().len() == 1 { t!("lesson-claim-side-note") } else { t!("lesson-claim-sides-note") });
                                    if let Some(first) = results.first() {
                                        claim_curves_ui(ui, first);
                                        if let (Some(a), Some(b)) = (first.maps.get("a"), first.maps.get("b")) {
                                            egui::CollapsingHeader::new(t!("lesson-claim-maps", seed = first.seed))
                                                .id_salt(("claim_maps", first.statement.as_str()))
                                                .show(ui, |ui| super::ab_maps::ab_maps_ui(ui, egui::Id::unique(("claim_maps", first.statement.as_str())), a, b, ["a", "b"]));
                                            // The panel is narrow: the same maps, as large as the grid's, in a window.
                                            let open_id = egui::Id::unique(("claim_maps_window", first.statement.as_str()));
                                            let mut open: bool = ui.data(|d| d.get_temp(open_id)).unwrap_or(false);
                                            if ui.button(t!("lesson-claim-maps-open")).on_hover_text(t!("lesson-claim-maps-open-tip")).clicked() {
                                                open = true;
                                            }
                                            let sides = &block.sides;
                                            egui::Window::new(t!("lesson-claim-maps", seed = first.seed))
                                                .id(open_id.with("window"))
                                                .open(&mut open)
                                                .default_size([960.0, 460.0])
                                                .default_pos([240.0, 140.0])
                                                .show(ui.ctx(), |ui| {
                                                    ui.label(&block.claim.statement);
                                                    if let Some((a_words, b_words)) = sides {
                                                        ui.weak(t!("lesson-claim-sides", a = a_words.as_str(), b = b_words.as_str()));
                                                    }
                                                    super::ab_maps::ab_maps_ui(ui, open_id.with("maps"), a, b, ["a", "b"]);
                                                });
                                            ui.data_mut(|d| d.insert_temp(open_id, open));
                                        }
                                    }
                                    for result in results {
                                        for (side, divergence) in &result.diverged {
                                            ui.weak(t!("lesson-claim-diverged", seed = result.seed, side = side.as_str(), divergence = divergence.to_string()));
                                        }
                                        for c in &result.conditions {
                                            ui.weak(t!("lesson-claim-condition", seed = result.seed, mark = if c.passed { "✔" } else { "✖" }, condition = c.describe()));
                                        }
                                    }
                                }
                                Some(ClaimState::Failed(message)) => {
                                    ui.colored_label(ui.visuals().error_fg_color, message);
                                    verify_button(ui, runner, sweeping_tab, &block.id, true, actions);
                                }
                            }
                        });
                    }
                }
            }
            (tops, content_top)
        });
        // The content's top lies `offset` above the view's while scrolled.
        let (tops, content_top) = body.inner;
        anchor.measured(tops, body.content_size.y, body.inner_rect.top() - content_top);
        if anchor.waiting() {
            ui.ctx().request_repaint();
        }
    }
}

/// *Verify it* for the claim `id`, or *Verify again* once it has a verdict;
/// disabled while another verification runs, or a sweep measures (in the tab
/// `sweeping_tab`): two measurements at once would share the cores.
fn verify_button(ui: &mut egui::Ui, runner: &crate::workbench::lesson_runner::LessonRunner, sweeping_tab: Option<&str>, id: &str, again: bool, actions: &mut Vec<AppAction>) {
    let seeds = super::number_list(&crate::lessons::DEFAULT_SEEDS);
    let label = if again { t!("lesson-claim-verify-again", seeds = seeds.as_str()) } else { t!("lesson-claim-verify", seeds = seeds.as_str()) };
    let verify = ui.add_enabled(!runner.claim_running() && sweeping_tab.is_none(), egui::Button::new(label));
    let why_not = match sweeping_tab {
        Some(tab) => t!("lesson-claim-wait-sweep", tab = tab),
        None => t!("lesson-claim-one-at-a-time"),
    };
    let verify = verify.on_hover_text(t!("lesson-claim-verify-tip", seeds = seeds.as_str())).on_disabled_hover_text(why_not);
    if verify.clicked() {
        actions.push(AppAction::LessonVerifyClaim(id.to_string()));
    }
}

/// "Your name" and "Export my progress…", the button on a line of its own in a
/// narrow panel (content wider than the panel would push its edge over the
/// central view).
fn export_row(ui: &mut egui::Ui, student: &mut String, actions: &mut Vec<AppAction>) {
    ui.horizontal_wrapped(|ui| {
        ui.label(t!("lesson-student-name")).on_hover_text(t!("lesson-student-name-tip"));
        ui.add(egui::TextEdit::singleline(student).desired_width(120.0).hint_text(t!("lesson-student-name-hint")));
        if ui.button(t!("lesson-export-progress")).on_hover_text(t!("lesson-export-progress-tip")).clicked() {
            actions.push(AppAction::ExportProgress);
        }
    });
}

/// Both sides' training-loss curves of one verified seed on one chart, so the claim
/// is seen as an A/B experiment and not only read as a verdict.
fn claim_curves_ui(ui: &mut egui::Ui, result: &crate::experiments::ClaimResult) {
    use egui_plot::{Line, Plot, PlotPoints, VLine};
    if result.curves.values().all(|c| c.len() < 2) {
        return; // one-step claims have no curve to show
    }
    ui.weak(t!("lesson-claim-curves", seed = result.seed));
    Plot::new(("claim_curves", result.statement.as_str()))
        .height(110.0)
        .legend(super::chart_axes::legend())
        .allow_scroll(false)
        .allow_drag(false)
        .allow_zoom(false)
        .x_axis_label(t!("lesson-claim-curves-x"))
        // The loss charts' log axis: round values, labelled even on a chart this short.
        .custom_y_axes(vec![egui_plot::AxisHints::new_y().label_spacing(super::chart_axes::LABEL_FADE)])
        .y_grid_spacer(super::chart_axes::log_marks)
        .y_axis_formatter(super::chart_axes::log_label)
        .show(ui, |plot| {
            for (side, curve) in &result.curves {
                let points: Vec<[f64; 2]> = curve
                    .iter()
                    .enumerate()
                    .filter(|(_, loss)| **loss > 0.0 && loss.is_finite())
                    .map(|(step, loss)| [(step + 1) as f64, (*loss as f64).log10()])
                    .collect();
                plot.line(Line::new(side.as_str(), PlotPoints::from(points)));
            }
            // A claim about a phase change marks where each side's loss fell fastest.
            for (side, _) in &result.curves {
                if let Some(step) = result.measured.get(&format!("{side}.phase_step")).filter(|s| s.is_finite()) {
                    plot.vline(VLine::new(t!("lesson-claim-steepest-fall", side = side.as_str()), *step).style(egui_plot::LineStyle::dashed_loose()));
                }
            }
        });
}

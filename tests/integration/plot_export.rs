//! *Export plots as PNG* writes the charts, not the toolbar above them.

use attention_workbench::workbench::run_view::RunStatus;
use egui_kittest::kittest::{NodeT, Queryable};

use super::window::{harness, small_state, step_until};

#[test]
fn the_plots_export_covers_the_charts_and_not_their_toolbar() {
    let mut harness = harness(small_state());
    step_until(&mut harness, "ready", |app| app.view.status == RunStatus::Ready);
    harness.run_steps(2);
    let region = harness.state().panels.plots_rect.expect("the plots panel is shown");
    let toolbar = harness.get_by_role_and_label(eframe::egui::accesskit::Role::Button, "Pin this run").rect();
    assert!(region.top() >= toolbar.bottom(), "the region {region:?} starts below the toolbar {toolbar:?}");
    for smoothing in harness.get_all_by_label_contains("smoothing") {
        assert!(!region.intersects(smoothing.rect()), "no slider in the picture");
    }
    for title in ["loss", "accuracy"] {
        let chart = harness.get_all_by_label(title).map(|n| n.rect()).find(|r| r.top() > toolbar.bottom()).unwrap_or_else(|| panic!("the {title} chart's title"));
        // Half a point of rounding at the left edge.
        assert!(region.expand(1.0).contains_rect(chart), "{title} at {chart:?} inside {region:?}");
    }
}

#[test]
fn exporting_hidden_plots_says_so_instead_of_writing_what_is_there_now() {
    let mut harness = harness(small_state());
    step_until(&mut harness, "ready", |app| app.view.status == RunStatus::Ready);
    harness.run_steps(2);
    assert!(harness.state().panels.plots_rect.is_some());
    harness.state_mut().state.layout.plots = false;
    harness.run_steps(2);
    harness.state_mut().perform(attention_workbench::workbench::actions::AppAction::ExportPlots);
    harness.run_steps(2);
    let banner = harness.state().view.banner.as_ref().map(|b| b.text.clone());
    assert_eq!(banner.as_deref(), Some("That panel is hidden; show it first (View menu)."));
}

#[test]
fn the_path_field_says_when_a_save_would_replace_something_already_there() {
    use attention_workbench::workbench::PathRequest;
    let dir = tempfile::tempdir().unwrap();
    let older = dir.path().join("plots.png");
    std::fs::write(&older, "an older export").unwrap();
    let mut harness = harness(small_state());
    step_until(&mut harness, "ready", |app| app.view.status == RunStatus::Ready);
    harness.state_mut().window.path_prompt = Some((PathRequest::ExportPlots, dir.path().join("plots-2.png").display().to_string()));
    harness.run_steps(2);
    assert!(harness.query_by_label_contains("already there").is_none(), "a new name replaces nothing");
    harness.state_mut().window.path_prompt = Some((PathRequest::ExportPlots, older.display().to_string()));
    harness.run_steps(2);
    assert!(harness.query_by_label("A file by this name is already there: OK replaces it.").is_some());
    // An open reads the file: nothing to warn about.
    harness.state_mut().window.path_prompt = Some((PathRequest::OpenExperiment, older.display().to_string()));
    harness.run_steps(2);
    assert!(harness.query_by_label_contains("already there").is_none());
    // A run is a folder: onto a file it cannot go, and OK waits for another name.
    harness.state_mut().window.path_prompt = Some((PathRequest::SaveRun, older.display().to_string()));
    harness.run_steps(2);
    assert!(harness.query_by_label_contains("this is saved as a folder: choose another name").is_some());
    assert!(harness.get_by_label("OK").accesskit_node().is_disabled());
    // Into a folder with files in it, it replaces some of them: said before OK.
    harness.state_mut().window.path_prompt = Some((PathRequest::SaveRun, dir.path().display().to_string()));
    harness.run_steps(2);
    assert!(harness.query_by_label_contains("A folder by this name is already there").is_some());
    assert!(!harness.get_by_label("OK").accesskit_node().is_disabled());
}

//! *Export plots as PNG* writes the charts, not the toolbar above them.

use attention_workbench::workbench::run_view::RunStatus;
use egui_kittest::kittest::Queryable;

use super::window::{harness, small_state, step_until};

#[test]
fn the_plots_export_covers_the_charts_and_not_their_toolbar() {
    let mut harness = harness(small_state());
    step_until(&mut harness, "ready", |app| app.view.status == RunStatus::Ready);
    harness.run_steps(2);
    let region = harness.state().panels.plots_rect.expect("the plots panel is shown");
    let toolbar = harness.get_by_label("Pin this run").rect();
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

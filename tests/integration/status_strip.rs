//! The status strip under the top bar keeps its height: a note, a warning or a
//! one-line error appearing or going never moves the views under the pointer.

use attention_workbench::app::WorkbenchApp;
use attention_workbench::workbench::run_view::{Banner, BannerKind, RunStatus};
use egui_kittest::Harness;

use super::window::{harness, small_state, step_until};

fn views_top(harness: &Harness<'static, WorkbenchApp>) -> f32 {
    harness.state().panels.central_rect.expect("the central view was drawn").top()
}

#[test]
fn a_one_line_message_of_any_kind_leaves_the_views_where_they_are() {
    let mut harness = harness(small_state());
    step_until(&mut harness, "ready", |app| app.view.status == RunStatus::Ready);
    harness.run_steps(3);
    let without = views_top(&harness);
    for kind in [BannerKind::Info, BannerKind::Warning, BannerKind::Error] {
        harness.state_mut().view.show_banner(Banner { kind, text: "Short message.".into() });
        harness.run_steps(3);
        assert_eq!(views_top(&harness), without, "with a one-line {kind:?}");
        harness.state_mut().view.banner = None;
        harness.run_steps(3);
        assert_eq!(views_top(&harness), without, "after the {kind:?} went");
    }
}

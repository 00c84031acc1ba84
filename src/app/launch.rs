//! Opening the window: the native options, the saved state read part by part,
//! packs named on the command line, and the start-up hooks.

use eframe::egui;

use crate::workbench::state::{PersistedState, STORAGE_KEY};
use super::{WorkbenchApp, env_hooks, fonts, run_view};

/// Open the window and run until it is closed.
pub fn run(packs: Vec<std::path::PathBuf>) -> eframe::Result<()> {
    // The compute threads training uses yield the processor to the window, like the
    // trainer itself (built here, before anything trains).
    crate::training::priority::build_compute_threads_yielding_to_window();
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Attention Workbench")
            .with_inner_size([1440.0, 900.0])
            .with_min_inner_size([900.0, 600.0]),
        ..Default::default()
    };
    eframe::run_native(
        "Attention Workbench",
        options,
        Box::new(|cc| {
            fonts::install_fonts(&cc.egui_ctx);
            let stored = cc.storage.and_then(|s| s.get_string(STORAGE_KEY)).map(|s| PersistedState::from_stored_keeping(&s));
            let (stored, dropped) = stored.unwrap_or_default();
            let mut app = WorkbenchApp::new(cc.egui_ctx.clone(), stored);
            if !dropped.is_empty() {
                let text = crate::t!("msg-state-dropped", parts = dropped.join(", "));
                app.view.show_banner(run_view::Banner { kind: run_view::BannerKind::Warning, text });
            }
            app.open_packs(&packs);
            env_hooks::apply(&mut app);
            Ok(Box::new(app))
        }),
    )
}

//! Where `init_from` points: a shipped model or a run folder (plain paths, so the
//! editor can check the knob as it is typed; reading the weights is the trainer's).

use std::path::{Path, PathBuf};

use crate::t;

/// The file every run folder has (see `runs`).
const CONFIG_FILE: &str = "config.json";

/// Names of the models shipped in `assets/pretrained/`, as `init_from` takes them.
pub const SHIPPED_MODELS: [&str; 2] = ["pretrained/english", "pretrained/chinese"];

/// The run folder `init_from` names: `pretrained/<name>` for a shipped model
/// (looked up in the project's `assets/pretrained/`, then under the working
/// folder), anything else a path. The error says what to give instead.
pub fn resolve_init_from(from: &str) -> Result<PathBuf, String> {
    if from.starts_with("pretrained/") {
        if !SHIPPED_MODELS.contains(&from) {
            return Err(t!("msg-init-no-shipped-model", from = from, first = SHIPPED_MODELS[0], second = SHIPPED_MODELS[1]));
        }
        let name = &from["pretrained/".len()..];
        // The project the binary was built from, the working folder, then the
        // program's own folder and those above it (`target/release/` sits two
        // below the project's `assets/`), so a copied or moved build still finds them.
        let beside_program = std::env::current_exe().ok().map(|exe| exe.ancestors().skip(1).take(4).map(Path::to_path_buf).collect::<Vec<_>>()).unwrap_or_default();
        let roots = [PathBuf::from(env!("CARGO_MANIFEST_DIR")), PathBuf::new()].into_iter().chain(beside_program);
        let mut candidates = roots.map(|root| root.join("assets/pretrained").join(name));
        return candidates.find(|dir| dir.join(CONFIG_FILE).is_file()).ok_or_else(|| {
            t!("msg-init-shipped-missing", from = from, name = name)
        });
    }
    let dir = PathBuf::from(from);
    if !dir.join(CONFIG_FILE).is_file() {
        return Err(t!(
            "msg-init-not-run-folder",
            dir = dir.display().to_string(),
            file = CONFIG_FILE,
            first = SHIPPED_MODELS[0],
            second = SHIPPED_MODELS[1]
        ));
    }
    Ok(dir)
}


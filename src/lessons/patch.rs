//! Config changes written as knob paths, the way lessons and teachers write them:
//! `"model.positional" = "none"`, `"model.layers[*].mask" = "bidirectional"`,
//! `"model.layers[1].heads" = 1`, `"task.kind" = "copy"`.
//! The change goes through the config's JSON form, so every knob is reachable and
//! a wrong path or value is an error that names the knob.

use std::collections::BTreeMap;

use crate::config::ExperimentConfig;

/// Knob path → new value, in the order written.
pub type Settings = BTreeMap<String, toml::Value>;

/// The one setting that is not a field: how many layers the stack has
/// (extra layers copy the last one).
pub const LAYER_COUNT: &str = "model.layer_count";

/// Apply `settings` to a copy of `config`. `model.layer_count` is applied first, so
/// `model.layers[*]...` settings reach the new layers too.
pub fn apply(config: &ExperimentConfig, settings: &Settings) -> Result<ExperimentConfig, String> {
    let mut config = config.clone();
    if let Some(count) = settings.get(LAYER_COUNT) {
        let count = count
            .as_integer()
            .filter(|n| (1..=64).contains(n))
            .ok_or_else(|| format!("{LAYER_COUNT}: expected a whole number of layers from 1 to 64, got {count}"))? as usize;
        let last = config.model.layers.last().cloned().unwrap_or_default();
        config.model.layers.resize(count, last);
    }
    let config = &config;
    let mut json = serde_json::to_value(config).expect("config serialises");
    for (path, value) in settings.iter().filter(|(k, _)| k.as_str() != LAYER_COUNT) {
        let value = serde_json::to_value(value).map_err(|e| format!("{path}: {e}"))?;
        set(&mut json, path, &value, path)?;
    }
    let changed: ExperimentConfig = crate::runs::parse_json(&json.to_string())?;
    // A task change brings that task's own sizes unless they were set too.
    let mut changed = changed;
    // TOML has no null: `"init_from" = ""` means random weights.
    if changed.init_from.as_deref() == Some("") {
        changed.init_from = None;
    }
    if settings.contains_key("task.kind") && changed.task.kind != config.task.kind {
        let kind = changed.task.kind;
        let mut task = crate::tasks::TaskConfig::for_kind(kind);
        for key in ["length", "symbols", "corpus"] {
            if settings.contains_key(&format!("task.{key}")) {
                match key {
                    "length" => task.length = changed.task.length,
                    "symbols" => task.symbols = changed.task.symbols,
                    _ => task.corpus = changed.task.corpus.clone(),
                }
            }
        }
        changed.task = task;
    }
    Ok(changed)
}

fn set(node: &mut serde_json::Value, path: &str, value: &serde_json::Value, full: &str) -> Result<(), String> {
    let (head, rest) = match path.split_once('.') {
        Some((head, rest)) => (head, Some(rest)),
        None => (path, None),
    };
    let (name, index) = match head.split_once('[') {
        Some((name, index)) => (name, Some(index.trim_end_matches(']'))),
        None => (head, None),
    };
    let object = node.as_object_mut().ok_or_else(|| format!("{full}: \"{name}\" is not a group of knobs"))?;
    if !object.contains_key(name) {
        let known: Vec<&str> = object.keys().map(String::as_str).collect();
        return Err(format!("{full}: no knob \"{name}\" here; known: {}", known.join(", ")));
    }
    let child = object.get_mut(name).expect("checked above");
    let targets: Vec<&mut serde_json::Value> = match index {
        None => vec![child],
        Some(index) => {
            let array = child.as_array_mut().ok_or_else(|| format!("{full}: \"{name}\" is not a list"))?;
            if index == "*" {
                array.iter_mut().collect()
            } else {
                let i: usize = index.parse().map_err(|_| format!("{full}: \"[{index}]\" must be a number or *"))?;
                let len = array.len();
                vec![array.get_mut(i).ok_or_else(|| format!("{full}: index {i} is out of range (there are {len})"))?]
            }
        }
    };
    for target in targets {
        match rest {
            Some(rest) => set(target, rest, value, full)?,
            None => *target = value.clone(),
        }
    }
    Ok(())
}

/// What changed between two configs, as `knob: old → new` lines in the
/// interface's words (for the "what this button did" note).
pub fn diff(before: &ExperimentConfig, after: &ExperimentConfig) -> Vec<String> {
    changes(before, after)
        .into_iter()
        .map(|(path, old, new)| match path.as_str() {
            "model.layers" => crate::t!("change-layer-count", old = old, new = new),
            "model.encoder_layers" => crate::t!("change-encoder-layer-count", old = old, new = new),
            _ => super::change_labels::describe(&path, &old, &new),
        })
        .collect()
}

/// Two sides of a claim in words, each by the knobs where they differ: ("Layer 0 ·
/// kind: softmax", "Layer 0 · kind: uniform average"); empty when they do not.
pub fn sides(a: &ExperimentConfig, b: &ExperimentConfig) -> (String, String) {
    let changed = every_layer_once(changes(a, b), a.model.layers.len());
    let side = |pick: fn(&(String, String, String)) -> &String| {
        changed.iter().map(|c| super::change_labels::setting(&c.0, pick(c))).collect::<Vec<_>>().join("; ")
    };
    (side(|c| &c.1), side(|c| &c.2))
}

/// The two sides of a claim by what differs: config knobs, else how each trains
/// (threads, seed, steps). None for a one-sided claim.
pub fn claim_sides(claim: &crate::experiments::Claim) -> Option<(String, String)> {
    let b = claim.b.as_ref()?;
    let (mut a_words, mut b_words) = sides(&claim.a, b);
    let runs = [(&claim.run_a, &mut a_words), (&claim.run_b, &mut b_words)];
    let differs = (claim.run_a.threads != claim.run_b.threads, claim.run_a.seed_offset != claim.run_b.seed_offset, claim.run_a.steps != claim.run_b.steps);
    for (run, words) in runs {
        let mut extra = Vec::new();
        if differs.0 {
            extra.push(crate::t!("lesson-claim-side-threads", threads = run.threads.map_or_else(|| crate::t!("lesson-claim-side-default"), |n| n.to_string())));
        }
        if differs.1 {
            extra.push(crate::t!("lesson-claim-side-seed", offset = run.seed_offset));
        }
        if differs.2 {
            extra.push(crate::t!("lesson-claim-side-steps", steps = run.steps.unwrap_or(claim.steps)));
        }
        if !extra.is_empty() {
            let joined = extra.join("; ");
            *words = if words.is_empty() { joined } else { format!("{words}; {joined}") };
        }
    }
    (!a_words.is_empty()).then_some((a_words, b_words))
}

/// The same change in every layer, said once: `model.layers[*].kind` for
/// `model.layers[0].kind` and `model.layers[1].kind` alike.
fn every_layer_once(changes: Vec<(String, String, String)>, layers: usize) -> Vec<(String, String, String)> {
    let layer_knob = |path: &str| path.strip_prefix("model.layers[").and_then(|r| r.split_once("].")).map(|(_, knob)| knob.to_string());
    let mut out: Vec<(String, String, String)> = Vec::new();
    for (path, old, new) in &changes {
        let Some(knob) = layer_knob(path) else {
            out.push((path.clone(), old.clone(), new.clone()));
            continue;
        };
        let same = changes.iter().filter(|(p, o, n)| layer_knob(p).as_deref() == Some(knob.as_str()) && o == old && n == new).count();
        let star = format!("model.layers[*].{knob}");
        if layers > 1 && same == layers {
            if !out.iter().any(|(p, _, _)| *p == star) {
                out.push((star, old.clone(), new.clone()));
            }
        } else {
            out.push((path.clone(), old.clone(), new.clone()));
        }
    }
    out
}

/// Every knob whose value differs: (path, old JSON, new JSON); a list of another
/// length is one change of its length.
fn changes(before: &ExperimentConfig, after: &ExperimentConfig) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    let a = serde_json::to_value(before).expect("serialises");
    let b = serde_json::to_value(after).expect("serialises");
    walk("", &a, &b, &mut out);
    out
}

fn walk(path: &str, a: &serde_json::Value, b: &serde_json::Value, out: &mut Vec<(String, String, String)>) {
    use serde_json::Value;
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (key, va) in x {
                let sub = if path.is_empty() { key.clone() } else { format!("{path}.{key}") };
                match y.get(key) {
                    Some(vb) => walk(&sub, va, vb, out),
                    None => out.push((sub, va.to_string(), "null".into())),
                }
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (va, vb)) in x.iter().zip(y).enumerate() {
                walk(&format!("{path}[{i}]"), va, vb, out);
            }
        }
        (Value::Array(x), Value::Array(y)) if path == "model.layers" || path == "model.encoder_layers" => {
            out.push((path.to_string(), x.len().to_string(), y.len().to_string()))
        }
        _ if a != b => out.push((path.to_string(), a.to_string(), b.to_string())),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{MaskKind, PositionalEncoding, preset};

    fn settings(pairs: &[(&str, toml::Value)]) -> Settings {
        pairs.iter().map(|(k, v)| (k.to_string(), v.clone())).collect()
    }

    #[test]
    fn a_claims_sides_read_as_what_differs_said_once_for_every_layer() {
        crate::i18n::set_lang(crate::i18n::Lang::En);
        let a = preset("lesson").unwrap();
        let b = apply(&a, &settings(&[("model.layers[*].attention_kind", "uniform_average".into())])).unwrap();
        assert_eq!(sides(&a, &b), ("every layer · kind: softmax".to_string(), "every layer · kind: uniform average".to_string()));
        let one = apply(&a, &settings(&[("model.layers[1].heads", 1.into())])).unwrap();
        assert_eq!(sides(&a, &one), ("Layer 1 · heads: 4".to_string(), "Layer 1 · heads: 1".to_string()));
        // A side trained for one step reads as such (lesson 02's first claim), not "1 steps".
        let counts = [1usize, 300].map(|steps| crate::t!("lesson-claim-side-steps", steps = steps));
        assert_eq!(counts, ["one step".to_string(), "300 steps".to_string()]);
    }

    #[test]
    fn paths_reach_every_layer_or_one() {
        let config = preset("lesson").unwrap();
        let changed = apply(&config, &settings(&[
            ("model.layers[*].mask", "bidirectional".into()),
            ("model.layers[1].heads", 2.into()),
            ("model.positional", "none".into()),
        ]))
        .unwrap();
        assert!(changed.model.layers.iter().all(|l| l.mask == MaskKind::Bidirectional));
        assert_eq!(changed.model.layers[1].heads, 2);
        assert_eq!(changed.model.layers[0].heads, 4);
        assert_eq!(changed.model.positional, PositionalEncoding::None);
        let lines = diff(&config, &changed);
        assert!(lines.contains(&"positions: learned → none".to_string()), "{lines:?}");
        assert_eq!(lines.len(), 4, "{lines:?}");
    }

    #[test]
    fn wrong_paths_and_values_name_the_knob() {
        let config = preset("lesson").unwrap();
        let err = apply(&config, &settings(&[("model.positionz", "none".into())])).unwrap_err();
        assert!(err.contains("positionz") && err.contains("positional"), "{err}");
        let err = apply(&config, &settings(&[("model.positional", "sideways".into())])).unwrap_err();
        assert!(err.contains("model.positional"), "{err}");
        let err = apply(&config, &settings(&[("model.layers[7].heads", 1.into())])).unwrap_err();
        assert!(err.contains("out of range"), "{err}");
    }

    #[test]
    fn the_layer_count_grows_and_shrinks_the_stack() {
        let config = preset("tiny").unwrap();
        let deeper = apply(&config, &settings(&[("model.layer_count", 4.into()), ("model.layers[*].residual", false.into())])).unwrap();
        assert_eq!(deeper.model.layers.len(), 4);
        assert!(deeper.model.layers.iter().all(|l| !l.residual));
        assert!(apply(&config, &settings(&[("model.layer_count", 0.into())])).unwrap_err().contains("layer_count"));
    }

    #[test]
    fn a_new_task_brings_its_own_sizes() {
        let config = preset("lesson").unwrap();
        let changed = apply(&config, &settings(&[("task.kind", "lookup".into())])).unwrap();
        assert_eq!(changed.task, crate::tasks::TaskConfig::for_kind(crate::tasks::TaskKind::Lookup));
        let changed = apply(&config, &settings(&[("task.kind", "copy".into()), ("task.length", 5.into())])).unwrap();
        assert_eq!(changed.task.length, 5);
    }
}

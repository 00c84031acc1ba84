//! Knobs a lesson fixes so a class runs the same experiment: `[lock]` in the front
//! matter lists knob paths (the `try` blocks' syntax: `"seed"`, `"backend"`,
//! `"task"`, `"model.layers[*].heads"`) and says why. While the lesson's experiment
//! is loaded, an edit to a locked knob is put back and the reason is shown.

use serde_json::Value;

use crate::config::ExperimentConfig;
use crate::t;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Locks {
    /// Knob paths, as written in the lesson.
    pub knobs: Vec<String>,
    /// Why, in the teacher's words (shown beside every lock).
    pub reason: String,
}

impl Locks {
    pub fn is_empty(&self) -> bool {
        self.knobs.is_empty()
    }

    /// Whether `knob` (a path like `seed` or `model.layers[0].heads`) is locked:
    /// itself, a group above it, or through a `[*]`.
    pub fn covers(&self, knob: &str) -> bool {
        let knob = normalise(knob);
        self.knobs.iter().map(|k| normalise(k)).any(|locked| {
            let (mut a, mut b) = (locked.split('.'), knob.split('.'));
            loop {
                match (a.next(), b.next()) {
                    (None, _) => return true,
                    (Some(_), None) => return false,
                    (Some(x), Some(y)) if x == y || x == "*" || y == "*" => {}
                    _ => return false,
                }
            }
        })
    }

    /// A path that names no knob of `config`, or a missing reason: the message
    /// names the path and the fix.
    pub fn problem(&self, config: &ExperimentConfig) -> Option<String> {
        if self.reason.trim().is_empty() {
            return Some(t!("err-lesson-lock-reason"));
        }
        let json = serde_json::to_value(config).expect("config serialises");
        self.knobs.iter().find(|k| values_at(&json, k).is_empty()).map(|k| t!("err-lesson-lock-knob", knob = k.as_str()))
    }

    /// The locked knobs that differ between `reference` and `edited`.
    pub fn changed(&self, reference: &ExperimentConfig, edited: &ExperimentConfig) -> Vec<String> {
        let (r, e) = (serde_json::to_value(reference).expect("serialises"), serde_json::to_value(edited).expect("serialises"));
        self.knobs.iter().filter(|k| values_at(&r, k) != values_at(&e, k)).cloned().collect()
    }

    /// `edited` with every locked knob put back to its value in `reference`.
    pub fn restore(&self, reference: &ExperimentConfig, edited: &ExperimentConfig) -> ExperimentConfig {
        let src = serde_json::to_value(reference).expect("serialises");
        let mut dst = serde_json::to_value(edited).expect("serialises");
        for knob in &self.knobs {
            copy_at(&mut dst, &src, &normalise(knob));
        }
        serde_json::from_value(dst).unwrap_or_else(|_| reference.clone())
    }
}

/// `model.layers[2].heads` → `model.layers.2.heads`.
fn normalise(path: &str) -> String {
    path.replace('[', ".").replace(']', "")
}

/// Every value a path reaches (several through `[*]`); empty when it names nothing.
fn values_at<'a>(node: &'a Value, path: &str) -> Vec<&'a Value> {
    let mut nodes = vec![node];
    for part in normalise(path).split('.') {
        nodes = nodes
            .into_iter()
            .flat_map(|n| match (n, part) {
                (Value::Array(items), "*") => items.iter().collect::<Vec<_>>(),
                (Value::Array(items), i) => i.parse::<usize>().ok().and_then(|i| items.get(i)).into_iter().collect(),
                (Value::Object(map), key) => map.get(key).into_iter().collect(),
                _ => Vec::new(),
            })
            .collect();
    }
    nodes
}

/// Copy what `path` reaches in `src` into `dst`; a list of another length (layers
/// added or removed) is copied whole.
fn copy_at(dst: &mut Value, src: &Value, path: &str) {
    let (head, rest) = match path.split_once('.') {
        Some((h, r)) => (h, Some(r)),
        None => (path, None),
    };
    match (dst, src) {
        (Value::Array(d), Value::Array(s)) if head == "*" => {
            if d.len() != s.len() {
                *d = s.clone();
                return;
            }
            for (d, s) in d.iter_mut().zip(s) {
                match rest {
                    Some(rest) => copy_at(d, s, rest),
                    None => *d = s.clone(),
                }
            }
        }
        (Value::Array(d), Value::Array(s)) => {
            let Ok(i) = head.parse::<usize>() else { return };
            match (d.get_mut(i), s.get(i), rest) {
                (Some(d), Some(s), Some(rest)) => copy_at(d, s, rest),
                (Some(d), Some(s), None) => *d = s.clone(),
                _ => {}
            }
        }
        (Value::Object(d), Value::Object(s)) => {
            let Some(s) = s.get(head) else { return };
            match (d.get_mut(head), rest) {
                (Some(d), Some(rest)) => copy_at(d, s, rest),
                (Some(d), None) => *d = s.clone(),
                (None, _) => {
                    d.insert(head.to_string(), s.clone());
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{BackendChoice, preset};

    fn locks(knobs: &[&str]) -> Locks {
        Locks { knobs: knobs.iter().map(|k| k.to_string()).collect(), reason: "the class compares curves".into() }
    }

    #[test]
    fn a_locked_knob_is_put_back_and_the_others_are_kept() {
        let lesson = preset("lesson").unwrap();
        let mut edited = lesson.clone();
        edited.seed = 7;
        edited.backend = BackendChoice::Gpu;
        edited.model.layers[1].heads = 2;
        edited.lr = 0.5;
        let l = locks(&["seed", "backend", "model.layers[*].heads"]);
        assert_eq!(l.changed(&lesson, &edited), vec!["seed", "backend", "model.layers[*].heads"]);
        let restored = l.restore(&lesson, &edited);
        assert_eq!((restored.seed, restored.backend, restored.model.layers[1].heads), (lesson.seed, lesson.backend, 4));
        assert_eq!(restored.lr, 0.5, "an unlocked knob keeps the learner's edit");
        assert!(l.changed(&lesson, &restored).is_empty());
    }

    #[test]
    fn locks_cover_groups_and_stars_and_name_unknown_knobs() {
        let l = locks(&["task", "model.layers[*].mask"]);
        assert!(l.covers("task.kind") && l.covers("task"));
        assert!(l.covers("model.layers[1].mask") && !l.covers("model.layers[1].heads") && !l.covers("seed"));
        let config = preset("lesson").unwrap();
        assert_eq!(l.problem(&config), None);
        let wrong = locks(&["model.layerz[*].mask"]).problem(&config).unwrap();
        assert!(wrong.contains("model.layerz[*].mask"), "{wrong}");
        let no_reason = Locks { knobs: vec!["seed".into()], reason: " ".into() };
        assert!(no_reason.problem(&config).is_some());
    }
}

//! Which sizes each task takes (`length`, `symbols`), the check that says why a
//! configuration cannot be built and what to set instead, and the error itself.

use super::{TaskConfig, TaskKind, modadd, translate, word_order};
use crate::t;

impl TaskConfig {
    pub(super) fn check_sizes(&self) -> Result<(), TaskError> {
        let bad = |knob: &str, why: String, fix: String| {
            Err(TaskError::BadSize {
                knob: knob.to_string(),
                why,
                fix: Some(fix),
            })
        };
        let (min_len, max_len, min_sym, max_sym) = self.kind.size_bounds();
        if self.length < min_len || self.length > max_len {
            return bad(
                "task.length",
                t!("msg-task-length-range", task = self.kind.name(), min = min_len, max = max_len),
                t!("msg-task-length-range-fix", min = min_len, max = max_len),
            );
        }
        if self.symbols < min_sym || self.symbols > max_sym {
            return bad(
                "task.symbols",
                t!("msg-task-symbols-range", task = self.kind.name(), min = min_sym, max = max_sym),
                t!("msg-task-symbols-range-fix", min = min_sym, max = max_sym),
            );
        }
        if self.kind == TaskKind::Lookup && self.length > self.symbols {
            return bad(
                "task.length",
                t!("msg-task-lookup-distinct-keys", pairs = self.length),
                // Raising symbols helps only as far as the symbols knob goes.
                if self.length <= max_sym {
                    t!("msg-task-lookup-distinct-keys-fix", pairs = self.length, symbols = self.symbols)
                } else {
                    t!("msg-task-lookup-distinct-keys-fix-length", symbols = self.symbols)
                },
            );
        }
        if self.kind == TaskKind::ModAdd && !modadd::is_prime(self.symbols) {
            // The nearest prime in range (the one above on a tie).
            let above = (self.symbols..=max_sym).find(|&n| modadd::is_prime(n));
            let below = (min_sym..self.symbols).rev().find(|&n| modadd::is_prime(n));
            let prime = match (above, below) {
                (Some(a), Some(b)) => if a - self.symbols <= self.symbols - b { a } else { b },
                (a, b) => a.or(b).unwrap_or(min_sym),
            };
            return bad(
                "task.symbols",
                t!("msg-task-mod-add-prime", modulus = self.symbols),
                t!("msg-task-mod-add-prime-fix", prime = prime),
            );
        }
        Ok(())
    }
}

impl TaskKind {
    /// (shortest, longest) `task.length` and (fewest, most) `task.symbols` this
    /// task takes; a knob the task does not use spans 0..usize::MAX.
    pub fn size_bounds(self) -> (usize, usize, usize, usize) {
        match self {
            TaskKind::Copy | TaskKind::Reverse | TaskKind::Sort => (1, 256, 2, 256),
            TaskKind::Lookup => (1, 64, 2, 26),
            TaskKind::Induction => (2, 256, 2, 256),
            TaskKind::ModAdd => (0, usize::MAX, 2, 97),
            TaskKind::Brackets => (2, 256, 0, usize::MAX),
            TaskKind::WordOrder => (0, usize::MAX, 2, word_order::NOUNS.len()),
            TaskKind::CharLm => (2, 1024, 0, usize::MAX),
            TaskKind::Translate => (translate::SHORTEST, 64, 2, 8),
            TaskKind::BracketDepth => (2, 64, 0, usize::MAX),
        }
    }
}

/// Something a task could not be built from.
#[derive(Debug)]
pub enum TaskError {
    /// A size knob out of range: the knob, why, and how to fix it where the
    /// check knows (else the validator's general fix).
    BadSize { knob: String, why: String, fix: Option<String> },
    Corpus { path: String, why: String },
}

impl std::fmt::Display for TaskError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TaskError::BadSize { knob, why, fix: None } => write!(f, "{knob}: {why}"),
            TaskError::BadSize { knob, why, fix: Some(fix) } => write!(f, "{knob}: {why}; {fix}"),
            TaskError::Corpus { path, why } => {
                f.write_str(&t!("msg-task-corpus-error", path = path.as_str(), why = why.as_str()))
            }
        }
    }
}

impl std::error::Error for TaskError {}

//! The bug hunt: experiments with one planted bug each (mask, labels, initialisation
//! or learning rate), a description of the symptom the learner sees, and the
//! answer, hidden until asked for. The shipped cases are files in `lessons/bugs/`,
//! read by the same code as a teacher's pack (`lessons::bug_case`).
//! Every symptom is reproduced by a headless test (`tests/integration/bughunt.rs`).

pub use crate::lessons::bug_case::{Bug, BugCase};
use crate::lessons::bug_case::{BUILTIN_CASES, parse_bug_case};

/// The shipped exercises in the current language, in the order the window lists them.
pub fn cases() -> Vec<BugCase> {
    let lang = crate::i18n::lang();
    BUILTIN_CASES.iter().map(|(file, text)| parse_bug_case(file, text, lang).unwrap_or_else(|e| panic!("shipped bug case: {e}"))).collect()
}

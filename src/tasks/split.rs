//! Held-out means never seen in training. For every task whose examples are drawn
//! at random, an example belongs to the evaluation split exactly when a fixed hash
//! of its tokens and targets says so (one in `HELD_OUT_ONE_IN`); training draws
//! reject those examples and evaluation draws keep only them. So the two splits are
//! disjoint by construction, however small the example space.
//! (Character LM splits its text instead: the last tenth is held out.)

use super::{Example, Rng, Split, Task};
use crate::t;

/// One example in this many is held out for evaluation.
pub const HELD_OUT_ONE_IN: u64 = 5;

/// Draws used to check, when a task is built, that both splits have examples.
const SPLIT_CHECK_DRAWS: usize = 4096;

/// Whether an example belongs to the evaluation split.
pub fn is_held_out(example: &Example) -> bool {
    held_out_hash(example) % HELD_OUT_ONE_IN == 0
}

/// Which split an example belongs to when the held-out examples are divided
/// into a validation and a test half (by the next digit of the same hash):
/// `Train`, `Validation` or `Test`.
pub fn split_of(example: &Example) -> Split {
    let hash = held_out_hash(example);
    match (hash % HELD_OUT_ONE_IN == 0, (hash / HELD_OUT_ONE_IN) % 2 == 0) {
        (false, _) => Split::Train,
        (true, true) => Split::Validation,
        (true, false) => Split::Test,
    }
}

/// Whether `example` may be drawn for `split`.
pub fn belongs_to(example: &Example, split: Split) -> bool {
    match split {
        Split::Train => !is_held_out(example),
        Split::Eval => is_held_out(example),
        Split::Validation | Split::Test => split_of(example) == split,
    }
}

fn held_out_hash(example: &Example) -> u64 {
    // The real tokens and the scored targets only: where the padding goes (left or
    // right) must not move an example from one split to the other.
    let real = example.tokens.iter().zip(&example.padding).filter(|(_, pad)| !**pad).map(|(t, _)| *t);
    let scored = example.targets.iter().zip(&example.loss_mask).filter(|(_, scored)| **scored).map(|(t, _)| *t);
    let mut hash = 0xCBF2_9CE4_8422_2325u64; // FNV-1a, then a SplitMix finish
    for t in real.chain([u32::MAX]).chain(scored) {
        hash = (hash ^ t as u64).wrapping_mul(0x0000_0100_0000_01B3);
    }
    Rng::new(hash).next_u64()
}

/// Draw from `draw` until the example falls in `split`.
pub fn draw_in(split: Split, rng: &mut Rng, mut draw: impl FnMut(&mut Rng) -> Example) -> Example {
    loop {
        let example = draw(rng);
        if belongs_to(&example, split) {
            return example;
        }
    }
}

/// Both splits must be reachable, or drawing from the empty one would never end:
/// a task with only a handful of distinct examples cannot hold any out.
pub fn check_both_splits(task: &dyn Task) -> Result<(), String> {
    if !task.splits_by_hash() {
        return Ok(());
    }
    let mut rng = Rng::new(0x5_91_17);
    let (mut held_out, mut training) = (0, 0);
    for _ in 0..SPLIT_CHECK_DRAWS {
        if is_held_out(&task.draw(&mut rng)) {
            held_out += 1;
        } else {
            training += 1;
        }
        if held_out > 0 && training > 0 {
            return Ok(());
        }
    }
    Err(t!("err-split-too-few-examples",
        task = task.kind().name(),
        held_out = held_out as usize,
        draws = SPLIT_CHECK_DRAWS
    ))
}

/// The fixed held-out set every session evaluates on: `size` examples of the
/// evaluation split, the same for every seed.
pub fn eval_set(task: &dyn Task, size: usize) -> super::Batch {
    task.batch(&mut eval_rng(), Split::Eval, size)
}

/// `eval_set(task, size)` in chunks of at most `rows` examples, drawn as they are
/// needed, so a large held-out set is never in memory at once: the same examples
/// in the same order (tasks draw their examples one after another).
pub fn eval_chunks(task: &dyn Task, size: usize, rows: usize) -> impl Iterator<Item = super::Batch> + '_ {
    held_out_chunks(task, Split::Eval, size, rows)
}

/// The same for any held-out split: all of it (`Eval`), or its validation or test half.
pub fn held_out_chunks(task: &dyn Task, split: Split, size: usize, rows: usize) -> impl Iterator<Item = super::Batch> + '_ {
    let mut rng = eval_rng();
    (0..size).step_by(rows.max(1)).map(move |start| task.batch(&mut rng, split, rows.max(1).min(size - start)))
}

/// Both halves of the held-out split must have examples before either is drawn
/// from (a task with a handful of examples may hold out too few to divide).
pub fn check_validation_and_test(task: &dyn Task) -> Result<(), String> {
    if !task.splits_by_hash() {
        return Ok(());
    }
    let mut rng = Rng::new(0x7E_57);
    let (mut validation, mut test) = (0, 0);
    for _ in 0..SPLIT_CHECK_DRAWS {
        match split_of(&task.draw(&mut rng)) {
            Split::Validation => validation += 1,
            Split::Test => test += 1,
            _ => {}
        }
        if validation > 0 && test > 0 {
            return Ok(());
        }
    }
    Err(t!("err-split-no-test-half", task = task.kind().name(), validation = validation as usize, test = test as usize))
}

fn eval_rng() -> Rng {
    Rng::stream(10_000, 4)
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;
    use crate::tasks::{TaskConfig, TaskKind};

    #[test]
    fn the_held_out_set_in_chunks_is_the_same_set() {
        for kind in TaskKind::ALL {
            let task = TaskConfig::for_kind(kind).build().unwrap();
            let whole = eval_set(task.as_ref(), 50);
            let chunks: Vec<_> = eval_chunks(task.as_ref(), 50, 7).collect();
            assert_eq!(chunks.iter().map(|c| c.batch_size).collect::<Vec<_>>(), [7, 7, 7, 7, 7, 7, 7, 1], "{kind:?}");
            let joined = |f: fn(&crate::tasks::Batch) -> Vec<String>| chunks.iter().flat_map(f).collect::<Vec<_>>();
            let tokens = |b: &crate::tasks::Batch| b.tokens.iter().map(|t| t.to_string()).collect();
            let targets = |b: &crate::tasks::Batch| b.targets.iter().map(|t| t.to_string()).collect();
            let weights = |b: &crate::tasks::Batch| b.loss_weights.iter().map(|t| t.to_string()).collect();
            assert_eq!(joined(tokens), tokens(&whole), "{kind:?}: the same examples in the same order");
            assert_eq!(joined(targets), targets(&whole), "{kind:?}");
            assert_eq!(joined(weights), weights(&whole), "{kind:?}");
        }
    }

    #[test]
    fn the_validation_and_test_halves_are_held_out_and_never_share_an_example() {
        for kind in [TaskKind::Reverse, TaskKind::Lookup, TaskKind::Sort] {
            let task = TaskConfig::for_kind(kind).build().unwrap();
            check_validation_and_test(task.as_ref()).unwrap();
            let rows = |split: Split| -> HashSet<Vec<i64>> {
                let batch = held_out_chunks(task.as_ref(), split, 300, 300).next().unwrap();
                (0..batch.batch_size).map(|r| batch.tokens[r * batch.seq_len..(r + 1) * batch.seq_len].to_vec()).collect()
            };
            let (validation, test) = (rows(Split::Validation), rows(Split::Test));
            assert!(validation.len() > 10 && test.len() > 10, "{kind:?}: both halves have examples");
            assert_eq!(validation.intersection(&test).count(), 0, "{kind:?}: no example in both halves");
            let mut rng = Rng::new(3);
            for _ in 0..200 {
                let example = task.example(&mut rng, Split::Test);
                assert!(is_held_out(&example) && split_of(&example) == Split::Test, "{kind:?}");
            }
        }
        // The character model halves its held-out tail: windows start on either side.
        let text = TaskConfig::for_kind(TaskKind::CharLm).build().unwrap();
        let first = |split: Split| held_out_chunks(text.as_ref(), split, 50, 50).next().unwrap().tokens;
        assert_ne!(first(Split::Validation), first(Split::Test));
    }

    /// Draw a large training sample and the whole eval set; no example may be in both.
    fn disjoint(config: TaskConfig) {
        let task = config.build().unwrap_or_else(|e| panic!("{:?}: {e}", config.kind));
        let eval = eval_set(task.as_ref(), 512);
        let rows = |batch: &super::super::Batch| -> Vec<(Vec<i64>, Vec<i64>)> {
            (0..batch.batch_size)
                .map(|r| {
                    let span = r * batch.seq_len..(r + 1) * batch.seq_len;
                    (batch.tokens[span.clone()].to_vec(), batch.targets[span].to_vec())
                })
                .collect()
        };
        let held_out: HashSet<_> = rows(&eval).into_iter().collect();
        let mut rng = Rng::stream(1, 2);
        let mut overlap = 0;
        for _ in 0..40 {
            let train = task.batch(&mut rng, Split::Train, 500);
            overlap += rows(&train).iter().filter(|r| held_out.contains(*r)).count();
        }
        assert_eq!(overlap, 0, "{:?}: {overlap} of 20,000 training examples are in the eval set", config.kind);
        if task.splits_by_hash() {
            assert!(eval_examples_are_all_held_out(&eval), "{:?}", config.kind);
        }
    }

    fn eval_examples_are_all_held_out(eval: &super::super::Batch) -> bool {
        (0..eval.batch_size).all(|r| {
            let span = r * eval.seq_len..(r + 1) * eval.seq_len;
            let example = Example {
                tokens: eval.tokens[span.clone()].iter().map(|&t| t as u32).collect(),
                targets: eval.targets[span.clone()].iter().map(|&t| t as u32).collect(),
                loss_mask: eval.loss_weights[span.clone()].iter().map(|&w| w > 0.0).collect(),
                padding: eval.padding[span].to_vec(),
            };
            is_held_out(&example)
        })
    }

    macro_rules! disjoint_tests {
        ($($name:ident: $kind:expr),* $(,)?) => {
            $(#[test]
            fn $name() {
                disjoint(TaskConfig::for_kind($kind));
            })*
        };
    }

    disjoint_tests! {
        copy_train_and_eval_are_disjoint: TaskKind::Copy,
        reverse_train_and_eval_are_disjoint: TaskKind::Reverse,
        sort_train_and_eval_are_disjoint: TaskKind::Sort,
        lookup_train_and_eval_are_disjoint: TaskKind::Lookup,
        induction_train_and_eval_are_disjoint: TaskKind::Induction,
        mod_add_train_and_eval_are_disjoint: TaskKind::ModAdd,
        brackets_train_and_eval_are_disjoint: TaskKind::Brackets,
        word_order_train_and_eval_are_disjoint: TaskKind::WordOrder,
        char_lm_train_and_eval_are_disjoint: TaskKind::CharLm,
        translate_train_and_eval_are_disjoint: TaskKind::Translate,
        bracket_depth_train_and_eval_are_disjoint: TaskKind::BracketDepth,
    }

    #[test]
    fn a_kind_has_a_source_exactly_when_its_task_does() {
        for kind in TaskKind::ALL {
            let task = TaskConfig::for_kind(kind).build().unwrap();
            assert_eq!(kind.has_source(), task.source_len().is_some(), "{kind:?}");
        }
    }

    #[test]
    fn the_padding_side_does_not_move_an_example_between_splits() {
        let right = TaskConfig::for_kind(TaskKind::Brackets).build().unwrap();
        let left = TaskConfig { pad_side: crate::tasks::PadSide::Left, ..TaskConfig::for_kind(TaskKind::Brackets) }.build().unwrap();
        let (mut a, mut b) = (Rng::new(4), Rng::new(4));
        for _ in 0..500 {
            let (r, l) = (right.draw(&mut a), left.draw(&mut b));
            assert_eq!(is_held_out(&r), is_held_out(&l));
        }
    }

    #[test]
    fn small_example_spaces_stay_disjoint() {
        // The sizes the lessons use, where the example space is small.
        let sized = |kind, length, symbols| TaskConfig { length, symbols, ..TaskConfig::for_kind(kind) };
        disjoint(sized(TaskKind::Copy, 6, 16));
        disjoint(sized(TaskKind::Reverse, 8, 8));
        disjoint(sized(TaskKind::ModAdd, 1, 13));
        disjoint(sized(TaskKind::WordOrder, 1, 6));
        disjoint(sized(TaskKind::Brackets, 4, 2));
        disjoint(sized(TaskKind::Lookup, 2, 3));
    }

    #[test]
    fn a_task_too_small_to_hold_anything_out_is_refused_and_one_that_can_builds() {
        // Tiny spaces: the build must succeed exactly when both splits have examples.
        let mut refused = 0;
        for (kind, length, symbols) in [(TaskKind::Copy, 1, 2), (TaskKind::Copy, 1, 3), (TaskKind::WordOrder, 1, 2), (TaskKind::ModAdd, 1, 2), (TaskKind::ModAdd, 1, 3)] {
            let config = TaskConfig { length, symbols, ..TaskConfig::for_kind(kind) };
            let task = config.build_plain().unwrap();
            let mut rng = Rng::new(11);
            let flags: HashSet<bool> = (0..2000).map(|_| is_held_out(&task.draw(&mut rng))).collect();
            match config.build() {
                Ok(_) => assert_eq!(flags.len(), 2, "{kind:?} {symbols}: built though one split is empty"),
                Err(e) => {
                    refused += 1;
                    assert_eq!(flags.len(), 1, "{kind:?} {symbols}: refused though both splits have examples");
                    assert!(e.to_string().contains("hold any out") && e.to_string().contains("task."), "{e}");
                }
            }
        }
        assert!(refused > 0, "at least one of these tiny spaces has no held-out example");
    }
}

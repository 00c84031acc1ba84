//! Toy tasks: each one defines its vocabulary, generates reproducible examples from a
//! seed, says which positions count in the loss, and offers a fixed probe example for
//! attention pictures.
//!
//! Every task is framed as next-token prediction over one sequence, the way a
//! decoder-only Transformer is trained: `targets[t]` is the token that follows
//! position `t`, and only positions with `loss_mask[t]` are scored.

mod batch;
mod brackets;
mod charlm;
mod depth;
mod induction;
mod lookup;
mod modadd;
mod rng;
mod sequence;
mod sizes;
mod split;
mod translate;
mod vocab;
mod word_order;

pub use batch::{Batch, Example};
pub use charlm::{BUILTIN_CORPORA, builtin_corpus};
pub use rng::Rng;
pub use sizes::TaskError;
pub use translate::seq2seq_example;
pub use split::{HELD_OUT_ONE_IN, check_validation_and_test, eval_chunks, eval_set, held_out_chunks, is_held_out, split_of};
pub use vocab::Vocab;

use serde::{Deserialize, Serialize};

use crate::t;

/// Which split an example comes from: held-out examples never appear in training,
/// for every task (see `split.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Split {
    Train,
    /// Every held-out example (what the evaluation during training reads).
    Eval,
    /// The held-out examples used to choose between models (about half of `Eval`).
    Validation,
    /// The other half of `Eval`, kept to check a choice made on `Validation`.
    Test,
}

/// Names of the toy tasks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskKind {
    Copy,
    Reverse,
    Sort,
    Lookup,
    Induction,
    ModAdd,
    Brackets,
    WordOrder,
    CharLm,
    Translate,
    /// Tag every bracket with the depth after it.
    BracketDepth,
}

impl TaskKind {
    pub const ALL: [TaskKind; 11] = [
        TaskKind::Copy,
        TaskKind::Reverse,
        TaskKind::Sort,
        TaskKind::Lookup,
        TaskKind::Induction,
        TaskKind::ModAdd,
        TaskKind::Brackets,
        TaskKind::WordOrder,
        TaskKind::CharLm,
        TaskKind::Translate,
        TaskKind::BracketDepth,
    ];

    /// The name used in JSON and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            TaskKind::Copy => "copy",
            TaskKind::Reverse => "reverse",
            TaskKind::Sort => "sort",
            TaskKind::Lookup => "lookup",
            TaskKind::Induction => "induction",
            TaskKind::ModAdd => "mod_add",
            TaskKind::Brackets => "brackets",
            TaskKind::WordOrder => "word_order",
            TaskKind::CharLm => "char_lm",
            TaskKind::Translate => "translate",
            TaskKind::BracketDepth => "bracket_depth",
        }
    }

    pub fn from_name(name: &str) -> Option<TaskKind> {
        let wanted = name.replace('-', "_").to_lowercase();
        Self::ALL.into_iter().find(|k| k.name() == wanted)
    }

    /// Whether the task has a source and a target (the seq2seq families read it).
    pub fn has_source(self) -> bool {
        matches!(self, TaskKind::Copy | TaskKind::Reverse | TaskKind::Sort | TaskKind::Translate)
    }

    /// The task's name in the interface's language ("copy", "复制").
    pub fn label(self) -> String {
        match self {
            TaskKind::Copy => t!("task-kind-copy"),
            TaskKind::Reverse => t!("task-kind-reverse"),
            TaskKind::Sort => t!("task-kind-sort"),
            TaskKind::Lookup => t!("task-kind-lookup"),
            TaskKind::Induction => t!("task-kind-induction"),
            TaskKind::ModAdd => t!("task-kind-mod-add"),
            TaskKind::Brackets => t!("task-kind-brackets"),
            TaskKind::WordOrder => t!("task-kind-word-order"),
            TaskKind::CharLm => t!("task-kind-char-lm"),
            TaskKind::Translate => t!("task-kind-translate"),
            TaskKind::BracketDepth => t!("task-kind-bracket-depth"),
        }
    }

    /// One line on what the task asks of the model.
    pub fn describe(self) -> String {
        match self {
            TaskKind::Copy => t!("msg-task-describe-copy"),
            TaskKind::Reverse => t!("msg-task-describe-reverse"),
            TaskKind::Sort => t!("msg-task-describe-sort"),
            TaskKind::Lookup => t!("msg-task-describe-lookup"),
            TaskKind::Induction => t!("msg-task-describe-induction"),
            TaskKind::ModAdd => t!("msg-task-describe-mod-add"),
            TaskKind::Brackets => t!("msg-task-describe-brackets"),
            TaskKind::WordOrder => t!("msg-task-describe-word-order"),
            TaskKind::CharLm => t!("msg-task-describe-char-lm"),
            TaskKind::Translate => t!("msg-task-describe-translate"),
            TaskKind::BracketDepth => t!("msg-task-describe-bracket-depth"),
        }
    }
}

/// A task and its size knobs, as stored in an experiment.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TaskConfig {
    /// Which task.
    pub kind: TaskKind,
    /// Items per example: tokens to copy/reverse/sort, pairs for lookup, the repeated
    /// block for induction, the longest bracket string, the window for char_lm.
    pub length: usize,
    /// Distinct symbols: the alphabet for copy/reverse/sort/induction, keys for lookup,
    /// the modulus for mod_add, nouns for word_order. Unused by brackets and char_lm.
    pub symbols: usize,
    /// Corpus of char_lm: "english", "chinese" (a few KB), "english_large",
    /// "chinese_large" (over 100 KB), or a path to a UTF-8 text file. For
    /// word_order, "chinese" picks the Chinese words (猫 追 狗). Unused otherwise.
    pub corpus: String,
    /// Which side padding goes on, for tasks with variable length (brackets).
    pub pad_side: PadSide,
    /// Targets are the next token (right). false makes each position predict its
    /// own input token: the "labels not shifted" bug.
    pub shift_labels: bool,
    /// `length` of the held-out examples (0 = the same as `length`): a longer one
    /// tests the model on lengths it never saw in training.
    pub eval_length: usize,
}

/// Where padding tokens go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PadSide {
    Right,
    Left,
}

impl Default for TaskConfig {
    fn default() -> Self {
        Self::for_kind(TaskKind::Reverse)
    }
}

impl TaskConfig {
    /// The sizes a task is meant to be tried with first.
    pub fn for_kind(kind: TaskKind) -> Self {
        let (length, symbols) = match kind {
            TaskKind::Copy | TaskKind::Reverse | TaskKind::Sort => (16, 16),
            TaskKind::Lookup => (4, 8),
            TaskKind::Induction => (12, 16),
            TaskKind::ModAdd => (1, 13),
            TaskKind::Brackets => (12, 2),
            TaskKind::WordOrder => (1, 12),
            TaskKind::CharLm => (32, 0),
            TaskKind::Translate => (12, 8),
            TaskKind::BracketDepth => (12, 0),
        };
        Self {
            kind,
            length,
            symbols,
            corpus: "english".to_string(),
            pad_side: PadSide::Right,
            shift_labels: true,
            eval_length: 0,
        }
    }

    /// The held-out set's task when its length differs from training's (None when
    /// both use `length`).
    pub fn held_out(&self) -> Option<TaskConfig> {
        (self.eval_length != 0 && self.eval_length != self.length).then(|| TaskConfig { length: self.eval_length, eval_length: 0, ..self.clone() })
    }

    /// Build the task the held-out set is drawn from: this one, or the same task at
    /// `eval_length`. Its errors name `task.eval_length`.
    pub fn build_held_out(&self) -> Result<Option<Box<dyn Task>>, TaskError> {
        let Some(held_out) = self.held_out() else { return Ok(None) };
        held_out.build().map(Some).map_err(|err| match err {
            // Its fix would name `length`: the held-out length gets the general one.
            TaskError::BadSize { why, .. } => TaskError::BadSize { knob: "task.eval_length".to_string(), why, fix: None },
            other => other,
        })
    }

    /// Build the task, reading its corpus if it has one.
    pub fn build(&self) -> Result<Box<dyn Task>, TaskError> {
        self.check_sizes()?;
        let task = self.build_plain()?;
        split::check_both_splits(task.as_ref()).map_err(|why| TaskError::BadSize { knob: "task.symbols".to_string(), why, fix: None })?;
        Ok(if self.shift_labels { task } else { Box::new(Unshifted(task)) })
    }

    fn build_plain(&self) -> Result<Box<dyn Task>, TaskError> {
        Ok(match self.kind {
            TaskKind::Copy | TaskKind::Reverse | TaskKind::Sort => Box::new(
                sequence::SequenceTask::new(self.kind, self.length, self.symbols),
            ),
            TaskKind::Lookup => Box::new(lookup::LookupTask::new(self.length, self.symbols)),
            TaskKind::Induction => {
                Box::new(induction::InductionTask::new(self.length, self.symbols))
            }
            TaskKind::ModAdd => Box::new(modadd::ModAddTask::new(self.symbols)),
            TaskKind::Brackets => Box::new(brackets::BracketsTask::new(self.length, self.pad_side)),
            TaskKind::WordOrder => Box::new(word_order::WordOrderTask::new(self.symbols, word_order::Words::from_corpus(&self.corpus))),
            TaskKind::CharLm => Box::new(charlm::CharLmTask::load(&self.corpus, self.length)?),
            TaskKind::Translate => Box::new(translate::TranslateTask::new(self.length, self.symbols)),
            TaskKind::BracketDepth => Box::new(depth::DepthTask::new(self.length)),
        })
    }
}

/// A toy task: vocabulary, example generator, probe example.
pub trait Task: Send + Sync {
    fn kind(&self) -> TaskKind;
    fn vocab(&self) -> &Vocab;
    /// Length of every example's token sequence (shorter ones are padded).
    fn seq_len(&self) -> usize;
    /// One example drawn with `rng`, from either split.
    fn draw(&self, rng: &mut Rng) -> Example;
    /// Whether the split is decided by `split::is_held_out` (the default); a task
    /// that splits its data another way overrides `example` and says false.
    fn splits_by_hash(&self) -> bool {
        true
    }
    /// One example drawn with `rng` from `split`; the splits never share an example.
    fn example(&self, rng: &mut Rng, split: Split) -> Example {
        split::draw_in(split, rng, |rng| self.draw(rng))
    }
    /// For a task with a source and a target (copy, reverse, sort, translate): the
    /// source's length S; the separator sits at position S and the target after
    /// it, so an encoder–decoder splits every example there. None otherwise.
    fn source_len(&self) -> Option<usize> {
        None
    }
    /// The fewest source words an example has (its length buckets start there).
    fn shortest_source(&self) -> usize {
        self.source_len().unwrap_or(0)
    }
    /// For a seq2seq task whose target words each translate one source word: per
    /// position, the source position whose word the prediction there must write
    /// (None where nothing is written, or where the task has no such alignment).
    fn alignment(&self, _example: &Example) -> Option<Vec<Option<usize>>> {
        None
    }
    /// The number of real (not padding) source tokens of an example of this task.
    fn source_words(&self, example_padding: &[bool]) -> Option<usize> {
        self.source_len().map(|s| example_padding[..s].iter().filter(|p| !**p).count())
    }
    /// A fixed example for attention pictures; the same on every run.
    fn probe(&self) -> Example {
        self.example(&mut Rng::new(0x5EED_0F_9A0BE), Split::Eval)
    }

    /// A batch of `size` examples.
    fn batch(&self, rng: &mut Rng, split: Split, size: usize) -> Batch {
        let examples: Vec<Example> = (0..size).map(|_| self.example(rng, split)).collect();
        Batch::from_examples(&examples, self.seq_len())
    }
}

/// The "labels not shifted" bug: every scored position is asked for its own input
/// token, which it can simply copy, so training loss falls fast and teaches nothing.
struct Unshifted(Box<dyn Task>);

impl Task for Unshifted {
    fn kind(&self) -> TaskKind {
        self.0.kind()
    }
    fn vocab(&self) -> &Vocab {
        self.0.vocab()
    }
    fn seq_len(&self) -> usize {
        self.0.seq_len()
    }
    fn draw(&self, rng: &mut Rng) -> Example {
        let mut example = self.0.draw(rng);
        example.targets = example.tokens.clone();
        example
    }
    fn splits_by_hash(&self) -> bool {
        self.0.splits_by_hash()
    }
    fn source_len(&self) -> Option<usize> {
        self.0.source_len()
    }
    fn shortest_source(&self) -> usize {
        self.0.shortest_source()
    }
    /// The wrapped task's split, so the unshifted bug sees the same held-out inputs.
    fn example(&self, rng: &mut Rng, split: Split) -> Example {
        let mut example = self.0.example(rng, split);
        example.targets = example.tokens.clone();
        example
    }
    fn probe(&self) -> Example {
        let mut example = self.0.probe();
        example.targets = example.tokens.clone();
        example
    }
}

/// Tokens the learner typed, turned into an example of this task (loss on every
/// position whose next token is known).
pub fn parse_probe(task: &dyn Task, text: &str) -> Result<Example, String> {
    let tokens = task.vocab().parse(text)?;
    if tokens.is_empty() {
        return Err(t!("msg-probe-empty"));
    }
    // A padded seq2seq task (translate): `source | target` goes in its layout.
    if let (Some(source_len), Some(pad)) = (task.source_len(), task.vocab().pad()) {
        let separator = task.vocab().id("|").filter(|sep| tokens.contains(sep));
        if let Some(separator) = separator {
            let at = tokens.iter().position(|t| *t == separator).expect("contains");
            let (source, target) = (&tokens[..at], &tokens[at + 1..]);
            if source.len() > source_len || target.len() > source_len {
                return Err(t!("msg-probe-source-too-long", words = source.len().max(target.len()), most = source_len));
            }
            return Ok(seq2seq_example(source, target, source_len, separator, pad));
        }
    }
    if tokens.len() > task.seq_len() {
        return Err(t!("msg-probe-too-long", tokens = tokens.len(), seq_len = task.seq_len()));
    }
    Ok(Example::next_token(tokens, 1))
}

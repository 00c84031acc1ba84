//! Everything the panels can ask for, applied by the app at the end of the frame.

use crate::tasks::TaskKind;

#[must_use]
#[derive(Clone, Debug, PartialEq)]
pub enum AppAction {
    /// Start a run, or resume a paused one (applying pending edits first).
    StartOrResume,
    /// A path typed in the path field (where no file dialog could open).
    UsePath(crate::workbench::PathRequest, std::path::PathBuf),
    CancelPath(crate::workbench::PathRequest),
    /// Help menu: the short guide, and the version and licence.
    ShowGettingStarted,
    ShowAbout,
    Pause,
    StepOnce,
    /// Fresh weights from the edited config.
    Reset,
    /// Apply pending edits to the live model.
    Apply,
    /// The learner agreed to lose trained weights for an architecture change.
    ConfirmApply,
    CancelApply,
    SetTask(TaskKind),
    LoadPreset(String),
    OpenExperiment,
    SaveExperiment,
    SaveRun,
    LoadRun,
    ExportPlots,
    ExportAttention,
    ExportCsv,
    Undo,
    Redo,
    SetProbe(String),
    ToggleHelp,
    /// Replace the edited experiment with a bug-hunt case.
    LoadBugCase(String),
    /// Run the leak probes on the current model.
    Probe,
    /// Trace one head's computation on the probe.
    Trace { layer: usize, head: usize },
    /// Measure how much gradient reaches each source word.
    MeasureGradientReach,
    /// Open the glossary window.
    ShowGlossary,
    /// Switch the interface (and lesson) language at once; remembered.
    SetLanguage(crate::i18n::Lang),
    /// Write `tokens` tokens after `prompt`, without and with the KV cache.
    Generate { prompt: String, tokens: usize },
    OpenLesson(usize),
    OpenLessonPack,
    /// Open a Hugging Face BERT or GPT-2 folder (read-only).
    OpenPretrained,
    /// Read the typed sentences with the opened checkpoint.
    ReadPretrained,
    /// Step through one head of the opened checkpoint on the shown sentence.
    TracePretrained { layer: usize, head: usize },
    /// Keep the learner's experiment aside and load the lesson's starting one.
    LoadLessonStart,
    RestoreExperiment,
    /// Press the `try` button at this line of the open lesson.
    LessonTry(usize),
    /// "Check now" on the check with this id.
    LessonCheck(String),
    LessonVerifyClaim(String),
    /// Stop the claim verification that runs.
    CancelClaim,
    /// Show the answer with this id (recorded in the learner's progress).
    RevealAnswer(String),
    /// Show a bug-hunt case's answer before naming it (recorded).
    RevealBugAnswer(String),
    /// Named a bug-hunt case right (recorded).
    SolvedBug(String),
    /// Write the open pack's progress file for the teacher.
    ExportProgress,
    /// Write the open lesson as a handout (Markdown and its figures as PNG).
    ExportHandout,
    /// Close an opened pack (by its index in the runner) and forget it.
    ClosePack(usize),
    /// Stop reopening a remembered pack that could not be opened.
    ForgetPack(std::path::PathBuf),
    /// The projector layout for the open pack, on or off (F5).
    TogglePresenter,
    DismissBanner,
    /// Keep this run's curves (and maps) to compare the next run against; drop them.
    PinRun,
    UnpinRun,
    /// Time the model on screen at several sequence lengths (lesson 11).
    MeasureLengths,
    /// Train the on-screen config with 1, 2, 4, 8 and 16 heads (Heads tab).
    MeasureHeads,
    /// Stop the length sweep after the length it measures; its results so far stay.
    StopMeasureLengths,
    /// Stop the head sweep at its next training step; its results so far stay.
    StopMeasureHeads,
    /// Compute the softmax-saturation sweep (lesson 03), shown in its tab.
    ComputeSaturation,
    /// Files or folders dropped on the window (lesson packs).
    Dropped(Vec<std::path::PathBuf>),
}

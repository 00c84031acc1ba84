//! Something the learner asked to read or write, and what the window says of it.

use crate::t;

/// Something the learner asked to read or write, waiting for a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathRequest {
    OpenExperiment,
    SaveExperiment,
    SaveRun,
    LoadRun,
    ExportCsv,
    ExportPlots,
    ExportAttention,
    OpenLessonPack,
    ExportProgress,
    ExportHandout,
    OpenPretrained,
}

impl PathRequest {
    /// The dialog's title, and the path field's heading.
    pub fn title(self) -> String {
        match self {
            PathRequest::OpenExperiment => t!("msg-dialog-open-experiment"),
            PathRequest::SaveExperiment => t!("msg-dialog-save-experiment"),
            PathRequest::SaveRun => t!("msg-dialog-save-run"),
            PathRequest::LoadRun => t!("msg-dialog-load-run"),
            PathRequest::ExportCsv => t!("msg-dialog-export-csv"),
            PathRequest::ExportPlots => t!("msg-dialog-export-plots"),
            PathRequest::ExportAttention => t!("msg-dialog-export-attention"),
            PathRequest::OpenLessonPack => t!("msg-dialog-open-lesson-pack"),
            PathRequest::ExportProgress => t!("msg-dialog-export-progress"),
            PathRequest::ExportHandout => t!("msg-dialog-export-handout"),
            PathRequest::OpenPretrained => t!("msg-dialog-open-pretrained"),
        }
    }

    /// The suggested name, for a save; empty for an open.
    pub fn default_name(self) -> &'static str {
        match self {
            PathRequest::SaveExperiment => "experiment.json",
            PathRequest::SaveRun => "run",
            PathRequest::ExportCsv => "metrics.csv",
            PathRequest::ExportPlots => "plots.png",
            PathRequest::ExportAttention => "attention.png",
            PathRequest::ExportProgress => "my-progress.json",
            PathRequest::ExportHandout => "handout",
            PathRequest::OpenExperiment | PathRequest::LoadRun | PathRequest::OpenLessonPack | PathRequest::OpenPretrained => "",
        }
    }

    /// What a cancel leaves untouched, said plainly.
    pub fn cancelled(self) -> String {
        match self {
            PathRequest::OpenExperiment => t!("msg-cancelled-open-experiment"),
            PathRequest::LoadRun => t!("msg-cancelled-load-run"),
            PathRequest::OpenLessonPack => t!("msg-cancelled-open-lesson-pack"),
            PathRequest::OpenPretrained => t!("msg-cancelled-open-pretrained"),
            PathRequest::SaveExperiment | PathRequest::SaveRun => t!("msg-cancelled-save"),
            PathRequest::ExportCsv | PathRequest::ExportPlots | PathRequest::ExportAttention | PathRequest::ExportProgress | PathRequest::ExportHandout => {
                t!("msg-cancelled-export")
            }
        }
    }
}

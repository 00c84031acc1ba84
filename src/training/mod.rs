//! Training: the session (model + optimizer + task stepped by hand), the worker
//! thread that runs it, and the plain-data events it sends. No egui in here.

pub mod backend;
pub mod chunks;
mod events;
mod generate;
mod grad_report;
mod grad_stats;
mod history;
mod loss;
mod session;
mod timer;
mod views;
mod worker;

pub use events::{
    AttentionSnapshot, BackendInfo, EvalMetrics, GradientReport, GroupGradient, HeadTraceData, NonFiniteKind,
    StepMetrics, TrainCommand, TrainEvent,
};
pub use generate::generation_accuracy;
pub use history::{EvalRecord, MetricsHistory, StepRecord};
pub use session::{Session, SessionError, StepOutcome, read_floats};
pub use worker::{TrainerHandle, Waker};

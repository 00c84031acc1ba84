//! Training: the session (model + optimizer + task stepped by hand), the worker
//! thread that runs it, and the plain-data events it sends. No egui in here.

pub mod allocations;
pub mod backend;
pub mod chunks;
mod event_queue;
mod events;
pub mod fused;
mod generate;
mod grad_report;
mod grad_stats;
pub mod init_from;
mod length_tally;
mod loss;
mod plain_optim;
pub mod priority;
mod seq2seq_views;
mod session;
mod timer;
mod trainer_handle;
pub mod views;
mod worker;
mod writing;

pub use event_queue::{EventReceiver, EventSender, HARD_CAP, THIN_AFTER, event_queue};
pub use events::{
    LengthBucket, length_buckets,
    AttentionSnapshot, BackendInfo, EvalMetrics, GenerationReport, GradientReport, GroupGradient, HeadTraceData, NonFiniteKind,
    StepMetrics, TrainCommand, TrainEvent, WrittenText,
};
pub use generate::{Written, generation_accuracy, write_greedy};
pub use crate::runs::{EvalRecord, MetricsHistory, StepRecord};
pub use crate::model::readback::read_floats;
pub use seq2seq_views::{Alignment, GradientReach};
pub use session::{Session, SessionError, StepOutcome};
pub use trainer_handle::TrainerHandle;
pub use writing::{TimedWriting, WRITES};
pub use worker::Waker;

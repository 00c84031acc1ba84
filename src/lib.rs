//! Attention Workbench: learn how attention and Transformers work by editing and
//! training a small one live.
//!
//! Flow, one direction only:
//! lesson → [`config::ExperimentConfig`] → [`model`] (burn) → [`training`] worker
//! thread → plain-data [`training::TrainEvent`]s → `app` panels.
//! The model/training side never draws; the app side never touches a tensor.

/// mimalloc keeps freed pages for reuse where the system allocator hands them back
/// and faults them in again (measured in README "Performance"); the wrapper counts
/// each thread's allocations for the test that the fused step makes none.
#[global_allocator]
static ALLOCATOR: training::allocations::Counting = training::allocations::Counting;

pub mod app;
pub mod bughunt;
pub mod cli;
pub mod config;
pub mod experiments;
pub mod i18n;
pub mod lessons;
pub mod model;
pub mod pretrained;
pub mod probe;
pub mod progress;
pub mod runs;
pub mod tasks;
pub mod training;
pub mod ui;
pub mod workbench;

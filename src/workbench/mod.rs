//! The window's plain data, below both halves of the window: `app/` owns and
//! changes it, `ui/` draws from it and returns `actions::AppAction`s. Nothing here
//! draws, spawns a thread or touches a tensor.

pub mod actions;
pub mod checked;
pub mod inspection;
pub mod lesson_runner;
pub mod loss_climb;
mod notice;
pub mod path_request;
pub mod pretrained_view;
pub mod run_view;
pub mod series;
pub mod state;
pub mod step_progress;
pub mod window;

pub use path_request::PathRequest;

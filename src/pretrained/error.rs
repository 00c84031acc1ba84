//! What went wrong opening a checkpoint folder: always the file, then what is wrong
//! with it and what to do.

use std::path::Path;

/// A checkpoint that cannot be opened (or text it cannot read).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{file}: {message}")]
pub struct OpenError {
    /// The file at fault (or the folder, when a file is missing).
    pub file: String,
    pub message: String,
}

impl OpenError {
    pub fn new(file: &Path, message: impl Into<String>) -> Self {
        Self { file: file.display().to_string(), message: message.into() }
    }
}

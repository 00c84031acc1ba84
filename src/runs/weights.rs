//! The weights file: burn's burnpack format, read back with a shape check of our
//! own so a mismatch names the first parameter that differs and both shapes.

use std::collections::HashMap;
use std::path::Path;

use burn::module::Module;

use super::atomic::write_atomic_with;
use super::{RunError, file_error};
use crate::model::{Transformer, param_shapes};
use crate::t;

pub fn save(path: &Path, model: Transformer) -> Result<(), RunError> {
    write_atomic_with(path, |temp| model.save_file(temp).map_err(|e| e.to_string()))
        .map_err(|why| file_error(path, t!("err-weights-cannot-write", why = why)))
}

/// Load weights into a model of the architecture `like` has.
pub fn load(path: &Path, like: &Transformer) -> Result<Transformer, RunError> {
    let stored = read_shapes(path)?;
    let expected = param_shapes(like);
    for param in &expected {
        match stored.get(&param.path) {
            None => {
                return Err(RunError::Mismatch {
                    path: path.to_path_buf(),
                    why: t!("err-weights-parameter-missing", parameter = param.path.as_str(), shape = format!("{:?}", param.shape)),
                });
            }
            Some(shape) if *shape != param.shape => {
                return Err(RunError::Mismatch {
                    path: path.to_path_buf(),
                    why: t!("err-weights-shape-differs",
                        parameter = param.path.as_str(),
                        stored = format!("{shape:?}"),
                        needed = format!("{:?}", param.shape)
                    ),
                });
            }
            Some(_) => {}
        }
    }
    if let Some(extra) = stored.keys().find(|k| !expected.iter().any(|p| &p.path == *k)) {
        return Err(RunError::Mismatch {
            path: path.to_path_buf(),
            why: t!("err-weights-extra-parameter", parameter = extra.as_str()),
        });
    }
    let fresh = like.clone();
    let loaded = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| fresh.try_load_file(path)));
    match loaded {
        Ok(Ok(model)) => Ok(model),
        Ok(Err(err)) => Err(file_error(path, t!("err-weights-cannot-load", why = err.to_string()))),
        Err(_) => Err(file_error(path, t!("err-weights-reader-failed-on-file"))),
    }
}

/// Parameter path → shape, as stored in the file.
fn read_shapes(path: &Path) -> Result<HashMap<String, Vec<usize>>, RunError> {
    let not_weights = |detail: String| {
        file_error(
            path,
            t!("err-weights-unreadable", why = detail),
        )
    };
    if !path.is_file() {
        return Err(file_error(path, t!("err-weights-missing")));
    }
    let read = std::panic::catch_unwind(|| -> Result<HashMap<String, Vec<usize>>, String> {
        let reader = burn_pack::Reader::from_file(path).map_err(|e| e.to_string())?;
        let tensors = reader.into_tensors().map_err(|e| e.to_string())?;
        tensors
            .into_iter()
            .map(|t| {
                let (name, _dtype, shape, _id, _bytes) = t.into_parts().map_err(|e| e.to_string())?;
                Ok((name, shape.to_vec()))
            })
            .collect()
    });
    match read {
        Ok(Ok(shapes)) => Ok(shapes),
        Ok(Err(detail)) => Err(not_weights(detail)),
        Err(_) => Err(not_weights(t!("err-weights-reader-failed"))),
    }
}

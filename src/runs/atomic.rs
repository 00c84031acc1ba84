//! Atomic file writes: write a temporary file beside the target, flush it to disk,
//! then rename it over the target (a rename within one folder is atomic).

use std::io::Write;
use std::path::Path;

pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    // A temporary file is private (0600); what the learner saves or hands in is
    // an ordinary file, readable by others as the user's files usually are.
    let mut file = tempfile::NamedTempFile::new_in(dir)?;
    // Set after creation, so the user's umask does not narrow it again.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        file.as_file().set_permissions(std::fs::Permissions::from_mode(0o644))?;
    }
    file.write_all(bytes)?;
    file.as_file().sync_all()?;
    file.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Write through a closure that takes a temporary path (for writers that insist
/// on a path of their own, like burn's), then rename into place.
pub fn write_atomic_with(path: &Path, write: impl FnOnce(&Path) -> Result<(), String>) -> Result<(), String> {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let temp = tempfile::Builder::new()
        .prefix(".partial-")
        .tempdir_in(dir)
        .map_err(|e| e.to_string())?;
    let file_name = path.file_name().ok_or("the path has no file name")?;
    let temp_path = temp.path().join(file_name);
    write(&temp_path)?;
    std::fs::rename(&temp_path, path).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_the_file_and_leaves_no_temporaries() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("a.json");
        write_atomic(&target, b"one").unwrap();
        write_atomic(&target, b"two").unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"two");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn a_written_file_is_readable_by_others() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("progress.json");
        write_atomic(&target, b"{}").unwrap();
        assert_eq!(std::fs::metadata(&target).unwrap().permissions().mode() & 0o777, 0o644);
    }
}

//! File writing that never leaves a half-written file behind.

use anyhow::{Context, Result};
use std::io::Write;
use std::path::Path;

/// Writes `bytes` to a temporary file beside `path` (tempfile's), flushes it to disk, then
/// renames it over `path` (`persist`): a reader, or a run killed mid-write, sees either the
/// old file or the new one, never a mix. A failed write removes its temporary file.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::Builder::new()
        .prefix(".stacktune-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .with_context(|| format!("cannot write {}", path.display()))?;
    tmp.write_all(bytes)
        .and_then(|()| tmp.as_file().sync_all())
        .with_context(|| format!("cannot write {}", tmp.path().display()))?;
    tmp.persist(path)
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_whole_file_and_leaves_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("w.toml");
        write_atomic(&path, b"first").unwrap();
        write_atomic(&path, b"second").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "second");
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1);
    }

    #[test]
    fn missing_directory_is_an_error_naming_the_path() {
        let err = write_atomic(Path::new("/nonexistent-dir/x.toml"), b"x").unwrap_err();
        assert!(format!("{err:#}").contains("/nonexistent-dir/"), "{err:#}");
    }
}

//! File writing that never leaves a half-written file behind.

use anyhow::{Context, Result};
use std::io::Write;
use std::path::Path;

/// Writes `bytes` to a temporary file beside `path`, then renames it over `path`: a reader, or
/// a run killed mid-write, sees either the old file or the new one, never a mix.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    write_then(path, bytes, |tmp| {
        std::fs::rename(tmp, path)
            .with_context(|| format!("cannot rename {} to {}", tmp.display(), path.display()))
    })
}

/// [`write_atomic`] for a file that must not exist yet: the whole file appears under `path` at
/// once, and an existing file (even one created meanwhile) is refused, never replaced.
pub fn write_new(path: &Path, bytes: &[u8]) -> Result<()> {
    refuse_existing(path)?;
    write_then(path, bytes, |tmp| {
        // A hard link never replaces its target, unlike a rename.
        let linked = std::fs::hard_link(tmp, path);
        let _ = std::fs::remove_file(tmp);
        match linked {
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Err(already_exists(path)),
            other => other
                .with_context(|| format!("cannot link {} to {}", tmp.display(), path.display())),
        }
    })
}

/// The error [`write_new`] gives for an existing `path`, for a caller that checks before
/// long work.
pub fn refuse_existing(path: &Path) -> Result<()> {
    match path.exists() {
        true => Err(already_exists(path)),
        false => Ok(()),
    }
}

fn already_exists(path: &Path) -> anyhow::Error {
    anyhow::anyhow!("{} already exists; it is not overwritten", path.display())
}

/// Writes `bytes` to a temporary file beside `path` and hands it to `finish`, which puts it in
/// place; the temporary file is removed if anything fails.
fn write_then(path: &Path, bytes: &[u8], finish: impl FnOnce(&Path) -> Result<()>) -> Result<()> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .with_context(|| format!("{} is not a file path", path.display()))?;
    let tmp = dir.join(format!(
        ".{}.tmp-{}",
        name.to_string_lossy(),
        std::process::id()
    ));
    let result = (|| -> Result<()> {
        let mut f = std::fs::File::create(&tmp)
            .with_context(|| format!("cannot create {}", tmp.display()))?;
        f.write_all(bytes)
            .with_context(|| format!("cannot write {}", tmp.display()))?;
        f.sync_all()
            .with_context(|| format!("cannot flush {}", tmp.display()))?;
        finish(&tmp)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
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
    fn a_new_file_never_replaces_one_and_leaves_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.jsonl");
        write_new(&path, b"first").unwrap();
        let err = write_new(&path, b"second").unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("{} already exists; it is not overwritten", path.display())
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "first");
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1);
    }

    #[test]
    fn missing_directory_is_an_error_naming_the_path() {
        let err = write_atomic(Path::new("/nonexistent-dir/x.toml"), b"x").unwrap_err();
        assert!(format!("{err:#}").contains("/nonexistent-dir/"), "{err:#}");
    }
}

//! File writing that never leaves a half-written file behind.

use anyhow::{Context, Result};
use std::io::Write;
use std::path::{Component, Path, PathBuf};

/// Writes `bytes` to a temporary file beside `path` (tempfile's), flushes it to disk, then
/// renames it over `path` (`persist`): a reader, or a run killed mid-write, sees either the
/// old file or the new one, never a mix. A failed write removes its temporary file.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut builder = tempfile::Builder::new();
    builder.prefix(".stacktune-").suffix(".tmp");
    // tempfile makes private files (0600); a report is created as any file is (0666 less the
    // umask), so that others may read it.
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    let mut tmp = builder
        .tempfile_in(dir)
        .with_context(|| format!("cannot write {}", path.display()))?;
    tmp.write_all(bytes)
        .and_then(|()| tmp.as_file().sync_all())
        .with_context(|| format!("cannot write {}", tmp.path().display()))?;
    tmp.persist(path)
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

/// `path` with `.` dropped and each `name/..` pair removed, read as text: `cfg/../w.toml` is
/// `w.toml`. Unlike `canonicalize` it needs no file to exist and keeps a relative path
/// relative; it reads a symbolic link followed by `..` as the folder the link is in.
pub fn clean(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir
                if matches!(out.components().next_back(), Some(Component::Normal(_))) =>
            {
                out.pop();
            }
            // `/..` is `/`.
            Component::ParentDir if out.has_root() => {}
            c => out.push(c),
        }
    }
    out
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

    #[cfg(unix)]
    #[test]
    fn written_files_are_readable_as_created_files_are() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let (ours, plain) = (dir.path().join("a"), dir.path().join("b"));
        write_atomic(&ours, b"x").unwrap();
        std::fs::write(&plain, b"x").unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode();
        assert_eq!(mode(&ours), mode(&plain));
    }

    #[test]
    fn clean_removes_dots_as_text() {
        for (path, want) in [
            ("reports/run/../../weights/a.toml", "weights/a.toml"),
            ("../x/./y/..", "../x"),
            ("/a/../../b", "/b"),
            ("a/..", ""),
        ] {
            assert_eq!(clean(Path::new(path)), Path::new(want), "{path}");
        }
    }

    #[test]
    fn missing_directory_is_an_error_naming_the_path() {
        let err = write_atomic(Path::new("/nonexistent-dir/x.toml"), b"x").unwrap_err();
        assert!(format!("{err:#}").contains("/nonexistent-dir/"), "{err:#}");
    }
}

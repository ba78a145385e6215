//! File writing that never leaves a half-written file behind, and reading with a cap.

use anyhow::{Context, Result};
use std::io::{Read, Write};
use std::path::{Component, Path, PathBuf};

/// The most a text file a user names (weights, a config, a board, a checkpoint) may hold: the
/// largest of them is a few megabytes, so more is a wrong path (`/dev/zero`), not an input.
pub const MAX_TEXT_FILE: u64 = 64 << 20;

/// The text of `path`, read to at most [`MAX_TEXT_FILE`] bytes: a device or a file without end
/// costs a bounded read, and bytes that are not text say so, rather than how the reading failed.
pub fn read_text(path: &Path) -> std::io::Result<String> {
    read_text_from(std::fs::File::open(path)?)
}

/// The text `reader` gives (standard input, say) to its end, under [`read_text`]'s cap and
/// checks: a stream without end costs a bounded read too.
pub fn read_text_from(reader: impl Read) -> std::io::Result<String> {
    let mut bytes = Vec::new();
    reader.take(MAX_TEXT_FILE + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_TEXT_FILE {
        return Err(std::io::Error::other(format!(
            "it is over {} MiB, more than any file of its kind holds",
            MAX_TEXT_FILE >> 20
        )));
    }
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        std::io::Error::other(format!(
            "it is not text (byte {at} is not UTF-8): damaged, or not a file of its kind"
        ))
    })
}

/// Writes `bytes` to a temporary file beside `path` (tempfile's), flushes it to disk, then
/// renames it over `path` (`persist`): a reader, or a run killed mid-write, sees either the
/// old file or the new one, never a mix. A failed write removes its temporary file.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    // The rename's own error, once: tempfile's error repeats it as its source.
    temporary_beside(path, bytes)?
        .persist(path)
        .map_err(|e| e.error)
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

/// [`write_atomic`] for a file that must not exist yet: the whole file appears under `path` at
/// once, and an existing file (even one created meanwhile) is refused, never replaced.
pub fn write_new(path: &Path, bytes: &[u8]) -> Result<()> {
    refuse_existing(path)?;
    match temporary_beside(path, bytes)?.persist_noclobber(path) {
        Ok(_) => Ok(()),
        Err(e) if e.error.kind() == std::io::ErrorKind::AlreadyExists => Err(already_exists(path)),
        Err(e) => Err(e.error).with_context(|| format!("cannot write {}", path.display())),
    }
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

/// `bytes` in a temporary file in `path`'s folder, flushed to disk; it is removed unless it is
/// persisted.
fn temporary_beside(path: &Path, bytes: &[u8]) -> Result<tempfile::NamedTempFile> {
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
    Ok(tmp)
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

/// The one line for a panic of `print!` or `eprint!` on a failed write (`failed printing to
/// stdout: No space left on device`), `None` for any other panic: the standard library reports
/// such a failure by panicking wherever the write was, and a full disk or `> /dev/full` is the
/// user's to fix, not a bug to show a backtrace for.
pub fn failed_output(panic: &(dyn std::any::Any + Send)) -> Option<String> {
    let message = panic
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| panic.downcast_ref::<&str>().copied())?;
    let failed = message.strip_prefix("failed printing to ")?;
    let (stream, why) = failed.split_once(": ").unwrap_or((failed, "failed"));
    let stream = match stream {
        "stdout" => "standard output",
        _ => "standard error",
    };
    Some(format!("cannot write to {stream}: {why}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_print_is_a_line_and_any_other_panic_is_not() {
        let panic: Box<dyn std::any::Any + Send> = Box::new(
            "failed printing to stdout: No space left on device (os error 28)".to_string(),
        );
        assert_eq!(
            failed_output(&*panic).as_deref(),
            Some("cannot write to standard output: No space left on device (os error 28)")
        );
        let panic: Box<dyn std::any::Any + Send> =
            Box::new("failed printing to stderr: Broken pipe");
        assert_eq!(
            failed_output(&*panic).as_deref(),
            Some("cannot write to standard error: Broken pipe")
        );
        let panic: Box<dyn std::any::Any + Send> = Box::new("index out of bounds");
        assert_eq!(failed_output(&*panic), None);
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

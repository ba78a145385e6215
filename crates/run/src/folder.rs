//! A run folder: where one run writes, and nothing else does.
//!
//! A run gets a folder that did not exist, or an empty one the user named; a resumed run gets
//! the folder its run.toml is in. One process at a time holds a folder: an OS lock on its
//! `.lock` file (std's `File::try_lock`, an advisory `flock` that the kernel releases however
//! the process ends), with the holder's pid written in it so that a refused process can say
//! who holds it. What was in a folder before is never overwritten or deleted: `--force` moves
//! a run folder (one with a run.toml: stacktune made it) aside to a dated name first, and
//! nothing else: never a file, a device, a symbolic link or a folder of the user's.

use anyhow::{Context, Result, bail};
use stacktune_base::fsutil::{clean, read_text};
use std::fs::{self, File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// The lock file inside a run folder; it holds the pid of the process that locked it.
const LOCK: &str = ".lock";

/// A run folder, locked by this process for as long as the value lives.
#[derive(Debug)]
pub struct RunFolder {
    path: PathBuf,
    _lock: File,
}

/// What a folder that is about to become a run folder holds.
#[derive(Debug, PartialEq)]
enum Held {
    Nothing,
    /// A file, where a folder should be.
    File,
    /// Something else that is not a folder (a device, a socket, a pipe).
    NotAFolder,
    /// A symbolic link to something that is not empty: `--force` would move the link's
    /// target's name, not what it names, and the target is not ours to judge.
    Link,
    /// Files and folders that are not a run, by name (the first few).
    NotARun(Vec<String>),
    AnotherRun,
    ThisRunUnfinished,
    ThisRunFinished,
}

impl RunFolder {
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// A new folder `parent/stem`, or `parent/stem-2`, `-3`, ...: the first name not taken.
    /// `create_dir` fails on a name that exists, so two runs started together never share one.
    pub fn create_new(parent: &Path, stem: &str) -> Result<RunFolder> {
        fs::create_dir_all(parent)
            .with_context(|| format!("cannot create folder {}", parent.display()))?;
        let mut n = 1u32;
        loop {
            let path = match n {
                1 => parent.join(stem),
                n => parent.join(format!("{stem}-{n}")),
            };
            match fs::create_dir(&path) {
                Ok(()) => return lock(path),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => n += 1,
                Err(e) => bail!("cannot create run folder {}: {e}", path.display()),
            }
        }
    }

    /// The folder `--out` names, for a new run: created when missing, taken when empty,
    /// refused with what it holds and what to do otherwise, unless `force`, which moves what is
    /// there aside first. `same_run` tells whether an existing run.toml describes this very run.
    pub fn claim(path: &Path, force: bool, same_run: impl Fn(&Path) -> bool) -> Result<RunFolder> {
        check_not_above_here(path, "--out")?;
        // A folder of ours may be in use: take its lock before looking, so that a second
        // writer hears who holds it. A folder of someone else's gets no lock file from us.
        let ours = path.is_dir() && path.join(LOCK).is_file();
        let held_lock = if ours {
            Some(lock(path.to_path_buf())?)
        } else {
            None
        };
        let dir = path.display();
        const NOT_OURS: &str =
            "choose another --out (--force moves aside only a run folder stacktune made)";
        let (what, resume): (&str, String) = match survey(path, &same_run)? {
            Held::Nothing => return held_lock.map_or_else(|| create_and_lock(path), Ok),
            Held::File => bail!("{dir} is a file, not a folder; {NOT_OURS}"),
            Held::NotAFolder => bail!("{dir} is not a folder; {NOT_OURS}"),
            Held::Link => bail!("{dir} is a symbolic link; {NOT_OURS}"),
            Held::NotARun(names) => bail!(
                "{dir} holds files that are not a run ({}); {NOT_OURS}",
                names.join(", ")
            ),
            _ if force => {
                let aside = aside_name(path);
                fs::rename(path, &aside)
                    .with_context(|| format!("cannot move {dir} aside to {}", aside.display()))?;
                drop(held_lock);
                eprintln!("moved {dir} aside to {}", aside.display());
                return create_and_lock(path);
            }
            Held::AnotherRun => ("holds another run (its run.toml differs)", String::new()),
            Held::ThisRunUnfinished => (
                "holds an unfinished run of this config",
                format!("continue it with --resume {dir}, "),
            ),
            Held::ThisRunFinished => ("holds a finished run of this config", String::new()),
        };
        bail!(
            "{dir} {what}; {resume}choose another --out, or add --force to move it aside to a dated name"
        )
    }

    /// Ends the run's hold on a finished folder: removes the lock file, so that the folder
    /// holds the run's files alone (and can be copied, or committed as a reference run). No
    /// writer can take the folder afterwards: a finished run is refused by both `claim` and
    /// `resume` whether or not it has a lock file.
    pub fn finish(self) -> Result<()> {
        let lock = self.path.join(LOCK);
        match fs::remove_file(&lock) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                bail!("cannot remove the lock {}: {e}", lock.display())
            }
            _ => Ok(()),
        }
    }

    /// The folder of a run to resume: it must hold a run that is not finished (`rerun` gives
    /// how to run a finished one again, `None` for one not finished), and no other process may
    /// be writing it. A finished run is refused before its folder is locked, so that its
    /// folder (a shipped reference run, say) gains no lock file, and again once locked.
    pub fn resume(path: &Path, rerun: impl Fn(&Path) -> Option<String>) -> Result<RunFolder> {
        check_not_above_here(path, "--resume")?;
        let dir = path.display();
        if !path.join("run.toml").is_file() {
            bail!("{dir} holds no run to resume (no run.toml there)");
        }
        let refuse_finished = || {
            if let Some(again) = rerun(path) {
                bail!(
                    "{dir} holds a finished run (its best.toml is written): nothing to resume; to run it again: {again}"
                );
            }
            Ok(())
        };
        refuse_finished()?;
        let folder = lock(path.to_path_buf())?;
        refuse_finished()?;
        remove_stale_temporaries(path)?;
        Ok(folder)
    }
}

impl RunFolder {
    /// The folder `--out` names for a comparison: one that holds a comparison stopped before
    /// its end whose `record` file reads `text` (the same configs, repeats and budget) is
    /// locked and kept, for the comparison to go on in it; any other is claimed as a run's
    /// folder is ([`claim`](RunFolder::claim), without `--force`).
    pub fn for_comparison(path: &Path, record: &str, text: &str) -> Result<RunFolder> {
        let held = path.join(record);
        let link = fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
        if link || !held.is_file() {
            return Self::claim(path, false, |_| false);
        }
        check_not_above_here(path, "--out")?;
        let folder = lock(path.to_path_buf())?;
        let dir = path.display();
        if read_text(&held)? != text {
            bail!("{dir} holds another comparison (its {record} differs); choose another --out");
        }
        if path.join("summary.csv").is_file() {
            bail!("{dir} holds a finished comparison; choose another --out");
        }
        remove_stale_temporaries(path)?;
        Ok(folder)
    }

    /// The folder of a run whose report page is rewritten (`stacktune report`): locked, so
    /// that no `evolve` writes it meanwhile; [`finish`](RunFolder::finish) unlocks it.
    pub fn for_report(path: &Path) -> Result<RunFolder> {
        lock(path.to_path_buf())
    }
}

/// Refuses the current folder and the folders above it: a run folder holds only the run, and
/// `--force` must never move the user's working folder aside.
fn check_not_above_here(path: &Path, flag: &str) -> Result<()> {
    let here = std::env::current_dir().context("cannot read the current folder")?;
    let there = std::path::absolute(path)
        .with_context(|| format!("{flag} {}: not a valid path", path.display()))?;
    if here.starts_with(clean(&there)) {
        bail!(
            "{flag} {}: that is the current folder or one above it; name a folder of its own for the run",
            path.display()
        );
    }
    Ok(())
}

/// Removes the temporary files a writer killed mid-write left in a run folder (files are
/// written whole beside their name, `.stacktune-XXXXXX.tmp`, then renamed): the folder is
/// locked, so no writer of it is alive.
fn remove_stale_temporaries(path: &Path) -> Result<()> {
    let entries =
        fs::read_dir(path).with_context(|| format!("cannot read folder {}", path.display()))?;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let stale = name.starts_with(".stacktune-") && name.ends_with(".tmp");
        if stale && entry.file_type().is_ok_and(|t| t.is_file()) {
            fs::remove_file(entry.path())
                .with_context(|| format!("cannot remove {}", entry.path().display()))?;
        }
    }
    Ok(())
}

/// What `path` holds, its lock file aside.
fn survey(path: &Path, same_run: &impl Fn(&Path) -> bool) -> Result<Held> {
    let Ok(meta) = fs::metadata(path) else {
        return Ok(Held::Nothing);
    };
    if meta.is_file() {
        return Ok(Held::File);
    }
    if !meta.is_dir() {
        return Ok(Held::NotAFolder);
    }
    let link = fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    let mut names: Vec<String> = fs::read_dir(path)
        .with_context(|| format!("cannot read folder {}", path.display()))?
        .map(|e| e.map(|e| e.file_name().to_string_lossy().into_owned()))
        .collect::<std::io::Result<_>>()
        .with_context(|| format!("cannot read folder {}", path.display()))?;
    names.retain(|n| n != LOCK);
    names.sort();
    let run_toml = path.join("run.toml");
    Ok(if names.is_empty() {
        Held::Nothing
    } else if link {
        Held::Link
    } else if !run_toml.is_file() {
        let more = names.len() > 3;
        names.truncate(3);
        if more {
            names.push("...".into());
        }
        Held::NotARun(names)
    } else if !same_run(&run_toml) {
        Held::AnotherRun
    } else if path.join("best.toml").is_file() {
        Held::ThisRunFinished
    } else {
        Held::ThisRunUnfinished
    })
}

fn create_and_lock(path: &Path) -> Result<RunFolder> {
    fs::create_dir_all(path)
        .with_context(|| format!("cannot create run folder {}", path.display()))?;
    let folder = lock(path.to_path_buf())?;
    // Another process may have filled the folder between our look and our lock.
    if fs::read_dir(path)?.any(|e| e.is_ok_and(|e| e.file_name() != LOCK)) {
        bail!(
            "{} was filled by another process while this one started; choose another --out",
            path.display()
        );
    }
    Ok(folder)
}

/// Locks `path/.lock` (creating it) and writes this process's pid in it.
fn lock(path: PathBuf) -> Result<RunFolder> {
    let lock_path = path.join(LOCK);
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&lock_path)
        .with_context(|| format!("cannot open the lock {}", lock_path.display()))?;
    match file.try_lock() {
        Ok(()) => {
            file.set_len(0)
                .and_then(|()| writeln!(file, "{}", std::process::id()))
                .with_context(|| format!("cannot write the lock {}", lock_path.display()))?;
            Ok(RunFolder { path, _lock: file })
        }
        Err(std::fs::TryLockError::WouldBlock) => {
            let mut pid = String::new();
            // The holder writes its pid right after locking; it may not be there yet.
            let _ = file.read_to_string(&mut pid);
            let pid = match pid.trim() {
                "" => "pid not yet written".to_string(),
                p => format!("pid {p}"),
            };
            if pid == format!("pid {}", std::process::id()) {
                bail!(
                    "{} is in use by a run of this process ({pid}): finish that run (or stop it, or let it go) before another run uses the folder",
                    path.display()
                );
            }
            bail!(
                "{} is in use by another stacktune process ({pid}); wait for it to end, or stop it",
                path.display()
            )
        }
        Err(std::fs::TryLockError::Error(e)) => {
            bail!("cannot lock {}: {e}", lock_path.display())
        }
    }
}

/// `<path>.old-<UTC date and time>`, with `-2`, `-3`, ... when that name is taken.
fn aside_name(path: &Path) -> PathBuf {
    let stamp = humantime::format_rfc3339_seconds(SystemTime::now())
        .to_string()
        .replace(':', "-");
    let base = format!("{}.old-{stamp}", path.display());
    (1u32..)
        .map(|n| match n {
            1 => PathBuf::from(&base),
            n => PathBuf::from(format!("{base}-{n}")),
        })
        .find(|p| !p.exists())
        .expect("some name is free")
}

//! Ctrl-C ends a long command within a second, mid-game: the games under way are dropped,
//! never recorded, and a run keeps the checkpoint of its last whole generation. Each test
//! sends a real SIGINT once the child has the state it needs (its Ctrl-C handler installed,
//! its first checkpoint written) and bounds its wait for the end by a timeout of its own,
//! so a command that ignores the signal fails its test rather than hanging CI.

use crate::common::{read, resume_gives_whole, root, run_in};
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Far longer than a stopped command takes, far shorter than the games it stops: El-Tetris
/// plays a 10 × 20 game for hours.
const BOUND: Duration = Duration::from_secs(120);

/// Whether process `pid` has a handler for SIGINT (Linux: bit 2 of `SigCgt` in its status).
pub(crate) fn catches_sigint(pid: u32) -> bool {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("SigCgt:"))
        .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
        .is_some_and(|mask| mask & (1 << (libc::SIGINT - 1)) != 0)
}

pub(crate) fn interrupt(child: &Child) {
    // SAFETY: a plain kill(2) of our own child, which has not been waited for.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
}

/// The child's output once it ends, or a failed test (the child killed) when it runs past
/// [`BOUND`].
pub(crate) fn ended(mut child: Child, what: &str) -> Output {
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > BOUND {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("{what} still ran {BOUND:?} after Ctrl-C");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    child.wait_with_output().unwrap()
}

/// Waits until `ready` holds while `child` runs, as `common::wait_while_running` does, within
/// [`BOUND`]: a child that never gets there (never installs its handler) fails the test.
pub(crate) fn wait_while_running(child: &mut Child, what: &str, ready: impl Fn() -> bool) {
    let start = Instant::now();
    while !ready() {
        if let Some(status) = child.try_wait().unwrap() {
            panic!("the child ended ({status}) before {what}");
        }
        if start.elapsed() > BOUND {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("no {what} within {BOUND:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

pub(crate) fn spawn(dir: &Path, args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_stacktune"))
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

pub(crate) fn one_line_error(out: &Output) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    stderr.trim_end().to_string()
}

#[test]
fn play_stops_mid_game_on_ctrl_c() {
    let weights = root().join("weights/tetris/el-tetris.toml");
    let mut child = spawn(
        &root(),
        &[
            "play",
            "--weights",
            weights.to_str().unwrap(),
            "--games",
            "1",
            "--threads",
            "1",
            "--quiet",
        ],
    );
    let pid = child.id();
    wait_while_running(&mut child, "its Ctrl-C handler", || catches_sigint(pid));
    interrupt(&child);
    let out = ended(child, "play");
    assert_eq!(
        one_line_error(&out),
        "error: stopped before its 1 games were played (Ctrl-C); nothing is reported"
    );
    assert!(out.stdout.is_empty());
}

/// A run whose first generation never ends by itself: El-Tetris's weights on 10 × 20, games
/// uncapped.
const ENDLESS: &str = "name = \"endless\"\ngenerations = 3\ngames = 2\nthreads = 1\nvalidation_games = 1\nfinal_games = 1\n[ga]\npopulation = 4\n";

#[test]
fn a_run_stops_mid_generation_keeping_its_last_checkpoint() {
    let dir = tempfile::tempdir().unwrap();
    let init = root().join("weights/tetris/el-tetris.toml");
    let config = format!("init = {:?}\n{ENDLESS}", init.to_str().unwrap());
    std::fs::write(dir.path().join("endless.toml"), config).unwrap();
    let mut child = spawn(
        dir.path(),
        &[
            "evolve",
            "--config",
            "endless.toml",
            "--out",
            "run",
            "--quiet",
        ],
    );
    let pid = child.id();
    let checkpoint = dir.path().join("run/checkpoint.json");
    wait_while_running(&mut child, "its first checkpoint", || {
        checkpoint.is_file() && catches_sigint(pid)
    });
    let first = read(&dir.path().join("run"), "checkpoint.json");
    interrupt(&child);
    let out = ended(child, "evolve");
    assert_eq!(
        one_line_error(&out),
        "error: stopped during generation 0; resume with: stacktune evolve --resume run"
    );
    // Nothing of the stopped generation is recorded.
    assert_eq!(read(&dir.path().join("run"), "checkpoint.json"), first);
    assert!(!dir.path().join("run/history.csv").exists());
}

/// A small run, stopped by Ctrl-C once its first generation is recorded and resumed, writes
/// the bytes of the same run left alone: the games the signal cut short left no trace.
#[test]
fn a_run_stopped_by_ctrl_c_resumes_to_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let init = root().join("weights/tetris/el-tetris.toml");
    let config = format!(
        "name = \"cut\"\ninit = {:?}\nseed = 3\ngenerations = 6\ngames = 4\nmax_pieces = 3000\nfeatures = [\"landing_height\", \"lines_cleared\", \"holes\"]\nvalidation_games = 4\nvalidate_every = 2\nfinal_games = 8\nvalidation_max_pieces = 3000\n[game]\ngame = \"tetris\"\nwidth = 8\nheight = 12\n[ga]\npopulation = 6\nelitism = 1\n",
        init.to_str().unwrap()
    );
    std::fs::write(dir.path().join("cut.toml"), config).unwrap();
    let whole = run_in(
        dir.path(),
        &[
            "evolve", "--config", "cut.toml", "--out", "whole", "--quiet",
        ],
    );
    assert!(
        whole.status.success(),
        "{}",
        String::from_utf8_lossy(&whole.stderr)
    );
    let mut child = spawn(
        dir.path(),
        &[
            "evolve",
            "--config",
            "cut.toml",
            "--out",
            "cut",
            "--quiet",
            "--threads",
            "1",
        ],
    );
    let pid = child.id();
    let history = dir.path().join("cut/history.csv");
    wait_while_running(&mut child, "its first generation", || {
        history.is_file() && catches_sigint(pid)
    });
    interrupt(&child);
    let out = ended(child, "evolve");
    let line = one_line_error(&out);
    assert!(
        line.starts_with("error: stopped ")
            && line.ends_with("resume with: stacktune evolve --resume cut"),
        "{line}"
    );
    resume_gives_whole(dir.path(), "after Ctrl-C");
}

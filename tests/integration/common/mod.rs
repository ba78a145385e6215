//! Running the real `stacktune` binary from integration tests.

#![allow(dead_code)]

pub mod bots;
pub mod fuzz;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output};
use std::time::Duration;

/// The repository root, where `weights/` lives.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs the binary with `args` in `dir`.
pub fn run_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_stacktune"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the stacktune binary runs")
}

/// Runs the binary in the repository root.
pub fn run(args: &[&str]) -> Output {
    run_in(&root(), args)
}

/// Asserts a clean failure: non-zero exit, no panic, exactly one line on stderr starting with
/// `error:` and containing `needle`.
pub fn assert_one_line_error(out: &Output, needle: &str) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "expected failure, stderr: {stderr}");
    assert_eq!(out.status.code(), Some(1), "stderr: {stderr}");
    assert!(!stderr.contains("panicked"), "panic: {stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "want one line, got: {stderr}");
    assert!(lines[0].starts_with("error: "), "{stderr}");
    assert!(lines[0].contains(needle), "want `{needle}` in: {stderr}");
}

/// Asserts a one-line error that is exactly `message`.
pub fn assert_error(out: &Output, message: &str) {
    assert_one_line_error(out, message);
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim_end(),
        format!("error: {message}")
    );
}

/// Runs `base` followed by each case's extra arguments in `dir`, and asserts each fails with
/// one line containing the case's needle: a command's table of refusals.
pub fn assert_each_refused(dir: &Path, base: &[&str], cases: &[(&[&str], &str)]) {
    for (extra, needle) in cases {
        let mut args = base.to_vec();
        args.extend_from_slice(extra);
        assert_one_line_error(&run_in(dir, &args), needle);
    }
}

/// The text of the file `name` in `dir`; the panic names both.
pub fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name))
        .unwrap_or_else(|e| panic!("{}: {e}", dir.join(name).display()))
}

pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Asserts success (showing stderr otherwise) and parses standard output as one JSON value.
pub fn json(out: &Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_str(&stdout(out)).expect("standard output is JSON")
}

/// Waits until `ready` holds while `child` runs: a test that needs a child mid-run waits for the
/// state it needs, never for an amount of time, so a loaded machine only makes it slower. Panics,
/// naming `what`, if the child ends first.
pub fn wait_while_running(child: &mut Child, what: &str, ready: impl Fn() -> bool) {
    while !ready() {
        if let Some(status) = child.try_wait().expect("the child can be waited for") {
            panic!("the child ended ({status}) before {what}");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Resumes the run `dir/cut` and asserts it ends with the bytes of the same run left alone,
/// `dir/whole`; `what` says which runs they are.
pub fn resume_gives_whole(dir: &Path, what: &str) {
    let resumed = run_in(dir, &["evolve", "--resume", "cut", "--quiet"]);
    assert!(
        resumed.status.success(),
        "{}",
        String::from_utf8_lossy(&resumed.stderr)
    );
    for name in ["history.csv", "best.toml", "checkpoint.json"] {
        assert_eq!(
            read(&dir.join("whole"), name),
            read(&dir.join("cut"), name),
            "{what}: {name} differs after resume"
        );
    }
}

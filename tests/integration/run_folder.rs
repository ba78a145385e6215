//! A run folder belongs to its run, through the real binary: new folders without `--out`,
//! refusals (saying what is there and what to do), `--force` moving the old folder aside, one
//! writer at a time, checked checkpoints, names that cannot escape, config paths relative to
//! the config, and the bounds on what a run may ask for. Every refusal leaves the folder as it
//! was, byte for byte.

use crate::common::*;
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A run of a second or so: Tetris 6 × 10, two generations of four candidates.
const TINY: &str = r#"
name = "tiny"
seed = 3
generations = 2
games = 2
max_pieces = 100
validation_games = 2
validate_every = 1
final_games = 4
validation_max_pieces = 100

[game]
game = "tetris"
width = 6
height = 10

[ga]
population = 4
elitism = 1
"#;

const REFUSE_TAIL: &str = "choose another --out, or add --force to move it aside to a dated name";
const NOT_OURS: &str =
    "choose another --out (--force moves aside only a run folder stacktune made)";

fn setup() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("tiny.toml"), TINY).unwrap();
    dir
}

fn evolve(dir: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["evolve", "--config", "tiny.toml", "--quiet"];
    args.extend_from_slice(extra);
    run_in(dir, &args)
}

fn success(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout(out)
}

/// Every file under `dir` with its bytes, the lock file aside (it holds the pid of the last
/// process that opened the folder).
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut files = BTreeMap::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                todo.push(path);
            } else if path.file_name().unwrap() != ".lock" {
                files.insert(
                    path.strip_prefix(dir).unwrap().to_path_buf(),
                    fs::read(&path).unwrap(),
                );
            }
        }
    }
    files
}

/// A finished tiny run in `dir/name`.
fn finished_run(dir: &Path, name: &str) -> BTreeMap<PathBuf, Vec<u8>> {
    success(&evolve(dir, &["--out", name]));
    snapshot(&dir.join(name))
}

#[test]
fn without_out_every_run_gets_a_new_folder_and_says_where() {
    let dir = setup();
    // Without --quiet it says where it writes first.
    let out = run_in(dir.path(), &["evolve", "--config", "tiny.toml"]);
    let first = success(&out);
    assert!(first.starts_with("report: runs/tetris-tiny\n"), "{first}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with("run folder: runs/tetris-tiny\n"),
        "{stderr}"
    );
    // A finished run holds its files alone: its lock file went with its writer.
    assert!(!dir.path().join("runs/tetris-tiny/.lock").exists());
    let before = snapshot(&dir.path().join("runs/tetris-tiny"));
    let second = success(&evolve(dir.path(), &[]));
    assert!(
        second.starts_with("report: runs/tetris-tiny-2\n"),
        "{second}"
    );
    assert_eq!(snapshot(&dir.path().join("runs/tetris-tiny")), before);
    // The same config gives the same history in both.
    assert_eq!(
        before[Path::new("history.csv")],
        fs::read(dir.path().join("runs/tetris-tiny-2/history.csv")).unwrap()
    );
}

/// Two runs started at once without --out get a folder each.
#[test]
fn runs_started_together_get_a_folder_each() {
    let dir = setup();
    let start = || {
        Command::new(env!("CARGO_BIN_EXE_stacktune"))
            .args(["evolve", "--config", "tiny.toml", "--quiet"])
            .current_dir(dir.path())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (a, b) = (start(), start());
    let mut reports: Vec<String> = [a, b]
        .into_iter()
        .map(|c| {
            success(&c.wait_with_output().unwrap())
                .lines()
                .next()
                .unwrap()
                .to_string()
        })
        .collect();
    reports.sort();
    assert_eq!(
        reports,
        ["report: runs/tetris-tiny", "report: runs/tetris-tiny-2"]
    );
    assert_eq!(
        fs::read(dir.path().join("runs/tetris-tiny/history.csv")).unwrap(),
        fs::read(dir.path().join("runs/tetris-tiny-2/history.csv")).unwrap()
    );
}

/// The main job in a fresh clone, twice: `git status` stays clean (runs/ is ignored) and the
/// shipped reference runs are not touched.
#[test]
fn main_job_in_a_clone_leaves_git_status_clean() {
    let dir = tempfile::tempdir().unwrap();
    let clone = dir.path().join("clone");
    let git = |args: &[&str], cwd: &Path| {
        let out = Command::new("git")
            .args(args)
            .current_dir(cwd)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        stdout(&out)
    };
    git(
        &[
            "clone",
            "-q",
            root().to_str().unwrap(),
            clone.to_str().unwrap(),
        ],
        dir.path(),
    );
    let reports = snapshot(&clone.join("reports"));
    let small: Vec<&str> = "evolve --generations 1 --population 4 --games 2 --quiet"
        .split(' ')
        .collect();
    let first = success(&run_in(&clone, &small));
    assert!(
        first.starts_with("report: runs/tetris-default\n"),
        "{first}"
    );
    fs::write(clone.join("tiny.toml"), TINY).unwrap();
    let second = success(&run_in(
        &clone,
        &["evolve", "--config", "tiny.toml", "--quiet"],
    ));
    assert!(second.starts_with("report: runs/tetris-tiny\n"), "{second}");
    fs::remove_file(clone.join("tiny.toml")).unwrap();
    assert_eq!(git(&["status", "--porcelain"], &clone), "");
    assert_eq!(snapshot(&clone.join("reports")), reports);
}

/// README's commands against the shipped reference runs are refused, and change nothing.
#[test]
fn readme_commands_cannot_touch_the_shipped_runs() {
    let reports = snapshot(&root().join("reports"));
    assert_error(
        &run(&["evolve", "--resume", "reports/tetris-long"]),
        "reports/tetris-long holds a finished run (its best.toml is written): nothing to resume; to run it again: stacktune evolve --config reports/tetris-long/run.toml",
    );
    assert_error(
        &run(&[
            "evolve",
            "--config",
            "reports/tetris-long/run.toml",
            "--out",
            "reports/tetris-long",
        ]),
        &format!("reports/tetris-long holds a finished run of this config; {REFUSE_TAIL}"),
    );
    assert_error(
        &run(&["evolve", "--out", "reports/tetris-long"]),
        &format!("reports/tetris-long holds another run (its run.toml differs); {REFUSE_TAIL}"),
    );
    assert_eq!(snapshot(&root().join("reports")), reports);
    assert!(!root().join("reports/tetris-long/.lock").exists());
}

#[test]
fn out_refuses_a_folder_that_is_not_a_run() {
    let dir = setup();
    fs::create_dir(dir.path().join("mine")).unwrap();
    fs::write(dir.path().join("mine/notes.txt"), "my notes").unwrap();
    fs::write(dir.path().join("mine/best.toml"), "my best").unwrap();
    fs::write(dir.path().join("file"), "x").unwrap();
    // --force changes nothing here: none of these is a run folder stacktune made.
    for force in [&[][..], &["--force"]] {
        let out = |name| [&["--out", name][..], force].concat();
        assert_error(
            &evolve(dir.path(), &out("mine")),
            &format!("mine holds files that are not a run (best.toml, notes.txt); {NOT_OURS}"),
        );
        assert_eq!(fs::read_dir(dir.path().join("mine")).unwrap().count(), 2);
        assert_error(
            &evolve(dir.path(), &out("file")),
            &format!("file is a file, not a folder; {NOT_OURS}"),
        );
        assert_eq!(fs::read_to_string(dir.path().join("file")).unwrap(), "x");
        #[cfg(unix)]
        assert_error(
            &evolve(dir.path(), &out("/dev/null")),
            &format!("/dev/null is not a folder; {NOT_OURS}"),
        );
    }
    assert!(Path::new("/dev/null").exists());
    // An empty folder is taken.
    fs::create_dir(dir.path().join("empty")).unwrap();
    success(&evolve(dir.path(), &["--out", "empty"]));
}

#[test]
fn out_refuses_a_run_saying_which() {
    let dir = setup();
    let finished = finished_run(dir.path(), "r");
    assert_error(
        &evolve(dir.path(), &["--out", "r"]),
        &format!("r holds a finished run of this config; {REFUSE_TAIL}"),
    );
    assert_error(
        &evolve(dir.path(), &["--out", "r", "--seed", "9"]),
        &format!("r holds another run (its run.toml differs); {REFUSE_TAIL}"),
    );
    // The thread count is not part of what a run is.
    assert_error(
        &evolve(dir.path(), &["--out", "r", "--threads", "1"]),
        &format!("r holds a finished run of this config; {REFUSE_TAIL}"),
    );
    assert_eq!(snapshot(&dir.path().join("r")), finished);
    // Stopped during its final scoring: best.toml is not written yet.
    fs::remove_file(dir.path().join("r/best.toml")).unwrap();
    let unfinished = snapshot(&dir.path().join("r"));
    assert_error(
        &evolve(dir.path(), &["--out", "r"]),
        &format!(
            "r holds an unfinished run of this config; continue it with --resume r, {REFUSE_TAIL}"
        ),
    );
    assert_eq!(snapshot(&dir.path().join("r")), unfinished);
    // --resume finishes it, to the same best weights, and removes the temporary file a
    // writer killed mid-write left (the snapshot would show it).
    fs::write(
        dir.path().join("r/.stacktune-Xy12Ab.tmp"),
        "half a checkpoint",
    )
    .unwrap();
    success(&run_in(dir.path(), &["evolve", "--resume", "r", "--quiet"]));
    assert_eq!(snapshot(&dir.path().join("r")), finished);
}

/// The folders in `dir` that `--force` made of `name`: `<name>.old-<date>`.
fn moved_aside(dir: &Path, name: &str) -> Vec<PathBuf> {
    let prefix = format!("{name}.old-");
    fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with(&prefix)
        })
        .collect()
}

#[test]
fn force_moves_the_old_folder_aside_and_deletes_nothing() {
    let dir = setup();
    let old = finished_run(dir.path(), "r");
    let out = evolve(dir.path(), &["--out", "r", "--seed", "9", "--force"]);
    success(&out);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let aside = moved_aside(dir.path(), "r");
    assert_eq!(aside.len(), 1, "{aside:?}");
    let name = aside[0].file_name().unwrap().to_string_lossy().into_owned();
    assert_eq!(stderr, format!("moved r aside to {name}\n"));
    assert_eq!(snapshot(&aside[0]), old);
    assert!(
        fs::read_to_string(dir.path().join("r/run.toml"))
            .unwrap()
            .contains("seed = 9")
    );
    // A link to a run is not moved, nor is what it names.
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("r", dir.path().join("link")).unwrap();
        let before = snapshot(&dir.path().join("r"));
        assert_error(
            &evolve(dir.path(), &["--out", "link", "--force"]),
            &format!("link is a symbolic link; {NOT_OURS}"),
        );
        assert_eq!(snapshot(&dir.path().join("r")), before);
        assert_eq!(moved_aside(dir.path(), "r").len(), 1);
        assert_eq!(moved_aside(dir.path(), "link").len(), 0);
    }
}

/// The commands a refusal gives quote a path with a space, so that they run as copied.
#[test]
fn commands_given_quote_paths_with_spaces() {
    let dir = setup();
    finished_run(dir.path(), "my run");
    assert_error(
        &run_in(dir.path(), &["evolve", "--resume", "my run"]),
        "my run holds a finished run (its best.toml is written): nothing to resume; to run it again: stacktune evolve --config 'my run/run.toml'",
    );
}

/// A report page that cannot be written says why once, naming the page.
#[test]
fn a_report_page_that_is_a_folder_is_one_clear_line() {
    let dir = setup();
    finished_run(dir.path(), "r");
    fs::remove_file(dir.path().join("r/report.html")).unwrap();
    fs::create_dir(dir.path().join("r/report.html")).unwrap();
    assert_error(
        &run_in(dir.path(), &["report", "r"]),
        "cannot write r/report.html: Is a directory (os error 21)",
    );
}

#[test]
fn resume_refuses_a_finished_run() {
    let dir = setup();
    let finished = finished_run(dir.path(), "r");
    assert_error(
        &run_in(dir.path(), &["evolve", "--resume", "r"]),
        "r holds a finished run (its best.toml is written): nothing to resume; to run it again: stacktune evolve --config r/run.toml",
    );
    assert_eq!(snapshot(&dir.path().join("r")), finished);
}

/// A finished run whose best.toml is removed: `--resume` would redo its final scoring.
fn resumable(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    finished_run(dir, "r");
    fs::remove_file(dir.join("r/best.toml")).unwrap();
    snapshot(&dir.join("r"))
}

fn resume_error(dir: &Path, message: &str) {
    let before = snapshot(&dir.join("r"));
    assert_error(&run_in(dir, &["evolve", "--resume", "r"]), message);
    assert_eq!(snapshot(&dir.join("r")), before);
}

#[test]
fn damaged_or_edited_checkpoint_is_refused_and_left_as_it_is() {
    let dir = setup();
    resumable(dir.path());
    let path = dir.path().join("r/checkpoint.json");
    let text = fs::read_to_string(&path).unwrap();
    // One digit near the end (in the run's settings) edited by hand.
    let at = text
        .rfind(|c: char| c.is_ascii_digit() && c != '9')
        .unwrap();
    let digit = text.as_bytes()[at] - b'0';
    let edited = format!("{}{}{}", &text[..at], digit + 1, &text[at + 1..]);
    fs::write(&path, edited).unwrap();
    resume_error(
        dir.path(),
        "cannot resume from r/checkpoint.json: it is damaged or was edited (its checksum does not match its contents); the folder is left as it is",
    );
    fs::write(&path, &text[..20]).unwrap();
    resume_error(
        dir.path(),
        "cannot resume from r/checkpoint.json: it is damaged (not a sealed checkpoint): EOF while parsing a value at line 1 column 20; the folder is left as it is",
    );
    fs::write(&path, b"{\"\xff\x00").unwrap();
    resume_error(
        dir.path(),
        "cannot resume from r/checkpoint.json: it is not text (byte 2 is not UTF-8): damaged, or not a file of its kind",
    );
    fs::write(&path, "").unwrap();
    resume_error(
        dir.path(),
        "cannot resume from r/checkpoint.json: it is damaged (not a sealed checkpoint): EOF while parsing a value at line 1 column 0; the folder is left as it is",
    );
    fs::remove_file(&path).unwrap();
    resume_error(
        dir.path(),
        "cannot resume from r/checkpoint.json: No such file or directory (os error 2)",
    );
}

/// `report` reads a finished run's checkpoint: bytes that are not one are called damaged,
/// naming the file, whether or not they are text.
#[test]
fn report_calls_a_damaged_checkpoint_damaged() {
    let dir = setup();
    finished_run(dir.path(), "r");
    let path = dir.path().join("r/checkpoint.json");
    for (bytes, message) in [
        (
            &b"\x9f\x03\xc8{\"crc32\""[..],
            "cannot read the history in r/checkpoint.json: it is not text (byte 0 is not UTF-8): damaged, or not a file of its kind",
        ),
        (
            b"PK\x03\x04 zip",
            "cannot read the history in r/checkpoint.json: it is damaged (not a sealed checkpoint): expected value at line 1 column 1",
        ),
    ] {
        fs::write(&path, bytes).unwrap();
        assert_error(&run_in(dir.path(), &["report", "r"]), message);
    }
}

#[test]
fn checkpoint_is_checked_against_run_toml_and_history() {
    let dir = setup();
    resumable(dir.path());
    let run_toml = dir.path().join("r/run.toml");
    let original = fs::read_to_string(&run_toml).unwrap();
    fs::write(
        &run_toml,
        original.replace("population = 4", "population = 5"),
    )
    .unwrap();
    resume_error(
        dir.path(),
        "cannot resume from r/checkpoint.json: it does not match run.toml: its population holds 4 candidates, run.toml says 5; the folder is left as it is",
    );
    fs::write(
        &run_toml,
        original.replace("generations = 2", "generations = 1"),
    )
    .unwrap();
    resume_error(
        dir.path(),
        "cannot resume from r/checkpoint.json: it is at generation 2, past run.toml's 1 generations; the folder is left as it is",
    );
    fs::write(
        &run_toml,
        original.replace("mutation_rate = 0.3", "mutation_rate = 0.5"),
    )
    .unwrap();
    resume_error(
        dir.path(),
        "cannot resume from r/checkpoint.json: it does not match run.toml: its [ga] mutation_rate differs from run.toml's; the folder is left as it is",
    );
    fs::write(&run_toml, &original).unwrap();
    let history = dir.path().join("r/history.csv");
    let text = fs::read_to_string(&history).unwrap();
    fs::write(&history, text.replacen(",8,", ",9,", 1)).unwrap();
    resume_error(
        dir.path(),
        "cannot resume from r/checkpoint.json: history.csv does not hold the history it records; the folder is left as it is",
    );
}

#[test]
fn a_resume_refuses_a_run_toml_changed_in_anything_but_generations() {
    let dir = setup();
    resumable(dir.path());
    let run_toml = dir.path().join("r/run.toml");
    let original = fs::read_to_string(&run_toml).unwrap();
    for (from, to, message) in [
        (
            "\ngames = 2",
            "\ngames = 3",
            "changes `games` (3, the run started with 2)",
        ),
        (
            "seed = 3",
            "seed = 4",
            "changes `seed` (4, the run started with 3)",
        ),
        (
            "width = 6",
            "width = 7",
            "changes `game.width` (7, the run started with 6)",
        ),
        (
            "validation_seed = 1000001",
            "validation_seed = 7",
            "changes `validation_seed` (7, the run started with 1000001)",
        ),
    ] {
        assert!(original.contains(from), "{from} not in run.toml");
        fs::write(&run_toml, original.replace(from, to)).unwrap();
        let field = message.split('`').nth(1).unwrap();
        resume_error(
            dir.path(),
            &format!(
                "cannot resume r: its run.toml {message}; a resume may only raise `generations`: put `{field}` back, or start a new run from this run.toml with --config and --out; the folder is left as it is"
            ),
        );
    }
    // Lowering generations is not, even to the count done: here the run started with 3 and
    // did 2, and its run.toml now says 2.
    let checkpoint = dir.path().join("r/checkpoint.json");
    let first = fs::read_to_string(&checkpoint).unwrap();
    reseal(&checkpoint, |state| {
        let settings = state["settings"].as_str().unwrap();
        assert!(settings.contains("generations = 2\n"), "{settings}");
        state["settings"] = settings
            .replace("generations = 2", "generations = 3")
            .into();
    });
    fs::write(&run_toml, &original).unwrap();
    resume_error(
        dir.path(),
        "cannot resume r: its run.toml lowers `generations` (2, the run started with 3); a resume may only raise `generations`: put `generations` back, or start a new run from this run.toml with --config and --out; the folder is left as it is",
    );
    fs::write(&checkpoint, first).unwrap();
    // Raising generations (and the thread count) is what a resume may change.
    fs::write(
        &run_toml,
        original
            .replace("generations = 2", "generations = 3")
            .replace("threads = 0", "threads = 1"),
    )
    .unwrap();
    let resumed = run_in(dir.path(), &["evolve", "--resume", "r", "--quiet"]);
    success(&resumed);
    assert_eq!(
        read(&dir.path().join("r"), "history.csv").lines().count(),
        4
    );
}

/// Rewrites the state of the checkpoint at `path` with `edit` and seals it again, as the run
/// loop would have written it.
fn reseal(path: &Path, edit: impl FnOnce(&mut serde_json::Value)) {
    let sealed: serde_json::Value = serde_json::from_str(&read_text(path)).unwrap();
    let mut state = sealed["state"].clone();
    edit(&mut state);
    let state = serde_json::to_string(&state).unwrap();
    let crc = crc32fast::hash(state.as_bytes());
    fs::write(
        path,
        format!("{{\"crc32\":\"{crc:08x}\",\"state\":{state}}}"),
    )
    .unwrap();
}

fn read_text(path: &Path) -> String {
    fs::read_to_string(path).unwrap()
}

/// Copies the files of the run folder `from` to a new folder `to` as `cp from/* to/` does:
/// its dotfiles stay behind.
fn copy_visible(from: &Path, to: &Path) {
    fs::create_dir(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap();
        if !name.to_string_lossy().starts_with('.') {
            fs::copy(&path, to.join(name)).unwrap();
        }
    }
}

/// The settings a run started with travel in its checkpoint: a copy of the folder without its
/// dotfiles (`cp r/* r2/`) still refuses a run.toml that would mix two runs, and resumes
/// unchanged or with more generations.
#[test]
fn a_copy_of_a_run_folder_keeps_the_settings_it_started_with() {
    let dir = setup();
    resumable(dir.path());
    let r = dir.path().join("r");
    assert!(
        !r.join(".run.toml").exists(),
        "the settings have no file of their own"
    );
    let copy = dir.path().join("r2");
    copy_visible(&r, &copy);
    let run_toml = copy.join("run.toml");
    let original = read_text(&run_toml);
    fs::write(&run_toml, original.replace("seed = 3", "seed = 4")).unwrap();
    let before = snapshot(&copy);
    assert_error(
        &run_in(dir.path(), &["evolve", "--resume", "r2"]),
        "cannot resume r2: its run.toml changes `seed` (4, the run started with 3); a resume may only raise `generations`: put `seed` back, or start a new run from this run.toml with --config and --out; the folder is left as it is",
    );
    assert_eq!(snapshot(&copy), before);
    fs::write(&run_toml, &original).unwrap();
    success(&run_in(
        dir.path(),
        &["evolve", "--resume", "r2", "--quiet"],
    ));
    assert!(copy.join("best.toml").is_file());
    fs::write(
        &run_toml,
        original.replace("generations = 2", "generations = 3"),
    )
    .unwrap();
    success(&run_in(
        dir.path(),
        &["evolve", "--resume", "r2", "--quiet"],
    ));
    assert_eq!(read(&copy, "history.csv").lines().count(), 4);
}

/// A folder from before checkpoints kept the run's settings (they were in `.run.toml`) is
/// still checked against that file, and its checkpoint keeps them once it resumes.
#[test]
fn an_older_folder_is_checked_against_its_run_toml_copy() {
    let dir = setup();
    resumable(dir.path());
    let r = dir.path().join("r");
    let checkpoint = r.join("checkpoint.json");
    let settings = serde_json::from_str::<serde_json::Value>(&read_text(&checkpoint)).unwrap()
        ["state"]["settings"]
        .as_str()
        .unwrap()
        .to_string();
    reseal(&checkpoint, |state| {
        state.as_object_mut().unwrap().remove("settings");
    });
    let run_toml = r.join("run.toml");
    let original = read_text(&run_toml);
    fs::write(r.join(".run.toml"), &original).unwrap();
    fs::write(&run_toml, original.replace("\ngames = 2", "\ngames = 3")).unwrap();
    resume_error(
        dir.path(),
        "cannot resume r: its run.toml changes `games` (3, the run started with 2); a resume may only raise `generations`: put `games` back, or start a new run from this run.toml with --config and --out; the folder is left as it is",
    );
    // One generation more, so that a checkpoint is written.
    let longer = |text: &str| text.replace("generations = 2", "generations = 3");
    fs::write(&run_toml, longer(&original)).unwrap();
    success(&run_in(dir.path(), &["evolve", "--resume", "r", "--quiet"]));
    let state = serde_json::from_str::<serde_json::Value>(&read_text(&checkpoint)).unwrap();
    assert_eq!(state["state"]["next_generation"], 3);
    assert_eq!(
        state["state"]["settings"].as_str(),
        Some(longer(&settings).as_str())
    );
}

/// A run long enough to be caught running: Tetris 10 × 20 from El-Tetris's weights.
fn start_long_run(dir: &Path, out: &str) -> std::process::Child {
    let init = root().join("weights/tetris/el-tetris.toml");
    let config = format!(
        "name = \"long\"\ninit = {:?}\ngenerations = 50\ngames = 20\nthreads = 1\n[ga]\npopulation = 10\n",
        init.to_str().unwrap()
    );
    fs::write(dir.join("long.toml"), config).unwrap();
    Command::new(env!("CARGO_BIN_EXE_stacktune"))
        .args(["evolve", "--config", "long.toml", "--quiet", "--out", out])
        .current_dir(dir)
        .spawn()
        .unwrap()
}

#[test]
fn two_writers_on_one_folder_the_second_says_who_holds_it() {
    let dir = setup();
    let mut first = start_long_run(dir.path(), "busy");
    let pid = first.id();
    let lock = dir.path().join("busy/.lock");
    wait_while_running(&mut first, "it held the lock", || {
        dir.path().join("busy/run.toml").exists()
            && fs::read_to_string(&lock).is_ok_and(|p| p.trim() == pid.to_string())
    });
    let in_use = format!(
        "busy is in use by another stacktune process (pid {pid}); wait for it to end, or stop it"
    );
    let second = Command::new(env!("CARGO_BIN_EXE_stacktune"))
        .args([
            "evolve",
            "--config",
            "long.toml",
            "--quiet",
            "--out",
            "busy",
        ])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let resume = run_in(dir.path(), &["evolve", "--resume", "busy"]);
    let forced = evolve(dir.path(), &["--out", "busy", "--force"]);
    first.kill().unwrap();
    first.wait().unwrap();
    assert_error(&second, &in_use);
    assert_error(&resume, &in_use);
    assert_error(&forced, &in_use);
    // Once the writer is gone (even killed), the folder can be resumed: its lock went with it.
    let mut again = Command::new(env!("CARGO_BIN_EXE_stacktune"))
        .args(["evolve", "--resume", "busy", "--quiet"])
        .current_dir(dir.path())
        .spawn()
        .unwrap();
    let again_pid = again.id().to_string();
    wait_while_running(&mut again, "the resumed run took the lock", || {
        fs::read_to_string(&lock).is_ok_and(|p| p.trim() == again_pid)
    });
    again.kill().unwrap();
    let status = again.wait().unwrap();
    assert!(
        status.code().is_none(),
        "the resumed run was still running when killed"
    );
}

#[test]
fn names_and_folders_cannot_escape() {
    let dir = setup();
    assert_error(
        &evolve(dir.path(), &["--name", "../.."]),
        "name `../..` must be letters, digits, `.`, `_` and `-`, starting with a letter or digit: it names the folder runs/<game>-<name>",
    );
    assert_error(
        &evolve(dir.path(), &["--name", "a/b"]),
        "name `a/b` must be letters, digits, `.`, `_` and `-`, starting with a letter or digit: it names the folder runs/<game>-<name>",
    );
    for out in [".", "..", "runs/..", "/"] {
        assert_error(
            &evolve(dir.path(), &["--out", out, "--force"]),
            &format!(
                "--out {out}: that is the current folder or one above it; name a folder of its own for the run"
            ),
        );
    }
    assert_error(
        &run_in(dir.path(), &["evolve", "--resume", "."]),
        "--resume .: that is the current folder or one above it; name a folder of its own for the run",
    );
    assert_eq!(
        fs::read_dir(dir.path()).unwrap().count(),
        1,
        "only tiny.toml"
    );
}

#[test]
fn config_paths_are_relative_to_the_config_file() {
    let dir = setup();
    let cfg = dir.path().join("cfg");
    fs::create_dir(&cfg).unwrap();
    fs::copy(
        root().join("weights/tetris/dellacherie.toml"),
        cfg.join("base.toml"),
    )
    .unwrap();
    fs::write(
        cfg.join("c.toml"),
        format!("baseline = \"base.toml\"\n{TINY}"),
    )
    .unwrap();
    let out = success(&run_in(
        dir.path(),
        &["evolve", "--config", "cfg/c.toml", "--out", "r", "--quiet"],
    ));
    assert!(out.contains("\nbaseline cfg/base.toml: "), "{out}");
    // run.toml names the file relative to the run folder, so it reproduces from anywhere.
    let stored = fs::read_to_string(dir.path().join("r/run.toml")).unwrap();
    assert!(
        stored.contains("baseline = \"../cfg/base.toml\"\n"),
        "{stored}"
    );
    let again = success(&run_in(
        &cfg,
        &[
            "evolve",
            "--config",
            "../r/run.toml",
            "--out",
            "../r2",
            "--quiet",
        ],
    ));
    assert!(again.contains("\nbaseline ../cfg/base.toml: "), "{again}");
    assert_eq!(
        fs::read(dir.path().join("r/history.csv")).unwrap(),
        fs::read(dir.path().join("r2/history.csv")).unwrap()
    );
}

/// An opponent named by a weights file is a path like the others.
#[test]
fn opponent_files_in_a_config_are_relative_to_it() {
    let dir = setup();
    let cfg = dir.path().join("cfg");
    fs::create_dir(&cfg).unwrap();
    fs::copy(
        root().join("weights/connect/evolved.toml"),
        cfg.join("opp.toml"),
    )
    .unwrap();
    let config = "generations = 1\ngames = 2\nvalidation_games = 2\nfinal_games = 2\n\
        [game]\ngame = \"connect\"\nopponents = [\"opp.toml\", \"random\"]\n\
        [ga]\npopulation = 2\nelitism = 1\n";
    fs::write(cfg.join("c.toml"), config).unwrap();
    success(&run_in(
        dir.path(),
        &["evolve", "--config", "cfg/c.toml", "--out", "r", "--quiet"],
    ));
    let stored = fs::read_to_string(dir.path().join("r/run.toml")).unwrap();
    assert!(
        stored.contains("opponents = [\"../cfg/opp.toml\", \"random\"]\n"),
        "{stored}"
    );
}

#[test]
fn limits_are_in_help() {
    let help = stdout(&run(&["evolve", "--help"]));
    for text in [
        "Candidates per generation (2 to 10,000)",
        "Games per candidate per generation (1 to 100,000)",
        "Generations to evolve (1 to 1,000,000)",
        "Worker threads (0 = one per core, at most 256)",
        "connect: columns, default 7, with (rows + 1) × columns at most 64)",
    ] {
        assert!(help.contains(text), "{text} not in {help}");
    }
    let play_help = stdout(&run(&["play", "--help"]));
    assert!(
        play_help.contains("Number of games, 1 to 1,000,000"),
        "{play_help}"
    );
    assert!(
        play_help.contains("Worker threads (0 = one per core, at most 256)"),
        "{play_help}"
    );
}

#[test]
fn limits_are_in_errors() {
    let dir = setup();
    for (flags, message) in [
        (
            ["--population", "1000000000"],
            "population must be within 2..=10000 (got 1000000000)",
        ),
        (
            ["--threads", "1000000"],
            "threads must be within 0..=256 (got 1000000)",
        ),
        (
            ["--games", "1000000"],
            "games (per candidate) must be within 1..=100000 (got 1000000)",
        ),
        (
            ["--generations", "0"],
            "generations must be within 1..=1000000 (got 0)",
        ),
        (
            ["--width", "100"],
            "tetris board width 100 is out of range 4..=16",
        ),
    ] {
        assert_error(&evolve(dir.path(), &flags), message);
    }
    assert_error(
        &evolve(
            dir.path(),
            &["--game", "connect", "--width", "9", "--height", "9"],
        ),
        "connect board 9x9 is too large: (rows + 1) × columns = 90 exceeds the 64 bits of a bitboard",
    );
    assert_error(
        &run(&[
            "play",
            "--weights",
            "weights/tetris/dellacherie.toml",
            "--threads",
            "1000000",
        ]),
        "threads must be within 0..=256 (got 1000000)",
    );
    assert_error(
        &run(&[
            "play",
            "--weights",
            "weights/tetris/dellacherie.toml",
            "--games",
            "10000000000",
        ]),
        "--games must be within 1..=1000000 (got 10000000000)",
    );
    // Within every bound, but more than the machine holds: refused before allocating.
    assert_one_line_error(
        &evolve(dir.path(), &["--population", "10000", "--games", "100000"]),
        "a run of 10000 candidates × 100000 games over 2 generations needs about 38154 MiB of memory, and ",
    );
    assert_eq!(
        fs::read_dir(dir.path()).unwrap().count(),
        1,
        "no folder was made"
    );
}

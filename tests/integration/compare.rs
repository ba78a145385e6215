//! `compare` through the real binary: equal budgets, one row per config, the same bytes with
//! one or two threads, and one clear line for bad input.

use crate::common::*;
use crate::interrupt::{
    catches_sigint, ended, interrupt, one_line_error, spawn, wait_while_running,
};
use std::fs;
use std::path::Path;

const BASE: &str = r#"
name = "cmp"
seed = 3
games = 2
max_pieces = 200
features = ["landing_height", "eroded_piece_cells", "row_transitions", "column_transitions", "holes", "cumulative_wells"]
validation_games = 10
final_games = 20
validation_max_pieces = 200

[game]
game = "tetris"
width = 6
height = 10
"#;

fn write_configs(dir: &Path) {
    let ga = format!("{BASE}\n[ga]\npopulation = 6\nelitism = 1\n");
    let cmaes = format!("{BASE}\n[optimizer]\nkind = \"cmaes\"\n\n[cmaes]\npopulation = 8\n");
    fs::write(dir.join("ga.toml"), ga).unwrap();
    fs::write(dir.join("cmaes.toml"), cmaes).unwrap();
}

fn compare(dir: &Path, extra: &[&str]) -> std::process::Output {
    let mut quiet = vec!["--quiet"];
    quiet.extend_from_slice(extra);
    compare_showing_progress(dir, &quiet)
}

/// [`compare`] without `--quiet`: progress as plain lines on standard error.
fn compare_showing_progress(dir: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "compare",
        "--config",
        "ga.toml",
        "--config",
        "cmaes.toml",
        "--repeats",
        "2",
    ];
    if !extra.contains(&"--budget") {
        args.extend_from_slice(&["--budget", "100"]);
    }
    args.extend_from_slice(extra);
    run_in(dir, &args)
}

/// The rows of a comparison's summary.csv, its header left out, each split into its fields.
fn summary_rows(dir: &Path) -> Vec<Vec<String>> {
    let summary = fs::read_to_string(dir.join("summary.csv")).unwrap();
    let fields = |l: &str| l.split(',').map(str::to_string).collect();
    summary.lines().skip(1).map(fields).collect()
}

#[test]
fn configs_train_on_equal_budgets_and_reproduce() {
    let dir = tempfile::tempdir().unwrap();
    write_configs(dir.path());
    for (out, threads) in [("a", "1"), ("b", "2")] {
        let result = compare(dir.path(), &["--out", out, "--threads", threads]);
        assert!(
            result.status.success(),
            "{}",
            String::from_utf8_lossy(&result.stderr)
        );
    }
    let a = dir.path().join("a");
    for name in ["points.csv", "summary.csv", "compare.svg"] {
        assert_eq!(
            fs::read(a.join(name)).unwrap(),
            fs::read(dir.path().join("b").join(name)).unwrap(),
            "{name} differs between 1 and 2 threads"
        );
    }
    // Whole generations within 100 games: the GA's 6 × 2 = 12 a generation fit 8 times
    // (96 games), CMA-ES's 8 × 2 = 16 fit 6 times (96 games).
    let rows = summary_rows(&a);
    assert_eq!(rows.len(), 2, "{rows:?}");
    assert_eq!(rows[0][..5], ["ga", "ga", "2", "96", "8"]);
    assert_eq!(rows[1][..5], ["cmaes", "cmaes", "2", "96", "6"]);
    // Every run validated each generation (fewer than ten of them): 2 × (8 + 6) points.
    let points = fs::read_to_string(a.join("points.csv")).unwrap();
    assert_eq!(points.lines().count(), 1 + 2 * (8 + 6), "{points}");
    // Each repeat is a whole run folder of its own.
    assert!(a.join("ga/repeat-1/best.toml").is_file());
    assert!(a.join("cmaes/repeat-0/history.csv").is_file());
}

/// A Connect Four match run: one anchor, a hall of fame of two, two peers a generation.
const MATCHES: &str = r#"
name = "cmp"
seed = 3
games = 2
validation_games = 10
final_games = 10
hall_of_fame = 2

[matches]
peers = 2

[game]
game = "connect"
opponents = ["tutorial"]
"#;

#[test]
fn a_match_runs_budget_counts_every_game_its_candidates_play() {
    let dir = tempfile::tempdir().unwrap();
    let ga = format!("{MATCHES}\n[ga]\npopulation = 6\nelitism = 1\n");
    let cmaes = format!("{MATCHES}\n[optimizer]\nkind = \"cmaes\"\n\n[cmaes]\npopulation = 4\n");
    fs::write(dir.path().join("ga.toml"), ga).unwrap();
    fs::write(dir.path().join("cmaes.toml"), cmaes).unwrap();
    let out = compare(dir.path(), &["--budget", "200", "--out", "c"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // A candidate plays 2 games against each opponent: the anchor, the hall of fame as it
    // fills (0, 1, then 2) and 2 peers. The GA's 6 candidates play 36, 48, then 60 games a
    // generation: 3 generations (144 games) fit in 200; CMA-ES's 4 play 24, 32, then 40: 5
    // generations (176 games).
    let c = dir.path().join("c");
    let rows = summary_rows(&c);
    assert_eq!(rows[0][..5], ["ga", "ga", "2", "144", "3"], "{rows:?}");
    assert_eq!(
        rows[1][..5],
        ["cmaes", "cmaes", "2", "176", "5"],
        "{rows:?}"
    );
    // The runs played what the budget counted: history.csv's last `evaluations`.
    for (config, games) in [("ga", "144"), ("cmaes", "176")] {
        let history = fs::read_to_string(c.join(config).join("repeat-1/history.csv")).unwrap();
        let last = history.lines().last().unwrap();
        assert_eq!(last.split(',').nth(1), Some(games), "{config}: {last}");
    }
}

#[test]
fn bad_comparisons_get_one_clear_line() {
    let dir = tempfile::tempdir().unwrap();
    write_configs(dir.path());
    assert_one_line_error(
        &run_in(
            dir.path(),
            &["compare", "--config", "ga.toml", "--budget", "100"],
        ),
        "compare needs at least two --config files",
    );
    assert_one_line_error(
        &compare(dir.path(), &["--budget", "10"]),
        "config cmp: one generation plays 12 games, more than the budget of 10",
    );
    fs::create_dir(dir.path().join("taken")).unwrap();
    fs::write(dir.path().join("taken/notes.txt"), "mine").unwrap();
    let out = compare(dir.path(), &["--out", "taken"]);
    assert_one_line_error(&out, "taken");
    assert_eq!(
        fs::read_to_string(dir.path().join("taken/notes.txt")).unwrap(),
        "mine"
    );
}

/// Each run's progress line names the folder it writes: `ga/repeat-0` is the first repeat,
/// seed + 0, in the folder `ga/repeat-0`.
#[test]
fn progress_names_each_repeat_as_its_folder() {
    let dir = tempfile::tempdir().unwrap();
    write_configs(dir.path());
    let out = compare_showing_progress(dir.path(), &["--budget", "24", "--out", "c"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let starts: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("ga/") || l.starts_with("cmaes/"))
        .collect();
    assert_eq!(
        starts,
        [
            "ga/repeat-0: 2 generations (run 1 of 2)",
            "ga/repeat-1: 2 generations (run 2 of 2)",
            "cmaes/repeat-0: 1 generation (run 1 of 2)",
            "cmaes/repeat-1: 1 generation (run 2 of 2)",
        ]
    );
    for folder in [
        "ga/repeat-0",
        "ga/repeat-1",
        "cmaes/repeat-0",
        "cmaes/repeat-1",
    ] {
        assert!(
            dir.path()
                .join("c")
                .join(folder)
                .join("best.toml")
                .is_file()
        );
    }
    assert!(!dir.path().join("c/ga/repeat-2").exists());
}

/// A comparison stopped by Ctrl-C says how to continue it: the same command, which takes the
/// stopped folder as it is (finished repeats kept, the stopped one resumed) and ends with the
/// bytes of the comparison left alone.
#[test]
fn a_stopped_comparison_continues_with_the_command_it_prints() {
    let dir = tempfile::tempdir().unwrap();
    write_configs(dir.path());
    let budget = ["--budget", "300"];
    success(&compare(
        dir.path(),
        &[&budget[..], &["--out", "whole"]].concat(),
    ));
    // The command a user types, which the stopped comparison must print back.
    let command =
        "stacktune compare --config ga.toml --config cmaes.toml --repeats 2 --budget 300 --out cut";
    let words: Vec<&str> = command.split(' ').skip(1).collect();
    let args = [&words[..], &["--quiet"]].concat();
    let mut child = spawn(dir.path(), &args);
    let pid = child.id();
    // Once the first repeat is finished, so that the continued comparison both keeps a
    // finished repeat and resumes a stopped one.
    let first = dir.path().join("cut/ga/repeat-1/history.csv");
    wait_while_running(&mut child, "the first generation", || {
        first.is_file() && catches_sigint(pid)
    });
    interrupt(&child);
    let error = one_line_error(&ended(child, "compare"));
    let (stopped, printed) = error
        .split_once("; continue the comparison with: ")
        .unwrap_or_else(|| panic!("{error}"));
    assert!(stopped.starts_with("error: stopped in "), "{error}");
    assert_eq!(printed, command);
    success(&run_in(dir.path(), &args));
    for name in ["points.csv", "summary.csv", "compare.svg"] {
        assert_eq!(
            fs::read(dir.path().join("whole").join(name)).unwrap(),
            fs::read(dir.path().join("cut").join(name)).unwrap(),
            "{name} differs after the comparison was continued"
        );
    }
    // Finished, or asked for another comparison, the folder is refused.
    assert_error(
        &run_in(dir.path(), &args),
        "cut holds a finished comparison; choose another --out",
    );
    assert_error(
        &compare(dir.path(), &["--budget", "200", "--out", "whole"]),
        "whole holds another comparison (its comparison.toml differs); choose another --out",
    );
}

fn success(out: &std::process::Output) {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

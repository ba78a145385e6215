//! `evolve` through the real binary: byte-identical reruns with 1 and 2 threads, resume after
//! kill -9, config errors, the run folder's files, and the best.toml → play round trip.
//! The run folder's safety (refusals, lock, checked checkpoints, limits) is
//! tests/integration/run_folder.rs.

use crate::common::*;
use std::fs;
use std::path::Path;
use std::process::Command;

/// A small but real run: Tetris 6 × 10 with eight features.
const CONFIG: &str = r#"
name = "small"
seed = 5
generations = 4
games = 6
max_pieces = 300
features = ["landing_height", "eroded_piece_cells", "row_transitions", "column_transitions", "holes", "cumulative_wells", "hole_depth", "rows_with_holes"]
validation_games = 10
validate_every = 2
final_games = 20
validation_max_pieces = 300
validation_seed = 77

[game]
game = "tetris"
width = 6
height = 10

[ga]
population = 8
elitism = 1
"#;

/// The config with `kind` as its optimiser, each with settings that fit the small run.
fn with_optimizer(config: &str, kind: &str) -> String {
    let settings = match kind {
        "ga" => "",
        "cem" => "\n[cem]\npopulation = 10\nelite_fraction = 0.3\n",
        "cmaes" => "\n[cmaes]\npopulation = 8\n",
        "spsa" => "\n[spsa]\npairs = 4\n",
        _ => unreachable!("no optimizer {kind}"),
    };
    format!("{config}\n[optimizer]\nkind = \"{kind}\"\n{settings}")
}

/// Every optimiser the runs below are repeated with.
const OPTIMIZERS: [&str; 4] = ["ga", "cem", "cmaes", "spsa"];

fn write_config(dir: &Path, text: &str) {
    fs::write(dir.join("run.config.toml"), text).unwrap();
}

fn evolve(dir: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["evolve", "--config", "run.config.toml", "--quiet"];
    args.extend_from_slice(extra);
    run_in(dir, &args)
}

/// The generations a run folder's checkpoint records as done (0 before it has one).
fn generations_done(run: &Path) -> u64 {
    fs::read_to_string(run.join("checkpoint.json"))
        .ok()
        .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
        .and_then(|v| v["state"]["next_generation"].as_u64())
        .unwrap_or(0)
}

#[test]
fn same_config_same_bytes_with_one_or_two_threads() {
    for kind in OPTIMIZERS {
        let dir = tempfile::tempdir().unwrap();
        write_config(dir.path(), &with_optimizer(CONFIG, kind));
        let a = evolve(dir.path(), &["--threads", "1", "--out", "a"]);
        assert!(a.status.success(), "{}", String::from_utf8_lossy(&a.stderr));
        let b = evolve(dir.path(), &["--threads", "2", "--out", "b"]);
        assert!(b.status.success(), "{}", String::from_utf8_lossy(&b.stderr));
        for name in [
            "history.csv",
            "best.toml",
            "checkpoint.json",
            "fitness.svg",
            "weights.svg",
        ] {
            assert_eq!(
                read(&dir.path().join("a"), name),
                read(&dir.path().join("b"), name),
                "{kind}: {name} differs between 1 and 2 threads"
            );
        }
        // CE, CMA-ES and SPSA record their step size; the GA's history keeps its columns.
        let header = read(&dir.path().join("a"), "history.csv");
        let header = header.lines().next().unwrap();
        assert_eq!(
            header.contains(",validation,sigma,"),
            kind != "ga",
            "{kind}: {header}"
        );
    }
}

#[test]
fn run_folder_holds_every_file_and_history_is_complete() {
    let dir = tempfile::tempdir().unwrap();
    write_config(dir.path(), CONFIG);
    let out = evolve(dir.path(), &[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let run = dir.path().join("runs/tetris-small");
    for name in [
        "run.toml",
        "history.csv",
        "fitness.svg",
        "fitness.png",
        "weights.svg",
        "weights.png",
        "best.toml",
        "checkpoint.json",
        "timings.csv",
        "report.html",
    ] {
        assert!(run.join(name).is_file(), "{name} missing");
    }
    // The last page holds the final held-out summary (tests/integration/report_page.rs plays it).
    let page = read(&run, "report.html");
    assert!(page.contains("id=\"final-best\""), "no held-out summary");
    assert!(page.contains("stacktune play --weights runs/tetris-small/best.toml --width 6 --height 10 --seed 77 --games 1 --max-pieces 300"));
    let png = fs::read(run.join("fitness.png")).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let history = read(&run, "history.csv");
    let lines: Vec<&str> = history.lines().collect();
    assert_eq!(lines.len(), 5, "header + 4 generations");
    assert!(
        lines[0]
            .starts_with("generation,evaluations,best,mean,median,std,validation,landing_height,")
    );
    // Validation every 2 generations: generations 1 and 3 (0-based) carry a figure.
    let validation: Vec<bool> = lines[1..]
        .iter()
        .map(|l| !l.split(',').nth(6).unwrap().is_empty())
        .collect();
    assert_eq!(validation, [false, true, false, true]);
    // 8 candidates × 6 games per generation.
    assert_eq!(lines[4].split(',').nth(1).unwrap(), "192");
    // No temporary file is left behind.
    assert!(
        fs::read_dir(&run).unwrap().all(|e| !e
            .unwrap()
            .file_name()
            .to_string_lossy()
            .contains(".tmp"))
    );
    // run.toml reproduces the run.
    let again = run_in(
        dir.path(),
        &[
            "evolve",
            "--config",
            "runs/tetris-small/run.toml",
            "--out",
            "again",
            "--quiet",
        ],
    );
    assert!(
        again.status.success(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    assert_eq!(
        read(&run, "history.csv"),
        read(&dir.path().join("again"), "history.csv")
    );
    assert_eq!(
        read(&run, "best.toml"),
        read(&dir.path().join("again"), "best.toml")
    );
}

#[test]
fn best_weights_replay_to_the_recorded_validation() {
    let dir = tempfile::tempdir().unwrap();
    write_config(dir.path(), CONFIG);
    let out = evolve(dir.path(), &["--out", "r"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let best: toml::Table = toml::from_str(&read(&dir.path().join("r"), "best.toml")).unwrap();
    let recorded = best["meta"]["validation_mean"].as_float().unwrap();
    let best_path = dir.path().join("r/best.toml");
    let play = run(&[
        "play",
        "--weights",
        best_path.to_str().unwrap(),
        "--width",
        "6",
        "--height",
        "10",
        "--seed",
        "77",
        "--games",
        "20",
        "--max-pieces",
        "300",
        "--json",
    ]);
    let v = json(&play);
    assert_eq!(v["mean"].as_f64().unwrap(), recorded);
    // The same command is what evolve prints for reproducing the figure.
    assert!(
        stdout(&out).contains("--seed 77 --games 20 --max-pieces 300"),
        "{}",
        stdout(&out)
    );
}

/// `keep = "validated"` keeps the generation whose validation scored highest, not the last:
/// best.toml holds that row's weights and generation, and a bad key is refused by name.
#[test]
fn keep_validated_keeps_the_best_validated_generation() {
    let dir = tempfile::tempdir().unwrap();
    let config = CONFIG
        .replace("generations = 4", "generations = 6")
        .replace(
            "validate_every = 2",
            "validate_every = 1\nkeep = \"validated\"",
        );
    write_config(dir.path(), &config);
    let out = evolve(dir.path(), &["--out", "r"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let run = dir.path().join("r");
    let history = read(&run, "history.csv");
    let rows: Vec<Vec<&str>> = history
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    let validations: Vec<f64> = rows.iter().map(|r| r[6].parse().unwrap()).collect();
    // This run's validations: the best (49.8) comes two generations before its last (43.8).
    assert_eq!(validations, [9.1, 9.1, 20.8, 20.8, 49.8, 43.8]);
    let best: toml::Table = toml::from_str(&read(&run, "best.toml")).unwrap();
    assert_eq!(best["meta"]["generation"].as_integer(), Some(4));
    let header: Vec<&str> = history.lines().next().unwrap().split(',').collect();
    // The GA's history: seven columns, then the weights.
    assert_eq!(header[7], "landing_height");
    for (name, value) in header.iter().zip(&rows[4]).skip(7) {
        assert_eq!(
            best["weights"][*name].as_float(),
            Some(value.parse::<f64>().unwrap()),
            "{name}"
        );
    }
    assert!(read(&run, "run.toml").contains("keep = \"validated\""));

    write_config(dir.path(), &config.replace("\"validated\"", "\"first\""));
    let refused = evolve(dir.path(), &["--out", "bad"]);
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(
        err.contains("unknown variant `first`, expected `last` or `validated`"),
        "{err}"
    );
}

#[test]
fn resume_after_kill_gives_the_same_result() {
    for kind in OPTIMIZERS {
        resume_after_kill(kind);
    }
}

fn resume_after_kill(kind: &str) {
    let dir = tempfile::tempdir().unwrap();
    // Start from El-Tetris's weights so every game plays its 3,000 pieces: generations take
    // long enough for the kill to land mid-run.
    let init = root().join("weights/tetris/el-tetris.toml");
    let config = CONFIG
        .replace("generations = 4", "generations = 6")
        .replace("max_pieces = 300", "max_pieces = 3000")
        .replace(
            "seed = 5",
            &format!("seed = 5\ninit = {:?}", init.to_str().unwrap()),
        )
        .replace(
            "features = [\"landing_height\", \"eroded_piece_cells\"",
            "features = [\"landing_height\", \"lines_cleared\"",
        )
        .replace(", \"hole_depth\", \"rows_with_holes\"]", "]");
    write_config(dir.path(), &with_optimizer(&config, kind));
    let whole = evolve(dir.path(), &["--out", "whole"]);
    assert!(
        whole.status.success(),
        "{}",
        String::from_utf8_lossy(&whole.stderr)
    );

    let mut child = Command::new(env!("CARGO_BIN_EXE_stacktune"))
        .args([
            "evolve",
            "--config",
            "run.config.toml",
            "--quiet",
            "--out",
            "cut",
            "--threads",
            "1",
        ])
        .current_dir(dir.path())
        .spawn()
        .unwrap();
    let cut = dir.path().join("cut");
    // The page is written after the history: wait for both.
    wait_while_running(&mut child, "its first generation's page", || {
        generations_done(&cut) > 0 && cut.join("report.html").is_file()
    });
    child.kill().unwrap(); // SIGKILL: no chance to clean up
    child.wait().unwrap();
    let done = generations_done(&dir.path().join("cut"));
    assert!(
        (1..6).contains(&done),
        "killed after {done} generations: not mid-run"
    );
    // The page of the last checkpoint is there, and says the run is not finished.
    let page = read(&dir.path().join("cut"), "report.html");
    assert!(page.contains("The run is not finished"), "{kind}");
    resume_gives_whole(dir.path(), kind);
}

#[test]
fn unknown_key_is_located() {
    let dir = tempfile::tempdir().unwrap();
    write_config(dir.path(), "seed = 1\ngenerashuns = 3\n");
    assert_one_line_error(
        &evolve(dir.path(), &[]),
        "config file run.config.toml: line 2, column 1: unknown field `generashuns`",
    );
}

/// An empty config (or one of comments only) is a slip, not a request for the built-in run.
#[test]
fn empty_config_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    write_config(dir.path(), "# nothing yet\n");
    assert_error(
        &evolve(dir.path(), &[]),
        "config file run.config.toml sets nothing: give a run's settings (reports/tetris-default/run.toml holds the built-in run's), or leave out --config for the built-in run",
    );
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn population_zero_is_rejected() {
    let dir = tempfile::tempdir().unwrap();
    write_config(dir.path(), CONFIG);
    assert_one_line_error(
        &evolve(dir.path(), &["--population", "0"]),
        "population must be within 2..=10000 (got 0)",
    );
}

#[test]
fn unknown_feature_is_rejected() {
    let dir = tempfile::tempdir().unwrap();
    write_config(dir.path(), CONFIG);
    assert_one_line_error(
        &evolve(dir.path(), &["--features", "holes,wells"]),
        "unknown feature `wells` for game tetris; valid names: landing_height,",
    );
}

#[test]
fn resume_without_checkpoint_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    assert_one_line_error(
        &run_in(dir.path(), &["evolve", "--resume", "nothing"]),
        "nothing holds no run to resume (no run.toml there)",
    );
}

/// `evolve` with no config, run outside the repository (an installed binary, another working
/// directory): the built-in run's Dellacherie baseline is built in, and scores on the 2,000
/// held-out games what docs/tetris.md and reports/tetris-default record for it.
#[test]
fn built_in_run_works_outside_the_repository() {
    let dir = tempfile::tempdir().unwrap();
    let out = run_in(
        dir.path(),
        &[
            "evolve",
            "--generations",
            "1",
            "--population",
            "4",
            "--games",
            "2",
            "--out",
            "run",
            "--quiet",
        ],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout
            .contains("baseline weights/tetris/dellacherie.toml: 2432.9 ± 109.2 on the same games"),
        "{stdout}"
    );
    assert!(dir.path().join("run/best.toml").exists());
}

/// best.toml records the board it was tuned on, and `play` uses it unless told otherwise.
#[test]
fn best_weights_play_on_their_own_board() {
    let dir = tempfile::tempdir().unwrap();
    write_config(dir.path(), CONFIG);
    let out = evolve(dir.path(), &["--generations", "1", "--out", "run"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let best = read(&dir.path().join("run"), "best.toml");
    assert!(best.contains("\nwidth = 6\nheight = 10\n"), "{best}");
    let play = |extra: &[&str]| {
        let mut args = vec![
            "play",
            "--weights",
            "run/best.toml",
            "--games",
            "20",
            "--json",
        ];
        args.extend_from_slice(extra);
        json(&run_in(dir.path(), &args))
    };
    let pieces = |extra: &[&str]| play(extra)["total_pieces"].clone();
    assert_eq!(pieces(&[]), pieces(&["--width", "6", "--height", "10"]));
    assert_ne!(pieces(&[]), pieces(&["--width", "10", "--height", "20"]));
}

/// A setting a config turns on can be turned off from the command line.
#[test]
fn a_flag_turns_off_what_the_config_turns_on() {
    let dir = tempfile::tempdir().unwrap();
    write_config(
        dir.path(),
        &CONFIG.replace(
            "height = 10\n",
            "height = 10\nbag7 = true\npreview = true\n",
        ),
    );
    let out = evolve(
        dir.path(),
        &["--generations", "1", "--no-preview", "--out", "run"],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let run_toml = read(&dir.path().join("run"), "run.toml");
    assert!(run_toml.contains("bag7 = true\n"), "{run_toml}");
    assert!(run_toml.contains("preview = false\n"), "{run_toml}");
}

/// A build without the `mpi` feature that an MPI launcher started as one of several ranks
/// refuses at once, rather than running the same run once per rank.
#[cfg(not(feature = "mpi"))]
#[test]
fn several_mpi_ranks_without_the_mpi_feature_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    write_config(dir.path(), CONFIG);
    for (variable, size) in [("OMPI_COMM_WORLD_SIZE", "3"), ("PMI_SIZE", "2")] {
        let out = Command::new(env!("CARGO_BIN_EXE_stacktune"))
            .args(["evolve", "--config", "run.config.toml", "--out", "r"])
            .env(variable, size)
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert_one_line_error(
            &out,
            &format!(
                "started as one of {size} MPI processes, but this stacktune was built without MPI"
            ),
        );
        assert!(!dir.path().join("r").exists());
    }
    // One process under a launcher is a plain run.
    let out = Command::new(env!("CARGO_BIN_EXE_stacktune"))
        .args([
            "evolve",
            "--config",
            "run.config.toml",
            "--out",
            "r",
            "--quiet",
        ])
        .env("OMPI_COMM_WORLD_SIZE", "1")
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

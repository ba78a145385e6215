//! The game of your own in `examples/trominoes.rs`, written against the public API alone, is
//! tuned, played, plotted and resumed as a built-in game is.

#[allow(dead_code)]
#[path = "../../examples/trominoes.rs"]
mod trominoes;

use stacktune_base::progress::Mode;
use stacktune_run::RunConfig;
use std::fs;
use std::path::Path;

/// The files a finished run leaves, the lock file gone (the settings the run started with,
/// which a resume compares run.toml with, are in checkpoint.json).
const RUN_FILES: [&str; 10] = [
    "best.toml",
    "checkpoint.json",
    "fitness.png",
    "fitness.svg",
    "history.csv",
    "report.html",
    "run.toml",
    "timings.csv",
    "weights.png",
    "weights.svg",
];

/// The files whose bytes a run's config alone decides (timings, and the page that shows them,
/// measure the machine).
const REPRODUCED: [&str; 6] = [
    "best.toml",
    "checkpoint.json",
    "fitness.svg",
    "history.csv",
    "weights.svg",
    "fitness.png",
];

fn same_bytes(a: &Path, b: &Path) {
    for name in REPRODUCED {
        assert!(
            fs::read(a.join(name)).unwrap() == fs::read(b.join(name)).unwrap(),
            "{name} differs between {} and {}",
            a.display(),
            b.display()
        );
    }
}

/// Asserts that the finished run in `dir` left its files, a history of eight generations of
/// the game's features, and a page that draws the game's own pieces.
fn assert_run_folder(dir: &Path) {
    let mut files: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(files, RUN_FILES);
    let history = fs::read_to_string(dir.join("history.csv")).unwrap();
    assert_eq!(history.lines().count(), 1 + 8);
    assert!(
        history.lines().next().unwrap().ends_with(
            ",validation,landing_height,lines,holes,bumpiness,aggregate_height,max_height"
        ),
        "{history}"
    );
    let page = fs::read_to_string(dir.join("report.html")).unwrap();
    // The page replays the game's moves as Tetris's, with the game's own pieces.
    assert!(
        page.contains("\"shapes\":{\"I\":[[\"###\"],[\"#\",\"#\",\"#\"]],\"V\":[[\"#.\",\"##\"]"),
        "the page draws the game's pieces"
    );
}

/// Runs `config` for half its generations in `dir`, then resumes it to all of them: the run's
/// result.
fn tune_in_two_halves(config: &RunConfig, dir: &Path) -> stacktune_run::RunResult {
    let half = RunConfig {
        generations: 4,
        ..config.clone()
    };
    trominoes::tune(&half, dir, false, Mode::Quiet).unwrap();
    let run_toml = fs::read_to_string(dir.join("run.toml")).unwrap();
    assert!(run_toml.contains("\ngenerations = 4\n"), "{run_toml}");
    fs::write(
        dir.join("run.toml"),
        run_toml.replace("\ngenerations = 4\n", "\ngenerations = 8\n"),
    )
    .unwrap();
    trominoes::tune(config, dir, true, Mode::Quiet).unwrap()
}

#[test]
fn the_example_game_is_tuned_played_and_resumed_like_a_built_in_one() {
    let tmp = tempfile::tempdir().unwrap();
    let config = RunConfig {
        threads: 1,
        ..trominoes::config()
    };

    // A run from the naive start weights, in a folder of its own.
    let a = tmp.path().join("a");
    let result = trominoes::tune(&config, &a, false, Mode::Quiet).unwrap();
    assert_run_folder(&a);

    // The tuned weights beat the start on the same 200 held-out games, by far: the start
    // clears about 23 lines in 500 pieces, and 187 is the most 500 pieces of three cells can
    // clear on 8 columns.
    let (start, s) = result.baseline.clone().unwrap();
    assert!(start.ends_with("examples/trominoes-start.toml"));
    let best = &result.best;
    assert_eq!(best.games, 200);
    assert!(best.mean - best.ci95 > s.mean + s.ci95, "{best:?} vs {s:?}");
    assert!(best.mean > 150.0 && s.mean < 40.0, "{best:?} vs {s:?}");

    // best.toml names the game and replays to the figure it records.
    let file = stacktune_players::weights::WeightFile::load(&a.join("best.toml")).unwrap();
    assert_eq!(file.game, "trominoes");
    let recorded = file.meta["validation_mean"].as_float().unwrap();
    assert_eq!(recorded, best.mean);
    let replayed = trominoes::play(&a.join("best.toml"), 200, config.validation_seed).unwrap();
    assert_eq!(replayed.mean, recorded);

    // The same config on two threads: the same bytes.
    let b = tmp.path().join("b");
    trominoes::tune(
        &RunConfig {
            threads: 2,
            ..config.clone()
        },
        &b,
        false,
        Mode::Quiet,
    )
    .unwrap();
    same_bytes(&a, &b);

    // Half the generations, then resumed to all of them: the same bytes again.
    let c = tmp.path().join("c");
    let resumed = tune_in_two_halves(&config, &c);
    assert_eq!(resumed.best.mean, best.mean);
    same_bytes(&a, &c);
    assert_eq!(
        fs::read_to_string(a.join("run.toml")).unwrap(),
        fs::read_to_string(c.join("run.toml")).unwrap()
    );

    // A finished run is not resumed again.
    let again = trominoes::tune(&config, &c, true, Mode::Quiet).unwrap_err();
    assert!(format!("{again:#}").contains("finished"), "{again:#}");
}

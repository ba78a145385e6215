//! Fuzzing the files a user can feed the run loop: weights files, run configs and checkpoints
//! (as shipped, and with the run's settings inside as runs write them today).
//! Each case takes a valid file (the shipped ones) and applies a few structured mutations
//! (`common::fuzz`: characters and lines deleted, inserted, duplicated or swapped, numbers and
//! values replaced by hostile ones, the text cut short). The property: a valid result or a one-line error,
//! never a panic, and no file written beside the one read.
//!
//! 2,000 cases per parser by default; `PROPTEST_CASES=10000 cargo test --release --test
//! integration fuzz_parsers::` runs more.

use crate::common::fuzz::{cases, edits, mutate};
use crate::common::root;
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use stacktune_game::Game;
use stacktune_players::registry::Build;
use stacktune_players::weights::WeightFile;
use stacktune_run::RunConfig;
use stacktune_run::checkpoint::{Checkpoint, Expected};
use std::path::Path;

/// Asserts a one-line error: a message, no line break.
fn one_line(e: &anyhow::Error) -> Result<(), TestCaseError> {
    let message = format!("{e:#}");
    prop_assert!(
        !message.is_empty() && !message.contains('\n'),
        "{message:?}"
    );
    Ok(())
}

fn files(pattern: &[(&str, &str)]) -> Vec<String> {
    let mut texts = Vec::new();
    for (dir, name) in pattern {
        for entry in std::fs::read_dir(root().join(dir)).unwrap() {
            let path = entry.unwrap().path();
            let path = if name.is_empty() {
                path
            } else {
                path.join(name)
            };
            // A comparison's folder holds runs, not files of its own of these kinds.
            if path.extension().is_some_and(|e| e == "toml" || e == "json") && path.is_file() {
                texts.push(std::fs::read_to_string(path).unwrap());
            }
        }
    }
    texts
}

/// Writes `text` as `name` in a fresh folder, runs `read` on it, and checks that the folder
/// holds nothing else afterwards.
fn read_alone<T>(
    name: &str,
    text: &str,
    read: impl FnOnce(&Path) -> T,
) -> Result<T, TestCaseError> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    let result = read(&path);
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    prop_assert_eq!(left.len(), 1, "a file was written");
    Ok(result)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(2_000), ..ProptestConfig::default() })]

    #[test]
    fn weights_files(seed in any::<prop::sample::Index>(), ms in edits()) {
        let valid = files(&[("weights/tetris", ""), ("weights/puyo", ""), ("weights/connect", "")]);
        let text = mutate(seed.get::<String>(&valid), &ms);
        let tetris = stacktune_games::settings::GameSpec::default().build().unwrap();
        let stacktune_players::registry::AnyGame::Tetris(tetris) = tetris else { unreachable!() };
        match read_alone("w.toml", &text, WeightFile::load)? {
            Ok(file) => {
                if let Err(e) = file.check_against("tetris", tetris.feature_names()) {
                    one_line(&e)?;
                }
            }
            Err(e) => one_line(&e)?,
        }
    }

    #[test]
    fn run_configs(seed in any::<prop::sample::Index>(), ms in edits()) {
        let valid = files(&[("reports", "run.toml")]);
        let text = mutate(seed.get::<String>(&valid), &ms);
        match read_alone("run.toml", &text, RunConfig::load)? {
            Ok(config) => {
                if let Err(e) = config.validate().and_then(|()| config.game.build().map(|_| ())) {
                    one_line(&e)?;
                }
            }
            Err(e) => one_line(&e)?,
        }
    }

    #[test]
    fn checkpoints(
        seed in any::<prop::sample::Index>(),
        ms in edits(),
        reseal in any::<bool>(),
        settings in any::<bool>(),
    ) {
        let runs = ["tetris-default", "tetris-long", "puyo-tsu-1ply", "connect-evolved"];
        let dir = root().join("reports").join(seed.get(&runs));
        let config = RunConfig::load(&dir.join("run.toml")).unwrap();
        let game = config.game.build().unwrap();
        let all = stacktune_players::with_game!(&game, g => g.feature_names());
        let features: Vec<String> = if config.features.is_empty() {
            all.iter().map(|s| s.to_string()).collect()
        } else {
            config.features.clone()
        };
        let history = std::fs::read(dir.join("history.csv")).unwrap();
        let mut sealed: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("checkpoint.json")).unwrap()).unwrap();
        if settings {
            // The form runs write today, with the run's settings inside (the shipped runs
            // predate it): their run.toml's text.
            let run_toml = std::fs::read_to_string(dir.join("run.toml")).unwrap();
            sealed["state"]["settings"] = run_toml.into();
        }
        // Mutate the state's text, pretty-printed so that line mutations have lines to work on.
        let state = serde_json::to_string_pretty(&sealed["state"]).unwrap();
        let state = mutate(&state, &ms);
        // Resealed, a mutation reaches the content checks; not resealed, the checksum's.
        let crc = if reseal { crc32fast::hash(state.as_bytes()) } else { 0 };
        let text = format!("{{\"crc32\":\"{crc:08x}\",\"state\":{state}}}");
        let expected = Expected {
            optimizer: &config.optimizer_config(),
            features: &features,
            generations: config.generations,
            history_csv: Some(&history),
        };
        // A resume then reads the settings it holds and compares run.toml with them.
        let started = Checkpoint::open(&text, &expected).and_then(|c| c.started(&dir));
        match started {
            Ok(Some(started)) => {
                let _ = config.changed_since(&started);
            }
            Ok(None) => {}
            Err(e) => one_line(&e)?,
        }
    }
}

/// The mutations reach both outcomes on a run config: some still make a valid run, some not.
#[test]
fn config_mutations_yield_both_errors_and_valid_configs() {
    let text = std::fs::read_to_string(root().join("reports/tetris-long/run.toml")).unwrap();
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let (mut ok, mut err) = (0, 0);
    for _ in 0..300 {
        let e = edits().new_tree(&mut runner).unwrap().current();
        match RunConfig::parse(&mutate(&text, &e)).and_then(|c| c.validate()) {
            Ok(()) => ok += 1,
            Err(_) => err += 1,
        }
    }
    assert!(ok > 30 && err > 30, "{ok} valid, {err} errors");
}

//! Fuzzing the files a user can feed the run loop: weights files, run configs and checkpoints.
//! Each case takes a valid file (the shipped ones) and applies a few structured mutations
//! (lines deleted, duplicated or swapped, values replaced by hostile ones, digits changed,
//! bytes inserted, the text cut short). The property: a valid result or a one-line error,
//! never a panic, and no file written beside the one read.
//!
//! 2,000 cases per parser by default; `PROPTEST_CASES=10000 cargo test --release --test
//! fuzz_parsers` runs more.

use proptest::prelude::*;
use stacktune::checkpoint::{Checkpoint, Expected};
use stacktune::game::Game;
use stacktune::run::RunConfig;
use stacktune::weights::WeightFile;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(2_000)
}

/// Values that have broken parsers: empty, negative, huge, non-finite, wrong types, escapes.
const HOSTILE: [&str; 16] = [
    "",
    "0",
    "-1",
    "1e309",
    "nan",
    "inf",
    "\"\"",
    "\"../..\"",
    "[]",
    "{}",
    "true",
    "null",
    "18446744073709551616",
    "-0.0",
    "[1, \"a\"]",
    "{ a = 1 }",
];

/// One structured change to a text.
#[derive(Clone, Debug)]
enum Mutation {
    DeleteLine(usize),
    DuplicateLine(usize),
    SwapLines(usize, usize),
    /// Replaces what follows the first `=` or `:` on a line.
    ReplaceValue(usize, usize),
    /// Replaces the n-th digit by another.
    ChangeDigit(usize, u8),
    Insert(usize, String),
    Truncate(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let n = 0..10_000usize;
    prop_oneof![
        n.clone().prop_map(Mutation::DeleteLine),
        n.clone().prop_map(Mutation::DuplicateLine),
        (n.clone(), n.clone()).prop_map(|(a, b)| Mutation::SwapLines(a, b)),
        (n.clone(), 0..HOSTILE.len()).prop_map(|(a, b)| Mutation::ReplaceValue(a, b)),
        (n.clone(), 0..10u8).prop_map(|(a, d)| Mutation::ChangeDigit(a, d)),
        (n.clone(), "[ -~\n]{1,8}").prop_map(|(a, s)| Mutation::Insert(a, s)),
        n.prop_map(Mutation::Truncate),
    ]
}

fn apply(text: &str, m: &Mutation) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let pick = |i: usize, len: usize| i % len.max(1);
    match m {
        Mutation::DeleteLine(i) if !lines.is_empty() => {
            lines.remove(pick(*i, lines.len()));
        }
        Mutation::DuplicateLine(i) if !lines.is_empty() => {
            let i = pick(*i, lines.len());
            lines.insert(i, lines[i].clone());
        }
        Mutation::SwapLines(a, b) if !lines.is_empty() => {
            let (a, b) = (pick(*a, lines.len()), pick(*b, lines.len()));
            lines.swap(a, b);
        }
        Mutation::ReplaceValue(i, v) if !lines.is_empty() => {
            let i = pick(*i, lines.len());
            if let Some(at) = lines[i].find(['=', ':']) {
                lines[i] = format!("{} {}", &lines[i][..=at], HOSTILE[*v]);
            }
        }
        Mutation::ChangeDigit(n, d) => {
            let digits: Vec<usize> = text
                .char_indices()
                .filter(|(_, c)| c.is_ascii_digit())
                .map(|(i, _)| i)
                .collect();
            if digits.is_empty() {
                return text.to_string();
            }
            let at = digits[pick(*n, digits.len())];
            return format!("{}{}{}", &text[..at], d, &text[at + 1..]);
        }
        Mutation::Insert(n, s) => {
            let at = boundary(text, *n);
            return format!("{}{s}{}", &text[..at], &text[at..]);
        }
        Mutation::Truncate(n) => return text[..boundary(text, *n)].to_string(),
        _ => {}
    }
    lines.join("\n") + "\n"
}

/// A char boundary of `text` picked by `n`.
fn boundary(text: &str, n: usize) -> usize {
    let mut at = n % (text.len() + 1);
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn mutated(text: &str, mutations: &[Mutation]) -> String {
    mutations.iter().fold(text.to_string(), |t, m| apply(&t, m))
}

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
            if path.extension().is_some_and(|e| e == "toml" || e == "json") {
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
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    #[test]
    fn weights_files(seed in any::<prop::sample::Index>(), ms in prop::collection::vec(mutation(), 1..4)) {
        let valid = files(&[("weights/tetris", ""), ("weights/puyo", ""), ("weights/connect", "")]);
        let text = mutated(seed.get::<String>(&valid), &ms);
        let tetris = stacktune::games::GameSpec::default().build().unwrap();
        let stacktune::games::AnyGame::Tetris(tetris) = tetris else { unreachable!() };
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
    fn run_configs(seed in any::<prop::sample::Index>(), ms in prop::collection::vec(mutation(), 1..4)) {
        let valid = files(&[("reports", "run.toml")]);
        let text = mutated(seed.get::<String>(&valid), &ms);
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
    fn checkpoints(seed in any::<prop::sample::Index>(), ms in prop::collection::vec(mutation(), 1..4), reseal in any::<bool>()) {
        let runs = ["tetris-default", "tetris-long", "puyo-tsu-1ply", "connect-evolved"];
        let dir = root().join("reports").join(seed.get(&runs));
        let config = RunConfig::load(&dir.join("run.toml")).unwrap();
        let game = config.game.build().unwrap();
        let all = stacktune::with_game!(&game, g => g.feature_names());
        let features: Vec<String> = if config.features.is_empty() {
            all.iter().map(|s| s.to_string()).collect()
        } else {
            config.features.clone()
        };
        let history = std::fs::read(dir.join("history.csv")).unwrap();
        let sealed: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("checkpoint.json")).unwrap()).unwrap();
        // Mutate the state's text, pretty-printed so that line mutations have lines to work on.
        let state = serde_json::to_string_pretty(&sealed["state"]).unwrap();
        let state = mutated(&state, &ms);
        // Resealed, a mutation reaches the content checks; not resealed, the checksum's.
        let crc = if reseal { crc32fast::hash(state.as_bytes()) } else { 0 };
        let text = format!("{{\"crc32\":\"{crc:08x}\",\"state\":{state}}}");
        let expected = Expected {
            config: &config,
            features: &features,
            generations: config.generations,
            history_csv: Some(&history),
        };
        if let Err(e) = Checkpoint::open(&text, &expected) {
            one_line(&e)?;
        }
    }
}

//! Every game setting, on every game that takes it, through the command line into run.toml and
//! through a resume: a setting the declaration gains reaches this walk by itself, and one that a
//! flag, the overlay or run.toml drops fails it (as `evolve --fire-points` and `--book` once
//! did, silently).

use crate::common::*;
use stacktune_games::settings::{GameSpec, Ruleset, Setting};
use std::path::Path;

/// A small run whose games end quickly: capped in training and held out.
const CONFIG: &str = "name = \"walk\"\nseed = 3\ngenerations = 1\ngames = 1\nmax_pieces = 12\nvalidation_games = 1\nvalidate_every = 1\nfinal_games = 1\nvalidation_max_pieces = 12\n\n[ga]\npopulation = 2\nelitism = 0\n";

/// The same, uncapped: a splitting estimate plays its games out (on a tiny board).
const UNCAPPED: &str = "name = \"walk\"\nseed = 3\ngenerations = 1\ngames = 1\nmax_pieces = 0\nvalidation_games = 1\nvalidate_every = 1\nfinal_games = 1\nvalidation_max_pieces = 0\n\n[ga]\npopulation = 2\nelitism = 0\n";

/// The flags that pick `ruleset`'s game, as a user gives them.
fn game_flags(ruleset: Ruleset) -> &'static [&'static str] {
    match ruleset {
        Ruleset::Research => &["--game", "tetris"],
        Ruleset::Contest => &["--game", "tetris", "--rules", "contest"],
        Ruleset::Guideline => &["--game", "tetris", "--rules", "guideline"],
        Ruleset::Puyo | Ruleset::PuyoVersus => &["--game", "puyo"],
        Ruleset::Connect => &["--game", "connect"],
    }
}

/// A valid value of setting `key` on `ruleset`, as flags: the setting's own flag and value
/// last, preceded by what it needs beside it (a beam for a beam's depth); `None` for a key the
/// walk does not know, which fails it.
fn example(key: &str, ruleset: Ruleset) -> Option<Vec<&'static str>> {
    use Ruleset::*;
    let beam = |flag: &'static str, value: &'static str| vec!["--beam-width", "4", flag, value];
    Some(match (key, ruleset) {
        ("game", _) => game_flags(ruleset).to_vec(),
        ("width", _) => vec!["--width", "6"],
        ("height", Puyo) => vec!["--height", "12"],
        ("height", _) => vec!["--height", "8"],
        ("rules", Research) => vec!["--game", "tetris", "--rules", "research"],
        ("rules", Contest | Guideline) => game_flags(ruleset).to_vec(),
        ("rules", Puyo | PuyoVersus) => vec!["--game", "puyo", "--rules", "tsu"],
        ("fitness", _) => vec!["--fitness", "max_chain"],
        ("colours", _) => vec!["--colours", "3"],
        ("inarow", _) => vec!["--inarow", "3"],
        ("depth", Connect) => vec!["--depth", "2"],
        ("depth", _) => beam("--depth", "2"),
        ("opponent_depth", _) => vec!["--opponent-depth", "2"],
        ("endgame", _) => vec!["--endgame", "8"],
        ("book", _) => vec!["--book", "shipped"],
        ("beam_width", _) => vec!["--beam-width", "4"],
        ("samples", _) => beam("--samples", "2"),
        ("unseen", _) => beam("--unseen", "2"),
        ("fired", _) => vec!["--beam-width", "4", "--samples", "2", "--fired", "5000"],
        ("nodes", _) => beam("--nodes", "40"),
        ("pairs_shown", _) => vec!["--pairs-shown", "2"],
        ("fire_points", _) => vec!["--fire-points", "80000"],
        ("level", _) => vec!["--level", "3"],
        ("turns", _) => vec!["--level", "4", "--turns", "50"],
        ("splitting", _) => vec!["--width", "4", "--height", "4", "--splitting", "20"],
        ("mode", PuyoVersus) => vec!["--mode", "versus"],
        ("mode", _) => vec!["--mode", "sprint"],
        ("target_points", _) => vec!["--target-points", "35"],
        ("margin_pairs", _) => vec!["--margin-pairs", "20"],
        ("margin_every", _) => vec!["--margin-every", "5"],
        ("nuisance_cap", _) => vec!["--nuisance-cap", "12"],
        ("all_clear_nuisance", _) => vec!["--all-clear-nuisance", "18"],
        ("previews", _) => vec!["--previews", "3"],
        ("kicks", _) => vec!["--kicks", "srs+"],
        ("turn_180", _) => vec!["--turn-180", "true"],
        ("spins", _) => vec!["--spins", "all-mini+"],
        ("spawn", _) => vec!["--spawn", "tetrio"],
        ("attack", _) => vec!["--attack", "tetrio"],
        ("garbage_delay", _) => vec!["--garbage-delay", "2"],
        ("garbage_cap", _) => vec!["--garbage-cap", "4"],
        ("messiness", _) => vec!["--messiness", "0.5"],
        ("margin", _) => vec!["--margin", "50"],
        ("margin_increase", _) => vec!["--margin", "50", "--margin-increase", "5"],
        ("think_ms", _) => vec!["--think-ms", "20"],
        ("timeout_ms", _) => vec!["--timeout-ms", "900"],
        ("opponents", Connect) => vec!["--opponent", "random"],
        ("opponents", PuyoVersus) => vec!["--opponent", "hand.toml"],
        ("opponents", _) => vec!["--opponent", "hand"],
        ("board_features", _) => vec!["--board-feature", "mine"],
        ("bag7", _) => vec!["--bag7"],
        ("allow_topout", _) => vec!["--allow-topout"],
        ("preview", _) => vec!["--preview"],
        ("all_clear", _) => vec!["--all-clear"],
        ("no_hold", _) => vec!["--no-hold"],
        ("no_lock_out", _) => vec!["--no-lock-out"],
        _ => return None,
    })
}

/// What run.toml's `[game]` must hold for `--flag` given in `flags`: the value after it, or
/// `true` for a switch.
fn expected(flags: &[&str], flag: &str) -> String {
    let at = flags.iter().position(|f| *f == format!("--{flag}"));
    match flags.get(at.expect("the example gives its flag") + 1) {
        Some(value) if !value.starts_with("--") => value.to_string(),
        _ => "true".to_string(),
    }
}

/// `[game] key` of the run.toml in `run`, as the command line writes its value.
fn written(run: &Path, key: &str) -> Option<String> {
    let text = read(run, "run.toml");
    let table: toml::Table = text.parse().unwrap();
    let value = table["game"].get(key)?;
    Some(match value {
        toml::Value::String(s) => s.clone(),
        toml::Value::Integer(i) => i.to_string(),
        toml::Value::Float(f) => f.to_string(),
        toml::Value::Boolean(b) => b.to_string(),
        toml::Value::Array(a) => a
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect::<Vec<_>>()
            .join(","),
        other => panic!("{key} = {other}"),
    })
}

/// One setting on one game: given on the command line, it is in run.toml, and still there once
/// the run resumes for another generation.
fn walk(dir: &Path, setting: &Setting, ruleset: Ruleset, flags: &[&str]) -> Result<(), String> {
    let key = setting.key;
    if ruleset == Ruleset::PuyoVersus && PUYO_SEARCH.contains(&key) {
        return walk_versus(dir, setting, flags);
    }
    if key == "board_features" {
        return walk_board_feature(dir, flags);
    }
    let out_name = format!("{key}-{ruleset:?}");
    let config = match key {
        "splitting" => "uncapped.toml",
        _ => "run.config.toml",
    };
    let mut args = vec!["evolve", "--config", config];
    if !matches!(key, "game" | "rules") {
        args.extend_from_slice(game_flags(ruleset));
    }
    if ruleset == Ruleset::PuyoVersus {
        // A versus run plays matches against its opponents (hand.toml beside the config).
        args.extend(["--mode", "versus"].iter().filter(|_| key != "mode"));
        args.extend(
            ["--opponent", "hand.toml"]
                .iter()
                .filter(|_| key != "opponents"),
        );
    }
    args.extend_from_slice(flags);
    args.extend_from_slice(&["--quiet", "--out", &out_name]);
    let out = run_in(dir, &args);
    if !out.status.success() {
        let error = String::from_utf8_lossy(&out.stderr);
        return Err(format!("{args:?}: {error}"));
    }
    let run = dir.join(&out_name);
    let want = match (key, ruleset) {
        // run.toml names its weights files from its own folder.
        ("opponents", Ruleset::PuyoVersus) => "../hand.toml".to_string(),
        _ => expected(flags, setting.flag),
    };
    let check = |when: &str| match written(&run, key) {
        Some(value) if value == want => Ok(()),
        other => Err(format!(
            "{args:?}: run.toml {when} holds {key} = {other:?}, not {want}"
        )),
    };
    check("after the run")?;
    let toml = read(&run, "run.toml").replace("generations = 1\n", "generations = 2\n");
    std::fs::write(run.join("run.toml"), toml).unwrap();
    let out = run_in(dir, &["evolve", "--resume", &out_name, "--quiet"]);
    if !out.status.success() {
        return Err(format!(
            "resume {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    check("after the resume")
}

/// A board feature is a function defined beside the run (in Python, on the page), which the
/// command line has none of: a run naming one is refused in one line naming it, before any
/// folder is made (python/tests/test_board_features.py walks it into run.toml and back).
fn walk_board_feature(dir: &Path, flags: &[&str]) -> Result<(), String> {
    let mut args = vec!["evolve", "--config", "run.config.toml", "--game", "puyo"];
    args.extend_from_slice(flags);
    args.extend_from_slice(&["--quiet", "--out", "board-feature"]);
    let out = run_in(dir, &args);
    let error = String::from_utf8_lossy(&out.stderr);
    let refused = error.starts_with("error: board feature `mine` is not defined: ")
        && error.lines().count() == 1
        && out.status.code() == Some(1);
    match refused && !dir.join("board-feature").exists() {
        true => Ok(()),
        false => Err(format!("{args:?}: {error}")),
    }
}

/// The search settings of Puyo's battle rules, which a versus run refuses (it plays one ply,
/// reading the match at its first move): `versus` takes them.
const PUYO_SEARCH: [&str; 8] = [
    "depth",
    "beam_width",
    "samples",
    "unseen",
    "fired",
    "nodes",
    "pairs_shown",
    "preview",
];

/// One search setting of Puyo's battle rules ([`PUYO_SEARCH`]): given to a short `versus`, the
/// match is played and its report holds the setting.
fn walk_versus(dir: &Path, setting: &Setting, flags: &[&str]) -> Result<(), String> {
    let hand = root().join("weights/puyo/hand.toml");
    let hand = hand.to_str().unwrap();
    let mut args = vec!["versus", hand, hand, "--games", "2", "--max-pieces", "20"];
    if !matches!(setting.key, "game" | "rules") {
        args.extend_from_slice(game_flags(Ruleset::PuyoVersus));
    }
    args.extend_from_slice(flags);
    args.extend_from_slice(&["--json", "--quiet"]);
    let out = run_in(dir, &args);
    if !out.status.success() {
        return Err(format!(
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let want = expected(flags, setting.flag);
    let value = &report["game"][setting.key];
    let got = match value {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    match (got == want, report["games"].as_u64()) {
        (true, Some(2)) => Ok(()),
        _ => Err(format!(
            "{args:?}: the report holds {} = {value}, not {want}",
            setting.key
        )),
    }
}

#[test]
fn every_setting_of_every_game_reaches_run_toml_and_survives_a_resume() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("run.config.toml"), CONFIG).unwrap();
    std::fs::write(dir.path().join("uncapped.toml"), UNCAPPED).unwrap();
    std::fs::copy(
        root().join("weights/puyo/hand.toml"),
        dir.path().join("hand.toml"),
    )
    .unwrap();
    let mut failures = Vec::new();
    let mut walked = 0;
    for setting in GameSpec::SETTINGS {
        for &ruleset in setting.users {
            let Some(flags) = example(setting.key, ruleset) else {
                failures.push(format!("no example of {} for {ruleset:?}", setting.key));
                continue;
            };
            walked += 1;
            if let Err(e) = walk(dir.path(), setting, ruleset, &flags) {
                failures.push(e);
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(walked >= 50, "{walked} settings walked");
}

/// The settings a game does not use are refused, each by its flag and the games that take it.
#[test]
fn a_setting_of_another_game_is_refused_naming_who_takes_it() {
    let out = run(&[
        "play",
        "--weights",
        "weights/tetris/dellacherie.toml",
        "--fire-points",
        "9",
    ]);
    assert_one_line_error(
        &out,
        "--fire-points is a puyo setting; tetris does not use it",
    );
    let out = run(&[
        "play",
        "--weights",
        "weights/connect/parity.toml",
        "--beam-width",
        "4",
        "--nodes",
        "9",
    ]);
    assert_one_line_error(
        &out,
        "--beam-width is a tetris or puyo setting; connect does not use it",
    );
}

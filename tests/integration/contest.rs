//! Contest Tetris: the recorded games of the contest's own engine replay identically, and bad
//! input gets one clear line.

use crate::common::{self, assert_error, assert_one_line_error, json, run, run_in};
use serde_json::Value;
use stacktune_games::tetris::contest::rules::Rules;
use stacktune_games::tetris::contest::stream::ContestStream;
use std::path::Path;

fn traces() -> Vec<Value> {
    let text = std::fs::read_to_string(common::root().join("tests/data/contest/traces.jsonl"))
        .expect("traces.jsonl");
    text.lines()
        .map(|l| serde_json::from_str(l).expect("a trace is JSON"))
        .collect()
}

/// The trace's requests in the requests-file form.
fn requests_of(trace: &Value) -> String {
    trace["turns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let r = &t["request"];
            format!(
                "{} {} {}\n",
                r["hold"].as_bool().unwrap() as u8,
                r["rotation"],
                r["x"]
            )
        })
        .collect()
}

fn replay_json(dir: &Path, level: &str, seed: &str, requests: &str) -> Value {
    std::fs::write(dir.join("requests.txt"), requests).unwrap();
    json(&run_in(
        dir,
        &[
            "replay",
            "--rules",
            "contest",
            "--level",
            level,
            "--seed",
            seed,
            "--requests",
            "requests.txt",
            "--json",
        ],
    ))
}

#[test]
fn every_trace_replays_turn_for_turn() {
    let dir = tempfile::tempdir().unwrap();
    let all = traces();
    assert_eq!(all.len(), 3);
    for trace in &all {
        let (seed, level) = (trace["seed"].to_string(), trace["level"].to_string());
        let turns = replay_json(dir.path(), &level, &seed, &requests_of(trace));
        let expected = trace["turns"].as_array().unwrap();
        let got = turns.as_array().unwrap();
        assert_eq!(got.len(), expected.len(), "seed {seed} level {level}");
        for (g, e) in got.iter().zip(expected) {
            assert_eq!(g, e, "seed {seed} level {level} turn {}", e["turn"]);
        }
        assert_eq!(got.last().unwrap()["score"], trace["final_score"]);
    }
}

#[test]
fn every_trace_starts_on_its_initial_board() {
    for trace in traces() {
        let rules = Rules {
            level: trace["level"].as_u64().unwrap() as u8,
            all_clear_bonus: false,
        };
        let mut dealer = ContestStream::new(trace["seed"].as_u64().unwrap());
        let board = rules.start(&mut dealer).board.to_rows();
        let expected: Vec<String> = serde_json::from_value(trace["initial_board"].clone()).unwrap();
        assert_eq!(board, expected, "seed {}", trace["seed"]);
    }
}

#[test]
fn replay_table_ends_with_the_totals() {
    let dir = tempfile::tempdir().unwrap();
    let trace = &traces()[1];
    std::fs::write(dir.path().join("r.txt"), requests_of(trace)).unwrap();
    let out = run_in(
        dir.path(),
        &[
            "replay",
            "--rules",
            "contest",
            "--level",
            "2",
            "--seed",
            "7",
            "--requests",
            "r.txt",
        ],
    );
    assert!(out.status.success());
    let text = common::stdout(&out);
    assert_eq!(
        text.lines().last().unwrap(),
        "180 turns: score 9754, lines 36, game overs 2"
    );
}

fn replay_error(requests: &str, extra: &[&str], needle: &str) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("r.txt"), requests).unwrap();
    let mut args = vec!["replay", "--seed", "1", "--requests", "r.txt"];
    args.extend_from_slice(extra);
    let out = run_in(dir.path(), &args);
    assert_one_line_error(&out, needle);
    assert!(out.stdout.is_empty(), "no output on error");
}

#[test]
fn requests_out_of_range_name_the_line() {
    let contest = ["--rules", "contest"];
    replay_error(
        "0 0 4\n0 4 4\n",
        &contest,
        "r.txt line 2: rotation `4` is not an integer in 0..=3",
    );
    replay_error(
        "0 0 10\n",
        &contest,
        "r.txt line 1: x `10` is not an integer in 0..=9",
    );
    replay_error(
        "0 0 1\n0 0 1\n2 0 1\n",
        &contest,
        "r.txt line 3: hold `2` is not an integer in 0..=1",
    );
    replay_error(
        "0 0 1 5\n",
        &contest,
        "r.txt line 1: want `hold rotation x` (three integers), got `0 0 1 5`",
    );
    replay_error("1 a 1\n", &contest, "r.txt line 1: rotation `a` is not");
}

#[test]
fn levels_outside_1_to_4_are_refused() {
    for level in ["0", "5"] {
        replay_error(
            "0 0 0\n",
            &["--rules", "contest", "--level", level],
            &format!("--level {level} is out of range 1..=4"),
        );
    }
}

#[test]
fn contest_and_research_flags_do_not_mix() {
    replay_error(
        "0 0 0\n",
        &["--rules", "contest", "--width", "8"],
        "--width is a research tetris or puyo or connect setting; contest tetris does not use it",
    );
    replay_error(
        "0 0 0\n",
        &["--rules", "contest", "--preview"],
        "--preview is a research tetris or puyo setting; contest tetris does not use it",
    );
    replay_error(
        "0 0 0\n",
        &[],
        "replay plays contest tetris only: add --rules contest",
    );
    let out = run(&[
        "play",
        "--weights",
        "weights/tetris/dellacherie.toml",
        "--level",
        "2",
        "--games",
        "1",
    ]);
    assert_one_line_error(
        &out,
        "--level is a contest tetris (--rules contest) setting; tetris does not use it",
    );
    let out = run(&[
        "play",
        "--weights",
        "weights/tetris/dellacherie.toml",
        "--rules",
        "research",
        "--all-clear",
        "--games",
        "1",
    ]);
    assert_one_line_error(
        &out,
        "--all-clear is a contest tetris (--rules contest) setting; tetris does not use it",
    );
}

/// `replay` of contest seed 1 at the default level, before its requests flag.
const REPLAY_SEED_1: [&str; 5] = ["replay", "--rules", "contest", "--seed", "1"];

#[test]
fn replay_into_a_closed_pipe_ends_quietly() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("r.txt"), requests_of(&traces()[0])).unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_stacktune"))
        .args(REPLAY_SEED_1)
        .args(["--requests", "r.txt", "--json"])
        .current_dir(dir.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The reader goes away before the ~90 kB of turns are written.
    drop(child.stdout.take());
    assert_ended_by_closed_pipe(&child.wait_with_output().unwrap());
}

/// Ended as `cat` ends when its reader leaves: by SIGPIPE, with nothing on stderr (no panic,
/// no error line).
fn assert_ended_by_closed_pipe(out: &std::process::Output) {
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    assert_eq!(out.status.signal(), Some(13), "{:?}", out.status);
}

#[test]
fn missing_requests_file() {
    let out = run(&[&REPLAY_SEED_1[..], &["--requests", "no/such/file.txt"]].concat());
    assert_one_line_error(&out, "cannot read requests file no/such/file.txt");
}

const HAND: &str = "tests/data/contest/el-tetris.toml";

/// `play ... | head -1`: the table is far longer than a pipe holds, so the reader's leaving
/// makes a later write fail; the command must end by SIGPIPE, as `cat` does, not panic.
#[test]
fn a_reader_that_stops_early_ends_play_quietly() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_stacktune"))
        .args([
            "play",
            "--weights",
            HAND,
            "--level",
            "2",
            "--seed",
            "1",
            "--games",
            "3000",
            "--quiet",
        ])
        .current_dir(common::root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.starts_with("game "), "{first}");
    assert_ended_by_closed_pipe(&child.wait_with_output().unwrap());
}

#[test]
fn play_numbers_games_by_contest_seed_and_reports_each() {
    let play = |seed: &str, games: &str| {
        json(&run(&[
            "play",
            "--weights",
            HAND,
            "--level",
            "2",
            "--seed",
            seed,
            "--games",
            games,
            "--json",
            "--quiet",
        ]))
    };
    let three = play("1", "3");
    let keys: Vec<&str> = three
        .as_object()
        .unwrap()
        .keys()
        .map(|k| k.as_str())
        .collect();
    for key in [
        "games",
        "mean",
        "ci95",
        "total_pieces",
        "pieces_per_second",
        "per_game",
    ] {
        assert!(keys.contains(&key), "{key} in {keys:?}");
    }
    let rows = three["per_game"].as_array().unwrap();
    assert_eq!(rows[1]["game"], "contest seed 2, level 2");
    let row_keys: Vec<&str> = rows[0]
        .as_object()
        .unwrap()
        .keys()
        .map(|k| k.as_str())
        .collect();
    assert_eq!(
        row_keys,
        [
            "doubles",
            "game",
            "game_overs",
            "lines",
            "score",
            "singles",
            "tetrises",
            "triples"
        ]
    );
    // Game 1 of --seed 1 is game 0 of --seed 2: contest seed 2 either way.
    let two = play("2", "1");
    assert_eq!(two["per_game"][0]["score"], rows[1]["score"]);
    assert_eq!(three["total_pieces"], 3 * 180);
    let mean: f64 = rows
        .iter()
        .map(|r| r["score"].as_f64().unwrap())
        .sum::<f64>()
        / 3.0;
    assert_eq!(three["mean"].as_f64().unwrap(), mean);
}

#[test]
fn weights_name_their_rules() {
    let out = run(&[
        "play",
        "--weights",
        HAND,
        "--rules",
        "research",
        "--games",
        "1",
    ]);
    assert_error(
        &out,
        "weights file tests/data/contest/el-tetris.toml: the weights are for tetris rules `contest`, not `research`",
    );
    // Research weights (a file that names no rules) under contest rules: refused as `export
    // contest` refuses them.
    let out = run(&[
        "play",
        "--weights",
        "weights/tetris/dellacherie.toml",
        "--rules",
        "contest",
        "--games",
        "1",
    ]);
    assert_error(
        &out,
        "weights file weights/tetris/dellacherie.toml: the weights are for tetris rules `research`, not `contest`",
    );
}

#[test]
fn watch_shows_hold_and_previews() {
    let out = run(&[
        "watch",
        "--weights",
        HAND,
        "--level",
        "3",
        "--seed",
        "1",
        "--max-pieces",
        "2",
    ]);
    assert!(out.status.success());
    let text = common::stdout(&out);
    assert!(text.starts_with("contest seed 1, level 3\n"), "{text}");
    // Seed 1 at level 3 deals I first, then L J Z Z J.
    assert!(
        text.contains("turn 0  current I  hold -  next LJZZJ"),
        "{text}"
    );
}

#[test]
fn shipped_weights_play_a_reproducible_contest_game() {
    // The file names its rules; level 2 is the default.
    let out = json(&run(&[
        "play",
        "--weights",
        "reports/tetris-contest-l2/best.toml",
        "--seed",
        "1",
        "--games",
        "2",
        "--json",
        "--quiet",
    ]));
    let scores: Vec<f64> = out["per_game"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["score"].as_f64().unwrap())
        .collect();
    assert_eq!(scores, [20075.0, 21170.0]);
    assert_eq!(out["per_game"][0]["tetrises"], 9);
}

/// The beam weights play the beam their file names (`[search] beam_width = 32`) with no flag,
/// and give the per-game scores README's table is made of.
#[test]
fn shipped_beam_weights_play_their_own_search() {
    let play = |weights: &str, level: &str, extra: &[&str]| {
        let mut args = vec![
            "play",
            "--weights",
            weights,
            "--level",
            level,
            "--seed",
            "1",
            "--games",
            "2",
            "--threads",
            "1",
            "--json",
            "--quiet",
        ];
        args.extend_from_slice(extra);
        let out = json(&run(&args));
        let scores: Vec<f64> = out["per_game"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["score"].as_f64().unwrap())
            .collect();
        scores
    };
    let l2 = "weights/contest/beam-l2.toml";
    assert_eq!(play(l2, "2", &[]), [25956.0, 25923.0]);
    assert_eq!(play(l2, "2", &["--beam-width", "32"]), [25956.0, 25923.0]);
    assert_eq!(
        play("weights/contest/beam-l3.toml", "3", &[]),
        [24171.0, 22593.0]
    );
}

/// `replay`'s last line for the recorded level-1 game.
const LEVEL_1_TOTALS: &str = "180 turns: score 26066, lines 71, game overs 0";

/// The shipped level-1 player's requests: one line a turn, `hold rotation x`.
const LEVEL_1_REQUESTS: &str = "tests/data/contest/requests-l1-seed-0.txt";

/// The shipped level-1 player (`weights/contest/beam-l1.toml`, its beam knowing the fixed
/// cycle of seed 0) plays exactly the requests of its recorded game.
#[test]
fn the_level_1_player_plays_its_recorded_game() {
    use stacktune_game::Policy;
    use stacktune_games::tetris::contest::Contest;
    use stacktune_players::eval::LinearPlayer;
    use stacktune_players::search::{Player, Search};
    use stacktune_players::weights::WeightFile;
    let file = WeightFile::load(&common::root().join("weights/contest/beam-l1.toml")).unwrap();
    let search = file.search.unwrap();
    let game = Contest::new(1, false).unwrap();
    let player = Player::new(
        LinearPlayer::from_file(&game, &file).unwrap(),
        Search::Beam {
            depth: search.depth.unwrap(),
            width: search.beam_width,
        },
    );
    let rules = game.rules_of();
    let mut dealer = ContestStream::new(0);
    let mut position = rules.start(&mut dealer);
    assert!(position.cycle);
    let mut requests = String::new();
    for _ in 0..180 {
        let r = player.choose(&game, &position).unwrap();
        requests += &format!("{} {} {}\n", r.hold as u8, r.rotation, r.x);
        rules.play(&mut position, r, &mut dealer);
    }
    let recorded = std::fs::read_to_string(common::root().join(LEVEL_1_REQUESTS)).unwrap();
    assert_eq!(requests, recorded);
}

/// The recorded level-1 game, replayed by `replay` on the contest's rules: more than the
/// contest winner's 26,059 on the same game.
#[test]
fn the_level_1_game_beats_the_contest_winner() {
    let out = run(&[
        "replay",
        "--rules",
        "contest",
        "--level",
        "1",
        "--seed",
        "0",
        "--requests",
        LEVEL_1_REQUESTS,
    ]);
    assert!(out.status.success());
    let table = String::from_utf8(out.stdout).unwrap();
    let last = table.lines().last().unwrap();
    assert_eq!(last, LEVEL_1_TOTALS);
    let score: u32 = last
        .split("score ")
        .nth(1)
        .unwrap()
        .split(',')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(score > 26_059);
}

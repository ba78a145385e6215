//! Contest level 4: level 3's board without the 180-turn limit, 180,000 turns by default and
//! `--turns N` for a slower controller. Its games replay request for request, end at their
//! limit exactly, and play the same at any thread count.

use crate::common::{self, assert_one_line_error, json, run};
use serde_json::Value;
use stacktune_game::Policy;
use stacktune_games::tetris::contest::Contest;
use stacktune_games::tetris::contest::stream::ContestStream;
use stacktune_players::eval::LinearPlayer;
use stacktune_players::search::{Player, Search};
use stacktune_players::weights::WeightFile;

/// A quick one-ply player whose level-4 game of 500 turns on seed 1 has two game overs.
const ONE_PLY: &str = "reports/tetris-contest-l3/best.toml";

/// Its requests on contest seed 1, level 4, `--turns 500`: one line a turn, `hold rotation x`.
const REQUESTS: &str = "tests/data/contest/requests-l4-seed-1-500.txt";

/// `replay`'s last line for that game, and `play`'s score for it.
const TOTALS: &str = "500 turns: score 44921, lines 170, game overs 2";

fn play(extra: &[&str]) -> Value {
    let mut args = vec![
        "play",
        "--weights",
        ONE_PLY,
        "--level",
        "4",
        "--json",
        "--quiet",
    ];
    args.extend_from_slice(extra);
    json(&run(&args))
}

#[test]
fn turns_are_level_4_s_and_within_its_ticks() {
    let refused = |extra: &[&str], message: &str| {
        let mut args = vec!["play", "--weights", ONE_PLY, "--games", "1"];
        args.extend_from_slice(extra);
        let out = run(&args);
        assert_one_line_error(&out, message);
        assert!(out.stdout.is_empty());
    };
    let ticks = "(level 4 is 180 s of 1 ms ticks, a turn a tick at most)";
    refused(
        &["--level", "4", "--turns", "0"],
        &format!("--turns 0 is out of range 1..=180000 {ticks}"),
    );
    refused(
        &["--level", "4", "--turns", "180001"],
        &format!("--turns 180001 is out of range 1..=180000 {ticks}"),
    );
    refused(
        &["--level", "2", "--turns", "500"],
        "--turns is for level 4; level 2 plays exactly 180 turns",
    );
    // Level 2 is the default level.
    refused(
        &["--turns", "500"],
        "--turns is for level 4; level 2 plays exactly 180 turns",
    );
    refused(&["--level", "5"], "--level 5 is out of range 1..=4");
    let out = run(&[
        "play",
        "--weights",
        "weights/tetris/dellacherie.toml",
        "--turns",
        "500",
    ]);
    assert_one_line_error(
        &out,
        "--turns is a contest tetris (--rules contest) setting; tetris does not use it",
    );
}

/// The game ends with its last turn, played and scored: `--turns` moves, whatever the game
/// overs, and game i is contest seed S + i as at the other levels.
#[test]
fn the_turn_limit_ends_the_game_exactly() {
    let out = play(&["--turns", "500", "--seed", "1", "--games", "2"]);
    assert_eq!(out["total_pieces"], 1000);
    let game = &out["per_game"][0];
    assert_eq!(game["game"], "contest seed 1, level 4");
    assert_eq!(game["score"], 44921.0);
    assert_eq!(game["game_overs"], 2);
    assert_eq!(out["per_game"][1]["game"], "contest seed 2, level 4");
    // One turn more is one move more.
    let longer = play(&["--turns", "501", "--seed", "1", "--games", "1"]);
    assert_eq!(longer["total_pieces"], 501);
}

/// The player plays exactly the requests of the recorded game, and `replay` of those requests
/// on the contest's rules scores what `play` scores.
#[test]
fn a_level_4_game_replays_request_for_request() {
    let file = WeightFile::load(&common::root().join(ONE_PLY)).unwrap();
    let game = Contest::new(4, false)
        .unwrap()
        .with_turns(Some(500))
        .unwrap();
    let player = Player::new(
        LinearPlayer::from_file(&game, &file).unwrap(),
        Search::OnePly,
    );
    let rules = game.rules_of();
    let mut dealer = ContestStream::new(1);
    let mut position = rules.start(&mut dealer);
    let mut requests = String::new();
    while let Some(r) = player.choose(&game, &position) {
        requests += &format!("{} {} {}\n", r.hold as u8, r.rotation, r.x);
        rules.play(&mut position, r, &mut dealer);
    }
    assert_eq!(position.turn, 500);
    let recorded = std::fs::read_to_string(common::root().join(REQUESTS)).unwrap();
    assert_eq!(requests, recorded);

    let replay = |extra: &[&str]| {
        let mut args = vec![
            "replay",
            "--rules",
            "contest",
            "--level",
            "4",
            "--seed",
            "1",
            "--requests",
            REQUESTS,
        ];
        args.extend_from_slice(extra);
        run(&args)
    };
    let out = replay(&["--turns", "500"]);
    assert!(out.status.success());
    let table = common::stdout(&out);
    assert_eq!(table.lines().last().unwrap(), TOTALS);
    // Game overs redraw the obstacles: the board after each is ten rows of them, not empty.
    let turns = json(&replay(&["--turns", "500", "--json"]));
    let overs: Vec<&Value> = turns
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["game_over"] == true)
        .collect();
    assert_eq!(overs.len(), 2);
    for t in overs {
        let rows: Vec<&str> = t["board"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_str().unwrap())
            .collect();
        assert!(rows[..12].iter().all(|r| *r == ".........."), "{rows:?}");
        assert!(rows[12..].iter().any(|r| r.contains('#')), "{rows:?}");
    }
    // A game of fewer turns has no room for the 500 requests.
    let out = replay(&["--turns", "499"]);
    assert_one_line_error(
        &out,
        &format!("{REQUESTS} line 500: a game has 499 turns, this is request 500"),
    );
}

#[test]
fn play_json_is_the_same_at_one_and_two_threads() {
    let at = |threads: &str| {
        let mut out = play(&[
            "--turns",
            "2000",
            "--seed",
            "5",
            "--games",
            "3",
            "--threads",
            threads,
        ]);
        out.as_object_mut().unwrap().remove("pieces_per_second");
        out
    };
    let one = at("1");
    assert_eq!(one["total_pieces"], 6000);
    assert_eq!(one, at("2"));
}

/// `watch`'s last line says why the game stopped: the level-4 game of `--turns 500` (two game
/// overs on the way) reached its limit, and one cut by `--max-pieces` was not lost either.
#[test]
fn watch_says_a_game_reached_its_turn_limit_or_was_stopped() {
    let last_line = |extra: &[&str]| {
        let mut args = vec![
            "watch",
            "--weights",
            ONE_PLY,
            "--level",
            "4",
            "--seed",
            "1",
            "--delay-ms",
            "0",
        ];
        args.extend_from_slice(extra);
        let out = run(&args);
        assert!(out.status.success(), "{out:?}");
        let text = String::from_utf8(out.stdout).unwrap();
        text.lines().last().unwrap().to_string()
    };
    assert_eq!(
        last_line(&["--turns", "500"]),
        "reached the turn limit after 500 pieces: 44921 score"
    );
    assert!(
        last_line(&["--turns", "500", "--max-pieces", "100"])
            .starts_with("stopped at --max-pieces after 100 pieces: "),
    );
}

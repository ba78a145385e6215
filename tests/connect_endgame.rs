//! `--endgame`: from a number of empty cells on, the Connect Four player keeps to the columns
//! the exact solver proves keep the position's value, and its search picks among them.

use stacktune::eval::LinearPlayer;
use stacktune::game::{Game, Policy};
use stacktune::games::connect::accuracy::{Solved, games_set};
use stacktune::games::connect::perfect::value_keeping;
use stacktune::games::connect::solver::Solver;
use stacktune::games::connect::{Column, Connect};
use stacktune::search::{Player, Search};
use stacktune::weights::WeightFile;

mod common;
use common::{assert_each_refused, assert_one_line_error, root, run};

const WEIGHTS: &str = "weights/connect/parity.toml";

fn shipped(depth: u32, endgame: u32) -> Player {
    let game = Connect::standard();
    let file = WeightFile::load(&root().join(WEIGHTS)).unwrap();
    let weights: Vec<f64> = game
        .feature_names()
        .iter()
        .map(|name| file.weights[*name])
        .collect();
    let eval = LinearPlayer::from_vector(game.feature_names(), &weights).unwrap();
    Player::new(eval, Search::AlphaBeta { depth, endgame })
}

/// Positions of the games set (Pons' `-a` analysis of each) with at most `empty` empty cells.
fn late_positions(empty: u32) -> Vec<Solved> {
    games_set()
        .into_iter()
        .filter(|s| 42 - s.position.moves_played() <= empty)
        .collect()
}

/// The null-window classification gives exactly the columns Pons' exact analysis says keep
/// the value; a lost position restricts nothing.
#[test]
fn value_keeping_columns_are_those_of_the_exact_analysis() {
    let game = Connect::standard();
    let mut solver = Solver::new();
    let set = late_positions(18);
    assert!(set.len() > 300, "{} positions", set.len());
    for s in &set {
        let expected: Vec<Column> = game
            .column_order()
            .iter()
            .copied()
            .filter(|&c| s.columns[c as usize].is_some() && s.preserves(c))
            .collect();
        let kept = value_keeping(&mut solver, &game, &s.position);
        assert_eq!(kept, Some(expected), "{:?}", s.position);
    }
    // Pons' vector `2252576253462244111563365343671351441` scores -1: lost for the side to move.
    let lost = game
        .parse_moves("2252576253462244111563365343671351441")
        .unwrap();
    assert_eq!(value_keeping(&mut solver, &game, &lost), None);
}

/// Within its endgame the player never gives up a won or drawn result, where the plain
/// search of the same depth does on some positions; beyond it, the plain search decides.
#[test]
fn the_endgame_player_keeps_every_result_within_its_endgame() {
    let game = Connect::standard();
    let set = late_positions(20);
    for depth in [1, 4] {
        let plain = shipped(depth, 0);
        let endgame = shipped(depth, 20);
        let mut plain_missed = 0;
        for s in &set {
            let column = endgame.choose(&game, &s.position).unwrap();
            assert!(
                s.preserves(column),
                "depth {depth}: column {column} of {:?}",
                s.position
            );
            plain_missed += !s.preserves(plain.choose(&game, &s.position).unwrap()) as u32;
        }
        assert!(
            plain_missed > 10,
            "depth {depth}: the plain search missed only {plain_missed}"
        );
    }
    let early: Vec<Solved> = games_set()
        .into_iter()
        .filter(|s| 42 - s.position.moves_played() > 20)
        .take(200)
        .collect();
    for s in &early {
        assert_eq!(
            shipped(4, 20).choose(&game, &s.position),
            shipped(4, 0).choose(&game, &s.position)
        );
    }
}

fn play(threads: &str, extra: &[&str]) -> std::process::Output {
    let weights = root().join(WEIGHTS);
    let mut args = vec![
        "play",
        "--weights",
        weights.to_str().unwrap(),
        "--depth",
        "2",
        "--opponent",
        "negamax4",
        "--games",
        "98",
        "--seed",
        "5",
        "--json",
        "--threads",
        threads,
    ];
    args.extend_from_slice(extra);
    run(&args)
}

/// Each thread keeps its own solver table, yet the games are the same at any thread count,
/// and the endgame wins more than the plain depth-2 search on the same games.
#[test]
fn play_with_an_endgame_is_the_same_at_any_thread_count_and_stronger() {
    let result = |out: std::process::Output| {
        assert!(out.status.success(), "{out:?}");
        let mut v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        v.as_object_mut().unwrap().remove("pieces_per_second");
        v
    };
    let one = result(play("1", &["--endgame", "22"]));
    assert_eq!(one, result(play("2", &["--endgame", "22"])));
    let plain = result(play("2", &[]));
    let wins = |v: &serde_json::Value| v["opponents"][0]["wins"].as_u64().unwrap();
    assert!(
        wins(&one) > wins(&plain),
        "{} wins with the endgame, {} without",
        wins(&one),
        wins(&plain)
    );
}

#[test]
fn an_endgame_the_solver_cannot_play_is_refused_in_one_line() {
    let weights = root().join(WEIGHTS);
    let weights = weights.to_str().unwrap();
    assert_each_refused(
        &root(),
        &["play", "--weights", weights, "--games", "2"],
        &[
            (
                &["--endgame", "43"][..],
                "--endgame 43 is out of range 1..=42 (empty cells of the 7 × 6 board)",
            ),
            (
                &["--endgame", "0"][..],
                "--endgame 0 is out of range 1..=42",
            ),
            (
                &["--endgame", "10", "--width", "8"][..],
                "--endgame needs the 7 × 6 board, 4 in a row, that the solver solves, not 8x6, 4 in a row",
            ),
        ],
    );
    assert_one_line_error(
        &run(&[
            "play",
            "--weights",
            root()
                .join("weights/tetris/dellacherie.toml")
                .to_str()
                .unwrap(),
            "--endgame",
            "10",
            "--games",
            "1",
        ]),
        "--endgame is a connect setting; tetris does not use it",
    );
    assert_one_line_error(
        &run(&["solve-connect", "--accuracy", weights, "--endgame", "50"]),
        "--endgame 50 is out of range 1..=42",
    );
}

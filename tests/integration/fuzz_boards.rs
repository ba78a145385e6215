//! Fuzzing every board and puzzle parser a user can feed (Tetris, Puyo and Connect-N board
//! files, Connect-N move strings, Panel de Pon TOML and stock files, contest request files) with
//! structured mutations of valid files: each must give a clear error or a valid result, never
//! panic.
//!
//! CI runs 1,000 inputs per parser; `PROPTEST_CASES=10000 cargo test --release --test
//! integration fuzz_boards::` runs more.

use crate::common::fuzz::{cases, edits, mutate};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use stacktune_game::Game;
use stacktune_games::tetris::contest;
use stacktune_games::{connect, panel, puyo, tetris};

const TETRIS: &str = include_str!("../data/boards/tetris.txt");
const PUYO: &str = include_str!("../data/boards/puyo.txt");
const CONNECT: &str = include_str!("../data/boards/connect.txt");
const PANEL_TOML: &str = include_str!("../data/panel/stage59.toml");
const PANEL_STOCK: &str = include_str!("../data/panel/panel-attack-stock.json");
const REQUESTS: &str = include_str!("../data/contest/requests-seed-7.txt");

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(1_000), ..ProptestConfig::default() })]

    #[test]
    fn tetris_boards(e in edits()) {
        let text = mutate(TETRIS, &e);
        if let Ok(board) = tetris::listing::parse_board(&text, "board.txt") {
            // A board that parses can be listed.
            let game = tetris::Tetris::new(board.width(), board.height()).unwrap();
            let position = tetris::Position::new(board, 0);
            game.for_each_move(&position, u64::MAX, &mut |_, _, _, _| {});
        }
    }

    #[test]
    fn puyo_boards(e in edits()) {
        let text = mutate(PUYO, &e);
        let _ = puyo::listing::parse_board(&text, "board.txt");
        let pair: String = mutate("41", &e).chars().take(4).collect();
        let _ = puyo::listing::parse_pair(&pair);
    }

    #[test]
    fn connect_boards_and_moves(e in edits()) {
        let text = mutate(CONNECT, &e);
        if let Ok((game, position)) = connect::listing::parse_board(&text, "board.txt", 4) {
            game.for_each_move(&position, u64::MAX, &mut |_, _, _, _| {});
        }
        let moves = mutate("4453", &e);
        let _ = connect::Connect::standard().parse_moves(&moves);
    }

    #[test]
    fn contest_requests(e in edits()) {
        if let Ok(requests) = contest::replay::parse_requests(&mutate(REQUESTS, &e), "r.txt", 180) {
            // One request a line: a mutation never makes more than the text has lines.
            prop_assert!(requests.len() <= REQUESTS.len());
        }
    }

    #[test]
    fn panel_puzzles(e in edits()) {
        let _ = panel::load::parse_toml(&mutate(PANEL_TOML, &e), "stage59");
        let _ = panel::load::parse_stock(&mutate(PANEL_STOCK, &e));
    }
}

/// The mutations reach the parsers' error paths and still leave valid files among them: a
/// fuzzer whose inputs all fail at the first byte, or all pass, tests nothing.
#[test]
fn mutations_yield_both_errors_and_valid_boards() {
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let (mut ok, mut err) = (0, 0);
    for _ in 0..300 {
        let e = edits().new_tree(&mut runner).unwrap().current();
        match tetris::listing::parse_board(&mutate(TETRIS, &e), "board.txt") {
            Ok(_) => ok += 1,
            Err(_) => err += 1,
        }
    }
    assert!(ok > 30 && err > 30, "{ok} valid, {err} errors");
}

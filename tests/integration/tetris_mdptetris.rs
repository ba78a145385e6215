//! The six games MdpTetris (the papers' simulator) played and recorded, replayed move for move:
//! same piece sequence, same weights, so every orientation, column and line count must match.
//! This holds only because the orientations are listed in MdpTetris's order and the first of
//! tied best placements wins (tests/data/tetris/README.md); `play --pieces` is how a user
//! replays such a game, so it is checked here through the binary too, with its bad inputs.

use crate::common::*;
use serde::Deserialize;
use stacktune_games::tetris::Tetris;
use stacktune_games::tetris::sequence::{TraceMove, parse_pieces};
use stacktune_players::eval::LinearPlayer;
use stacktune_players::search::{Player, Search};
use stacktune_players::weights::WeightFile;
use std::fs;

const GAMES: &str = include_str!("../data/tetris/mdptetris-games.jsonl");

/// One recorded game (the fields this test reads).
#[derive(Deserialize)]
struct Recorded {
    weights: String,
    width: usize,
    height: usize,
    pieces: String,
    /// Per move `[orientation, column]`, the column 1-based as MdpTetris numbers them.
    moves: Vec<[u8; 2]>,
    lines: Vec<u32>,
    total_lines: u32,
    n_moves: usize,
    /// Every placement of the last piece tops out: MdpTetris records a move and stops, where
    /// stacktune ends the game without one (both score the same).
    last_move_topout: bool,
}

fn recorded() -> Vec<Recorded> {
    GAMES
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn weights_file(name: &str) -> String {
    format!("weights/tetris/{name}.toml")
}

/// The recorded moves stacktune must make: all of them but a final all-top-out one.
fn expected_moves(game: &Recorded) -> Vec<TraceMove> {
    let placed = game.n_moves - game.last_move_topout as usize;
    game.pieces
        .chars()
        .zip(&game.moves)
        .zip(&game.lines)
        .take(placed)
        .map(|((piece, &[orientation, column]), &lines)| TraceMove {
            piece,
            orientation,
            column: column - 1,
            lines,
        })
        .collect()
}

#[test]
fn the_six_recorded_games_replay_move_for_move() {
    let games = recorded();
    assert_eq!(games.len(), 6);
    for (g, game) in games.iter().enumerate() {
        let tetris = Tetris::new(game.width, game.height).unwrap();
        let path = root().join(weights_file(&game.weights));
        let file = WeightFile::load(&path).unwrap();
        let eval = LinearPlayer::from_file(&tetris, &file).unwrap();
        let player = Player::new(eval, Search::Lookahead);
        let pieces = parse_pieces(&game.pieces, "recorded").unwrap();
        assert_eq!(pieces.len(), game.n_moves);
        let mut played = Vec::new();
        let result = tetris.play_sequence(&player, &pieces, None, |mv| played.push(mv));
        let want = expected_moves(game);
        for (k, (got, want)) in played.iter().zip(&want).enumerate() {
            assert_eq!(got, want, "game {g} ({}), move {k}", game.weights);
        }
        assert_eq!(played.len(), want.len(), "game {g}: moves played");
        assert_eq!(result.moves, want.len() as u64);
        assert_eq!(
            result.score, game.total_lines as f64,
            "game {g}: total lines"
        );
    }
}

#[test]
fn play_pieces_traces_the_recorded_game() {
    let game = &recorded()[0];
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("seq.txt"), &game.pieces).unwrap();
    let weights = root().join(weights_file(&game.weights));
    let out = run_in(
        dir.path(),
        &[
            "play",
            "--weights",
            weights.to_str().unwrap(),
            "--width",
            "10",
            "--height",
            "10",
            "--pieces",
            "seq.txt",
            "--trace",
            "trace.jsonl",
            "--json",
        ],
    );
    let v = json(&out);
    let want = expected_moves(game);
    assert_eq!(v["games"], 1);
    assert_eq!(v["mean"], 479.0);
    assert_eq!(v["total_pieces"], want.len());
    let trace = fs::read_to_string(dir.path().join("trace.jsonl")).unwrap();
    let lines: Vec<&str> = trace.lines().collect();
    assert_eq!(lines.len(), want.len());
    assert_eq!(
        lines[0],
        r#"{"piece":"L","orientation":2,"column":7,"lines":0}"#
    );
    for (k, (line, want)) in lines.iter().zip(&want).enumerate() {
        assert_eq!(*line, serde_json::to_string(want).unwrap(), "move {k}");
    }
    // Nothing else is left in the folder (no temporary file).
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 2);
}

/// `play --weights weights/WEIGHTS.toml --pieces seq.txt EXTRA...` in a temporary folder
/// holding `files` (name, content).
fn play_pieces(
    weights: &str,
    files: &[(&str, &str)],
    extra: &[&str],
) -> (tempfile::TempDir, std::process::Output) {
    let dir = tempfile::tempdir().unwrap();
    for (name, content) in files {
        fs::write(dir.path().join(name), content).unwrap();
    }
    let weights = root().join(format!("weights/{weights}.toml"));
    let mut args = vec![
        "play",
        "--weights",
        weights.to_str().unwrap(),
        "--pieces",
        "seq.txt",
    ];
    args.extend_from_slice(extra);
    let out = run_in(dir.path(), &args);
    (dir, out)
}

const DELLACHERIE: &str = "tetris/dellacherie";

#[test]
fn text_report_says_where_the_pieces_came_from() {
    let (_dir, out) = play_pieces(
        DELLACHERIE,
        &[("seq.txt", "IIO\n")],
        &["--width", "10", "--height", "10"],
    );
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(
        text.contains("games         1 (pieces from seq.txt, 3 of 3 placed)"),
        "{text}"
    );
    assert!(text.contains("mean lines    1.0 ± 0.0 (95 % CI)"), "{text}");
}

#[test]
fn unknown_letter_is_one_line_with_its_place() {
    let (dir, out) = play_pieces(
        DELLACHERIE,
        &[("seq.txt", "IOT\nSZ?L\n")],
        &["--trace", "t.jsonl"],
    );
    assert_one_line_error(
        &out,
        "piece file seq.txt line 2 column 3: unknown piece `?`; valid pieces: I, O, T, S, Z, L, J",
    );
    assert!(!dir.path().join("t.jsonl").exists());
}

#[test]
fn empty_piece_file_is_one_line() {
    let (_dir, out) = play_pieces(DELLACHERIE, &[("seq.txt", "\n  \n")], &[]);
    assert_one_line_error(&out, "piece file seq.txt: no pieces");
}

#[test]
fn missing_piece_file_is_one_line() {
    let (_dir, out) = play_pieces(DELLACHERIE, &[], &[]);
    assert_one_line_error(&out, "cannot read piece file seq.txt");
}

#[test]
fn an_existing_trace_is_never_overwritten() {
    let (dir, out) = play_pieces(
        DELLACHERIE,
        &[("seq.txt", "IOTZSJL"), ("t.jsonl", "keep me\n")],
        &["--trace", "t.jsonl"],
    );
    assert_one_line_error(&out, "t.jsonl already exists; it is not overwritten");
    assert_eq!(
        fs::read_to_string(dir.path().join("t.jsonl")).unwrap(),
        "keep me\n"
    );
}

#[test]
fn pieces_need_tetris_weights() {
    let (_dir, out) = play_pieces("puyo/hand", &[("seq.txt", "IOT")], &[]);
    assert_one_line_error(&out, "--pieces plays a tetris piece sequence; weights file");
}

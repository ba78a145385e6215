//! `--endgame`: from a number of empty cells on, the Connect Four player keeps to the columns
//! the exact solver proves keep the position's value, and its search picks among them.

use stacktune_game::Policy;
use stacktune_games::connect::accuracy::{Solved, games_set};
use stacktune_games::connect::book::Book;
use stacktune_games::connect::perfect::value_keeping;
use stacktune_games::connect::solver::Solver;
use stacktune_games::connect::{Column, Connect, Position};
use stacktune_players::eval::LinearPlayer;
use stacktune_players::search::{Player, Search};
use stacktune_players::weights::WeightFile;
use std::path::Path;

use crate::common::{self, assert_each_refused, assert_one_line_error, root, run};

const WEIGHTS: &str = "weights/connect/parity.toml";

fn shipped(depth: u32, endgame: u32) -> Player {
    player(WEIGHTS, depth, endgame)
}

/// The alpha-beta player of a connect weights file.
fn player(weights: &str, depth: u32, endgame: u32) -> Player {
    let game = Connect::standard();
    let file = WeightFile::load(&root().join(weights)).unwrap();
    let eval = LinearPlayer::from_file(&game, &file).unwrap();
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

/// The value of a position the book holds, for its side to move, from the book alone: lost
/// when no column keeps anything, won when a kept column wins at once or leaves the opponent
/// lost, drawn otherwise; `None` where the book cannot tell (a kept column leaves a position
/// beyond it).
fn book_value(game: &Connect, book: &Book, position: &Position) -> Option<i8> {
    let Some(kept) = book.kept(game, position)? else {
        return Some(-1);
    };
    let mut value = 0;
    for column in kept {
        let mut after = *position;
        if game.play(&mut after, column).is_some() {
            return Some(1);
        }
        if book.kept(game, &after)?.is_none() {
            value = 1;
        }
    }
    Some(value)
}

/// The shipped book, made by `stacktune connect-book --plies 1` with stacktune's own solver,
/// agrees with the published solution of the game (Allis 1988, Allen 1989): the first player
/// wins by the centre column only (a first disc in c or e draws, in a, b, f or g it loses).
#[test]
fn the_shipped_book_holds_the_published_solution() {
    let game = Connect::standard();
    let book = Book::shipped();
    assert_eq!(book.plies(), 1);
    let at = |moves: &str| game.parse_moves(moves).unwrap();
    assert_eq!(book.kept(&game, &game.empty()), Some(Some(vec![3])));
    assert_eq!(book_value(&game, &book, &game.empty()), Some(1));
    // After the centre the second player is lost; after any other first disc it is not.
    for column in 1..=7 {
        let kept = book.kept(&game, &at(&column.to_string()));
        assert_eq!(
            kept.unwrap().is_none(),
            column == 4,
            "first disc in {column}"
        );
    }
    assert_eq!(book.kept(&game, &at("44")), None);
}

/// With the book the player opens in the centre, the one first column that keeps the win, at
/// every depth, where the search alone opens by its depth's parity (evolved.toml, which
/// `export kaggle` ships, in column c at every even depth). In every position the book
/// holds, mirror images too, the player keeps the value: a won position stays won, a drawn
/// one at least drawn.
#[test]
fn the_book_player_keeps_every_booked_value() {
    let mut game = Connect::standard();
    let plain: Vec<Column> = (1..=7)
        .map(|depth| {
            let evolved = player("weights/connect/evolved.toml", depth, 0);
            evolved.choose(&game, &game.empty()).unwrap()
        })
        .collect();
    assert_eq!(plain, [3, 2, 3, 2, 3, 2, 3]);
    game.set_book(Book::load(&game, "shipped").unwrap());
    let book = Book::shipped();
    let mut kept_positions = 0;
    for entry in book.entries() {
        for position in [entry.position, game.mirror(&entry.position)] {
            let Some(Some(kept)) = book.kept(&game, &position) else {
                continue;
            };
            kept_positions += 1;
            for depth in 1..=7 {
                let column = shipped(depth, 0).choose(&game, &position).unwrap();
                assert!(
                    kept.contains(&column),
                    "{}: depth {depth} plays {column}, not one of {kept:?}",
                    entry.moves
                );
            }
        }
    }
    // The empty board and the six first discs off the centre, each position and its mirror
    // image (the empty board is its own).
    assert_eq!(kept_positions, 8);
}

/// The game `connect-book` tests start from: a 28-disc games-set position, solved in
/// milliseconds.
const BOOK_ROOT: &str = "7723223332375564445442245537";

/// The first line of the partial file of `connect-book` from [`BOOK_ROOT`] to 29 plies.
fn book_partial_header() -> String {
    format!(
        "# stacktune connect-book --from \"{BOOK_ROOT}\" --plies 29: the outcomes solved so far"
    )
}

/// `connect-book` from [`BOOK_ROOT`] to 29 plies into `out` in `dir`, which must succeed: its
/// standard error.
fn book(dir: &Path, out: &str) -> String {
    let args = [
        "connect-book",
        "--from",
        BOOK_ROOT,
        "--plies",
        "29",
        "--out",
        out,
        "--threads",
        "1",
    ];
    let out = common::run_in(dir, &args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{stderr}");
    stderr
}

/// A book's text without its comment lines.
fn book_body(text: &str) -> String {
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    lines.join("\n")
}

/// `connect-book` on a late part of the game (after [`BOOK_ROOT`]): progress from its start,
/// and a run stopped part way goes on from the outcomes its partial file kept, solving only
/// the rest.
#[test]
fn connect_book_shows_progress_at_once_and_resumes_from_its_partial_file() {
    use stacktune_games::connect::book::{Plan, solve_all};
    let dir = tempfile::tempdir().unwrap();
    let plan = Plan::new(BOOK_ROOT, 29).unwrap();
    let positions: Vec<Position> = plan.deepest().iter().map(|(_, p)| *p).collect();
    let outcomes = solve_all(&positions, 1, &|_, _| {});
    let n = positions.len();
    assert!(n > 2, "{n}");
    let stderr = book(dir.path(), "whole.txt");
    assert_eq!(
        stderr.lines().next(),
        Some(format!("solving the positions with 30 discs: 0/{n} (0.0 s)").as_str())
    );
    let whole = std::fs::read_to_string(dir.path().join("whole.txt")).unwrap();
    assert!(!dir.path().join("whole.txt.partial").exists());
    // A partial file as a run stopped after one position leaves it, that outcome flipped: the
    // resumed run takes it as solved, so the book shows the flipped outcome.
    let (moves, _) = &plan.deepest()[0];
    let flipped = -outcomes[0] + if outcomes[0] == 0 { 1 } else { 0 };
    std::fs::write(
        dir.path().join("resumed.txt.partial"),
        format!("{}\n{moves} {flipped}\n{moves}", book_partial_header()),
    )
    .unwrap();
    let stderr = book(dir.path(), "resumed.txt");
    let mut lines = stderr.lines();
    assert_eq!(
        lines.next(),
        Some(format!("resumed.txt.partial: 1 of the {n} positions with 30 discs solved before; solving the rest").as_str())
    );
    assert_eq!(
        lines.next(),
        Some(format!("solving the positions with 30 discs: 0/{} (0.0 s)", n - 1).as_str())
    );
    let mut expected = outcomes.clone();
    expected[0] = flipped;
    let resumed = std::fs::read_to_string(dir.path().join("resumed.txt")).unwrap();
    let from_outcomes = |outcomes: &[i8]| {
        book_body(
            &Plan::new(BOOK_ROOT, 29)
                .unwrap()
                .book(outcomes)
                .to_text(&[]),
        )
    };
    assert_eq!(book_body(&whole), from_outcomes(&outcomes));
    assert_eq!(book_body(&resumed), from_outcomes(&expected));
    assert_ne!(book_body(&resumed), book_body(&whole));
    assert!(!dir.path().join("resumed.txt.partial").exists());
}

/// The partial file of other work, or a damaged one, is refused and left as it is; and a book
/// too deep is refused before it starts.
#[test]
fn connect_book_refuses_a_partial_file_of_other_work_and_a_book_too_deep() {
    use stacktune_games::connect::book::Plan;
    let dir = tempfile::tempdir().unwrap();
    let plan = Plan::new(BOOK_ROOT, 29).unwrap();
    let (moves, _) = &plan.deepest()[0];
    let first = book_partial_header();
    for (text, error) in [
        (
            "# stacktune connect-book --from \"\" --plies 1: the outcomes solved so far\n".to_string(),
            "other.txt.partial holds the unfinished work of another book (`# stacktune connect-book --from \"\" --plies 1: the outcomes solved so far`): give another --out, or remove it to start over".to_string(),
        ),
        (
            first[..20].to_string(),
            "other.txt.partial is cut short: its first line, which names the book's work, is missing or incomplete; remove it to start over".to_string(),
        ),
        (
            String::new(),
            "other.txt.partial is cut short: its first line, which names the book's work, is missing or incomplete; remove it to start over".to_string(),
        ),
        (
            format!("{first}\n{moves} 2\n"),
            format!("other.txt.partial: line 2: `{moves} 2` is not a position of this book and its outcome (1, 0 or -1): remove the file to start over"),
        ),
    ] {
        let partial = dir.path().join("other.txt.partial");
        std::fs::write(&partial, &text).unwrap();
        let args = ["connect-book", "--from", BOOK_ROOT, "--plies", "29", "--out", "other.txt"];
        common::assert_error(&common::run_in(dir.path(), &args), &error);
        assert_eq!(std::fs::read_to_string(&partial).unwrap(), text);
        assert!(!dir.path().join("other.txt").exists());
    }
    common::assert_error(
        &common::run_in(
            dir.path(),
            &["connect-book", "--plies", "13", "--out", "deep.txt"],
        ),
        "--plies 13 is more than 12 discs past the 0 of --from: a book grows up to sevenfold a disc",
    );
    assert!(!dir.path().join("deep.txt.partial").exists());
}

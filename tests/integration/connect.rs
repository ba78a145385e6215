//! Connect-N: the rules, the features, the reference agents, matches, the perfect-play solver
//! on Pons' published vectors, and the `solve-connect` command.

use stacktune_base::rng::game_stream;
use stacktune_game::episode::with_threads;
use stacktune_game::{FeatureValues, Game};
use stacktune_games::connect::accuracy::{Solved, games_set, move_accuracy};
use stacktune_games::connect::agents::{Agent, Negamax4, RandomAgent, Tutorial};
use stacktune_games::connect::matches::{play_match, play_out};
use stacktune_games::connect::solver::{PUBLISHED_VECTORS, Solver};
use stacktune_games::connect::{Connect, Ending, Position};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Output;

use crate::common::{self, assert_each_refused, assert_one_line_error, read, run, run_in};

/// The vectors as the testdata README lists them.
const VECTORS: &str = "\
2252576253462244111563365343671351441 -1
7422341735647741166133573473242566 1
23163416124767223154467471272416755633 0
67152117737262713366376314254 6
2762751722231276466633475674533 5
427566236745127177115664464254 2
5775265212657176476365522624313714333 2
3575316255751336464276636772271112 -3
3642756176227637211322113551637574556 2
65214673556155731566316327373221417 -1";

fn vectors() -> Vec<(&'static str, i32)> {
    VECTORS
        .lines()
        .map(|line| {
            let (moves, score) = line.split_once(' ').unwrap();
            (moves, score.parse().unwrap())
        })
        .collect()
}

#[test]
fn published_vectors_are_solved() {
    let game = Connect::standard();
    assert_eq!(vectors(), PUBLISHED_VECTORS);
    for (moves, expected) in vectors() {
        let position = game.parse_moves(moves).unwrap();
        let mut solver = Solver::new();
        assert_eq!(solver.solve(&position), Ok(expected), "{moves}");
        let best = solver
            .analyse(&position)
            .unwrap()
            .into_iter()
            .flatten()
            .max();
        assert_eq!(best, Some(expected), "analysis of {moves}");
    }
}

/// Plays `moves` (1-based digits) and then `last` (1-based), returning how `last` ended.
fn last_move(game: &Connect, moves: &str, last: u8) -> Option<Ending> {
    let mut position = game.parse_moves(moves).unwrap();
    game.play(&mut position, last - 1)
}

#[test]
fn lines_in_every_direction_win() {
    let game = Connect::standard();
    // Vertical: X stacks column 1.
    assert_eq!(last_move(&game, "121212", 1), Some(Ending::Win));
    // Horizontal: X on the bottom row, columns 1-4.
    assert_eq!(last_move(&game, "112233", 4), Some(Ending::Win));
    // Rising diagonal (1,1) (2,2) (3,3) (4,4), and its mirror image, falling.
    assert_eq!(last_move(&game, "1223343447", 4), Some(Ending::Win));
    assert_eq!(last_move(&game, "7665545441", 4), Some(Ending::Win));
    // One disc short is no win.
    assert_eq!(last_move(&game, "1122", 3), None);
    // Longer lines on a larger board.
    let five = Connect::new(7, 8, 5).unwrap();
    assert_eq!(last_move(&five, "11223344", 5), Some(Ending::Win));
    assert_eq!(last_move(&five, "112233", 4), None);
}

#[test]
fn illegal_columns_lose() {
    let game = Connect::standard();
    let mut position = game.parse_moves("444444").unwrap();
    let before = position;
    assert_eq!(game.play(&mut position, 3), Some(Ending::Forfeit));
    assert_eq!(game.play(&mut position, 7), Some(Ending::Forfeit));
    assert_eq!(position, before);
    let outcome = game.apply(&mut position, 3, &mut game_stream(0, 0));
    assert!(outcome.game_over);
    assert_eq!(outcome.terminal_value, Some(f64::NEG_INFINITY));
    // The player is never offered the full column.
    let mut columns = Vec::new();
    game.for_each_move(&position, 0, &mut |c, _, _, _| columns.push(c));
    assert_eq!(columns, [2, 4, 1, 5, 0, 6]);
}

#[test]
fn full_board_without_a_line_is_a_draw() {
    let game = Connect::standard();
    let moves = "111111222222533333344444455555666667777776";
    assert_eq!(last_move(&game, &moves[..41], 6), Some(Ending::Draw));
    let position = game.parse_moves(&moves[..41]).unwrap();
    let mut outcomes = Vec::new();
    game.for_each_move(&position, 0, &mut |_, _, o, _| outcomes.push(*o));
    assert_eq!(outcomes.len(), 1);
    assert!(outcomes[0].game_over);
    assert_eq!(outcomes[0].terminal_value, Some(0.0));
}

#[test]
fn winning_moves_are_terminal_not_weighted() {
    let game = Connect::standard();
    let position = game.parse_moves("112233").unwrap();
    game.for_each_move(&position, !0, &mut |c, _, o, _| {
        assert_eq!(o.game_over, c == 3);
        assert_eq!(o.terminal_value, (c == 3).then_some(f64::INFINITY));
    });
}

/// Every feature by name.
fn features_of(game: &Connect, position: &Position) -> BTreeMap<&'static str, f64> {
    let mut values = FeatureValues::default();
    game.features(position, !0, &mut values);
    let names = game.feature_names();
    names
        .iter()
        .enumerate()
        .map(|(i, n)| (*n, values.0[i]))
        .collect()
}

#[test]
fn empty_board_has_69_windows_and_no_counts() {
    let game = Connect::standard();
    assert_eq!(game.windows().len(), 69);
    assert!(game.windows().iter().all(|w| w.count_ones() == 4));
    let f = features_of(&game, &game.empty());
    assert_eq!(f.len(), 16);
    assert!(f.values().all(|&v| v == 0.0), "{f:?}");
}

#[test]
fn hand_counted_features() {
    // 4453: X on (4,1) and (5,1), O on (4,2) and (3,1) (column, row from 1), O just moved.
    // Counted by hand from O's side, window by window:
    //   own 1s: row 2 through (4,2) ×4, column 3 rows 1-4, column 4 rows 2-5, the rising
    //     diagonal from (4,2), the falling diagonal from (1,5) to (4,2)          = 8
    //   own 2s: rising diagonal (3,1) (4,2)                                      = 1
    //   opp 1s: column 5 rows 1-4, rising diagonal from (4,1), falling one to (4,1) = 3
    //   opp 2s: row 1, columns 4-7                                              = 1
    let game = Connect::standard();
    let position = game.parse_moves("4453").unwrap();
    let expected: BTreeMap<&str, f64> = [
        ("own_centre", 1.0),
        ("opp_centre", 1.0),
        ("own_threats_now", 0.0),
        ("own_threats_odd", 0.0),
        ("own_threats_even", 0.0),
        ("opp_threats_now", 0.0),
        ("opp_threats_odd", 0.0),
        ("opp_threats_even", 0.0),
        ("own_threats_parity", 0.0),
        ("opp_threats_parity", 0.0),
        ("own_windows_1", 8.0),
        ("opp_windows_1", 3.0),
        ("own_windows_2", 1.0),
        ("opp_windows_2", 1.0),
        ("own_windows_3", 0.0),
        ("opp_windows_3", 0.0),
    ]
    .into_iter()
    .collect();
    assert_eq!(features_of(&game, &position), expected);
    // The player sees the same values for the move that made the position.
    let before = game.parse_moves("445").unwrap();
    let mut seen = None;
    game.for_each_move(&before, !0, &mut |c, after, _, f| {
        if c == 2 {
            assert_eq!(*after, position);
            seen = Some(*f);
        }
    });
    let f = seen.unwrap();
    for (i, name) in game.feature_names().iter().enumerate() {
        assert_eq!(f.0[i], expected[name], "{name}");
    }
}

/// A cell-by-cell count of windows and threats, written without bitboards.
fn naive_features(rows: i32, columns: i32, inarow: i32, moves: &[u8]) -> Vec<f64> {
    let mut grid = vec![vec![None::<usize>; rows as usize]; columns as usize];
    let mut heights = vec![0usize; columns as usize];
    for (i, &c) in moves.iter().enumerate() {
        grid[c as usize][heights[c as usize]] = Some(i % 2);
        heights[c as usize] += 1;
    }
    let mover = (moves.len() + 1) % 2;
    let mut own = vec![0.0; inarow as usize];
    let mut opp = vec![0.0; inarow as usize];
    let mut threats = [[false; 64]; 2];
    for (dc, dr) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
        for c in 0..columns {
            for r in 0..rows {
                let cells: Vec<(i32, i32)> =
                    (0..inarow).map(|i| (c + dc * i, r + dr * i)).collect();
                if !cells
                    .iter()
                    .all(|&(x, y)| (0..columns).contains(&x) && (0..rows).contains(&y))
                {
                    continue;
                }
                let at = |&(x, y): &(i32, i32)| grid[x as usize][y as usize];
                let count = |p| cells.iter().filter(|cell| at(cell) == Some(p)).count();
                let (o, p) = (count(mover), count(1 - mover));
                if p == 0 && o > 0 {
                    own[o] += 1.0;
                }
                if o == 0 && p > 0 {
                    opp[p] += 1.0;
                }
                for (side, n, other) in [(0, o, p), (1, p, o)] {
                    if n == inarow as usize - 1 && other == 0 {
                        let empty = cells.iter().find(|cell| at(cell).is_none()).unwrap();
                        threats[side][(empty.0 * rows + empty.1) as usize] = true;
                    }
                }
            }
        }
    }
    let centre: Vec<i32> = ((columns - 1) / 2..=columns / 2).collect();
    let in_centre = |p: usize| {
        centre
            .iter()
            .map(|&c| grid[c as usize].iter().filter(|&&d| d == Some(p)).count())
            .sum::<usize>() as f64
    };
    let mut values = vec![in_centre(mover), in_centre(1 - mover)];
    // On the owner's parity: odd rows for the first player (0), even for the second.
    let mut parity = Vec::new();
    for (side, owner) in threats.into_iter().zip([mover, 1 - mover]) {
        let (mut now, mut odd, mut even) = (0.0, 0.0, 0.0);
        for c in 0..columns {
            for r in 0..rows {
                if side[(c * rows + r) as usize] {
                    if r as usize == heights[c as usize] {
                        now += 1.0;
                    } else if r % 2 == 0 {
                        odd += 1.0;
                    } else {
                        even += 1.0;
                    }
                }
            }
        }
        values.extend([now, odd, even]);
        parity.push(if owner == 0 { odd } else { even });
    }
    values.extend(parity);
    for k in 1..inarow as usize {
        values.extend([own[k], opp[k]]);
    }
    values
}

#[test]
fn features_match_a_naive_count_through_random_games() {
    for (rows, columns, inarow) in [(6, 7, 4), (5, 6, 3), (7, 8, 5)] {
        let game = Connect::new(rows, columns, inarow).unwrap();
        let mut random = RandomAgent::new(&game);
        for seed in 0..30 {
            let mut rng = game_stream(seed, 0);
            let mut position = game.empty();
            let mut moves = Vec::new();
            loop {
                let column = random.choose(&position, &mut rng);
                let mut values = None;
                game.for_each_move(&position, !0, &mut |c, _, o, f| {
                    if c == column && !o.game_over {
                        values = Some(*f);
                    }
                });
                moves.push(column);
                if let Some(f) = values {
                    let n = game.feature_names().len();
                    let expected =
                        naive_features(rows as i32, columns as i32, inarow as i32, &moves);
                    assert_eq!(
                        f.0[..n],
                        expected[..],
                        "{rows}x{columns}x{inarow} {moves:?}"
                    );
                }
                if game.play(&mut position, column).is_some() {
                    break;
                }
            }
        }
    }
}

/// What an agent plays in `moves` over several random streams.
fn choices(agent: &mut dyn Agent, game: &Connect, moves: &str) -> Vec<u8> {
    let position = game.parse_moves(moves).unwrap();
    let mut picks: Vec<u8> = (0..20)
        .map(|s| agent.choose(&position, &mut game_stream(s, 0)))
        .collect();
    picks.dedup();
    picks
}

#[test]
fn reference_agents_win_and_block() {
    let game = Connect::standard();
    let agents: [&mut dyn Agent; 2] = [&mut Tutorial::new(&game), &mut Negamax4::new(&game)];
    for agent in agents {
        // X to move with columns 1-3 of the bottom row: win in column 4.
        assert_eq!(choices(agent, &game, "112233"), [3]);
        // O to move may block X's stack in column 2 or complete its row in column 4: it wins.
        assert_eq!(choices(agent, &game, "2526271"), [3]);
        // X to move, O holds columns 1-3 of the bottom row: block column 4.
        assert_eq!(choices(agent, &game, "717263"), [3]);
        // O to move, X has three stacked in column 1: block on top.
        assert_eq!(choices(agent, &game, "17171"), [0]);
    }
}

#[test]
fn tutorial_beats_random_and_threads_do_not_matter() {
    let game = Connect::standard();
    let tutorial = Tutorial::new(&game);
    let random = RandomAgent::new(&game);
    let one = with_threads(1, || play_match(&game, &tutorial, &random, 98, 11)).unwrap();
    let two = with_threads(2, || play_match(&game, &tutorial, &random, 98, 11)).unwrap();
    assert_eq!(format!("{one:?}"), format!("{two:?}"));
    assert_eq!(one.games(), 98);
    assert!(one.score() >= 0.8, "{one:?}");
}

#[test]
fn solve_connect_prints_scores() {
    let out = run(&["solve-connect", "4453", "--analyse"]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "4453 -2\n\
         column     1     2     3     4     5     6     7\n\
         score     -5    -5    -2    -3    -4    -2    -2\n"
    );
    let out = run(&[
        "solve-connect",
        "2252576253462244111563365343671351441",
        "--analyse",
    ]);
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "2252576253462244111563365343671351441 -1\n\
         column     1     2     3     4     5     6     7\n\
         score   full  full  full  full  full    -1    -2\n"
    );
    let out = run(&["solve-connect", "67152117737262713366376314254"]);
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "67152117737262713366376314254 6\n"
    );
}

#[test]
fn solve_connect_rejects_bad_positions_in_one_line() {
    for (position, message) in [
        ("44a5", "character 3 is `a`, not a column digit"),
        ("408", "move 2 plays column 0, but the columns are 1 to 7"),
        ("48", "move 2 plays column 8, but the columns are 1 to 7"),
        ("4444444", "move 7 plays column 4, which is already full"),
        ("1212121", "move 7 (column 1) wins the game"),
    ] {
        let out = run(&["solve-connect", position]);
        assert!(!out.status.success(), "{position}");
        assert!(out.stdout.is_empty(), "{position}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("error: "), "{err}");
        assert!(err.contains(message), "{err}");
    }
}

/// Plays `games` games between two agents from the empty board in parallel, colours
/// alternated, game i drawing from stream (3, i); returns the first agent's [wins, draws,
/// losses].
fn from_empty<A, B>(game: &Connect, a: &A, b: &B, games: u64) -> [u64; 3]
where
    A: Agent + Clone + Sync,
    B: Agent + Clone + Sync,
{
    use rayon::prelude::*;
    (0..games)
        .into_par_iter()
        .map(|i| {
            let (mut a, mut b) = (a.clone(), b.clone());
            let a_first = i % 2 == 0;
            let agents: [&mut dyn Agent; 2] = if a_first {
                [&mut a, &mut b]
            } else {
                [&mut b, &mut a]
            };
            let mut position = game.empty();
            let end = play_out(
                game,
                &mut position,
                agents,
                &mut game_stream(3, i),
                &mut |_| {},
            );
            let a_player = if a_first { 0 } else { 1 };
            match end.winner {
                Some(p) if p == a_player => [1, 0, 0],
                None => [0, 1, 0],
                Some(_) => [0, 0, 1],
            }
        })
        .reduce(|| [0; 3], |x, y| [x[0] + y[0], x[1] + y[1], x[2] + y[2]])
}

/// The reference agents' figures from the testdata README, from the empty board: tutorial
/// wins 49.6 % and draws 8.8 % against negamax4, which draws itself 42 % of the time.
/// 2,000 games give a 95 % interval of about ±2.2 points (±3.5 allowed), 1,000 about ±3.1
/// (±5 allowed).
#[test]
fn reference_agents_match_the_published_figures() {
    let game = Connect::standard();
    let (tutorial, negamax4) = (Tutorial::new(&game), Negamax4::new(&game));
    let [wins, draws, _] = from_empty(&game, &tutorial, &negamax4, 2000);
    let percent = |n: u64, of: f64| 100.0 * n as f64 / of;
    assert!((percent(wins, 2000.0) - 49.6).abs() <= 3.5, "{wins} wins");
    assert!((percent(draws, 2000.0) - 8.8).abs() <= 3.5, "{draws} draws");
    let [_, draws, _] = from_empty(&game, &negamax4, &negamax4, 1000);
    assert!(
        (percent(draws, 1000.0) - 42.0).abs() <= 5.0,
        "{draws} draws"
    );
}

/// Hand-set weights over every feature family (the bench's player).
const HAND: &str = r#"game = "connect"

[weights]
own_centre = 1.0
opp_centre = -1.0
own_threats_now = 20.0
own_threats_odd = 8.0
own_threats_even = 4.0
opp_threats_now = -1000.0
opp_threats_odd = -6.0
opp_threats_even = -6.0
own_windows_2 = 1.0
opp_windows_2 = -1.0
own_windows_3 = 5.0
opp_windows_3 = -10.0
"#;

fn hand_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("hand.toml"), HAND).unwrap();
    dir
}

#[test]
fn play_prints_a_table_per_opponent_whatever_the_threads() {
    let dir = hand_dir();
    let args = |threads: &str| {
        run_in(
            dir.path(),
            &[
                "play",
                "--game",
                "connect",
                "--weights",
                "hand.toml",
                "--opponent",
                "random",
                "--opponent",
                "tutorial",
                "--games",
                "98",
                "--json",
                "--threads",
                threads,
            ],
        )
    };
    let parse = |out: std::process::Output| {
        assert!(out.status.success(), "{out:?}");
        let mut v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        v.as_object_mut().unwrap().remove("pieces_per_second");
        v
    };
    let one = parse(args("1"));
    assert_eq!(one, parse(args("2")));
    let opponents = one["opponents"].as_array().unwrap();
    assert_eq!(opponents.len(), 2);
    for (v, name) in opponents.iter().zip(["random", "tutorial"]) {
        assert_eq!(v["opponent"], name);
        assert_eq!(v["games"], 98);
        let sum: u64 = ["wins", "draws", "losses"]
            .iter()
            .map(|k| v[k].as_u64().unwrap())
            .sum();
        assert_eq!(sum, 98);
    }
    // A player that wins, blocks and builds threats never loses to uniform random play.
    assert_eq!(opponents[0]["wins"], 98);
    assert_eq!(one["games"], 196);
    let table = run_in(
        dir.path(),
        &[
            "play",
            "--weights",
            "hand.toml",
            "--games",
            "98",
            "--opponent",
            "random",
        ],
    );
    let text = String::from_utf8(table.stdout).unwrap();
    assert!(
        text.contains("random         98   100.0%     0.0%     0.0%   100.0%"),
        "{text}"
    );
}

/// `hand.toml` at depth 3 against itself as a weights-file opponent: (wins, draws, losses)
/// over every opening with both colours, the opponent searching `opponent_depth` plies.
fn against_itself(dir: &std::path::Path, opponent_depth: Option<&str>) -> [u64; 3] {
    let mut args = vec![
        "play",
        "--weights",
        "hand.toml",
        "--depth",
        "3",
        "--opponent",
        "hand.toml",
        "--games",
        "98",
        "--json",
    ];
    if let Some(d) = opponent_depth {
        args.extend(["--opponent-depth", d]);
    }
    let out = run_in(dir, &args);
    assert!(out.status.success(), "{out:?}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let o = &v["opponents"][0];
    ["wins", "draws", "losses"].map(|k| o[k].as_u64().unwrap())
}

#[test]
fn a_weights_file_opponent_searches_the_opponent_depth() {
    let dir = hand_dir();
    // One ply by default: the same weights searching three plies beat it.
    let [wins, _, losses] = against_itself(dir.path(), None);
    assert!(wins > losses, "{wins} wins, {losses} losses");
    // At the player's own depth it is the same player: each opening is played with both
    // colours, so each game the player wins as one colour it loses as the other.
    let [wins, draws, losses] = against_itself(dir.path(), Some("3"));
    assert_eq!(wins, losses, "{wins} wins, {draws} draws, {losses} losses");
    assert_eq!(wins + draws + losses, 98);
}

#[test]
fn watch_shows_who_plays_which_colour() {
    let dir = hand_dir();
    let out = run_in(
        dir.path(),
        &[
            "watch",
            "--weights",
            "hand.toml",
            "--opponent",
            "random",
            "--delay-ms",
            "0",
        ],
    );
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    // Game 0 is the first opening (1, 1) with the weights moving first.
    assert!(
        text.starts_with("X: the weights, O: random; opening 11\n"),
        "{text}"
    );
    assert!(text.contains(" 1234567\n"), "{text}");
    assert_eq!(
        text.lines().last().unwrap().split(':').next(),
        Some("game over after 9 pieces"),
        "{text}"
    );
}

#[test]
fn moves_lists_every_column() {
    let dir = hand_dir();
    // X on (3, 1) (4, 1) (5, 1) (4, 2), O on (2, 1) (6, 1) (4, 3), as (column, row from 1).
    let board = ".......\n.......\n.......\n...O...\n...X...\n.OXXXO.\n";
    std::fs::write(dir.path().join("b.txt"), board).unwrap();
    let out = run_in(
        dir.path(),
        &["moves", "--game", "connect", "--board", "b.txt", "--json"],
    );
    assert!(out.status.success(), "{out:?}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let columns = v.as_array().unwrap();
    assert_eq!(columns.len(), 7);
    // O to move; in column 3 it lands on (3, 2): three on the rising diagonal from (2, 1)
    // with (5, 4) empty, an even-row threat not yet playable; twos on the same diagonal
    // from (3, 2) and on the falling one (3, 4) (4, 3) (5, 2) (6, 1); X's twos are the
    // diagonals through (4, 2) from (3, 1) and from (5, 1).
    let c3 = &columns[2]["features"];
    for (name, value) in [
        ("own_centre", 1.0),
        ("opp_centre", 2.0),
        ("own_threats_now", 0.0),
        ("own_threats_even", 1.0),
        ("own_windows_3", 1.0),
        ("own_windows_2", 2.0),
        ("opp_windows_2", 2.0),
        ("opp_windows_3", 0.0),
    ] {
        assert_eq!(c3[name], value, "{name}");
    }
    let text = run_in(
        dir.path(),
        &["moves", "--game", "connect", "--board", "b.txt"],
    );
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains("O to move\n"), "{text}");
    assert!(
        text.lines()
            .any(|l| l.starts_with("result ") && l.ends_with("     -"))
    );
}

#[test]
fn bad_board_files_get_one_line_naming_file_and_line() {
    let dir = hand_dir();
    for (board, needle) in [
        ("", "board file b.txt: no rows"),
        (
            "....\n...\n",
            "board file b.txt, line 2: 3 cells, but line 1 has 4",
        ),
        (
            "....\n.x..\n",
            "board file b.txt, line 2, column 2: `x` is not a cell",
        ),
        (
            "..X.\n....\n....\n....\n",
            "board file b.txt, line 4: column 3 is empty under a disc",
        ),
        (
            "....\n....\n....\nOO..\n",
            "board file b.txt: X has 0 discs and O 2",
        ),
        (
            "X...\nXO..\nXO..\nXOO.\n",
            "board file b.txt: X already has 4 in a row",
        ),
        (
            "XO\nOX\n",
            "board file b.txt: no line of 4 fits on a 2x2 connect board",
        ),
    ] {
        std::fs::write(dir.path().join("b.txt"), board).unwrap();
        let out = run_in(
            dir.path(),
            &["moves", "--game", "connect", "--board", "b.txt"],
        );
        assert_one_line_error(&out, needle);
    }
}

#[test]
fn bad_settings_get_one_line() {
    let dir = hand_dir();
    assert_each_refused(
        dir.path(),
        &["play", "--game", "connect", "--weights", "hand.toml"],
        &[
            (
                &["--width", "9", "--height", "7"][..],
                "connect board 9x7 is too large",
            ),
            (
                &["--inarow", "1"][..],
                "connect inarow 1 is out of range 2..=12",
            ),
            (
                &["--width", "3", "--height", "3"][..],
                "no line of 4 fits on a 3x3 connect board",
            ),
            (
                &["--depth", "0"][..],
                "connect depth 0 is out of range 1..=8",
            ),
            (
                &["--opponent", "nobody"][..],
                "opponent `nobody` is neither random, tutorial, negamax4 nor a readable weights file",
            ),
            (
                &["--opponent", "hand.toml", "--inarow", "3"][..],
                "opponent weights file hand.toml: unknown feature `opp_windows_3` for game connect",
            ),
            (
                &["--rules", "tsu"][..],
                "--rules is a tetris or puyo setting; connect does not use it",
            ),
            (
                &["--opponent-depth", "9"][..],
                "connect opponent_depth 9 is out of range 1..=8",
            ),
        ],
    );
}

#[test]
fn two_player_settings_elsewhere_get_one_line() {
    let dir = hand_dir();
    assert_each_refused(
        dir.path(),
        &["play", "--game", "tetris", "--weights", "hand.toml"],
        &[
            (
                &["--opponent-depth", "2"][..],
                "--opponent-depth is a connect setting; tetris does not use it",
            ),
            (
                &["--opponent", "random"][..],
                "--opponent is a connect or guideline tetris (--rules guideline) or puyo versus setting; tetris does not use it",
            ),
        ],
    );
    let hall = run_in(
        dir.path(),
        &[
            "evolve",
            "--hall-of-fame",
            "2",
            "--generations",
            "1",
            "--quiet",
            "--out",
            "x",
        ],
    );
    assert_one_line_error(
        &hall,
        "hall_of_fame needs a two-player game; tetris (research 10x10, uniform pieces) is played alone",
    );
    let accuracy = run_in(dir.path(), &["solve-connect", "--accuracy", "nobody"]);
    assert_one_line_error(&accuracy, "opponent `nobody` is neither");
}

/// A small connect run: a hall of fame, two opponents, every opening with both colours.
const RUN: &str = r#"
name = "small"
seed = 3
generations = 4
games = 196
validation_games = 98
validate_every = 2
final_games = 196
validation_seed = 9
hall_of_fame = 1

[game]
game = "connect"
opponents = ["random", "tutorial"]

[ga]
population = 6
elitism = 1
"#;

/// `evolve` of `config` (in `dir`) into `out` on `threads` threads, which must succeed.
fn evolve_connect(dir: &Path, config: &str, out: &str, threads: &str) -> Output {
    let o = run_in(
        dir,
        &[
            "evolve",
            "--config",
            config,
            "--quiet",
            "--out",
            out,
            "--threads",
            threads,
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    o
}

/// Asserts that the runs in `a` and `b` wrote the same history, best weights and checkpoint.
fn assert_same_run(a: &Path, b: &Path, what: &str) {
    for name in ["history.csv", "best.toml", "checkpoint.json"] {
        assert_eq!(read(a, name), read(b, name), "{name} differs {what}");
    }
}

#[test]
fn connect_evolve_is_the_same_with_one_or_two_threads_and_after_resume() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("run.config.toml"), RUN).unwrap();
    let one = evolve_connect(dir.path(), "run.config.toml", "a", "1");
    evolve_connect(dir.path(), "run.config.toml", "b", "2");
    let a = dir.path().join("a");
    assert_same_run(&a, &dir.path().join("b"), "between 1 and 2 threads");
    let history = read(&a, "history.csv");
    assert_eq!(history.lines().count(), 5);
    // 6 candidates × 196 games a generation.
    assert_eq!(
        history.lines().nth(4).unwrap().split(',').nth(1),
        Some("4704")
    );
    // The printed command replays the held-out games: 98 against each of the two opponents.
    let printed = String::from_utf8(one.stdout).unwrap();
    assert!(
        printed.contains("--opponent random --opponent tutorial --seed 9 --games 98"),
        "{printed}"
    );
    let best: toml::Table = toml::from_str(&read(&a, "best.toml")).unwrap();
    let recorded = best["meta"]["validation_mean"].as_float().unwrap();
    let play = run_in(
        dir.path(),
        &[
            "play",
            "--weights",
            "a/best.toml",
            "--opponent",
            "random",
            "--opponent",
            "tutorial",
            "--seed",
            "9",
            "--games",
            "98",
            "--json",
        ],
    );
    let v: serde_json::Value = serde_json::from_slice(&play.stdout).unwrap();
    assert_eq!(v["mean"].as_f64().unwrap(), recorded);

    // Resume: a run stopped after its second generation (its checkpoint is what a run of 4
    // leaves there: validation falls on generation 1 either way) and continued to 4 finishes
    // with the same bytes.
    let short = RUN.replace("generations = 4", "generations = 2");
    std::fs::write(dir.path().join("short.toml"), short).unwrap();
    let o = run_in(
        dir.path(),
        &["evolve", "--config", "short.toml", "--quiet", "--out", "c"],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let cut = dir.path().join("c");
    let run_toml = read(&cut, "run.toml").replace("generations = 2", "generations = 4");
    std::fs::write(cut.join("run.toml"), run_toml).unwrap();
    let o = run_in(dir.path(), &["evolve", "--resume", "c", "--quiet"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_same_run(&a, &cut, "after resume");
}

/// Always the same column.
struct Fixed(u8);

impl Agent for Fixed {
    fn choose(&mut self, _: &Position, _: &mut rand_chacha::ChaCha8Rng) -> u8 {
        self.0
    }
}

#[test]
fn move_accuracy_counts_value_preserving_columns() {
    let game = Connect::standard();
    let mut solver = Solver::new();
    let mut solved = |moves: &str| {
        let position = game.parse_moves(moves).unwrap();
        Solved {
            position,
            columns: solver.analyse(&position).unwrap(),
        }
    };
    // Scores by column -5 -5 -5 -1 6 -5 full: only column 5 keeps the win.
    let win = solved("67152117737262713366376314254");
    assert!(win.is_decisive());
    assert_eq!(
        (0..7).filter(|&c| win.preserves(c)).collect::<Vec<_>>(),
        [4]
    );
    // full full 0 full -2 full full: column 3 keeps the draw, column 5 loses.
    let draw = solved("23163416124767223154467471272416755633");
    assert!(draw.is_decisive());
    assert!(draw.preserves(2) && !draw.preserves(4) && !draw.preserves(0));
    // 2 2 1 full 2 full 2: every column still wins (column 3 more slowly): nothing to test.
    assert!(!solved("427566236745127177115664464254").is_decisive());
    let set = [win, draw];
    let mut rng = game_stream(0, 0);
    assert_eq!(move_accuracy(&mut Fixed(4), &set, &mut rng), 0.5);
    assert_eq!(move_accuracy(&mut Fixed(2), &set, &mut rng), 0.5);
    assert_eq!(move_accuracy(&mut Fixed(0), &set, &mut rng), 0.0);
}

/// `--positions` solves a file on one table and checks the scores it gives: the whole
/// endgame set and the first hundred middle-game and fifty opening positions, against scores
/// Pons' solver gave too (docs/notes/connect.md).
#[test]
fn solve_connect_batch_agrees_with_the_test_sets() {
    let out = run(&[
        "solve-connect",
        "--positions",
        "tests/data/connect/test_l3_r1.txt",
        "--quiet",
    ]);
    assert!(out.status.success(), "{out:?}");
    let expected = read(&common::root(), "tests/data/connect/test_l3_r1.txt");
    assert_eq!(String::from_utf8(out.stdout).unwrap(), expected);
    let dir = tempfile::tempdir().unwrap();
    for (set, count) in [("test_l2_r2", 100), ("test_l1_r2", 50)] {
        let text = read(&common::root(), &format!("tests/data/connect/{set}.txt"));
        let head: String = text.lines().take(count).map(|l| format!("{l}\n")).collect();
        std::fs::write(dir.path().join("head.txt"), &head).unwrap();
        let out = run_in(dir.path(), &["solve-connect", "--positions", "head.txt"]);
        assert!(out.status.success(), "{set}: {out:?}");
        assert_eq!(String::from_utf8(out.stdout).unwrap(), head, "{set}");
        // A position that takes longer than the progress interval (a busy machine) prints a
        // progress line first; the summary is the last line.
        let stderr = String::from_utf8(out.stderr).unwrap();
        let summary = stderr.lines().last().unwrap_or_default();
        let checked = format!("{count} positions, {count} scores checked, 0 differ; ");
        assert!(summary.starts_with(&checked), "{set}: {stderr}");
    }
}

#[test]
fn solve_connect_batch_reads_standard_input_and_reports_bad_lines() {
    use std::io::Write;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_stacktune"))
        .args(["solve-connect", "--positions", "-", "--quiet"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"67152117737262713366376314254\n\n2762751722231276466633475674533 5\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "67152117737262713366376314254 6\n2762751722231276466633475674533 5\n"
    );
    let dir = tempfile::tempdir().unwrap();
    for (text, message) in [
        (
            "67152117737262713366376314254 6\n2762751722231276466633475674533 4\n427566236745127177115664464254 3\n",
            "2 of 3 given scores differ from the solver's; the first, p.txt line 2: `2762751722231276466633475674533` scores 5, the file says 4",
        ),
        (
            "4453\n44a5\n",
            "p.txt line 2: position `44a5`: character 3 is `a`",
        ),
        ("4453 x\n", "p.txt line 1: score `x` is not a whole number"),
        (
            "4453 -2 7\n",
            "p.txt line 1: `7` after the position and its score",
        ),
    ] {
        std::fs::write(dir.path().join("p.txt"), text).unwrap();
        let out = run_in(
            dir.path(),
            &["solve-connect", "--positions", "p.txt", "--quiet"],
        );
        assert_one_line_error(&out, message);
        if !message.contains("differ") {
            assert!(out.stdout.is_empty(), "{message}");
        }
    }
}

/// The games set ships with its truth: at least 2,000 positions, each one where some column
/// changes the result, and a sample of the latest ones solves as the file says.
#[test]
fn games_accuracy_set_is_decisive_and_solves_as_shipped() {
    let set = games_set();
    assert!(set.len() >= 2000, "{} positions", set.len());
    assert!(set.iter().all(Solved::is_decisive));
    let mut solver = Solver::new();
    let mut late: Vec<&Solved> = set
        .iter()
        .filter(|s| s.position.moves_played() >= 24)
        .collect();
    late.truncate(40);
    assert_eq!(late.len(), 40);
    for solved in late {
        assert_eq!(solver.analyse(&solved.position), Ok(solved.columns));
    }
}

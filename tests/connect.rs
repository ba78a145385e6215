//! Connect-N: the rules, the features, the reference agents, matches, the perfect-play solver
//! on Pons' published vectors, and the `solve-connect` command.

use stacktune::episode::with_threads;
use stacktune::game::{FeatureValues, Game};
use stacktune::games::connect::agents::{Agent, Negamax4, RandomAgent, Tutorial};
use stacktune::games::connect::matches::play_match;
use stacktune::games::connect::solver::{PUBLISHED_VECTORS, Solver};
use stacktune::games::connect::{Connect, Ending, Position};
use stacktune::rng::game_stream;
use std::collections::BTreeMap;
use std::process::Command;

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
        assert_eq!(solver.solve(&position), expected, "{moves}");
        let best = solver.analyse(&position).into_iter().flatten().max();
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
    assert_eq!(f.len(), 14);
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
    for side in threats {
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
    }
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

fn stacktune(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_stacktune"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn solve_connect_prints_scores() {
    let out = stacktune(&["solve-connect", "4453", "--analyse"]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "4453 -2\n\
         column     1     2     3     4     5     6     7\n\
         score     -5    -5    -2    -3    -4    -2    -2\n"
    );
    let out = stacktune(&[
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
    let out = stacktune(&["solve-connect", "67152117737262713366376314254"]);
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
        let out = stacktune(&["solve-connect", position]);
        assert!(!out.status.success(), "{position}");
        assert!(out.stdout.is_empty(), "{position}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("error: "), "{err}");
        assert!(err.contains(message), "{err}");
    }
}

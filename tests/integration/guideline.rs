//! Guideline Tetris (`--rules guideline`): SRS kicks against the published tables, T-spins on
//! board files, move generation against the plain search over piece states, and hand-worked
//! sequences of combos, back-to-back, perfect clears, cancelling and rising garbage.

use stacktune_game::Episodes;
use stacktune_games::tetris::board::Board;
use stacktune_games::tetris::guideline::listing;
use stacktune_games::tetris::guideline::movegen::{
    self, Input, Movement, Placement, Spin, paths, placement_of, reachable_states, replay, rests,
};
use stacktune_games::tetris::guideline::piece::{KICKS, Pose, T, turn};
use stacktune_games::tetris::guideline::rules::{AttackTable, Queue, Rules, Side};
use stacktune_games::tetris::guideline::{Guideline, Mode, matches};
use std::collections::{BTreeMap, BTreeSet};

// ---------------------------------------------------------------------------------------
// Kicks: the published SRS tables (TetrisWiki, "SRS", wall kicks; y up), from-state then
// to-state, five tests each.

type Table = [((usize, usize), [(i8, i8); 5]); 8];

const JLSTZ: Table = [
    ((0, 1), [(0, 0), (-1, 0), (-1, 1), (0, -2), (-1, -2)]),
    ((1, 0), [(0, 0), (1, 0), (1, -1), (0, 2), (1, 2)]),
    ((1, 2), [(0, 0), (1, 0), (1, -1), (0, 2), (1, 2)]),
    ((2, 1), [(0, 0), (-1, 0), (-1, 1), (0, -2), (-1, -2)]),
    ((2, 3), [(0, 0), (1, 0), (1, 1), (0, -2), (1, -2)]),
    ((3, 2), [(0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2)]),
    ((3, 0), [(0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2)]),
    ((0, 3), [(0, 0), (1, 0), (1, 1), (0, -2), (1, -2)]),
];

const I: Table = [
    ((0, 1), [(0, 0), (-2, 0), (1, 0), (-2, -1), (1, 2)]),
    ((1, 0), [(0, 0), (2, 0), (-1, 0), (2, 1), (-1, -2)]),
    ((1, 2), [(0, 0), (-1, 0), (2, 0), (-1, 2), (2, -1)]),
    ((2, 1), [(0, 0), (1, 0), (-2, 0), (1, -2), (-2, 1)]),
    ((2, 3), [(0, 0), (2, 0), (-1, 0), (2, 1), (-1, -2)]),
    ((3, 2), [(0, 0), (-2, 0), (1, 0), (-2, -1), (1, 2)]),
    ((3, 0), [(0, 0), (1, 0), (-2, 0), (1, -2), (-2, 1)]),
    ((0, 3), [(0, 0), (-1, 0), (2, 0), (-1, 2), (2, -1)]),
];

/// The I piece in its 4 × 4 box, state by state (the guideline's pictures, y up from the
/// box's bottom row): the second row from the top, the third column, the third row, the
/// second column.
const I_BOX: [[(i8, i8); 4]; 4] = [
    [(0, 2), (1, 2), (2, 2), (3, 2)],
    [(2, 0), (2, 1), (2, 2), (2, 3)],
    [(0, 1), (1, 1), (2, 1), (3, 1)],
    [(1, 0), (1, 1), (1, 2), (1, 3)],
];

fn sorted(mut cells: Vec<(i8, i8)>) -> Vec<(i8, i8)> {
    cells.sort();
    cells
}

fn cells_at(piece: u8, rotation: u8, (x, y): (i8, i8)) -> Vec<(i8, i8)> {
    sorted(
        Pose {
            piece,
            rotation,
            x,
            y,
        }
        .cells()
        .to_vec(),
    )
}

fn direction(from: usize, to: usize) -> u8 {
    if turn(from as u8, 0) as usize == to {
        0
    } else {
        1
    }
}

#[test]
fn jlstz_kicks_are_the_published_table() {
    // The 3 × 3 box turns about its centre cell, which is the TBP centre: the kicks are the
    // table's translations themselves.
    for piece in [T, 3, 4, 5, 6] {
        for ((from, to), tests) in JLSTZ {
            assert_eq!(
                KICKS[piece as usize][from][direction(from, to) as usize],
                tests,
                "piece {piece} {from}->{to}"
            );
        }
    }
}

#[test]
fn i_kicks_move_the_cells_where_the_published_table_moves_them() {
    for ((from, to), tests) in I {
        let (bx, by) = (3i8, 10i8);
        let boxed = |state: usize, (kx, ky): (i8, i8)| {
            sorted(
                I_BOX[state]
                    .iter()
                    .map(|&(x, y)| (bx + x + kx, by + y + ky))
                    .collect(),
            )
        };
        // The centre of the from-state pose that covers the box's cells.
        let start = boxed(from, (0, 0));
        let centre = (-5..15)
            .flat_map(|x| (0..20).map(move |y| (x, y)))
            .find(|&c| cells_at(0, from as u8, c) == start)
            .expect("a centre covers the box");
        let d = direction(from, to) as usize;
        for (i, &published) in tests.iter().enumerate() {
            let (kx, ky) = KICKS[0][from][d][i];
            let engine = cells_at(0, to as u8, (centre.0 + kx, centre.1 + ky));
            assert_eq!(
                engine,
                boxed(to, published),
                "I {from}->{to} test {}",
                i + 1
            );
        }
    }
}

#[test]
fn the_o_piece_turns_in_place() {
    for (from, turns) in KICKS[1].iter().enumerate() {
        for (d, tests) in turns.iter().enumerate() {
            let to = turn(from as u8, d as u8);
            let (kx, ky) = tests[0];
            assert_eq!(
                cells_at(1, to, (4 + kx, 10 + ky)),
                cells_at(1, from as u8, (4, 10))
            );
        }
    }
}

// ---------------------------------------------------------------------------------------
// T-spins on board files: the expected spin, lines and attack of the T-spin the file holds.

fn board(name: &str) -> Board {
    let path = format!("tests/data/guideline/{name}.txt");
    listing::parse(&std::fs::read_to_string(&path).unwrap(), &path).unwrap()
}

/// The listing's entry for the T at (rotation, x, y) with `spin`.
fn spun(name: &str, orientation: &str, x: i8, y: i8, spin: &str) -> listing::Listing {
    listing::list(board(name), "T", &Rules::default())
        .unwrap()
        .into_iter()
        .find(|m| {
            m.location.orientation == orientation
                && (m.location.x, m.location.y) == (x, y)
                && m.spin == spin
        })
        .unwrap_or_else(|| panic!("{name}: no {orientation} T at ({x}, {y}) with spin {spin}"))
}

#[test]
fn t_spin_double_on_the_classic_slot() {
    let m = spun("tsd", "south", 4, 1, "full");
    assert_eq!(
        (m.lines, m.clear.as_str(), m.attack),
        (2, "T-spin double", 4)
    );
}

#[test]
fn t_spin_triple_takes_the_fifth_kick() {
    let m = spun("tst-kick", "east", 3, 1, "full");
    assert_eq!(
        (m.lines, m.clear.as_str(), m.attack),
        (3, "T-spin triple", 6)
    );
    // Only a turn reaches it: no plain placement there.
    assert!(
        listing::list(board("tst-kick"), "T", &Rules::default())
            .unwrap()
            .iter()
            .all(|m| !(m.location.orientation == "east"
                && (m.location.x, m.location.y) == (3, 1)
                && m.spin == "none"))
    );
    assert_eq!(m.path.last(), Some(&"cw"));
}

#[test]
fn fin_double_is_full_by_the_fifth_kick_though_its_corners_say_mini() {
    // From south to east with test 5 (−1, −2): the pointing side has one corner filled.
    let m = spun("fin", "east", 3, 1, "full");
    assert_eq!(
        (m.lines, m.clear.as_str(), m.attack),
        (2, "T-spin double", 4)
    );
    assert_eq!(m.path.last(), Some(&"ccw"));
}

#[test]
fn neo_double_is_a_mini_by_the_fourth_kick() {
    // From south to east with test 4 (0, −2): no upgrade, a mini double.
    let m = spun("neo", "east", 4, 1, "mini");
    assert_eq!(
        (m.lines, m.clear.as_str(), m.attack),
        (2, "T-spin mini double", 1)
    );
}

#[test]
fn a_sideways_kick_at_the_wall_is_a_mini_single() {
    let m = spun("mini", "east", 0, 1, "mini");
    assert_eq!(
        (m.lines, m.clear.as_str(), m.attack),
        (1, "T-spin mini single", 0)
    );
    // The same place dropped into is no spin: a plain single.
    let plain = spun("mini", "east", 0, 1, "none");
    assert_eq!((plain.lines, plain.clear.as_str()), (1, "single"));
}

// ---------------------------------------------------------------------------------------
// Move generation against the plain search over single states.

fn bitboard(board: &Board, piece: u8) -> BTreeSet<Placement> {
    let mut set = BTreeSet::new();
    movegen::placements(board, piece, &Movement::default(), |p| {
        assert!(set.insert(p), "listed twice: {p:?}")
    });
    set
}

fn brute(board: &Board, piece: u8) -> BTreeSet<Placement> {
    let mut per_pose = BTreeMap::<Pose, BTreeSet<Spin>>::new();
    let movement = Movement::default();
    for (state, _) in reachable_states(board, piece, &movement) {
        if rests(board, &state, &movement) {
            let p = placement_of(board, &state, &movement);
            per_pose.entry(p.pose).or_default().insert(p.spin);
        }
    }
    let mut set = BTreeSet::new();
    for (pose, spins) in per_pose {
        for &spin in &spins {
            // A mini also reachable as a full T-spin is listed as the full one.
            if !(spin == Spin::Mini && spins.contains(&Spin::Full)) {
                set.insert(Placement { pose, spin });
            }
        }
    }
    set
}

/// Checks the move generator against the plain search on `board`, and that each listed
/// placement's path replays to it.
fn check(board: &Board, what: &str) {
    for piece in 0..7 {
        let fast = bitboard(board, piece);
        assert_eq!(
            fast,
            brute(board, piece),
            "{what}, piece {piece}\n{}",
            board.framed()
        );
        // Every listed placement has a path, and the path replays to it.
        let movement = Movement::default();
        let paths: BTreeMap<Placement, Vec<Input>> =
            paths(board, piece, &movement).into_iter().collect();
        for p in &fast {
            let inputs = paths
                .get(p)
                .unwrap_or_else(|| panic!("{what}: no path to {p:?}"));
            let end = replay(board, piece, inputs, &movement).expect("the path replays");
            assert_eq!(
                placement_of(board, &end, &movement),
                *p,
                "{what}: path {inputs:?}"
            );
        }
    }
}

/// A pseudo-random board: columns of random heights with random holes, no full row.
pub(super) fn random_board(seed: u64) -> Board {
    let mut s = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let mut board = Board::empty(10, 40);
    let max = 2 + next() % 18;
    for x in 0..10 {
        let h = next() % max;
        let holes = next();
        for y in 0..h {
            if holes >> y & 3 != 0 {
                board.fill(x, 1 << y);
            }
        }
    }
    let full = board.full_rows();
    board.remove_rows(full);
    board
}

#[test]
fn move_generation_equals_the_plain_search_on_random_boards() {
    for seed in 0..1500 {
        check(&random_board(seed), &format!("random board {seed}"));
    }
}

#[test]
fn move_generation_equals_the_plain_search_on_boards_from_matches() {
    let boards = match_boards(&Guideline::new(Rules::default(), Mode::Versus), 6, 200);
    assert!(boards.len() > 400, "{} boards", boards.len());
    for (i, board) in boards.iter().enumerate() {
        check(board, &format!("match board {i}"));
    }
}

/// Both sides' boards after every piece of `count` matches of the hand-set player against
/// itself under `game`'s rules, `pieces` pieces a side at most: boards real play reaches.
pub fn match_boards(game: &Guideline, count: u64, pieces: u64) -> Vec<Board> {
    let hand =
        stacktune_players::registry::hand_player(game, stacktune_players::search::Search::OnePly);
    let mut boards = Vec::new();
    for seed in 0..count {
        let seeds = matches::Seeds {
            queue: seed,
            sides: [seed + 100, seed + 200],
        };
        let (mut a, mut b) = (
            matches::PolicySide::new(&hand),
            matches::PolicySide::new(&hand),
        );
        matches::play(game, [&mut a, &mut b], seeds, pieces, &mut |sides, _| {
            boards.push(sides[0].board);
            boards.push(sides[1].board);
        });
    }
    boards
}

// ---------------------------------------------------------------------------------------
// Combos, back-to-back, perfect clears, cancelling and garbage: hand-worked sequences.

/// A side whose board makes `placement` complete exactly `rows` (the rest of those rows
/// filled, nothing else), keeping the side's combo, back-to-back and incoming garbage.
pub(super) fn set_up(side: &mut Side, placement: &Placement, rows: &[i8], extra: u64) {
    let mut board = Board::empty(10, 40);
    let cells = placement.pose.cells();
    for &y in rows {
        for x in 0..10i8 {
            if !cells.contains(&(x, y)) {
                board.fill(x as usize, 1 << y);
            }
        }
    }
    board.fill(9, extra);
    side.board = board;
}

/// Locks `steps` (placement, rows it completes) one after the other and returns the attacks.
pub(super) fn attacks(rules: &Rules, steps: &[(Placement, &[i8])]) -> Vec<u32> {
    let mut side = Side::given(Board::empty(10, 40), Queue::given(&[0; 16]), None, 0, false);
    steps
        .iter()
        .map(|(p, rows)| {
            // A cell left over in column 9, row 30, keeps a clear from being perfect.
            set_up(&mut side, p, rows, 1 << 30);
            side.queue = Queue::given(&[p.pose.piece; 2]);
            side.lock(rules, false, p, false).attack
        })
        .collect()
}

pub(super) const TETRIS: (Placement, &[i8]) = (
    Placement {
        pose: Pose {
            piece: 0,
            rotation: 1,
            x: 0,
            y: 2,
        },
        spin: Spin::None,
    },
    &[0, 1, 2, 3],
);
pub(super) const SINGLE: (Placement, &[i8]) = (
    Placement {
        pose: Pose {
            piece: 0,
            rotation: 0,
            x: 1,
            y: 0,
        },
        spin: Spin::None,
    },
    &[0],
);
pub(super) const TSD: (Placement, &[i8]) = (
    Placement {
        pose: Pose {
            piece: T,
            rotation: 2,
            x: 4,
            y: 1,
        },
        spin: Spin::Full,
    },
    &[0, 1],
);
pub(super) const NOTHING: (Placement, &[i8]) = (
    Placement {
        pose: Pose {
            piece: 1,
            rotation: 0,
            x: 4,
            y: 0,
        },
        spin: Spin::None,
    },
    &[],
);

#[test]
fn consecutive_singles_pay_the_guideline_combo_table() {
    let steps = vec![SINGLE; 14];
    assert_eq!(
        attacks(&Rules::default(), &steps),
        [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 4, 5, 5, 5]
    );
}

#[test]
fn back_to_back_tetrises_and_t_spins_add_one_until_a_plain_clear() {
    // Tetris 4; b2b tetris 5 (+ combo 0); TSD 4 + 1 + combo 1; single 0 + combo 1 breaks
    // b2b; a piece that clears nothing ends the combo; tetris 4; b2b TSD 5.
    let steps = [TETRIS, TETRIS, TSD, SINGLE, NOTHING, TETRIS, TSD];
    assert_eq!(attacks(&Rules::default(), &steps), [4, 5, 6, 1, 0, 4, 5]);
}

#[test]
fn tetrio_table_matches_its_published_examples() {
    // chouhy/Tetrio-Attack-Table: a T-spin double at B2B x2 in combo 1 sends 7, at B2B x3 8.
    let rules = Rules {
        attack: AttackTable::Tetrio,
        ..Rules::default()
    };
    // TSD 4; after a piece that clears nothing, B2B x1: 4 + 1 = 5; then B2B x2 in combo 1:
    // (4 + 1.65) × 1.25 = 7.06 → 7.
    assert_eq!(attacks(&rules, &[TSD, NOTHING, TSD, TSD]), [4, 0, 5, 7]);
    // TSD 4; B2B x1 in combo 1: 5 × 1.25 → 6; B2B x2 alone: 5.65 → 5; B2B x3 in combo 1:
    // (4 + 2.41) × 1.25 = 8.01 → 8.
    assert_eq!(
        attacks(&rules, &[TSD, TSD, NOTHING, TSD, TSD]),
        [4, 6, 0, 5, 8]
    );
}

#[test]
fn a_perfect_clear_sends_ten() {
    let rules = Rules::default();
    let mut side = Side::given(Board::empty(10, 40), Queue::given(&[0, 0]), None, 0, false);
    let (p, rows) = SINGLE;
    set_up(&mut side, &p, rows, 0);
    let locked = side.lock(&rules, false, &p, false);
    assert!(locked.perfect_clear);
    assert_eq!(locked.attack, 10);
    // TETR.IO adds ten to the clear's own (a single: 0).
    let tetrio = Rules {
        attack: AttackTable::Tetrio,
        ..rules
    };
    set_up(&mut side, &p, rows, 0);
    side.combo = 0;
    assert_eq!(side.lock(&tetrio, false, &p, false).attack, 10);
}

#[test]
fn clears_cancel_incoming_garbage_oldest_first_then_send_the_rest() {
    let rules = Rules::default();
    let mut side = Side::given(Board::empty(10, 40), Queue::given(&[0; 4]), None, 0, false);
    side.incoming.push(3, 1);
    side.incoming.push(2, 5);
    let (p, rows) = TETRIS;
    set_up(&mut side, &p, rows, 1 << 30);
    let locked = side.lock(&rules, false, &p, false);
    assert_eq!((locked.attack, locked.sent), (4, 0));
    assert_eq!(side.incoming.attacks().collect::<Vec<_>>(), [(1, 5)]);
    set_up(&mut side, &p, rows, 1 << 30);
    let locked = side.lock(&rules, false, &p, false);
    // Back-to-back tetris: 5, one row cancels the last waiting row, four go out.
    assert_eq!(
        (locked.attack, locked.sent, side.incoming.total()),
        (5, 4, 0)
    );
}

#[test]
fn garbage_rises_after_its_delay_at_most_the_cap_with_one_hole_an_attack() {
    let rules = Rules {
        garbage_cap: 8,
        ..Rules::default()
    };
    let mut side = Side::new(&rules, 1, 2);
    side.incoming.push(3, 1);
    side.incoming.push(7, 1);
    // Not due yet at 0 pieces placed.
    assert!(!side.rise(&rules));
    assert_eq!(side.board.cell_count(), 0);
    side.placed = 1;
    assert!(!side.rise(&rules));
    // 3 rows of one attack and 5 of the next (the cap), 2 rows left waiting.
    assert_eq!(side.board.cell_count(), 8 * 9);
    assert_eq!(side.incoming.attacks().collect::<Vec<_>>(), [(2, 1)]);
    let hole = |side: &Side, y: usize| (0..10).find(|&x| !side.board.filled(x, y)).unwrap();
    // The first attack's rows rose first, so they lie on top: rows 5..8; the next rows 0..5.
    assert!((5..8).all(|y| hole(&side, y) == hole(&side, 5)));
    assert!((0..5).all(|y| hole(&side, y) == hole(&side, 0)));
    // The rest of the second attack keeps its column.
    let second = hole(&side, 0);
    assert!(!side.rise(&rules));
    assert_eq!((hole(&side, 0), hole(&side, 2)), (second, second));
}

#[test]
fn garbage_that_pushes_the_stack_past_the_top_loses() {
    let rules = Rules::default();
    let mut side = Side::new(&rules, 1, 2);
    side.board.fill(0, 1 << 38);
    side.incoming.push(2, 0);
    assert!(side.rise(&rules));
}

// ---------------------------------------------------------------------------------------
// Features on board files, worked by hand.

/// Every feature of `board` after a piece that cleared nothing (an O at row 0), with
/// `incoming` rows waiting.
fn feature_values(board: &Board, incoming: u32) -> BTreeMap<&'static str, f64> {
    use stacktune_game::FeatureValues;
    use stacktune_games::tetris::guideline::features::{FEATURE_NAMES, write};
    let mut side = Side::given(*board, Queue::given(&[1, 1]), None, 0, false);
    side.incoming.push(incoming, 3);
    let mut values = FeatureValues::default();
    let all = (1u64 << FEATURE_NAMES.len()) - 1;
    write(&side, 1, 0, &Default::default(), all, &mut values);
    FEATURE_NAMES
        .iter()
        .enumerate()
        .map(|(i, &n)| (n, values.0[i]))
        .collect()
}

fn assert_features(name: &str, incoming: u32, expected: &[(&str, f64)]) {
    let values = feature_values(&board(name), incoming);
    for &(feature, value) in expected {
        assert_eq!(values[feature], value, "{name}: {feature}");
    }
}

#[test]
fn holes_cavities_overhangs_and_covered_cells() {
    // Heights 2 0 0 3 0 0 0 0 2 1; column 3 stands on two empty cells: the lower one is
    // closed in (a cavity: Cold Clear asks its neighbour to be a row below it), the upper one
    // is open to the left (an overhang); the lower one has two rows above it (covered 2).
    assert_features(
        "overhang",
        0,
        &[
            ("height", 3.0),
            ("holes", 2.0),
            ("cavity_cells", 1.0),
            ("cavity_cells_sq", 1.0),
            ("overhang_cells", 1.0),
            ("overhang_cells_sq", 1.0),
            ("covered_cells", 2.0),
            ("covered_cells_sq", 4.0),
            // The well is column 7 (the rightmost lowest); the rest: 2+0+3+3+0+0+2+1.
            ("bumpiness", 11.0),
            ("bumpiness_sq", 27.0),
            ("well_depth", 0.0),
            ("well_column_7", 0.0),
            // Rows 0-2: 2 + 4 + 4 changes, and 2 for each of the 37 empty rows.
            ("row_transitions", 84.0),
            ("tslot_1", 0.0),
            ("tslot_2", 0.0),
            ("tslot_3", 0.0),
        ],
    );
}

#[test]
fn a_well_three_deep_in_column_four() {
    assert_features(
        "well",
        5,
        &[
            ("height", 4.0),
            ("holes", 0.0),
            ("well_depth", 3.0),
            ("well_column_4", 1.0),
            ("well_column_3", 0.0),
            ("bumpiness", 2.0),
            ("bumpiness_sq", 2.0),
            ("row_transitions", 82.0),
            ("pending_garbage", 5.0),
            ("garbage_height", 9.0),
            ("top_half", 0.0),
        ],
    );
}

#[test]
fn t_slots_by_the_lines_the_best_t_spin_clears() {
    assert_features(
        "tsd",
        0,
        &[("tslot_1", 0.0), ("tslot_2", 1.0), ("tslot_3", 0.0)],
    );
    assert_features("tst-kick", 0, &[("tslot_2", 0.0), ("tslot_3", 1.0)]);
}

#[test]
fn move_features_name_the_clear_and_what_it_sent() {
    let tsd = spun("tsd", "south", 4, 1, "full");
    let f = &tsd.features;
    assert_eq!(
        (
            f["tspin2"],
            f["clear2"],
            f["attack"],
            f["wasted_t"],
            f["back_to_back"],
            f["combo"]
        ),
        (1.0, 0.0, 4.0, 0.0, 1.0, 1.0)
    );
    // A T dropped flat on the same board clears nothing and is a T wasted.
    let flat = listing::list(board("tsd"), "T", &Rules::default())
        .unwrap()
        .into_iter()
        .find(|m| m.lines == 0 && m.spin == "none")
        .unwrap();
    assert_eq!(
        (flat.features["wasted_t"], flat.features["attack"]),
        (1.0, 0.0)
    );
}

// ---------------------------------------------------------------------------------------
// Solo modes: the hand-set weights' games on seed 1, as `play --mode M --seed 1` plays them.

#[test]
fn solo_modes_score_the_hand_set_weights_games() {
    use stacktune_base::rng::game_stream;
    use stacktune_game::EpisodeLimits;
    let cases = [
        // 40 lines in 107 and 104 pieces: 100 × 40 / pieces.
        (Mode::Sprint, [4000.0 / 107.0, 4000.0 / 104.0], [107, 104]),
        // 26 and 37 rows sent over 100 pieces.
        (Mode::Attack, [0.26, 0.37], [100, 100]),
        // Pieces placed until garbage buried the stack.
        (Mode::Survival, [89.0, 57.0], [89, 57]),
    ];
    for (mode, scores, pieces) in cases {
        let game = Guideline::new(Rules::default(), mode);
        let versus = Guideline::new(Rules::default(), Mode::Versus);
        let hand = stacktune_players::registry::hand_player(
            &versus,
            stacktune_players::search::Search::OnePly,
        );
        for i in 0..2 {
            let limits = EpisodeLimits { max_moves: None };
            let r = game.episode(&hand, i, game_stream(1, i), limits, &mut |_, _| {});
            assert_eq!(
                (r.score, r.moves),
                (scores[i as usize], pieces[i as usize]),
                "{mode:?} game {i}"
            );
        }
    }
}

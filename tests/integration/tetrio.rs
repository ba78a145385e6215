//! TETR.IO's movement (`--kicks srs+ --turn-180 true --spins all-mini+ --spawn tetrio`) against
//! a search of this file's own: pieces in TETR.IO's boxes, the SRS+ and 180° kick tables typed
//! in as TETR.IO publishes them (translations of the box, y up; halp1/triangle
//! `src/engine/utils/kicks/data.ts` at 6018434, y negated), spins judged when the turn is
//! made as its engine judges them (`src/engine/index.ts`). Nothing here uses the move
//! generator's code: only its answers are compared, cell for cell and spin for spin.

use super::guideline::{NOTHING, SINGLE, TETRIS, TSD, attacks, match_boards, random_board, set_up};
use stacktune_games::settings::GameSpec;
use stacktune_games::tetris::board::Board;
use stacktune_games::tetris::guideline::movegen::{
    self, Movement, Placement, Spawn, Spin, SpinRule,
};
use stacktune_games::tetris::guideline::piece::{
    HALF_KICKS, Kicks, LETTERS, Pose, SRS_PLUS_KICKS, turn,
};
use stacktune_games::tetris::guideline::rules::{AttackTable, Queue, Rules, Side};
use stacktune_games::tetris::guideline::{Guideline, Mode};
use stacktune_players::registry::{AnyGame, Build};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// The movement under test: every TETR.IO difference on.
const TETRIO: Movement = Movement {
    kicks: Kicks::SrsPlus,
    half_turns: true,
    spins: SpinRule::AllMiniPlus,
    spawn: Spawn::Tetrio,
};

// ---------------------------------------------------------------------------------------
// Pieces in their boxes: TETR.IO's states (`src/engine/utils/tetromino/data.ts`), the same
// as the guideline's pictures. Cells as (column, row) from the box's bottom left, y up.

/// Letters in the order the crate numbers pieces.
const ORDER: [char; 7] = ['I', 'O', 'T', 'L', 'J', 'S', 'Z'];

/// Each piece's box size and its spawn-state cells.
const SHAPES: [(i8, [(i8, i8); 4]); 7] = [
    (4, [(0, 2), (1, 2), (2, 2), (3, 2)]),
    (2, [(0, 0), (1, 0), (0, 1), (1, 1)]),
    (3, [(0, 1), (1, 1), (2, 1), (1, 2)]),
    (3, [(0, 1), (1, 1), (2, 1), (2, 2)]),
    (3, [(0, 1), (1, 1), (2, 1), (0, 2)]),
    (3, [(0, 1), (1, 1), (1, 2), (2, 2)]),
    (3, [(0, 2), (1, 2), (1, 1), (2, 1)]),
];

/// The cells of `piece` in state `rotation` with its box's bottom left at (x, y): turning
/// clockwise maps a box cell (c, r) to (r, n − 1 − c).
fn box_cells(piece: usize, rotation: u8, x: i8, y: i8) -> [(i8, i8); 4] {
    let (n, mut cells) = SHAPES[piece];
    for _ in 0..rotation {
        cells = cells.map(|(c, r)| (r, n - 1 - c));
    }
    cells.map(|(c, r)| (x + c, y + r))
}

// ---------------------------------------------------------------------------------------
// The published tables (box translations, y up), test 1 first.

/// A quarter-turn table: (from-state, to-state) and its five tests.
type Quarter = [((u8, u8), [(i8, i8); 5]); 8];

/// J, L, S, T, Z quarter turns, (from, to): SRS's.
const JLSTZ: Quarter = [
    ((0, 1), [(0, 0), (-1, 0), (-1, 1), (0, -2), (-1, -2)]),
    ((1, 0), [(0, 0), (1, 0), (1, -1), (0, 2), (1, 2)]),
    ((1, 2), [(0, 0), (1, 0), (1, -1), (0, 2), (1, 2)]),
    ((2, 1), [(0, 0), (-1, 0), (-1, 1), (0, -2), (-1, -2)]),
    ((2, 3), [(0, 0), (1, 0), (1, 1), (0, -2), (1, -2)]),
    ((3, 2), [(0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2)]),
    ((3, 0), [(0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2)]),
    ((0, 3), [(0, 0), (1, 0), (1, 1), (0, -2), (1, -2)]),
];

/// The I's quarter turns under SRS+.
const I_SRS_PLUS: Quarter = [
    ((0, 1), [(0, 0), (1, 0), (-2, 0), (-2, -1), (1, 2)]),
    ((1, 0), [(0, 0), (-1, 0), (2, 0), (-1, -2), (2, 1)]),
    ((1, 2), [(0, 0), (-1, 0), (2, 0), (-1, 2), (2, -1)]),
    ((2, 1), [(0, 0), (-2, 0), (1, 0), (-2, 1), (1, -2)]),
    ((2, 3), [(0, 0), (2, 0), (-1, 0), (2, 1), (-1, -2)]),
    ((3, 2), [(0, 0), (1, 0), (-2, 0), (1, 2), (-2, -1)]),
    ((3, 0), [(0, 0), (1, 0), (-2, 0), (1, -2), (-2, 1)]),
    ((0, 3), [(0, 0), (-1, 0), (2, 0), (2, -1), (-1, 2)]),
];

/// J, L, S, T, Z half turns, by from-state (0, R, 2, L).
const JLSTZ_180: [[(i8, i8); 6]; 4] = [
    [(0, 0), (0, 1), (1, 1), (-1, 1), (1, 0), (-1, 0)],
    [(0, 0), (1, 0), (1, 2), (1, 1), (0, 2), (0, 1)],
    [(0, 0), (0, -1), (-1, -1), (1, -1), (-1, 0), (1, 0)],
    [(0, 0), (-1, 0), (-1, 2), (-1, 1), (0, 2), (0, 1)],
];

/// The I's half turns, by from-state.
const I_180: [[(i8, i8); 2]; 4] = [
    [(0, 0), (0, 1)],
    [(0, 0), (1, 0)],
    [(0, 0), (0, -1)],
    [(0, 0), (-1, 0)],
];

/// The tests of a turn of `piece` from `from` to `to`. The O has none past the first: its
/// states are the same cells, and it turns in place.
fn tests(piece: usize, from: u8, to: u8) -> Vec<(i8, i8)> {
    let quarter = |table: &Quarter| {
        table
            .iter()
            .find(|(t, _)| *t == (from, to))
            .unwrap()
            .1
            .to_vec()
    };
    match (ORDER[piece], (from + 4 - to).is_multiple_of(2)) {
        ('O', _) => vec![(0, 0)],
        ('I', false) => quarter(&I_SRS_PLUS),
        ('I', true) => I_180[from as usize].to_vec(),
        (_, false) => quarter(&JLSTZ),
        (_, true) => JLSTZ_180[from as usize].to_vec(),
    }
}

#[test]
fn the_crates_kicks_move_the_cells_where_the_published_tables_move_the_box() {
    assert_eq!(ORDER, LETTERS);
    for piece in 0..7 {
        for from in 0..4u8 {
            for (to, engine) in [
                (
                    turn(from, 0),
                    SRS_PLUS_KICKS[piece][from as usize][0].to_vec(),
                ),
                (
                    turn(from, 1),
                    SRS_PLUS_KICKS[piece][from as usize][1].to_vec(),
                ),
                ((from + 2) % 4, HALF_KICKS[piece][from as usize].to_vec()),
            ] {
                // The crate's pose that covers the box's cells at (3, 10).
                let start = sorted(box_cells(piece, from, 3, 10));
                let centre = (-5..15)
                    .flat_map(|x| (0..30).map(move |y| (x, y)))
                    .find(|&(x, y)| sorted(pose(piece, from, x, y).cells()) == start)
                    .expect("a centre covers the box");
                let published = tests(piece, from, to);
                for (i, &(kx, ky)) in engine.iter().enumerate() {
                    // Past the published tests, the crate's list repeats the last one.
                    let (bx, by) = published[i.min(published.len() - 1)];
                    assert_eq!(
                        sorted(pose(piece, to, centre.0 + kx, centre.1 + ky).cells()),
                        sorted(box_cells(piece, to, 3 + bx, 10 + by)),
                        "{} {from}->{to} test {}",
                        ORDER[piece],
                        i + 1
                    );
                }
            }
        }
    }
}

fn pose(piece: usize, rotation: u8, x: i8, y: i8) -> Pose {
    Pose {
        piece: piece as u8,
        rotation,
        x,
        y,
    }
}

fn sorted(mut cells: [(i8, i8); 4]) -> [(i8, i8); 4] {
    cells.sort();
    cells
}

// ---------------------------------------------------------------------------------------
// The search: breadth first over (box x, box y, state, the spin the last turn made).

/// A falling piece as TETR.IO keeps it: its box and the spin judged at its last turn (a
/// shift or a drop clears it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Falling {
    x: i8,
    y: i8,
    rotation: u8,
    spin: Spin,
}

/// Whether cell (x, y) is a wall, the floor, above the 40 rows, or filled.
fn solid(board: &Board, (x, y): (i8, i8)) -> bool {
    !(0..10).contains(&x) || !(0..40).contains(&y) || board.filled(x as usize, y as usize)
}

fn legal(board: &Board, piece: usize, rotation: u8, x: i8, y: i8) -> bool {
    box_cells(piece, rotation, x, y)
        .iter()
        .all(|&c| !solid(board, c))
}

/// TETR.IO's spawn: the box's left column ⌊10/2 − n/2⌋, its top row the 23rd (row 22 from 0).
fn spawn(piece: usize) -> (i8, i8) {
    let n = SHAPES[piece].0;
    (5 - n / 2 - n % 2, 22 - (n - 1))
}

/// The spin a turn into (x, y, rotation) with test `test` of `from` makes under all-mini+.
fn judged(
    board: &Board,
    piece: usize,
    (x, y, rotation): (i8, i8, u8),
    from: u8,
    test: usize,
) -> Spin {
    let free = |dx: i8, dy: i8| legal(board, piece, rotation, x + dx, y + dy);
    let immobile = !free(-1, 0) && !free(1, 0) && !free(0, 1) && !free(0, -1);
    let by_immobility = if immobile { Spin::Mini } else { Spin::None };
    if ORDER[piece] != 'T' {
        return by_immobility;
    }
    // Three corners of the box around its centre, walls and floor counting.
    let corner = if free(0, -1) {
        Spin::None
    } else {
        let (cx, cy) = (x + 1, y + 1);
        let filled = |dx: i8, dy: i8| solid(board, (cx + dx, cy + dy));
        let count = [(-1, 1), (1, 1), (1, -1), (-1, -1)]
            .iter()
            .filter(|&&(dx, dy)| filled(dx, dy))
            .count();
        let front = [
            [(-1, 1), (1, 1)],
            [(1, 1), (1, -1)],
            [(1, -1), (-1, -1)],
            [(-1, -1), (-1, 1)],
        ][rotation as usize];
        // TETR.IO's last-kick upgrade: the fifth test of 0->R, 2->R, 2->L or 0->L.
        let tst_or_fin = test == 4 && from.is_multiple_of(2) && rotation % 2 == 1;
        if count < 3 {
            Spin::None
        } else if front.iter().all(|&(dx, dy)| filled(dx, dy)) || tst_or_fin {
            Spin::Full
        } else {
            Spin::Mini
        }
    };
    corner.max(by_immobility)
}

/// Every (cells, spin) `piece` can lock as on `board`, a mini dropped where the same cells
/// also lock as a full spin (as the move generator offers them).
fn referee(board: &Board, piece: usize) -> BTreeSet<([(i8, i8); 4], Spin)> {
    let (sx, sy) = spawn(piece);
    let mut found = BTreeMap::<[(i8, i8); 4], BTreeSet<Spin>>::new();
    if !legal(board, piece, 0, sx, sy) {
        return BTreeSet::new();
    }
    let start = Falling {
        x: sx,
        y: sy,
        rotation: 0,
        spin: Spin::None,
    };
    let mut seen = BTreeSet::from([start]);
    let mut queue = VecDeque::from([start]);
    while let Some(f) = queue.pop_front() {
        let mut next = Vec::new();
        for (dx, dy) in [(-1, 0), (1, 0), (0, -1)] {
            if legal(board, piece, f.rotation, f.x + dx, f.y + dy) {
                next.push(Falling {
                    x: f.x + dx,
                    y: f.y + dy,
                    spin: Spin::None,
                    ..f
                });
            }
        }
        for to in [
            (f.rotation + 1) % 4,
            (f.rotation + 3) % 4,
            (f.rotation + 2) % 4,
        ] {
            let kicked = tests(piece, f.rotation, to)
                .into_iter()
                .enumerate()
                .find(|&(_, (kx, ky))| legal(board, piece, to, f.x + kx, f.y + ky));
            if let Some((test, (kx, ky))) = kicked {
                let at = (f.x + kx, f.y + ky, to);
                next.push(Falling {
                    x: at.0,
                    y: at.1,
                    rotation: to,
                    spin: judged(board, piece, at, f.rotation, test),
                });
            }
        }
        for n in next {
            if seen.insert(n) {
                queue.push_back(n);
            }
        }
        if !legal(board, piece, f.rotation, f.x, f.y - 1) {
            let cells = sorted(box_cells(piece, f.rotation, f.x, f.y));
            found.entry(cells).or_default().insert(f.spin);
        }
    }
    let mut out = BTreeSet::new();
    for (cells, spins) in found {
        for &spin in &spins {
            if !(spin == Spin::Mini && spins.contains(&Spin::Full)) {
                out.insert((cells, spin));
            }
        }
    }
    out
}

/// The move generator's placements as (cells, spin), each listed once.
fn generated(board: &Board, piece: usize) -> BTreeSet<([(i8, i8); 4], Spin)> {
    let mut out = BTreeSet::new();
    movegen::placements(board, piece as u8, &TETRIO, |p: Placement| {
        assert!(
            out.insert((sorted(p.pose.cells()), p.spin)),
            "listed twice: {p:?}"
        );
    });
    out
}

/// Checks the generator against the search on `board` for every piece, and that each
/// placement's path (the crate's own plain search, whose paths `moves` prints) replays to it.
fn check(board: &Board, what: &str) -> [usize; 3] {
    let mut spins = [0; 3];
    for (piece, letter) in ORDER.iter().enumerate() {
        let expected = referee(board, piece);
        assert_eq!(
            generated(board, piece),
            expected,
            "{what}, piece {letter}\n{}",
            board.framed()
        );
        for (_, spin) in &expected {
            spins[*spin as usize] += 1;
        }
        // Every placement offered has a path, and the path replays to it.
        let paths: BTreeMap<Placement, Vec<_>> = movegen::paths(board, piece as u8, &TETRIO)
            .into_iter()
            .collect();
        movegen::placements(board, piece as u8, &TETRIO, |p| {
            let inputs = paths
                .get(&p)
                .unwrap_or_else(|| panic!("{what}: no path to {p:?}"));
            let end = movegen::replay(board, piece as u8, inputs, &TETRIO).expect("replays");
            assert_eq!(
                movegen::placement_of(board, &end, &TETRIO),
                p,
                "{what}: {inputs:?}"
            );
        });
    }
    spins
}

#[test]
fn move_generation_equals_the_search_on_random_boards() {
    let mut spins = [0; 3];
    for seed in 0..600 {
        let found = check(&random_board(seed), &format!("random board {seed}"));
        (0..3).for_each(|i| spins[i] += found[i]);
    }
    // The boards hold minis and full spins both, so both were compared.
    assert!(spins[1] > 1_000 && spins[2] > 100, "{spins:?}");
}

#[test]
fn move_generation_equals_the_search_on_boards_from_tetrio_matches() {
    let rules = Rules {
        movement: TETRIO,
        ..Rules::default()
    };
    let boards = match_boards(&Guideline::new(rules, Mode::Versus), 3, 150);
    assert!(boards.len() > 200, "{} boards", boards.len());
    for (i, board) in boards.iter().enumerate() {
        check(board, &format!("match board {i}"));
    }
}

// ---------------------------------------------------------------------------------------
// Season 2's attack (`--attack tetrio-s2`): the worked values of halp1/triangle's engine
// (`src/engine/utils/damageCalc/index.ts`, `src/engine/index.ts` lines 1422-1501).

fn season2() -> Rules {
    Rules {
        attack: AttackTable::TetrioSeason2,
        ..Rules::default()
    }
}

#[test]
fn season_two_pays_a_flat_back_to_back_and_multiplies_combos() {
    // Tetris 4 (B2B ×0); B2B ×1 in combo 1: (4 + 1) × 1.25 = 6.25 -> 6; TSD at B2B ×2 in
    // combo 2: (4 + 1) × 1.5 = 7.5 -> 7 (season 1's chaining: (4 + 1.65) × 1.5 = 8.48 -> 8);
    // a single in combo 3: 0 × 1.75, but at least ln(1 + 3.75) = 1.56 -> 1.
    assert_eq!(
        attacks(&season2(), &[TETRIS, TETRIS, TSD, SINGLE]),
        [4, 6, 7, 1]
    );
}

#[test]
fn breaking_b2b_x4_releases_a_surge_and_b2b_x3_does_not() {
    let chain = |tetrises: usize| {
        let mut steps = Vec::new();
        for _ in 0..tetrises {
            steps.extend([TETRIS, NOTHING]);
        }
        steps.push(SINGLE);
        attacks(&season2(), &steps)
    };
    // Five tetrises (B2B ×4, shown from −1), each alone: 4, then 5 each; the single that
    // breaks the chain sends the surge, 4 rows (its own 0 and no bonus).
    assert_eq!(chain(5), [4, 0, 5, 0, 5, 0, 5, 0, 5, 0, 4]);
    // At B2B ×3 the break sends nothing: the threshold [T] fixed against replays (5997fc8).
    assert_eq!(chain(4), [4, 0, 5, 0, 5, 0, 5, 0, 0]);
    // B2B ×9 surges 9.
    assert_eq!(*chain(10).last().unwrap(), 9);
}

#[test]
fn a_season_two_perfect_clear_adds_five_and_keeps_back_to_back() {
    let rules = season2();
    let mut side = Side::given(Board::empty(10, 40), Queue::given(&[0; 4]), None, 0, false);
    let (tetris, rows) = TETRIS;
    // A tetris that leaves a cell (no perfect clear) starts the chain.
    set_up(&mut side, &tetris, rows, 1 << 30);
    assert_eq!(side.lock(&rules, false, &tetris, false).attack, 4);
    // A perfect-clear single in combo 1: its own 0, +1 back-to-back (the perfect clear
    // charges it) × 1.25 -> 1, then 5 more.
    let (single, rows) = SINGLE;
    set_up(&mut side, &single, rows, 0);
    let locked = side.lock(&rules, false, &single, false);
    assert!(locked.perfect_clear && locked.back_to_back);
    assert_eq!(locked.attack, 6);
    assert_eq!(side.b2b, 2);
}

// ---------------------------------------------------------------------------------------
// `--rules tetrio`: every TETR.IO setting at once, each still a flag away.

/// The guideline game `spec` builds: its rules, or the one-line refusal.
fn built(spec: GameSpec) -> Result<Rules, String> {
    let spec = GameSpec {
        game: Some("tetris".to_string()),
        mode: Some("sprint".to_string()),
        ..spec
    };
    match spec.build() {
        Ok(AnyGame::Guideline(game)) => Ok(*game.rules_of()),
        Ok(_) => Err("not a guideline game".to_string()),
        Err(e) => Err(format!("{e:#}")),
    }
}

#[test]
fn the_tetrio_rules_set_every_difference_and_each_flag_overrides_its_own() {
    let tetrio = || GameSpec {
        rules: Some("tetrio".to_string()),
        ..GameSpec::default()
    };
    let expected = Rules {
        movement: TETRIO,
        attack: AttackTable::TetrioSeason2,
        lock_out: false,
        ..Rules::default()
    };
    assert_eq!(built(tetrio()), Ok(expected));
    let without_180 = GameSpec {
        turn_180: Some(false),
        attack: Some("guideline".to_string()),
        ..tetrio()
    };
    let mut overridden = expected;
    overridden.movement.half_turns = false;
    overridden.attack = AttackTable::Guideline;
    assert_eq!(built(without_180), Ok(overridden));
    // The guideline's rules take each TETR.IO setting alone.
    let srs_plus = GameSpec {
        rules: Some("guideline".to_string()),
        kicks: Some("srs+".to_string()),
        spawn: Some("tetrio".to_string()),
        ..GameSpec::default()
    };
    let mut guideline = Rules::default();
    guideline.movement.kicks = Kicks::SrsPlus;
    guideline.movement.spawn = Spawn::Tetrio;
    assert_eq!(built(srs_plus), Ok(guideline));
    let wrong = GameSpec {
        spins: Some("all".to_string()),
        ..tetrio()
    };
    assert_eq!(
        built(wrong),
        Err("unknown --spins `all`; valid: t-spins, all-mini+".to_string())
    );
}

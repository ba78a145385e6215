//! Every final resting place a piece can reach from spawn by shifts, SRS turns with their kicks
//! and soft drop, each with its spin: the placements a guideline player chooses among.
//!
//! The search runs on bitboards: for each rotation state and centre column one `u64` holds the
//! rows where the piece fits (bit b = centre row b − 2, so the I piece's lowest rows fit), and
//! the set of reachable poses grows by whole columns at a time: a soft drop is an occluded fill
//! down the free rows, a shift an AND with the next column's free rows, a turn five masked
//! shifts in kick order. No pose is visited one by one and nothing is allocated, which is what
//! makes it fast; [`reachable_states`] is the plain search over single poses that the tests
//! hold it to, and that finds each placement's inputs ([`path_to`]).
//!
//! Spins are the guideline's T-spins by the three-corner rule (the 2009 Tetris Design
//! Guideline, as TetrisWiki's "T-Spin" page gives it and Puyo Puyo Tetris and TETR.IO play it):
//! a T whose last input was a turn, with three of the four cells diagonal to its centre filled
//! (walls and floor count), is a T-spin; it is full when both corners on its pointing side are
//! filled, or when the turn took SRS's fifth kick test (the TST and fin kicks), and mini
//! otherwise. A place reachable both as a mini and as a full T-spin is offered as the full one
//! (it sends more, and keeps back-to-back alike).
//!
//! TETR.IO moves and spins otherwise ([`Movement`]): SRS+ kicks, half turns with kicks of
//! their own, a spawn one row higher, and every piece's spins counted as minis when the piece
//! cannot move left, right or up after its turn ("all-mini+"); each is a setting, and the
//! guideline's movement takes none of these branches.

use super::piece::{CELLS, HALF_KICKS, HalfTests, Kicks, O, Pose, T, Tests, turn};
use crate::tetris::board::Board;
use std::collections::VecDeque;

/// Board width and height (rows above 20 are the hidden buffer).
pub const WIDTH: i8 = 10;
pub const HEIGHT: i8 = 40;

/// Centre columns from −4 to 15 are slots 0..20; poses with a cell outside the walls never fit.
const X_OFFSET: i8 = 4;
const SLOTS: usize = 20;
/// Bit b of a column's mask is centre row b − 2.
const Y_OFFSET: i8 = 2;

/// The spawn centre column, and the row a piece appears in (the guideline's 21st row) before
/// it drops one row if it can.
pub const SPAWN_X: i8 = 4;
pub const SPAWN_Y: i8 = 20;

/// How pieces move and spin: the guideline's by default, TETR.IO's with every field set
/// (docs/guideline.md gives each with its source).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Movement {
    pub kicks: Kicks,
    /// Whether a piece may turn half round (TETR.IO's 180° turn, [`HALF_KICKS`]).
    pub half_turns: bool,
    pub spins: SpinRule,
    pub spawn: Spawn,
}

impl Default for Movement {
    fn default() -> Self {
        Movement {
            kicks: Kicks::Srs,
            half_turns: false,
            spins: SpinRule::TSpins,
            spawn: Spawn::Guideline,
        }
    }
}

/// Which turns into a resting place count as spins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpinRule {
    /// T-spins by the three-corner rule, full after SRS's fifth test of any quarter turn.
    TSpins,
    /// TETR.IO's `all-mini+`: T-spins by the three-corner rule, full after the fifth test
    /// only of the quarter turns from spawn or south (the TST and fin kicks); a T that fails
    /// the rule but cannot move left, right or up is a mini, and so is every other piece
    /// (the O turning in place included) that cannot.
    AllMiniPlus,
}

impl SpinRule {
    pub const NAMES: [&'static str; 2] = ["t-spins", "all-mini+"];

    pub fn parse(name: &str) -> Option<SpinRule> {
        match name {
            "t-spins" => Some(SpinRule::TSpins),
            "all-mini+" => Some(SpinRule::AllMiniPlus),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            SpinRule::TSpins => "t-spins",
            SpinRule::AllMiniPlus => "all-mini+",
        }
    }

    /// Whether `piece` can spin at all.
    #[inline]
    fn counts(self, piece: u8) -> bool {
        piece == T || self == SpinRule::AllMiniPlus
    }

    /// Whether a quarter turn from `from` that took the fifth test makes a T-spin full.
    #[inline]
    fn upgrades(self, from: usize) -> bool {
        self == SpinRule::TSpins || from.is_multiple_of(2)
    }

    /// The spin `pose` locks with after a turn into it; `upgrade` when the turn took a fifth
    /// test that makes a T-spin full.
    fn of(self, board: &Board, pose: &Pose, upgrade: bool) -> Spin {
        let corner = || corner_spin(board, pose, upgrade);
        match self {
            SpinRule::TSpins => corner(),
            SpinRule::AllMiniPlus => {
                let immobile = if immobile(board, pose) {
                    Spin::Mini
                } else {
                    Spin::None
                };
                if pose.piece == T {
                    corner().max(immobile)
                } else {
                    immobile
                }
            }
        }
    }
}

/// Where a piece appears.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spawn {
    /// The 21st row, then one row lower if it fits ([`SPAWN_Y`]).
    Guideline,
    /// TETR.IO's 22nd row, where a player that moves at once still has it (its gravity takes
    /// two frames to bring the piece down to the guideline's row).
    Tetrio,
}

impl Spawn {
    pub const NAMES: [&'static str; 2] = ["guideline", "tetrio"];

    pub fn parse(name: &str) -> Option<Spawn> {
        match name {
            "guideline" => Some(Spawn::Guideline),
            "tetrio" => Some(Spawn::Tetrio),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Spawn::Guideline => "guideline",
            Spawn::Tetrio => "tetrio",
        }
    }
}

/// What a placement's last input did: nothing special, or a T-spin.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Spin {
    None,
    Mini,
    Full,
}

impl Spin {
    /// The TBP's name.
    pub fn name(self) -> &'static str {
        match self {
            Spin::None => "none",
            Spin::Mini => "mini",
            Spin::Full => "full",
        }
    }
}

/// A piece at rest where it locks, and the spin it locks with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Placement {
    pub pose: Pose,
    pub spin: Spin,
}

/// Where the piece appears on `board`: spawn row 20, one row lower if that fits (TETR.IO: row
/// 21, staying there); `None` when the spawn place is blocked (a block out: the game is lost).
pub fn spawn(board: &Board, piece: u8, movement: &Movement) -> Option<Pose> {
    let at = |y| Pose {
        piece,
        rotation: 0,
        x: SPAWN_X,
        y,
    };
    if movement.spawn == Spawn::Tetrio {
        return fits(board, &at(SPAWN_Y + 1)).then(|| at(SPAWN_Y + 1));
    }
    if !fits(board, &at(SPAWN_Y)) {
        return None;
    }
    Some(if fits(board, &at(SPAWN_Y - 1)) {
        at(SPAWN_Y - 1)
    } else {
        at(SPAWN_Y)
    })
}

/// Whether the piece fits at `pose`: every cell inside the walls, above the floor, below the
/// top of the 40 rows, and empty.
pub fn fits(board: &Board, pose: &Pose) -> bool {
    pose.cells().iter().all(|&(x, y)| {
        (0..WIDTH).contains(&x) && (0..HEIGHT).contains(&y) && !board.filled(x as usize, y as usize)
    })
}

/// Row masks (bit b = centre row b − 2) where the piece fits, per rotation state and slot.
type Masks = [[u64; SLOTS]; 4];

/// The rows where `piece` fits, for every state and centre column.
#[inline]
fn free_rows(board: &Board, piece: u8) -> Masks {
    let mut free = [[0u64; SLOTS]; 4];
    let ceiling = !0u64 << HEIGHT;
    let mut columns = [0u64; WIDTH as usize];
    for (x, c) in columns.iter_mut().enumerate() {
        *c = board.column(x) | ceiling;
    }
    for (rotation, rows) in free.iter_mut().enumerate() {
        let cells = &CELLS[piece as usize][rotation];
        for (slot, out) in rows.iter_mut().enumerate() {
            let x = slot as i8 - X_OFFSET;
            let mut blocked = 0u64;
            let mut inside = true;
            for &(dx, dy) in cells {
                let cx = x + dx;
                if !(0..WIDTH).contains(&cx) {
                    inside = false;
                    break;
                }
                // Cell row = centre row + dy = b − 2 + dy: column bit b + dy − 2. Rows below
                // the floor (b < 2 − dy) are blocked.
                let s = (Y_OFFSET - dy) as u32;
                blocked |= columns[cx as usize] << s | ((1u64 << s) - 1);
            }
            *out = if inside { !blocked } else { 0 };
        }
    }
    free
}

/// `seeds` and every row below each seed reachable without leaving `free`: a soft drop from
/// all of them at once (the occluded fill of chess bitboards, six steps for 64 rows).
#[inline(always)]
fn fill_down(seeds: u64, free: u64) -> u64 {
    let mut g = seeds & free;
    let mut p = free;
    g |= p & (g >> 1);
    p &= p >> 1;
    g |= p & (g >> 2);
    p &= p >> 2;
    g |= p & (g >> 4);
    p &= p >> 4;
    g |= p & (g >> 8);
    p &= p >> 8;
    g |= p & (g >> 16);
    p &= p >> 16;
    g | (p & (g >> 32))
}

/// `v` moved up `k` rows (down for negative `k`).
#[inline(always)]
fn shifted(v: u64, k: i8) -> u64 {
    if k >= 0 { v << k } else { v >> -k }
}

/// Where each row of `from` (at slot `slot`) lands when turned into state `to` with the kick
/// `tests`: `visit(slot, rows, kick)` for each test that some rows take, those rows already
/// moved.
#[inline(always)]
fn turns<const N: usize>(
    free: &Masks,
    to: usize,
    tests: &[(i8, i8); N],
    slot: usize,
    from: u64,
    mut visit: impl FnMut(usize, u64, usize),
) {
    let mut left = from;
    for (kick, &(kx, ky)) in tests.iter().enumerate() {
        let target = (slot as i8 + kx) as usize;
        // Rows whose kicked place fits, in the source's rows.
        let fits = shifted(free[to][target], -ky);
        let taken = left & fits;
        left &= !fits;
        if taken != 0 {
            visit(target, shifted(taken, ky), kick);
        }
        if left == 0 {
            break;
        }
    }
}

/// Every pose reachable from `start`, as row masks.
#[inline]
fn reach(free: &Masks, piece: u8, start: Pose, movement: &Movement) -> Masks {
    let kicks = &movement.kicks.table()[piece as usize];
    let half = &HALF_KICKS[piece as usize];
    let mut any = [[0u64; SLOTS]; 4];
    let slot_of = |x: i8| (x + X_OFFSET) as usize;
    any[0][slot_of(start.x)] = 1 << (start.y + Y_OFFSET);
    // Pending (state, slot) pairs as bits of one word: 80 of them.
    let mut pending: u128 = 1 << slot_of(start.x);
    let turning = piece != O;
    while pending != 0 {
        let index = pending.trailing_zeros() as usize;
        pending &= pending - 1;
        let (rotation, slot) = (index / SLOTS, index % SLOTS);
        let rows = fill_down(any[rotation][slot], free[rotation][slot]);
        any[rotation][slot] = rows;
        let mut add = |r: usize, s: usize, new: u64| {
            if new & !any[r][s] != 0 {
                any[r][s] |= new;
                pending |= 1 << (r * SLOTS + s);
            }
        };
        add(rotation, slot - 1, rows & free[rotation][slot - 1]);
        add(rotation, slot + 1, rows & free[rotation][slot + 1]);
        if turning {
            for direction in 0..2 {
                let to = turn(rotation as u8, direction) as usize;
                let tests = &kicks[rotation][direction as usize];
                turns(free, to, tests, slot, rows, |s, new, _| add(to, s, new));
            }
            if movement.half_turns {
                let to = (rotation + 2) % 4;
                turns(free, to, &half[rotation], slot, rows, |s, new, _| {
                    add(to, s, new)
                });
            }
        }
    }
    any
}

/// Calls `visit` with every placement of `piece` on `board` reachable from spawn, in a fixed
/// order (state, then column, then row, then spin); nothing when the spawn is blocked.
/// Placements with the same cells and spin are listed once.
pub fn placements(board: &Board, piece: u8, movement: &Movement, mut visit: impl FnMut(Placement)) {
    let Some(start) = spawn(board, piece, movement) else {
        return;
    };
    let free = free_rows(board, piece);
    let any = reach(&free, piece, start, movement);
    if movement.spins.counts(piece) {
        list_spins(board, &free, &any, start, movement, visit);
        return;
    }
    let mut listed = [[0u64; SLOTS]; 4];
    for_each_rest(&free, &any, piece, |pose| {
        list_once(&mut listed, pose, Spin::None, &mut visit)
    });
}

/// Visits `pose` with `spin` at its canonical pose unless `listed` holds it, and marks it.
#[inline(always)]
fn list_once(
    listed: &mut [[u64; SLOTS]; 4],
    pose: Pose,
    spin: Spin,
    visit: &mut impl FnMut(Placement),
) {
    let canon = pose.canonical();
    let (cr, cs, cb) = (
        canon.rotation as usize,
        (canon.x + X_OFFSET) as usize,
        canon.y + Y_OFFSET,
    );
    if listed[cr][cs] >> cb & 1 == 0 {
        listed[cr][cs] |= 1 << cb;
        visit(Placement { pose: canon, spin });
    }
}

/// Calls `visit` with every resting pose of `any`, state by state, column by column, row by row.
#[inline(always)]
fn for_each_rest(free: &Masks, any: &Masks, piece: u8, mut visit: impl FnMut(Pose)) {
    for rotation in 0..4 {
        for slot in 1..SLOTS - 1 {
            // Resting: the row below does not fit.
            let mut rest = any[rotation][slot] & !(free[rotation][slot] << 1);
            while rest != 0 {
                let b = rest.trailing_zeros() as i8;
                rest &= rest - 1;
                visit(Pose {
                    piece,
                    rotation: rotation as u8,
                    x: slot as i8 - X_OFFSET,
                    y: b - Y_OFFSET,
                });
            }
        }
    }
}

/// [`placements`] for a piece that can spin: each resting pose with every spin it can lock
/// with. A T's four states are four placements, listed as they are; another piece's poses
/// with the same cells are one, listed once with no spin and once with a mini.
fn list_spins(
    board: &Board,
    free: &Masks,
    any: &Masks,
    start: Pose,
    movement: &Movement,
    mut visit: impl FnMut(Placement),
) {
    let piece = start.piece;
    let spins = turned_into(free, any, piece, movement);
    let mut listed = [[[0u64; SLOTS]; 4]; 2];
    for_each_rest(free, any, piece, |pose| {
        let (rotation, slot) = (pose.rotation as usize, (pose.x + X_OFFSET) as usize);
        let bit = 1u64 << (pose.y + Y_OFFSET);
        let arrived = Arrivals {
            plain: (spins.plain[rotation][slot] | start_bit(start, rotation, slot)) & bit != 0,
            turned: spins.turned[rotation][slot] & bit != 0,
            fifth_kick: spins.fifth_kick[rotation][slot] & bit != 0,
        };
        for spin in spins_at(board, &pose, arrived, movement.spins) {
            if piece == T {
                visit(Placement { pose, spin });
            } else {
                list_once(
                    &mut listed[(spin != Spin::None) as usize],
                    pose,
                    spin,
                    &mut visit,
                );
            }
        }
    });
}

/// The spawn pose's bit in (state, slot), if it is there: a piece that locks where it spawned
/// arrived by no turn.
fn start_bit(start: Pose, rotation: usize, slot: usize) -> u64 {
    if rotation == 0 && slot == (start.x + X_OFFSET) as usize {
        1 << (start.y + Y_OFFSET)
    } else {
        0
    }
}

/// How a piece can arrive at each reachable pose: by a shift or a drop, by a turn, or by a
/// quarter turn whose fifth test makes a T-spin full.
struct TArrivals {
    plain: Masks,
    turned: Masks,
    fifth_kick: Masks,
}

/// How a piece arrives at one pose.
#[derive(Clone, Copy, Debug, Default)]
struct Arrivals {
    plain: bool,
    turned: bool,
    fifth_kick: bool,
}

/// Every way `piece` arrives at the poses of `any` (all of them reachable).
fn turned_into(free: &Masks, any: &Masks, piece: u8, movement: &Movement) -> TArrivals {
    let mut out = TArrivals {
        plain: [[0; SLOTS]; 4],
        turned: [[0; SLOTS]; 4],
        fifth_kick: [[0; SLOTS]; 4],
    };
    let kicks = &movement.kicks.table()[piece as usize];
    for rotation in 0..4 {
        for slot in 1..SLOTS - 1 {
            let f = free[rotation][slot];
            out.plain[rotation][slot] = ((any[rotation][slot - 1] | any[rotation][slot + 1]) & f)
                | ((any[rotation][slot] >> 1) & f);
            if piece == O {
                // The O turns in place, wherever it is.
                out.turned[rotation][slot] = any[rotation][slot];
                continue;
            }
            let upgrades = movement.spins.upgrades(rotation);
            for direction in 0..2 {
                let to = turn(rotation as u8, direction) as usize;
                let tests = &kicks[rotation][direction as usize];
                turns(
                    free,
                    to,
                    tests,
                    slot,
                    any[rotation][slot],
                    |s, rows, kick| {
                        if kick == 4 && upgrades {
                            out.fifth_kick[to][s] |= rows;
                        } else {
                            out.turned[to][s] |= rows;
                        }
                    },
                );
            }
            if movement.half_turns {
                let to = (rotation + 2) % 4;
                let tests: &HalfTests = &HALF_KICKS[piece as usize][rotation];
                turns(free, to, tests, slot, any[rotation][slot], |s, rows, _| {
                    out.turned[to][s] |= rows;
                });
            }
        }
    }
    out
}

/// Whether cell (x, y) counts as filled for the corner rule: the walls and the floor do.
fn blocked(board: &Board, x: i8, y: i8) -> bool {
    !(0..WIDTH).contains(&x) || y < 0 || (y < HEIGHT && board.filled(x as usize, y as usize))
}

/// Whether a piece at `pose` can move neither left, right, up nor down: TETR.IO's test of a
/// spin for pieces the corner rule does not cover.
fn immobile(board: &Board, pose: &Pose) -> bool {
    [(-1, 0), (1, 0), (0, 1), (0, -1)].iter().all(|&(dx, dy)| {
        !fits(
            board,
            &Pose {
                x: pose.x + dx,
                y: pose.y + dy,
                ..*pose
            },
        )
    })
}

/// The spin a T turned into `pose` locks with, by the three-corner rule; `fifth_kick` when the
/// turn took SRS's fifth test.
pub fn corner_spin(board: &Board, pose: &Pose, fifth_kick: bool) -> Spin {
    let (x, y) = (pose.x, pose.y);
    // Corners in clockwise order from the top left; the pointing side's two for each state.
    let corners = [
        (x - 1, y + 1),
        (x + 1, y + 1),
        (x + 1, y - 1),
        (x - 1, y - 1),
    ];
    let filled = corners.map(|(cx, cy)| blocked(board, cx, cy));
    if filled.iter().filter(|&&f| f).count() < 3 {
        return Spin::None;
    }
    let front = [(0, 1), (1, 2), (2, 3), (3, 0)][pose.rotation as usize];
    if (filled[front.0] && filled[front.1]) || fifth_kick {
        Spin::Full
    } else {
        Spin::Mini
    }
}

/// The spins a piece resting at `pose` can lock with, given how it can arrive there: none
/// when it can arrive by a shift or drop (or by a turn that is no spin), and the best spin a
/// turn gives.
fn spins_at(
    board: &Board,
    pose: &Pose,
    arrived: Arrivals,
    rule: SpinRule,
) -> impl Iterator<Item = Spin> {
    let by_turn = match (arrived.turned, arrived.fifth_kick) {
        (_, true) => Some(rule.of(board, pose, true)),
        (true, false) => Some(rule.of(board, pose, false)),
        (false, false) => None,
    };
    let plain = arrived.plain || by_turn == Some(Spin::None);
    let spin = by_turn.filter(|&s| s != Spin::None);
    plain.then_some(Spin::None).into_iter().chain(spin)
}

/// One input of a piece's path from spawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    Left,
    Right,
    Clockwise,
    CounterClockwise,
    /// Down one row.
    SoftDrop,
    /// A half turn (TETR.IO's 180°).
    HalfTurn,
}

impl Input {
    pub fn name(self) -> &'static str {
        match self {
            Input::Left => "left",
            Input::Right => "right",
            Input::Clockwise => "cw",
            Input::CounterClockwise => "ccw",
            Input::SoftDrop => "down",
            Input::HalfTurn => "180",
        }
    }
}

/// The inputs in the order the plain search tries them; the last only with half turns.
const INPUTS: [Input; 6] = [
    Input::Left,
    Input::Right,
    Input::Clockwise,
    Input::CounterClockwise,
    Input::SoftDrop,
    Input::HalfTurn,
];

/// The turn that was a piece's last input: which kick test it took, and whether it was a
/// half turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Kick {
    /// The test, from 0.
    pub test: u8,
    pub half: bool,
    /// The state turned from.
    pub from: u8,
}

/// A falling piece and how its last move was made: what a spin depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    pub pose: Pose,
    /// The turn that was the last input; `None` after a shift, a drop or at spawn.
    pub kick: Option<Kick>,
}

/// The first of `tests` that fits turning `pose` into state `to`, from `pose`.
fn kicked(board: &Board, pose: Pose, to: u8, tests: &[(i8, i8)], half: bool) -> Option<State> {
    tests.iter().enumerate().find_map(|(test, &(kx, ky))| {
        let p = Pose {
            rotation: to,
            x: pose.x + kx,
            y: pose.y + ky,
            ..pose
        };
        fits(board, &p).then_some(State {
            pose: p,
            kick: Some(Kick {
                test: test as u8,
                half,
                from: pose.rotation,
            }),
        })
    })
}

/// The state after `input`, if the piece can make it.
pub fn step(board: &Board, state: &State, input: Input, movement: &Movement) -> Option<State> {
    let pose = state.pose;
    let moved = |dx: i8, dy: i8| {
        let p = Pose {
            x: pose.x + dx,
            y: pose.y + dy,
            ..pose
        };
        fits(board, &p).then_some(State {
            pose: p,
            kick: None,
        })
    };
    // The O turns only where a turn in place can make it a spin.
    if pose.piece == O
        && matches!(
            input,
            Input::Clockwise | Input::CounterClockwise | Input::HalfTurn
        )
        && !movement.spins.counts(O)
    {
        return None;
    }
    let (piece, rotation) = (pose.piece as usize, pose.rotation as usize);
    match input {
        Input::Left => moved(-1, 0),
        Input::Right => moved(1, 0),
        Input::SoftDrop => moved(0, -1),
        Input::Clockwise | Input::CounterClockwise => {
            let direction = (input == Input::CounterClockwise) as u8;
            let to = turn(pose.rotation, direction);
            let tests: &Tests = &movement.kicks.table()[piece][rotation][direction as usize];
            kicked(board, pose, to, tests, false)
        }
        Input::HalfTurn => {
            let to = (pose.rotation + 2) % 4;
            kicked(board, pose, to, &HALF_KICKS[piece][rotation], true)
        }
    }
}

/// The spin a piece locks with from `state`.
pub fn spin_of(board: &Board, state: &State, movement: &Movement) -> Spin {
    match state.kick {
        Some(kick) if movement.spins.counts(state.pose.piece) => {
            let upgrade =
                kick.test == 4 && !kick.half && movement.spins.upgrades(kick.from as usize);
            movement.spins.of(board, &state.pose, upgrade)
        }
        _ => Spin::None,
    }
}

/// Every state reachable from spawn, pose by pose, with the input and state each was first
/// reached from (breadth first, inputs in [`INPUTS`] order): the plain search that
/// [`placements`] must agree with, and the source of [`path_to`]'s shortest paths.
pub fn reachable_states(
    board: &Board,
    piece: u8,
    movement: &Movement,
) -> Vec<(State, Option<(usize, Input)>)> {
    let Some(start) = spawn(board, piece, movement) else {
        return Vec::new();
    };
    // One flag a (state, slot, centre row, last turn or none): a few hundred kilobytes.
    const TURNS: usize = 4 * 2 * 6 + 1;
    let index = |s: &State| {
        let slot = (s.pose.x + X_OFFSET) as usize;
        let b = (s.pose.y + Y_OFFSET) as usize;
        let turn = s.kick.map_or(TURNS - 1, |k| {
            (k.from as usize * 2 + k.half as usize) * 6 + k.test as usize
        });
        ((s.pose.rotation as usize * SLOTS + slot) * 64 + b) * TURNS + turn
    };
    let mut seen = vec![false; 4 * SLOTS * 64 * TURNS];
    let first = State {
        pose: start,
        kick: None,
    };
    seen[index(&first)] = true;
    let mut states = vec![(first, None)];
    let mut queue = VecDeque::from([0usize]);
    let inputs = &INPUTS[..INPUTS.len() - 1 + movement.half_turns as usize];
    while let Some(i) = queue.pop_front() {
        let state = states[i].0;
        for &input in inputs {
            if let Some(next) = step(board, &state, input, movement)
                && !std::mem::replace(&mut seen[index(&next)], true)
            {
                states.push((next, Some((i, input))));
                queue.push_back(states.len() - 1);
            }
        }
    }
    states
}

/// Whether the piece at `state` rests (cannot move down).
pub fn rests(board: &Board, state: &State, movement: &Movement) -> bool {
    step(board, state, Input::SoftDrop, movement).is_none()
}

/// The placement a resting state locks as, in the form [`placements`] lists it (a T where it
/// is, other pieces at their canonical pose).
pub fn placement_of(board: &Board, state: &State, movement: &Movement) -> Placement {
    let spin = spin_of(board, state, movement);
    let pose = if state.pose.piece == T {
        state.pose
    } else {
        state.pose.canonical()
    };
    Placement { pose, spin }
}

/// The shortest inputs (breadth first over single states) that bring the piece from spawn
/// to rest as each placement it can lock as, then a hard drop, in the order the search first
/// reaches them.
pub fn paths(board: &Board, piece: u8, movement: &Movement) -> Vec<(Placement, Vec<Input>)> {
    let states = reachable_states(board, piece, movement);
    let mut found: Vec<(Placement, Vec<Input>)> = Vec::new();
    for (end, (state, _)) in states.iter().enumerate() {
        if !rests(board, state, movement) {
            continue;
        }
        let placement = placement_of(board, state, movement);
        if found.iter().any(|(p, _)| *p == placement) {
            continue;
        }
        let mut inputs = Vec::new();
        let mut at = end;
        while let Some((from, input)) = states[at].1 {
            inputs.push(input);
            at = from;
        }
        inputs.reverse();
        found.push((placement, inputs));
    }
    found
}

/// The shortest path to `target` ([`paths`]); `None` when no path reaches it. A mini that
/// is also reachable as a full T-spin is listed as the full one, and it is that path.
pub fn path_to(board: &Board, target: &Placement, movement: &Movement) -> Option<Vec<Input>> {
    paths(board, target.pose.piece, movement)
        .into_iter()
        .find(|(p, _)| p == target)
        .map(|(_, inputs)| inputs)
}

/// Replays `inputs` from spawn, then lets the piece fall to rest: the state it locks in.
pub fn replay(board: &Board, piece: u8, inputs: &[Input], movement: &Movement) -> Option<State> {
    let mut state = State {
        pose: spawn(board, piece, movement)?,
        kick: None,
    };
    for &input in inputs {
        state = step(board, &state, input, movement)?;
    }
    while let Some(next) = step(board, &state, Input::SoftDrop, movement) {
        state = next;
    }
    Some(state)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fill_down_stops_at_the_first_blocked_row() {
        // Free rows 0-3 and 6-9; seeds at 3 and 8.
        let free = 0b11_1100_1111;
        assert_eq!(fill_down(1 << 3 | 1 << 8, free), 0b1_1100_1111);
        assert_eq!(fill_down(0, free), 0);
        assert_eq!(fill_down(1 << 63, !0), !0);
    }

    #[test]
    fn an_empty_board_gives_every_column_and_state_once() {
        let board = Board::empty(10, 40);
        let count = |piece| {
            let mut n = 0;
            placements(&board, piece, &Movement::default(), |_| n += 1);
            n
        };
        // I: 7 flat + 10 upright; O: 9; T, L, J: 8 + 9 + 8 + 9; S, Z: 8 + 9.
        assert_eq!(count(0), 17);
        assert_eq!(count(1), 9);
        assert_eq!(count(2), 34);
        assert_eq!(count(3), 34);
        assert_eq!(count(5), 17);
        assert_eq!(count(6), 17);
    }
}

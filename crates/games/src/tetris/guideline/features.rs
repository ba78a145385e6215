//! The features a versus player weighs: at least what Cold Clear's evaluator weighs (its
//! `bot/src/evaluation/standard.rs`), named and computed from column bitboards.
//!
//! Board features read the board a move leaves (before any garbage rises); move features read
//! what the move did (its clear, its attack, whether it wasted a T); state features read the
//! side's combo, back-to-back and the garbage waiting for it. docs/guideline.md defines each
//! and says where it follows Cold Clear and where it does not.

use super::movegen::{self, HEIGHT, Movement, Spin, WIDTH};
use super::piece::T;
use super::rules::{Locked, Side};
use crate::tetris::board::Board;
use stacktune_game::{FeatureMask, FeatureValues};

/// Feature names in their internal order.
pub const FEATURE_NAMES: [&str; 46] = [
    // The board left.
    "height",
    "top_half",
    "top_quarter",
    "bumpiness",
    "bumpiness_sq",
    "row_transitions",
    "holes",
    "cavity_cells",
    "cavity_cells_sq",
    "overhang_cells",
    "overhang_cells_sq",
    "covered_cells",
    "covered_cells_sq",
    "well_depth",
    "well_column_0",
    "well_column_1",
    "well_column_2",
    "well_column_3",
    "well_column_4",
    "well_column_5",
    "well_column_6",
    "well_column_7",
    "well_column_8",
    "well_column_9",
    "tslot_1",
    "tslot_2",
    "tslot_3",
    // The move.
    "clear1",
    "clear2",
    "clear3",
    "clear4",
    "tspin1",
    "tspin2",
    "tspin3",
    "mini_tspin1",
    "mini_tspin2",
    "perfect_clear",
    "b2b_clear",
    "combo_attack",
    "attack",
    "wasted_t",
    "landing_height",
    // The side's state after it.
    "back_to_back",
    "combo",
    "pending_garbage",
    "garbage_height",
];

const HEIGHT_F: usize = 0;
const TOP_HALF: usize = 1;
const TOP_QUARTER: usize = 2;
const BUMPINESS: usize = 3;
const BUMPINESS_SQ: usize = 4;
const ROW_TRANSITIONS: usize = 5;
const HOLES: usize = 6;
const CAVITY: usize = 7;
const CAVITY_SQ: usize = 8;
const OVERHANG: usize = 9;
const OVERHANG_SQ: usize = 10;
const COVERED: usize = 11;
const COVERED_SQ: usize = 12;
const WELL_DEPTH: usize = 13;
const WELL_COLUMN: usize = 14;
const TSLOT: usize = 24;
const CLEAR: usize = 27;
const TSPIN: usize = 31;
const MINI: usize = 34;
const PERFECT_CLEAR: usize = 36;
const B2B_CLEAR: usize = 37;
const COMBO_ATTACK: usize = 38;
const ATTACK: usize = 39;
const WASTED_T: usize = 40;
const LANDING_HEIGHT: usize = 41;
const BACK_TO_BACK: usize = 42;
const COMBO: usize = 43;
const PENDING: usize = 44;
const GARBAGE_HEIGHT: usize = 45;

const fn range(first: usize, n: usize) -> FeatureMask {
    ((1 << n) - 1) << first
}

/// Features that need the column heights.
const NEEDS_HEIGHTS: FeatureMask = range(0, 27) | 1 << GARBAGE_HEIGHT;
/// Features of the lowest column's well.
const WELL: FeatureMask =
    1 << BUMPINESS | 1 << BUMPINESS_SQ | 1 << WELL_DEPTH | range(WELL_COLUMN, 10);
const HOLE_SHAPES: FeatureMask = range(CAVITY, 4);
const COVERING: FeatureMask = 1 << COVERED | 1 << COVERED_SQ;
const TSLOTS: FeatureMask = range(TSLOT, 3);

/// What a move did, as a searched line banks it: its clear, its attack, a T wasted.
pub const MOVE_FEATURES: FeatureMask = range(CLEAR, WASTED_T + 1 - CLEAR);

/// Highest well depth counted: a well four deep takes a tetris.
const MAX_WELL_DEPTH: u32 = 4;

/// Writes the features of `mask` for a move that placed `piece` (its lowest cell at row
/// `landing`), locked as `locked`, leaving `after`.
pub fn write(
    after: &Side,
    piece: u8,
    landing: i8,
    locked: &Locked,
    mask: FeatureMask,
    out: &mut FeatureValues,
) {
    let f = &mut out.0;
    if mask & NEEDS_HEIGHTS != 0 {
        board_features(&after.board, mask, f);
    }
    let spin = locked.spin.unwrap_or(Spin::None);
    // The clear kinds are one-hot: clear1..4, tspin1..3, mini_tspin1..2 in a row.
    f[CLEAR..MINI + 2].fill(0.0);
    match (spin, locked.lines) {
        (_, 0) => {}
        (Spin::None, n) => f[CLEAR + n as usize - 1] = 1.0,
        (Spin::Full, n) => f[TSPIN + (n.min(3) as usize) - 1] = 1.0,
        (Spin::Mini, n) => f[MINI + (n.min(2) as usize) - 1] = 1.0,
    }
    f[PERFECT_CLEAR] = locked.perfect_clear as u32 as f64;
    f[B2B_CLEAR] = locked.back_to_back as u32 as f64;
    f[COMBO_ATTACK] = locked.combo_attack as f64;
    f[ATTACK] = locked.attack as f64;
    f[WASTED_T] = (piece == T && !(spin == Spin::Full && locked.lines > 0)) as u32 as f64;
    f[LANDING_HEIGHT] = landing as f64;
    f[BACK_TO_BACK] = (after.b2b > 0) as u32 as f64;
    f[COMBO] = after.combo as f64;
    let pending = after.incoming.total() as f64;
    f[PENDING] = pending;
    if mask & 1 << GARBAGE_HEIGHT != 0 {
        f[GARBAGE_HEIGHT] = f[HEIGHT_F] + pending;
    }
}

/// Column heights: rows up to each column's highest filled cell.
#[inline]
fn heights(board: &Board) -> [u32; WIDTH as usize] {
    std::array::from_fn(|x| 64 - board.column(x).leading_zeros())
}

/// The board features of `mask`.
fn board_features(board: &Board, mask: FeatureMask, f: &mut [f64; stacktune_game::MAX_FEATURES]) {
    let h = heights(board);
    let top = *h.iter().max().unwrap();
    f[HEIGHT_F] = top as f64;
    f[TOP_HALF] = top.saturating_sub(10) as f64;
    f[TOP_QUARTER] = top.saturating_sub(15) as f64;
    if mask & 1 << ROW_TRANSITIONS != 0 {
        f[ROW_TRANSITIONS] = row_transitions(board) as f64;
    }
    if mask & 1 << HOLES != 0 {
        f[HOLES] = (0..WIDTH as usize)
            .map(|x| (!board.column(x) & low(h[x])).count_ones())
            .sum::<u32>() as f64;
    }
    if mask & WELL != 0 {
        well_features(board, &h, f);
    }
    if mask & HOLE_SHAPES != 0 {
        let (cavities, overhangs) = cavities_and_overhangs(board, &h);
        f[CAVITY] = cavities as f64;
        f[CAVITY_SQ] = (cavities * cavities) as f64;
        f[OVERHANG] = overhangs as f64;
        f[OVERHANG_SQ] = (overhangs * overhangs) as f64;
    }
    if mask & COVERING != 0 {
        let (covered, covered_sq) = covered_cells(board, &h);
        f[COVERED] = covered as f64;
        f[COVERED_SQ] = covered_sq as f64;
    }
    if mask & TSLOTS != 0 {
        let lines = best_tspin(board);
        for n in 1..=3 {
            f[TSLOT + n - 1] = (lines == n as u32) as u32 as f64;
        }
    }
}

/// Rows 0..n as a mask.
#[inline]
fn low(n: u32) -> u64 {
    if n >= 64 { !0 } else { (1u64 << n) - 1 }
}

/// Changes between filled and empty along each of the 40 rows, the walls filled (Cold
/// Clear's count: an empty row counts 2).
fn row_transitions(board: &Board) -> u32 {
    // Across columns: a transition between x and x + 1 is a row bit set in one and not the
    // other; the walls are filled columns.
    let all = low(HEIGHT as u32);
    let mut count = 0;
    let mut prev = all;
    for x in 0..WIDTH as usize {
        let c = board.column(x);
        count += (prev ^ c).count_ones();
        prev = c;
    }
    count + (prev ^ all).count_ones()
}

/// The well (the lowest column, the rightmost of equals, as Cold Clear picks it), its depth
/// (rows above its top filled in every other column, at most [`MAX_WELL_DEPTH`]), its column
/// (one-hot, when it has depth), and the bumpiness of the other columns.
fn well_features(
    board: &Board,
    h: &[u32; WIDTH as usize],
    f: &mut [f64; stacktune_game::MAX_FEATURES],
) {
    let mut well = 0;
    for x in 1..WIDTH as usize {
        if h[x] <= h[well] {
            well = x;
        }
    }
    let others = (0..WIDTH as usize)
        .filter(|&x| x != well)
        .fold(low(VISIBLE_ROWS), |acc, x| acc & board.column(x));
    let depth = ((others >> h[well]).trailing_ones()).min(MAX_WELL_DEPTH);
    f[WELL_DEPTH] = depth as f64;
    for x in 0..WIDTH as usize {
        f[WELL_COLUMN + x] = (depth > 0 && x == well) as u32 as f64;
    }
    let (mut bump, mut bump_sq) = (0u32, 0u32);
    let mut prev: Option<u32> = None;
    for (x, &height) in h.iter().enumerate() {
        if x == well {
            continue;
        }
        if let Some(p) = prev {
            let d = p.abs_diff(height);
            bump += d;
            bump_sq += d * d;
        }
        prev = Some(height);
    }
    f[BUMPINESS] = bump as f64;
    f[BUMPINESS_SQ] = bump_sq as f64;
}

/// Rows a well is counted in (Cold Clear counts up to the visible top).
const VISIBLE_ROWS: u32 = 20;

/// Empty cells under their column's top, told apart as Cold Clear does: an overhang is open
/// to the side (the column next to it is at least a row lower and the one past that no
/// higher than the cell), a cavity is closed in.
fn cavities_and_overhangs(board: &Board, h: &[u32; WIDTH as usize]) -> (u32, u32) {
    let (mut cavities, mut overhangs) = (0, 0);
    let w = WIDTH as usize;
    for x in 0..w {
        let holes = !board.column(x) & low(h[x]);
        if holes == 0 {
            continue;
        }
        // Rows y with h[x−1] ≤ y − 1 and h[x−2] ≤ y: y ≥ max(h[x−1] + 1, h[x−2]).
        let open = |near: usize, far: usize| !low((h[near] + 1).max(h[far]));
        let mut side = 0u64;
        if x > 1 {
            side |= open(x - 1, x - 2);
        }
        if x + 2 < w {
            side |= open(x + 1, x + 2);
        }
        let o = (holes & side).count_ones();
        overhangs += o;
        cavities += holes.count_ones() - o;
    }
    (cavities, overhangs)
}

/// Cold Clear's covered cells: for each empty cell at least three rows under its column's
/// top, the rows above it to the top, at most 6; and the sum of their squares.
fn covered_cells(board: &Board, h: &[u32; WIDTH as usize]) -> (u32, u32) {
    let (mut covered, mut covered_sq) = (0, 0);
    for (x, &height) in h.iter().enumerate() {
        let mut holes = !board.column(x) & low(height.saturating_sub(2));
        while holes != 0 {
            let y = holes.trailing_zeros();
            holes &= holes - 1;
            let cells = (height - y - 1).min(6);
            covered += cells;
            covered_sq += cells * cells;
        }
    }
    (covered, covered_sq)
}

/// The most lines a full T-spin of a T reachable on `board` clears (0 when none clears any):
/// the T-slots the board offers, found by the move generator itself rather than by patterns,
/// under the guideline's movement whatever the rules (so the feature reads alike in both).
pub fn best_tspin(board: &Board) -> u32 {
    let mut best = 0;
    movegen::placements(board, T, &Movement::default(), |p| {
        if p.spin == Spin::Full {
            let cells = p.pose.cells();
            let full = (0..WIDTH as usize).fold(low(HEIGHT as u32), |rows, x| {
                let own = cells
                    .iter()
                    .filter(|&&(cx, _)| cx as usize == x)
                    .fold(0u64, |m, &(_, cy)| m | 1 << cy);
                rows & (board.column(x) | own)
            });
            best = best.max(full.count_ones());
        }
    });
    best
}

//! The contest ruleset's features: the research Tetris features under their own names, on the
//! contest's 10 × 22 board, then what the contest's scoring and hold add.

use super::rules::{HEIGHT, I, Landing, Shape, WIDTH};
use crate::tetris::board::{
    Board, ERODED_PIECE_CELLS, FEATURE_NAMES as RESEARCH, HOLES, LANDING_HEIGHT, LINES_CLEARED,
    MOVE_FEATURES,
};
use stacktune_game::{FeatureMask, FeatureValues};

/// What this ruleset adds to the research features.
const EXTRA: [&str; 13] = [
    "clears_1",
    "clears_2",
    "clears_3",
    "clears_4",
    "move_score",
    "drop_bonus",
    "holes_created",
    "deepest_well",
    "i_held",
    "game_over",
    "almost_full_rows",
    "spawn_height",
    "endgame_cells",
];

const COUNT: usize = RESEARCH.len() + EXTRA.len();
const _: () = assert!(COUNT <= stacktune_game::MAX_FEATURES);

/// Research names first, at the research indices, so their values are written in place.
pub const FEATURE_NAMES: [&str; COUNT] = {
    let mut out = [""; COUNT];
    let mut i = 0;
    while i < COUNT {
        out[i] = if i < RESEARCH.len() {
            RESEARCH[i]
        } else {
            EXTRA[i - RESEARCH.len()]
        };
        i += 1;
    }
    out
};

const CLEARS_1: usize = RESEARCH.len();
const MOVE_SCORE: usize = CLEARS_1 + 4;
const DROP_BONUS: usize = MOVE_SCORE + 1;
const HOLES_CREATED: usize = DROP_BONUS + 1;
const DEEPEST_WELL: usize = HOLES_CREATED + 1;
const I_HELD: usize = DEEPEST_WELL + 1;
const GAME_OVER: usize = I_HELD + 1;
const ALMOST_FULL_ROWS: usize = GAME_OVER + 1;
const SPAWN_HEIGHT: usize = ALMOST_FULL_ROWS + 1;
const ENDGAME_CELLS: usize = SPAWN_HEIGHT + 1;
/// The last turns over which `endgame_cells` grows from nothing to the whole stack.
const ENDGAME_TURNS: u32 = 30;
/// The columns every piece covers at the spawn: a spawn fails when one is stacked to the top.
const SPAWN_COLUMNS: std::ops::Range<usize> = 4..7;

/// The research board features (those the research board computes on its own).
const BOARD_FEATURES: FeatureMask = ((1 << RESEARCH.len()) - 1) & !MOVE_FEATURES;

/// One placement as the features see it.
pub struct Placed<'a> {
    /// The piece's shape and where it locked; `None` for an empty-hold turn.
    pub landing: Option<(&'a Shape, Landing)>,
    /// Rows removed, as bits of the board before removal.
    pub full: u64,
    pub points: i32,
    pub game_over: bool,
    pub hold: u8,
    /// Turns the game has left after this one, of its own limit (180 at levels 1-3, `--turns`
    /// at level 4).
    pub turns_left: u32,
}

/// What features need of the board before the move, computed once per position, and the
/// features wanted.
#[derive(Clone, Copy, Default)]
pub struct Before {
    pub mask: FeatureMask,
    holes: f64,
}

impl Before {
    pub fn of(board: &Board, mask: FeatureMask) -> Before {
        let mut before = Before {
            mask,
            ..Before::default()
        };
        if mask & 1 << HOLES_CREATED != 0 {
            let mut v = FeatureValues::default();
            board.features(1 << HOLES, &mut v);
            before.holes = v.0[HOLES];
        }
        before
    }
}

/// The research board features that `mask` needs computed: its own, and `holes` for
/// `holes_created`.
#[inline(always)]
pub fn research_mask(mask: FeatureMask) -> FeatureMask {
    let mut board_mask = mask & BOARD_FEATURES;
    if mask & 1 << HOLES_CREATED != 0 {
        board_mask |= 1 << HOLES;
    }
    board_mask
}

/// Writes the features in `before.mask` of a placement that left `board` (before any game-over reset).
#[inline]
pub fn compute(board: &Board, placed: &Placed, before: &Before, out: &mut FeatureValues) {
    let mask = before.mask;
    let board_mask = research_mask(mask);
    if board_mask != 0 {
        board.features(board_mask, out);
    }
    let lines = placed.full.count_ones();
    if mask & MOVE_FEATURES != 0 {
        let (height, eroded) = match placed.landing {
            Some((shape, landing)) => {
                let (top, bottom) = shape
                    .cells
                    .iter()
                    .fold((i8::MAX, i8::MIN), |(t, b), c| (t.min(c.1), b.max(c.1)));
                // Row of the bottom cell counted from the floor, as the research rules count.
                let bottom_row = HEIGHT as i32 - 1 - (landing.y + bottom as i32);
                let in_full = shape
                    .cells
                    .iter()
                    .filter(|c| {
                        placed.full >> (HEIGHT as i32 - 1 - (landing.y + c.1 as i32)) & 1 == 1
                    })
                    .count() as u32;
                (
                    bottom_row as f64 + (bottom - top) as f64 / 2.0,
                    lines * in_full,
                )
            }
            None => (0.0, 0),
        };
        out.0[LANDING_HEIGHT] = height;
        out.0[ERODED_PIECE_CELLS] = eroded as f64;
        out.0[LINES_CLEARED] = lines as f64;
    }
    extras(board, placed, before, out);
}

/// Writes this ruleset's own features in `before.mask`, the research ones (`holes` among them when
/// `holes_created` is wanted) being in `out` already.
#[inline(always)]
pub fn extras(board: &Board, placed: &Placed, before: &Before, out: &mut FeatureValues) {
    let mask = before.mask;
    let lines = placed.full.count_ones();
    for size in 1..=4 {
        out.0[CLEARS_1 + size - 1] = (lines as usize == size) as u8 as f64;
    }
    out.0[MOVE_SCORE] = placed.points as f64;
    out.0[DROP_BONUS] = placed.landing.map_or(0, |(_, l)| l.drop) as f64;
    if mask & 1 << HOLES_CREATED != 0 {
        out.0[HOLES_CREATED] = out.0[HOLES] - before.holes;
    }
    if mask & 1 << DEEPEST_WELL != 0 {
        out.0[DEEPEST_WELL] = deepest_well(board) as f64;
    }
    out.0[I_HELD] = (placed.hold == I) as u8 as f64;
    out.0[GAME_OVER] = placed.game_over as u8 as f64;
    if mask & 1 << ALMOST_FULL_ROWS != 0 {
        out.0[ALMOST_FULL_ROWS] = almost_full_rows(board) as f64;
    }
    if mask & 1 << SPAWN_HEIGHT != 0 {
        out.0[SPAWN_HEIGHT] = SPAWN_COLUMNS.map(|x| height(board, x)).max().unwrap_or(0) as f64;
    }
    if mask & 1 << ENDGAME_CELLS != 0 {
        out.0[ENDGAME_CELLS] = endgame_cells(board, placed.turns_left);
    }
}

/// The stack's cells, weighed more the nearer the end: cells still on the board after the
/// last turn score nothing, so a stack built for a four-line clear that the remaining turns
/// cannot finish is worth less than its shape says. Nothing until the last
/// [`ENDGAME_TURNS`], then growing linearly to the whole stack after the last turn.
fn endgame_cells(board: &Board, turns_left: u32) -> f64 {
    let near = ENDGAME_TURNS.saturating_sub(turns_left);
    if near == 0 {
        return 0.0;
    }
    f64::from(board.cell_count()) * f64::from(near) / f64::from(ENDGAME_TURNS)
}

/// Rows above the floor of a column: the index of its top cell + 1.
#[inline(always)]
fn height(board: &Board, x: usize) -> u32 {
    64 - board.column(x).leading_zeros()
}

/// Rows missing exactly one cell: what one more piece may clear.
fn almost_full_rows(board: &Board) -> u32 {
    let rows = (1u64 << HEIGHT) - 1;
    // Bit-sliced count of empty cells per row, saturating at two.
    let (mut one, mut two) = (0u64, 0u64);
    for x in 0..WIDTH {
        let empty = !board.column(x) & rows;
        two |= one & empty;
        one |= empty;
    }
    (one & !two).count_ones()
}

/// The depth of the deepest well: how far a column lies below the lower of its neighbours
/// (the walls count as the full height).
fn deepest_well(board: &Board) -> u32 {
    let mut deepest = 0;
    let mut left = HEIGHT as u32;
    for x in 0..WIDTH {
        let h = height(board, x);
        let right = if x + 1 < WIDTH {
            height(board, x + 1)
        } else {
            HEIGHT as u32
        };
        deepest = deepest.max(left.min(right).saturating_sub(h));
        left = h;
    }
    deepest
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn research_names_keep_their_indices() {
        assert_eq!(FEATURE_NAMES[..RESEARCH.len()], RESEARCH);
        assert_eq!(FEATURE_NAMES[GAME_OVER], "game_over");
    }

    #[test]
    fn deepest_well_counts_walls_as_full() {
        let mut board = Board::empty(WIDTH, HEIGHT);
        for x in 1..WIDTH {
            board.fill(x, 0b111);
        }
        // Column 0 is empty between the wall and a stack of three.
        assert_eq!(deepest_well(&board), 3);
        assert_eq!(almost_full_rows(&board), 3);
        board.fill(0, 0b1);
        assert_eq!(almost_full_rows(&board), 2);
        board.fill(3, 0b1000);
        assert_eq!(almost_full_rows(&board), 2);
    }

    #[test]
    fn endgame_cells_grow_over_the_last_thirty_turns() {
        let mut board = Board::empty(WIDTH, HEIGHT);
        for x in 1..WIDTH {
            board.fill(x, 0b111);
        }
        board.fill(0, 0b100);
        // 28 cells on the board.
        assert_eq!(endgame_cells(&board, 180), 0.0);
        assert_eq!(endgame_cells(&board, 30), 0.0);
        assert_eq!(endgame_cells(&board, 15), 14.0);
        assert_eq!(endgame_cells(&board, 6), 28.0 * 24.0 / 30.0);
        assert_eq!(endgame_cells(&board, 0), 28.0);
        // A level-4 game's own limit: far from its end, nothing.
        assert_eq!(endgame_cells(&board, 179_000), 0.0);
    }
}

//! The Tetris board as one bit mask per column, and its features.
//!
//! Columns (bit r = row r, row 0 at the bottom) make a drop a shift and an OR, a column height a
//! leading-zero count, and every transition, hole and well count a handful of popcounts, which
//! is what makes the player fast (the papers' simulator used rows; columns suit drop-from-above).
//!
//! Every feature is a fold of per-column shares, so the drops of one piece ([`DropBase`]) tally
//! the board once and then recompute only the few columns each drop touches; a drop that clears
//! rows moves every column and is tallied afresh.

use super::pieces::Drop;
use stacktune_game::{FeatureMask, FeatureValues};
use std::ops::Range;

/// Widest board supported: one `u64` per column in a fixed array.
pub const MAX_WIDTH: usize = 16;
/// Narrowest board supported: every piece must fit in at least one column position.
pub const MIN_WIDTH: usize = 4;
/// Tallest board supported: a column is one `u64`.
pub const MAX_HEIGHT: usize = 64;
/// Lowest board supported.
pub const MIN_HEIGHT: usize = 4;

/// Feature names in their internal order.
pub const FEATURE_NAMES: [&str; 13] = [
    "landing_height",
    "eroded_piece_cells",
    "lines_cleared",
    "row_transitions",
    "column_transitions",
    "holes",
    "cumulative_wells",
    "hole_depth",
    "rows_with_holes",
    "pattern_diversity",
    "aggregate_height",
    "bumpiness",
    "max_height",
];

pub const LANDING_HEIGHT: usize = 0;
pub const ERODED_PIECE_CELLS: usize = 1;
pub const LINES_CLEARED: usize = 2;
const ROW_TRANSITIONS: usize = 3;
const COLUMN_TRANSITIONS: usize = 4;
pub const HOLES: usize = 5;
const CUMULATIVE_WELLS: usize = 6;
const HOLE_DEPTH: usize = 7;
const ROWS_WITH_HOLES: usize = 8;
const PATTERN_DIVERSITY: usize = 9;
const AGGREGATE_HEIGHT: usize = 10;
const BUMPINESS: usize = 11;
const MAX_HEIGHT_FEATURE: usize = 12;

/// Features that depend on the move, not only on the board it leaves.
pub const MOVE_FEATURES: FeatureMask =
    1 << LANDING_HEIGHT | 1 << ERODED_PIECE_CELLS | 1 << LINES_CLEARED;

const fn bit(feature: usize) -> FeatureMask {
    1 << feature
}

/// A W × H board: one bit mask per column, unused columns zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    cols: [u64; MAX_WIDTH],
    width: u8,
    height: u8,
}

/// What dropping a piece did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Landing {
    /// Some cell of the piece lies at row ≥ H (checked before rows are removed).
    pub topout: bool,
    /// Rows removed.
    pub lines: u32,
    /// Rows removed × cells of the piece inside them.
    pub eroded: u32,
    /// Row of the piece's bottom cell + (piece height − 1) / 2.
    pub landing_height: f64,
}

impl Landing {
    /// Writes the move features of a drop that did not top out.
    #[inline(always)]
    fn write(&self, out: &mut FeatureValues) {
        out.0[LANDING_HEIGHT] = self.landing_height;
        out.0[ERODED_PIECE_CELLS] = self.eroded as f64;
        out.0[LINES_CLEARED] = self.lines as f64;
    }

    /// What a drop with its bottom row at `y` did, the rows `full` (none if it tops out)
    /// being removed.
    #[inline(always)]
    fn of(drop: &Drop, y: u32, topout: bool, full: u64) -> Landing {
        let mut landing = Landing {
            topout,
            lines: 0,
            eroded: 0,
            landing_height: y as f64 + drop.mid_row,
        };
        if full != 0 {
            // Not a top-out, so y + rows ≤ H ≤ 64 and the shift stays inside the word.
            let piece_cells: u32 = drop
                .masks
                .iter()
                .map(|m| ((m << y) & full).count_ones())
                .sum();
            landing.lines = full.count_ones();
            landing.eroded = landing.lines * piece_cells;
        }
        landing
    }
}

impl Board {
    /// An empty board. The caller checks the size against the MIN/MAX constants.
    pub fn empty(width: usize, height: usize) -> Board {
        debug_assert!((MIN_WIDTH..=MAX_WIDTH).contains(&width));
        debug_assert!((MIN_HEIGHT..=MAX_HEIGHT).contains(&height));
        Board {
            cols: [0; MAX_WIDTH],
            width: width as u8,
            height: height as u8,
        }
    }

    /// A board from rows given TOP first, `true` = filled. Full rows are kept as they are.
    pub fn from_rows(rows: &[Vec<bool>]) -> Board {
        let height = rows.len();
        let width = rows.first().map_or(0, |r| r.len());
        let mut board = Board::empty(width, height);
        for (top_index, row) in rows.iter().enumerate() {
            let y = height - 1 - top_index;
            for (x, &filled) in row.iter().enumerate() {
                if filled {
                    board.cols[x] |= 1 << y;
                }
            }
        }
        board
    }

    pub fn width(&self) -> usize {
        self.width as usize
    }

    pub fn height(&self) -> usize {
        self.height as usize
    }

    /// Whether cell (x, y) is filled, y = 0 at the bottom.
    pub fn filled(&self, x: usize, y: usize) -> bool {
        self.cols[x] >> y & 1 == 1
    }

    /// Rows TOP first, `#` filled and `.` empty: the form board files and `moves` use.
    pub fn to_rows(&self) -> Vec<String> {
        (0..self.height())
            .rev()
            .map(|y| {
                (0..self.width())
                    .map(|x| if self.filled(x, y) { '#' } else { '.' })
                    .collect()
            })
            .collect()
    }

    /// The rows framed for the terminal: a wall each side and the floor.
    pub fn framed(&self) -> String {
        let mut s = String::new();
        for row in self.to_rows() {
            s.push('|');
            s.push_str(&row);
            s.push_str("|\n");
        }
        s.push('+');
        s.push_str(&"-".repeat(self.width()));
        s.push_str("+\n");
        s
    }

    /// Filled cells on the board.
    pub fn cell_count(&self) -> u32 {
        self.cols.iter().map(|c| c.count_ones()).sum()
    }

    #[inline]
    fn rows_mask(&self) -> u64 {
        u64::MAX >> (64 - self.height as u32)
    }

    /// Row of the piece's bottom row: the lowest at which every covered column clears the stack.
    /// `span` is the drop's, passed apart so that a constant one unrolls the loops.
    #[inline(always)]
    fn landing_row(&self, drop: &Drop, span: usize) -> u32 {
        let x0 = drop.column as usize;
        let mut y = 0u32;
        for j in 0..span {
            let need = column_height(self.cols[x0 + j]).saturating_sub(drop.bottoms[j] as u32);
            y = y.max(need);
        }
        y
    }

    /// ORs the piece's `cells` in each covered column into the board.
    #[inline(always)]
    fn put_cells(&mut self, drop: &Drop, cells: &[u64]) {
        let x0 = drop.column as usize;
        // One bounds check for the covered columns, not one per column.
        for (col, cell) in self.cols[x0..x0 + cells.len()].iter_mut().zip(cells) {
            *col |= cell;
        }
    }

    /// Places the piece with its bottom row at `y`; a piece that tops out keeps only its cells
    /// inside the board.
    #[inline(always)]
    fn place(&mut self, drop: &Drop, y: u32, span: usize, topout: bool) {
        let rows = self.rows_mask();
        let cells = drop.masks.map(|mask| {
            // Unless the piece tops out, y + rows ≤ H ≤ 64: the cells are all inside the board.
            if topout {
                mask.checked_shl(y).unwrap_or(0) & rows
            } else {
                mask << y
            }
        });
        self.put_cells(drop, &cells[..span]);
    }

    /// Whether dropping the piece would top out, without dropping it.
    #[inline]
    pub fn would_top_out(&self, drop: &Drop) -> bool {
        self.tops_out(drop, self.landing_row(drop, drop.span as usize))
    }

    /// Whether a piece with its bottom row at `y` has a cell at row ≥ H.
    #[inline(always)]
    fn tops_out(&self, drop: &Drop, y: u32) -> bool {
        y + drop.rows as u32 > self.height as u32
    }

    /// Drops a piece straight down from above, then removes full rows. A drop that tops out
    /// still places the cells that fit, so the board stays drawable; the caller decides.
    #[inline(always)]
    pub fn drop_piece(&mut self, drop: &Drop) -> Landing {
        let span = drop.span as usize;
        let y = self.landing_row(drop, span);
        let topout = self.tops_out(drop, y);
        self.place(drop, y, span, topout);
        let full = if topout { 0 } else { self.full_rows() };
        if full != 0 {
            self.remove_rows(full);
        }
        Landing::of(drop, y, topout, full)
    }

    /// Rows up to the highest filled cell of any column: the height a top-out is near.
    #[inline]
    pub fn stack_height(&self) -> u32 {
        column_height(
            self.cols[..self.width as usize]
                .iter()
                .fold(0, |all, &c| all | c),
        )
    }

    /// The full rows, as a mask of row bits.
    #[inline]
    pub fn full_rows(&self) -> u64 {
        self.cols[..self.width as usize]
            .iter()
            .fold(self.rows_mask(), |full, &c| full & c)
    }

    /// Column `x` as a mask, bit r = row r from the bottom: what rules with their own moves
    /// (the contest's) test cells against.
    #[inline(always)]
    pub fn column(&self, x: usize) -> u64 {
        self.cols[x]
    }

    /// Fills the cells of column `x` set in `rows`.
    #[inline(always)]
    pub fn fill(&mut self, x: usize, rows: u64) {
        self.cols[x] |= rows;
    }

    /// Moves every cell up `rows` rows (rows come in from the bottom, empty), and says whether
    /// a filled cell was pushed past the top: versus Tetris's garbage rising under a stack.
    pub fn raise(&mut self, rows: u32) -> bool {
        let (keep, height) = (self.rows_mask(), self.height as u32);
        let mut lost = false;
        for col in &mut self.cols[..self.width as usize] {
            // The cells at rows ≥ height − rows leave the board.
            lost |= col.checked_shr(height.saturating_sub(rows)).unwrap_or(0) != 0;
            *col = col.checked_shl(rows).unwrap_or(0) & keep;
        }
        lost
    }

    /// Removes the rows set in `full`; everything above moves down.
    pub fn remove_rows(&mut self, full: u64) {
        let width = self.width as usize;
        let mut rows = full;
        while rows != 0 {
            // Highest first, so lower row indices stay valid.
            let r = 63 - rows.leading_zeros();
            rows &= !(1u64 << r);
            let low = (1u64 << r) - 1;
            for col in &mut self.cols[..width] {
                *col = (*col & low) | ((*col >> 1) & !low);
            }
        }
    }

    /// The columns between walls, see [`Padded`].
    #[inline(always)]
    fn padded(&self) -> Padded {
        let (width, rows) = (self.width as usize, self.rows_mask());
        let mut padded = [rows; PADDED];
        padded[PAD..PAD + width].copy_from_slice(&self.cols[..width]);
        padded
    }

    /// Computes the board features selected by `mask` into `out` (move features excluded).
    #[inline]
    pub fn features(&self, mask: FeatureMask, out: &mut FeatureValues) {
        Tally::over(&self.padded(), self, mask, |_, _, _| {}).write(mask, out);
    }
}

/// Rows below and including the top filled cell of a column.
#[inline(always)]
fn column_height(col: u64) -> u32 {
    64 - col.leading_zeros()
}

/// Mask of the rows below `height`.
#[inline(always)]
fn below(height: u32) -> u64 {
    if height == 0 {
        0
    } else {
        u64::MAX >> (64 - height)
    }
}

/// Columns with walls around them: [`PAD`] full columns on the left, the board's columns, and
/// full columns to the end. Walls count as filled for transitions and wells, so no share needs a
/// case for the edge, and the window of a drop at any column stays inside.
type Padded = [u64; PADDED];
/// Walls left of the board in [`Padded`]: a site looks one column further than its neighbour.
const PAD: usize = 2;
/// Columns copied for a drop: the sites it can change (the ≤ 4 columns it covers and one
/// neighbour each side) and their neighbours.
const WINDOW: usize = 8;
/// Enough columns for the window of a drop at any column.
const PADDED: usize = MAX_WIDTH - 1 + WINDOW;

/// Well cells of column `c` between `left` and `right`: every empty cell with both neighbours
/// filled counts 1 + the empty cells directly below it. `under_top` masks the rows up to the
/// column's top, which callers already know.
#[inline(always)]
fn wells(left: u64, c: u64, under_top: u64, right: u64, rows: u64) -> u32 {
    // Neighbours (walls included) have no cells outside the board's rows.
    let cells = left & right & !c;
    // Usually none, or one run straight up from the column's top: 1 + 2 + … + n. Adding the
    // bit just above the top clears such a run, and there are no cells below it.
    let above_top = under_top.wrapping_add(1);
    if cells & (cells.wrapping_add(above_top) | under_top) == 0 {
        return triangle(cells.count_ones());
    }
    well_depths(cells, c, rows)
}

/// Σ over the well cells `cells` of column `c` of 1 + the empty cells directly below each:
/// depth by depth, the cells whose empty run reaches that far down.
#[inline(always)]
fn well_depths(cells: u64, c: u64, rows: u64) -> u32 {
    let empty = !c & rows;
    let mut sum = 0;
    let mut reach = cells;
    while reach != 0 {
        sum += reach.count_ones();
        reach = (reach >> 1) & empty;
    }
    sum
}

/// Whether the set rows of `rows` (some) are one unbroken block.
#[inline(always)]
fn one_block(rows: u64) -> bool {
    let from_bottom = rows >> rows.trailing_zeros();
    from_bottom & from_bottom.wrapping_add(1) == 0
}

/// For each set of the four rows 0..4 of a piece, Σ (row + 1) over the set.
const RUN_ROWS: [u8; 16] = {
    let mut sums = [0; 16];
    let mut set = 0;
    while set < 16 {
        let mut row = 0;
        while row < 4 {
            sums[set] += ((set >> row & 1) * (row + 1)) as u8;
            row += 1;
        }
        set += 1;
    }
    sums
};

/// 1 + 2 + … + n: the wells of a run of `n` well cells straight up from the bottom of an
/// empty stretch.
#[inline(always)]
fn triangle(n: u32) -> u32 {
    n * (n + 1) / 2
}

/// Empty cells below the top of a column.
#[inline(always)]
fn hole_bits(c: u64) -> u64 {
    !c & below(column_height(c))
}

/// Holes in column `c` of height `height`: empty cells below its top.
#[inline(always)]
fn holes(c: u64, height: u32) -> u32 {
    height - c.count_ones()
}

/// Transitions between filled and empty cells up a column, the floor filled and the row above
/// row 63 empty.
#[inline(always)]
fn column_transitions(c: u64) -> u32 {
    (((c << 1) | 1) ^ c).count_ones() + (c >> 63) as u32
}

/// Filled cells of the runs sitting directly on a hole.
#[inline(always)]
fn hole_depth(c: u64) -> u32 {
    let mut depth = 0;
    let mut starts = c & (hole_bits(c) << 1);
    while starts != 0 {
        let r = starts.trailing_zeros();
        starts &= starts - 1;
        depth += (c >> r).trailing_ones();
    }
    depth
}

/// Bits of each count in the [`PATTERN_DIVERSITY`] sum, see [`Tally`].
const STEP_BITS: u32 = 4;

/// A height difference as a count of one in its pattern-diversity slot.
#[inline(always)]
fn step_count(d: i32) -> u32 {
    if d.abs() <= 2 {
        1 << (STEP_BITS as i32 * (d + 2))
    } else {
        0
    }
}

/// How many of the five height differences −2..=2 occur, from their packed counts.
#[inline(always)]
fn distinct_steps(steps: u32) -> u32 {
    let mut any = steps;
    for shift in 1..STEP_BITS {
        any |= steps >> shift;
    }
    let lowest = (0..5).fold(0, |m, k| m | 1 << (STEP_BITS * k));
    (any & lowest).count_ones()
}

/// The additive features, in the order of [`Tally::sums`]. Pattern diversity is last: its
/// sum is a count per height difference, see [`step_count`].
const SUMS: [usize; 8] = [
    ROW_TRANSITIONS,
    COLUMN_TRANSITIONS,
    HOLES,
    CUMULATIVE_WELLS,
    HOLE_DEPTH,
    AGGREGATE_HEIGHT,
    BUMPINESS,
    PATTERN_DIVERSITY,
];
/// Where pattern diversity's counts are in [`SUMS`].
const SUM_STEPS: usize = 7;
/// The slots of [`SUMS`] a drop recomputes site by site (row transitions, wells, bumpiness,
/// height steps), so [`DropBase`] keeps their running sums; the others follow from the gaps.
const TRADED: [usize; 4] = [0, 3, 6, SUM_STEPS];
/// The sums of Dellacherie's board features, first in [`SUMS`]; the rest are skipped together
/// when a weight set uses none of [`EXTRA_FEATURES`].
const DELLACHERIE_SUMS: usize = 4;
/// Board features beyond Dellacherie's.
const EXTRA_FEATURES: FeatureMask = bit(HOLE_DEPTH)
    | bit(ROWS_WITH_HOLES)
    | bit(PATTERN_DIVERSITY)
    | bit(AGGREGATE_HEIGHT)
    | bit(BUMPINESS)
    | bit(MAX_HEIGHT_FEATURE);

/// How many of [`SUMS`] the features in `mask` need.
#[inline(always)]
fn sums_used(mask: FeatureMask) -> usize {
    if mask & EXTRA_FEATURES == 0 {
        DELLACHERIE_SUMS
    } else {
        SUMS.len()
    }
}

/// The board features as a fold over sites, each site contributing its share: additive
/// features are sums (pattern diversity too, as a count per height difference, [`STEP_BITS`]
/// bits each for at most 15 neighbour pairs), rows with holes an OR, the maximum height a max.
/// A drop changes only the shares of the sites next to the columns it covers, so
/// [`DropBase`] tallies the board once per piece and then trades a few sites' shares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Tally {
    /// Indexed like [`SUMS`].
    sums: [u32; 8],
    hole_rows: u64,
    max_height: u32,
}

impl Tally {
    /// The tally of no site.
    const NONE: Tally = Tally {
        sums: [0; 8],
        hole_rows: 0,
        max_height: 0,
    };

    /// The features of a whole board, one pass over its columns between walls (`padded`):
    /// `running` sees each site, its height and the sums up to and including it (the wall on the
    /// right is as high as the board). Dellacherie's sums are cheap and always taken; wells and
    /// the extra features only when `mask` wants them.
    #[inline(always)]
    fn over(
        padded: &Padded,
        board: &Board,
        mask: FeatureMask,
        mut running: impl FnMut(usize, u32, &[u32; 8]),
    ) -> Tally {
        let mut t = Tally::NONE;
        let (width, rows) = (board.width(), board.rows_mask());
        let mut left_height = 0;
        for k in PAD..PAD + width {
            let (left, c, right) = (padded[k - 1], padded[k], padded[k + 1]);
            let height = column_height(c);
            let sums = &mut t.sums;
            sums[0] += (left ^ c).count_ones();
            sums[1] += column_transitions(c);
            sums[2] += holes(c, height);
            if mask & bit(CUMULATIVE_WELLS) != 0 {
                sums[3] += wells(left, c, below(height), right, rows);
            }
            if mask & EXTRA_FEATURES != 0 {
                sums[4] += hole_depth(c);
                sums[5] += height;
                if k > PAD {
                    let step = height as i32 - left_height as i32;
                    sums[6] += step.unsigned_abs();
                    sums[7] += step_count(step);
                }
                t.hole_rows |= hole_bits(c);
                t.max_height = t.max_height.max(height);
                left_height = height;
            }
            running(k, height, sums);
        }
        // The wall on the right: only the row transitions across its edge.
        let k = PAD + width;
        t.sums[0] += (padded[k - 1] ^ padded[k]).count_ones();
        running(k, board.height as u32, &t.sums);
        t
    }

    /// Writes the features in `mask` (move features excluded).
    #[inline(always)]
    fn write(&self, mask: FeatureMask, out: &mut FeatureValues) {
        for (&sum, &feature) in self.sums.iter().zip(&SUMS).take(sums_used(mask)) {
            if mask & bit(feature) != 0 {
                out.0[feature] = sum as f64;
            }
        }
        if mask & EXTRA_FEATURES == 0 {
            return;
        }
        if mask & bit(PATTERN_DIVERSITY) != 0 {
            out.0[PATTERN_DIVERSITY] = distinct_steps(self.sums[SUM_STEPS]) as f64;
        }
        if mask & bit(ROWS_WITH_HOLES) != 0 {
            out.0[ROWS_WITH_HOLES] = self.hole_rows.count_ones() as f64;
        }
        if mask & bit(MAX_HEIGHT_FEATURE) != 0 {
            out.0[MAX_HEIGHT_FEATURE] = self.max_height as f64;
        }
    }
}

/// A board about to receive one piece, tallied once for all of the piece's drops: a drop that
/// clears no line changes only the shares of the sites next to the columns it covers, so its
/// features are the board's tally with those few sites taken out and computed anew, instead
/// of a pass over the whole board per drop.
///
/// Most of a drop's changes follow from the gap it leaves under each covered column (the
/// empty cells between the column's top and the piece, which become holes): holes grow by the
/// gap, column transitions by two per gapped column, hole depth by the piece's cells over a
/// gap or an older hole, heights by the piece's tops. Only row transitions, wells and height
/// steps look at the cells of the sites around the drop.
#[derive(Clone, Debug)]
pub struct DropBase<'a> {
    board: &'a Board,
    mask: FeatureMask,
    padded: Padded,
    /// Heights of the columns of [`Padded`]; walls are as high as the board.
    heights: [u32; PADDED],
    /// The board's rows, kept beside `board` although derivable: deriving it per drop measured
    /// 2 % more instructions (cachegrind), as did filling `padded` with [`Board::padded`]
    /// instead of in [`tally`](DropBase::tally)'s pass.
    rows: u64,
    /// `before[t][i]`: the sum of [`SUMS`]`[`[`TRADED`]`[t]]` over the sites left of column
    /// `i` of [`Padded`]; only row transitions and wells unless `mask` wants extra features.
    before: [[u32; PADDED]; TRADED.len()],
    /// The tally of the whole board.
    total: Tally,
    /// `full_left[x]`: the rows full in every column left of board column `x`.
    full_left: [u64; MAX_WIDTH + 1],
    /// `full_right[x]`: the rows full in board column `x` and every column right of it; three
    /// spare entries so that the compiler sees any column below [`MAX_WIDTH`] plus a span fit.
    full_right: [u64; MAX_WIDTH + 4],
    /// Bit `x`: board column `x` has a hole, so its top run sits on one and cells stacked
    /// onto it deepen that hole.
    holed: u32,
}

impl<'a> DropBase<'a> {
    /// Prepares `board` for drops whose features in `mask` (move features excluded) are wanted;
    /// [`tally`](DropBase::tally) finishes it. Two steps because a value this large, finished
    /// inside a constructor and moved out, is a copy that shows in the per-piece cost.
    #[inline(always)]
    pub fn new(board: &'a Board, mask: FeatureMask) -> DropBase<'a> {
        let rows = board.rows_mask();
        DropBase {
            board,
            mask,
            padded: [rows; PADDED],
            heights: [board.height as u32; PADDED],
            rows,
            // Left of the board, walls stand next to walls: no share.
            before: [[0; PADDED]; TRADED.len()],
            total: Tally::NONE,
            full_left: [rows; MAX_WIDTH + 1],
            full_right: [rows; MAX_WIDTH + 4],
            holed: 0,
        }
    }

    /// Tallies the board, in place, and lends the finished base for its drops.
    #[inline(always)]
    pub fn tally(&mut self) -> &Self {
        let (board, width) = (self.board, self.board.width());
        for (x, &c) in board.cols[..width].iter().enumerate() {
            self.padded[PAD + x] = c;
            self.full_left[x + 1] = self.full_left[x] & c;
        }
        for x in (0..width).rev() {
            self.full_right[x] = self.full_right[x + 1] & board.cols[x];
        }
        let (padded, heights, holed, before) = (
            &self.padded,
            &mut self.heights,
            &mut self.holed,
            &mut self.before,
        );
        let extra = self.mask & EXTRA_FEATURES != 0;
        // The tally's pass also fills in the heights and holes it works out anyway.
        self.total = Tally::over(padded, board, self.mask, |k, height, sums| {
            heights[k] = height;
            // Bumpiness and height steps are traded, and holes deepened, for extra features
            // only; their sums stay 0 otherwise.
            let traded = if extra { TRADED.len() } else { 2 };
            for (t, &slot) in TRADED.iter().enumerate().take(traded) {
                before[t][k + 1] = sums[slot];
            }
            if extra {
                *holed |= ((holes(padded[k], height) > 0) as u32) << (k - PAD);
            }
        });
        self
    }

    /// Drops a piece like [`Board::drop_piece`] onto `board`, which must hold the board this
    /// was built from (a fresh copy, or one given back by [`undo`](DropBase::undo)), and unless
    /// it tops out writes the features of the board it leaves and the move features (always:
    /// they cost next to nothing, and a drop that clears no rows writes constants) into `out`.
    /// Working in the caller's board lets a caller keep it inside a larger value and undo a
    /// drop by restoring a few columns instead of copying whole boards.
    ///
    /// Without `KEEP` the piece is left on `board` only when it clears rows (their removal
    /// needs it there): a caller that wants the features and not the board saves the writes
    /// and most undos.
    #[inline(always)]
    pub fn drop<const KEEP: bool>(
        &self,
        drop: &Drop,
        board: &mut Board,
        out: &mut FeatureValues,
    ) -> Landing {
        match drop.span {
            1 => self.drop_spanning::<1, KEEP>(drop, board, out),
            2 => self.drop_spanning::<2, KEEP>(drop, board, out),
            3 => self.drop_spanning::<3, KEEP>(drop, board, out),
            _ => self.drop_spanning::<4, KEEP>(drop, board, out),
        }
    }

    /// [`drop`](DropBase::drop) for a piece `SPAN` columns wide: with the span a constant,
    /// every loop over the covered columns and the sites around them unrolls.
    #[inline(always)]
    fn drop_spanning<const SPAN: usize, const KEEP: bool>(
        &self,
        drop: &Drop,
        board: &mut Board,
        out: &mut FeatureValues,
    ) -> Landing {
        let x = drop.column as usize;
        // Always true: lets the compiler drop its checks that the covered sites are columns.
        assert!(x + SPAN <= board.width());
        // The sites around the drop: [`Padded`] from column `x`, so the covered columns are
        // the sites from PAD on.
        let cols: &[u64; WINDOW] = self.padded[x..x + WINDOW].try_into().unwrap();
        let heights: &[u32; WINDOW] = self.heights[x..x + WINDOW].try_into().unwrap();
        let y = (0..SPAN).fold(0, |y, j| {
            y.max(heights[PAD + j].saturating_sub(drop.bottoms[j] as u32))
        });
        if board.tops_out(drop, y) {
            if KEEP {
                board.place(drop, y, SPAN, true);
            }
            return Landing::of(drop, y, true, 0);
        }
        // Not a top-out, so y + rows ≤ H ≤ 64: the cells are all inside the board.
        let runs: [u64; SPAN] = std::array::from_fn(|j| drop.masks[j] << y);
        let covered: [u64; SPAN] = std::array::from_fn(|j| cols[PAD + j] | runs[j]);
        let full = covered
            .iter()
            .fold(self.full_left[x] & self.full_right[x + SPAN], |full, &c| {
                full & c
            });
        let after = || After {
            base: self,
            drop,
            x,
            y,
            cols,
            heights,
            runs,
            covered,
        };
        let landing = Landing::of(drop, y, false, full);
        if full != 0 {
            // Built apart in each branch: one handed to the rare case must be laid out in memory.
            after().clear::<KEEP>(full, board, out);
            landing.write(out);
        } else {
            if KEEP {
                board.put_cells(drop, &runs);
            }
            after().write(out);
            // The same as `landing.write(out)`, with the no rows it cleared as constants.
            out.0[LANDING_HEIGHT] = landing.landing_height;
            out.0[ERODED_PIECE_CELLS] = 0.0;
            out.0[LINES_CLEARED] = 0.0;
        }
        landing
    }

    /// Gives back the board a [`drop`](DropBase::drop) with the same `KEEP` changed: only the
    /// covered columns unless rows were removed (then all of it, whether or not a drop
    /// without `KEEP` wrote it), nothing if neither.
    #[inline(always)]
    pub fn undo<const KEEP: bool>(&self, drop: &Drop, board: &mut Board, landing: &Landing) {
        if landing.lines > 0 {
            *board = *self.board;
        } else if KEEP {
            // Four columns from the first covered one, or the last four: a fixed-size copy,
            // not a call to memcpy.
            let cols = (drop.column as usize).min(MAX_WIDTH - 4)..;
            board.cols[cols.clone()][..4].copy_from_slice(&self.board.cols[cols][..4]);
        }
    }
}

/// The sites around a drop that did not top out, with the piece in place (before any full rows
/// are removed): site `k` is column `x + k` of [`Padded`], so the covered columns are the sites
/// from [`PAD`] on.
struct After<'a, const SPAN: usize> {
    base: &'a DropBase<'a>,
    drop: &'a Drop,
    x: usize,
    /// Row of the piece's bottom row.
    y: u32,
    /// The sites' cells and heights before the drop.
    cols: &'a [u64; WINDOW],
    heights: &'a [u32; WINDOW],
    /// The piece's cells in each covered column: one run, right above the gap.
    runs: [u64; SPAN],
    /// The covered columns after the drop.
    covered: [u64; SPAN],
}

impl<const SPAN: usize> After<'_, SPAN> {
    /// Site `k`'s cells after the drop.
    #[inline(always)]
    fn col(&self, k: usize) -> u64 {
        match k.checked_sub(PAD) {
            Some(j) if j < SPAN => self.covered[j],
            _ => self.cols[k],
        }
    }

    /// Site `k`'s height after the drop; walls are as high as the board.
    #[inline(always)]
    fn height(&self, k: usize) -> u32 {
        match k.checked_sub(PAD) {
            Some(j) if j < SPAN => self.y + self.drop.tops[j] as u32,
            _ => self.heights[k],
        }
    }

    /// The gap under covered column `j`: the empty cells between its old top and the piece,
    /// new holes.
    #[inline(always)]
    fn gap(&self, j: usize) -> u32 {
        self.y + self.drop.bottoms[j] as u32 - self.heights[PAD + j]
    }

    /// The board's sum of [`SUMS`]`[`[`TRADED`]`[t]]` after the drop: the whole board's, with
    /// the shares of `sites` before the drop traded for `new`, theirs after it.
    #[inline(always)]
    fn traded(&self, t: usize, sites: Range<usize>, new: u32) -> u32 {
        let before = &self.base.before[t][self.x..self.x + WINDOW];
        self.base.total.sums[TRADED[t]] - (before[sites.end] - before[sites.start]) + new
    }

    /// Writes the features in the mask (move features excluded) of the board after the drop.
    ///
    /// Most changes follow from the gap under each covered column: holes grow by the gap,
    /// column transitions by two per gapped column, hole depth by the piece's cells over a
    /// gap or an older hole, heights by the piece's tops. Only row transitions, wells and
    /// height steps look at the cells of the sites around the drop.
    #[inline(always)]
    fn write(&self, out: &mut FeatureValues) {
        let mask = self.base.mask;
        let total = &self.base.total;
        let edges = PAD..PAD + SPAN + 1;
        let mut put = |feature: usize, value: u32| out.0[feature] = value as f64;
        if mask & bit(ROW_TRANSITIONS) != 0 {
            let new = edges
                .clone()
                .map(|k| (self.col(k - 1) ^ self.col(k)).count_ones());
            put(ROW_TRANSITIONS, self.traded(0, edges.clone(), new.sum()));
        }
        if mask & (bit(COLUMN_TRANSITIONS) | bit(HOLES)) != 0 {
            // One pass over the gaps for both: (gapped columns, gap cells).
            let (gapped, gaps) = (0..SPAN).fold((0, 0), |(gapped, gaps), j| {
                let gap = self.gap(j);
                (gapped + (gap > 0) as u32, gaps + gap)
            });
            if mask & bit(COLUMN_TRANSITIONS) != 0 {
                put(COLUMN_TRANSITIONS, total.sums[1] + 2 * gapped);
            }
            if mask & bit(HOLES) != 0 {
                put(HOLES, total.sums[2] + gaps);
            }
        }
        if mask & bit(CUMULATIVE_WELLS) != 0 {
            put(
                CUMULATIVE_WELLS,
                self.traded(1, PAD..PAD + SPAN, self.wells()),
            );
        }
        if mask & EXTRA_FEATURES == 0 {
            return;
        }
        let (mut depth, mut raised, mut hole_rows, mut max_height) =
            (0, 0, total.hole_rows, total.max_height);
        // Board column `x + j` is covered column `j`.
        let holed = self.base.holed >> self.x;
        for j in 0..SPAN {
            let (gap, old, new) = (self.gap(j), self.heights[PAD + j], self.height(PAD + j));
            // Cells stacked onto a gap, or onto a column that had a hole, deepen a hole.
            let deepens = gap > 0 || holed >> j & 1 != 0;
            depth += self.drop.cells[j] as u32 * deepens as u32;
            raised += new - old;
            max_height = max_height.max(new);
            hole_rows |= below(gap) << old;
        }
        if mask & bit(HOLE_DEPTH) != 0 {
            put(HOLE_DEPTH, total.sums[4] + depth);
        }
        if mask & bit(AGGREGATE_HEIGHT) != 0 {
            put(AGGREGATE_HEIGHT, total.sums[5] + raised);
        }
        if mask & bit(MAX_HEIGHT_FEATURE) != 0 {
            put(MAX_HEIGHT_FEATURE, max_height);
        }
        if mask & bit(ROWS_WITH_HOLES) != 0 {
            put(ROWS_WITH_HOLES, hole_rows.count_ones());
        }
        // A height step across an edge, if both sides are board columns.
        let width = self.base.board.width();
        let step = |k: usize| {
            ((self.x + k).wrapping_sub(PAD + 1) < width - 1)
                .then(|| self.height(k) as i32 - self.height(k - 1) as i32)
        };
        let steps = |share: fn(i32) -> u32| edges.clone().map(|k| step(k).map_or(0, share)).sum();
        if mask & bit(BUMPINESS) != 0 {
            put(
                BUMPINESS,
                self.traded(2, edges.clone(), steps(i32::unsigned_abs)),
            );
        }
        if mask & bit(PATTERN_DIVERSITY) != 0 {
            let counts = self.traded(3, edges.clone(), steps(step_count));
            put(PATTERN_DIVERSITY, distinct_steps(counts));
        }
    }

    /// A drop that clears the `full` rows: places the piece on `board` and removes them (only
    /// where needed without `KEEP`) and writes the features of the board it leaves into `out`.
    /// Kept out of the common path, which clears none.
    #[inline(never)]
    #[cold]
    fn clear<const KEEP: bool>(&self, full: u64, board: &mut Board, out: &mut FeatureValues) {
        // Rows cleared in one block leave Dellacherie's features a step from those of the
        // board with the piece in place (see [`step_over`](After::step_over)); others need the
        // board after it.
        let stepped = self.base.mask & EXTRA_FEATURES == 0 && one_block(full);
        if KEEP || !stepped {
            board.put_cells(self.drop, &self.runs);
            board.remove_rows(full);
        }
        if stepped {
            self.write(out);
            self.step_over(full, out);
        } else {
            board.features(self.base.mask, out);
        }
    }

    /// Steps the features written by [`write`](After::write), those of the board with the
    /// piece in place, over the removal of the `full` rows, one unbroken block (the mask wants
    /// none of the extra features). Full rows hold no transitions inside, no holes and no
    /// wells, and the rows that come in empty at the top add two row transitions each (one
    /// at each wall). Only a column whose cells just below and just above the block are both
    /// empty changes otherwise: two column transitions go, its empty runs join, so every well
    /// cell of the run above gains the run below as depth, and if nothing lies above the
    /// block the run below is no longer under the column's top: no longer holes.
    #[inline(always)]
    fn step_over(&self, full: u64, out: &mut FeatureValues) {
        let mask = self.base.mask;
        let lines = full.count_ones();
        if mask & bit(ROW_TRANSITIONS) != 0 {
            out.0[ROW_TRANSITIONS] += (2 * lines) as f64;
        }
        let low = full.trailing_zeros();
        if mask & (bit(COLUMN_TRANSITIONS) | bit(HOLES) | bit(CUMULATIVE_WELLS)) == 0 || low == 0 {
            // On the floor nothing lies below the block to join.
            return;
        }
        let (below_block, above_block) = (low - 1, low + lines);
        let (rows, width) = (self.base.rows, self.base.board.width());
        // Bit `x`: board column `x` is empty just below and just above the block (rows at and
        // above 64 are empty); found without a branch per column, as few columns are.
        let joining = (PAD..PAD + width).fold(0u32, |joining, site| {
            let c = self.placed(site);
            let sides = c >> below_block | c.checked_shr(above_block).unwrap_or(0);
            joining | (!sides as u32 & 1) << (site - PAD)
        });
        let (mut opened, mut deepened) = (0, 0);
        let mut rest = joining;
        while rest != 0 {
            let site = PAD + rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let c = self.placed(site);
            let above = c.checked_shr(above_block).unwrap_or(0);
            let empty = !c & rows;
            let run_below = (empty << (63 - below_block)).leading_ones();
            if above == 0 {
                opened += run_below;
            }
            if mask & bit(CUMULATIVE_WELLS) != 0 {
                let run_above = empty.checked_shr(above_block).unwrap_or(0).trailing_ones();
                let run_above = below(run_above).checked_shl(above_block);
                let cells = self.placed(site - 1) & self.placed(site + 1) & !c;
                let gaining = cells & run_above.unwrap_or(0);
                deepened += gaining.count_ones() * run_below;
            }
        }
        if mask & bit(HOLES) != 0 {
            out.0[HOLES] -= opened as f64;
        }
        if mask & bit(COLUMN_TRANSITIONS) != 0 {
            out.0[COLUMN_TRANSITIONS] -= (2 * joining.count_ones()) as f64;
        }
        if mask & bit(CUMULATIVE_WELLS) != 0 {
            out.0[CUMULATIVE_WELLS] += deepened as f64;
        }
    }

    /// Column `site` of [`Padded`] with the piece in place, anywhere on the board: [`col`]
    /// inside the window, the board's column outside it.
    ///
    /// [`col`]: After::col
    #[inline(always)]
    fn placed(&self, site: usize) -> u64 {
        match site.checked_sub(self.x) {
            Some(k) if k < WINDOW => self.col(k),
            _ => self.base.padded[site],
        }
    }

    /// The wells of the covered columns after the drop, and those the two neighbours gain
    /// (their old well cells stay as they were: a neighbour only gains the empty cells the
    /// piece now borders while the column beyond borders them on the other side).
    #[inline(always)]
    fn wells(&self) -> u32 {
        let rows = self.base.rows;
        let mut sum = 0;
        for j in 0..SPAN {
            let k = PAD + j;
            let (left, c, right) = (self.col(k - 1), self.covered[j], self.col(k + 1));
            // The piece's cells are one run up to the column's new top.
            let run = self.runs[j];
            sum += wells(left, c, run | (run - 1), right, rows);
        }
        let sides = [
            (PAD - 1, 0, PAD - 2),
            (PAD + SPAN, SPAN - 1, PAD + SPAN + 1),
        ];
        for (k, j, beyond) in sides {
            let gained = self.runs[j] & self.col(beyond) & !self.col(k);
            let height = self.heights[k];
            // Usually the gained cells all lie above the neighbour's top (trailing zeros count
            // 64 for none), so the one in row y + i scores y + i + 1 less that top; they lie in
            // the piece's four rows from y.
            sum += if gained.trailing_zeros() >= height {
                let rel = (gained >> self.y) as usize & 0b1111;
                let n = rel.count_ones();
                (RUN_ROWS[rel] as u32 + n * self.y).wrapping_sub(n * height)
            } else {
                well_depths(gained, self.col(k), rows)
            };
        }
        sum
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rows: &[&str]) -> Board {
        let rows: Vec<Vec<bool>> = rows
            .iter()
            .map(|r| r.chars().map(|c| c == '#').collect())
            .collect();
        Board::from_rows(&rows)
    }

    fn feature(b: &Board, name: &str) -> f64 {
        let index = FEATURE_NAMES.iter().position(|n| *n == name).unwrap();
        let mut out = FeatureValues::default();
        b.features(1 << index, &mut out);
        out.0[index]
    }

    #[test]
    fn empty_board_counts() {
        let b = Board::empty(10, 20);
        // Every empty row has its two wall transitions; every empty column only the floor one.
        assert_eq!(feature(&b, "row_transitions"), 40.0);
        assert_eq!(feature(&b, "column_transitions"), 10.0);
        assert_eq!(feature(&b, "holes"), 0.0);
        assert_eq!(feature(&b, "cumulative_wells"), 0.0);
        assert_eq!(feature(&b, "pattern_diversity"), 1.0);
        assert_eq!(feature(&b, "max_height"), 0.0);
    }

    #[test]
    fn holes_depth_and_rows() {
        let b = board(&["....", "#...", "#.#.", ".##.", "#..#"]);
        // Column 0: hole at row 1 under a run of two; column 1: hole at row 0 under a run of
        // one; column 2: hole at row 0 under a run of two.
        assert_eq!(feature(&b, "holes"), 3.0);
        assert_eq!(feature(&b, "hole_depth"), 5.0);
        assert_eq!(feature(&b, "rows_with_holes"), 2.0);
    }

    #[test]
    fn open_well_scores_triangular_number() {
        // Column 1 is an open well of depth 3 between columns 0 and 2; column 3 sits beside the wall.
        let b = board(&["#.#.", "#.#.", "#.##"]);
        // Column 1: 1 + 2 + 3 = 6; column 3: one cell with the wall and column 2 filled, 1 + 1 below.
        assert_eq!(feature(&b, "cumulative_wells"), 6.0 + 1.0 + 2.0);
    }

    #[test]
    fn transitions_and_heights() {
        let b = board(&["....", "#...", "##.#"]);
        // Rows (walls filled): top empty 2, "#..." 2, "##.#" 2.
        assert_eq!(feature(&b, "row_transitions"), 6.0);
        // Columns: heights 2,1,0,1 -> 1 each from top-of-column to empty above, empty column 1.
        assert_eq!(feature(&b, "column_transitions"), 4.0);
        assert_eq!(feature(&b, "aggregate_height"), 4.0);
        assert_eq!(feature(&b, "bumpiness"), 1.0 + 1.0 + 1.0);
        assert_eq!(feature(&b, "max_height"), 2.0);
        assert_eq!(feature(&b, "pattern_diversity"), 2.0);
    }

    use super::super::pieces::DropTable;
    use proptest::prelude::*;

    /// Every board feature, the move features aside.
    const BOARD_FEATURES: FeatureMask = ((1 << FEATURE_NAMES.len()) - 1) & !MOVE_FEATURES;
    /// Dellacherie's board features, the first sums of [`SUMS`]: every published weight set
    /// uses them.
    const DELLACHERIE_BOARD: FeatureMask = {
        let (mut mask, mut slot) = (0, 0);
        while slot < DELLACHERIE_SUMS {
            mask |= bit(SUMS[slot]);
            slot += 1;
        }
        mask
    };

    /// Boards of any size with random column heights, each column's top cell filled and the
    /// cells below it all filled, mostly filled or half filled (holes), full rows included.
    fn boards() -> impl Strategy<Value = Board> {
        (MIN_WIDTH..=MAX_WIDTH, MIN_HEIGHT..=MAX_HEIGHT).prop_flat_map(|(width, height)| {
            let column = (0..=height as u32, any::<u64>(), any::<u64>(), 0..3u8);
            proptest::collection::vec(column, width).prop_map(move |columns| {
                let mut b = Board::empty(width, height);
                for (x, (top, a, c, density)) in columns.into_iter().enumerate() {
                    let fill = match density {
                        0 => u64::MAX,
                        1 => a | c,
                        _ => a,
                    };
                    b.cols[x] =
                        below(top) & (fill | 1u64.checked_shl(top.wrapping_sub(1)).unwrap_or(0));
                }
                b
            })
        })
    }

    /// A board, one of its pieces' drops, and a mask of board features: every feature, or any
    /// subset (computing some features must not disturb the others).
    fn cases() -> impl Strategy<Value = (Board, Drop, FeatureMask)> {
        let masks = prop_oneof![
            Just(BOARD_FEATURES),
            any::<FeatureMask>().prop_map(|m| m & BOARD_FEATURES),
            // Without extra features a drop that clears rows steps its features over them.
            Just(DELLACHERIE_BOARD),
            any::<FeatureMask>().prop_map(|m| m & DELLACHERIE_BOARD)
        ];
        (boards(), 0..7u8, any::<prop::sample::Index>(), masks).prop_map(
            |(b, piece, index, mask)| {
                let table = DropTable::new(b.width());
                let drops = table.drops(piece);
                (b, drops[index.index(drops.len())], mask)
            },
        )
    }

    /// The features in `mask` of a drop that did not top out are `want`'s.
    fn check_features(
        got: &FeatureValues,
        want: &FeatureValues,
        mask: FeatureMask,
        landing: &Landing,
    ) -> Result<(), TestCaseError> {
        if !landing.topout {
            for (i, name) in FEATURE_NAMES.iter().enumerate() {
                if mask & 1 << i != 0 {
                    prop_assert_eq!(got.0[i], want.0[i], "{}", name);
                }
            }
        }
        Ok(())
    }

    /// A drop from a [`DropBase`], keeping the board and not, lands as
    /// [`Board::drop_piece`] does, with the features of a full recomputation, and undoes.
    fn check_drop(b: Board, drop: Drop, mask: FeatureMask) -> Result<(), TestCaseError> {
        let mut full = b;
        let want_landing = full.drop_piece(&drop);
        let mut want = FeatureValues::default();
        full.features(mask, &mut want);

        let mut base = DropBase::new(&b, mask);
        let base = base.tally();
        let mut after = b;
        let mut got = FeatureValues::default();
        let landing = base.drop::<true>(&drop, &mut after, &mut got);
        prop_assert_eq!(landing, want_landing);
        prop_assert_eq!(after, full);
        check_features(&got, &want, mask, &landing)?;
        base.undo::<true>(&drop, &mut after, &landing);
        prop_assert_eq!(after, b);

        // Features alone: the same landing and values, the board given back by undo.
        let mut got = FeatureValues::default();
        let landing = base.drop::<false>(&drop, &mut after, &mut got);
        prop_assert_eq!(landing, want_landing);
        check_features(&got, &want, mask, &landing)?;
        base.undo::<false>(&drop, &mut after, &landing);
        prop_assert_eq!(after, b);
        Ok(())
    }

    /// An I dropped upright into column 1 completes row 1 of each board: in the first the
    /// removal opens the hole under column 2 (its only cell above was in the row), in the
    /// second it joins the empty run above row 1 in column 2 to the one below, deepening the
    /// well there.
    #[test]
    fn a_cleared_row_opens_holes_and_deepens_wells() {
        let table = DropTable::new(4);
        let upright = *table.find(0, 0, 1).unwrap();
        let first = board(&["....", "....", "#.##", "#..#"]);
        let second = board(&["....", "...#", "#.##", "#..#"]);
        let [first_cleared, second_cleared] = [first, second].map(|b| {
            check_drop(b, upright, DELLACHERIE_BOARD).unwrap();
            let mut after = b;
            assert_eq!(after.drop_piece(&upright).lines, 1);
            after
        });
        assert_eq!(feature(&first, "holes"), 1.0);
        assert_eq!(feature(&first_cleared, "holes"), 0.0);
        // Column 2 between the piece and column 3: rows 0 and 1 after the clear, 1 + 2 (1 + 1
        // before it, row 1 filled between them); column 0 between the wall and the piece: 1 + 2.
        assert_eq!(feature(&second_cleared, "cumulative_wells"), 6.0);
    }

    proptest! {
        #[test]
        fn incremental_features_equal_full_recomputation((b, drop, mask) in cases()) {
            check_drop(b, drop, mask)?;
        }

        #[test]
        fn a_drop_adds_four_cells_less_the_cleared_rows((b, drop, _) in cases()) {
            let mut after = b;
            let landing = after.drop_piece(&drop);
            prop_assume!(!landing.topout);
            let width = b.width() as u32;
            prop_assert_eq!(after.cell_count(), b.cell_count() + 4 - width * landing.lines);
        }
    }
}

//! The Tetris board as one bit mask per column, and its features.
//!
//! Columns (bit r = row r, row 0 at the bottom) make a drop a shift and an OR, a column height a
//! leading-zero count, and every transition, hole and well count a handful of popcounts, which
//! is what makes the player fast (the papers' simulator used rows; columns suit drop-from-above).

use super::pieces::Drop;
use crate::game::{FeatureMask, FeatureValues};

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
const HOLES: usize = 5;
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

    /// Filled cells on the board.
    pub fn cell_count(&self) -> u32 {
        self.cols.iter().map(|c| c.count_ones()).sum()
    }

    #[inline]
    fn rows_mask(&self) -> u64 {
        u64::MAX >> (64 - self.height as u32)
    }

    #[inline]
    fn column_height(col: u64) -> u32 {
        64 - col.leading_zeros()
    }

    /// Drops a piece straight down from above, then removes full rows. A drop that tops out
    /// still places the cells that fit, so the board stays drawable; the caller decides.
    #[inline]
    pub fn drop_piece(&mut self, drop: &Drop) -> Landing {
        let x0 = drop.column as usize;
        let span = drop.span as usize;
        let mut y = 0u32;
        for j in 0..span {
            let h = Self::column_height(self.cols[x0 + j]);
            let need = h.saturating_sub(drop.bottoms[j] as u32);
            y = y.max(need);
        }
        let landing_height = y as f64 + (drop.rows as f64 - 1.0) / 2.0;
        let topout = y + drop.rows as u32 > self.height as u32;
        let mask = self.rows_mask();
        for j in 0..span {
            let bits = if y >= 64 { 0 } else { drop.masks[j] << y };
            self.cols[x0 + j] |= bits & mask;
        }
        if topout {
            return Landing {
                topout,
                lines: 0,
                eroded: 0,
                landing_height,
            };
        }
        let mut full = mask;
        for col in &self.cols[..self.width as usize] {
            full &= col;
        }
        if full == 0 {
            return Landing {
                topout,
                lines: 0,
                eroded: 0,
                landing_height,
            };
        }
        let lines = full.count_ones();
        let mut piece_cells = 0;
        for j in 0..span {
            piece_cells += ((drop.masks[j] << y) & full).count_ones();
        }
        self.remove_rows(full);
        Landing {
            topout,
            lines,
            eroded: lines * piece_cells,
            landing_height,
        }
    }

    /// Removes the rows set in `full`; everything above moves down.
    fn remove_rows(&mut self, full: u64) {
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

    /// Computes the board features selected by `mask` into `out` (move features excluded).
    #[inline]
    pub fn features(&self, mask: FeatureMask, out: &mut FeatureValues) {
        let width = self.width as usize;
        let rows = self.rows_mask();
        let cols = &self.cols[..width];
        let out = &mut out.0;

        if mask & bit(ROW_TRANSITIONS) != 0 {
            let mut t = 0;
            let mut left = rows;
            for &c in cols {
                t += (left ^ c).count_ones();
                left = c;
            }
            t += (left ^ rows).count_ones();
            out[ROW_TRANSITIONS] = t as f64;
        }
        if mask & bit(COLUMN_TRANSITIONS) != 0 {
            let mut t = 0;
            for &c in cols {
                let c = c as u128;
                t += (((c << 1) | 1) ^ c).count_ones();
            }
            out[COLUMN_TRANSITIONS] = t as f64;
        }
        if mask & (bit(HOLES) | bit(HOLE_DEPTH) | bit(ROWS_WITH_HOLES)) != 0 {
            let mut holes = 0;
            let mut depth = 0;
            let mut hole_rows = 0u64;
            for &c in cols {
                let h = Self::column_height(c);
                holes += h - c.count_ones();
                if mask & (bit(HOLE_DEPTH) | bit(ROWS_WITH_HOLES)) != 0 {
                    let below_top = if h == 0 { 0 } else { u64::MAX >> (64 - h) };
                    let hole_bits = !c & below_top;
                    hole_rows |= hole_bits;
                    // Runs of filled cells whose bottom sits directly on a hole.
                    let mut starts = c & (hole_bits << 1);
                    while starts != 0 {
                        let r = starts.trailing_zeros();
                        starts &= starts - 1;
                        depth += (c >> r).trailing_ones();
                    }
                }
            }
            out[HOLES] = holes as f64;
            out[HOLE_DEPTH] = depth as f64;
            out[ROWS_WITH_HOLES] = hole_rows.count_ones() as f64;
        }
        if mask & bit(CUMULATIVE_WELLS) != 0 {
            let mut sum = 0;
            for x in 0..width {
                let left = if x == 0 { rows } else { cols[x - 1] };
                let right = if x + 1 == width { rows } else { cols[x + 1] };
                let c = cols[x];
                let mut wells = left & right & !c & rows;
                while wells != 0 {
                    let r = wells.trailing_zeros();
                    wells &= wells - 1;
                    let below = c & ((1u64 << r) - 1);
                    let empty_below = if below == 0 {
                        r
                    } else {
                        r - Self::column_height(below)
                    };
                    sum += 1 + empty_below;
                }
            }
            out[CUMULATIVE_WELLS] = sum as f64;
        }
        const HEIGHT_FEATURES: FeatureMask = bit(PATTERN_DIVERSITY)
            | bit(AGGREGATE_HEIGHT)
            | bit(BUMPINESS)
            | bit(MAX_HEIGHT_FEATURE);
        if mask & HEIGHT_FEATURES != 0 {
            let mut aggregate = 0;
            let mut bumpiness = 0;
            let mut max = 0;
            let mut patterns = 0u32;
            let mut previous = None;
            for &c in cols {
                let h = Self::column_height(c) as i32;
                aggregate += h;
                max = max.max(h);
                if let Some(p) = previous {
                    let d: i32 = h - p;
                    bumpiness += d.abs();
                    if d.abs() <= 2 {
                        patterns |= 1 << (d + 2);
                    }
                }
                previous = Some(h);
            }
            out[PATTERN_DIVERSITY] = patterns.count_ones() as f64;
            out[AGGREGATE_HEIGHT] = aggregate as f64;
            out[BUMPINESS] = bumpiness as f64;
            out[MAX_HEIGHT_FEATURE] = max as f64;
        }
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
}

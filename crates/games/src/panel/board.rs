//! The 6 × 12 board and the rules: swaps, gravity, matching and chains.
//!
//! A column is one `u64` holding 12 four-bit cells, row 0 in the lowest nibble and 0 = empty.
//! Every board the solver sees is settled (no holes under panels, no run of three), so a column
//! is a stack packed from the bottom: gravity is removing nibbles, a panel moved sideways into
//! an empty cell is pushed on top of its new column, and all runs of the board are found with a
//! dozen word operations.

use anyhow::{Result, bail};
use serde::{Serialize, Serializer};
use std::fmt;
use std::hash::{Hash, Hasher};

/// Columns of the board.
pub const WIDTH: usize = 6;
/// Rows of the board.
pub const HEIGHT: usize = 12;
/// Colours are 1 to `COLOURS`; 0 is an empty cell.
pub const COLOURS: u8 = 6;

/// The lowest bit of each of the 12 cells of a column.
const LOW: u64 = 0x1111_1111_1111;

/// A swap of the cells `(x, y)` and `(x + 1, y)`, origin at the bottom-left as in published
/// answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Swap {
    pub x: u8,
    pub y: u8,
}

impl fmt::Display for Swap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

/// `[x, y]`, the form `solve --json` promises.
impl Serialize for Swap {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (self.x, self.y).serialize(s)
    }
}

/// A settled board. Equal boards compare and hash equal, which is what lets the solver merge
/// the many swap orders that reach the same position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    cols: [u64; WIDTH],
}

/// Hashes the six words directly: the derived hash of an array would feed the hasher bytes.
impl Hash for Board {
    fn hash<H: Hasher>(&self, h: &mut H) {
        for &c in &self.cols {
            h.write_u64(c);
        }
    }
}

/// The low bit of every non-empty cell of a column.
fn occupied(col: u64) -> u64 {
    let t = col | col >> 1;
    (t | t >> 2) & LOW
}

/// The low bit of every cell where `a` and `b` hold the same value.
fn same(a: u64, b: u64) -> u64 {
    !occupied(a ^ b) & LOW
}

/// The low bit of every cell that starts a run of three upwards in a column, or rightwards
/// in a row packed the same way.
fn run_starts(cells: u64) -> u64 {
    occupied(cells) & same(cells, cells >> 4) & same(cells, cells >> 8)
}

/// Cells in a packed column.
fn column_height(col: u64) -> usize {
    (64 - col.leading_zeros() as usize).div_ceil(4)
}

/// Removes the cells marked in `cleared` (low bits) from a column; the cells above fall.
fn remove(mut col: u64, mut cleared: u64) -> u64 {
    while cleared != 0 {
        // The highest first, so the positions of the lower marks do not move.
        let bit = 63 - cleared.leading_zeros();
        col = (col & ((1 << bit) - 1)) | ((col >> (bit + 4)) << bit);
        cleared &= !(1 << bit);
    }
    col
}

impl Board {
    /// Builds a board from rows listed TOP first, as puzzle files list them, missing top rows
    /// empty. Refuses what the rules never produce after a swap (a colour outside 1 to 6, a
    /// panel over an empty cell, a run of three already on the board), naming the cell, so the
    /// solver's invariant that every board is settled holds from the start.
    pub fn from_rows(rows: &[[u8; WIDTH]]) -> Result<Board> {
        if rows.len() > HEIGHT {
            bail!("{} rows; the board has {HEIGHT}", rows.len());
        }
        let mut cols = [0u64; WIDTH];
        for (i, row) in rows.iter().enumerate() {
            let y = rows.len() - 1 - i;
            for (x, &v) in row.iter().enumerate() {
                if v > COLOURS {
                    bail!("cell ({x}, {y}) holds {v}; colours are 1 to {COLOURS}");
                }
                cols[x] |= u64::from(v) << (4 * y);
            }
        }
        let board = Board { cols };
        for (x, &col) in cols.iter().enumerate() {
            let filled = occupied(col);
            // Panels above the lowest empty cell (none when the column is full).
            let gap = (!filled & LOW).trailing_zeros();
            let above = filled & u64::MAX.checked_shl(gap).unwrap_or(0);
            if above != 0 {
                let y = above.trailing_zeros() / 4;
                bail!("cell ({x}, {y}) floats over an empty cell; panels rest on the stack");
            }
        }
        if let Some((x, y)) = board.first_cleared() {
            bail!("cell ({x}, {y}) is in a run of three before any swap");
        }
        Ok(board)
    }

    /// The colour at `(x, y)`, 0 when empty.
    pub fn get(&self, x: usize, y: usize) -> u8 {
        ((self.cols[x] >> (4 * y)) & 0xF) as u8
    }

    pub fn is_empty(&self) -> bool {
        self.cols.iter().fold(0, |acc, &c| acc | c) == 0
    }

    /// Rows up to the tallest column. No swap makes a column taller than this, so a drawing of
    /// this many rows fits every board a solution passes through.
    pub fn height(&self) -> usize {
        self.cols
            .iter()
            .map(|&c| column_height(c))
            .max()
            .unwrap_or(0)
    }

    /// Whether some colour has 1 or 2 panels left: swaps never change the counts and a clear
    /// takes at least three of one colour, so such a board can never be emptied.
    pub fn is_dead(&self) -> bool {
        (1..=u64::from(COLOURS)).any(|c| {
            let n: u32 = self
                .cols
                .iter()
                .map(|&col| same(col, c * LOW).count_ones())
                .sum();
            n == 1 || n == 2
        })
    }

    /// Every swap that touches a panel, bottom row first and left to right in a row. Some
    /// exchange two equal panels; [`Board::swapped`] refuses those.
    pub fn swaps(&self) -> impl Iterator<Item = Swap> + use<> {
        let h = self.cols.map(column_height);
        let top = h.iter().copied().max().unwrap_or(0);
        (0..top).flat_map(move |y| {
            (0..WIDTH - 1)
                .filter(move |&x| y < h[x].max(h[x + 1]))
                .map(move |x| Swap {
                    x: x as u8,
                    y: y as u8,
                })
        })
    }

    /// The settled board after `swap` and the chain count (how many times something
    /// vanished), or `None` when the two cells are equal: such a swap changes nothing, and
    /// refusing it keeps the list of all solutions finite.
    pub fn swapped(&self, swap: Swap) -> Option<(Board, u32)> {
        let (x, shift) = (usize::from(swap.x), 4 * u32::from(swap.y));
        let a = (self.cols[x] >> shift) & 0xF;
        let b = (self.cols[x + 1] >> shift) & 0xF;
        if a == b {
            return None;
        }
        let mut next = *self;
        if a != 0 && b != 0 {
            let flip = (a ^ b) << shift;
            next.cols[x] ^= flip;
            next.cols[x + 1] ^= flip;
            if !next.runs_through(x, shift) {
                return Some((next, 0));
            }
        } else {
            // One side is empty: the panel leaves its column, whose cells above fall, and lands
            // on top of the other column (which is lower than `y`, or the cell would be full).
            let (from, to, panel) = if b == 0 { (x, x + 1, a) } else { (x + 1, x, b) };
            next.cols[from] = remove(next.cols[from], 1 << shift);
            next.cols[to] |= panel << (4 * column_height(next.cols[to]));
        }
        let chains = next.settle();
        Some((next, chains))
    }

    /// Clears runs and lets panels fall until nothing vanishes; returns the number of rounds.
    fn settle(&mut self) -> u32 {
        let mut chains = 0;
        loop {
            let marks = self.runs();
            if marks.iter().all(|&m| m == 0) {
                return chains;
            }
            chains += 1;
            for (col, m) in self.cols.iter_mut().zip(marks) {
                *col = remove(*col, m);
            }
        }
    }

    /// Whether a run passes through `(x, y)` or `(x + 1, y)`, `shift` being `4 * y`. After two
    /// panels of a settled board trade places, only such a run can exist, and looking at one
    /// row and two columns is much cheaper than [`Board::runs`] on the whole board.
    fn runs_through(&self, x: usize, shift: u32) -> bool {
        let row = (0..WIDTH).fold(0, |r, i| r | ((self.cols[i] >> shift) & 0xF) << (4 * i));
        // Vertical runs through row y start at y - 2, y - 1 or y.
        let window = (0x111 << shift) >> 8;
        run_starts(row) != 0
            || (run_starts(self.cols[x]) | run_starts(self.cols[x + 1])) & window != 0
    }

    /// The low bit of every cell in a horizontal or vertical run of three or more, per column.
    fn runs(&self) -> [u64; WIDTH] {
        let c = &self.cols;
        let mut marks = [0u64; WIDTH];
        for x in 0..WIDTH {
            // Cells that start a vertical run of three, then the two cells above each.
            let start = run_starts(c[x]);
            marks[x] |= start | start << 4 | start << 8;
        }
        for x in 0..WIDTH - 2 {
            let start = occupied(c[x]) & same(c[x], c[x + 1]) & same(c[x], c[x + 2]);
            marks[x] |= start;
            marks[x + 1] |= start;
            marks[x + 2] |= start;
        }
        marks
    }

    /// The lowest, then leftmost, cell that would vanish now.
    fn first_cleared(&self) -> Option<(usize, usize)> {
        let marks = self.runs();
        (0..HEIGHT)
            .flat_map(|y| (0..WIDTH).map(move |x| (x, y)))
            .find(|&(x, y)| (marks[x] >> (4 * y)) & 1 != 0)
    }

    /// The top `rows` rows, top first, each labelled with its y, `.` for empty, then the x
    /// labels: what `solve` shows after each swap.
    pub fn draw(&self, rows: usize) -> String {
        let mut out = String::new();
        for y in (0..rows).rev() {
            out.push_str(&format!("{y:>3} |"));
            for x in 0..WIDTH {
                match self.get(x, y) {
                    0 => out.push_str(" ."),
                    v => out.push_str(&format!(" {v}")),
                }
            }
            out.push('\n');
        }
        out.push_str("     ");
        for x in 0..WIDTH {
            out.push_str(&format!(" {x}"));
        }
        out.push('\n');
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rows: &[[u8; WIDTH]]) -> Board {
        Board::from_rows(rows).unwrap()
    }

    #[test]
    fn rows_are_read_top_first_with_the_origin_bottom_left() {
        let b = board(&[[0, 0, 3, 0, 0, 0], [1, 2, 4, 0, 0, 5]]);
        assert_eq!((b.get(0, 0), b.get(1, 0), b.get(5, 0)), (1, 2, 5));
        assert_eq!((b.get(2, 1), b.get(2, 0), b.get(2, 2)), (3, 4, 0));
        assert_eq!(b.height(), 2);
    }

    #[test]
    fn unsettled_boards_and_foreign_colours_name_the_cell() {
        let err = |rows: &[[u8; WIDTH]]| Board::from_rows(rows).unwrap_err().to_string();
        assert!(err(&[[0, 7, 0, 0, 0, 0]]).contains("cell (1, 0) holds 7"));
        assert!(err(&[[0, 0, 1, 0, 0, 0], [0, 0, 0, 0, 0, 0]]).contains("cell (2, 1) floats"));
        assert!(err(&[[0, 0, 0, 2, 2, 2]]).contains("cell (3, 0) is in a run"));
        assert!(err(&[[1, 0, 0, 0, 0, 0]; 13]).contains("13 rows"));
    }

    #[test]
    fn equal_cells_cannot_be_swapped() {
        let b = board(&[[1, 1, 0, 0, 0, 0]]);
        assert!(b.swapped(Swap { x: 0, y: 0 }).is_none());
        assert!(b.swapped(Swap { x: 2, y: 0 }).is_none());
        assert!(b.swapped(Swap { x: 1, y: 0 }).is_some());
    }

    #[test]
    fn a_panel_moved_over_a_gap_falls_and_its_column_closes() {
        let b = board(&[[0, 2, 0, 0, 0, 0], [0, 3, 0, 0, 0, 0], [0, 4, 1, 0, 0, 0]]);
        let (after, chains) = b.swapped(Swap { x: 1, y: 1 }).unwrap();
        assert_eq!(chains, 0);
        let want = board(&[[0, 2, 3, 0, 0, 0], [0, 4, 1, 0, 0, 0]]);
        assert_eq!(after, want);
    }

    #[test]
    fn swaps_cover_every_pair_with_a_panel() {
        let b = board(&[[0, 2, 0, 0, 0, 0], [0, 3, 0, 0, 0, 4]]);
        let got: Vec<(u8, u8)> = b.swaps().map(|s| (s.x, s.y)).collect();
        assert_eq!(got, [(0, 0), (1, 0), (4, 0), (0, 1), (1, 1)]);
        assert_eq!(board(&[]).swaps().count(), 0);
    }

    #[test]
    fn dead_boards_have_a_colour_with_one_or_two_panels() {
        assert!(board(&[[1, 2, 1, 0, 0, 0]]).is_dead());
        assert!(board(&[[1, 1, 2, 1, 0, 0]]).is_dead());
        assert!(!board(&[]).is_dead());
        assert!(!board(&[[3, 3, 0, 0, 0, 0], [1, 1, 3, 1, 0, 0]]).is_dead());
    }

    type Grid = [[u8; HEIGHT]; WIDTH];

    /// The README's rules cell by cell, with no bit tricks: what the bitboards must match.
    fn reference_settle(g: &mut Grid) -> u32 {
        let mut chains = 0;
        loop {
            for col in g.iter_mut() {
                let panels: Vec<u8> = col.iter().copied().filter(|&v| v != 0).collect();
                *col = [0; HEIGHT];
                col[..panels.len()].copy_from_slice(&panels);
            }
            let mut doomed = [[false; HEIGHT]; WIDTH];
            for x in 0..WIDTH {
                for y in 0..HEIGHT {
                    let v = g[x][y];
                    if v != 0 && x + 2 < WIDTH && g[x + 1][y] == v && g[x + 2][y] == v {
                        (x..x + 3).for_each(|i| doomed[i][y] = true);
                    }
                    if v != 0 && y + 2 < HEIGHT && g[x][y + 1] == v && g[x][y + 2] == v {
                        (y..y + 3).for_each(|j| doomed[x][j] = true);
                    }
                }
            }
            if !doomed.iter().flatten().any(|&d| d) {
                return chains;
            }
            chains += 1;
            for x in 0..WIDTH {
                for y in 0..HEIGHT {
                    if doomed[x][y] {
                        g[x][y] = 0;
                    }
                }
            }
        }
    }

    fn from_grid(g: &Grid) -> Board {
        let rows: Vec<[u8; WIDTH]> = (0..HEIGHT)
            .rev()
            .map(|y| std::array::from_fn(|x| g[x][y]))
            .collect();
        board(&rows)
    }

    proptest::proptest! {
        #[test]
        fn swaps_follow_the_rules_cell_by_cell(
            cells in proptest::collection::vec(0u8..=COLOURS, WIDTH * HEIGHT),
            empty_above in proptest::collection::vec(0usize..=HEIGHT, WIDTH),
            x in 0usize..WIDTH - 1,
            y in 0usize..HEIGHT,
        ) {
            // Random columns of random heights, settled by the reference rules.
            let mut g: Grid = std::array::from_fn(|x| {
                std::array::from_fn(|y| if y < empty_above[x] { cells[x * HEIGHT + y] } else { 0 })
            });
            reference_settle(&mut g);
            let before = from_grid(&g);
            let got = before.swapped(Swap { x: x as u8, y: y as u8 });
            if g[x][y] == g[x + 1][y] {
                proptest::prop_assert!(got.is_none());
            } else {
                let (a, b) = (g[x][y], g[x + 1][y]);
                g[x][y] = b;
                g[x + 1][y] = a;
                let chains = reference_settle(&mut g);
                proptest::prop_assert_eq!(got, Some((from_grid(&g), chains)));
            }
        }
    }

    #[test]
    fn drawing_labels_rows_and_columns() {
        let b = board(&[[1, 0, 0, 0, 0, 6]]);
        assert_eq!(b.draw(1), "  0 | 1 . . . . 6\n      0 1 2 3 4 5\n");
    }
}

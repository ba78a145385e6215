//! The Connect-N bit layout: one `u64` per player, column after column, each column `rows`
//! cells plus one always-empty sentinel bit on top (Pascal Pons' layout).
//!
//! Cell (column c, row r), row 0 at the bottom, is bit `c × (rows + 1) + r`. The sentinel bit
//! breaks every vertical and diagonal run at the top and bottom of a column, so lines are found
//! with shifts and ANDs over the whole board at once, and the lowest empty cell of every column
//! is `(occupied + bottom) & board`: one addition.

/// Longest line supported: the window features of every k < `inarow` must fit in
/// [`MAX_FEATURES`](stacktune_game::MAX_FEATURES) next to the eight other features.
pub const MAX_INAROW: usize = 12;

/// Widest board: (rows + 1) × columns ≤ 64 leaves at most 32 columns of one row.
pub const MAX_COLUMNS: usize = 32;

/// Columns centre first (the right one of two centres), then alternately one left and one
/// right further out: 3 2 4 1 5 0 6 on seven columns. The first `columns` entries are used.
/// Central columns take part in the most lines, so trying them first finds good moves early
/// and makes first-of-equals choices prefer them.
pub const fn centre_first(columns: u32) -> [u8; MAX_COLUMNS] {
    let mut order = [0; MAX_COLUMNS];
    let mut i = 0;
    while i < columns {
        let offset = i.div_ceil(2);
        order[i as usize] = if i % 2 == 0 {
            columns / 2 + offset
        } else {
            columns / 2 - offset
        } as u8;
        i += 1;
    }
    order
}

/// The four line directions as (column step, row step), each taken one way only.
const DIRECTIONS: [(i32, i32); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

/// Board size, line length and the masks derived from them; small and `Copy` so that the
/// solver can hold one as a constant and let the compiler fold every shift.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry {
    rows: u32,
    columns: u32,
    inarow: u32,
    /// The bottom cell of every column.
    bottom: u64,
    /// Every real cell (no sentinels).
    board: u64,
}

impl Geometry {
    /// The layout of a `rows` × `columns` board with lines of `inarow`. The caller has checked
    /// that (rows + 1) × columns ≤ 64 and 1 ≤ inarow ≤ [`MAX_INAROW`].
    pub const fn new(rows: u32, columns: u32, inarow: u32) -> Geometry {
        let column = (1u64 << rows) - 1;
        let (mut bottom, mut board, mut c) = (0, 0, 0);
        while c < columns {
            bottom |= 1 << (c * (rows + 1));
            board |= column << (c * (rows + 1));
            c += 1;
        }
        Geometry {
            rows,
            columns,
            inarow,
            bottom,
            board,
        }
    }

    pub const fn rows(&self) -> u32 {
        self.rows
    }

    pub const fn columns(&self) -> u32 {
        self.columns
    }

    pub const fn inarow(&self) -> u32 {
        self.inarow
    }

    /// Every real cell of the board: `occupied == board()` means the board is full.
    pub const fn board(&self) -> u64 {
        self.board
    }

    /// Cells of a column, sentinel excluded.
    #[inline]
    pub const fn column_mask(&self, column: u32) -> u64 {
        ((1u64 << self.rows) - 1) << (column * (self.rows + 1))
    }

    /// One cell as a bit.
    #[inline]
    pub const fn cell(&self, column: u32, row: u32) -> u64 {
        1 << (column * (self.rows + 1) + row)
    }

    /// The cells a disc would land in now: the lowest empty cell of every column not full.
    #[inline]
    pub const fn playable(&self, occupied: u64) -> u64 {
        (occupied + self.bottom) & self.board
    }

    /// The empty cells that would complete a line of `inarow` for the player owning `discs`:
    /// its threats, and the test for a winning move (a move wins iff it lands on one).
    ///
    /// For each direction d, a cell x completes a line when, for some split a, the a cells
    /// before it (x − d … x − a·d) and the inarow − 1 − a cells after it are all discs; runs
    /// are built by shifting, and the sentinels stop them at column ends.
    #[inline(always)]
    pub fn winning_cells(&self, discs: u64, occupied: u64) -> u64 {
        let n = self.inarow as usize;
        let mut cells = 0;
        for step in self.steps() {
            // before[j]: cells whose j predecessors along `step` are all discs; after[j] alike.
            let mut before = [u64::MAX; MAX_INAROW];
            let mut after = [u64::MAX; MAX_INAROW];
            for j in 1..n {
                let shift = j as u32 * step;
                before[j] = before[j - 1] & discs.checked_shl(shift).unwrap_or(0);
                after[j] = after[j - 1] & discs.checked_shr(shift).unwrap_or(0);
            }
            for a in 0..n {
                cells |= before[a] & after[n - 1 - a];
            }
        }
        cells & self.board & !occupied
    }

    /// Bit distance between neighbours along each direction: up, right, up-right, down-right.
    #[inline]
    fn steps(&self) -> [u32; 4] {
        let stride = self.rows + 1;
        [1, stride, stride + 1, stride - 1]
    }

    /// Every window of `inarow` consecutive cells along direction `direction` (0 vertical,
    /// 1 horizontal, 2 and 3 the diagonals), as bit masks.
    pub fn windows(&self, direction: usize) -> impl Iterator<Item = u64> + '_ {
        let (dc, dr) = DIRECTIONS[direction];
        let span = self.inarow as i32 - 1;
        let (rows, columns) = (self.rows as i32, self.columns as i32);
        (0..columns)
            .flat_map(move |c| (0..rows).map(move |r| (c, r)))
            .filter(move |&(c, r)| {
                let (end_c, end_r) = (c + dc * span, r + dr * span);
                (0..columns).contains(&end_c) && (0..rows).contains(&end_r)
            })
            .map(move |(c, r)| {
                (0..=span).fold(0, |mask, i| {
                    mask | self.cell((c + dc * i) as u32, (r + dr * i) as u32)
                })
            })
    }

    /// Every window in all four directions: the table the window features count over.
    pub fn all_windows(&self) -> Vec<u64> {
        (0..DIRECTIONS.len())
            .flat_map(|d| self.windows(d))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_board_has_69_windows() {
        let g = Geometry::new(6, 7, 4);
        let counts: Vec<usize> = (0..4).map(|d| g.windows(d).count()).collect();
        assert_eq!(counts, [21, 24, 12, 12]);
        assert_eq!(g.all_windows().len(), 69);
        assert!(g.all_windows().iter().all(|w| w.count_ones() == 4));
    }

    #[test]
    fn masks_cover_the_board() {
        let g = Geometry::new(6, 7, 4);
        assert_eq!(g.board().count_ones(), 42);
        assert_eq!(g.playable(0).count_ones(), 7);
        assert_eq!(g.column_mask(6), 0b111111 << 42);
        // A full column offers no cell: its carry lands on the sentinel.
        assert_eq!(g.playable(g.column_mask(0)) & g.column_mask(0), 0);
    }

    /// Winning cells from the shifts agree with a scan of the window table, on many boards and
    /// sizes (random fillings, gravity ignored: the function must not care).
    #[test]
    fn winning_cells_match_the_window_table() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for (rows, columns, inarow) in [
            (6, 7, 4),
            (5, 4, 3),
            (7, 8, 5),
            (1, 32, 6),
            (31, 2, 2),
            (63, 1, 5),
        ] {
            let g = Geometry::new(rows, columns, inarow);
            let windows = g.all_windows();
            for _ in 0..500 {
                let occupied = next() & next() & g.board();
                let discs = occupied & next();
                let mut expected = 0;
                for &w in &windows {
                    let empty = w & !occupied;
                    if (discs & w).count_ones() == inarow - 1 && empty.count_ones() == 1 {
                        expected |= empty;
                    }
                }
                assert_eq!(
                    g.winning_cells(discs, occupied),
                    expected,
                    "{rows}x{columns}"
                );
            }
        }
    }
}

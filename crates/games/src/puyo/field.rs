//! The Puyo field as one bit plane per colour.
//!
//! A plane is a `u128` holding the six columns as 16-bit lanes (bit `16·x + y`, y = 0 at the
//! bottom). A column's height is then a leading-zero count, the neighbours of a set of cells are
//! four shifts, and a connected group is a flood fill of a few shifts per step: the player
//! simulates millions of placements without a loop over cells and without allocating.
//!
//! Lanes never hold bits above row 13, so a shift by one row cannot carry a cell into the next
//! column, and every shifted set is masked with a plane before it is used.

/// Columns of the field.
pub const WIDTH: usize = 6;
/// Rows where puyos connect and pop: the visible field.
pub const VISIBLE_ROWS: u32 = 12;
/// Rows a column can hold: the visible field plus Tsu's hidden 13th row.
pub const MAX_ROWS: u32 = 13;
/// Most colours a game may use; colours are numbered from 1.
pub const MAX_COLOURS: usize = 5;
/// The code of a nuisance puyo in [`Field::colour`] and [`Field::put`]; drawn `o`.
pub const NUISANCE: u8 = MAX_COLOURS as u8 + 1;

/// Bits per column lane.
const LANE: u32 = 16;

/// `col` repeated in every column lane.
const fn lanes(col: u16) -> u128 {
    let mut m = 0u128;
    let mut x = 0;
    while x < WIDTH {
        m |= (col as u128) << (LANE * x as u32);
        x += 1;
    }
    m
}

/// The top bit of every lane: never a cell (lanes end at row 13).
const LANE_GUARDS: u128 = lanes(0x8000);
/// The bottom bit of every lane.
const LANE_ONES: u128 = lanes(0x0001);

/// The cells of the visible rows: only these connect and pop.
pub const VISIBLE: u128 = lanes(0x0FFF);

/// The one cell `(x, y)`.
#[inline]
pub const fn cell(x: usize, y: u32) -> u128 {
    1u128 << (LANE * x as u32 + y)
}

/// The `n` cells of column `x` from row `y` up.
#[inline]
pub const fn column_run(x: usize, y: u32, n: u32) -> u128 {
    ((1u128 << n) - 1) << (LANE * x as u32 + y)
}

/// The four neighbours of the cells of `set`, before masking: callers AND the result with a
/// plane, which removes anything shifted outside the field.
#[inline]
pub fn neighbours(set: u128) -> u128 {
    set << 1 | set >> 1 | set << LANE | set >> LANE
}

/// The connected part of `within` that contains `seed` (a subset of `within`).
#[inline]
pub fn flood(seed: u128, within: u128) -> u128 {
    let mut group = seed;
    loop {
        let next = (group | neighbours(group)) & within;
        if next == group {
            return group;
        }
        group = next;
    }
}

/// The cells of a set by how many of their four neighbours are in the set too: group sizes up
/// to four read off these in a fixed number of shifts, where a flood fill loops once per
/// cell of a group's width. Chain resolution asks "does anything pop?" after every
/// placement and every chain step, and the answer is nearly always no.
#[derive(Clone, Copy, Debug)]
pub struct Links {
    /// At least one neighbour in the set.
    one: u128,
    /// At least two.
    two: u128,
    /// At least three.
    three: u128,
}

impl Links {
    /// The links of `set`, a set of visible cells (rows 0 to 11), so that no shift by one row
    /// reaches a cell of another column.
    #[inline]
    pub fn of(set: u128) -> Links {
        debug_assert_eq!(set & !VISIBLE, 0);
        let up = set & (set >> 1);
        let down = set & (set << 1);
        let right = set & (set >> LANE);
        let left = set & (set << LANE);
        let (vertical_and, horizontal_and) = (up & down, left & right);
        let (vertical_or, horizontal_or) = (up | down, left | right);
        Links {
            one: vertical_or | horizontal_or,
            two: vertical_and | horizontal_and | (vertical_or & horizontal_or),
            three: (vertical_and & horizontal_or) | (horizontal_and & vertical_or),
        }
    }

    /// Cells with two or more neighbours that are next to another such cell, or with three:
    /// every group of 4 or more has one, every cell of it is one or next to one, and a group
    /// of 3 or fewer has none (its middle cell has two neighbours that have one each).
    #[inline]
    fn core(&self) -> u128 {
        self.three | (self.two & neighbours(self.two))
    }

    /// The cells of `set` (the set these links are of) in groups of 4 or more.
    #[inline]
    pub fn in_groups_of_four(&self, set: u128) -> u128 {
        let core = self.core();
        core | (neighbours(core) & set)
    }

    /// Groups of exactly 2: cells with one neighbour, next to each other, counted once.
    #[inline]
    pub fn pairs(&self) -> u32 {
        let ends = self.one & !self.two;
        (ends & neighbours(ends)).count_ones() / 2
    }

    /// Groups of exactly 3: the middle cells with two neighbours outside any core.
    #[inline]
    pub fn triples(&self) -> u32 {
        (self.two & !self.core()).count_ones()
    }
}

/// Every cell at or above the lowest cell of `set` in its column.
#[inline]
fn smear_up(set: u128) -> u128 {
    // Each step only shifts bits that stay inside their lane.
    let mut m = set;
    m |= (m & lanes(0x7FFF)) << 1;
    m |= (m & lanes(0x3FFF)) << 2;
    m |= (m & lanes(0x0FFF)) << 4;
    m |= (m & lanes(0x00FF)) << 8;
    m
}

/// The puyos of a field, one bit plane per colour and, last, one of nuisance (versus only: a
/// solo game's is always empty). Nuisance is a plane like the colours so that the loops over
/// planes, the dearest part of a chain, stay one fixed-size loop.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Field {
    planes: [u128; MAX_COLOURS + 1],
}

impl Field {
    /// The empty field.
    pub const EMPTY: Field = Field {
        planes: [0; MAX_COLOURS + 1],
    };

    /// The field of `rows` colour codes given TOP first (0 empty, 1..=5 colours), bottom-aligned:
    /// the last row is row 0. The caller checks sizes and codes.
    pub fn from_rows(rows: &[Vec<u8>]) -> Field {
        let mut field = Field::EMPTY;
        for (top_index, row) in rows.iter().enumerate() {
            let y = (rows.len() - 1 - top_index) as u32;
            for (x, &colour) in row.iter().enumerate() {
                if colour != 0 {
                    field.put(cell(x, y), colour);
                }
            }
        }
        field
    }

    /// The field that [`to_rows`](Field::to_rows) drew: rows TOP first, `.` empty, colour
    /// digits, `o` nuisance, bottom-aligned. It checks nothing: positions written out in code (tests,
    /// benches) read best this way; files go through `listing::parse_board`.
    pub fn from_text(rows: &[&str]) -> Field {
        let rows: Vec<Vec<u8>> = rows
            .iter()
            .map(|r| {
                r.bytes()
                    .map(|b| match b {
                        b'.' => 0,
                        b'o' => NUISANCE,
                        _ => b - b'0',
                    })
                    .collect()
            })
            .collect();
        Field::from_rows(&rows)
    }

    /// The bottom `rows` rows, TOP first, as colour digits with `.` for empty and `o` for
    /// nuisance: what board files, `moves` and `render` show.
    pub fn to_rows(&self, rows: u32) -> Vec<String> {
        (0..rows)
            .rev()
            .map(|y| {
                (0..WIDTH)
                    .map(|x| match self.colour(x, y) {
                        0 => '.',
                        NUISANCE => 'o',
                        c => char::from(b'0' + c),
                    })
                    .collect()
            })
            .collect()
    }

    /// Colour at `(x, y)`, 0 when empty, [`NUISANCE`] for a nuisance puyo.
    pub fn colour(&self, x: usize, y: u32) -> u8 {
        let bit = cell(x, y);
        self.planes
            .iter()
            .position(|p| p & bit != 0)
            .map_or(0, |i| i as u8 + 1)
    }

    /// The colour planes, colour 1 first (nuisance apart: it never forms a group).
    #[inline]
    pub fn planes(&self) -> &[u128; MAX_COLOURS] {
        self.planes
            .first_chunk()
            .expect("a plane a colour, then nuisance's")
    }

    /// The nuisance puyos.
    #[inline]
    pub fn nuisance(&self) -> u128 {
        self.planes[MAX_COLOURS]
    }

    /// Every occupied cell.
    #[inline]
    pub fn occupied(&self) -> u128 {
        self.planes.iter().fold(0, |a, p| a | p)
    }

    /// Puyos on the field.
    pub fn count(&self) -> u32 {
        self.occupied().count_ones()
    }

    /// Column heights, hidden row included. Columns have no gaps, so the height is the index of
    /// the top bit plus one.
    #[inline]
    pub fn heights(&self) -> [u32; WIDTH] {
        let occupied = self.occupied();
        std::array::from_fn(|x| LANE - ((occupied >> (LANE * x as u32)) as u16).leading_zeros())
    }

    /// Adds a puyo of `colour` (or [`NUISANCE`]) at the cell `bit`.
    #[inline]
    pub fn put(&mut self, bit: u128, colour: u8) {
        self.planes[colour as usize - 1] |= bit;
    }

    /// Drops a puyo of `colour` down column `x` onto a column `height` high; returns its cell, or
    /// `None` when the column has no room below `rows`.
    #[inline]
    pub fn drop_onto(&mut self, x: usize, height: u32, colour: u8, rows: u32) -> Option<u128> {
        (height < rows).then(|| {
            let bit = cell(x, height);
            self.put(bit, colour);
            bit
        })
    }

    /// Removes `cells`; everything above them falls. Returns the puyos that moved, the only ones
    /// that can form a new group.
    ///
    /// Each round removes the lowest erased cell of every column at once, so a chain step costs
    /// as many rounds as its most-erased column has cells, not one round a cell: this runs for
    /// every simulated trigger of the chain-potential feature, the dearest part of a move.
    #[inline]
    pub fn erase(&mut self, cells: u128) -> u128 {
        // A solo field never has nuisance: its erase moves the colour planes only (7 % of a
        // solo game's instructions went to moving the empty nuisance plane).
        if self.nuisance() == 0 {
            self.erase_planes::<MAX_COLOURS>(cells)
        } else {
            self.erase_planes::<{ MAX_COLOURS + 1 }>(cells)
        }
    }

    /// [`erase`](Field::erase) over the first `N` planes, the others empty.
    #[inline]
    fn erase_planes<const N: usize>(&mut self, cells: u128) -> u128 {
        let mut rest = cells;
        while rest != 0 {
            // Bit 15 of a lane is never a cell, so subtracting 1 from every lane with it set
            // borrows inside the lane only.
            let lowest = rest & !((rest | LANE_GUARDS) - LANE_ONES);
            // Below the lowest erased cell of its column (all of a column with none) stays;
            // the rest of the column falls one row.
            let stay = ((lowest | LANE_GUARDS) - LANE_ONES) & !LANE_GUARDS;
            let fall = !(stay | lowest);
            for p in &mut self.planes[..N] {
                *p = (*p & stay) | ((*p & fall) >> 1);
            }
            rest = (rest & stay) | ((rest & fall) >> 1);
        }
        smear_up(cells) & self.occupied()
    }

    /// The first floating puyo (one with an empty cell below it), as (x, y): a board file showing
    /// one cannot come from play.
    pub fn floating(&self) -> Option<(usize, u32)> {
        let occupied = self.occupied();
        let heights = self.heights();
        (0..WIDTH).find_map(|x| {
            let column = (occupied >> (LANE * x as u32)) as u16;
            let gaps = !column & ((1u16 << heights[x]) - 1);
            (gaps != 0).then(|| (x, heights[x] - 1))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_round_trip() {
        let f = Field::from_text(&["..1...", "..2...", "3.21.5"]);
        assert_eq!(f.to_rows(3), vec!["..1...", "..2...", "3.21.5"]);
        assert_eq!(f.heights(), [1, 0, 3, 1, 0, 1]);
        assert_eq!(f.count(), 6);
    }

    #[test]
    fn erase_lets_everything_above_fall() {
        let mut f = Field::from_text(&["1.....", "2.....", "3.4...", "3.3..."]);
        let moved = f.erase(cell(0, 0) | cell(0, 2) | cell(2, 0));
        assert_eq!(f.to_rows(4), vec!["......", "......", "1.....", "3.4..."]);
        assert_eq!(moved, cell(0, 0) | cell(0, 1) | cell(2, 0));
    }

    #[test]
    fn erase_drops_columns_with_gaps_between_their_erased_cells() {
        // Column 0 loses rows 0, 1 and 3 (three rounds), column 3 rows 2 and 4, column 5 its
        // top; the cells between the erased ones fall as far as the erased cells below them.
        let mut f = Field::from_text(&[
            "5..5..", //
            "4..4..", //
            "3..3.2", //
            "2..2.1", //
            "1..1.1", //
        ]);
        let erased = cell(0, 0) | cell(0, 1) | cell(0, 3) | cell(3, 2) | cell(3, 4) | cell(5, 2);
        let moved = f.erase(erased);
        assert_eq!(
            f.to_rows(5),
            vec!["......", "......", "...4..", "5..2.1", "3..1.1"]
        );
        assert_eq!(moved, cell(0, 0) | cell(0, 1) | cell(3, 2));
    }

    /// Every group of `set` by flood fill: the plain reading [`Links`] must agree with.
    fn groups(set: u128) -> Vec<u128> {
        let (mut todo, mut found) = (set, Vec::new());
        while todo != 0 {
            let group = flood(todo & todo.wrapping_neg(), set);
            todo &= !group;
            found.push(group);
        }
        found
    }

    proptest::proptest! {
        /// Sets of visible cells from sparse to dense: the group sizes links read agree with a
        /// flood fill's, whatever the shapes.
        #[test]
        fn links_read_the_group_sizes_a_flood_fill_finds(a: u128, b: u128, density in 0..3u8) {
            let set = VISIBLE & match density {
                0 => a & b,
                1 => a,
                _ => a | b,
            };
            let links = Links::of(set);
            let all = groups(set);
            let of_size = |n: u32| all.iter().filter(|g| g.count_ones() == n).count() as u32;
            let in_fours = all.iter().filter(|g| g.count_ones() >= 4).fold(0, |m, g| m | g);
            proptest::prop_assert_eq!(links.in_groups_of_four(set), in_fours);
            proptest::prop_assert_eq!(links.pairs(), of_size(2));
            proptest::prop_assert_eq!(links.triples(), of_size(3));
        }
    }

    #[test]
    fn links_tell_threes_from_fours() {
        // Colour 1: an L of three and a line of four; colour 2: a 2 × 2 square and a pair.
        let f = Field::from_text(&[
            "1..22.", //
            "11.221", //
            ".....1", //
            "...2.1", //
            "...2.1", //
        ]);
        let (ones, twos) = (f.planes()[0], f.planes()[1]);
        let line = column_run(5, 0, 4);
        let links = Links::of(ones);
        assert_eq!(links.in_groups_of_four(ones), line);
        assert_eq!((links.pairs(), links.triples()), (0, 1));
        let links = Links::of(twos);
        assert_eq!(
            links.in_groups_of_four(twos),
            column_run(3, 3, 2) | column_run(4, 3, 2)
        );
        assert_eq!((links.pairs(), links.triples()), (1, 0));
    }

    #[test]
    fn flood_stays_in_its_colour_and_column_lanes() {
        // Column 0's top and column 1's bottom are adjacent bits in no lane sense.
        let f = Field::from_text(&["1.....", "1.....", "1.....", "11...."]);
        let g = flood(cell(0, 0), f.planes()[0]);
        assert_eq!(g.count_ones(), 5);
        let f = Field::from_text(&["1.....", ".1...."]);
        assert_eq!(f.floating(), Some((0, 1)));
        assert_eq!(flood(cell(1, 0), f.planes()[0]).count_ones(), 1);
    }
}

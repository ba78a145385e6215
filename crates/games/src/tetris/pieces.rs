//! The seven tetrominoes and the precomputed drop table of every (orientation, column).
//!
//! Dropping a piece straight down only needs, per piece column, its lowest cell and its cell
//! mask; precomputing them per board width turns a placement into a few shifts and ORs.

/// Piece letters in the order of their index.
pub const PIECE_LETTERS: [char; 7] = ['I', 'O', 'T', 'S', 'Z', 'L', 'J'];

/// Distinct orientations of each piece, as rows of a small picture, TOP row first, in
/// MdpTetris's order (tests/data/tetris/README.md). The player keeps the first of tied best
/// placements, and with integer weights such as Dellacherie's about one move in ten is tied:
/// listing the orientations in the papers' simulator's order is what makes a weights file play
/// that simulator's games move for move (in another order Dellacherie's player clears about
/// 6 % fewer lines on 10 × 10).
pub(crate) const SHAPES: [&[&[&str]]; 7] = [
    // I
    &[&["#", "#", "#", "#"], &["####"]],
    // O
    &[&["##", "##"]],
    // T
    &[
        &["#.", "##", "#."],
        &[".#.", "###"],
        &[".#", "##", ".#"],
        &["###", ".#."],
    ],
    // S
    &[&["#.", "##", ".#"], &[".##", "##."]],
    // Z
    &[&[".#", "##", "#."], &["##.", ".##"]],
    // L
    &[
        &["###", "#.."],
        &["#.", "#.", "##"],
        &["..#", "###"],
        &["##", ".#", ".#"],
    ],
    // J
    &[
        &["#..", "###"],
        &[".#", ".#", "##"],
        &["###", "..#"],
        &["##", "#.", "#."],
    ],
];

/// The piece letters as error messages list them.
pub const VALID_PIECES: &str = "I, O, T, S, Z, L, J";

/// Index of a piece letter (case-insensitive), if it is one of IOTSZLJ.
pub fn piece_index(letter: char) -> Option<u8> {
    let upper = letter.to_ascii_uppercase();
    PIECE_LETTERS
        .iter()
        .position(|&l| l == upper)
        .map(|i| i as u8)
}

/// One way to drop one piece: everything a placement needs, precomputed.
#[derive(Clone, Copy, Debug)]
pub struct Drop {
    /// Orientation index within the piece's distinct orientations.
    pub orientation: u8,
    /// Board column of the piece's leftmost cell.
    pub column: u8,
    /// Number of board columns the piece covers (1 to 4).
    pub span: u8,
    /// Piece height in rows.
    pub rows: u8,
    /// (rows − 1) / 2: the landing height is the bottom row plus this.
    pub mid_row: f64,
    /// Per covered column, the cell bits relative to the piece's bottom row.
    pub masks: [u64; 4],
    /// Per covered column, the offset of its lowest cell above the piece's bottom row.
    pub bottoms: [u8; 4],
    /// Per covered column, the offset just above its highest cell: the column's new height
    /// is the landing row plus this.
    pub tops: [u8; 4],
    /// Per covered column, how many cells the piece puts there (always one unbroken run).
    pub cells: [u8; 4],
}

impl Drop {
    /// The drop of a piece whose cells in each covered column, left to right, are `masks`
    /// (bit r = row r above the piece's bottom row; the first mask empty for no column), with
    /// its leftmost cell in `column`.
    pub fn new(orientation: u8, column: u8, masks: [u64; 4]) -> Drop {
        let span = masks.iter().take_while(|&&m| m != 0).count();
        let rows = masks
            .iter()
            .map(|m| 64 - m.leading_zeros())
            .max()
            .unwrap_or(0) as usize;
        let mut bottoms = [0u8; 4];
        let mut tops = [0u8; 4];
        let mut cells = [0u8; 4];
        for x in 0..span {
            bottoms[x] = masks[x].trailing_zeros() as u8;
            tops[x] = (64 - masks[x].leading_zeros()) as u8;
            cells[x] = masks[x].count_ones() as u8;
        }
        Drop {
            orientation,
            column,
            span: span as u8,
            rows: rows as u8,
            mid_row: (rows as f64 - 1.0) / 2.0,
            masks,
            bottoms,
            tops,
            cells,
        }
    }
}

/// The drop table of a board width: for each piece, its drops in enumeration order
/// (orientation by orientation, columns left to right).
#[derive(Clone, Debug)]
pub struct DropTable {
    drops: Vec<Drop>,
    ranges: [(usize, usize); 7],
    /// Per piece and orientation, where its drop at column 0 is among the piece's drops, so
    /// playing a placement finds its drop without a search.
    firsts: [[u8; 4]; 7],
}

impl DropTable {
    /// Builds the table for a board `width` columns wide.
    pub fn new(width: usize) -> DropTable {
        let mut drops = Vec::new();
        let mut ranges = [(0, 0); 7];
        let mut firsts = [[0; 4]; 7];
        for (piece, shapes) in SHAPES.iter().enumerate() {
            let start = drops.len();
            for (orientation, picture) in shapes.iter().enumerate() {
                firsts[piece][orientation] = (drops.len() - start) as u8;
                let rows = picture.len();
                let span = picture[0].len();
                let mut masks = [0u64; 4];
                for (top_index, line) in picture.iter().enumerate() {
                    let row = rows - 1 - top_index;
                    for (x, ch) in line.chars().enumerate() {
                        if ch == '#' {
                            masks[x] |= 1 << row;
                        }
                    }
                }
                for column in 0..=width.saturating_sub(span) {
                    if span > width {
                        break;
                    }
                    drops.push(Drop::new(orientation as u8, column as u8, masks));
                }
            }
            ranges[piece] = (start, drops.len());
        }
        DropTable {
            drops,
            ranges,
            firsts,
        }
    }

    /// The drops of one piece, in enumeration order.
    #[inline]
    pub fn drops(&self, piece: u8) -> &[Drop] {
        let (start, end) = self.ranges[piece as usize];
        &self.drops[start..end]
    }

    /// The drop of `piece` in `orientation` at `column`, if the board has it.
    #[inline]
    pub fn find(&self, piece: u8, orientation: u8, column: u8) -> Option<&Drop> {
        let drops = self.drops(piece);
        let first = *self.firsts[piece as usize].get(orientation as usize)?;
        let drop = drops.get(first as usize + column as usize)?;
        (drop.orientation == orientation && drop.column == column).then_some(drop)
    }

    /// How many distinct orientations the piece has.
    pub fn orientations(piece: u8) -> usize {
        SHAPES[piece as usize].len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn width_ten_has_162_placements() {
        let table = DropTable::new(10);
        let counts: Vec<usize> = (0..7).map(|p| table.drops(p).len()).collect();
        // I, O, T, S, Z, L, J as the tetris README counts them.
        assert_eq!(counts, vec![17, 9, 34, 17, 17, 34, 34]);
        assert_eq!(counts.iter().sum::<usize>(), 162);
    }

    #[test]
    fn every_orientation_has_four_cells_in_unbroken_column_runs() {
        let table = DropTable::new(6);
        for piece in 0..7 {
            for drop in table.drops(piece) {
                let cells: u32 = drop.masks.iter().map(|m| m.count_ones()).sum();
                assert_eq!(cells, 4);
                for x in 0..drop.span as usize {
                    let run = (drop.tops[x] - drop.bottoms[x]) as u32;
                    assert_eq!(run, drop.cells[x] as u32);
                    assert_eq!(drop.masks[x], ((1 << run) - 1) << drop.bottoms[x]);
                }
                assert_eq!(drop.tops.iter().max().copied(), Some(drop.rows));
            }
        }
    }

    #[test]
    fn every_drop_is_found_by_its_placement_and_no_other() {
        let table = DropTable::new(10);
        for piece in 0..7 {
            for drop in table.drops(piece) {
                let found = table.find(piece, drop.orientation, drop.column).unwrap();
                assert_eq!(
                    (found.orientation, found.column),
                    (drop.orientation, drop.column)
                );
            }
            let orientations = DropTable::orientations(piece) as u8;
            assert!(table.find(piece, orientations, 0).is_none());
            assert!(table.find(piece, 0, 10).is_none());
        }
        // The vertical I (orientation 0) fits column 9; the horizontal I does not fit column 7.
        assert!(table.find(0, 0, 9).is_some());
        assert!(table.find(0, 1, 7).is_none());
    }

    #[test]
    fn letters_round_trip() {
        for (i, &l) in PIECE_LETTERS.iter().enumerate() {
            assert_eq!(piece_index(l), Some(i as u8));
            assert_eq!(piece_index(l.to_ascii_lowercase()), Some(i as u8));
        }
        assert_eq!(piece_index('X'), None);
    }
}

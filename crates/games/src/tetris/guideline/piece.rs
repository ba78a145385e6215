//! The seven tetrominoes as the guideline moves them: four rotation states about a centre
//! cell, and the Super Rotation System's kicks.
//!
//! A piece's place is its centre as the Tetris Bot Protocol defines it (SRS "true rotation":
//! the cell the J, L, S, T and Z pieces turn about; for I and O the cell the TBP names), so a
//! [`Pose`] is what a TBP `location` says, with no conversion. Turning about the centre is the
//! plain quarter turn (x, y) → (y, −x); SRS's offsets then move the piece so that I and O turn
//! about their true centres and every piece tries its five kick positions in order. The kicks
//! are the differences of the offset tables of the guideline's SRS (TetrisWiki, "SRS", "How
//! Guideline SRS Really Works"); tests/integration/guideline.rs checks them against the published
//! kick tables cell for cell.

use std::fmt;

/// The pieces in their index order, as the TBP names them.
pub const LETTERS: [char; 7] = ['I', 'O', 'T', 'L', 'J', 'S', 'Z'];

pub const I: u8 = 0;
pub const O: u8 = 1;
pub const T: u8 = 2;

/// Rotation states in their index order, as the TBP names them: spawn, then clockwise.
pub const ROTATIONS: [&str; 4] = ["north", "east", "south", "west"];

/// The index of a piece letter (case-insensitive).
pub fn piece_index(letter: char) -> Option<u8> {
    let upper = letter.to_ascii_uppercase();
    LETTERS.iter().position(|&l| l == upper).map(|i| i as u8)
}

/// The index of a rotation state's name.
pub fn rotation_index(name: &str) -> Option<u8> {
    ROTATIONS.iter().position(|&r| r == name).map(|i| i as u8)
}

/// A piece in a rotation state with its centre at (x, y), y = 0 the bottom row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pose {
    pub piece: u8,
    pub rotation: u8,
    pub x: i8,
    pub y: i8,
}

impl Pose {
    /// The four cells the piece covers.
    #[inline]
    pub fn cells(&self) -> [(i8, i8); 4] {
        CELLS[self.piece as usize][self.rotation as usize]
            .map(|(dx, dy)| (self.x + dx, self.y + dy))
    }

    /// The same cells under the pose that lists them first: S, Z and I look alike turned
    /// half round, and O in every state, so placements that differ only there are one.
    #[inline]
    pub fn canonical(&self) -> Pose {
        let (rotation, dx, dy) = CANONICAL[self.piece as usize][self.rotation as usize];
        Pose {
            rotation,
            x: self.x + dx,
            y: self.y + dy,
            ..*self
        }
    }
}

impl fmt::Display for Pose {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "{} {} x={} y={}",
            LETTERS[self.piece as usize], ROTATIONS[self.rotation as usize], self.x, self.y
        )
    }
}

/// The cells of a piece in the spawn state, relative to its centre.
const SPAWN_CELLS: [[(i8, i8); 4]; 7] = [
    [(-1, 0), (0, 0), (1, 0), (2, 0)], // I: the centre is the middle-left cell
    [(0, 0), (1, 0), (0, 1), (1, 1)],  // O: the bottom-left cell
    [(-1, 0), (0, 0), (1, 0), (0, 1)], // T
    [(-1, 0), (0, 0), (1, 0), (1, 1)], // L
    [(-1, 0), (0, 0), (1, 0), (-1, 1)], // J
    [(-1, 0), (0, 0), (0, 1), (1, 1)], // S
    [(-1, 1), (0, 1), (0, 0), (1, 0)], // Z
];

/// A quarter turn clockwise about the centre, `turns` times.
const fn turned(cells: [(i8, i8); 4], turns: u8) -> [(i8, i8); 4] {
    let mut out = cells;
    let mut t = 0;
    while t < turns {
        let mut i = 0;
        while i < 4 {
            out[i] = (out[i].1, -out[i].0);
            i += 1;
        }
        t += 1;
    }
    out
}

/// Every piece's cells in every rotation state, relative to its centre.
pub const CELLS: [[[(i8, i8); 4]; 4]; 7] = {
    let mut table = [[[(0, 0); 4]; 4]; 7];
    let mut p = 0;
    while p < 7 {
        let mut r = 0;
        while r < 4 {
            table[p][r] = turned(SPAWN_CELLS[p], r as u8);
            r += 1;
        }
        p += 1;
    }
    table
};

/// SRS's offsets per rotation state, five tests each: a turn from state a to state b tries
/// the translations `OFFSETS[a][i] − OFFSETS[b][i]` in order and takes the first that fits.
const fn offsets(piece: u8) -> [[(i8, i8); 5]; 4] {
    match piece {
        I => [
            [(0, 0), (-1, 0), (2, 0), (-1, 0), (2, 0)],
            [(-1, 0), (0, 0), (0, 0), (0, 1), (0, -2)],
            [(-1, 1), (1, 1), (-2, 1), (1, 0), (-2, 0)],
            [(0, 1), (0, 1), (0, 1), (0, -1), (0, 2)],
        ],
        O => [[(0, 0); 5], [(0, -1); 5], [(-1, -1); 5], [(-1, 0); 5]],
        _ => [
            [(0, 0); 5],
            [(0, 0), (1, 0), (1, -1), (0, 2), (1, 2)],
            [(0, 0); 5],
            [(0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2)],
        ],
    }
}

/// A turn's five kick tests, in order.
pub type Tests = [(i8, i8); 5];

/// The kick tests of a turn: `KICKS[piece][from][direction]`, direction 0 clockwise and 1
/// counter-clockwise.
pub const KICKS: [[[Tests; 2]; 4]; 7] = {
    let mut table = [[[[(0, 0); 5]; 2]; 4]; 7];
    let mut p = 0;
    while p < 7 {
        let off = offsets(p as u8);
        let mut from = 0;
        while from < 4 {
            let mut d = 0;
            while d < 2 {
                let to = turn(from as u8, d as u8) as usize;
                let mut i = 0;
                while i < 5 {
                    table[p][from][d][i] =
                        (off[from][i].0 - off[to][i].0, off[from][i].1 - off[to][i].1);
                    i += 1;
                }
                d += 1;
            }
            from += 1;
        }
        p += 1;
    }
    table
};

/// A rotation system: how a quarter turn kicks. A setting (`--kicks`), since TETR.IO plays
/// SRS+ where the guideline plays SRS.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kicks {
    /// The guideline's Super Rotation System.
    Srs,
    /// TETR.IO's SRS+: the I piece's quarter-turn tests reordered into a left-right mirror
    /// image; every other piece as SRS (docs/guideline.md, "TETR.IO rules").
    SrsPlus,
}

impl Kicks {
    pub const NAMES: [&'static str; 2] = ["srs", "srs+"];

    pub fn parse(name: &str) -> Option<Kicks> {
        match name {
            "srs" => Some(Kicks::Srs),
            "srs+" => Some(Kicks::SrsPlus),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Kicks::Srs => "srs",
            Kicks::SrsPlus => "srs+",
        }
    }

    /// The quarter-turn tests of every piece, as [`KICKS`] lays them out.
    #[inline]
    pub fn table(self) -> &'static [[[Tests; 2]; 4]; 7] {
        match self {
            Kicks::Srs => &KICKS,
            Kicks::SrsPlus => &SRS_PLUS_KICKS,
        }
    }
}

/// SRS+'s I tests as TETR.IO publishes them (the 4 × 4 box's translations, y up), by
/// from-state and direction: halp1/triangle `src/engine/utils/kicks/data.ts` (`SRS+`
/// `i_kicks`) and CSDotNET0211/TetrioVirtualEnvironment `KicksetSRSPlus.cs`, y negated.
const SRS_PLUS_I_BOX: [[Tests; 2]; 4] = [
    [
        [(0, 0), (1, 0), (-2, 0), (-2, -1), (1, 2)], // 0 -> R
        [(0, 0), (-1, 0), (2, 0), (2, -1), (-1, 2)], // 0 -> L
    ],
    [
        [(0, 0), (-1, 0), (2, 0), (-1, 2), (2, -1)], // R -> 2
        [(0, 0), (-1, 0), (2, 0), (-1, -2), (2, 1)], // R -> 0
    ],
    [
        [(0, 0), (2, 0), (-1, 0), (2, 1), (-1, -2)], // 2 -> L
        [(0, 0), (-2, 0), (1, 0), (-2, 1), (1, -2)], // 2 -> R
    ],
    [
        [(0, 0), (1, 0), (-2, 0), (1, -2), (-2, 1)], // L -> 0
        [(0, 0), (1, 0), (-2, 0), (1, 2), (-2, -1)], // L -> 2
    ],
];

/// SRS+'s quarter-turn tests on the pieces' centres: the box's translations plus the shift
/// by which SRS's first test keeps the I's box in place (the same in both systems).
pub const SRS_PLUS_KICKS: [[[Tests; 2]; 4]; 7] = {
    let mut table = KICKS;
    let mut from = 0;
    while from < 4 {
        let mut d = 0;
        while d < 2 {
            let (cx, cy) = KICKS[I as usize][from][d][0];
            let mut i = 0;
            while i < 5 {
                let (kx, ky) = SRS_PLUS_I_BOX[from][d][i];
                table[I as usize][from][d][i] = (kx + cx, ky + cy);
                i += 1;
            }
            d += 1;
        }
        from += 1;
    }
    table
};

/// A half turn's tests. TETR.IO's I and O have fewer than six: their lists end by repeating
/// their last test, which can never fit where it did not fit the first time.
pub type HalfTests = [(i8, i8); 6];

/// TETR.IO's half-turn tests as it publishes them (box translations, y up), by from-state:
/// J, L, S, T, Z, then I, then O (none: it turns in place). Sources as [`SRS_PLUS_I_BOX`]
/// (`kicks` and `i_kicks` "02", "13", "20", "31"); Kixenon/cobra-tetrio-movegen agrees for
/// J, L, S, T, Z and gives I the same six, which both replay-tested engines contradict.
const HALF_BOX: [[HalfTests; 4]; 3] = [
    [
        [(0, 0), (0, 1), (1, 1), (-1, 1), (1, 0), (-1, 0)], // 0 -> 2
        [(0, 0), (1, 0), (1, 2), (1, 1), (0, 2), (0, 1)],   // R -> L
        [(0, 0), (0, -1), (-1, -1), (1, -1), (-1, 0), (1, 0)], // 2 -> 0
        [(0, 0), (-1, 0), (-1, 2), (-1, 1), (0, 2), (0, 1)], // L -> R
    ],
    [
        [(0, 0), (0, 1), (0, 1), (0, 1), (0, 1), (0, 1)],
        [(0, 0), (1, 0), (1, 0), (1, 0), (1, 0), (1, 0)],
        [(0, 0), (0, -1), (0, -1), (0, -1), (0, -1), (0, -1)],
        [(0, 0), (-1, 0), (-1, 0), (-1, 0), (-1, 0), (-1, 0)],
    ],
    [[(0, 0); 6]; 4],
];

/// Half-turn tests on the pieces' centres, `HALF_KICKS[piece][from]`: the box's translations
/// plus the shift of two clockwise first tests, which keeps the box in place.
pub const HALF_KICKS: [[HalfTests; 4]; 7] = {
    let mut table = [[[(0, 0); 6]; 4]; 7];
    let mut p = 0;
    while p < 7 {
        let boxed = match p as u8 {
            I => &HALF_BOX[1],
            O => &HALF_BOX[2],
            _ => &HALF_BOX[0],
        };
        let mut from = 0;
        while from < 4 {
            let first = KICKS[p][from][0][0];
            let second = KICKS[p][(from + 1) % 4][0][0];
            let mut i = 0;
            while i < 6 {
                table[p][from][i] = (
                    boxed[from][i].0 + first.0 + second.0,
                    boxed[from][i].1 + first.1 + second.1,
                );
                i += 1;
            }
            from += 1;
        }
        p += 1;
    }
    table
};

/// The state after turning `from` clockwise (direction 0) or counter-clockwise (1).
#[inline]
pub const fn turn(from: u8, direction: u8) -> u8 {
    if direction == 0 {
        (from + 1) % 4
    } else {
        (from + 3) % 4
    }
}

/// For each (piece, state), the state listed first with the same cells and the shift that
/// maps the pose onto it (see [`Pose::canonical`]).
const CANONICAL: [[(u8, i8, i8); 4]; 7] = {
    let mut table = [[(0, 0, 0); 4]; 7];
    let mut p = 0;
    while p < 7 {
        let mut r = 0;
        while r < 4 {
            table[p][r] = (r as u8, 0, 0);
            // The first earlier state whose cells are these cells shifted.
            let mut e = 0;
            while e < r {
                if let Some((dx, dy)) = shift_between(CELLS[p][r], CELLS[p][e]) {
                    table[p][r] = (e as u8, dx, dy);
                    break;
                }
                e += 1;
            }
            r += 1;
        }
        p += 1;
    }
    table
};

/// The (dx, dy) with `b` shifted by it covering exactly the cells of `a`, if there is one.
const fn shift_between(a: [(i8, i8); 4], b: [(i8, i8); 4]) -> Option<(i8, i8)> {
    // Align the lowest-then-leftmost cells, then check every cell of `a` is in `b` shifted.
    let (ma, mb) = (min_cell(a), min_cell(b));
    let (dx, dy) = (ma.0 - mb.0, ma.1 - mb.1);
    let mut i = 0;
    while i < 4 {
        let mut found = false;
        let mut j = 0;
        while j < 4 {
            if b[j].0 + dx == a[i].0 && b[j].1 + dy == a[i].1 {
                found = true;
            }
            j += 1;
        }
        if !found {
            return None;
        }
        i += 1;
    }
    // `a` = `b` + (dx, dy): the state-a pose at (x, y) is the state-b pose at (x + dx, y + dy).
    Some((dx, dy))
}

const fn min_cell(c: [(i8, i8); 4]) -> (i8, i8) {
    let mut m = c[0];
    let mut i = 1;
    while i < 4 {
        if c[i].1 < m.1 || (c[i].1 == m.1 && c[i].0 < m.0) {
            m = c[i];
        }
        i += 1;
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(mut cells: [(i8, i8); 4]) -> [(i8, i8); 4] {
        cells.sort();
        cells
    }

    #[test]
    fn canonical_poses_cover_the_same_cells() {
        for piece in 0..7u8 {
            for rotation in 0..4u8 {
                let pose = Pose {
                    piece,
                    rotation,
                    x: 4,
                    y: 10,
                };
                assert_eq!(
                    sorted(pose.cells()),
                    sorted(pose.canonical().cells()),
                    "{pose}"
                );
            }
        }
        // S, Z and I have two distinct states, O one, the rest four.
        let distinct = |piece: u8| {
            (0..4u8)
                .filter(|&r| CANONICAL[piece as usize][r as usize].0 == r)
                .count()
        };
        assert_eq!(distinct(I), 2);
        assert_eq!(distinct(O), 1);
        assert_eq!(distinct(T), 4);
        assert_eq!(distinct(5), 2);
        assert_eq!(distinct(6), 2);
    }

    #[test]
    fn the_tbp_centres_are_the_named_cells() {
        // TBP: I's centre is the middle-left cell facing north, the middle-top facing east,
        // the middle-right facing south and the middle-bottom facing west.
        assert_eq!(sorted(CELLS[0][1]), [(0, -2), (0, -1), (0, 0), (0, 1)]);
        assert_eq!(sorted(CELLS[0][2]), [(-2, 0), (-1, 0), (0, 0), (1, 0)]);
        assert_eq!(sorted(CELLS[0][3]), [(0, -1), (0, 0), (0, 1), (0, 2)]);
        // O: bottom-left north, top-left east, top-right south, bottom-right west.
        assert_eq!(sorted(CELLS[1][1]), [(0, -1), (0, 0), (1, -1), (1, 0)]);
        assert_eq!(sorted(CELLS[1][2]), [(-1, -1), (-1, 0), (0, -1), (0, 0)]);
        assert_eq!(sorted(CELLS[1][3]), [(-1, 0), (-1, 1), (0, 0), (0, 1)]);
    }
}

//! The two rulesets: which placements they offer, how a pair lands, how chains resolve and
//! score.
//!
//! `programming` is the seed ruleset of `testdata/puyo/README.md` (12 rows, a placement is legal
//! when both puyos find room). `tsu` follows Puyo Puyo Tsu: a hidden 13th row, placements
//! limited by what the falling pair can reach from its spawn column, Tsu's score formula and
//! the all-clear bonus.
//!
//! Tsu reachability, as implemented (heights `h` count the hidden row; the pair spawns in
//! column x = 2). Placement (x, r) with child column c is offered when all of these hold:
//!
//! 1. `h[2] < 12` (otherwise the game is over);
//! 2. not child-below (r = 3) onto `h[x] ≥ 12`: the axis would land in row 14;
//! 3. no column on the path from column 2 to the farther of x and c (both included) is 13
//!    high (so neither x nor c is);
//! 4. either no path column is 12 high (a plain slide), or the pair can climb with quick
//!    turns: walking from the column just before the 12-high path column nearest to column 2
//!    back towards and past column 2 (away from that column) over columns lower than 12, some
//!    column is exactly 11 high (a foothold); or columns 1 and 3 are both at least 12 high
//!    (the pair is lifted between them). The path runs to the child's column when it is the
//!    farther one, as in ama's move generator (citrus610/ama, `core/move.cpp`): a pair in
//!    column 2 turning its child onto a 12-high column 1 climbs from a foothold on the right.
//!
//! A puyo that would land in row 14 (the child of a child-above pair on a 12-high column)
//! vanishes. The all-clear bonus (+2100) is added to the score of the next move that fires a
//! chain after the field was emptied, as in Tsu.

use super::field::{
    Field, Links, MAX_COLOURS, MAX_ROWS, VISIBLE, VISIBLE_ROWS, WIDTH, cell, flood, neighbours,
};

/// A ruleset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rules {
    /// The seed rules of the rules vectors.
    Programming,
    /// Puyo Puyo Tsu.
    Tsu,
}

/// Every ruleset, the default first: `--rules` names are their [`Rules::name`]s.
pub const ALL_RULES: [Rules; 2] = [Rules::Programming, Rules::Tsu];

/// The column the pair spawns in and whose 12th row ends the game when filled.
pub const SPAWN_COLUMN: usize = 2;

/// The cell whose filling ends the game.
const DEATH_CELL: u128 = cell(SPAWN_COLUMN, VISIBLE_ROWS - 1);

/// Points for emptying the field in Tsu, paid with the next chain.
pub const ALL_CLEAR_BONUS: u32 = 2100;

/// Chain power by chain number for the programming rules (`CHAIN` of the rules README); Tsu
/// uses the same sequence one chain later, capped at 512.
const CHAIN_POWER: [u32; 24] = [
    0, 8, 16, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544,
    576, 608, 640, 672,
];
/// Index of Tsu's cap (512, reached at chain 19).
const TSU_CHAIN_CAP: usize = 18;
/// Programming rules: bonus by puyos erased in the step (`PIECE`).
const PIECE_BONUS: [u32; 12] = [0, 0, 0, 0, 2, 3, 4, 5, 6, 7, 10, 10];
/// Tsu: bonus per popped group by its size.
const GROUP_BONUS: [u32; 12] = [0, 0, 0, 0, 0, 2, 3, 4, 5, 6, 7, 10];
/// Bonus by distinct colours popped in the step (both rulesets).
const COLOUR_BONUS: [u32; MAX_COLOURS + 1] = [0, 0, 3, 6, 12, 24];

/// The two colours of a falling pair, 1-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pair {
    pub axis: u8,
    pub child: u8,
}

/// Where the pair goes: the axis column and how the child sits around the axis (0 right,
/// 1 above, 2 left, 3 below).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    pub column: u8,
    pub rotation: u8,
}

/// Column offset of the child by rotation.
const DX: [isize; 4] = [1, 0, -1, 0];

impl Placement {
    /// The child's column, `None` when the axis or the child is off the field or the rotation
    /// is not 0..=3 (user input and rules vectors may say so).
    pub fn child_column(self) -> Option<usize> {
        let (x, r) = (self.column as usize, self.rotation as usize);
        if x >= WIDTH || r >= DX.len() {
            return None;
        }
        x.checked_add_signed(DX[r]).filter(|&c| c < WIDTH)
    }
}

const fn enumerate() -> [Placement; 22] {
    let mut out = [Placement {
        column: 0,
        rotation: 0,
    }; 22];
    let (mut n, mut r) = (0, 0);
    while r < 4 {
        let mut x = 0;
        while x < WIDTH {
            let c = x as isize + DX[r];
            if c >= 0 && c < WIDTH as isize {
                out[n] = Placement {
                    column: x as u8,
                    rotation: r as u8,
                };
                n += 1;
            }
            x += 1;
        }
        r += 1;
    }
    out
}

/// Every placement on the field, rotation by rotation: rotations 2 and 3 come last so that the
/// first 11 are the distinct placements of a same-colour pair.
pub const PLACEMENTS: [Placement; 22] = enumerate();

/// The distinct placements of `pair`, in the fixed enumeration order: rotations 2 and 3 of a
/// same-colour pair cover the same cells as rotations 0 and 1.
pub fn placements(pair: Pair) -> &'static [Placement] {
    if pair.axis == pair.child {
        &PLACEMENTS[..11]
    } else {
        &PLACEMENTS
    }
}

/// One step of a chain, for rules vectors, tests and versus timing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Step {
    /// Colour puyos erased (nuisance popped beside them does not score).
    pub erased: u32,
    pub colours: u32,
    pub score: u32,
    /// Rows the farthest-falling puyo fell after the pop (0 when nothing fell): how long the
    /// step takes in a versus match.
    pub fallen: u32,
}

/// What resolving a field did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Chain {
    /// Chain steps: 0 when nothing popped.
    pub chains: u32,
    /// Puyos erased over all steps.
    pub erased: u32,
    /// Points over all steps (and the all-clear bonus when [`Rules::play`] pays it).
    pub score: u32,
}

impl Chain {
    /// This chain followed by `later` as one move's worth for the features: the longer chain
    /// and the points of both.
    #[inline]
    pub fn then(self, later: Chain) -> Chain {
        Chain {
            chains: self.chains.max(later.chains),
            erased: self.erased + later.erased,
            score: self.score + later.score,
        }
    }
}

/// One placement played out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    /// The settled field.
    pub field: Field,
    pub chain: Chain,
    /// An all-clear bonus is owed to the next chain (Tsu).
    pub all_clear: bool,
    /// The death cell is filled: the game is over.
    pub game_over: bool,
}

/// The groups of ≥ 4 among those touching `seeds`.
#[derive(Clone, Copy, Debug, Default)]
struct Pop {
    cells: u128,
    erased: u32,
    colours: u32,
    group_bonus: u32,
}

/// Finds the groups of 4 or more visible puyos that contain a seed. Only groups with a puyo
/// that was just added or just fell can be new, so a group that touches no seed is left
/// alone; the cells in groups of 4 come from [`Links`] without a flood fill, so only the
/// groups that pop are flooded, to tell them apart for the group bonus.
#[inline]
fn find_pops(field: &Field, seeds: u128) -> Pop {
    let mut pop = Pop::default();
    for &plane in field.planes() {
        let within = plane & VISIBLE;
        if seeds & within == 0 {
            continue;
        }
        let popping = Links::of(within).in_groups_of_four(within);
        let mut todo = seeds & popping;
        if todo == 0 {
            continue;
        }
        pop.colours += 1;
        while todo != 0 {
            // Groups of the same colour never touch, so each is whole within `popping`.
            let group = flood(todo & todo.wrapping_neg(), popping);
            todo &= !group;
            let n = group.count_ones();
            pop.cells |= group;
            pop.erased += n;
            pop.group_bonus += GROUP_BONUS[(n as usize).min(GROUP_BONUS.len() - 1)];
        }
    }
    pop
}

impl Rules {
    /// The ruleset called `name`, if any.
    pub fn parse(name: &str) -> Option<Rules> {
        ALL_RULES.into_iter().find(|r| r.name() == name)
    }

    /// The name configs, weight files and reports use.
    pub fn name(self) -> &'static str {
        match self {
            Rules::Programming => "programming",
            Rules::Tsu => "tsu",
        }
    }

    /// Rows a column can hold under these rules.
    pub fn rows(self) -> u32 {
        match self {
            Rules::Programming => VISIBLE_ROWS,
            Rules::Tsu => MAX_ROWS,
        }
    }

    /// Whether the rules offer `placement` on a field with these column heights (see the module
    /// documentation for Tsu).
    pub fn offers(self, h: &[u32; WIDTH], placement: Placement) -> bool {
        let Some(c) = placement.child_column() else {
            return false;
        };
        let x = placement.column as usize;
        match self {
            Rules::Programming if c == x => h[x] + 2 <= VISIBLE_ROWS,
            Rules::Programming => h[x] < VISIBLE_ROWS && h[c] < VISIBLE_ROWS,
            Rules::Tsu => tsu_reaches(h, x, c, placement.rotation),
        }
    }

    /// The points of chain step `chain` (1-based).
    fn step_score(self, chain: u32, pop: &Pop) -> u32 {
        let colour = COLOUR_BONUS[pop.colours as usize];
        let bonus = match self {
            Rules::Programming => {
                let power = CHAIN_POWER[(chain as usize).min(CHAIN_POWER.len() - 1)];
                let piece = PIECE_BONUS[(pop.erased as usize).min(PIECE_BONUS.len() - 1)];
                (power + piece + colour).max(1)
            }
            Rules::Tsu => {
                let power = CHAIN_POWER[(chain as usize - 1).min(TSU_CHAIN_CAP)];
                (power + pop.group_bonus + colour).clamp(1, 999)
            }
        };
        10 * pop.erased * bonus
    }

    /// Pops, lets fall and repeats until nothing pops, starting from the groups that touch
    /// `seeds` (the puyos just added); `on_step` sees every step.
    #[inline]
    pub fn resolve(self, field: &mut Field, seeds: u128, on_step: &mut impl FnMut(Step)) -> Chain {
        let mut chain = Chain::default();
        let mut seeds = seeds;
        loop {
            let pop = find_pops(field, seeds);
            if pop.cells == 0 {
                return chain;
            }
            chain.chains += 1;
            let score = self.step_score(chain.chains, &pop);
            chain.erased += pop.erased;
            chain.score += score;
            // Visible nuisance next to a popping group pops with it.
            let cells = pop.cells | (neighbours(pop.cells) & field.nuisance() & VISIBLE);
            on_step(Step {
                erased: pop.erased,
                colours: pop.colours,
                score,
                fallen: fallen(field.occupied(), cells),
            });
            seeds = field.erase(cells);
        }
    }

    /// Plays an offered `placement` of `pair` on `field` (whose column heights are `heights`):
    /// lands both puyos, resolves the chain, pays an owed all-clear bonus when a chain fires
    /// (`all_clear`), and checks the death cell.
    #[inline]
    pub fn play(
        self,
        field: &Field,
        heights: &[u32; WIDTH],
        pair: Pair,
        placement: Placement,
        all_clear: bool,
        on_step: &mut impl FnMut(Step),
    ) -> Played {
        debug_assert!(self.offers(heights, placement));
        let x = placement.column as usize;
        let c = placement.child_column().unwrap_or(x);
        let rows = self.rows();
        let mut after = *field;
        // A puyo without room vanishes; only Tsu offers such placements (row 14).
        let seeds = if c == x {
            let (lower, upper) = if placement.rotation == 3 {
                (pair.child, pair.axis)
            } else {
                (pair.axis, pair.child)
            };
            after.drop_onto(x, heights[x], lower, rows).unwrap_or(0)
                | after.drop_onto(x, heights[x] + 1, upper, rows).unwrap_or(0)
        } else {
            after.drop_onto(x, heights[x], pair.axis, rows).unwrap_or(0)
                | after
                    .drop_onto(c, heights[c], pair.child, rows)
                    .unwrap_or(0)
        };
        let mut chain = self.resolve(&mut after, seeds, on_step);
        let mut owed = all_clear;
        if chain.chains > 0 && self == Rules::Tsu {
            if owed {
                chain.score += ALL_CLEAR_BONUS;
            }
            owed = after.occupied() == 0;
        }
        Played {
            field: after,
            chain,
            all_clear: owed,
            game_over: after.occupied() & DEATH_CELL != 0,
        }
    }
}

/// The most rows a puyo of `occupied` falls once `erased` is removed: in each column, the erased
/// cells below its highest puyo that stays.
#[inline]
fn fallen(occupied: u128, erased: u128) -> u32 {
    (0..WIDTH)
        .map(|x| {
            let lane = |set: u128| (set >> (16 * x)) as u16;
            let (column, gone) = (lane(occupied), lane(erased));
            let stays = column & !gone;
            match stays {
                0 => 0,
                _ => {
                    let below_top = (1u16 << (15 - stays.leading_zeros())) - 1;
                    (gone & below_top).count_ones()
                }
            }
        })
        .max()
        .unwrap_or(0)
}

/// Tsu reachability (rules 1 to 4 of the module documentation).
fn tsu_reaches(h: &[u32; WIDTH], x: usize, c: usize, rotation: u8) -> bool {
    let (twelve, thirteen) = (VISIBLE_ROWS, MAX_ROWS);
    if h[SPAWN_COLUMN] >= twelve {
        return false;
    }
    if rotation == 3 && h[x] >= twelve {
        return false;
    }
    let far = if c.abs_diff(SPAWN_COLUMN) > x.abs_diff(SPAWN_COLUMN) {
        c
    } else {
        x
    };
    let step: isize = if far < SPAWN_COLUMN { -1 } else { 1 };
    let mut wall = None;
    let mut k = SPAWN_COLUMN as isize;
    loop {
        let hk = h[k as usize];
        if hk >= thirteen {
            return false;
        }
        if hk == twelve && wall.is_none() {
            wall = Some(k);
        }
        if k == far as isize {
            break;
        }
        k += step;
    }
    let Some(wall) = wall else {
        return true;
    };
    let mut k = wall - step;
    while (0..WIDTH as isize).contains(&k) && h[k as usize] < twelve {
        if h[k as usize] == twelve - 1 {
            return true;
        }
        k -= step;
    }
    h[SPAWN_COLUMN - 1] >= twelve && h[SPAWN_COLUMN + 1] >= twelve
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enumeration_has_22_placements_and_same_colour_prefix_is_distinct() {
        assert_eq!(PLACEMENTS.len(), 22);
        let same = placements(Pair { axis: 1, child: 1 });
        assert_eq!(same.len(), 11);
        assert!(same.iter().all(|p| p.rotation <= 1));
        assert_eq!(placements(Pair { axis: 1, child: 2 }).len(), 22);
    }

    #[test]
    fn off_field_placements_have_no_child_column() {
        let p = |column, rotation| Placement { column, rotation };
        assert_eq!(p(5, 0).child_column(), None);
        assert_eq!(p(0, 2).child_column(), None);
        assert_eq!(p(6, 1).child_column(), None);
        assert_eq!(p(2, 4).child_column(), None);
        assert_eq!(p(2, 2).child_column(), Some(1));
    }

    #[test]
    fn tsu_chain_power_caps_at_512_from_chain_19() {
        let pop = Pop {
            cells: 1,
            erased: 4,
            colours: 1,
            group_bonus: 0,
        };
        let power = |c| Rules::Tsu.step_score(c, &pop) / 40;
        assert_eq!(
            (1..=7).map(power).collect::<Vec<_>>(),
            [1, 8, 16, 32, 64, 96, 128]
        );
        assert_eq!(power(19), 512);
        assert_eq!(power(25), 512);
    }

    #[test]
    fn tsu_bonus_is_clamped_to_999() {
        let pop = Pop {
            cells: 1,
            erased: 40,
            colours: 5,
            group_bonus: 500,
        };
        assert_eq!(Rules::Tsu.step_score(19, &pop), 10 * 40 * 999);
    }
}

//! Perfect play for 7 × 6 Connect Four, after the techniques Pascal Pons published: bitboards,
//! negamax alpha-beta over centre-first moves, a transposition table of bounds, a null-window
//! search that homes in on the score, moves that hand the opponent a win pruned before they are
//! searched, and moves sorted by how many winning cells they create.
//!
//! Scores follow Pons' convention, for the side to move: 22 − (its own discs when it wins) for
//! a forced win, 0 for a draw, the negative of the opponent's such number for a loss.

use super::board::{Geometry, MAX_COLUMNS, centre_first};
use super::{Connect, Position};
use stacktune_base::progress::{Meter, Stopped};
use std::ops::RangeInclusive;

/// The board the solver knows; also the layout of [`Connect::standard`] positions.
const GEOMETRY: Geometry = Geometry::new(6, 7, 4);
pub const COLUMNS: usize = 7;
const CELLS: i32 = 42;
/// The best score is a win with the fourth disc, the worst a loss to the opponent's fourth.
const MIN_SCORE: i32 = -(CELLS / 2) + 3;
const MAX_SCORE: i32 = (CELLS + 1) / 2 - 3;
/// Columns centre first: in Connect Four the central moves are usually the best.
const ORDER: [u8; MAX_COLUMNS] = centre_first(COLUMNS as u32);

/// Pons' published test positions with their scores: what the tests and the benchmark solve.
pub const PUBLISHED_VECTORS: [(&str, i32); 10] = [
    ("2252576253462244111563365343671351441", -1),
    ("7422341735647741166133573473242566", 1),
    ("23163416124767223154467471272416755633", 0),
    ("67152117737262713366376314254", 6),
    ("2762751722231276466633475674533", 5),
    ("427566236745127177115664464254", 2),
    ("5775265212657176476365522624313714333", 2),
    ("3575316255751336464276636772271112", -3),
    ("3642756176227637211322113551637574556", 2),
    ("65214673556155731566316327373221417", -1),
];

/// A position as the search sees it: the discs of the side to move and all discs.
#[derive(Clone, Copy, Debug)]
struct Node {
    current: u64,
    mask: u64,
    moves: i32,
}

impl Node {
    fn of(position: &Position) -> Node {
        debug_assert_eq!(
            position.occupied() & !GEOMETRY.board(),
            0,
            "not a 7 × 6 position"
        );
        Node {
            current: position.discs(position.to_move()),
            mask: position.occupied(),
            moves: position.moves_played() as i32,
        }
    }

    /// Unique per position: in each column, mask + current sets one bit above the discs and
    /// keeps the pattern of the side to move below it (below 2^49). Mirror images get keys of
    /// their own: sharing one slot saved 0.2 % of the nodes on the L2_R2 set and cost 7 % of
    /// the time in folding the columns.
    #[inline]
    fn key(&self) -> u64 {
        self.current + self.mask
    }

    #[inline]
    fn playable(&self) -> u64 {
        GEOMETRY.playable(self.mask)
    }

    #[inline]
    fn can_win_next(&self) -> bool {
        GEOMETRY.winning_cells(self.current, self.mask) & self.playable() != 0
    }

    /// Playable cells that do not let the opponent win at once: none when the opponent has two
    /// wins to block, only the block when it has one, and never the cell under an opponent's
    /// winning cell.
    #[inline]
    fn non_losing_moves(&self) -> u64 {
        let mut playable = self.playable();
        let opponent_wins = GEOMETRY.winning_cells(self.current ^ self.mask, self.mask);
        let forced = playable & opponent_wins;
        if forced != 0 {
            if forced & (forced - 1) != 0 {
                return 0;
            }
            playable = forced;
        }
        playable & !(opponent_wins >> 1)
    }

    /// The position after the side to move drops a disc on `cell`.
    #[inline]
    fn after(&self, cell: u64) -> Node {
        Node {
            current: self.current ^ self.mask,
            mask: self.mask | cell,
            moves: self.moves + 1,
        }
    }

    /// How many cells would complete a line for the side to move after it plays `cell`: moves
    /// that create threats are tried first.
    #[inline]
    fn threats_after(&self, cell: u64) -> u32 {
        GEOMETRY
            .winning_cells(self.current | cell, self.mask | cell)
            .count_ones()
    }

    /// The score of winning with the next disc.
    fn win_now_score(&self) -> i32 {
        (CELLS + 1 - self.moves) / 2
    }
}

/// A bound on a position's score, as the table stores it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Upper(i32),
    Lower(i32),
}

/// The largest prime below 2^20: 1 M slots, 8 MB. Small enough that most probes hit the
/// processor's caches and need no page walk: on the L2_R2 set it searched 1.4 % more nodes
/// than 8 M slots (64 MB) but took 26 % less time, and 4 M or 2 M slots were in between
/// (docs/notes/connect.md).
pub const SLOTS: usize = 1_048_573;

/// The largest prime below 2^26: 64 M slots, 512 MB, for the first plies, whose trees hold
/// far more positions than a small table keeps: with it two cores proved the values of the
/// four one-disc positions (the game's solution) in 7.3 minutes, where with [`SLOTS`] the
/// centre opening alone gave no result within a minute (docs/connect.md, Opening book).
pub const OPENING_SLOTS: usize = 67_108_859;

/// Transposition table of bounds, one slot per key modulo a prime. A slot is one `u64` (the
/// key, below 2^49, above the bound's byte) so that a probe costs a single cache miss: the
/// misses, not the move generation, bound the solver's speed. The size is a constant so that
/// the modulo compiles to multiplications.
struct Table<const SIZE: usize> {
    slots: Vec<u64>,
}

impl<const SIZE: usize> Table<SIZE> {
    const LOWER: u64 = 64;

    fn new() -> Self {
        Table {
            slots: vec![0; SIZE],
        }
    }

    /// Starts loading a slot that will be probed soon, so that its cache and TLB misses
    /// overlap with move generation (this halves the solve time of early positions).
    #[inline]
    fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let slot: *const u64 = &self.slots[(key % SIZE as u64) as usize];
            // SAFETY: a prefetch is only a hint about a valid address; it cannot fault.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(slot.cast()) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    #[inline]
    fn get(&self, key: u64) -> Option<Bound> {
        let slot = self.slots[(key % SIZE as u64) as usize];
        let v = slot & 0xFF;
        if v == 0 || slot >> 8 != key {
            return None;
        }
        Some(if v >= Self::LOWER {
            Bound::Lower((v - Self::LOWER) as i32 + MIN_SCORE - 1)
        } else {
            Bound::Upper(v as i32 + MIN_SCORE - 1)
        })
    }

    #[inline]
    fn put(&mut self, key: u64, bound: Bound) {
        let encode = |score: i32| {
            debug_assert!((MIN_SCORE..=MAX_SCORE).contains(&score));
            (score - MIN_SCORE + 1) as u64
        };
        let v = match bound {
            Bound::Upper(s) => encode(s),
            Bound::Lower(s) => Self::LOWER + encode(s),
        };
        self.slots[(key % SIZE as u64) as usize] = key << 8 | v;
    }
}

/// A Connect Four solver. Keep one for many positions: table entries are facts about
/// positions, valid whatever the search started from (a search stopped by its meter's time
/// limit records nothing it did not finish).
pub struct Solver<const SIZE: usize = SLOTS> {
    table: Table<SIZE>,
    /// Counts the nodes, shows them and says when the time is up.
    meter: Meter,
}

impl Default for Solver {
    fn default() -> Self {
        Solver::new()
    }
}

impl Solver {
    /// A solver that never stops and shows nothing.
    pub fn new() -> Solver {
        Solver::sized()
    }

    /// A solver that shows its progress and stops at the time limit of `meter`.
    pub fn metered(meter: Meter) -> Solver {
        Solver {
            table: Table::new(),
            meter,
        }
    }
}

impl<const SIZE: usize> Solver<SIZE> {
    /// A solver of `SIZE` table slots that never stops and shows nothing.
    pub fn sized() -> Self {
        Solver {
            table: Table::new(),
            meter: Meter::unbounded(),
        }
    }

    /// Positions searched since the solver was made or last restarted.
    pub fn nodes(&self) -> u64 {
        self.meter.nodes()
    }

    /// Starts the meter over (count, clock and time limit) for the next position of a batch,
    /// keeping the table: what it learnt from earlier positions stays true and saves work.
    pub fn restart(&mut self, label: &str) {
        self.meter.restart(label);
    }

    /// Runs `print` with the progress spinner hidden, so a result line does not tear it.
    pub fn suspend<R>(&self, print: impl FnOnce() -> R) -> R {
        self.meter.suspend(print)
    }

    /// The exact score of a [`Connect::standard`] position in play, for its side to move; an
    /// error when the meter's time limit stopped the search.
    pub fn solve(&mut self, position: &Position) -> Result<i32, Stopped> {
        let score = self.solve_node(Node::of(position));
        self.meter.result(score)
    }

    /// The exact score of a [`Connect::standard`] position when it lies in `range`, `None`
    /// when it does not. Cheaper than [`solve`](Self::solve) for a position outside: the
    /// search only proves a bound, which is what a test set generator rejects most
    /// candidates with.
    pub fn solve_within(
        &mut self,
        position: &Position,
        range: RangeInclusive<i32>,
    ) -> Result<Option<i32>, Stopped> {
        let (low, high) = (
            range.start().saturating_sub(1),
            range.end().saturating_add(1),
        );
        let score = self.solve_clamped(Node::of(position), low, high);
        self.meter
            .result((low < score && score < high).then_some(score))
    }

    /// The score of every column (`None` when full): what each move leaves for the side to
    /// move, so the best columns are the ones equal to [`solve`](Self::solve)'s score.
    pub fn analyse(&mut self, position: &Position) -> Result<[Option<i32>; COLUMNS], Stopped> {
        let node = Node::of(position);
        let wins = GEOMETRY.winning_cells(node.current, node.mask);
        let playable = node.playable();
        let columns = std::array::from_fn(|c| {
            let cell = playable & GEOMETRY.column_mask(c as u32);
            (cell != 0).then(|| {
                if cell & wins != 0 {
                    node.win_now_score()
                } else {
                    -self.solve_node(node.after(cell))
                }
            })
        });
        self.meter.result(columns)
    }

    /// Whether the score of a position in play is above `score` for its side to move: one
    /// null-window search, far cheaper than [`solve`](Self::solve)'s exact score when only
    /// the result matters (`is_above(p, 0)`: does the side to move win?).
    pub fn is_above(&mut self, position: &Position, score: i32) -> Result<bool, Stopped> {
        // Clamped to [score, score + 1], the narrowing is that one search.
        let clamped = self.solve_clamped(Node::of(position), score, score.saturating_add(1));
        self.meter.result(clamped > score)
    }

    fn solve_node(&mut self, node: Node) -> i32 {
        self.solve_clamped(node, i32::MIN, i32::MAX)
    }

    /// The score clamped to [low, high]. Narrows [min, max] with null-window searches, each
    /// asking "is the score above med?"; probing near 0 first, where most scores lie, proves
    /// the result with the fewest nodes.
    fn solve_clamped(&mut self, node: Node, low: i32, high: i32) -> i32 {
        if node.moves == CELLS {
            return 0.clamp(low, high);
        }
        if node.can_win_next() {
            return node.win_now_score().clamp(low, high);
        }
        let mut min = (-(CELLS - node.moves) / 2).clamp(low, high);
        let mut max = ((CELLS + 1 - node.moves) / 2).clamp(low, high);
        while min < max {
            let mut med = min + (max - min) / 2;
            if med <= 0 && min / 2 < med {
                med = min / 2;
            } else if med >= 0 && max / 2 > med {
                med = max / 2;
            }
            let r = self.negamax(node, med, med + 1);
            if self.meter.stopped() {
                break;
            }
            // Fail-soft results may overshoot the clamped range.
            if r <= med {
                max = r.max(min);
            } else {
                min = r.min(max);
            }
        }
        min
    }

    /// Fail-soft negamax within (alpha, beta) for a node whose side to move cannot win at once:
    /// the caller has played that move already, or pruned the node.
    fn negamax(&mut self, node: Node, mut alpha: i32, mut beta: i32) -> i32 {
        debug_assert!(alpha < beta && !node.can_win_next());
        // Once stopped, every node returns at once, and none stores a bound it did not prove.
        if !self.meter.node() {
            return 0;
        }
        let next = node.non_losing_moves();
        if next == 0 {
            // Every move lets the opponent win with its next disc.
            return -(CELLS - node.moves) / 2;
        }
        if node.moves >= CELLS - 2 {
            // Two cells left and neither side can win in them.
            return 0;
        }
        // The opponent cannot win with its next disc; we cannot win with this one.
        let min = -(CELLS - 2 - node.moves) / 2;
        if alpha < min {
            alpha = min;
            if alpha >= beta {
                return alpha;
            }
        }
        let max = (CELLS - 1 - node.moves) / 2;
        if beta > max {
            beta = max;
            if alpha >= beta {
                return beta;
            }
        }
        let key = node.key();
        match self.table.get(key) {
            Some(Bound::Upper(upper)) if beta > upper => {
                beta = upper;
                if alpha >= beta {
                    return beta;
                }
            }
            Some(Bound::Lower(lower)) if alpha < lower => {
                alpha = lower;
                if alpha >= beta {
                    return alpha;
                }
            }
            _ => {}
        }
        // Moves by decreasing threats created, centre first among equals (insertion sort).
        let mut moves = [(0u64, 0u32); COLUMNS];
        let mut count = 0;
        for &c in &ORDER[..COLUMNS] {
            let cell = next & GEOMETRY.column_mask(c as u32);
            if cell == 0 {
                continue;
            }
            self.table.prefetch(node.after(cell).key());
            let score = node.threats_after(cell);
            let mut i = count;
            while i > 0 && moves[i - 1].1 < score {
                moves[i] = moves[i - 1];
                i -= 1;
            }
            moves[i] = (cell, score);
            count += 1;
        }
        for &(cell, _) in &moves[..count] {
            let score = -self.negamax(node.after(cell), -beta, -alpha);
            if self.meter.stopped() {
                return 0;
            }
            if score >= beta {
                self.table.put(key, Bound::Lower(score));
                return score;
            }
            alpha = alpha.max(score);
        }
        self.table.put(key, Bound::Upper(alpha));
        alpha
    }
}

/// How many more discs a game lasts under perfect play from a position with `moves_played`
/// discs and `score` (Pons' convention): until the winner's last disc, or the board is full.
/// What Pons' test sets are graded by (their R1, R2, R3: fewer than 14, 14 to 27, 28 or more).
pub fn remaining_moves(moves_played: u32, score: i32) -> u32 {
    let played = moves_played as i32;
    let remaining = match score.signum() {
        0 => CELLS - played,
        // The side to move has played ⌊moves / 2⌋ discs and wins with its (22 − score)-th.
        1 => 2 * ((CELLS + 2) / 2 - score - played / 2) - 1,
        // The opponent has played ⌈moves / 2⌉ and wins with its (22 + score)-th.
        _ => 2 * ((CELLS + 2) / 2 + score - (played + 1) / 2),
    };
    remaining as u32
}

/// The published vectors as positions: what the solver benchmark solves.
pub fn published_positions() -> Vec<Position> {
    let game = Connect::standard();
    PUBLISHED_VECTORS
        .iter()
        .map(|(moves, _)| {
            game.parse_moves(moves)
                .expect("published positions are in play")
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::connect::Ending;
    use crate::connect::agents::{Agent, RandomAgent};
    use stacktune_base::rng::game_stream;

    /// Plain minimax over the engine's own rules, scored in Pons' convention.
    fn brute_force(game: &Connect, position: &Position) -> i32 {
        let g = game.geometry();
        let mut best = i32::MIN;
        for column in 0..g.columns() as u8 {
            let mut after = *position;
            let value = match game.play(&mut after, column) {
                Some(Ending::Forfeit) => continue,
                Some(Ending::Win) => (CELLS + 1 - position.moves_played() as i32) / 2,
                Some(Ending::Draw) => 0,
                None => -brute_force(game, &after),
            };
            best = best.max(value);
        }
        best
    }

    /// The remaining discs of a perfect game, counted by hand: a win now, a loss to the next
    /// disc, a draw, the empty board and a published vector.
    #[test]
    fn remaining_moves_counts_discs_to_the_end_of_a_perfect_game() {
        // X to move with 10 discs played wins with its 6th disc: now (score 22 − 6 = 16).
        assert_eq!(remaining_moves(10, 16), 1);
        // O to move with 11 played wins with its 6th disc: now (22 − 6 = 16).
        assert_eq!(remaining_moves(11, 16), 1);
        // X to move with 10 played loses to O's 6th disc: X plays, then O wins (−16).
        assert_eq!(remaining_moves(10, -16), 2);
        // A draw lasts to the full board; the empty board scores 1: X wins with its 21st disc.
        assert_eq!(remaining_moves(30, 0), 12);
        assert_eq!(remaining_moves(0, 1), 41);
        // Published vector 4: 29 discs played, score 6 for O: O wins with its 16th disc.
        assert_eq!(remaining_moves(29, 6), 2 * (16 - 14) - 1);
    }

    /// On the published positions, the score is above one less than itself and not above
    /// itself: one null-window search answers as the exact score does.
    #[test]
    fn is_above_agrees_with_the_published_scores() {
        let mut solver = Solver::new();
        for (position, (moves, score)) in published_positions().iter().zip(PUBLISHED_VECTORS) {
            assert_eq!(solver.is_above(position, score - 1), Ok(true), "{moves}");
            assert_eq!(solver.is_above(position, score), Ok(false), "{moves}");
            assert_eq!(solver.is_above(position, 0), Ok(score > 0), "{moves}");
        }
    }

    /// On the published positions, a range holding the score gives it, ranges just above,
    /// just below and at the far ends give nothing, and the full range is `solve`.
    #[test]
    fn solve_within_finds_only_scores_in_range() {
        let mut solver = Solver::new();
        for (position, (moves, score)) in published_positions().iter().zip(PUBLISHED_VECTORS) {
            let within = |solver: &mut Solver, range| solver.solve_within(position, range).unwrap();
            assert_eq!(within(&mut solver, score..=score), Some(score), "{moves}");
            assert_eq!(
                within(&mut solver, score - 2..=score + 1),
                Some(score),
                "{moves}"
            );
            assert_eq!(within(&mut solver, score + 1..=MAX_SCORE), None, "{moves}");
            assert_eq!(within(&mut solver, MIN_SCORE..=score - 1), None, "{moves}");
            assert_eq!(
                within(&mut solver, i32::MIN..=i32::MAX),
                Some(score),
                "{moves}"
            );
        }
        // Fresh tables, so that no bound is left over from the searches above.
        let last = published_positions()[9];
        assert_eq!(Solver::new().solve_within(&last, 1..=3), Ok(None));
        assert_eq!(Solver::new().solve_within(&last, -3..=-1), Ok(Some(-1)));
    }

    #[test]
    fn table_round_trips_every_bound() {
        let mut table = Table::<SLOTS>::new();
        for s in MIN_SCORE..=MAX_SCORE {
            table.put(12345, Bound::Upper(s));
            assert_eq!(table.get(12345), Some(Bound::Upper(s)));
            table.put(12345, Bound::Lower(s));
            assert_eq!(table.get(12345), Some(Bound::Lower(s)));
            assert_eq!(table.get(12345 + SLOTS as u64), None);
        }
    }

    /// Random continuations of the published positions down to the last ten empty cells,
    /// where plain minimax is fast enough: the solver and its analysis agree with it.
    #[test]
    fn solver_agrees_with_brute_force_on_endgames() {
        let game = Connect::standard();
        let mut solver = Solver::new();
        let mut checked = 0;
        for (seed, mut position) in published_positions().into_iter().enumerate() {
            let mut rng = game_stream(seed as u64, 0);
            let mut random = RandomAgent::new(&game);
            loop {
                if position.moves_played() >= 32 {
                    let exact = brute_force(&game, &position);
                    assert_eq!(solver.solve(&position), Ok(exact), "{position:?}");
                    let best = solver
                        .analyse(&position)
                        .unwrap()
                        .into_iter()
                        .flatten()
                        .max();
                    assert_eq!(best, Some(exact));
                    checked += 1;
                }
                let column = random.choose(&position, &mut rng);
                if game.play(&mut position, column).is_some() {
                    break;
                }
            }
        }
        assert!(checked >= 10, "only {checked} endgames");
    }
}

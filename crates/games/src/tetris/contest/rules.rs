//! The contest's rules: pieces and their states, the move procedure, hold, spawns, scoring.
//!
//! Coordinates follow the contest: x from the left, y from the TOP (0..22), a piece placed by
//! its reference point. The board is the research [`Board`] (one bit mask per column, bit r =
//! row r from the bottom, so contest row y is bit 21 − y), which lends the research features
//! to this ruleset unchanged.

use super::stream::Dealer;
use crate::tetris::board::Board;
use crate::tetris::pieces::Drop;

pub const WIDTH: usize = 10;
pub const HEIGHT: usize = 22;
/// Turns in a game at levels 1-3 (the 180th is played and scored).
pub const TURNS: u32 = 180;
/// The most turns a level-4 game plays, and its default: the contest stops it after 180 s of
/// wall clock ticking every 1 ms, one turn a tick for a controller that answers in time.
pub const LEVEL_4_TURNS: u32 = 180_000;
/// Where every piece spawns, in state 0.
pub const SPAWN_X: i32 = 5;
pub const SPAWN_Y: i32 = 1;
/// Rows of the contest's level-3 obstacles: y = 12..22, i.e. the ten bottom rows.
const OBSTACLE_ROWS: usize = 10;
/// Points for 0-4 lines cleared by one lock.
const LINE_SCORE: [i32; 5] = [0, 100, 300, 700, 1300];
/// The cost of a game over.
pub const GAME_OVER_PENALTY: i32 = -500;
/// Piece letters by contest index (0 = none).
pub const LETTERS: [char; 8] = ['-', 'I', 'L', 'J', 'T', 'O', 'S', 'Z'];
pub const I: u8 = 1;
const O: u8 = 5;

/// One piece in one state: its cells and, per column it covers, the run of rows it fills.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    pub cells: [(i8, i8); 4],
    /// Per covered column: (dx, top dy, bottom dy); each piece's cells in a column are one run.
    runs: [(i8, i8, i8); 4],
    nruns: u8,
    /// The state whose cells these are (O: 0; I, S, Z: 0 or 1): same cells, same outcomes.
    pub canonical: u8,
}

/// State 0 offsets from the README, by contest index.
const BASE: [[(i8, i8); 4]; 8] = [
    [(0, 0); 4],
    [(0, -1), (0, 0), (0, 1), (0, 2)],
    [(0, -1), (0, 0), (0, 1), (1, 1)],
    [(0, -1), (0, 0), (0, 1), (-1, 1)],
    [(0, -1), (0, 0), (0, 1), (1, 0)],
    [(0, 0), (0, -1), (1, 0), (1, -1)],
    [(0, 0), (0, -1), (-1, 0), (1, -1)],
    [(0, 0), (0, -1), (1, 0), (-1, -1)],
];

/// Whether a piece has only two states (state 2 = 0, state 3 = 1).
const fn two_states(piece: usize) -> bool {
    matches!(piece, 1 | 6 | 7)
}

const fn shape(piece: usize, state: usize) -> Shape {
    let canonical = if piece == O as usize {
        0
    } else if two_states(piece) {
        state % 2
    } else {
        state
    };
    let mut cells = BASE[piece];
    let mut i = 0;
    while i < 4 {
        let (x, y) = cells[i];
        cells[i] = match canonical {
            0 => (x, y),
            1 => (-y, x),
            2 => (-x, -y),
            _ => (y, -x),
        };
        i += 1;
    }
    let mut runs = [(0i8, 0i8, 0i8); 4];
    let mut nruns = 0;
    let mut i = 0;
    while i < 4 {
        let (dx, dy) = cells[i];
        let mut j = 0;
        while j < nruns && runs[j].0 != dx {
            j += 1;
        }
        if j == nruns {
            runs[j] = (dx, dy, dy);
            nruns += 1;
        } else {
            if dy < runs[j].1 {
                runs[j].1 = dy;
            }
            if dy > runs[j].2 {
                runs[j].2 = dy;
            }
        }
        i += 1;
    }
    Shape {
        cells,
        runs,
        nruns: nruns as u8,
        canonical: canonical as u8,
    }
}

const fn shapes() -> [[Shape; 4]; 8] {
    let mut out = [[shape(0, 0); 4]; 8];
    let mut p = 1;
    while p < 8 {
        let mut s = 0;
        while s < 4 {
            out[p][s] = shape(p, s);
            s += 1;
        }
        p += 1;
    }
    out
}

/// Every piece's four states, by contest index (entry 0 unused).
pub static SHAPES: [[Shape; 4]; 8] = shapes();

/// A controller's answer for one turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Request {
    pub hold: bool,
    /// The state asked for, 0..=3.
    pub rotation: u8,
    /// The column asked for the reference point, 0..=9.
    pub x: u8,
}

/// Where a piece locked: its raw state and reference point, and how far it fell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Landing {
    pub state: u8,
    pub x: i32,
    pub y: i32,
    pub drop: u32,
}

/// The board, the piece to play, hold and previews, the turn and the failed-spawn count.
/// Plain data: a search may copy it freely.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pub board: Board,
    /// The piece to play (1..=7; 0 past the known previews).
    pub current: u8,
    /// The held piece, 0 when the hold is empty.
    pub hold: u8,
    /// The five previews, soonest first (0 = not known yet).
    pub next: [u8; 5],
    /// Turns played (u32: a level-4 game plays up to [`LEVEL_4_TURNS`]).
    pub turn: u32,
    /// Failed spawns so far: the next one is a game over when this is even.
    pub failures: u32,
    /// The pieces come in the fixed cycle (contest seed 0): a search may know the piece after
    /// the last preview, the one that follows it in the cycle ([`cycle_after`]).
    pub cycle: bool,
}

/// The piece after `piece` in the fixed cycle I, L, J, T, O, S, Z (1 to 7); 0 (not known) stays
/// 0.
pub fn cycle_after(piece: u8) -> u8 {
    if piece == 0 { 0 } else { piece % 7 + 1 }
}

/// What one turn did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Turn {
    /// `None` on an empty-hold turn, which places nothing.
    pub landing: Option<Landing>,
    /// The piece that moved (after any swap with hold); 0 on an empty-hold turn.
    pub piece: u8,
    /// Rows removed by the lock, as bits of the board before removal.
    pub full: u64,
    pub lines: u32,
    /// A spawn failed for the 1st, 3rd, ... time after the move: −500 and a fresh board.
    pub game_over: bool,
    /// A spawn failed for the 2nd, 4th, ... time: the piece spawned over the stack.
    pub overlap_spawn: bool,
    /// Score gained by the turn (lines, drop bonus, all-clear bonus, game-over penalty).
    pub points: i32,
}

impl Turn {
    /// A turn that has done nothing yet.
    const NOTHING: Turn = Turn {
        landing: None,
        piece: 0,
        full: 0,
        lines: 0,
        game_over: false,
        overlap_spawn: false,
        points: 0,
    };
}

/// The settings that change the rules: the level and the July-2023 all-clear bonus.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    pub level: u8,
    pub all_clear_bonus: bool,
}

/// The bit of contest row `y` in a column mask.
#[inline(always)]
fn row_bit(y: i32) -> u64 {
    1 << (HEIGHT as i32 - 1 - y)
}

/// Whether the piece fits with its reference point at (x, y): every cell inside the board
/// and empty. Only the cells the piece goes to are tested.
#[inline(always)]
pub fn fits(board: &Board, shape: &Shape, x: i32, y: i32) -> bool {
    shape.cells.iter().all(|&(dx, dy)| {
        let (cx, cy) = (x + dx as i32, y + dy as i32);
        (0..WIDTH as i32).contains(&cx)
            && (0..HEIGHT as i32).contains(&cy)
            && board.column(cx as usize) & row_bit(cy) == 0
    })
}

/// Rotates a spawned piece clockwise toward `rotation`, stopping at the first blocked state:
/// the state reached.
#[inline(always)]
pub fn rotate(board: &Board, piece: u8, rotation: u8) -> u8 {
    let shapes = &SHAPES[piece as usize];
    let mut state = 0;
    while state < rotation && fits(board, &shapes[state as usize + 1], SPAWN_X, SPAWN_Y) {
        state += 1;
    }
    state
}

/// The columns a spawned piece in `state` reaches, each side at most five shifts away and
/// short of the first blocked step: every column in between is reached by asking for it.
#[inline(always)]
pub fn reach(board: &Board, shape: &Shape) -> (i32, i32) {
    let mut left = SPAWN_X;
    while left > SPAWN_X - 5 && fits(board, shape, left - 1, SPAWN_Y) {
        left -= 1;
    }
    let mut right = SPAWN_X;
    while right < SPAWN_X + 5 && fits(board, shape, right + 1, SPAWN_Y) {
        right += 1;
    }
    (left, right)
}

/// Rows the piece falls from (x, y) before a move down is blocked. A move down tests only
/// the cells the piece goes to, so per covered column the piece passes every row below its top
/// cell until the first filled one, which may lie inside its own run when it overlaps the stack.
#[inline(always)]
pub fn drop_distance(board: &Board, shape: &Shape, x: i32, y: i32) -> u32 {
    let mut fall = i32::MAX;
    for &(dx, top, bottom) in &shape.runs[..shape.nruns as usize] {
        let col = board.column((x + dx as i32) as usize);
        // Filled rows strictly below the run's top cell, as bits below its bit.
        let below = col & (row_bit(y + top as i32) - 1);
        let first = if below == 0 {
            HEIGHT as i32
        } else {
            HEIGHT as i32 - 1 - (63 - below.leading_zeros() as i32)
        };
        fall = fall.min(first - (y + bottom as i32) - 1);
    }
    fall.max(0) as u32
}

/// The whole move procedure for a spawned `piece`: rotate, shift, hard drop.
pub fn land(board: &Board, piece: u8, rotation: u8, x: u8) -> Landing {
    let state = rotate(board, piece, rotation);
    let shape = &SHAPES[piece as usize][state as usize];
    let (left, right) = reach(board, shape);
    drop_from_spawn(board, state, shape, (x as i32).clamp(left, right))
}

/// The hard drop of a piece in `state` (cells `shape`) shifted to column `x` at the spawn row.
#[inline(always)]
pub fn drop_from_spawn(board: &Board, state: u8, shape: &Shape, x: i32) -> Landing {
    let drop = drop_distance(board, shape, x, SPAWN_Y);
    Landing {
        state,
        x,
        y: SPAWN_Y + drop as i32,
        drop,
    }
}

/// Whether the piece at the spawn, shifted to `x`, lies above the stack in every column it
/// covers: then the contest's hard drop lands it where the research rules' drop from above
/// does, and the research board's incremental features apply.
#[inline(always)]
pub fn above_stack(board: &Board, shape: &Shape, x: i32) -> bool {
    shape.runs[..shape.nruns as usize]
        .iter()
        .all(|&(dx, _, bottom)| {
            let height = 64 - board.column((x + dx as i32) as usize).leading_zeros() as i32;
            height <= HEIGHT as i32 - 1 - (SPAWN_Y + bottom as i32)
        })
}

/// The rows the piece with its reference point at (x, y) completes, as row bits: what
/// [`lock`] would remove, without locking.
#[inline(always)]
pub fn completed_rows(board: &Board, shape: &Shape, x: i32, y: i32) -> u64 {
    let mut cols = [0u64; WIDTH];
    for (x, c) in cols.iter_mut().enumerate() {
        *c = board.column(x);
    }
    for &(dx, dy) in &shape.cells {
        cols[(x + dx as i32) as usize] |= row_bit(y + dy as i32);
    }
    cols.iter().fold((1 << HEIGHT) - 1, |full, &c| full & c)
}

/// Every piece's research-style drops, indexed by [`drop_index`]: the cells of each state as
/// masks per covered column, for the research board's incremental features.
pub fn research_drops() -> Vec<Drop> {
    let mut drops = Vec::with_capacity(8 * 4 * WIDTH);
    for piece_shapes in &SHAPES {
        for (state, shape) in piece_shapes.iter().enumerate() {
            let min_dx = shape.cells.iter().map(|c| c.0).min().unwrap_or(0);
            let max_dy = shape.cells.iter().map(|c| c.1).max().unwrap_or(0);
            let mut masks = [0u64; 4];
            for &(dx, dy) in &shape.cells {
                masks[(dx - min_dx) as usize] |= 1 << (max_dy - dy);
            }
            for x in 0..WIDTH as i32 {
                // Columns the reference point cannot take are never looked up.
                let column = (x + min_dx as i32).max(0) as u8;
                drops.push(Drop::new(state as u8, column, masks));
            }
        }
    }
    drops
}

/// Where the drop of `piece` in `state` with its reference point at column `x` is in
/// [`research_drops`].
#[inline(always)]
pub fn drop_index(piece: u8, state: u8, x: i32) -> usize {
    (piece as usize * 4 + state as usize) * WIDTH + x as usize
}

/// Locks the piece (overwriting any cell it overlaps) and removes full rows: the rows removed,
/// as a mask of row bits of the board before removal.
#[inline(always)]
pub fn lock(board: &mut Board, shape: &Shape, x: i32, y: i32) -> u64 {
    for &(dx, dy) in &shape.cells {
        board.fill((x + dx as i32) as usize, row_bit(y + dy as i32));
    }
    let full = board.full_rows();
    if full != 0 {
        board.remove_rows(full);
    }
    full
}

/// Whether `piece` can spawn on `board`.
#[inline(always)]
pub fn spawn_fits(board: &Board, piece: u8) -> bool {
    fits(board, &SHAPES[piece as usize][0], SPAWN_X, SPAWN_Y)
}

/// Whether the board holds no cell.
#[inline(always)]
pub fn is_empty(board: &Board) -> bool {
    (0..WIDTH).all(|x| board.column(x) == 0)
}

impl Rules {
    /// Points for a lock that cleared `lines`, fell `drop` rows and left the board as
    /// `empty` says.
    #[inline(always)]
    pub fn lock_points(&self, lines: u32, drop: u32, empty: bool) -> i32 {
        let all_clear = self.all_clear_bonus && empty && lines > 0;
        let bonus = match (all_clear, self.level) {
            (false, _) => 0,
            (true, 1 | 2) => 500,
            (true, _) => 4000,
        };
        LINE_SCORE[lines as usize] + drop as i32 + bonus
    }

    /// A fresh board: empty, with the obstacles of level 3 drawn from `dealer`.
    pub fn fresh_board(&self, dealer: &mut impl Dealer) -> Board {
        let mut board = Board::empty(WIDTH, HEIGHT);
        if self.level >= 3 {
            // Rows y = 12..22 top to bottom, each left to right: bits 9 down to 0.
            for bit in (0..OBSTACLE_ROWS).rev() {
                for x in 0..WIDTH {
                    if dealer.obstacle() {
                        board.fill(x, 1 << bit);
                    }
                }
            }
        }
        board
    }

    /// The first position of a game: the board (obstacles first), the five previews, then
    /// the first spawn.
    pub fn start(&self, dealer: &mut impl Dealer) -> Position {
        let board = self.fresh_board(dealer);
        let mut next = [0; 5];
        for p in &mut next {
            *p = dealer.piece();
        }
        let mut position = Position {
            board,
            current: 0,
            hold: 0,
            next,
            turn: 0,
            failures: 0,
            cycle: dealer.cycles(),
        };
        advance(&mut position, dealer.piece());
        position
    }

    /// Plays one turn for real, drawing from `dealer`.
    pub fn play(
        &self,
        position: &mut Position,
        request: Request,
        dealer: &mut impl Dealer,
    ) -> Turn {
        let turn = self.settle(position, request);
        if turn.game_over {
            position.board = self.fresh_board(dealer);
        }
        advance(position, dealer.piece());
        turn
    }

    /// A turn up to the next spawn, with nothing drawn: hold, the move, the lock, and whether
    /// the next spawn fails (counted in `position.failures`). The board is left as the lock
    /// left it: after a game over (whose penalty `points` includes) the fresh board is the
    /// caller's to draw, so features may still read the locked board.
    #[inline(always)]
    pub fn settle(&self, position: &mut Position, request: Request) -> Turn {
        match begin(position, request.hold) {
            None => self.stashed(position),
            Some(piece) => {
                let landing = land(&position.board, piece, request.rotation, request.x);
                self.locked(position, piece, landing)
            }
        }
    }

    /// The rest of an empty-hold turn after [`begin`]: nothing placed, the next piece spawns.
    #[inline(always)]
    pub fn stashed(&self, position: &mut Position) -> Turn {
        let mut turn = Turn::NOTHING;
        self.check_spawn(position, &mut turn);
        turn
    }

    /// The rest of a turn after [`begin`] once `piece` has landed: the lock, its points and
    /// the next spawn.
    #[inline(always)]
    pub fn locked(&self, position: &mut Position, piece: u8, landing: Landing) -> Turn {
        let shape = &SHAPES[piece as usize][landing.state as usize];
        let full = lock(&mut position.board, shape, landing.x, landing.y);
        self.scored(position, piece, landing, full)
    }

    /// The rest of a turn once `piece` has locked and the rows `full` are gone from
    /// `position.board`: its points and the next spawn.
    #[inline(always)]
    pub fn scored(&self, position: &mut Position, piece: u8, landing: Landing, full: u64) -> Turn {
        let mut turn = Turn::NOTHING;
        turn.full = full;
        turn.lines = full.count_ones();
        turn.points = self.lock_points(
            turn.lines,
            landing.drop,
            full != 0 && is_empty(&position.board),
        );
        turn.landing = Some(landing);
        turn.piece = piece;
        self.check_spawn(position, &mut turn);
        turn
    }

    /// Counts a failed spawn of the next piece: odd failures are game overs, even ones spawn
    /// over the stack.
    #[inline(always)]
    fn check_spawn(&self, position: &mut Position, turn: &mut Turn) {
        if !spawn_fits(&position.board, position.next[0]) {
            position.failures += 1;
            turn.game_over = position.failures % 2 == 1;
            turn.overlap_spawn = !turn.game_over;
            if turn.game_over {
                turn.points += GAME_OVER_PENALTY;
            }
        }
    }
}

/// Starts a turn: counts it and applies hold. The piece to move, or `None` on an empty-hold
/// turn (the current piece went to hold); on a swap the held piece plays, put at the spawn
/// without a collision check.
#[inline(always)]
pub fn begin(position: &mut Position, hold: bool) -> Option<u8> {
    position.turn += 1;
    let mut piece = position.current;
    if hold {
        if position.hold == 0 {
            position.hold = piece;
            return None;
        }
        std::mem::swap(&mut position.hold, &mut piece);
    }
    Some(piece)
}

/// The next piece spawns and `drawn` joins the previews.
#[inline(always)]
pub fn advance(position: &mut Position, drawn: u8) {
    position.current = position.next[0];
    position.next.copy_within(1.., 0);
    position.next[4] = drawn;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tetris::contest::stream::ContestStream;

    fn board_with(rows: &[(i32, &str)]) -> Board {
        let mut board = Board::empty(WIDTH, HEIGHT);
        for &(y, row) in rows {
            for (x, c) in row.chars().enumerate() {
                if c == '#' {
                    board.fill(x, row_bit(y));
                }
            }
        }
        board
    }

    fn rules(level: u8) -> Rules {
        Rules {
            level,
            all_clear_bonus: false,
        }
    }

    #[test]
    fn vertical_i_at_the_left_wall_falls_18_rows() {
        let board = Board::empty(WIDTH, HEIGHT);
        let l = land(&board, I, 0, 0);
        assert_eq!((l.state, l.x, l.y, l.drop), (0, 0, 19, 18));
        let points = rules(2).lock_points(0, l.drop, false);
        assert_eq!(points, 18);
    }

    #[test]
    fn i_into_a_four_row_well_scores_1318_or_1818_with_the_all_clear_bonus() {
        let row = "#########.";
        let board = board_with(&[(18, row), (19, row), (20, row), (21, row)]);
        for (bonus, expected) in [(false, 1318), (true, 1818)] {
            let mut position = Position {
                board,
                current: I,
                hold: 0,
                next: [2, 2, 2, 2, 2],
                turn: 0,
                failures: 0,
                cycle: false,
            };
            let r = Rules {
                level: 2,
                all_clear_bonus: bonus,
            };
            let request = Request {
                hold: false,
                rotation: 0,
                x: 9,
            };
            let turn = r.settle(&mut position, request);
            assert_eq!(turn.lines, 4);
            assert_eq!(turn.points, expected);
            assert!(is_empty(&position.board));
        }
        // Level 3's all-clear is worth 4,000.
        let level_3 = Rules {
            level: 3,
            all_clear_bonus: true,
        };
        assert_eq!(level_3.lock_points(4, 18, true), 5318);
        assert_eq!(level_3.lock_points(0, 18, true), 18);
    }

    #[test]
    fn blocked_shift_stops_next_to_the_blocking_cells() {
        let board = board_with(&[(1, "...#......"), (2, "...#......")]);
        assert_eq!(land(&board, I, 0, 0).x, 4);
    }

    #[test]
    fn rotation_stops_at_the_first_blocked_intermediate_state() {
        // I state 1 is horizontal at y = 1: a cell at (3, 1) blocks it, so asking for state 3
        // (which has the same cells as state 1) ends in state 0.
        let board = board_with(&[(1, "...#......")]);
        assert_eq!(rotate(&board, I, 3), 0);
        assert_eq!(rotate(&Board::empty(WIDTH, HEIGHT), I, 3), 3);
    }

    #[test]
    fn seed_1_level_3_deals_the_readme_obstacles_then_pieces() {
        let mut dealer = ContestStream::new(1);
        let position = rules(3).start(&mut dealer);
        let rows = position.board.to_rows();
        assert_eq!(
            rows[12..],
            [
                "#####..#.#",
                "####......",
                "####..##..",
                "#.#.##..#.",
                "..#.#.###.",
                "##..###...",
                "..##.#.#..",
                "#.##....##",
                "....##.##.",
                "##..#.#..#",
            ]
        );
        assert_eq!(position.board.cell_count(), 50);
        let mut pieces = vec![position.current];
        pieces.extend(position.next);
        pieces.extend((0..14).map(|_| dealer.piece()));
        assert_eq!(
            pieces,
            [1, 2, 3, 7, 7, 3, 1, 7, 6, 2, 3, 5, 7, 1, 7, 6, 6, 2, 3, 2]
        );
    }

    #[test]
    fn failed_spawns_alternate_game_over_and_overlap() {
        // A stack up to the spawn rows: an O at the spawn cannot fit.
        let full_top = board_with(&[(0, ".....#...."), (1, ".....#....")]);
        let r = rules(2);
        let mut position = Position {
            board: full_top,
            current: I,
            hold: 0,
            next: [O; 5],
            turn: 0,
            failures: 0,
            cycle: false,
        };
        let hold = Request {
            hold: true,
            rotation: 0,
            x: 5,
        };
        let first = r.settle(&mut position, hold);
        assert!(first.game_over && !first.overlap_spawn);
        position.hold = 0;
        let second = r.settle(&mut position, hold);
        assert!(second.overlap_spawn && !second.game_over);
        assert_eq!(position.board, full_top);
    }
}

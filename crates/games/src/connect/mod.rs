//! Connect-N as Kaggle's ConnectX plays it: `rows` × `columns`, `inarow` discs in a line win,
//! a full or missing column loses at once, a full board without a line is a draw.
//!
//! Two-player: the features of a move describe the board it leaves from the point of view of
//! the player who just moved (the *mover*), so one weight vector plays either colour.

pub mod accuracy;
pub mod agents;
pub mod board;
pub mod book;
pub mod listing;
pub mod matches;
mod page;
pub mod perfect;
pub mod solver;

use crate::settings::GameSpec;
use agents::{Opponent, PolicyAgent};
use anyhow::{Result, bail};
use board::{Geometry, MAX_COLUMNS, MAX_INAROW, centre_first};
use book::Book;
use matches::play_round;
use rand_chacha::ChaCha8Rng;
use stacktune_game::Episodes;
use stacktune_game::Render;
use stacktune_game::SearchHooks;
use stacktune_game::{
    EpisodeLimits, EpisodeResult, FeatureMask, FeatureValues, Game, Outcome, Policy, SharedPolicy,
};
use std::fmt;
use std::sync::Arc;

/// Deepest search `--depth` accepts: a full-width search of 7 columns grows sevenfold per ply.
pub const MAX_DEPTH: u32 = 8;

/// Feature names in their internal order. A game with lines of `inarow` uses the first
/// 10 + 2 × (inarow − 1): window counts go last so that the list is a prefix of this one.
pub const FEATURE_NAMES: [&str; 10 + 2 * (MAX_INAROW - 1)] = [
    "own_centre",
    "opp_centre",
    "own_threats_now",
    "own_threats_odd",
    "own_threats_even",
    "opp_threats_now",
    "opp_threats_odd",
    "opp_threats_even",
    "own_threats_parity",
    "opp_threats_parity",
    "own_windows_1",
    "opp_windows_1",
    "own_windows_2",
    "opp_windows_2",
    "own_windows_3",
    "opp_windows_3",
    "own_windows_4",
    "opp_windows_4",
    "own_windows_5",
    "opp_windows_5",
    "own_windows_6",
    "opp_windows_6",
    "own_windows_7",
    "opp_windows_7",
    "own_windows_8",
    "opp_windows_8",
    "own_windows_9",
    "opp_windows_9",
    "own_windows_10",
    "opp_windows_10",
    "own_windows_11",
    "opp_windows_11",
];

const OWN_CENTRE: usize = 0;
const OPP_CENTRE: usize = 1;
/// First of the three threat features of the mover (now, odd, even); the opponent's follow.
const OWN_THREATS: usize = 2;
const OPP_THREATS: usize = 5;
/// The mover's threats on its own parity's rows, then the opponent's on the opponent's.
const OWN_PARITY: usize = 8;
const OPP_PARITY: usize = 9;
const FIRST_WINDOW: usize = 10;

const CENTRE_FEATURES: FeatureMask = 1 << OWN_CENTRE | 1 << OPP_CENTRE;
const THREAT_FEATURES: FeatureMask = 0b11_1111 << OWN_THREATS | 1 << OWN_PARITY | 1 << OPP_PARITY;
const WINDOW_FEATURES: FeatureMask = !0 << FIRST_WINDOW;

/// Index of `own_windows_k`; `opp_windows_k` is the next one.
pub const fn own_windows(k: usize) -> usize {
    FIRST_WINDOW + 2 * (k - 1)
}

/// A Connect-N ruleset: board size, line length and the tables derived from them.
#[derive(Clone, Debug)]
pub struct Connect {
    geometry: Geometry,
    /// Every window of `inarow` cells, for the window features.
    windows: Vec<u64>,
    /// Columns centre first: the order moves are offered in.
    order: [u8; MAX_COLUMNS],
    /// The centre column, or the two centre columns of an even width.
    centre: u64,
    /// Cells on rows 1, 3, 5, … counted from 1 at the bottom: the first player's threat rows.
    odd_rows: u64,
    /// Every legal two-move opening: the suite that series of games start from.
    openings: Vec<[Column; 2]>,
    /// Who the tuned player meets: episode i faces `pool[i mod len]`.
    pool: Vec<Opponent>,
    /// Plies the hall of fame's rivals search, as the tuned player does (1: one ply).
    depth: u32,
    /// Plies a weights-file opponent searches (`--opponent-depth`, 1 by default, so runs made
    /// before it keep their bytes): a self-play run's anchor is only a fixed point worth
    /// reading its curve against when it searches as deep as the candidates.
    opponent_depth: u32,
    /// The opening book the search keeps to where it holds the position (`--book`).
    book: Option<Arc<Book>>,
}

/// Refuses an `--endgame` the solver cannot play: out of 1..=42, or another board than the
/// 7 × 6 one, 4 in a row, that it solves.
pub fn check_endgame(game: &Connect, endgame: u32) -> Result<()> {
    if !(1..=42).contains(&endgame) {
        bail!("--endgame {endgame} is out of range 1..=42 (empty cells of the 7 × 6 board)");
    }
    if !game.is_standard() {
        bail!(
            "--endgame needs the 7 × 6 board, 4 in a row, that the solver solves, not {}",
            game.rules()
        );
    }
    Ok(())
}

/// A move is a column, 0-based.
pub type Column = u8;

/// Both players' discs, the column heights and whose turn it is. Player 0 moves first.
///
/// A position is always one still in play: [`Connect::play`] reports the move that ends the
/// game, and callers stop there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    discs: [u64; 2],
    heights: [u8; MAX_COLUMNS],
    to_move: u8,
}

impl Position {
    /// The player to move: 0 (moved first) or 1.
    pub fn to_move(&self) -> usize {
        self.to_move as usize
    }

    /// A player's discs as a bitboard (see [`board`] for the layout).
    pub fn discs(&self, player: usize) -> u64 {
        self.discs[player]
    }

    pub fn occupied(&self) -> u64 {
        self.discs[0] | self.discs[1]
    }

    /// Discs played so far.
    pub fn moves_played(&self) -> u32 {
        self.occupied().count_ones()
    }

    /// Discs in a column.
    pub fn height(&self, column: Column) -> u32 {
        self.heights[column as usize] as u32
    }
}

/// How a move ended the game, from the point of view of the player who made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The move completed a line.
    Win,
    /// The move filled the board without a line.
    Draw,
    /// The column was full or missing: the mover loses at once.
    Forfeit,
}

/// Why a move string (1-based column digits, Pons' notation) is not a position in play;
/// `index` counts moves from 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MovesError {
    NotADigit {
        index: usize,
        found: char,
    },
    NoSuchColumn {
        index: usize,
        column: u32,
        columns: u32,
    },
    FullColumn {
        index: usize,
        column: u32,
    },
    AlreadyWon {
        index: usize,
        column: u32,
    },
    AlreadyDrawn {
        index: usize,
    },
}

impl fmt::Display for MovesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            MovesError::NotADigit { index, found } => {
                write!(f, "character {index} is `{found}`, not a column digit")
            }
            MovesError::NoSuchColumn {
                index,
                column,
                columns,
            } => write!(
                f,
                "move {index} plays column {column}, but the columns are 1 to {columns}"
            ),
            MovesError::FullColumn { index, column } => {
                write!(
                    f,
                    "move {index} plays column {column}, which is already full"
                )
            }
            MovesError::AlreadyWon { index, column } => write!(
                f,
                "move {index} (column {column}) wins the game, so the position is already decided"
            ),
            MovesError::AlreadyDrawn { index } => write!(
                f,
                "the board is full after move {index}, so the game is already drawn"
            ),
        }
    }
}

impl std::error::Error for MovesError {}

impl Connect {
    /// A ruleset; sizes a `u64` bitboard per player cannot hold, and lines that cannot fit
    /// on the board or in the feature list, are errors.
    pub fn new(rows: usize, columns: usize, inarow: usize) -> Result<Connect> {
        if rows == 0 || columns == 0 {
            bail!("connect board {columns}x{rows} has no cells");
        }
        if (rows + 1) * columns > 64 {
            bail!(
                "connect board {columns}x{rows} is too large: (rows + 1) × columns = {} \
                 exceeds the 64 bits of a bitboard",
                (rows + 1) * columns
            );
        }
        if !(2..=MAX_INAROW).contains(&inarow) {
            bail!("connect inarow {inarow} is out of range 2..={MAX_INAROW}");
        }
        if inarow > rows.max(columns) {
            bail!("no line of {inarow} fits on a {columns}x{rows} connect board");
        }
        let geometry = Geometry::new(rows as u32, columns as u32, inarow as u32);
        let centre = (columns as u32 - 1) / 2..=columns as u32 / 2;
        let centre = centre
            .map(|c| geometry.column_mask(c))
            .fold(0, |a, m| a | m);
        let odd_rows = (0..columns as u32)
            .flat_map(|c| (0..rows as u32).step_by(2).map(move |r| (c, r)))
            .fold(0, |a, (c, r)| a | geometry.cell(c, r));
        let mut game = Connect {
            geometry,
            windows: geometry.all_windows(),
            order: centre_first(columns as u32),
            centre,
            odd_rows,
            openings: Vec::new(),
            pool: vec![Opponent::Tutorial, Opponent::Negamax4],
            depth: 1,
            opponent_depth: 1,
            book: None,
        };
        game.openings = game.suite();
        Ok(game)
    }

    /// The board, top row first: `X` the first player's discs, `O` the second's, `.` empty.
    pub fn rows(&self, position: &Position) -> Vec<String> {
        let g = &self.geometry;
        (0..g.rows())
            .rev()
            .map(|row| {
                (0..g.columns())
                    .map(|column| {
                        let cell = g.cell(column, row);
                        if position.discs[0] & cell != 0 {
                            'X'
                        } else if position.discs[1] & cell != 0 {
                            'O'
                        } else {
                            '.'
                        }
                    })
                    .collect()
            })
            .collect()
    }

    /// Plies the tuned player searches (`--depth`): what its rivals search too.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// Plies a weights-file opponent searches (`--opponent-depth`).
    pub fn opponent_depth(&self) -> u32 {
        self.opponent_depth
    }

    /// The opponent of episode `index` and its round of the opening suite (see
    /// [`matches::schedule`]): opponents are taken in turn, so each meets the suite in order.
    fn fixture(&self, index: u64) -> (&Opponent, u64) {
        let n = self.pool.len() as u64;
        (&self.pool[(index % n) as usize], index / n)
    }

    /// The game a [`GameSpec`] describes: `--height` rows and `--width` columns (default
    /// 6 × 7), `--inarow`, the tuned player's `--depth` and the `--opponent` pool, whose
    /// names that are no reference agent `policy` makes into policies (weights files, which
    /// the layers above read and search `--opponent-depth` plies).
    pub fn from_spec(
        spec: &GameSpec,
        policy: &dyn Fn(&Connect, &str) -> Result<SharedPolicy<Connect>>,
    ) -> Result<Connect> {
        let mut game = Connect::new(
            spec.height.unwrap_or(6),
            spec.width.unwrap_or(7),
            spec.inarow.unwrap_or(4),
        )?;
        let plies = |name: &str, depth: Option<u32>| {
            let depth = depth.unwrap_or(1);
            if !(1..=MAX_DEPTH).contains(&depth) {
                bail!("connect {name} {depth} is out of range 1..={MAX_DEPTH}");
            }
            Ok(depth)
        };
        game.depth = plies("depth", spec.depth)?;
        game.opponent_depth = plies("opponent_depth", spec.opponent_depth)?;
        if let Some(endgame) = spec.endgame {
            check_endgame(&game, endgame)?;
        }
        if let Some(book) = &spec.book {
            let book = Book::load(&game, book)?;
            game.set_book(book);
        }
        if !spec.opponents.is_empty() {
            game.pool = spec
                .opponents
                .iter()
                .map(|name| match Opponent::agent_named(name) {
                    Some(agent) => Ok(agent),
                    None => Ok(Opponent::Policy {
                        name: name.clone(),
                        policy: policy(&game, name)?,
                    }),
                })
                .collect::<Result<_>>()?;
        }
        Ok(game)
    }

    /// Keeps the search to `book`'s columns in the positions it holds ([`Book::load`] checked
    /// that it is for this board).
    pub fn set_book(&mut self, book: Option<Arc<Book>>) {
        self.book = book;
    }

    /// The classic game: 6 rows, 7 columns, 4 in a row (what the solver solves).
    pub fn standard() -> Connect {
        Connect::new(6, 7, 4).expect("6 × 7 × 4 is a valid size")
    }

    /// Whether this is [`standard`](Connect::standard)'s size, the only one the solver reads.
    pub fn is_standard(&self) -> bool {
        self.geometry == Geometry::new(6, 7, 4)
    }

    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    /// The window table the window features count over.
    pub fn windows(&self) -> &[u64] {
        &self.windows
    }

    /// Columns in the order moves are offered: centre first, so that players which take the
    /// first of equal moves prefer the centre, and alpha-beta sees the strong moves early.
    pub fn column_order(&self) -> &[Column] {
        &self.order[..self.geometry.columns() as usize]
    }

    /// The empty board, player 0 to move.
    pub fn empty(&self) -> Position {
        Position {
            discs: [0; 2],
            heights: [0; MAX_COLUMNS],
            to_move: 0,
        }
    }

    /// Whether `player` has a complete line: boards read from files and the last board of a
    /// game may have one, positions in play never do.
    pub fn has_line(&self, position: &Position, player: usize) -> bool {
        self.windows
            .iter()
            .any(|&w| position.discs[player] & w == w)
    }

    /// `position` seen in a mirror: column c becomes column `columns − 1 − c`. Its value and
    /// the values of its columns are those of the position, mirrored.
    pub fn mirror(&self, position: &Position) -> Position {
        let g = &self.geometry;
        let (columns, stride) = (g.columns(), g.rows() + 1);
        let mut mirrored = *position;
        mirrored.discs = [0; 2];
        for c in 0..columns {
            let to = columns - 1 - c;
            for (player, discs) in position.discs.iter().enumerate() {
                let column = (discs & g.column_mask(c)) >> (c * stride);
                mirrored.discs[player] |= column << (to * stride);
            }
            mirrored.heights[to as usize] = position.heights[c as usize];
        }
        mirrored
    }

    /// Whether `column` exists and has room.
    pub fn is_legal(&self, position: &Position, column: Column) -> bool {
        (column as u32) < self.geometry.columns() && position.height(column) < self.geometry.rows()
    }

    /// Whether dropping a disc of the side to move in `column` completes a line; `false` for an
    /// illegal column.
    pub fn wins(&self, position: &Position, column: Column) -> bool {
        self.is_legal(position, column)
            && self.landing_cell(position, column) & self.mover_wins(position) != 0
    }

    /// Plays a move for the side to move; `Some` when it ends the game. An illegal column
    /// leaves the position as it was and forfeits.
    pub fn play(&self, position: &mut Position, column: Column) -> Option<Ending> {
        if !self.is_legal(position, column) {
            return Some(Ending::Forfeit);
        }
        let wins = self.mover_wins(position);
        self.drop_disc(position, column, wins)
    }

    /// The position after a move string such as `4453` (1-based columns, at most 9 columns),
    /// rejecting any string that is not a game still in play.
    pub fn parse_moves(&self, moves: &str) -> Result<Position, MovesError> {
        let mut position = self.empty();
        for (i, ch) in moves.chars().enumerate() {
            let index = i + 1;
            let column = ch
                .to_digit(10)
                .ok_or(MovesError::NotADigit { index, found: ch })?;
            let columns = self.geometry.columns();
            if !(1..=columns).contains(&column) {
                return Err(MovesError::NoSuchColumn {
                    index,
                    column,
                    columns,
                });
            }
            match self.play(&mut position, (column - 1) as Column) {
                None => {}
                Some(Ending::Forfeit) => return Err(MovesError::FullColumn { index, column }),
                Some(Ending::Win) => return Err(MovesError::AlreadyWon { index, column }),
                Some(Ending::Draw) => return Err(MovesError::AlreadyDrawn { index }),
            }
        }
        Ok(position)
    }

    /// Every legal two-move opening (49 on 7 columns): the suite matches start from, so that
    /// deterministic players still meet many different games.
    pub fn two_ply_openings(&self) -> &[[Column; 2]] {
        &self.openings
    }

    fn suite(&self) -> Vec<[Column; 2]> {
        let columns = self.geometry.columns() as Column;
        let mut openings = Vec::new();
        for first in 0..columns {
            for second in 0..columns {
                let mut position = self.empty();
                if self.play(&mut position, first).is_none()
                    && self.play(&mut position, second).is_none()
                {
                    openings.push([first, second]);
                }
            }
        }
        openings
    }

    /// The empty cells where the side to move would complete a line.
    #[inline]
    fn mover_wins(&self, position: &Position) -> u64 {
        self.geometry
            .winning_cells(position.discs[position.to_move()], position.occupied())
    }

    #[inline]
    fn landing_cell(&self, position: &Position, column: Column) -> u64 {
        self.geometry
            .cell(column as u32, position.heights[column as usize] as u32)
    }

    /// Drops a disc in a legal column, given the mover's winning cells (shared by every
    /// column of one position): the win test looks only at lines through the new disc.
    #[inline]
    fn drop_disc(&self, position: &mut Position, column: Column, wins: u64) -> Option<Ending> {
        let cell = self.landing_cell(position, column);
        position.discs[position.to_move()] |= cell;
        position.heights[column as usize] += 1;
        position.to_move ^= 1;
        if cell & wins != 0 {
            Some(Ending::Win)
        } else if position.occupied() == self.geometry.board() {
            Some(Ending::Draw)
        } else {
            None
        }
    }

    /// The requested features of `after` from the view of the player who just moved.
    pub fn features(&self, after: &Position, mask: FeatureMask, out: &mut FeatureValues) {
        let mover = after.to_move() ^ 1;
        let (own, opp) = (after.discs[mover], after.discs[mover ^ 1]);
        let occupied = own | opp;
        let v = &mut out.0;
        if mask & CENTRE_FEATURES != 0 {
            v[OWN_CENTRE] = (own & self.centre).count_ones() as f64;
            v[OPP_CENTRE] = (opp & self.centre).count_ones() as f64;
        }
        if mask & THREAT_FEATURES != 0 {
            let playable = self.geometry.playable(occupied);
            // Allis' zugzwang rule: the first player's threats are worth most on odd rows,
            // the second player's on even rows. The first player has one disc more after
            // its own move, as many after the second player's.
            let mover_first = own.count_ones() > opp.count_ones();
            let sides = [
                (OWN_THREATS, OWN_PARITY, own, mover_first),
                (OPP_THREATS, OPP_PARITY, opp, !mover_first),
            ];
            for (first, parity, discs, first_player) in sides {
                let threats = self.geometry.winning_cells(discs, occupied);
                let later = threats & !playable;
                let (odd, even) = (later & self.odd_rows, later & !self.odd_rows);
                v[first] = (threats & playable).count_ones() as f64;
                v[first + 1] = odd.count_ones() as f64;
                v[first + 2] = even.count_ones() as f64;
                v[parity] = if first_player {
                    v[first + 1]
                } else {
                    v[first + 2]
                };
            }
        }
        if mask & WINDOW_FEATURES != 0 {
            // counts[p][k]: windows holding k discs of p (0 own, 1 opponent) and no other disc.
            let mut counts = [[0u32; MAX_INAROW + 1]; 2];
            for &w in &self.windows {
                let (o, p) = ((own & w).count_ones(), (opp & w).count_ones());
                if p == 0 {
                    counts[0][o as usize] += 1;
                } else if o == 0 {
                    counts[1][p as usize] += 1;
                }
            }
            for k in 1..self.geometry.inarow() as usize {
                v[own_windows(k)] = counts[0][k] as f64;
                v[own_windows(k) + 1] = counts[1][k] as f64;
            }
        }
    }
}

/// What a move's ending means to a linear player: a win outranks every evaluation, a forfeit
/// is below all of them, and a draw is worth 0 — the value negamax treats as even, since it
/// is its own negation, whatever scale the weights give other boards.
fn outcome(ending: Option<Ending>) -> Outcome {
    Outcome {
        game_over: ending.is_some(),
        terminal_value: ending.map(|e| match e {
            Ending::Win => f64::INFINITY,
            Ending::Draw => 0.0,
            Ending::Forfeit => f64::NEG_INFINITY,
        }),
        ..Outcome::default()
    }
}

impl Game for Connect {
    type Position = Position;

    type Move = Column;

    fn name(&self) -> &'static str {
        "connect"
    }

    fn rules(&self) -> String {
        let g = &self.geometry;
        format!("{}x{}, {} in a row", g.columns(), g.rows(), g.inarow())
    }

    fn feature_names(&self) -> &'static [&'static str] {
        &FEATURE_NAMES[..own_windows(self.geometry.inarow() as usize)]
    }

    fn start(&self, _rng: &mut ChaCha8Rng) -> Position {
        self.empty()
    }

    /// Visits legal columns centre first (see [`Connect::column_order`]). Moves that end the
    /// game carry a terminal value and no features.
    #[inline]
    fn for_each_move(
        &self,
        position: &Position,
        mask: FeatureMask,
        visit: &mut impl FnMut(Column, &Position, &Outcome, &FeatureValues),
    ) {
        let wins = self.mover_wins(position);
        let mut features = FeatureValues::default();
        for &column in self.column_order() {
            if !self.is_legal(position, column) {
                continue;
            }
            let mut after = *position;
            let ending = self.drop_disc(&mut after, column, wins);
            if ending.is_none() {
                self.features(&after, mask, &mut features);
            }
            visit(column, &after, &outcome(ending), &features);
        }
    }

    /// Never: the next move is the opponent's, and the linear player's one-player lookahead
    /// would maximise the opponent's evaluation. Deeper play is the search layer's alpha-beta
    /// ([`crate::search::alpha_beta`]).
    fn shows_next(&self, _position: &Position) -> bool {
        false
    }

    fn apply(&self, position: &mut Position, mv: Column, _rng: &mut ChaCha8Rng) -> Outcome {
        outcome(self.play(position, mv))
    }

    fn score_name(&self) -> &'static str {
        "game score"
    }
}

impl SearchHooks for Connect {
    /// In the opening book's positions, its columns; on the 7 × 6 board, 4 in a row, from
    /// `endgame` empty cells on: the solver's
    /// [`perfect::value_keeping`] columns, with one solver (and its 8 MB table) per thread,
    /// kept from move to move since what it learnt stays true.
    fn perfect_moves(&self, position: &Position, endgame: u32) -> Option<Vec<Column>> {
        if let Some(kept) = self.book.as_ref().and_then(|b| b.kept(self, position)) {
            return kept;
        }
        let g = &self.geometry;
        let empty = g.rows() * g.columns() - position.moves_played();
        if endgame == 0 || empty > endgame || !self.is_standard() {
            return None;
        }
        thread_local! {
            static SOLVER: std::cell::RefCell<solver::Solver> = std::cell::RefCell::new(solver::Solver::new());
        }
        SOLVER.with(|s| perfect::value_keeping(&mut s.borrow_mut(), self, position))
    }
}

impl Episodes for Connect {
    /// Game `index / n` of the opening suite (see [`matches::schedule`]) against opponent
    /// `index mod n` of the n in the pool, `player` moving for the tuned side;
    /// scores 1 for a win, ½ for a draw, 0 for a loss. Opponents draw their tie-breaks from
    /// `rng`; the tuned player draws nothing.
    fn episode(
        &self,
        player: &impl Policy<Connect>,
        index: u64,
        mut rng: ChaCha8Rng,
        _limits: EpisodeLimits,
        observe: &mut impl FnMut(&Position, &EpisodeResult),
    ) -> EpisodeResult {
        let (opponent, round) = self.fixture(index);
        let mut tuned = PolicyAgent::new(self, player);
        let mut opponent = opponent.agent(self);
        let playing = |p: &Position| EpisodeResult {
            score: 0.0,
            moves: p.moves_played() as u64,
            ..EpisodeResult::default()
        };
        let (result, last) = play_round(
            self,
            &self.openings,
            round,
            &mut tuned,
            &mut opponent,
            &mut rng,
            &mut |p| observe(p, &playing(p)),
        );
        let end = EpisodeResult {
            score: result.score(),
            moves: result.moves,
            ..EpisodeResult::default()
        };
        observe(&last, &end);
        end
    }

    fn opponents(&self) -> Vec<String> {
        self.pool.iter().map(|o| o.name().to_string()).collect()
    }

    fn with_rivals(&self, rivals: &[SharedPolicy<Connect>]) -> Option<Connect> {
        let mut game = self.clone();
        game.pool.extend(
            rivals
                .iter()
                .enumerate()
                .map(|(i, policy)| Opponent::Policy {
                    name: format!("rival {}", i + 1),
                    policy: policy.clone(),
                }),
        );
        Some(game)
    }

    fn pairing(&self) -> Option<&'static str> {
        Some("colours alternated")
    }

    fn describe_episode(&self, index: u64) -> Option<String> {
        let (opponent, round) = self.fixture(index);
        let ([a, b], tuned_first) = matches::schedule(&self.openings, round);
        let opponent = opponent.name();
        let (x, o) = if tuned_first {
            ("the weights", opponent)
        } else {
            (opponent, "the weights")
        };
        Some(format!("X: {x}, O: {o}; opening {}{}", a + 1, b + 1))
    }
}

impl Render for Connect {
    fn render(&self, position: &Position) -> String {
        let g = &self.geometry;
        let mut s = String::new();
        for row in self.rows(position) {
            s.push('|');
            s.push_str(&row);
            s.push_str("|\n");
        }
        s.push(' ');
        for column in 0..g.columns() {
            s.push(char::from_digit((column + 1) % 10, 10).unwrap_or('?'));
        }
        s.push('\n');
        s.push_str(if self.has_line(position, 0) {
            "X wins\n"
        } else if self.has_line(position, 1) {
            "O wins\n"
        } else if position.occupied() == g.board() {
            "draw\n"
        } else if position.to_move == 0 {
            "X to move\n"
        } else {
            "O to move\n"
        });
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_are_offered_centre_first() {
        assert_eq!(Connect::standard().column_order(), [3, 2, 4, 1, 5, 0, 6]);
        assert_eq!(
            Connect::new(5, 6, 4).unwrap().column_order(),
            [3, 2, 4, 1, 5, 0]
        );
    }

    #[test]
    fn feature_names_follow_inarow() {
        let names = Connect::new(6, 7, 5).unwrap().feature_names();
        assert_eq!(names.len(), 18);
        assert_eq!(names[names.len() - 1], "opp_windows_4");
        assert_eq!(
            Connect::new(1, 32, MAX_INAROW)
                .unwrap()
                .feature_names()
                .len(),
            FEATURE_NAMES.len()
        );
        assert!(FEATURE_NAMES.len() <= stacktune_game::MAX_FEATURES);
    }

    #[test]
    fn impossible_sizes_are_errors() {
        for (rows, columns, inarow) in [(0, 7, 4), (7, 9, 4), (6, 7, 1), (6, 7, 13), (3, 3, 4)] {
            assert!(Connect::new(rows, columns, inarow).is_err());
        }
        assert!(Connect::new(7, 8, 4).is_ok());
    }

    #[test]
    fn even_width_has_two_centre_columns() {
        let game = Connect::new(6, 6, 4).unwrap();
        let g = game.geometry();
        assert_eq!(game.centre, g.column_mask(2) | g.column_mask(3));
    }

    #[test]
    fn threats_split_by_playability_and_parity() {
        let game = Connect::standard();
        let mut f = FeatureValues::default();
        // (now, odd, even, on the owner's parity) for the mover, then for the opponent.
        let threats = |f: &FeatureValues| {
            let side = |first: usize, parity: usize| {
                let mut v = f.0[first..first + 3].to_vec();
                v.push(f.0[parity]);
                v
            };
            (side(OWN_THREATS, OWN_PARITY), side(OPP_THREATS, OPP_PARITY))
        };
        // X holds columns 1-3 of the bottom row and just moved: (4, row 1) is playable now.
        game.features(&game.parse_moves("17273").unwrap(), THREAT_FEATURES, &mut f);
        assert_eq!(
            threats(&f),
            (vec![1.0, 0.0, 0.0, 0.0], vec![0.0, 0.0, 0.0, 0.0])
        );
        // O holds row 2 of columns 1-3 and just moved: its (4, row 2) waits on an even row,
        // while X's (4, row 1) under it is playable now. An even row is the second player's.
        game.features(
            &game.parse_moves("112233").unwrap(),
            THREAT_FEATURES,
            &mut f,
        );
        assert_eq!(
            threats(&f),
            (vec![0.0, 0.0, 1.0, 1.0], vec![1.0, 0.0, 0.0, 0.0])
        );
        // X holds row 3 of columns 1-3 and the diagonal 1/1, 2/2, 3/3 (column/row): it waits
        // on (4, row 3), odd, the first player's, and (4, row 4), even; O has no line of three.
        game.features(
            &game.parse_moves("12312315253").unwrap(),
            THREAT_FEATURES,
            &mut f,
        );
        assert_eq!(
            threats(&f),
            (vec![0.0, 1.0, 1.0, 1.0], vec![0.0, 0.0, 0.0, 0.0])
        );
    }
}

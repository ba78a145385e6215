//! What the bindings need of each game beyond the [`Game`] trait: how its episodes are dealt
//! (so that a seed deals the game `stacktune play --seed` deals), how its board and pieces
//! read as arrays, and how its moves read as [`Move`]s and fixed action numbers.

use crate::moves::Move;
use rand_chacha::ChaCha8Rng;
use stacktune_base::rng::game_stream;
use stacktune_game::Playable;
use stacktune_game::{Game, Outcome};
use stacktune_games::connect::{self, Connect};
use stacktune_games::puyo::{self, Puyo};
use stacktune_games::tetris::contest::Contest;
use stacktune_games::tetris::contest::rules::{self as contest_rules, LETTERS, Request};
use stacktune_games::tetris::contest::stream::ContestStream;
use stacktune_games::tetris::pieces::PIECE_LETTERS;
use stacktune_games::tetris::{self, Tetris};

/// A game as the bindings drive it, one move at a time.
pub trait Engine: Playable + Clone + 'static {
    /// Where an episode's pieces come from.
    type Dealer: Clone + Send + Sync;
    /// The source of game 0 of `stacktune play --seed seed`.
    fn dealer(&self, seed: u64) -> Self::Dealer;
    /// The first position of an episode dealt by `dealer`.
    fn begin(&self, dealer: &mut Self::Dealer) -> Self::Position;
    /// Plays `mv` for real, the next pieces drawn from `dealer`, as `play` plays it.
    fn step(
        &self,
        position: &mut Self::Position,
        mv: Self::Move,
        dealer: &mut Self::Dealer,
    ) -> Outcome;
    /// The board array's rows and columns.
    fn shape(&self) -> (usize, usize);
    /// Writes the board into `out` (rows × columns, top row first).
    fn fill_board(&self, position: &Self::Position, out: &mut [u8]);
    /// How many piece numbers [`fill_pieces`](Engine::fill_pieces) writes, and what each is.
    fn piece_names(&self) -> &'static [&'static str];
    /// Writes the pieces the player sees (0: none) into `out`.
    fn fill_pieces(&self, position: &Self::Position, out: &mut [i64]);
    /// How many action numbers there are: every move has one below this, fixed by what it is.
    fn actions(&self) -> usize;
    /// The action number of `mv`.
    fn action(&self, mv: Self::Move) -> usize;
    /// `mv` as a person reads it.
    fn describe(&self, position: &Self::Position, mv: Self::Move) -> Move;
    /// Where `dealer` stands in its stream when drawing from it is not only the moves' doing
    /// (a Connect-N opponent's tie-breaks): what a pickled game restores after replaying its
    /// moves. None for a dealer that only the moves draw from.
    fn dealer_mark(dealer: &Self::Dealer) -> Option<u128>;
    /// Puts `dealer` back where [`dealer_mark`](Engine::dealer_mark) saw it.
    fn set_dealer_mark(dealer: &mut Self::Dealer, mark: u128);
}

/// The mark of a ChaCha stream: its word position (its seed and stream are the game's).
fn chacha_mark(dealer: &ChaCha8Rng) -> Option<u128> {
    Some(dealer.get_word_pos())
}

impl Engine for Tetris {
    type Dealer = ChaCha8Rng;
    fn dealer_mark(dealer: &ChaCha8Rng) -> Option<u128> {
        chacha_mark(dealer)
    }
    fn set_dealer_mark(dealer: &mut ChaCha8Rng, mark: u128) {
        dealer.set_word_pos(mark);
    }
    fn dealer(&self, seed: u64) -> ChaCha8Rng {
        game_stream(seed, 0)
    }
    fn begin(&self, dealer: &mut ChaCha8Rng) -> tetris::Position {
        self.start(dealer)
    }
    fn step(&self, p: &mut tetris::Position, mv: tetris::Placement, d: &mut ChaCha8Rng) -> Outcome {
        self.apply(p, mv, d)
    }
    fn shape(&self) -> (usize, usize) {
        (self.height(), self.width())
    }
    fn fill_board(&self, p: &tetris::Position, out: &mut [u8]) {
        fill_columns(&p.board, self.height(), self.width(), out);
    }
    fn piece_names(&self) -> &'static [&'static str] {
        &["current", "next"]
    }
    fn fill_pieces(&self, p: &tetris::Position, out: &mut [i64]) {
        let number = |piece: u8| if piece < 7 { piece as i64 + 1 } else { 0 };
        out[0] = number(p.piece);
        out[1] = number(p.next);
    }
    fn actions(&self) -> usize {
        4 * self.width()
    }
    fn action(&self, mv: tetris::Placement) -> usize {
        mv.orientation as usize * self.width() + mv.column as usize
    }
    fn describe(&self, p: &tetris::Position, mv: tetris::Placement) -> Move {
        Move {
            action: self.action(mv),
            piece: Some(PIECE_LETTERS[p.piece as usize].to_string()),
            rotation: Some(mv.orientation),
            column: mv.column,
            hold: None,
            pair: None,
        }
    }
}

/// A Tetris board's cells, rows top first, from its column masks (bit r: row r from the bottom).
/// Row by row, every cell of a row shifted by the same amount, so that the compiler writes a
/// row in a few vector instructions (a quarter of a vector environment's step went to this
/// loop written column by column).
fn fill_columns(board: &tetris::board::Board, height: usize, width: usize, out: &mut [u8]) {
    let mut columns = [0u64; tetris::board::MAX_WIDTH];
    for (x, column) in columns[..width].iter_mut().enumerate() {
        *column = board.column(x);
    }
    for (row, y) in out.chunks_exact_mut(width).zip((0..height).rev()) {
        for (cell, column) in row.iter_mut().zip(&columns[..width]) {
            *cell = (column >> y & 1) as u8;
        }
    }
}

impl Engine for Contest {
    type Dealer = ContestStream;
    fn dealer_mark(_: &ContestStream) -> Option<u128> {
        None
    }
    fn set_dealer_mark(_: &mut ContestStream, _: u128) {}
    /// Game i of `play --seed S` is contest seed S + i.
    fn dealer(&self, seed: u64) -> ContestStream {
        ContestStream::new(seed)
    }
    fn begin(&self, dealer: &mut ContestStream) -> contest_rules::Position {
        self.rules_of().start(dealer)
    }
    fn step(&self, p: &mut contest_rules::Position, mv: Request, d: &mut ContestStream) -> Outcome {
        self.apply_dealt(p, mv, d)
    }
    fn shape(&self) -> (usize, usize) {
        (contest_rules::HEIGHT, contest_rules::WIDTH)
    }
    fn fill_board(&self, p: &contest_rules::Position, out: &mut [u8]) {
        fill_columns(&p.board, contest_rules::HEIGHT, contest_rules::WIDTH, out);
    }
    fn piece_names(&self) -> &'static [&'static str] {
        &[
            "current", "next1", "next2", "next3", "next4", "next5", "hold",
        ]
    }
    fn fill_pieces(&self, p: &contest_rules::Position, out: &mut [i64]) {
        out[0] = p.current as i64;
        for (o, &n) in out[1..6].iter_mut().zip(&p.next) {
            *o = n as i64;
        }
        out[6] = p.hold as i64;
    }
    fn actions(&self) -> usize {
        2 * 4 * contest_rules::WIDTH
    }
    /// The empty-hold turn (hold, rotation 0, the spawn column) only comes with an empty hold,
    /// and a hold landing only with a full one, so they never share a number.
    fn action(&self, mv: Request) -> usize {
        (mv.hold as usize * 4 + mv.rotation as usize) * contest_rules::WIDTH + mv.x as usize
    }
    fn describe(&self, p: &contest_rules::Position, mv: Request) -> Move {
        let piece = match (mv.hold, p.hold) {
            (false, _) => p.current,
            (true, 0) => 0,
            (true, held) => held,
        };
        Move {
            action: self.action(mv),
            piece: (piece != 0).then(|| LETTERS[piece as usize].to_string()),
            rotation: Some(mv.rotation),
            column: mv.x,
            hold: Some(mv.hold),
            pair: None,
        }
    }
}

impl Engine for Puyo {
    type Dealer = ChaCha8Rng;
    fn dealer_mark(dealer: &ChaCha8Rng) -> Option<u128> {
        chacha_mark(dealer)
    }
    fn set_dealer_mark(dealer: &mut ChaCha8Rng, mark: u128) {
        dealer.set_word_pos(mark);
    }
    fn dealer(&self, seed: u64) -> ChaCha8Rng {
        game_stream(seed, 0)
    }
    fn begin(&self, dealer: &mut ChaCha8Rng) -> puyo::Position {
        self.start(dealer)
    }
    fn step(
        &self,
        p: &mut puyo::Position,
        mv: puyo::rules::Placement,
        d: &mut ChaCha8Rng,
    ) -> Outcome {
        self.apply(p, mv, d)
    }
    fn shape(&self) -> (usize, usize) {
        self.board_shape()
    }
    fn fill_board(&self, p: &puyo::Position, out: &mut [u8]) {
        puyo::Puyo::fill_board(self, &p.field, out);
    }
    fn piece_names(&self) -> &'static [&'static str] {
        &["axis", "child", "next_axis", "next_child"]
    }
    fn fill_pieces(&self, p: &puyo::Position, out: &mut [i64]) {
        let pair = |pair: Option<puyo::rules::Pair>| {
            pair.map_or((0, 0), |q| (q.axis as i64, q.child as i64))
        };
        (out[0], out[1]) = pair(p.pair);
        (out[2], out[3]) = pair(p.next);
    }
    fn actions(&self) -> usize {
        4 * puyo::field::WIDTH
    }
    fn action(&self, mv: puyo::rules::Placement) -> usize {
        mv.rotation as usize * puyo::field::WIDTH + mv.column as usize
    }
    fn describe(&self, p: &puyo::Position, mv: puyo::rules::Placement) -> Move {
        Move {
            action: self.action(mv),
            piece: None,
            rotation: Some(mv.rotation),
            column: mv.column,
            hold: None,
            pair: p.pair.map(|q| (q.axis, q.child)),
        }
    }
}

impl Engine for Connect {
    /// Connect-N deals nothing; the opponents of an environment draw their tie-breaks here.
    type Dealer = ChaCha8Rng;
    fn dealer_mark(dealer: &ChaCha8Rng) -> Option<u128> {
        chacha_mark(dealer)
    }
    fn set_dealer_mark(dealer: &mut ChaCha8Rng, mark: u128) {
        dealer.set_word_pos(mark);
    }
    fn dealer(&self, seed: u64) -> ChaCha8Rng {
        game_stream(seed, 0)
    }
    fn begin(&self, dealer: &mut ChaCha8Rng) -> connect::Position {
        self.start(dealer)
    }
    fn step(&self, p: &mut connect::Position, mv: u8, d: &mut ChaCha8Rng) -> Outcome {
        self.apply(p, mv, d)
    }
    fn shape(&self) -> (usize, usize) {
        let g = self.geometry();
        (g.rows() as usize, g.columns() as usize)
    }
    fn fill_board(&self, p: &connect::Position, out: &mut [u8]) {
        let (rows, columns) = self.shape();
        let g = self.geometry();
        for row in 0..rows {
            for column in 0..columns {
                let cell = g.cell(column as u32, row as u32);
                out[(rows - 1 - row) * columns + column] = if p.discs(0) & cell != 0 {
                    1
                } else if p.discs(1) & cell != 0 {
                    2
                } else {
                    0
                };
            }
        }
    }
    fn piece_names(&self) -> &'static [&'static str] {
        &["to_move"]
    }
    /// The side to move: 1 (moved first, `X`) or 2 (`O`), as the board numbers their discs.
    fn fill_pieces(&self, p: &connect::Position, out: &mut [i64]) {
        out[0] = p.to_move() as i64 + 1;
    }
    fn actions(&self) -> usize {
        self.geometry().columns() as usize
    }
    fn action(&self, mv: u8) -> usize {
        mv as usize
    }
    fn describe(&self, _p: &connect::Position, mv: u8) -> Move {
        Move {
            action: mv as usize,
            piece: None,
            rotation: None,
            column: mv,
            hold: None,
            pair: None,
        }
    }
}

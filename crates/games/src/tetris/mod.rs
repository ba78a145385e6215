//! Tetris under the research rules of the papers (MdpTetris): drop from above, no slides,
//! i.i.d. pieces, the top-out rule checked before rows are removed.

pub mod board;
pub mod contest;
pub mod guideline;
pub mod listing;
mod page;
pub mod pieces;
pub mod sequence;
mod splitting;

use anyhow::{Result, bail};
use board::{
    Board, DropBase, FEATURE_NAMES, MAX_HEIGHT, MAX_WIDTH, MIN_HEIGHT, MIN_WIDTH, MOVE_FEATURES,
};
use pieces::{DropTable, PIECE_LETTERS};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use stacktune_game::Episodes;
use stacktune_game::Render;
use stacktune_game::SearchHooks;
use stacktune_game::{
    EpisodeLimits, EpisodeResult, FeatureMask, FeatureValues, Game, Outcome, Policy, play_alone,
};

/// No piece known (the preview slot when the player sees only the current piece).
const NO_PIECE: u8 = u8::MAX;
/// Every piece still in the bag.
const FULL_BAG: u8 = 0b111_1111;

/// How pieces are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Randomizer {
    /// Independent and uniform over the seven pieces, as in the papers.
    Uniform,
    /// Each run of seven pieces is a shuffled set of all seven.
    Bag7,
}

/// The research ruleset at a given size.
#[derive(Clone, Debug)]
pub struct Tetris {
    width: usize,
    height: usize,
    randomizer: Randomizer,
    /// Top-out placements are offered (and end the game when chosen).
    allow_topout: bool,
    /// The player also sees the next piece.
    preview: bool,
    /// An episode is a splitting estimate of an uncapped game's mean lines with this many
    /// trajectories a level (`splitting.rs`), not a game played out.
    splitting: Option<u32>,
    table: DropTable,
}

/// A placement: orientation index and leftmost column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    pub orientation: u8,
    pub column: u8,
}

/// The board, the piece to place, the next piece when it is shown, and the bag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pub board: Board,
    pub piece: u8,
    pub next: u8,
    bag: u8,
}

impl Position {
    /// A position to analyse: a given board and piece, nothing known after it.
    pub fn new(board: Board, piece: u8) -> Position {
        Position {
            board,
            piece,
            next: NO_PIECE,
            bag: FULL_BAG,
        }
    }
}

impl Tetris {
    /// The research rules on a `width` × `height` board; sizes outside 4..=16 × 4..=64 are an
    /// error because a column is one machine word.
    pub fn new(width: usize, height: usize) -> Result<Tetris> {
        if !(MIN_WIDTH..=MAX_WIDTH).contains(&width) {
            bail!("tetris board width {width} is out of range {MIN_WIDTH}..={MAX_WIDTH}");
        }
        if !(MIN_HEIGHT..=MAX_HEIGHT).contains(&height) {
            bail!("tetris board height {height} is out of range {MIN_HEIGHT}..={MAX_HEIGHT}");
        }
        Ok(Tetris {
            width,
            height,
            randomizer: Randomizer::Uniform,
            allow_topout: false,
            preview: false,
            splitting: None,
            table: DropTable::new(width),
        })
    }

    pub fn with_randomizer(mut self, randomizer: Randomizer) -> Tetris {
        self.randomizer = randomizer;
        self
    }

    pub fn with_topout_allowed(mut self, allow: bool) -> Tetris {
        self.allow_topout = allow;
        self
    }

    pub fn with_preview(mut self, preview: bool) -> Tetris {
        self.preview = preview;
        self
    }

    /// Episodes estimate an uncapped game's mean lines by splitting, `effort` trajectories a
    /// level, instead of playing a game out: for players whose games last hours.
    pub fn with_splitting(mut self, effort: Option<u32>) -> Tetris {
        self.splitting = effort;
        self
    }

    pub fn width(&self) -> usize {
        self.width
    }

    pub fn height(&self) -> usize {
        self.height
    }

    fn draw(&self, bag: &mut u8, rng: &mut ChaCha8Rng) -> u8 {
        match self.randomizer {
            Randomizer::Uniform => rng.random_range(0..7u8),
            Randomizer::Bag7 => {
                if *bag == 0 {
                    *bag = FULL_BAG;
                }
                let k = rng.random_range(0..bag.count_ones());
                let mut rest = *bag;
                for _ in 0..k {
                    rest &= rest - 1;
                }
                let piece = rest.trailing_zeros() as u8;
                *bag &= !(1 << piece);
                piece
            }
        }
    }

    /// Every drop of the position's piece, top-outs included, with what it leaves: what `moves`
    /// shows a user. The player uses [`Game::for_each_move`], which skips excluded top-outs.
    pub fn all_drops(
        &self,
        position: &Position,
        mask: FeatureMask,
        visit: impl FnMut(Placement, bool, &Board, &Outcome, &FeatureValues),
    ) {
        let mut after = position.board;
        self.each_drop::<_, true>(position, mask, &mut after, |b| b, visit);
    }

    /// The drops of [`all_drops`](Tetris::all_drops), each left in the board that `board_of`
    /// finds inside `after` (which starts out holding the position's board) while `visit` sees
    /// it: the player keeps that board inside the next position, so no placement copies a board.
    /// Without `KEEP` the board seen is not the one after the drop: for a caller that wants
    /// only the outcome and features, which skips the writes.
    #[inline(always)]
    fn each_drop<A, const KEEP: bool>(
        &self,
        position: &Position,
        mask: FeatureMask,
        after: &mut A,
        board_of: impl Fn(&mut A) -> &mut Board,
        mut visit: impl FnMut(Placement, bool, &A, &Outcome, &FeatureValues),
    ) {
        let mut features = FeatureValues::default();
        let mut base = DropBase::new(&position.board, mask & !MOVE_FEATURES);
        let base = base.tally();
        for drop in self.table.drops(position.piece) {
            let landing = base.drop::<KEEP>(drop, board_of(after), &mut features);
            let outcome = Outcome {
                cleared: landing.lines,
                points: landing.lines as f64,
                chains: 0,
                game_over: landing.topout,
                terminal_value: landing.topout.then_some(f64::NEG_INFINITY),
            };
            let placement = Placement {
                orientation: drop.orientation,
                column: drop.column,
            };
            visit(placement, landing.topout, after, &outcome, &features);
            base.undo::<KEEP>(drop, board_of(after), &landing);
        }
    }

    /// Piece letter for display.
    pub fn piece_letter(piece: u8) -> char {
        PIECE_LETTERS[piece as usize]
    }
}

impl Game for Tetris {
    type Position = Position;

    type Move = Placement;

    fn name(&self) -> &'static str {
        "tetris"
    }

    fn rules(&self) -> String {
        format!(
            "research {}x{}, {} pieces{}{}",
            self.width,
            self.height,
            match self.randomizer {
                Randomizer::Uniform => "uniform",
                Randomizer::Bag7 => "7-bag",
            },
            if self.allow_topout {
                ", top-outs allowed"
            } else {
                ""
            },
            if self.preview {
                ", next piece shown"
            } else {
                ""
            },
        ) + &self
            .splitting
            .map(|n| format!(", splitting estimates ({n} a level)"))
            .unwrap_or_default()
    }

    fn feature_names(&self) -> &'static [&'static str] {
        &FEATURE_NAMES
    }

    fn start(&self, rng: &mut ChaCha8Rng) -> Position {
        let mut bag = FULL_BAG;
        let piece = self.draw(&mut bag, rng);
        let next = if self.preview {
            self.draw(&mut bag, rng)
        } else {
            NO_PIECE
        };
        Position {
            board: Board::empty(self.width, self.height),
            piece,
            next,
            bag,
        }
    }

    #[inline]
    fn for_each_move(
        &self,
        position: &Position,
        mask: FeatureMask,
        visit: &mut impl FnMut(Placement, &Position, &Outcome, &FeatureValues),
    ) {
        let allow_topout = self.allow_topout;
        let mut next = Position {
            board: position.board,
            piece: position.next,
            next: NO_PIECE,
            bag: position.bag,
        };
        self.each_drop::<_, true>(
            position,
            mask,
            &mut next,
            |p| &mut p.board,
            |placement, topout, next, outcome, features| {
                if topout && !allow_topout {
                    return;
                }
                visit(placement, next, outcome, features);
            },
        );
    }

    #[inline]
    fn for_each_outcome(
        &self,
        position: &Position,
        mask: FeatureMask,
        visit: &mut impl FnMut(Placement, &Outcome, &FeatureValues),
    ) {
        let allow_topout = self.allow_topout;
        // Written only by drops that clear rows, and given back after each.
        let mut scratch = position.board;
        self.each_drop::<_, false>(
            position,
            mask,
            &mut scratch,
            |b| b,
            |placement, topout, _, outcome, features| {
                if topout && !allow_topout {
                    return;
                }
                visit(placement, outcome, features);
            },
        );
    }

    fn score_name(&self) -> &'static str {
        "lines"
    }

    fn shows_next(&self, position: &Position) -> bool {
        position.next != NO_PIECE
    }

    fn apply(&self, position: &mut Position, mv: Placement, rng: &mut ChaCha8Rng) -> Outcome {
        let landing = self.land(&mut position.board, position.piece, mv);
        let mut bag = position.bag;
        if self.preview {
            position.piece = position.next;
            position.next = self.draw(&mut bag, rng);
        } else {
            position.piece = self.draw(&mut bag, rng);
        }
        position.bag = bag;
        let mut outcome = Outcome {
            cleared: landing.lines,
            points: landing.lines as f64,
            chains: 0,
            game_over: landing.topout,
            terminal_value: None,
        };
        if !outcome.game_over && !self.allow_topout {
            // The game ends when every placement of the new piece tops out.
            outcome.game_over = !self.has_safe_drop(position);
        }
        outcome
    }
}

impl SearchHooks for Tetris {
    fn points_feature(&self) -> Option<&'static str> {
        Some("lines_cleared")
    }
}

impl Episodes for Tetris {
    fn episode(
        &self,
        player: &impl Policy<Self>,
        _index: u64,
        mut rng: ChaCha8Rng,
        limits: EpisodeLimits,
        observe: &mut impl FnMut(&Position, &EpisodeResult),
    ) -> EpisodeResult {
        if let Some(effort) = self.splitting {
            return splitting::estimate(self, player, effort, &mut rng, observe);
        }
        play_alone(self, player, rng, limits, observe)
    }
}

impl Render for Tetris {
    fn render(&self, position: &Position) -> String {
        let mut s = position.board.framed();
        s.push_str(&format!(
            "next piece: {}\n",
            Self::piece_letter(position.piece)
        ));
        s
    }
}

impl Tetris {
    /// Drops `piece` on `board` as `mv` says and removes the full rows: a move played for real.
    #[inline]
    fn land(&self, board: &mut Board, piece: u8, mv: Placement) -> board::Landing {
        let drop = self
            .table
            .find(piece, mv.orientation, mv.column)
            .expect("a placement offered by for_each_move");
        board.drop_piece(drop)
    }

    fn has_safe_drop(&self, position: &Position) -> bool {
        self.table
            .drops(position.piece)
            .iter()
            .any(|d| !position.board.would_top_out(d))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn size_limits_are_errors() {
        assert!(Tetris::new(3, 20).is_err());
        assert!(Tetris::new(17, 20).is_err());
        assert!(Tetris::new(10, 65).is_err());
        assert!(Tetris::new(10, 3).is_err());
        assert!(Tetris::new(16, 64).is_ok());
    }

    #[test]
    fn bag_deals_each_piece_once_per_seven() {
        let game = Tetris::new(10, 20)
            .unwrap()
            .with_randomizer(Randomizer::Bag7);
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut bag = FULL_BAG;
        for _ in 0..5 {
            let mut seen = 0u8;
            for _ in 0..7 {
                seen |= 1 << game.draw(&mut bag, &mut rng);
            }
            assert_eq!(seen, FULL_BAG);
        }
    }

    #[test]
    fn empty_board_offers_every_drop() {
        let game = Tetris::new(10, 20).unwrap();
        for piece in 0..7u8 {
            let position = Position::new(Board::empty(10, 20), piece);
            let mut n = 0;
            game.for_each_move(&position, 0, &mut |_, _, _, _| n += 1);
            assert_eq!(n, game.table.drops(piece).len());
        }
    }
}

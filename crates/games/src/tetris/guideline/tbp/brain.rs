//! A policy of guideline Tetris as a Tetris Bot Protocol bot (`stacktune tbp`): any TBP front
//! end can host a tuned player.
//!
//! The bot keeps the position the front end describes (`start`), moves it on with each
//! `play` and `new_piece`, and on `suggest` asks its policy over what it has been shown: the
//! same player, under the same search, that `play` and `versus` measure.

use super::{as_said, index, legal_move, side_of, spin_of, tbp_move};
use crate::tetris::guideline::Guideline;
use crate::tetris::guideline::rules::Side;
use stacktune_game::Policy;
use stacktune_tbp::bot::Brain;
use stacktune_tbp::messages::{Info, Move, MoveInfo, Piece, Rules, Start, Suggestion};

/// A policy (a weight set under its search), answering as a TBP bot.
pub struct PlayerBrain<P> {
    game: Guideline,
    player: P,
    /// Where the weights come from, said in `info`.
    source: String,
    /// The search, said in each suggestion's `move_info`.
    search: String,
    side: Option<Side>,
}

impl<P: Policy<Guideline>> PlayerBrain<P> {
    pub fn new(game: Guideline, player: P, source: String, search: String) -> PlayerBrain<P> {
        PlayerBrain {
            game,
            player,
            source,
            search,
            side: None,
        }
    }
}

impl<P: Policy<Guideline>> Brain for PlayerBrain<P> {
    fn info(&self) -> Info {
        Info {
            name: "stacktune".to_string(),
            version: format!("{} ({})", env!("CARGO_PKG_VERSION"), self.source),
            author: "stacktune".to_string(),
            features: Vec::new(),
        }
    }

    /// Any randomizer will do: the player searches only the pieces it is shown.
    fn rules(&mut self, _: &Rules) -> Result<(), String> {
        Ok(())
    }

    fn start(&mut self, start: &Start) {
        self.side = Some(side_of(start));
    }

    fn suggest(&mut self) -> Suggestion {
        let mv = self
            .side
            .as_ref()
            .and_then(|side| self.player.choose(&self.game, side));
        Suggestion {
            moves: mv.iter().map(tbp_move).collect(),
            move_info: Some(MoveInfo {
                extra: Some(self.search.clone()),
                ..MoveInfo::default()
            }),
        }
    }

    /// Follows the front end's move, named either way (the placement whose cells it fills),
    /// with the spin it says: the front end scores the game. A move the position cannot take
    /// (off the board, a piece not in reach) is refused and the position kept: the front end's
    /// next `start` puts the two sides in step again.
    fn play(&mut self, mv: &Move) -> Result<(), String> {
        if let Some(side) = &mut self.side {
            let mut played = match legal_move(&self.game, side, mv) {
                Some(m) => m,
                None => as_said(side, mv)?,
            };
            played.placement.spin = spin_of(mv.spin);
            side.lock(self.game.rules_of(), played.hold, &played.placement, false);
        }
        Ok(())
    }

    fn new_piece(&mut self, piece: Piece) {
        if let Some(side) = &mut self.side {
            side.queue.push(index(piece));
        }
    }

    fn stop(&mut self) {
        self.side = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tetris::guideline::Mode;
    use crate::tetris::guideline::rules::Rules as GuidelineRules;
    use stacktune_tbp::messages::{Board, Cell, Location, Orientation, Spin};

    /// A player that never moves: these tests only tell the brain what was played.
    struct Idle;

    impl Policy<Guideline> for Idle {
        fn choose(&self, _: &Guideline, _: &Side) -> Option<crate::tetris::guideline::Move> {
            None
        }
    }

    /// A brain started on `board` (the cells filled) with `queue`.
    fn brain(board: &[(usize, usize)], queue: Vec<Piece>) -> PlayerBrain<Idle> {
        let game = Guideline::new(GuidelineRules::default(), Mode::Versus);
        let mut brain = PlayerBrain::new(game, Idle, String::new(), String::new());
        let mut rows = Board::EMPTY;
        for &(x, y) in board {
            rows.rows[y][x] = Some(Cell::G);
        }
        brain.start(&Start {
            hold: None,
            queue,
            combo: 0,
            back_to_back: false,
            board: rows,
            randomizer: None,
        });
        brain
    }

    fn at(piece: Piece, orientation: Orientation, x: i32, y: i32, spin: Spin) -> Move {
        Move {
            location: Location {
                piece,
                orientation,
                x,
                y,
            },
            spin,
        }
    }

    /// A `play` naming a placement either way (S, Z and I name most twice) plays the same
    /// cells: the position after one is the position after the other.
    #[test]
    fn a_play_under_either_name_is_followed() {
        use Orientation::*;
        let pairs = [
            (
                at(Piece::Z, East, 0, 2, Spin::None),
                at(Piece::Z, West, 1, 2, Spin::None),
            ),
            (
                at(Piece::S, North, 4, 0, Spin::None),
                at(Piece::S, South, 4, 1, Spin::None),
            ),
            (
                at(Piece::I, East, 9, 2, Spin::None),
                at(Piece::I, West, 9, 1, Spin::None),
            ),
            (
                at(Piece::I, North, 4, 0, Spin::None),
                at(Piece::I, South, 5, 0, Spin::None),
            ),
        ];
        for (own, other) in pairs {
            let cells = |mv: &Move| {
                let mut cells = mv.location.cells();
                cells.sort();
                cells
            };
            assert_eq!(cells(&own), cells(&other));
            let queue = vec![own.location.piece, Piece::T, Piece::O];
            let mut a = brain(&[], queue.clone());
            let mut b = brain(&[], queue);
            a.play(&own).unwrap();
            b.play(&other).unwrap();
            let (a, b) = (a.side.unwrap(), b.side.unwrap());
            assert_eq!(a, b, "{own:?} and {other:?}");
            assert_eq!(a.board.cell_count(), 4);
            assert_eq!(a.queue.current(), Some(index(Piece::T)));
        }
    }

    /// The spin a `play` says is the one the brain scores the clear with: the front end keeps
    /// the game. A T in a T-spin slot clearing two rows charges back-to-back as a full T-spin,
    /// and not as a plain double.
    #[test]
    fn a_play_is_scored_with_the_spin_the_front_end_says() {
        let mut board: Vec<(usize, usize)> = (0..10).filter(|&x| x != 3).map(|x| (x, 0)).collect();
        board.extend((0..10).filter(|x| !(2..=4).contains(x)).map(|x| (x, 1)));
        board.push((2, 2));
        for (spin, b2b) in [(Spin::Full, 1), (Spin::None, 0)] {
            let mut brain = brain(&board, vec![Piece::T, Piece::I]);
            brain
                .play(&at(Piece::T, Orientation::South, 3, 1, spin))
                .unwrap();
            let side = brain.side.unwrap();
            assert_eq!((side.board.cell_count(), side.b2b), (1, b2b), "{spin:?}");
        }
    }
}

//! One side of a match as the match sees it: whatever picks its moves, a weight set under a
//! search or a bot behind the Tetris Bot Protocol (tbp/front.rs), apart from the match
//! (matches.rs) so that a side's kind and the match that seats it never import each other.

use super::Guideline;
use super::Move;
use super::rules::Side;
use stacktune_game::Policy;

/// Whatever picks one side's moves in a match.
pub trait Contestant {
    /// The side's position changed by more than its own moves (the game began, garbage
    /// rose): a contestant with a state of its own re-reads it. An error forfeits the game.
    fn sync(&mut self, game: &Guideline, side: &Side) -> Result<(), String>;
    /// The move to play; an error (no move, a crash, a move the rules do not offer) forfeits.
    fn choose(&mut self, game: &Guideline, side: &Side) -> Result<Move, String>;
    /// `mv` was played, leaving `side` (its next piece dealt).
    fn played(&mut self, game: &Guideline, mv: Move, side: &Side) -> Result<(), String>;
    /// Whether the side was told to stop (Ctrl-C): the match ends where it is, and whoever
    /// plays it drops it.
    fn stopped(&self) -> bool {
        false
    }
}

/// A weight set under a search as a contestant: it reads the position afresh every move.
pub struct PolicySide<'a, P> {
    player: &'a P,
}

impl<'a, P> PolicySide<'a, P> {
    pub fn new(player: &'a P) -> PolicySide<'a, P> {
        PolicySide { player }
    }
}

impl<P: Policy<Guideline>> Contestant for PolicySide<'_, P> {
    fn sync(&mut self, _: &Guideline, _: &Side) -> Result<(), String> {
        Ok(())
    }

    fn choose(&mut self, game: &Guideline, side: &Side) -> Result<Move, String> {
        self.player
            .choose(game, side)
            .ok_or_else(|| "no placement left".to_string())
    }

    fn played(&mut self, _: &Guideline, _: Move, _: &Side) -> Result<(), String> {
        Ok(())
    }

    fn stopped(&self) -> bool {
        self.player.stopped()
    }
}

/// A side that could not start: it loses at its first move with this reason.
pub(crate) struct Failed(pub(crate) String);

impl Contestant for Failed {
    fn sync(&mut self, _: &Guideline, _: &Side) -> Result<(), String> {
        Err(self.0.clone())
    }

    fn choose(&mut self, _: &Guideline, _: &Side) -> Result<Move, String> {
        Err(self.0.clone())
    }

    fn played(&mut self, _: &Guideline, _: Move, _: &Side) -> Result<(), String> {
        Err(self.0.clone())
    }
}

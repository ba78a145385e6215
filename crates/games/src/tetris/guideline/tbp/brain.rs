//! A policy of guideline Tetris as a Tetris Bot Protocol bot (`stacktune tbp`): any TBP front
//! end can host a tuned player.
//!
//! The bot keeps the position the front end describes (`start`), moves it on with each
//! `play` and `new_piece`, and on `suggest` asks its policy over what it has been shown: the
//! same player, under the same search, that `play` and `versus` measure.

use super::{as_said, index, legal_move, side_of, tbp_move};
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

    /// A move the position cannot take (off the board, a piece not in reach) is refused and
    /// the position kept: the front end's next `start` puts the two sides in step again.
    fn play(&mut self, mv: &Move) -> Result<(), String> {
        if let Some(side) = &mut self.side {
            let played = match legal_move(&self.game, side, mv) {
                Some(m) => m,
                None => as_said(side, mv)?,
            };
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

//! A bot behind the Tetris Bot Protocol as one side of a match: the front end that `versus`
//! and self-play anchors speak to any TBP program.
//!
//! The bot is told the position at the start and again whenever garbage rose (the protocol
//! has no garbage message; front ends send `start` again), is given its thinking time as wall
//! time between the position and the `suggest` (TBP bots think until asked), and plays the
//! first move it suggests that the rules offer. A crash, a time-out, a malformed line or no
//! valid move loses the game with its reason; the match goes on.
//!
//! **The bot hears back its own move.** `play` carries the move exactly as the bot suggested
//! it (piece, orientation, x, y and spin), never the rules' own name for the same cells: S, Z
//! and I have two names for most placements, and a bot may find its move by comparing every
//! field (Cold Clear 1 does, and loses track of its queue on any other name). The game plays
//! the rules' placement of those cells and scores it with the rules' spin; when that spin is
//! not the one the bot claimed and the move cleared lines, the bot's back-to-back may now be
//! wrong, so after the echo the position is sent again with `start`, as after garbage.

use super::{legal_move, piece, spin_of, start_of};
use crate::tetris::guideline::contestant::Contestant;
use crate::tetris::guideline::rules::Side;
use crate::tetris::guideline::{Guideline, Move};
use stacktune_tbp::client::{Bot, BotCommand, BotFault, BotOptions, BotStderr};
use stacktune_tbp::messages::{self, Randomizer, Rules};
use std::time::Duration;

/// How a bot side is run.
#[derive(Clone, Debug, PartialEq)]
pub struct BotSettings {
    pub command: BotCommand,
    /// Wall time the bot thinks on each piece before it is asked for its move.
    pub think: Duration,
    /// Longest wait for any answer, beyond the thinking time.
    pub timeout: Duration,
}

/// A running bot playing one side.
pub struct BotSide {
    bot: Bot,
    think: Duration,
    /// The fault that ended the bot's game, reported again at any later call.
    fault: Option<BotFault>,
    /// Hold was empty when the bot chose its move: a hold then deals two pieces.
    hold_was_empty: bool,
    /// The move the game took from the bot's last suggestion.
    accepted: Option<Accepted>,
}

/// A move taken from a bot: the rules' placement, the bot's own words for it (which `play`
/// echoes), and whether it clears lines (where the spin scores).
#[derive(Clone, Copy)]
struct Accepted {
    mv: Move,
    said: messages::Move,
    clears: bool,
}

impl BotSide {
    /// Launches the bot and hands it the rules (seven-bag); a bot that cannot start or refuses
    /// plays its first move as a forfeit with that reason.
    pub fn launch(settings: &BotSettings) -> Result<BotSide, BotFault> {
        let options = BotOptions {
            timeout: settings.timeout,
            stderr: BotStderr::Discard,
        };
        let rules = Rules {
            randomizer: Randomizer::SevenBag,
        };
        let bot = Bot::launch(&settings.command, &rules, options)?;
        Ok(BotSide {
            bot,
            think: settings.think,
            fault: None,
            hold_was_empty: true,
            accepted: None,
        })
    }

    /// The bot's name and version, as it says.
    pub fn name(&self) -> String {
        let info = self.bot.info();
        format!("{} {}", info.name, info.version)
    }

    /// Ends the game for the bot, so it can start the next.
    pub fn stop(&mut self) {
        let _ = self.bot.stop();
    }

    fn failed(&mut self, fault: BotFault) -> String {
        let text = fault.to_string();
        self.fault = Some(fault);
        text
    }
}

impl Drop for BotSide {
    /// A bot is told the game is over before it is killed, so it can exit cleanly.
    fn drop(&mut self) {
        self.stop();
    }
}

impl Contestant for BotSide {
    fn sync(&mut self, _: &Guideline, side: &Side) -> Result<(), String> {
        self.bot.start(&start_of(side)).map_err(|f| self.failed(f))
    }

    fn choose(&mut self, game: &Guideline, side: &Side) -> Result<Move, String> {
        if let Some(f) = &self.fault {
            return Err(f.to_string());
        }
        self.hold_was_empty = side.hold.is_none();
        std::thread::sleep(self.think);
        let suggestion = self.bot.suggest().map_err(|f| self.failed(f))?;
        let n = suggestion.moves.len();
        self.accepted = suggestion.moves.iter().find_map(|said| {
            let mv = legal_move(game, side, said)?;
            let mut after = *side;
            let locked = after.lock(game.rules_of(), mv.hold, &mv.placement, false);
            Some(Accepted {
                mv,
                said: *said,
                clears: locked.lines > 0,
            })
        });
        match self.accepted {
            Some(accepted) => Ok(accepted.mv),
            None => Err(self.failed(BotFault::NoValidMove { suggested: n })),
        }
    }

    /// Echoes the bot's own move, then deals the new pieces; restates the position instead
    /// of dealing when the game scored a clear with another spin than the bot's, or (never in
    /// a match) when the move played is not the one taken from the bot: a move the bot did
    /// not suggest is never sent in its name.
    fn played(&mut self, game: &Guideline, mv: Move, side: &Side) -> Result<(), String> {
        let accepted = match self.accepted.take() {
            Some(accepted) if accepted.mv == mv => accepted,
            _ => return self.sync(game, side),
        };
        self.bot.play(&accepted.said).map_err(|f| self.failed(f))?;
        if accepted.clears && spin_of(accepted.said.spin) != mv.placement.spin {
            return self.sync(game, side);
        }
        // The pieces dealt into view: one, or two after a hold into an empty hold.
        let shown = side.queue.shown() as usize;
        let dealt = 1 + (mv.hold && self.hold_was_empty) as usize;
        for i in shown.saturating_sub(dealt)..shown {
            if let Some(p) = side.queue.preview(i) {
                self.bot.new_piece(piece(p)).map_err(|f| self.failed(f))?;
            }
        }
        Ok(())
    }
}

//! A bot behind the Puyo Bot Protocol as one side of a match: `versus`'s `pbp:COMMAND`.
//!
//! The bot hears the rules once, then at each of its choices the whole situation (`start` at
//! a game's first, `update` after), is asked for its placement, and hears back the placement
//! taken with `play`. It plays the first placement it suggests that the rules offer. A crash,
//! a time-out, a malformed line or no placement the rules offer loses the game with its
//! reason; the match goes on. The process machinery (launch, capped lines, bounded waits, a
//! bot that dies with stacktune) is the Tetris Bot Protocol front end's [`Link`].

use super::{BotMessage, FrontendMessage, Info, Move, Rules, state_of};
use crate::puyo::Puyo;
use crate::puyo::contestant::{Contestant, MatchView};
use crate::puyo::rules::Placement;
use crate::puyo::versus::BattleRules;
use stacktune_tbp::client::{BotCommand, BotFault, BotOptions, BotStderr, Link};
use std::time::Duration;

/// The prefix that makes a `versus` player a PBP bot's command line.
pub const BOT_PREFIX: &str = "pbp:";

/// How long a bot may take for any answer when `--timeout-ms` does not say.
pub const TIMEOUT_MS: u64 = 5000;

/// How a bot side is run.
#[derive(Clone, Debug, PartialEq)]
pub struct BotSettings {
    pub command: BotCommand,
    /// Longest wait for any answer (`info`, `ready`, each `suggestion`).
    pub timeout: Duration,
}

/// A running bot playing one side of one game.
pub struct BotSide {
    link: Link<BotMessage>,
    info: Info,
    /// `start` was sent for this game.
    started: bool,
}

impl BotSide {
    /// Launches the bot, reads its `info`, hands it the rules of `battle` played with `game`
    /// and waits for `ready`.
    pub fn launch(
        settings: &BotSettings,
        game: &Puyo,
        battle: &BattleRules,
    ) -> Result<BotSide, BotFault> {
        let options = BotOptions {
            timeout: settings.timeout,
            stderr: BotStderr::Discard,
        };
        let mut link = Link::launch(&settings.command, options)?;
        let info = link.await_message("info", "waiting for `info`", |m| match m {
            BotMessage::Info(info) => Some(info),
            _ => None,
        })?;
        let rules = FrontendMessage::Rules(Rules::of(game, battle));
        link.send(&rules, "sending `rules`")?;
        link.await_message("ready", "waiting for `ready`", |m| match m {
            BotMessage::Ready => Some(()),
            _ => None,
        })?;
        Ok(BotSide {
            link,
            info,
            started: false,
        })
    }

    /// The bot's name and version, as it says.
    pub fn name(&self) -> String {
        format!("{} {}", self.info.name, self.info.version)
    }

    /// The first of `moves` the rules offer on `view`'s field.
    fn offered(game: &Puyo, view: &MatchView<'_>, moves: &[Move]) -> Option<Placement> {
        let heights = view.position.field.heights();
        moves
            .iter()
            .filter_map(|m| m.placement().ok())
            .find(|&p| game.rules_of().offers(&heights, p))
    }
}

impl Drop for BotSide {
    /// A bot in a game is told it is over before it is killed, so it can exit cleanly.
    fn drop(&mut self) {
        if self.started {
            let _ = self.link.send(&FrontendMessage::Stop, "sending `stop`");
        }
    }
}

impl Contestant for BotSide {
    fn choose(&mut self, game: &Puyo, view: &MatchView<'_>) -> Result<Placement, String> {
        let state = Box::new(state_of(view));
        let (message, during) = match std::mem::replace(&mut self.started, true) {
            false => (FrontendMessage::Start(state), "sending `start`"),
            true => (FrontendMessage::Update(state), "sending `update`"),
        };
        let link = &mut self.link;
        link.send(&message, during).map_err(|f| f.to_string())?;
        link.drain().map_err(|f| f.to_string())?;
        link.send(&FrontendMessage::Suggest, "sending `suggest`")
            .map_err(|f| f.to_string())?;
        let suggestion = link
            .await_message("suggestion", "waiting for `suggestion`", |m| match m {
                BotMessage::Suggestion(s) => Some(s),
                _ => None,
            })
            .map_err(|f| f.to_string())?;
        if suggestion.moves.is_empty() {
            // A forfeit, as a player of stacktune's own says it.
            return Err("had no placement left".to_string());
        }
        let Some(placement) = BotSide::offered(game, view, &suggestion.moves) else {
            let suggested = suggestion.moves.len();
            return Err(BotFault::NoValidMove { suggested }.to_string());
        };
        let play = FrontendMessage::Play {
            mv: Move::of(placement),
        };
        link.send(&play, "sending `play`")
            .map_err(|f| f.to_string())?;
        Ok(placement)
    }
}

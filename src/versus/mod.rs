//! Matches between two versus Tetris players, either of them a weights file under its search
//! or any bot behind the Tetris Bot Protocol: what `versus` measures and what self-play
//! anchors are.
//!
//! Games come in pairs: pair k draws its seeds (pieces, each side's garbage) from stream
//! (seed, games, 0, k) and is played twice, the first player on the left, then on the right
//! with the same seeds, so luck in the pieces and the garbage cancels within the pair and the
//! pairs are independent (the pentanomial statistics of fishtest and cutechess). A match
//! between two weights files is a function of its seed, whatever the thread count.

pub mod bot_side;
pub mod brain;
pub mod convert;

use crate::games::guideline::matches::{
    self, Contestant, MatchEnd, MatchRecord, PolicySide, Seeds,
};
use crate::games::guideline::rules::Side;
use crate::games::guideline::{Guideline, Move};
use crate::match_stats::{Outcome, Pentanomial, Trinomial};
use crate::rng::{Purpose, stream};
use crate::search::Player;
use crate::weights::WeightFile;
use anyhow::{Context, Result};
use bot_side::{BotSettings, BotSide};
use rayon::prelude::*;
use std::path::Path;

/// The prefix that makes a player spec a TBP bot's command line.
pub const BOT_PREFIX: &str = "tbp:";

/// One of a match's two players.
#[derive(Clone, Debug)]
pub enum Entrant {
    /// A weights file under its search.
    Weights { name: String, player: Box<Player> },
    /// A TBP bot, launched afresh for each game.
    Bot { name: String, settings: BotSettings },
}

impl Entrant {
    /// `tbp:COMMAND` (a bot's command line) or the path of a guideline weights file.
    pub fn parse(
        game: &Guideline,
        spec: &str,
        think: std::time::Duration,
        timeout: std::time::Duration,
    ) -> Result<Entrant> {
        if let Some(command) = spec.strip_prefix(BOT_PREFIX) {
            let command = command
                .parse()
                .map_err(|e| anyhow::anyhow!("player `{spec}`: {e}"))?;
            return Ok(Entrant::Bot {
                name: spec.to_string(),
                settings: BotSettings {
                    command,
                    think,
                    timeout,
                },
            });
        }
        let file = WeightFile::load(Path::new(spec))?;
        let player = game
            .player_of(&file)
            .with_context(|| format!("weights file {spec}"))?;
        Ok(Entrant::Weights {
            name: spec.to_string(),
            player: Box::new(player),
        })
    }

    pub fn name(&self) -> &str {
        match self {
            Entrant::Weights { name, .. } | Entrant::Bot { name, .. } => name,
        }
    }
}

/// One side of one game, ready to play.
enum Seat<'a> {
    Weights(PolicySide<'a, Player>),
    Bot(Box<BotSide>),
    /// A bot that could not start: it loses at its first move with this reason.
    Failed(String),
}

impl<'a> Seat<'a> {
    fn take(entrant: &'a Entrant) -> Seat<'a> {
        match entrant {
            Entrant::Weights { player, .. } => Seat::Weights(PolicySide::new(player)),
            Entrant::Bot { settings, .. } => match BotSide::launch(settings) {
                Ok(bot) => Seat::Bot(Box::new(bot)),
                Err(fault) => Seat::Failed(fault.to_string()),
            },
        }
    }
}

impl Contestant for Seat<'_> {
    fn sync(&mut self, game: &Guideline, side: &Side) -> Result<(), String> {
        match self {
            Seat::Weights(p) => p.sync(game, side),
            Seat::Bot(b) => b.sync(game, side),
            Seat::Failed(reason) => Err(reason.clone()),
        }
    }

    fn choose(&mut self, game: &Guideline, side: &Side) -> Result<Move, String> {
        match self {
            Seat::Weights(p) => p.choose(game, side),
            Seat::Bot(b) => b.choose(game, side),
            Seat::Failed(reason) => Err(reason.clone()),
        }
    }

    fn played(&mut self, game: &Guideline, mv: Move, side: &Side) -> Result<(), String> {
        match self {
            Seat::Weights(p) => p.played(game, mv, side),
            Seat::Bot(b) => b.played(game, mv, side),
            Seat::Failed(reason) => Err(reason.clone()),
        }
    }
}

/// One game of a match, from the first player's side.
#[derive(Clone, Debug)]
pub struct Game {
    pub pair: u64,
    /// Whether the first player played the left side.
    pub first_left: bool,
    pub seeds: Seeds,
    pub outcome: Outcome,
    pub record: MatchRecord,
}

/// The seeds of pair `pair` of a match seeded `seed`.
pub fn pair_seeds(seed: u64, pair: u64) -> Seeds {
    Seeds::draw(&mut stream(seed, Purpose::Games, 0, pair))
}

/// Plays one game: `first` on the left when `first_left`, else on the right, on `seeds`.
pub fn play_game(
    game: &Guideline,
    first: &Entrant,
    second: &Entrant,
    seeds: Seeds,
    first_left: bool,
    cap: u64,
) -> (Outcome, MatchRecord) {
    let (mut a, mut b) = (Seat::take(first), Seat::take(second));
    let sides: [&mut dyn Contestant; 2] = match first_left {
        true => [&mut a, &mut b],
        false => [&mut b, &mut a],
    };
    let record = matches::play(game, sides, seeds, cap, &mut |_, _| {});
    for seat in [&mut a, &mut b] {
        if let Seat::Bot(bot) = seat {
            bot.stop();
        }
    }
    let first_side = if first_left { 0 } else { 1 };
    let outcome = match &record.end {
        MatchEnd::Draw => Outcome::Draw,
        MatchEnd::Won(w) if *w == first_side => Outcome::Win,
        MatchEnd::Won(_) => Outcome::Loss,
    };
    (outcome, record)
}

/// Plays pairs `pairs` of the match seeded `seed` on the current rayon pool (games in pair
/// order, whoever plays them), each game at most `cap` pieces a side; `done` hears of each
/// game as it ends.
pub fn play_pairs(
    game: &Guideline,
    first: &Entrant,
    second: &Entrant,
    seed: u64,
    pairs: std::ops::Range<u64>,
    cap: u64,
    done: &(dyn Fn() + Sync),
) -> Vec<Game> {
    pairs
        .into_par_iter()
        .flat_map_iter(|pair| {
            let seeds = pair_seeds(seed, pair);
            [true, false].map(|first_left| {
                let (outcome, record) = play_game(game, first, second, seeds, first_left, cap);
                done();
                Game {
                    pair,
                    first_left,
                    seeds,
                    outcome,
                    record,
                }
            })
        })
        .collect()
}

/// A match's counts from the first player's side: by game, and by pair.
pub fn tally(games: &[Game]) -> (Trinomial, Pentanomial) {
    let mut tri = Trinomial::default();
    let mut penta = Pentanomial::default();
    for pair in games.chunks(2) {
        for g in pair {
            tri.add(g.outcome);
        }
        if let [a, b] = pair {
            penta.add_pair(a.outcome, b.outcome);
        }
    }
    (tri, penta)
}

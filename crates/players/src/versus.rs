//! Matches between two versus Tetris players, either of them a weights file under its search
//! or any bot behind the Tetris Bot Protocol, or between two Puyo players under Tsu's battle
//! rules: what `versus` measures and what self-play anchors are.
//!
//! Games come in pairs: pair k draws its seeds (pieces, each side's garbage) from stream
//! (seed, games, 0, k) and is played twice, the first player on the left, then on the right
//! with the same seeds, so luck in the pieces and the garbage cancels within the pair and the
//! pairs are independent (the pentanomial statistics of fishtest and cutechess). A match
//! between two weights files is a function of its seed, whatever the thread count.

use crate::puyo_match::PuyoSide;
use crate::search::Search;
use crate::weights::WeightFile;
use anyhow::Result;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use stacktune_base::rng::{Purpose, stream};
use stacktune_base::stats::matches::{Outcome, Pentanomial, Trinomial};
use stacktune_games::puyo::contestant::Contestant as PuyoContestant;
use stacktune_games::puyo::versus::{Battle, MatchRecord as PuyoRecord, Seeds as PuyoSeeds};
#[cfg(feature = "cli-games")]
use stacktune_games::puyo::{
    Puyo,
    contestant::MatchView,
    pbp::front::{
        BOT_PREFIX as PUYO_BOT_PREFIX, BotSettings as PuyoBotSettings, BotSide as PuyoBotSide,
    },
    rules::Placement,
};
use stacktune_games::tetris::guideline::matches::{self, Contestant, MatchEnd, MatchRecord, Seeds};
use stacktune_games::tetris::guideline::tbp::front::BotSide;
use stacktune_games::tetris::guideline::{Guideline, Opponent, OpponentKind};
#[cfg(feature = "cli-games")]
use std::time::Duration;

/// One of a match's two players by name, read as a run reads its opponents (a weights file,
/// `hand` or `tbp:COMMAND`); a bot is started once here, so that one that cannot start is
/// refused before any game.
pub fn entrant(game: &Guideline, name: &str, search: Search) -> Result<Opponent> {
    let entrant = game.entrant("player", name, &|game, role, name| {
        crate::registry::guideline_policy(game, role, name, &WeightFile::load, search)
    })?;
    if let OpponentKind::Bot(settings) = &entrant.kind {
        BotSide::launch(settings).map_err(|f| anyhow::anyhow!("player `{name}`: {f}"))?;
    }
    Ok(entrant)
}

/// One game of a match, from the first player's side: of versus Tetris by default, of any
/// versus game with its seeds `S` and record `R`.
#[derive(Clone, Debug)]
pub struct Game<S = Seeds, R = MatchRecord> {
    pub pair: u64,
    /// Whether the first player played the left side.
    pub first_left: bool,
    pub seeds: S,
    pub outcome: Outcome,
    pub record: R,
}

/// What hears of each pair of a match's games as the pair ends (progress, a record on disk).
pub type PairEnded<'a, S = Seeds, R = MatchRecord> = &'a (dyn Fn(&[Game<S, R>; 2]) + Sync);

/// The seeds of pair `pair` of a match seeded `seed`.
pub fn pair_seeds(seed: u64, pair: u64) -> Seeds {
    Seeds::draw(&mut stream(seed, Purpose::Games, 0, pair))
}

/// The first player's outcome of a match that ended `end`, the first player on side
/// `first_side`.
fn outcome_of(end: &MatchEnd, first_side: usize) -> Outcome {
    match end {
        MatchEnd::Draw => Outcome::Draw,
        MatchEnd::Won(w) if *w == first_side => Outcome::Win,
        MatchEnd::Won(_) => Outcome::Loss,
    }
}

/// Plays one game: `first` on the left when `first_left`, else on the right, on `seeds`.
pub fn play_game(
    game: &Guideline,
    first: &Opponent,
    second: &Opponent,
    seeds: Seeds,
    first_left: bool,
    cap: u64,
) -> (Outcome, MatchRecord) {
    let (mut a, mut b) = (first.kind.seat(), second.kind.seat());
    let sides: [&mut dyn Contestant; 2] = match first_left {
        true => [&mut *a, &mut *b],
        false => [&mut *b, &mut *a],
    };
    let record = matches::play(game, sides, seeds, cap, &mut |_, _| {});
    (outcome_of(&record.end, usize::from(!first_left)), record)
}

/// One side of a Puyo match: a weights file under its search, or a bot behind the Puyo Bot
/// Protocol started afresh for each game (not in the playground's build, which has no
/// processes: the crate's `cli-games` feature).
pub enum PuyoEntrant {
    Weights(Box<PuyoSide>),
    #[cfg(feature = "cli-games")]
    Bot(PuyoBotSettings),
}

impl PuyoEntrant {
    /// A bot side by its `pbp:COMMAND` name, started once here so that one that cannot start
    /// (or refuses the rules) is refused before any game; `None` for a name that is not a bot's.
    #[cfg(feature = "cli-games")]
    pub fn bot(name: &str, battle: &Battle, timeout: Duration) -> Result<Option<PuyoEntrant>> {
        let Some(command) = name.strip_prefix(PUYO_BOT_PREFIX) else {
            return Ok(None);
        };
        let refused = |e: String| anyhow::anyhow!("player `{name}`: {e}");
        let settings = PuyoBotSettings {
            command: command.parse().map_err(refused)?,
            timeout,
        };
        PuyoBotSide::launch(&settings, &battle.game, &battle.rules)
            .map_err(|f| refused(f.to_string()))?;
        Ok(Some(PuyoEntrant::Bot(settings)))
    }

    /// This side of one game of `battle`: its player, or its bot launched afresh (a bot that
    /// cannot start loses at its first choice, with the reason).
    #[cfg_attr(not(feature = "cli-games"), expect(unused_variables))]
    fn seat(&self, battle: &Battle) -> Box<dyn PuyoContestant + '_> {
        match self {
            PuyoEntrant::Weights(side) => Box::new(&**side),
            #[cfg(feature = "cli-games")]
            PuyoEntrant::Bot(settings) => {
                match PuyoBotSide::launch(settings, &battle.game, &battle.rules) {
                    Ok(bot) => Box::new(bot),
                    Err(fault) => Box::new(Forfeit(fault.to_string())),
                }
            }
        }
    }
}

/// A side that loses at its first choice, with the reason it cannot play.
#[cfg(feature = "cli-games")]
struct Forfeit(String);

#[cfg(feature = "cli-games")]
impl PuyoContestant for Forfeit {
    fn choose(&mut self, _: &Puyo, _: &MatchView<'_>) -> Result<Placement, String> {
        Err(self.0.clone())
    }
}

/// Plays one Puyo game: `first` on the left when `first_left`, else on the right, on `seeds`.
pub fn play_puyo_game(
    battle: &Battle,
    first: &PuyoEntrant,
    second: &PuyoEntrant,
    seeds: PuyoSeeds,
    first_left: bool,
    cap: u32,
) -> (Outcome, PuyoRecord) {
    let (mut a, mut b) = (first.seat(battle), second.seat(battle));
    let seats: [&mut dyn PuyoContestant; 2] = match first_left {
        true => [&mut *a, &mut *b],
        false => [&mut *b, &mut *a],
    };
    let record = battle.play(seats, seeds, cap);
    (outcome_of(&record.end, usize::from(!first_left)), record)
}

/// Plays pairs `pairs` of the match seeded `seed` on the current rayon pool (games in the
/// order of `pairs`, whoever plays them): pair k's seeds are drawn by `draw` from stream
/// (seed, games, 0, k), and `play(seeds, first_left)` plays each of its two games; `done`
/// hears of each pair's two games as they end, so that a record of the match can grow with
/// it.
pub fn play_pairs_with<S: Copy + Send, R: Send>(
    seed: u64,
    pairs: &[u64],
    draw: impl Fn(&mut ChaCha8Rng) -> S + Sync,
    play: impl Fn(S, bool) -> (Outcome, R) + Sync,
    done: PairEnded<S, R>,
) -> Vec<Game<S, R>> {
    pairs
        .par_iter()
        .flat_map_iter(|&pair| {
            let seeds = draw(&mut stream(seed, Purpose::Games, 0, pair));
            let games = [true, false].map(|first_left| {
                let (outcome, record) = play(seeds, first_left);
                Game {
                    pair,
                    first_left,
                    seeds,
                    outcome,
                    record,
                }
            });
            done(&games);
            games
        })
        .collect()
}

/// Plays pairs `pairs` of the versus Tetris match seeded `seed`, each game at most `cap`
/// pieces a side, as [`play_pairs_with`] does.
pub fn play_pairs(
    game: &Guideline,
    first: &Opponent,
    second: &Opponent,
    seed: u64,
    pairs: &[u64],
    cap: u64,
    done: PairEnded,
) -> Vec<Game> {
    let play = |seeds, first_left| play_game(game, first, second, seeds, first_left, cap);
    play_pairs_with(seed, pairs, Seeds::draw, play, done)
}

/// Plays pairs `pairs` of the Puyo match seeded `seed`, each game a draw once both sides have
/// placed `cap` pairs, as [`play_pairs_with`] does: the command line's match and the
/// playground's.
pub fn play_puyo_pairs(
    battle: &Battle,
    first: &PuyoEntrant,
    second: &PuyoEntrant,
    seed: u64,
    pairs: &[u64],
    cap: u32,
    done: PairEnded<PuyoSeeds, PuyoRecord>,
) -> Vec<Game<PuyoSeeds, PuyoRecord>> {
    let play = |seeds, first_left| play_puyo_game(battle, first, second, seeds, first_left, cap);
    play_pairs_with(seed, pairs, PuyoSeeds::draw, play, done)
}

/// A match's counts from the first player's side, of its games' outcomes in pair order: by
/// game, and by pair.
pub fn tally(outcomes: impl IntoIterator<Item = Outcome>) -> (Trinomial, Pentanomial) {
    let mut tri = Trinomial::default();
    let mut penta = Pentanomial::default();
    let mut first = None;
    for outcome in outcomes {
        tri.add(outcome);
        match first.take() {
            None => first = Some(outcome),
            Some(a) => penta.add_pair(a, outcome),
        }
    }
    (tri, penta)
}

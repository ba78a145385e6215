//! Matches between two versus Tetris players, either of them a weights file under its search
//! or any bot behind the Tetris Bot Protocol: what `versus` measures and what self-play
//! anchors are.
//!
//! Games come in pairs: pair k draws its seeds (pieces, each side's garbage) from stream
//! (seed, games, 0, k) and is played twice, the first player on the left, then on the right
//! with the same seeds, so luck in the pieces and the garbage cancels within the pair and the
//! pairs are independent (the pentanomial statistics of fishtest and cutechess). A match
//! between two weights files is a function of its seed, whatever the thread count.

use crate::search::Search;
use crate::weights::WeightFile;
use anyhow::Result;
use rayon::prelude::*;
use stacktune_base::rng::{Purpose, stream};
use stacktune_base::stats::matches::{Outcome, Pentanomial, Trinomial};
use stacktune_games::tetris::guideline::matches::{self, Contestant, MatchEnd, MatchRecord, Seeds};
use stacktune_games::tetris::guideline::tbp::front::BotSide;
use stacktune_games::tetris::guideline::{Guideline, Opponent, OpponentKind};

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
    first: &Opponent,
    second: &Opponent,
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

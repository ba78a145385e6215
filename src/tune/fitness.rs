//! Fitness: the mean episode score of each candidate over one shared set of seeded games.
//!
//! All candidates play the same games (common random numbers), so a difference in fitness is a
//! difference in weights, not in luck. Work is spread over (candidate, game) pairs, and results
//! are gathered in a fixed order, so the figures do not depend on the thread count.

use crate::episode::play_all;
use crate::eval::LinearPlayer;
use crate::game::{EpisodeLimits, Game};
use crate::progress::Progress;
use crate::search::{Player, Search};
use anyhow::Result;
use rand_chacha::ChaCha8Rng;
use std::sync::atomic::AtomicBool;

/// What scoring a set of candidates measured.
#[derive(Clone, Debug, PartialEq)]
pub struct Scores {
    /// Mean episode score per candidate.
    pub fitness: Vec<f64>,
    /// Episodes played in all.
    pub games: u64,
    /// Moves (pieces) played in all.
    pub moves: u64,
}

/// Scores each weight vector (aligned with the game's features), played under `search`, on
/// games `0..games`, game `i` drawn from `streams(i)`. Returns `None` if `stop` was raised
/// before every game finished.
#[allow(clippy::too_many_arguments)]
pub fn score_candidates<G: Game>(
    game: &G,
    search: Search,
    candidates: &[Vec<f64>],
    games: u64,
    streams: impl Fn(u64) -> ChaCha8Rng + Sync,
    limits: EpisodeLimits,
    stop: &AtomicBool,
    progress: &Progress,
) -> Result<Option<Scores>> {
    let names = game.feature_names();
    let players = candidates
        .iter()
        .map(|w| Ok(Player::new(LinearPlayer::from_vector(names, w)?, search)))
        .collect::<Result<Vec<_>>>()?;
    let Some(results) = play_all(game, &players, games, streams, limits, stop, progress) else {
        return Ok(None);
    };
    let fitness = results
        .chunks(games as usize)
        .map(|c| c.iter().map(|r| r.score).sum::<f64>() / games as f64)
        .collect();
    Ok(Some(Scores {
        fitness,
        games: results.len() as u64,
        moves: results.iter().map(|r| r.moves).sum(),
    }))
}

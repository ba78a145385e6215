//! Fitness: the mean episode score of each candidate over one shared set of seeded games.
//!
//! All candidates play the same games (common random numbers), so a difference in fitness is a
//! difference in weights, not in luck. The games are played by a backend (`crate::backend`),
//! which returns results in a fixed order, so the figures depend on neither the thread count
//! nor the number of processes.

use stacktune_game::EpisodeResult;

/// What scoring a set of candidates measured.
#[derive(Clone, Debug, PartialEq)]
pub struct Scores {
    /// Mean episode score per candidate.
    pub fitness: Vec<f64>,
    /// Episodes played in all.
    pub games: u64,
    /// Moves (pieces) played in all.
    pub moves: u64,
    /// The half-width of each candidate's 95 % interval, when its fitness is a rating fitted
    /// to matches; empty for a mean score.
    pub intervals: Vec<f64>,
}

impl Scores {
    /// The scores of candidates that each played `games` games, `results` candidate by
    /// candidate in game order; summed in that order, so the figures are always the same bits.
    /// A candidate's fitness is the sum of its scores over the sum of the games they stand for
    /// (see [`EpisodeResult::games`]): its mean score when each is a game played.
    pub fn of(results: &[EpisodeResult], games: u64) -> Scores {
        let fitness = results
            .chunks(games as usize)
            .map(EpisodeResult::mean_per_game)
            .collect();
        Scores {
            fitness,
            games: results.len() as u64,
            moves: results.iter().map(|r| r.moves).sum(),
            intervals: Vec::new(),
        }
    }
}

//! Fitness from matches, for any two-player game: each candidate meets its generation's peers
//! (all of them, a round robin, or a seeded draw), the hall of fame of earlier generations'
//! bests and the game's fixed anchors (its opponents: weights files, reference agents, TBP
//! bots), and its fitness is a Bradley–Terry rating fitted to all of the generation's results
//! at once (`stacktune_base::stats::ratings`), on the logistic Elo scale, with its 95 % interval.
//!
//! The matches ride on the games' own seam for opponents: the peers and the hall of fame join
//! the game as rivals ([`Episodes::with_rivals`](stacktune_game::Episodes::with_rivals)) after its anchors,
//! and every candidate plays the same games against the same opponents (game g meets opponent
//! g mod n, as a two-player game's episodes do), so the batch is an ordinary batch of any
//! backend, threads or MPI ranks, with its bytes. A rating is a zero-sum figure, so it is read
//! against a fixed point: the first anchor's rating (the curve of a run then rises only when
//! the candidates beat that anchor more), or, without anchors, the generation's mean.

use crate::RunConfig;
use crate::scores::Scores;
use anyhow::Result;
use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};
use stacktune_base::rng::{Purpose, stream};
use stacktune_base::stats::matches::Outcome;
use stacktune_base::stats::ratings::{Results, fit};
use stacktune_game::EpisodeResult;

/// A run's `[matches]` table: fitness from matches rather than mean scores.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatchSettings {
    /// Peers of its generation each candidate meets, drawn by the run's seed anew each
    /// generation (the same for every candidate); absent: all of them, a round robin.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub peers: Option<u64>,
    /// The ratings' prior: virtual drawn games each player has, spread over its opponents, so
    /// that a candidate that lost every game keeps a finite, ordered rating.
    #[serde(default = "one")]
    pub prior: f64,
}

fn one() -> f64 {
    1.0
}

/// Games generation `generation` of `config` plays with `candidates` candidates and `anchors`
/// anchors: `games` a candidate, against every opponent of its schedule when the run has
/// matches. The progress bar and `compare`'s budgets count by it, so that an optimiser with
/// few candidates and one with many are given the games they really play.
pub fn generation_games(
    config: &RunConfig,
    anchors: usize,
    generation: u64,
    candidates: u64,
) -> u64 {
    let per_candidate = match &config.matches {
        Some(m) => {
            let hall = generation.min(config.hall_of_fame) as usize;
            let schedule = Schedule::new(
                m,
                config.seed,
                generation,
                candidates as usize,
                anchors,
                hall,
            );
            schedule.opponents() as u64 * config.games
        }
        None => config.games,
    };
    candidates * per_candidate
}

/// Who the candidates of one generation meet, in the order game g meets opponent g mod n:
/// the game's anchors, then the hall of fame, then the peers.
#[derive(Clone, Debug, PartialEq)]
pub struct Schedule {
    pub candidates: usize,
    pub anchors: usize,
    pub hall: usize,
    /// Each peer rival's candidate index.
    pub peers: Vec<usize>,
}

impl Schedule {
    /// The schedule of generation `generation`: `candidates` candidates, `anchors` anchors,
    /// `hall` members of the hall of fame, and all peers or `settings.peers` of them drawn
    /// from stream (seed, schedule, generation).
    pub fn new(
        settings: &MatchSettings,
        seed: u64,
        generation: u64,
        candidates: usize,
        anchors: usize,
        hall: usize,
    ) -> Schedule {
        let mut peers: Vec<usize> = (0..candidates).collect();
        if let Some(n) = settings.peers.filter(|&n| (n as usize) < candidates) {
            peers.shuffle(&mut stream(seed, Purpose::Schedule, generation, 0));
            peers.truncate(n as usize);
            peers.sort_unstable();
        }
        Schedule {
            candidates,
            anchors,
            hall,
            peers,
        }
    }

    /// Opponents every candidate meets.
    pub fn opponents(&self) -> usize {
        self.anchors + self.hall + self.peers.len()
    }

    /// The rating player that opponent `k` is: candidates first, then anchors, then the hall
    /// of fame.
    fn player(&self, k: usize) -> usize {
        match k.checked_sub(self.anchors + self.hall) {
            Some(p) => self.peers[p],
            None => self.candidates + k,
        }
    }

    /// The candidates' ratings from `results`, candidate by candidate, `games` games each in
    /// game order; a candidate's games against itself (as a peer) count for nothing.
    pub fn rate(&self, results: &[EpisodeResult], games: u64, prior: f64) -> Result<Scores> {
        let n = self.opponents();
        let mut table = Results::new(self.candidates + self.anchors + self.hall);
        for (i, r) in results.iter().enumerate() {
            let (c, g) = (i / games as usize, i % games as usize);
            let opponent = self.player(g % n);
            if opponent == c {
                continue;
            }
            let outcome = match r.score {
                s if s > 0.5 => Outcome::Win,
                s if s < 0.5 => Outcome::Loss,
                _ => Outcome::Draw,
            };
            table.add(c, opponent, outcome);
        }
        let ratings = fit(&table, prior).map_err(|e| anyhow::anyhow!("[matches] {e}"))?;
        let zero = match self.anchors {
            0 => ratings.elo[..self.candidates].iter().sum::<f64>() / self.candidates as f64,
            _ => ratings.elo[self.candidates],
        };
        Ok(Scores {
            fitness: ratings.elo[..self.candidates]
                .iter()
                .map(|e| e - zero)
                .collect(),
            games: results.len() as u64,
            moves: results.iter().map(|r| r.moves).sum(),
            intervals: ratings.ci95[..self.candidates].to_vec(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(score: f64) -> EpisodeResult {
        EpisodeResult {
            score,
            ..EpisodeResult::default()
        }
    }

    #[test]
    fn a_round_robin_rates_its_winner_first_and_against_the_anchor() {
        // Three candidates, one anchor: opponent 0 is the anchor, 1..=3 the peers. Candidate
        // 2 beats everyone, candidate 0 loses to everyone, candidate 1 beats 0 and the anchor.
        let schedule = Schedule::new(
            &MatchSettings {
                peers: None,
                prior: 1.0,
            },
            1,
            0,
            3,
            1,
            0,
        );
        assert_eq!(schedule.opponents(), 4);
        let scores = [
            [0.0, 0.5, 0.0, 0.0], // candidate 0: anchor, itself, 1, 2
            [1.0, 1.0, 0.5, 0.0], // candidate 1
            [1.0, 1.0, 1.0, 0.5], // candidate 2
        ];
        let results: Vec<EpisodeResult> = scores.iter().flatten().map(|&s| result(s)).collect();
        let rated = schedule.rate(&results, 4, 1.0).unwrap();
        let f = &rated.fitness;
        assert!(f[2] > f[1] && f[1] > f[0], "{f:?}");
        // Read against the anchor: the two who beat it are above it, the one who lost below.
        assert!(f[1] > 0.0 && f[0] < 0.0, "{f:?}");
        assert!(rated.intervals.iter().all(|c| c.is_finite() && *c > 0.0));
        assert_eq!(rated.games, 12);
    }

    #[test]
    fn a_seeded_schedule_draws_the_same_peers_for_every_candidate() {
        let settings = MatchSettings {
            peers: Some(3),
            prior: 1.0,
        };
        let a = Schedule::new(&settings, 7, 4, 10, 1, 2);
        assert_eq!(a, Schedule::new(&settings, 7, 4, 10, 1, 2));
        assert_eq!(a.peers.len(), 3);
        assert_ne!(a.peers, Schedule::new(&settings, 7, 5, 10, 1, 2).peers);
        assert_eq!(a.opponents(), 6);
        // More peers asked than there are: all of them.
        let all = Schedule::new(
            &MatchSettings {
                peers: Some(20),
                prior: 1.0,
            },
            7,
            4,
            10,
            0,
            0,
        );
        assert_eq!(all.peers, (0..10).collect::<Vec<_>>());
    }
}

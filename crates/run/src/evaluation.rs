//! What the executor calls to score a generation: the run's candidates played as batches of
//! the game's data and the run's streams on a backend, and the held-out games that validate
//! the best of them.

use super::config::RunConfig;
use super::executor::Evaluation;
use super::match_fitness::Schedule;
use crate::backend::{Backend, Batch, GameData, Streams};
use crate::report::HistoryRow;
use crate::scores::Scores;
use anyhow::{Context, Result};
use stacktune_base::progress::Progress;
use stacktune_base::rng::Purpose;
use stacktune_base::stats::Summary;
use stacktune_game::Playable;
use std::sync::atomic::AtomicBool;

/// Scores generations for the executor: candidates expanded from the tuned features to the
/// game's, handed to the backend as batches of the game's data and the run's streams.
pub(super) struct GameEvaluation<'a, G> {
    pub(super) game: &'a G,
    pub(super) data: &'a GameData,
    pub(super) config: &'a RunConfig,
    /// The tuned features' indices in the game's feature list.
    pub(super) indices: &'a [usize],
    pub(super) stop: &'a AtomicBool,
    pub(super) backend: &'a dyn Backend,
    /// How the user resumes the run, for the message when validation is stopped.
    pub(super) resume_hint: &'a str,
}

impl<G: Playable> Evaluation for GameEvaluation<'_, G> {
    fn score(
        &mut self,
        generation: u64,
        candidates: &[Vec<f64>],
        history: &[HistoryRow],
        progress: &Progress,
    ) -> Result<Option<Scores>> {
        let (config, all) = (self.config, self.game.feature_names().len());
        let expand = |w: &[f64]| expand_to(self.indices, all, w);
        // Two-player games: the last generations' champions join the opponents.
        let champions = &history[history.len().saturating_sub(config.hall_of_fame as usize)..];
        let mut rivals: Vec<Vec<f64>> = champions.iter().map(|r| expand(&r.best_weights)).collect();
        let mut games = config.games;
        let schedule = config.matches.as_ref().map(|m| {
            let anchors = self.game.opponents().len();
            Schedule::new(
                m,
                config.seed,
                generation,
                candidates.len(),
                anchors,
                rivals.len(),
            )
        });
        if let Some(s) = &schedule {
            rivals.extend(s.peers.iter().map(|&p| expand(&candidates[p])));
            games *= s.opponents() as u64;
        }
        let batch = Batch {
            game: GameData {
                rivals,
                ..self.data.clone()
            },
            players: candidates.iter().map(|w| expand(w)).collect(),
            games,
            streams: Streams {
                seed: config.seed,
                purpose: Purpose::TrainingGames,
                generation,
            },
            limits: config.limits(),
            threads: config.threads,
        };
        let Some(results) = self.backend.play(&batch, self.stop, progress)? else {
            return Ok(None);
        };
        Ok(Some(match (&schedule, &config.matches) {
            (Some(s), Some(m)) => s.rate(&results, games, m.prior)?,
            _ => Scores::of(&results, games),
        }))
    }

    fn validate(&mut self, weights: &[f64]) -> Result<f64> {
        let full = expand_to(self.indices, self.game.feature_names().len(), weights);
        let games = self.config.validation_games;
        let summary = held_out(
            self.backend,
            self.data,
            &full,
            games,
            self.config,
            self.stop,
            &Progress::hidden(),
        )?
        .with_context(|| {
            format!(
                "stopped during validation; resume with: {}",
                self.resume_hint
            )
        })?;
        Ok(summary.mean)
    }
}

/// A vector over the tuned features spread over all `len` of the game's (zeros elsewhere).
pub(super) fn expand_to(indices: &[usize], len: usize, w: &[f64]) -> Vec<f64> {
    let mut full = vec![0.0; len];
    for (&i, &x) in indices.iter().zip(w) {
        full[i] = x;
    }
    full
}

/// Plays `games` held-out games with `weights` (over all the game's features): the same ones
/// `play --seed <validation_seed>` plays; `None` when `stop` was raised before they were all
/// played.
pub(super) fn held_out(
    backend: &dyn Backend,
    data: &GameData,
    weights: &[f64],
    games: u64,
    config: &RunConfig,
    stop: &AtomicBool,
    progress: &Progress,
) -> Result<Option<Summary>> {
    let batch = held_out_batch(data, weights, games, config);
    let results = backend.play(&batch, stop, progress)?;
    Ok(results.map(|r| stacktune_game::EpisodeResult::summary(&r)))
}

/// The batch of `games` held-out games of a run of `config` on the game `data` describes,
/// played by `weights` (over all the game's features): the games its validation and final
/// scores play, and `play --seed <validation_seed>` too, for a host that plays them itself.
pub fn held_out_batch(data: &GameData, weights: &[f64], games: u64, config: &RunConfig) -> Batch {
    Batch {
        game: data.numbered_from(config.validation_seed),
        players: vec![weights.to_vec()],
        games,
        streams: Streams::held_out(config.validation_seed),
        limits: config.validation_limits(),
        threads: config.threads,
    }
}

//! A game played outside the library (a Python class, `stacktune.custom.evolve`) tuned by the
//! run loop as it stands: the host plays the games ([`HostBackend`]) and this module gives
//! the run the game's name and features ([`HostedGame`]), so the optimisers, the common
//! games, validation, checkpoint, history, plots, best.toml and report.html are the ones every
//! run has. The game's rules live with the host: the library never makes a move of it.

use super::config::HostedSpec;
use crate::backend::{Backend, Batch, Streams};
use anyhow::{Result, bail};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use serde_json::Value;
use stacktune_base::progress::Progress;
use stacktune_base::rng::Purpose;
use stacktune_game::Episodes;
use stacktune_game::Render;
use stacktune_game::SearchHooks;
use stacktune_game::replay::Replayable;
use stacktune_game::{EpisodeResult, FeatureMask, FeatureValues, Game, Outcome};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// The seed the host deals game `index` of `streams` from: a held-out game (`play`'s streams)
/// is numbered from its seed, `seed + index`, so a user replays held-out game i with seed
/// `validation_seed + i`; a training game's seed is drawn from the run's stream of its
/// generation and index, so every candidate of a generation plays the same games.
pub fn host_seed(streams: &Streams, index: u64) -> u64 {
    match streams.purpose {
        Purpose::Games => streams.seed.wrapping_add(index),
        _ => streams.game(index).next_u64(),
    }
}

/// What the host played of a batch: each candidate's row of game scores and of moves.
pub struct HostScores {
    pub scores: Vec<Vec<f64>>,
    pub moves: Vec<Vec<u64>>,
}

/// Plays a batch's games outside the library: every (candidate, game) pair's score and moves,
/// candidate by candidate, or `None` when the host was stopped (Ctrl-C).
pub trait HostPlayer: Send + Sync {
    fn play(
        &self,
        candidates: &[Vec<f64>],
        seeds: &[u64],
        max_moves: u64,
    ) -> Result<Option<HostScores>>;

    /// Game `seed` played by `weights`, at most `max_moves` moves, as the game renders it (a
    /// frame a position), for the report page; empty when it does not render.
    fn frames(&self, weights: &[f64], seed: u64, max_moves: u64) -> Vec<String>;
}

/// A backend whose games the host plays: the batch's seeds (see [`host_seed`]) and its move
/// cap go out, the scores come back in the batch's order.
pub struct HostBackend<'a> {
    pub player: &'a dyn HostPlayer,
}

impl Backend for HostBackend<'_> {
    fn play(
        &self,
        batch: &Batch,
        _stop: &AtomicBool,
        progress: &Progress,
    ) -> Result<Option<Vec<EpisodeResult>>> {
        let seeds: Vec<u64> = (0..batch.games)
            .map(|j| host_seed(&batch.streams, j))
            .collect();
        // A hosted game's run refuses an uncapped game (RunConfig::validate): never 0 here.
        let cap = batch.limits.max_moves.unwrap_or(u64::MAX);
        let Some(HostScores { scores, moves }) = self.player.play(&batch.players, &seeds, cap)?
        else {
            return Ok(None);
        };
        if scores.len() != batch.players.len()
            || scores.iter().any(|s| s.len() != seeds.len())
            || moves.len() != scores.len()
            || moves.iter().any(|m| m.len() != seeds.len())
        {
            bail!(
                "the host gave scores for another batch: {} candidates × {} games were asked",
                batch.players.len(),
                seeds.len()
            );
        }
        let results: Vec<EpisodeResult> = scores
            .iter()
            .flatten()
            .zip(moves.iter().flatten())
            .map(|(&score, &moves)| EpisodeResult {
                score,
                moves,
                ..EpisodeResult::default()
            })
            .collect();
        if let Some(bad) = results.iter().find(|r| !r.score.is_finite()) {
            bail!(
                "the host scored a game {}: scores must be finite",
                bad.score
            );
        }
        for r in &results {
            progress.game_ended(r.moves);
        }
        Ok(Some(results))
    }
}

/// The run's view of a hosted game: its name and features, and no positions of its own (the
/// host plays it, and renders the report page's replay as text frames).
#[derive(Clone)]
pub struct HostedGame {
    pub spec: HostedSpec,
    name: &'static str,
    features: &'static [&'static str],
    /// Plays the games, and renders the page's text replay.
    player: Arc<dyn HostPlayer>,
}

impl HostedGame {
    /// The game `spec` with these features. The names are leaked because the run reads a
    /// game's names as `'static` (the compiled games' are constants): a few bytes a run.
    pub fn new(
        spec: HostedSpec,
        features: &[String],
        player: Arc<dyn HostPlayer>,
    ) -> Result<HostedGame> {
        spec.validate()?;
        if features.is_empty() {
            bail!("hosted game {}: it names no features", spec.name);
        }
        let mut sorted = features.to_vec();
        sorted.sort();
        if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
            bail!("hosted game {}: feature {} is named twice", spec.name, w[0]);
        }
        let leak = |s: &str| -> &'static str { Box::leak(s.to_string().into_boxed_str()) };
        let features: Vec<&'static str> = features.iter().map(|f| leak(f)).collect();
        Ok(HostedGame {
            name: leak(&spec.name),
            features: Box::leak(features.into_boxed_slice()),
            spec,
            player,
        })
    }

    /// The host that plays the game.
    pub fn player(&self) -> &dyn HostPlayer {
        &*self.player
    }
}

/// The host is left out: it is Python's.
impl std::fmt::Debug for HostedGame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HostedGame")
            .field("spec", &self.spec)
            .field("features", &self.features)
            .finish_non_exhaustive()
    }
}

impl Game for HostedGame {
    type Position = ();

    type Move = u8;

    fn name(&self) -> &'static str {
        self.name
    }

    fn rules(&self) -> String {
        self.spec.class.clone()
    }

    fn feature_names(&self) -> &'static [&'static str] {
        self.features
    }

    fn start(&self, _rng: &mut ChaCha8Rng) {}

    /// No moves: the host makes them.
    fn for_each_move(
        &self,
        _position: &(),
        _mask: FeatureMask,
        _visit: &mut impl FnMut(u8, &(), &Outcome, &FeatureValues),
    ) {
    }

    fn shows_next(&self, _position: &()) -> bool {
        false
    }

    fn apply(&self, _position: &mut (), _mv: u8, _rng: &mut ChaCha8Rng) -> Outcome {
        Outcome::default()
    }
}

impl SearchHooks for HostedGame {}

impl Episodes for HostedGame {}

impl Render for HostedGame {
    fn render(&self, _position: &()) -> String {
        String::new()
    }
}

impl Replayable for HostedGame {
    fn replay_setup(&self) -> Value {
        Value::Null
    }

    fn board_rows(&self, _position: &()) -> Vec<String> {
        Vec::new()
    }

    fn shown_pieces(&self, _position: &()) -> Value {
        Value::Null
    }

    fn replay_step(&self, _before: &(), _chosen: Option<u8>, _after: &()) -> Option<Vec<Value>> {
        None
    }

    fn records_games(&self) -> bool {
        false
    }

    fn text_frames(&self, weights: &[f64], seed: u64, cap: u64) -> Vec<String> {
        self.player.frames(weights, seed, cap)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn held_out_games_are_numbered_from_their_seed_training_games_drawn() {
        let held = Streams::held_out(1_000_001);
        assert_eq!(host_seed(&held, 0), 1_000_001);
        assert_eq!(host_seed(&held, 3), 1_000_004);
        let training = Streams {
            seed: 7,
            purpose: Purpose::TrainingGames,
            generation: 2,
        };
        assert_eq!(host_seed(&training, 1), training.game(1).next_u64());
        assert_ne!(host_seed(&training, 1), host_seed(&training, 2));
    }

    struct Nobody;

    impl HostPlayer for Nobody {
        fn play(&self, _: &[Vec<f64>], _: &[u64], _: u64) -> Result<Option<HostScores>> {
            Ok(None)
        }

        fn frames(&self, _: &[f64], _: u64, _: u64) -> Vec<String> {
            Vec::new()
        }
    }

    #[test]
    fn a_game_names_its_features_once() {
        let spec = HostedSpec {
            name: "2048".into(),
            class: "game2048:Game2048".into(),
        };
        let e =
            HostedGame::new(spec.clone(), &["a".into(), "a".into()], Arc::new(Nobody)).unwrap_err();
        assert_eq!(e.to_string(), "hosted game 2048: feature a is named twice");
        let game = HostedGame::new(spec, &["a".into(), "b".into()], Arc::new(Nobody)).unwrap();
        assert_eq!(game.feature_names(), ["a", "b"]);
    }
}

//! An optimiser outside stacktune (pycma, Optuna, Nevergrad, driven from Python) as one more
//! kind: each generation's candidates are handed in from outside ([`External::propose`]), and
//! the run does with them all it does with a built-in optimiser's (common games, history,
//! validation, checkpoint, report). Its state between generations is only its settings: what
//! the outside optimiser learnt is its own to keep.

use super::{Optimizer, check_vectors};
use anyhow::{Result, bail};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use stacktune_base::limits::POPULATION;

/// `[external]` in a run config: which optimiser it is, for run.toml and people, and how many
/// candidates it hands in a generation (which sizes the run's memory and game budget).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ExternalConfig {
    /// The optimiser's name as run.toml records it (`pycma`, `optuna`, ...).
    pub name: String,
    /// Candidates per generation.
    pub population: usize,
}

impl Default for ExternalConfig {
    fn default() -> Self {
        ExternalConfig {
            name: "external".into(),
            population: 16,
        }
    }
}

impl ExternalConfig {
    pub fn validate(&self) -> Result<()> {
        if !POPULATION.contains(&self.population) {
            bail!(
                "[external] population must be within {}..={} (got {})",
                POPULATION.start(),
                POPULATION.end(),
                self.population
            );
        }
        if self.name.trim().is_empty() {
            bail!("[external] name must name the optimiser (pycma, optuna, ...)");
        }
        Ok(())
    }
}

/// The state of an outside optimiser: its settings, and the candidates handed in for the
/// generation under way (none between generations, so a checkpoint holds none).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct External {
    pub config: ExternalConfig,
    dimension: usize,
    candidates: Vec<Vec<f64>>,
}

impl External {
    pub fn new(config: ExternalConfig, dimension: usize) -> External {
        External {
            config,
            dimension,
            candidates: Vec::new(),
        }
    }

    /// Takes this generation's candidates from outside, refusing what a run cannot play: not
    /// `population` of them, a vector of another length, a weight that is not finite.
    pub fn propose(&mut self, candidates: Vec<Vec<f64>>) -> Result<()> {
        if candidates.len() != self.config.population {
            bail!(
                "{} candidates given; the run's [external] population is {} a generation",
                candidates.len(),
                self.config.population
            );
        }
        check_vectors(&candidates, self.dimension, 0.0)
            .map_err(|e| anyhow::anyhow!("a candidate cannot be played: {e}"))?;
        self.candidates = candidates;
        Ok(())
    }

    /// Checks a state read back from a checkpoint against the run's settings.
    pub fn check(&self, config: &ExternalConfig, dimension: usize) -> Result<()> {
        if self.config != *config || self.dimension != dimension {
            bail!("its external optimiser's settings are not run.toml's");
        }
        check_vectors(&self.candidates, dimension, 0.0)
    }
}

impl Optimizer for External {
    fn ask(&self) -> &[Vec<f64>] {
        &self.candidates
    }

    /// What the outside optimiser learns it learns outside; the generation's candidates are
    /// spent.
    fn tell(&mut self, _fitness: &[f64], _rng: &mut ChaCha8Rng) {
        self.candidates.clear();
    }

    /// No step size the run knows of: 0.
    fn sigma(&self) -> f64 {
        0.0
    }
}

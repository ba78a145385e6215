//! The genetic algorithm: tournament selection, crossover, Gaussian mutation and elitism over
//! unit-length weight vectors.

pub use super::rank;
use super::{Optimizer, gaussian, normalise};
use anyhow::{Result, bail};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use stacktune_base::limits::POPULATION;

/// How two parents make a child.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Crossover {
    /// The parents' average weighted by their fitness: pulls toward the better parent.
    WeightedAverage,
    /// Each weight drawn uniformly between the two parents' values (BLX-0).
    Blend,
    /// Each weight copied from one parent or the other with equal chance.
    Uniform,
}

/// Settings of the genetic algorithm, all with defaults that work for the shipped games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GaConfig {
    /// Candidates per generation.
    pub population: usize,
    /// Candidates drawn per tournament; the fittest of them is a parent.
    pub tournament: usize,
    /// Crossover operators, one drawn uniformly for each child.
    pub crossover: Vec<Crossover>,
    /// Chance that each weight of a child is mutated.
    pub mutation_rate: f64,
    /// Standard deviation of a mutation (on unit-length vectors).
    pub mutation_sigma: f64,
    /// Factor applied to `mutation_sigma` after each generation (1 = no decay).
    pub sigma_decay: f64,
    /// Best candidates copied unchanged into the next generation (and re-scored there).
    pub elitism: usize,
}

impl Default for GaConfig {
    fn default() -> Self {
        GaConfig {
            population: 40,
            tournament: 3,
            crossover: vec![Crossover::WeightedAverage, Crossover::Blend],
            mutation_rate: 0.3,
            mutation_sigma: 0.2,
            sigma_decay: 0.97,
            elitism: 2,
        }
    }
}

impl GaConfig {
    /// Rejects settings that cannot run, naming the field.
    pub fn validate(&self) -> Result<()> {
        if !POPULATION.contains(&self.population) {
            bail!(
                "population must be within {}..={} (got {})",
                POPULATION.start(),
                POPULATION.end(),
                self.population
            );
        }
        if self.tournament == 0 || self.tournament > self.population {
            bail!(
                "tournament must be between 1 and the population {} (got {})",
                self.population,
                self.tournament
            );
        }
        if self.elitism >= self.population {
            bail!(
                "elitism must be below the population {} (got {})",
                self.population,
                self.elitism
            );
        }
        if self.crossover.is_empty() {
            bail!("crossover must name at least one operator");
        }
        if !(0.0..=1.0).contains(&self.mutation_rate) {
            bail!(
                "mutation_rate must be within 0..=1 (got {})",
                self.mutation_rate
            );
        }
        if !(self.mutation_sigma.is_finite() && self.mutation_sigma >= 0.0) {
            bail!(
                "mutation_sigma must be a finite number ≥ 0 (got {})",
                self.mutation_sigma
            );
        }
        if !(self.sigma_decay.is_finite() && self.sigma_decay > 0.0) {
            bail!(
                "sigma_decay must be a finite number > 0 (got {})",
                self.sigma_decay
            );
        }
        Ok(())
    }
}

/// The algorithm's whole state: what a checkpoint stores.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GeneticAlgorithm {
    config: GaConfig,
    population: Vec<Vec<f64>>,
    sigma: f64,
}

impl GeneticAlgorithm {
    /// A first generation of `dimension`-long vectors: `start` (if given) and mutants of it, or
    /// vectors uniform in [−1, 1], all normalised.
    pub fn new(
        config: GaConfig,
        dimension: usize,
        start: Option<&[f64]>,
        rng: &mut ChaCha8Rng,
    ) -> GeneticAlgorithm {
        let sigma = config.mutation_sigma;
        let mut population = Vec::with_capacity(config.population);
        for i in 0..config.population {
            let mut w: Vec<f64> = match start {
                Some(s) => {
                    let mut w = s.to_vec();
                    normalise(&mut w);
                    if i > 0 {
                        for x in &mut w {
                            *x += sigma * gaussian(rng);
                        }
                    }
                    w
                }
                None => (0..dimension)
                    .map(|_| rng.random_range(-1.0..=1.0))
                    .collect(),
            };
            normalise(&mut w);
            population.push(w);
        }
        GeneticAlgorithm {
            config,
            population,
            sigma,
        }
    }

    /// Checks a state read back from a checkpoint against the run's settings: the same
    /// configuration, `population` vectors of `dimension` finite weights, a finite sigma ≥ 0.
    /// A state that passes can be asked and told without a panic.
    pub fn check(&self, config: &GaConfig, dimension: usize) -> Result<()> {
        if self.population.len() != config.population {
            bail!(
                "its population holds {} candidates, run.toml says {}",
                self.population.len(),
                config.population
            );
        }
        if self.config != *config {
            let (ours, theirs) = (
                serde_json::to_value(&self.config)?,
                serde_json::to_value(config)?,
            );
            let differ: Vec<&str> = ours
                .as_object()
                .into_iter()
                .flatten()
                .filter(|(key, value)| theirs.get(key.as_str()) != Some(value))
                .map(|(key, _)| key.as_str())
                .collect();
            bail!("its [ga] {} differs from run.toml's", differ.join(", "));
        }
        if let Some(w) = self.population.iter().find(|w| w.len() != dimension) {
            bail!(
                "a candidate has {} weights, the run tunes {dimension} features",
                w.len()
            );
        }
        if self.population.iter().flatten().any(|x| !x.is_finite()) {
            bail!("a candidate has a weight that is not a finite number");
        }
        if !(self.sigma.is_finite() && self.sigma >= 0.0) {
            bail!(
                "its mutation sigma {} is not a finite number ≥ 0",
                self.sigma
            );
        }
        Ok(())
    }

    fn tournament(&self, order: &[usize], rng: &mut ChaCha8Rng) -> usize {
        // `order` ranks candidates best first, so the best of the drawn ranks wins.
        let mut best = usize::MAX;
        for _ in 0..self.config.tournament {
            best = best.min(rng.random_range(0..order.len()));
        }
        order[best]
    }
}

impl Optimizer for GeneticAlgorithm {
    fn ask(&self) -> &[Vec<f64>] {
        &self.population
    }

    fn sigma(&self) -> f64 {
        self.sigma
    }

    fn tell(&mut self, fitness: &[f64], rng: &mut ChaCha8Rng) {
        assert_eq!(fitness.len(), self.population.len());
        let order = rank(fitness);
        let mut next: Vec<Vec<f64>> = order[..self.config.elitism]
            .iter()
            .map(|&i| self.population[i].clone())
            .collect();
        while next.len() < self.config.population {
            let a = self.tournament(&order, rng);
            let b = self.tournament(&order, rng);
            let (pa, pb) = (&self.population[a], &self.population[b]);
            let op = self.config.crossover[rng.random_range(0..self.config.crossover.len())];
            let mut child: Vec<f64> = match op {
                Crossover::WeightedAverage => {
                    // Shift fitness so both weights are positive whatever its sign.
                    let low = fitness[a].min(fitness[b]);
                    let (fa, fb) = (fitness[a] - low + 1e-9, fitness[b] - low + 1e-9);
                    pa.iter()
                        .zip(pb)
                        .map(|(x, y)| (fa * x + fb * y) / (fa + fb))
                        .collect()
                }
                Crossover::Blend => pa
                    .iter()
                    .zip(pb)
                    .map(|(x, y)| x + (y - x) * rng.random_range(0.0..=1.0))
                    .collect(),
                Crossover::Uniform => pa
                    .iter()
                    .zip(pb)
                    .map(|(x, y)| if rng.random_bool(0.5) { *x } else { *y })
                    .collect(),
            };
            for x in &mut child {
                if rng.random_bool(self.config.mutation_rate) {
                    *x += self.sigma * gaussian(rng);
                }
            }
            normalise(&mut child);
            next.push(child);
        }
        self.population = next;
        self.sigma *= self.config.sigma_decay;
    }
}

/// Candidate indices by fitness, best first; equal fitness keeps the lower index first, so the
/// ranking never depends on anything but the values.
#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn rng() -> ChaCha8Rng {
        ChaCha8Rng::seed_from_u64(9)
    }

    #[test]
    fn population_is_normalised_and_elites_survive() {
        let config = GaConfig {
            population: 10,
            ..GaConfig::default()
        };
        let mut ga = GeneticAlgorithm::new(config, 4, None, &mut rng());
        for w in ga.ask() {
            let norm: f64 = w.iter().map(|x| x * x).sum::<f64>().sqrt();
            assert!((norm - 1.0).abs() < 1e-12);
        }
        let fitness: Vec<f64> = (0..10).map(|i| i as f64).collect();
        let best = ga.ask()[9].clone();
        let second = ga.ask()[8].clone();
        ga.tell(&fitness, &mut rng());
        assert_eq!(ga.ask()[0], best);
        assert_eq!(ga.ask()[1], second);
        assert_eq!(ga.ask().len(), 10);
        assert!((ga.sigma() - 0.2 * 0.97).abs() < 1e-15);
    }

    #[test]
    fn climbs_a_simple_objective() {
        // Fitness = cosine to a target: the GA must find the direction.
        let target = [0.6, -0.8, 0.0];
        let mut ga = GeneticAlgorithm::new(GaConfig::default(), 3, None, &mut rng());
        let mut r = rng();
        let score = |w: &Vec<f64>| w.iter().zip(&target).map(|(a, b)| a * b).sum::<f64>();
        for _ in 0..40 {
            let fitness: Vec<f64> = ga.ask().iter().map(score).collect();
            ga.tell(&fitness, &mut r);
        }
        let best = ga.ask().iter().map(score).fold(f64::MIN, f64::max);
        assert!(best > 0.99, "best cosine {best}");
    }

    #[test]
    fn rank_breaks_ties_by_index() {
        assert_eq!(rank(&[1.0, 3.0, 3.0, 2.0]), vec![1, 2, 3, 0]);
    }

    #[test]
    fn bad_settings_are_named() {
        let c = GaConfig {
            population: 0,
            ..GaConfig::default()
        };
        assert_eq!(
            c.validate().unwrap_err().to_string(),
            "population must be within 2..=10000 (got 0)"
        );
        let c = GaConfig {
            elitism: 40,
            ..GaConfig::default()
        };
        assert!(c.validate().is_err());
    }
}

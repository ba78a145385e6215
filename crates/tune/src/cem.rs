//! The noisy cross-entropy method (Szita & Lőrincz 2006, as Thiery & Scherrer tuned BCTS): a
//! Gaussian per weight, refitted each generation to the best fraction of its samples, with
//! noise added to the variances so that the search does not collapse early.

use super::{Optimizer, check_vectors, first_point, gaussian, normalise, rank};
use anyhow::{Result, bail};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// Settings of the cross-entropy method.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CemConfig {
    /// Samples per generation.
    pub population: usize,
    /// Share of the samples, the best ones, that the next Gaussian is fitted to.
    pub elite_fraction: f64,
    /// Initial standard deviation of every weight, on unit-length weight vectors.
    pub sigma0: f64,
    /// Variance added to every weight's variance after each refit (Szita & Lőrincz's Z_t).
    pub noise: f64,
    /// Generations over which the added noise falls linearly to zero; 0 keeps it constant
    /// (BCTS used constant noise, Szita & Lőrincz a decreasing one).
    pub noise_generations: u64,
}

impl Default for CemConfig {
    fn default() -> Self {
        // Szita & Lőrincz's setting rescaled to unit vectors: noise is 4 % of the initial
        // variance, falling to zero over 50 generations.
        CemConfig {
            population: 100,
            elite_fraction: 0.1,
            sigma0: 0.5,
            noise: 0.01,
            noise_generations: 50,
        }
    }
}

impl CemConfig {
    /// Rejects settings that cannot run, naming the field.
    pub fn validate(&self) -> Result<()> {
        if self.population < 2 {
            bail!(
                "cem population must be at least 2 (got {})",
                self.population
            );
        }
        if !(self.elite_fraction > 0.0 && self.elite_fraction <= 1.0) {
            bail!(
                "cem elite_fraction must be within (0, 1] (got {})",
                self.elite_fraction
            );
        }
        if self.elites() < 2 {
            bail!(
                "cem keeps {} elite of {}: the variance needs at least 2 (raise population or elite_fraction)",
                self.elites(),
                self.population
            );
        }
        if !(self.sigma0.is_finite() && self.sigma0 > 0.0) {
            bail!(
                "cem sigma0 must be a finite number > 0 (got {})",
                self.sigma0
            );
        }
        if !(self.noise.is_finite() && self.noise >= 0.0) {
            bail!("cem noise must be a finite number ≥ 0 (got {})", self.noise);
        }
        Ok(())
    }

    /// How many samples the refit keeps.
    pub fn elites(&self) -> usize {
        (self.elite_fraction * self.population as f64).round() as usize
    }

    /// The variance added after generation `g`'s refit.
    fn noise_at(&self, g: u64) -> f64 {
        if self.noise_generations == 0 {
            self.noise
        } else {
            self.noise * (1.0 - g as f64 / self.noise_generations as f64).max(0.0)
        }
    }
}

/// The whole state of the cross-entropy method: what a checkpoint stores.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CrossEntropy {
    config: CemConfig,
    /// The search keeps `mean` at unit length, as a linear player's choice ignores scale.
    unit: bool,
    mean: Vec<f64>,
    variance: Vec<f64>,
    generation: u64,
    samples: Vec<Vec<f64>>,
    asked: Vec<Vec<f64>>,
}

impl CrossEntropy {
    /// A search of `dimension` weights around `start` (or a uniform random point), with the
    /// mean kept at unit length when `unit`.
    pub fn new(
        config: CemConfig,
        dimension: usize,
        start: Option<&[f64]>,
        unit: bool,
        rng: &mut ChaCha8Rng,
    ) -> CrossEntropy {
        let mut cem = CrossEntropy {
            unit,
            mean: first_point(dimension, start, unit, rng),
            variance: vec![config.sigma0 * config.sigma0; dimension],
            generation: 0,
            samples: Vec::new(),
            asked: Vec::new(),
            config,
        };
        cem.sample(rng);
        cem
    }

    /// Checks a state read back from a checkpoint against the run's settings.
    pub fn check(&self, config: &CemConfig, dimension: usize) -> Result<()> {
        if self.config != *config {
            bail!("its [cem] settings differ from run.toml's");
        }
        if self.samples.len() != config.population || self.asked.len() != config.population {
            bail!(
                "it holds {} samples, run.toml says {}",
                self.samples.len(),
                config.population
            );
        }
        if self.variance.iter().any(|v| !(v.is_finite() && *v >= 0.0)) {
            bail!("a variance is not a finite number ≥ 0");
        }
        let vectors = [&self.mean, &self.variance].into_iter();
        check_vectors(
            vectors.chain(&self.samples).chain(&self.asked),
            dimension,
            self.sigma(),
        )
    }

    fn sample(&mut self, rng: &mut ChaCha8Rng) {
        self.samples.clear();
        self.asked.clear();
        for _ in 0..self.config.population {
            let x: Vec<f64> = self
                .mean
                .iter()
                .zip(&self.variance)
                .map(|(m, v)| m + v.sqrt() * gaussian(rng))
                .collect();
            let mut shown = x.clone();
            if self.unit {
                normalise(&mut shown);
            }
            self.samples.push(x);
            self.asked.push(shown);
        }
    }
}

impl Optimizer for CrossEntropy {
    fn ask(&self) -> &[Vec<f64>] {
        &self.asked
    }

    fn tell(&mut self, fitness: &[f64], rng: &mut ChaCha8Rng) {
        assert_eq!(fitness.len(), self.samples.len());
        let order = rank(fitness);
        let elites = &order[..self.config.elites()];
        let k = elites.len() as f64;
        let n = self.mean.len();
        let mean: Vec<f64> = (0..n)
            .map(|j| elites.iter().map(|&i| self.samples[i][j]).sum::<f64>() / k)
            .collect();
        let noise = self.config.noise_at(self.generation);
        self.variance = (0..n)
            .map(|j| {
                elites
                    .iter()
                    .map(|&i| (self.samples[i][j] - mean[j]).powi(2))
                    .sum::<f64>()
                    / k
                    + noise
            })
            .collect();
        self.mean = mean;
        if self.unit {
            // Scaling the whole search leaves a scale-free fitness unchanged: keep |m| = 1.
            let length = self.mean.iter().map(|x| x * x).sum::<f64>().sqrt();
            if length > 0.0 {
                self.mean.iter_mut().for_each(|x| *x /= length);
                self.variance.iter_mut().for_each(|v| *v /= length * length);
            }
        }
        self.generation += 1;
        self.sample(rng);
    }

    fn mean(&self) -> Option<Vec<f64>> {
        Some(self.mean.clone())
    }

    /// The root mean variance: one figure for how widely the search still looks.
    fn sigma(&self) -> f64 {
        (self.variance.iter().sum::<f64>() / self.variance.len().max(1) as f64).sqrt()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn run(
        config: CemConfig,
        f: impl Fn(&[f64]) -> f64,
        n: usize,
        generations: usize,
    ) -> CrossEntropy {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut cem = CrossEntropy::new(config, n, Some(&vec![0.0; n]), false, &mut rng);
        for _ in 0..generations {
            let fitness: Vec<f64> = cem.ask().iter().map(|x| f(x)).collect();
            cem.tell(&fitness, &mut rng);
        }
        cem
    }

    /// With decreasing noise the Gaussian closes in on the optimum of a sphere.
    #[test]
    fn decreasing_noise_converges_on_the_sphere() {
        let target = [1.0, -2.0, 0.5, 3.0];
        let f = |x: &[f64]| {
            -x.iter()
                .zip(&target)
                .map(|(a, b)| (a - b).powi(2))
                .sum::<f64>()
        };
        let config = CemConfig {
            population: 50,
            elite_fraction: 0.2,
            sigma0: 2.0,
            noise: 0.1,
            noise_generations: 20,
        };
        let cem = run(config, f, 4, 120);
        assert!(-f(&cem.mean().unwrap()) < 1e-8, "{:?}", cem.mean());
        assert!(cem.sigma() < 1e-4);
    }

    /// Constant noise keeps every variance at least at the noise: the search never collapses.
    #[test]
    fn constant_noise_keeps_the_search_open() {
        let f = |x: &[f64]| -x.iter().map(|a| a * a).sum::<f64>();
        let config = CemConfig {
            population: 40,
            noise: 0.04,
            noise_generations: 0,
            ..CemConfig::default()
        };
        let cem = run(config, f, 3, 60);
        assert!(
            cem.variance.iter().all(|&v| v >= 0.04),
            "{:?}",
            cem.variance
        );
        assert!(cem.sigma() < 0.3);
    }

    #[test]
    fn too_few_elites_are_refused() {
        let config = CemConfig {
            population: 10,
            elite_fraction: 0.1,
            ..CemConfig::default()
        };
        assert_eq!(
            config.validate().unwrap_err().to_string(),
            "cem keeps 1 elite of 10: the variance needs at least 2 (raise population or elite_fraction)"
        );
    }

    /// A unit search hands out unit vectors and keeps its mean at unit length.
    #[test]
    fn a_unit_search_stays_on_the_sphere() {
        let mut rng = ChaCha8Rng::seed_from_u64(8);
        let mut cem = CrossEntropy::new(CemConfig::default(), 5, None, true, &mut rng);
        for _ in 0..5 {
            let fitness: Vec<f64> = cem.ask().iter().map(|x| x[0]).collect();
            for x in cem.ask() {
                assert!((x.iter().map(|v| v * v).sum::<f64>() - 1.0).abs() < 1e-12);
            }
            cem.tell(&fitness, &mut rng);
            let m = cem.mean().unwrap();
            assert!((m.iter().map(|v| v * v).sum::<f64>() - 1.0).abs() < 1e-12);
        }
        // Rewarding the first weight turns the mean toward it.
        assert!(cem.mean().unwrap()[0] > 0.9);
    }
}

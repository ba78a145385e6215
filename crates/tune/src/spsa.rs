//! Simultaneous perturbation stochastic approximation (Spall 1992), as engine-testing
//! frameworks tune chess engines and the strongest Tetris and Puyo bots tune their weights:
//! each generation perturbs the incumbent θ by ±c·Δ along a few random sign vectors Δ, plays
//! each pair of candidates on the same seeded games, and steps θ along the differences of
//! their fitness. Two candidates a step, whatever the number of weights, and the noise of a
//! game's result averaged over many small steps rather than fought with a large population:
//! what a fitness made of noisy match results needs.
//!
//! The gains follow Spall's implementation guide: a perturbation c_k = c / (k + 1)^γ and a step
//! a_k = a / (A + k + 1)^α with γ = 0.101 and α = 0.602. The step's scale `a` is calibrated
//! from the mean difference of the first `calibration` pairs played (θ stays put while they
//! are), so that a step on a difference of that size moves a weight `step0` (in the units of
//! `c`): a rating in Elo and a mean of lines cleared need no hand-set gain.

use super::{Optimizer, check_vectors, first_point, normalise, step_variances};
use anyhow::{Result, bail};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// Spall's exponent of the step's decay.
const ALPHA: f64 = 0.602;
/// Spall's exponent of the perturbation's decay.
const GAMMA: f64 = 0.101;
/// Most perturbation pairs a generation: past this, a population-based optimiser fits better.
pub const MAX_PAIRS: usize = 1_000;

/// Settings of SPSA, as a run config's `[spsa]` table holds them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SpsaConfig {
    /// Perturbation pairs a generation (θ + c·Δ and θ − c·Δ each): the population is twice
    /// this. One pair a generation is the classic form; more average the gradient.
    pub pairs: usize,
    /// The perturbation of each weight at generation 0, on unit-length weight vectors.
    pub c: f64,
    /// How far the first step moves a weight when its pairs differ by the calibration's mean
    /// difference, in the same units as `c`.
    pub step0: f64,
    /// Pairs whose mean absolute difference in fitness calibrates the step (θ does not move
    /// until they have been played): enough that one lucky or tied pair does not set it.
    pub calibration: u64,
    /// Spall's stability constant A: the step decays as (A + k + 1)^−0.602, so a larger A
    /// keeps the early steps from shrinking fast (Spall: about a tenth of the generations).
    pub stability: f64,
    /// Perturb each weight in proportion to its size in the start point (`init`), as CMA-ES's
    /// `scale_to_start` does: a hand-set start has weights of very different scales.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub scale_to_start: bool,
}

impl Default for SpsaConfig {
    fn default() -> Self {
        SpsaConfig {
            pairs: 1,
            c: 0.05,
            step0: 0.05,
            calibration: 8,
            stability: 10.0,
            scale_to_start: false,
        }
    }
}

impl SpsaConfig {
    /// Rejects settings that cannot run, naming the field.
    pub fn validate(&self) -> Result<()> {
        if !(1..=MAX_PAIRS).contains(&self.pairs) {
            bail!(
                "spsa pairs must be within 1..={MAX_PAIRS} (got {})",
                self.pairs
            );
        }
        for (name, value) in [("c", self.c), ("step0", self.step0)] {
            if !(value.is_finite() && value > 0.0) {
                bail!("spsa {name} must be a finite number > 0 (got {value})");
            }
        }
        if self.calibration == 0 {
            bail!("spsa calibration must be at least 1 pair");
        }
        if !(self.stability.is_finite() && self.stability >= 0.0) {
            bail!(
                "spsa stability must be a finite number ≥ 0 (got {})",
                self.stability
            );
        }
        Ok(())
    }

    /// Candidates a generation.
    pub fn population(&self) -> usize {
        2 * self.pairs
    }

    /// The perturbation c_k of generation k.
    fn perturbation(&self, k: u64) -> f64 {
        self.c / ((k + 1) as f64).powf(GAMMA)
    }

    /// The decay (A + k + 1)^−α of generation k's step, before the calibrated scale.
    fn decay(&self, k: u64) -> f64 {
        (self.stability + (k + 1) as f64).powf(-ALPHA)
    }
}

/// The whole state of SPSA: what a checkpoint stores.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Spsa {
    config: SpsaConfig,
    /// The search keeps θ at unit length, as a linear player's choice ignores scale.
    unit: bool,
    /// The incumbent θ.
    theta: Vec<f64>,
    /// Each weight's perturbation and step relative to the others' (all 1 unless scaled to
    /// the start).
    scale: Vec<f64>,
    /// The step's scale a, once the calibration's pairs have been played.
    gain: Option<f64>,
    /// The calibration so far: the sum of its pairs' absolute differences, and their number.
    calibrated: (f64, u64),
    generation: u64,
    /// This generation's sign vectors Δ, one a pair, entries ±1.
    signs: Vec<Vec<f64>>,
    /// What [`ask`](Optimizer::ask) hands out: θ + c·Δ and θ − c·Δ of each pair in turn,
    /// normalised when `unit`.
    asked: Vec<Vec<f64>>,
}

impl Spsa {
    /// A search of `dimension` weights from `start` (or a uniform random point), θ kept at
    /// unit length when `unit`.
    pub fn new(
        config: SpsaConfig,
        dimension: usize,
        start: Option<&[f64]>,
        unit: bool,
        rng: &mut ChaCha8Rng,
    ) -> Spsa {
        let theta = first_point(dimension, start, unit, rng);
        let scale = match start {
            Some(_) if config.scale_to_start => step_variances(&theta)
                .map(|v| v.iter().map(|x| x.sqrt()).collect())
                .unwrap_or_else(|| vec![1.0; dimension]),
            _ => vec![1.0; dimension],
        };
        let mut spsa = Spsa {
            config,
            unit,
            theta,
            scale,
            gain: None,
            calibrated: (0.0, 0),
            generation: 0,
            signs: Vec::new(),
            asked: Vec::new(),
        };
        spsa.perturb(rng);
        spsa
    }

    /// Checks a state read back from a checkpoint against the run's settings.
    pub fn check(&self, config: &SpsaConfig, dimension: usize) -> Result<()> {
        if self.config != *config {
            bail!("its [spsa] settings differ from run.toml's");
        }
        if self.signs.len() != config.pairs || self.asked.len() != config.population() {
            bail!(
                "it holds {} candidates for {} pairs",
                self.asked.len(),
                config.pairs
            );
        }
        if self
            .signs
            .iter()
            .any(|s| s.len() != dimension || s.iter().any(|&x| x != 1.0 && x != -1.0))
        {
            bail!("its perturbations are not {dimension} signs ±1 each");
        }
        if self.scale.iter().any(|&s| !(s.is_finite() && s > 0.0)) {
            bail!("its weights' scales are not finite numbers > 0");
        }
        if self.gain.is_some_and(|a| !(a.is_finite() && a > 0.0)) {
            bail!("its step's scale is not a finite number > 0");
        }
        if !(self.calibrated.0.is_finite() && self.calibrated.0 >= 0.0) {
            bail!("its calibration is not a finite sum ≥ 0");
        }
        let vectors = [&self.theta, &self.scale].into_iter();
        check_vectors(vectors.chain(&self.asked), dimension, self.sigma())
    }

    /// Draws this generation's sign vectors and the candidates θ ± c_k·s·Δ.
    fn perturb(&mut self, rng: &mut ChaCha8Rng) {
        let c = self.config.perturbation(self.generation);
        let n = self.theta.len();
        self.signs.clear();
        self.asked.clear();
        for _ in 0..self.config.pairs {
            let signs: Vec<f64> = (0..n)
                .map(|_| if rng.random_bool(0.5) { 1.0 } else { -1.0 })
                .collect();
            for side in [1.0, -1.0] {
                let mut x: Vec<f64> = (0..n)
                    .map(|i| self.theta[i] + side * c * self.scale[i] * signs[i])
                    .collect();
                if self.unit {
                    normalise(&mut x);
                }
                self.asked.push(x);
            }
            self.signs.push(signs);
        }
    }
}

impl Optimizer for Spsa {
    fn ask(&self) -> &[Vec<f64>] {
        &self.asked
    }

    /// Steps θ along the gradient the pairs estimate: for weight i, the mean over pairs of
    /// (f⁺ − f⁻) / (2 c_k) · Δᵢ, times a_k and the weight's scale. No weight moves more than
    /// twice its perturbation in one step, so one lopsided result cannot throw θ away.
    fn tell(&mut self, fitness: &[f64], rng: &mut ChaCha8Rng) {
        let k = self.generation;
        let c = self.config.perturbation(k);
        let differences: Vec<f64> = fitness.chunks(2).map(|f| f[0] - f[1]).collect();
        if self.gain.is_none() {
            let (sum, count) = &mut self.calibrated;
            *sum += differences.iter().map(|d| d.abs()).sum::<f64>();
            *count += differences.len() as u64;
            let spread = *sum / *count as f64;
            if *count >= self.config.calibration && spread > 0.0 && spread.is_finite() {
                // a · decay(0) · spread / (2 c_0) = step0: the first step's size.
                let c0 = self.config.perturbation(0);
                self.gain = Some(self.config.step0 * 2.0 * c0 / (spread * self.config.decay(0)));
            }
        } else if let Some(gain) = self.gain {
            let step = gain * self.config.decay(k) / (2.0 * c * differences.len() as f64);
            for i in 0..self.theta.len() {
                let gradient: f64 = differences
                    .iter()
                    .zip(&self.signs)
                    .map(|(d, s)| d * s[i])
                    .sum();
                let limit = 2.0 * c * self.scale[i];
                self.theta[i] += (step * gradient * self.scale[i]).clamp(-limit, limit);
            }
            if self.unit {
                normalise(&mut self.theta);
            }
        }
        self.generation += 1;
        self.perturb(rng);
    }

    fn mean(&self) -> Option<Vec<f64>> {
        Some(self.theta.clone())
    }

    /// The perturbation c_k of the generation asked.
    fn sigma(&self) -> f64 {
        self.config.perturbation(self.generation)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn rng() -> ChaCha8Rng {
        ChaCha8Rng::seed_from_u64(11)
    }

    fn cosine(x: &[f64], target: &[f64]) -> f64 {
        let norm = |v: &[f64]| v.iter().map(|a| a * a).sum::<f64>().sqrt();
        x.iter().zip(target).map(|(a, b)| a * b).sum::<f64>() / (norm(x) * norm(target))
    }

    /// A pair's candidates are θ ± c·Δ; θ stays put while the calibration's pairs are
    /// played; then a pair that differs by the calibration's mean moves each weight by
    /// `step0`, as the gains' decays since generation 0 scale it, toward the better side.
    #[test]
    fn a_step_on_the_calibrations_difference_moves_each_weight_by_step0() {
        let config = SpsaConfig {
            c: 0.1,
            step0: 0.02,
            calibration: 2,
            ..SpsaConfig::default()
        };
        let start = [0.6, 0.8];
        let mut spsa = Spsa::new(config.clone(), 2, Some(&start), false, &mut rng());
        let signs = spsa.signs[0].clone();
        for i in 0..2 {
            assert!((spsa.ask()[0][i] - (start[i] + 0.1 * signs[i])).abs() < 1e-15);
            assert!((spsa.ask()[1][i] - (start[i] - 0.1 * signs[i])).abs() < 1e-15);
        }
        // Two pairs, differing by 20 and 40 (ratings in Elo, say), calibrate on 30.
        spsa.tell(&[20.0, 0.0], &mut rng());
        spsa.tell(&[0.0, 40.0], &mut rng());
        assert_eq!(spsa.theta, start);
        assert!((spsa.sigma() - 0.1 / 3f64.powf(GAMMA)).abs() < 1e-15);
        let signs = spsa.signs[0].clone();
        spsa.tell(&[30.0, 0.0], &mut rng());
        let k = 2;
        let scale =
            (config.perturbation(0) / config.perturbation(k)) * (config.decay(k) / config.decay(0));
        for i in 0..2 {
            let want = start[i] + 0.02 * scale * signs[i];
            assert!(
                (spsa.theta[i] - want).abs() < 1e-12,
                "{} vs {want}",
                spsa.theta[i]
            );
        }
        // A generation whose sides tie moves nothing.
        let theta = spsa.theta.clone();
        spsa.tell(&[5.0, 5.0], &mut rng());
        assert_eq!(spsa.theta, theta);
    }

    /// On a noisy, scale-free fitness (the cosine to a direction, plus noise as large as the
    /// differences a pair sees) one pair a generation turns θ toward the direction.
    #[test]
    fn finds_a_direction_through_noise() {
        let target = [0.5, -0.5, 0.5, -0.3, 0.4];
        let config = SpsaConfig {
            c: 0.1,
            step0: 0.05,
            ..SpsaConfig::default()
        };
        let mut r = rng();
        let mut noise = ChaCha8Rng::seed_from_u64(3);
        let mut spsa = Spsa::new(config, 5, None, true, &mut r);
        let before = cosine(&spsa.theta, &target);
        for _ in 0..2000 {
            let fitness: Vec<f64> = spsa
                .ask()
                .iter()
                .map(|x| cosine(x, &target) + 0.05 * (noise.random::<f64>() - 0.5))
                .collect();
            spsa.tell(&fitness, &mut r);
            let norm: f64 = spsa.theta.iter().map(|v| v * v).sum::<f64>().sqrt();
            assert!((norm - 1.0).abs() < 1e-12);
        }
        let after = cosine(&spsa.theta, &target);
        assert!(after > 0.99, "cosine {before} → {after}");
    }

    /// Scaled to a start point, each weight's perturbation is in proportion to its size.
    #[test]
    fn perturbations_scaled_to_the_start_follow_its_weights() {
        let start = [2.0, -0.02, 0.0, 1.0];
        let config = SpsaConfig {
            c: 0.1,
            scale_to_start: true,
            ..SpsaConfig::default()
        };
        let spsa = Spsa::new(config, 4, Some(&start), false, &mut rng());
        let rms_squared = (4.0 + 0.0004 + 1.0) / 4.0;
        let squares = [4.0, 0.0004, 0.0001 * rms_squared, 1.0];
        let mean: f64 = squares.iter().sum::<f64>() / 4.0;
        for (i, square) in squares.iter().enumerate() {
            let moved = (spsa.ask()[0][i] - start[i]).abs();
            let want = 0.1 * (square / mean).sqrt();
            assert!(
                (moved / want - 1.0).abs() < 1e-9,
                "weight {i}: {moved} vs {want}"
            );
        }
    }

    /// One lopsided result moves no weight more than twice its perturbation.
    #[test]
    fn a_lopsided_result_is_clamped() {
        let config = SpsaConfig {
            calibration: 1,
            ..SpsaConfig::default()
        };
        let mut spsa = Spsa::new(config, 3, Some(&[1.0, 0.0, 0.0]), false, &mut rng());
        spsa.tell(&[1.0, 0.0], &mut rng());
        let theta = spsa.theta.clone();
        let c = spsa.sigma();
        spsa.tell(&[1e6, 0.0], &mut rng());
        for (after, before) in spsa.theta.iter().zip(&theta) {
            assert!((after - before).abs() <= 2.0 * c + 1e-15);
        }
    }

    /// The state written to a checkpoint and read back continues to the same bits.
    #[test]
    fn a_serialised_state_continues_identically() {
        let f = |x: &[f64]| x[0] - x[1] * x[1];
        let mut spsa = Spsa::new(SpsaConfig::default(), 3, None, true, &mut rng());
        let mut copy: Spsa = serde_json::from_str(&serde_json::to_string(&spsa).unwrap()).unwrap();
        assert_eq!(copy, spsa);
        let (mut a, mut b) = (ChaCha8Rng::seed_from_u64(1), ChaCha8Rng::seed_from_u64(1));
        for _ in 0..20 {
            let fitness: Vec<f64> = spsa.ask().iter().map(|x| f(x)).collect();
            spsa.tell(&fitness, &mut a);
            copy.tell(&fitness, &mut b);
        }
        assert_eq!(copy, spsa);
        copy.check(&SpsaConfig::default(), 3).unwrap();
    }

    #[test]
    fn bad_settings_are_named() {
        let c = SpsaConfig {
            pairs: 0,
            ..SpsaConfig::default()
        };
        assert_eq!(
            c.validate().unwrap_err().to_string(),
            "spsa pairs must be within 1..=1000 (got 0)"
        );
        let c = SpsaConfig {
            c: f64::NAN,
            ..SpsaConfig::default()
        };
        assert_eq!(
            c.validate().unwrap_err().to_string(),
            "spsa c must be a finite number > 0 (got NaN)"
        );
    }
}

//! CMA-ES: Hansen's (μ/μ_w, λ) evolution strategy with cumulative step-size adaptation and
//! rank-one plus rank-μ covariance updates, and optional restarts with a doubled population
//! (IPOP-CMA-ES).
//!
//! Written here over nalgebra's symmetric eigendecomposition rather than taken from a CMA-ES
//! crate: the crates draw from their own generators and keep state that cannot be written into
//! our checkpoint, and a run must reproduce from its seed and resume to the same bytes.

use super::{Optimizer, check_vectors, first_point, gaussian, normalise, rank, step_variances};
use anyhow::{Result, bail};
use nalgebra::{DMatrix, DVector, SymmetricEigen};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use stacktune_base::math;

/// Settings of CMA-ES; everything else follows Hansen's defaults for the dimension.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CmaesConfig {
    /// Candidates per generation (λ); 0 takes Hansen's default 4 + ⌊3 ln n⌋.
    pub population: usize,
    /// Initial step size σ₀, on unit-length weight vectors.
    pub sigma0: f64,
    /// Restart from a fresh point with twice the population when the search has converged or
    /// stalled (IPOP-CMA-ES), instead of going on with a collapsed distribution.
    pub restarts: bool,
    /// Start with each weight's step in proportion to its size in the start point (`init`)
    /// instead of one step for all: features range over very different scales (contest
    /// Tetris's `move_score` reaches 1,318, `i_held` 1), so a step that moves one weight
    /// a little swamps the evaluation with another. The steps keep the mean square of σ₀
    /// (σ₀ is the step of a weight of root-mean-square size); a zero start weight gets the
    /// step of a weight at 1 % of that. Restarts begin unscaled, from a random point.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub scale_to_start: bool,
}

impl Default for CmaesConfig {
    fn default() -> Self {
        CmaesConfig {
            population: 0,
            sigma0: 0.3,
            restarts: false,
            scale_to_start: false,
        }
    }
}

/// Largest population a restart may grow to: past this, one generation costs more games than
/// any run here plays.
pub const MAX_POPULATION: usize = 4096;

impl CmaesConfig {
    /// Rejects settings that cannot run, naming the field.
    pub fn validate(&self) -> Result<()> {
        if self.population == 1 || self.population > MAX_POPULATION {
            bail!(
                "cmaes population must be 0 (automatic) or 2..={MAX_POPULATION} (got {})",
                self.population
            );
        }
        if !(self.sigma0.is_finite() && self.sigma0 > 0.0) {
            bail!(
                "cmaes sigma0 must be a finite number > 0 (got {})",
                self.sigma0
            );
        }
        Ok(())
    }

    /// λ for an `n`-dimensional search.
    pub fn lambda(&self, n: usize) -> usize {
        if self.population > 0 {
            self.population
        } else {
            4 + (3.0 * math::ln(n.max(1) as f64)).floor() as usize
        }
    }
}

/// The whole state of CMA-ES: what a checkpoint stores. The eigendecomposition of `cov` is not
/// stored; it is worked out again from `cov`, which gives the same bits.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Cmaes {
    config: CmaesConfig,
    /// The search keeps `mean` at unit length, as a linear player's choice ignores scale.
    unit: bool,
    lambda: usize,
    mean: Vec<f64>,
    sigma: f64,
    /// The covariance matrix, row-major n × n.
    cov: Vec<f64>,
    path_sigma: Vec<f64>,
    path_c: Vec<f64>,
    /// Generations since the last (re)start.
    generation: u64,
    restarts: u32,
    /// The best fitness of each recent generation, to notice a flat search.
    recent_best: Vec<f64>,
    /// This generation's samples, before any normalisation.
    samples: Vec<Vec<f64>>,
    /// What [`ask`](Optimizer::ask) hands out: the samples, normalised when `unit`.
    asked: Vec<Vec<f64>>,
}

/// The constants Hansen derives from n and λ.
struct Constants {
    mu: usize,
    weights: Vec<f64>,
    mu_eff: f64,
    c_sigma: f64,
    d_sigma: f64,
    c_c: f64,
    c_1: f64,
    c_mu: f64,
    chi_n: f64,
}

impl Constants {
    fn new(n: usize, lambda: usize) -> Constants {
        let n = n as f64;
        let mu = lambda / 2;
        let raw: Vec<f64> = (1..=mu)
            .map(|i| math::ln((lambda as f64 + 1.0) / 2.0) - math::ln(i as f64))
            .collect();
        let sum: f64 = raw.iter().sum();
        let weights: Vec<f64> = raw.iter().map(|w| w / sum).collect();
        let mu_eff = 1.0 / weights.iter().map(|w| w * w).sum::<f64>();
        let c_sigma = (mu_eff + 2.0) / (n + mu_eff + 5.0);
        let d_sigma = 1.0 + 2.0 * (((mu_eff - 1.0) / (n + 1.0)).sqrt() - 1.0).max(0.0) + c_sigma;
        let c_c = (4.0 + mu_eff / n) / (n + 4.0 + 2.0 * mu_eff / n);
        let c_1 = 2.0 / ((n + 1.3).powi(2) + mu_eff);
        let c_mu =
            (1.0 - c_1).min(2.0 * (mu_eff - 2.0 + 1.0 / mu_eff) / ((n + 2.0).powi(2) + mu_eff));
        let chi_n = n.sqrt() * (1.0 - 1.0 / (4.0 * n) + 1.0 / (21.0 * n * n));
        Constants {
            mu,
            weights,
            mu_eff,
            c_sigma,
            d_sigma,
            c_c,
            c_1,
            c_mu,
            chi_n,
        }
    }
}

impl Cmaes {
    /// A search of `dimension` weights around `start` (or a uniform random point), with the
    /// mean kept at unit length when `unit`.
    pub fn new(
        config: CmaesConfig,
        dimension: usize,
        start: Option<&[f64]>,
        unit: bool,
        rng: &mut ChaCha8Rng,
    ) -> Cmaes {
        let lambda = config.lambda(dimension);
        let mean = first_point(dimension, start, unit, rng);
        let cov = match start {
            Some(_) if config.scale_to_start => scaled_to(&mean),
            _ => identity(dimension),
        };
        let mut cmaes = Cmaes {
            unit,
            lambda,
            mean,
            sigma: config.sigma0,
            cov,
            path_sigma: vec![0.0; dimension],
            path_c: vec![0.0; dimension],
            generation: 0,
            restarts: 0,
            recent_best: Vec::new(),
            samples: Vec::new(),
            asked: Vec::new(),
            config,
        };
        cmaes.sample(&eigen(&cmaes.cov, dimension), rng);
        cmaes
    }

    /// Checks a state read back from a checkpoint against the run's settings.
    pub fn check(&self, config: &CmaesConfig, dimension: usize) -> Result<()> {
        if self.config != *config {
            bail!("its [cmaes] settings differ from run.toml's");
        }
        let n = dimension;
        if self.lambda < 2
            || self.lambda > MAX_POPULATION
            || self.samples.len() != self.lambda
            || self.asked.len() != self.lambda
        {
            bail!(
                "it holds {} samples for a population of {}",
                self.samples.len(),
                self.lambda
            );
        }
        if self.cov.len() != n * n || self.cov.iter().any(|x| !x.is_finite()) {
            bail!("its covariance matrix is not {n} × {n} finite numbers");
        }
        // A variance of 0 or less, or a step size of 0, gives NaN weights a generation later
        // (a run never reaches either: both only shrink by factors).
        if (0..n).any(|i| self.cov[i * n + i] <= 0.0) {
            bail!("its covariance matrix has a variance ≤ 0 on its diagonal");
        }
        if self.sigma == 0.0 {
            bail!("its step size is 0: it would sample nothing but its mean");
        }
        let vectors = [&self.mean, &self.path_sigma, &self.path_c].into_iter();
        check_vectors(
            vectors.chain(&self.samples).chain(&self.asked),
            n,
            self.sigma,
        )
    }

    /// Restarts so far.
    pub fn restarts(&self) -> u32 {
        self.restarts
    }

    fn dimension(&self) -> usize {
        self.mean.len()
    }

    /// Draws this generation's λ samples m + σ B D z.
    fn sample(&mut self, (b, d): &(DMatrix<f64>, DVector<f64>), rng: &mut ChaCha8Rng) {
        let n = self.dimension();
        self.samples.clear();
        self.asked.clear();
        for _ in 0..self.lambda {
            let z = DVector::from_fn(n, |_, _| gaussian(rng));
            let y = b * d.component_mul(&z);
            let x: Vec<f64> = (0..n).map(|i| self.mean[i] + self.sigma * y[i]).collect();
            let mut shown = x.clone();
            if self.unit {
                normalise(&mut shown);
            }
            self.samples.push(x);
            self.asked.push(shown);
        }
    }

    /// Whether the search has nothing more to learn at this population: its steps are lost in
    /// rounding, the covariance is degenerate, or the best fitness has been flat for
    /// 10 + ⌈30 n / λ⌉ generations.
    fn converged(&self, d: &DVector<f64>) -> bool {
        let n = self.dimension();
        let window = 10 + (30 * n).div_ceil(self.lambda);
        let flat = self.recent_best.len() >= window && {
            let recent = &self.recent_best[self.recent_best.len() - window..];
            let (lo, hi) = recent
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &f| {
                    (lo.min(f), hi.max(f))
                });
            hi - lo <= 1e-12 * hi.abs().max(1.0)
        };
        let (d_min, d_max) = d.iter().fold((f64::INFINITY, 0.0f64), |(lo, hi), &x| {
            (lo.min(x), hi.max(x))
        });
        flat || self.sigma * d_max < 1e-12 || d_max * d_max > 1e14 * d_min * d_min
    }
}

fn identity(n: usize) -> Vec<f64> {
    diagonal(&vec![1.0; n])
}

/// The row-major matrix with `values` on its diagonal.
fn diagonal(values: &[f64]) -> Vec<f64> {
    let n = values.len();
    (0..n * n)
        .map(|k| if k / n == k % n { values[k / n] } else { 0.0 })
        .collect()
}

/// The diagonal covariance whose variances are [`step_variances`] of `point`; the identity
/// for a zero point.
fn scaled_to(point: &[f64]) -> Vec<f64> {
    match step_variances(point) {
        Some(variances) => diagonal(&variances),
        None => identity(point.len()),
    }
}

/// B and D of C = B D² Bᵀ; tiny negative eigenvalues from rounding are clamped to zero.
fn eigen(cov: &[f64], n: usize) -> (DMatrix<f64>, DVector<f64>) {
    let c = DMatrix::from_row_slice(n, n, cov);
    let e = SymmetricEigen::new(c);
    let d = e.eigenvalues.map(|v| v.max(0.0).sqrt());
    (e.eigenvectors, d)
}

impl Optimizer for Cmaes {
    fn ask(&self) -> &[Vec<f64>] {
        &self.asked
    }

    fn tell(&mut self, fitness: &[f64], rng: &mut ChaCha8Rng) {
        assert_eq!(fitness.len(), self.samples.len());
        let n = self.dimension();
        let k = Constants::new(n, self.lambda);
        let order = rank(fitness);
        self.recent_best.push(fitness[order[0]]);
        let (b, d) = eigen(&self.cov, n);
        let old = DVector::from_column_slice(&self.mean);
        let steps: Vec<DVector<f64>> = order[..k.mu]
            .iter()
            .map(|&i| (DVector::from_column_slice(&self.samples[i]) - &old) / self.sigma)
            .collect();
        let y_w = steps
            .iter()
            .zip(&k.weights)
            .fold(DVector::zeros(n), |acc, (y, w)| acc + y * *w);
        let mean = &old + &y_w * self.sigma;

        // C^(−1/2) y_w = B D⁻¹ Bᵀ y_w; a zero eigenvalue contributes nothing.
        let inv_d = d.map(|x| if x > 0.0 { 1.0 / x } else { 0.0 });
        let whitened = &b * inv_d.component_mul(&(b.transpose() * &y_w));
        let p_sigma = DVector::from_column_slice(&self.path_sigma) * (1.0 - k.c_sigma)
            + whitened * (k.c_sigma * (2.0 - k.c_sigma) * k.mu_eff).sqrt();
        let generations = (self.generation + 1) as i32;
        let norm = p_sigma.norm() / (1.0 - (1.0 - k.c_sigma).powi(2 * generations)).sqrt();
        let h_sigma = norm < (1.4 + 2.0 / (n as f64 + 1.0)) * k.chi_n;
        let p_c = DVector::from_column_slice(&self.path_c) * (1.0 - k.c_c)
            + &y_w
                * if h_sigma {
                    (k.c_c * (2.0 - k.c_c) * k.mu_eff).sqrt()
                } else {
                    0.0
                };
        let delta = if h_sigma { 0.0 } else { k.c_c * (2.0 - k.c_c) };
        let mut cov = DMatrix::from_row_slice(n, n, &self.cov)
            * (1.0 - k.c_1 - k.c_mu + k.c_1 * delta)
            + &p_c * p_c.transpose() * k.c_1;
        for (y, w) in steps.iter().zip(&k.weights) {
            cov += y * y.transpose() * (k.c_mu * w);
        }
        // Rounding leaves C a little asymmetric; its eigendecomposition wants it symmetric.
        let cov = (&cov + cov.transpose()) * 0.5;
        self.sigma *= math::exp((k.c_sigma / k.d_sigma) * (p_sigma.norm() / k.chi_n - 1.0));
        self.mean = mean.iter().copied().collect();
        self.cov = cov.transpose().iter().copied().collect();
        self.path_sigma = p_sigma.iter().copied().collect();
        self.path_c = p_c.iter().copied().collect();
        self.generation += 1;
        if self.unit {
            // Scaling the whole search leaves a scale-free fitness unchanged: keep |m| = 1.
            let length = self.mean.iter().map(|x| x * x).sum::<f64>().sqrt();
            if length > 0.0 {
                self.mean.iter_mut().for_each(|x| *x /= length);
                self.sigma /= length;
            }
        }
        let eig = eigen(&self.cov, n);
        if self.config.restarts && self.converged(&eig.1) {
            self.restarts += 1;
            self.lambda = (self.lambda * 2).min(MAX_POPULATION);
            self.mean = first_point(n, None, self.unit, rng);
            self.sigma = self.config.sigma0;
            self.cov = identity(n);
            self.path_sigma = vec![0.0; n];
            self.path_c = vec![0.0; n];
            self.generation = 0;
            self.recent_best.clear();
            self.sample(&eigen(&self.cov, n), rng);
        } else {
            self.sample(&eig, rng);
        }
    }

    fn mean(&self) -> Option<Vec<f64>> {
        Some(self.mean.clone())
    }

    fn sigma(&self) -> f64 {
        self.sigma
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    /// Runs CMA-ES on `f` (maximised) for `generations`, returning the optimiser.
    fn optimise(
        f: impl Fn(&[f64]) -> f64,
        config: CmaesConfig,
        start: &[f64],
        generations: usize,
    ) -> Cmaes {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut es = Cmaes::new(config, start.len(), Some(start), false, &mut rng);
        for _ in 0..generations {
            let fitness: Vec<f64> = es.ask().iter().map(|x| f(x)).collect();
            es.tell(&fitness, &mut rng);
        }
        es
    }

    fn rosenbrock(x: &[f64]) -> f64 {
        x.windows(2)
            .map(|p| 100.0 * (p[1] - p[0] * p[0]).powi(2) + (1.0 - p[0]).powi(2))
            .sum()
    }

    /// A state edited to a step size of 0 or a variance ≤ 0 is refused, not run into NaN.
    #[test]
    fn a_zero_step_or_variance_is_refused() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let config = CmaesConfig::default();
        let es = Cmaes::new(config.clone(), 3, None, false, &mut rng);
        es.check(&config, 3).unwrap();
        let error = |edit: &dyn Fn(&mut Cmaes)| {
            let mut edited = es.clone();
            edit(&mut edited);
            edited.check(&config, 3).unwrap_err().to_string()
        };
        assert_eq!(
            error(&|e| e.sigma = 0.0),
            "its step size is 0: it would sample nothing but its mean"
        );
        for variance in [0.0, -1.0] {
            assert_eq!(
                error(&|e| e.cov[4] = variance),
                "its covariance matrix has a variance ≤ 0 on its diagonal"
            );
        }
    }

    /// Hansen's defaults on 4-d: λ = 8, μ = 4, weights ln(4.5) − ln i = 1.5041, 0.8109,
    /// 0.4055, 0.1178 over their sum 2.8383, and μ_eff = 1 / Σ w² = 2.60 (worked by hand).
    #[test]
    fn constants_follow_hansens_defaults() {
        assert_eq!(CmaesConfig::default().lambda(4), 8);
        assert_eq!(CmaesConfig::default().lambda(10), 10);
        let k = Constants::new(4, 8);
        assert_eq!(k.mu, 4);
        let w: Vec<f64> = k.weights.iter().map(|w| (w * 1e4).round() / 1e4).collect();
        assert_eq!(w, [0.5299, 0.2857, 0.1429, 0.0415]);
        assert!((k.mu_eff - 2.6).abs() < 0.01, "{}", k.mu_eff);
    }

    /// The sphere: the mean reaches the optimum to 1e-9 within 150 generations in 6-d.
    #[test]
    fn converges_on_the_sphere() {
        let target = [0.5, -1.0, 2.0, 0.0, 1.5, -0.5];
        let sphere = |x: &[f64]| {
            -x.iter()
                .zip(&target)
                .map(|(a, b)| (a - b).powi(2))
                .sum::<f64>()
        };
        let config = CmaesConfig {
            sigma0: 1.0,
            ..CmaesConfig::default()
        };
        let es = optimise(sphere, config, &[0.0; 6], 150);
        assert!(-sphere(&es.mean().unwrap()) < 1e-9, "{:?}", es.mean());
    }

    /// Rosenbrock's valley needs the covariance to learn its curved direction: from the origin
    /// the mean reaches (1, 1, 1, 1) within 1e-6 in 500 generations.
    #[test]
    fn learns_the_rosenbrock_valley() {
        let config = CmaesConfig {
            sigma0: 0.5,
            ..CmaesConfig::default()
        };
        let es = optimise(|x| -rosenbrock(x), config, &[0.0; 4], 500);
        for x in es.mean().unwrap() {
            assert!((x - 1.0).abs() < 1e-6, "{:?}", es.mean());
        }
    }

    /// On a scale-free fitness (the cosine to a direction) the unit search keeps its mean at
    /// unit length and turns it toward that direction.
    #[test]
    fn a_unit_search_finds_a_direction() {
        let target = [0.6, -0.8, 0.0];
        let cosine = |x: &[f64]| {
            let norm = x.iter().map(|v| v * v).sum::<f64>().sqrt();
            x.iter().zip(&target).map(|(a, b)| a * b).sum::<f64>() / norm
        };
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut es = Cmaes::new(CmaesConfig::default(), 3, None, true, &mut rng);
        for _ in 0..200 {
            for x in es.ask() {
                let norm: f64 = x.iter().map(|v| v * v).sum::<f64>().sqrt();
                assert!((norm - 1.0).abs() < 1e-12);
            }
            let fitness: Vec<f64> = es.ask().iter().map(|x| cosine(x)).collect();
            es.tell(&fitness, &mut rng);
        }
        let mean = es.mean().unwrap();
        assert!((mean.iter().map(|v| v * v).sum::<f64>() - 1.0).abs() < 1e-12);
        assert!(cosine(&mean) > 1.0 - 1e-9, "{mean:?}");
    }

    /// Scaled to a start point, each weight's first steps are in proportion to its size: the
    /// samples' spread per weight follows the start's weights, whose mean square is σ₀².
    #[test]
    fn steps_scaled_to_the_start_follow_its_weights() {
        let start = [2.0, -0.02, 0.0, 1.0];
        let config = CmaesConfig {
            population: 4000,
            sigma0: 0.1,
            scale_to_start: true,
            ..CmaesConfig::default()
        };
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let es = Cmaes::new(config, 4, Some(&start), false, &mut rng);
        // Variances ∝ the squares 4, 0.0004, (1 % of the rms 1.118…)² = 0.000125…, 1, with a
        // mean of 1.
        let rms_squared = (4.0 + 0.0004 + 1.0) / 4.0;
        let squares = [4.0, 0.0004, 0.0001 * rms_squared, 1.0];
        let mean: f64 = squares.iter().sum::<f64>() / 4.0;
        for (i, square) in squares.iter().enumerate() {
            let variance = square / mean;
            assert!((es.cov[i * 5] / variance - 1.0).abs() < 1e-12);
            let spread = (es
                .ask()
                .iter()
                .map(|x| (x[i] - start[i]).powi(2))
                .sum::<f64>()
                / 4000.0)
                .sqrt();
            let want = 0.1 * variance.sqrt();
            assert!(
                (spread / want - 1.0).abs() < 0.05,
                "weight {i}: {spread} vs {want}"
            );
        }
        // Without the setting every weight steps alike.
        let plain = Cmaes::new(CmaesConfig::default(), 4, Some(&start), false, &mut rng);
        assert_eq!(plain.cov, identity(4));
    }

    /// With restarts, a flat fitness (nothing to learn) doubles the population.
    #[test]
    fn restarts_double_the_population_when_the_search_is_flat() {
        let config = CmaesConfig {
            restarts: true,
            ..CmaesConfig::default()
        };
        let es = optimise(|_| 1.0, config, &[0.0; 3], 60);
        assert!(es.restarts() >= 2, "{} restarts", es.restarts());
        assert_eq!(es.ask().len(), 7 << es.restarts());
    }

    /// The state written to a checkpoint and read back continues to the same bits.
    #[test]
    fn a_serialised_state_continues_identically() {
        let f = |x: &[f64]| -rosenbrock(x);
        let mut es = optimise(f, CmaesConfig::default(), &[0.0; 4], 20);
        let mut copy: Cmaes = serde_json::from_str(&serde_json::to_string(&es).unwrap()).unwrap();
        assert_eq!(copy, es);
        let (mut a, mut b) = (ChaCha8Rng::seed_from_u64(1), ChaCha8Rng::seed_from_u64(1));
        for _ in 0..20 {
            let fitness: Vec<f64> = es.ask().iter().map(|x| f(x)).collect();
            es.tell(&fitness, &mut a);
            copy.tell(&fitness, &mut b);
        }
        assert_eq!(copy, es);
    }
}

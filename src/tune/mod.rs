//! Optimisers over named real-valued weight vectors, and the fitness that drives them.
//!
//! As in argmin, an optimiser only computes the next step from its state ([`Optimizer`]:
//! ask, then tell); the run loop in [`crate::run`] owns generations, stopping, checkpoints and
//! reports. The optimiser sees vectors and fitness values and never a game.

pub mod cem;
pub mod cmaes;
pub mod fitness;
pub mod ga;

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

/// One step-wise optimiser: the candidates of this generation, then their fitness.
pub trait Optimizer {
    /// The candidates to score this generation.
    fn ask(&self) -> &[Vec<f64>];
    /// Fitness of each candidate of [`ask`](Optimizer::ask), in order; `rng` drives whatever
    /// randomness making the next generation needs.
    fn tell(&mut self, fitness: &[f64], rng: &mut ChaCha8Rng);
    /// The mean of the search distribution, for optimisers whose incumbent is that mean (CE,
    /// CMA-ES) rather than their best sample (the GA, `None`).
    fn mean(&self) -> Option<Vec<f64>> {
        None
    }
    /// The current step size: the mutation's standard deviation, CE's mean standard deviation
    /// per weight, or CMA-ES's σ.
    fn sigma(&self) -> f64;
}

/// Candidate indices best first (highest fitness), ties by index, so a ranking never depends
/// on a sort's whims.
pub fn rank(fitness: &[f64]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..fitness.len()).collect();
    order.sort_by(|&i, &j| fitness[j].total_cmp(&fitness[i]).then(i.cmp(&j)));
    order
}

/// A standard normal draw (Box–Muller), from our own stream so runs reproduce.
pub(crate) fn gaussian(rng: &mut ChaCha8Rng) -> f64 {
    let u1: f64 = 1.0 - rng.random::<f64>();
    let u2: f64 = rng.random::<f64>();
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

/// A first search point of `dimension` weights: `start` if given, else uniform in [−1, 1];
/// normalised when `unit` (a linear player's choice does not change with scale).
pub(crate) fn first_point(
    dimension: usize,
    start: Option<&[f64]>,
    unit: bool,
    rng: &mut ChaCha8Rng,
) -> Vec<f64> {
    let mut w: Vec<f64> = match start {
        Some(s) => s.to_vec(),
        None => (0..dimension)
            .map(|_| rng.random_range(-1.0..=1.0))
            .collect(),
    };
    if unit {
        normalise(&mut w);
    }
    w
}

/// Scales `w` to unit Euclidean length: a linear player's choice does not change with scale,
/// so unit vectors keep the search on one sphere. The zero vector is left as it is.
pub fn normalise(w: &mut [f64]) {
    let norm = w.iter().map(|x| x * x).sum::<f64>().sqrt();
    if norm > 0.0 {
        for x in w {
            *x /= norm;
        }
    }
}

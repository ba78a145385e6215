//! Optimisers over named real-valued weight vectors, and the fitness that drives them.
//!
//! As in argmin, an optimiser only computes the next step from its state ([`Optimizer`]:
//! ask, then tell); the run loop in [`crate::run`] owns generations, stopping, checkpoints and
//! reports. The optimiser sees vectors and fitness values and never a game.

pub mod fitness;
pub mod ga;

use rand_chacha::ChaCha8Rng;

/// One step-wise optimiser: the candidates of this generation, then their fitness.
pub trait Optimizer {
    /// The candidates to score this generation.
    fn ask(&self) -> &[Vec<f64>];
    /// Fitness of each candidate of [`ask`](Optimizer::ask), in order; `rng` drives whatever
    /// randomness making the next generation needs.
    fn tell(&mut self, fitness: &[f64], rng: &mut ChaCha8Rng);
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

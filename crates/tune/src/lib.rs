//! Optimisers over named real-valued weight vectors, and the fitness that drives them.
//!
//! As in argmin, an optimiser only computes the next step from its state ([`Optimizer`]:
//! ask, then tell); the run loop (stacktune-run) owns generations, stopping, checkpoints and
//! reports. The optimiser sees vectors and fitness values and never a game.

pub mod cem;
pub mod cmaes;
pub mod external;
pub mod ga;
pub mod spsa;

use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use stacktune_base::math;

/// One step-wise optimiser: the candidates of this generation, then their fitness.
///
/// The run asks, plays every candidate's games, tells, and checkpoints in between; an
/// optimiser holds only its state, so it never sees a game, a thread or a file. One of one's
/// own (a compass search: each weight a step up and down, the best kept, the step halved when
/// none is better):
///
/// ```
/// use rand::SeedableRng;
/// use rand_chacha::ChaCha8Rng;
/// use stacktune_tune::{Optimizer, rank};
///
/// struct Compass { centre: Vec<f64>, best: f64, step: f64, candidates: Vec<Vec<f64>> }
///
/// impl Compass {
///     fn new(centre: Vec<f64>, step: f64) -> Compass {
///         let mut c = Compass { centre, best: f64::NEG_INFINITY, step, candidates: vec![] };
///         c.spread();
///         c
///     }
///     /// The centre first, then a step up and down along each weight.
///     fn spread(&mut self) {
///         self.candidates = vec![self.centre.clone()];
///         for i in 0..self.centre.len() {
///             for sign in [1.0, -1.0] {
///                 let mut w = self.centre.clone();
///                 w[i] += sign * self.step;
///                 self.candidates.push(w);
///             }
///         }
///     }
/// }
///
/// impl Optimizer for Compass {
///     fn ask(&self) -> &[Vec<f64>] { &self.candidates }
///     fn tell(&mut self, fitness: &[f64], _rng: &mut ChaCha8Rng) {
///         let top = rank(fitness)[0];
///         if fitness[top] > self.best && top != 0 {
///             self.centre = self.candidates[top].clone();
///         } else {
///             self.step /= 2.0;
///         }
///         self.best = self.best.max(fitness[top]);
///         self.spread();
///     }
///     fn sigma(&self) -> f64 { self.step }
/// }
///
/// // Fitness peaks at (0.25, -0.5); the run's loop, without games.
/// let fitness = |w: &[f64]| -(w[0] - 0.25).powi(2) - (w[1] + 0.5).powi(2);
/// let (mut compass, mut rng) = (Compass::new(vec![0.0, 0.0], 0.5), ChaCha8Rng::seed_from_u64(1));
/// for _ in 0..20 {
///     let scores: Vec<f64> = compass.ask().iter().map(|w| fitness(w)).collect();
///     compass.tell(&scores, &mut rng);
/// }
/// assert_eq!(compass.ask()[0], vec![0.25, -0.5]);
/// ```
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
    (-2.0 * math::ln(u1)).sqrt() * math::cos(std::f64::consts::TAU * u2)
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

/// Each weight's step variance in proportion to its size in `point` (a zero weight as one at
/// 1 % of the root mean square), scaled to a mean of 1: what lets one step size move weights of
/// very different scales alike (contest Tetris's `move_score` reaches 1,318, `i_held` 1).
/// `None` for the zero point, which has no scale.
pub(crate) fn step_variances(point: &[f64]) -> Option<Vec<f64>> {
    let n = point.len();
    let rms = (point.iter().map(|x| x * x).sum::<f64>() / n as f64).sqrt();
    if rms == 0.0 {
        return None;
    }
    let variances: Vec<f64> = point
        .iter()
        .map(|x| (x.abs().max(0.01 * rms) / rms).powi(2))
        .collect();
    let mean = variances.iter().sum::<f64>() / n as f64;
    Some(variances.iter().map(|v| v / mean).collect())
}

/// Which optimiser a run uses: `[optimizer] kind` in a run config, `evolve --optimizer`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum OptimizerKind {
    /// The genetic algorithm (`[ga]`).
    #[default]
    Ga,
    /// The noisy cross-entropy method (`[cem]`).
    Cem,
    /// CMA-ES (`[cmaes]`).
    Cmaes,
    /// Simultaneous perturbation stochastic approximation (`[spsa]`): pairs of candidates
    /// on the same games, for noisy fitness such as match results.
    Spsa,
    /// An optimiser outside stacktune (`[external]`), whose candidates a host hands in each
    /// generation (Python's `stacktune.Run`); never a value of `--optimizer`, since only a run
    /// driven from Python has such a host.
    #[cfg_attr(feature = "clap", value(skip))]
    External,
}

impl OptimizerKind {
    pub fn name(self) -> &'static str {
        match self {
            OptimizerKind::Ga => "ga",
            OptimizerKind::Cem => "cem",
            OptimizerKind::Cmaes => "cmaes",
            OptimizerKind::Spsa => "spsa",
            OptimizerKind::External => "external",
        }
    }
}

/// The optimisers' settings as a run config holds them: the kind, and each kind's own table
/// (only the chosen kind's may be given).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct OptimizerSpec {
    pub kind: OptimizerKind,
}

/// The chosen optimiser with its settings: what starts one, sizes its generations and checks
/// a state read back from a checkpoint. A run config stores it as `[optimizer] kind` and the
/// kind's own table; everything else about the optimiser asks this.
#[derive(Clone, Debug, PartialEq)]
pub enum OptimizerConfig {
    Ga(ga::GaConfig),
    Cem(cem::CemConfig),
    Cmaes(cmaes::CmaesConfig),
    Spsa(spsa::SpsaConfig),
    External(external::ExternalConfig),
}

impl OptimizerConfig {
    pub fn kind(&self) -> OptimizerKind {
        match self {
            OptimizerConfig::Ga(_) => OptimizerKind::Ga,
            OptimizerConfig::Cem(_) => OptimizerKind::Cem,
            OptimizerConfig::Cmaes(_) => OptimizerKind::Cmaes,
            OptimizerConfig::Spsa(_) => OptimizerKind::Spsa,
            OptimizerConfig::External(_) => OptimizerKind::External,
        }
    }

    /// Rejects settings that cannot run, naming the setting.
    pub fn validate(&self) -> anyhow::Result<()> {
        match self {
            OptimizerConfig::Ga(c) => c.validate(),
            OptimizerConfig::Cem(c) => c.validate(),
            OptimizerConfig::Cmaes(c) => c.validate(),
            OptimizerConfig::Spsa(c) => c.validate(),
            OptimizerConfig::External(c) => c.validate(),
        }
    }

    /// Candidates per generation for `dimension` tuned features (CMA-ES with restarts: the
    /// largest population a restart may reach), which sizes a run's memory and game budget.
    pub fn population(&self, dimension: usize) -> usize {
        match self {
            OptimizerConfig::Ga(c) => c.population,
            OptimizerConfig::Cem(c) => c.population,
            OptimizerConfig::Cmaes(c) if c.restarts => cmaes::MAX_POPULATION,
            OptimizerConfig::Cmaes(c) => c.lambda(dimension),
            OptimizerConfig::Spsa(c) => c.population(),
            OptimizerConfig::External(c) => c.population,
        }
    }

    /// A first state for `dimension` features, from `start` if given, else drawn from `rng`.
    pub fn start(
        &self,
        dimension: usize,
        start: Option<&[f64]>,
        rng: &mut ChaCha8Rng,
    ) -> OptimizerState {
        match self {
            OptimizerConfig::Ga(c) => {
                OptimizerState::Ga(ga::GeneticAlgorithm::new(c.clone(), dimension, start, rng))
            }
            OptimizerConfig::Cem(c) => OptimizerState::Cem(cem::CrossEntropy::new(
                c.clone(),
                dimension,
                start,
                true,
                rng,
            )),
            OptimizerConfig::Cmaes(c) => {
                OptimizerState::Cmaes(cmaes::Cmaes::new(c.clone(), dimension, start, true, rng))
            }
            OptimizerConfig::Spsa(c) => {
                OptimizerState::Spsa(spsa::Spsa::new(c.clone(), dimension, start, true, rng))
            }
            OptimizerConfig::External(c) => {
                OptimizerState::External(external::External::new(c.clone(), dimension))
            }
        }
    }
}

/// Any optimiser's whole state, tagged with its kind: what a checkpoint stores, so a resumed
/// run continues the same optimiser and a checkpoint of another kind is refused.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum OptimizerState {
    Ga(ga::GeneticAlgorithm),
    Cem(cem::CrossEntropy),
    Cmaes(cmaes::Cmaes),
    Spsa(spsa::Spsa),
    External(external::External),
}

impl OptimizerState {
    pub fn kind(&self) -> OptimizerKind {
        match self {
            OptimizerState::Ga(_) => OptimizerKind::Ga,
            OptimizerState::Cem(_) => OptimizerKind::Cem,
            OptimizerState::Cmaes(_) => OptimizerKind::Cmaes,
            OptimizerState::Spsa(_) => OptimizerKind::Spsa,
            OptimizerState::External(_) => OptimizerKind::External,
        }
    }

    /// Takes a generation's candidates from a host that drives the run (Python's ask/tell):
    /// an external optimiser's are its own; a built-in optimiser plays only what it asked,
    /// so that a run driven from outside is the very run `evolve` makes.
    pub fn propose(&mut self, candidates: Vec<Vec<f64>>) -> anyhow::Result<()> {
        match self {
            OptimizerState::External(o) => o.propose(candidates),
            _ if candidates == self.ask() => Ok(()),
            _ => anyhow::bail!(
                "a {} run plays the candidates it asks for (ask()); an optimiser of your own is [optimizer] kind = \"external\"",
                self.kind().name()
            ),
        }
    }

    /// Checks a state read back from a checkpoint against the run's settings for `dimension`
    /// features; a state that passes can be asked and told without a panic.
    pub fn check(&self, config: &OptimizerConfig, dimension: usize) -> anyhow::Result<()> {
        match (self, config) {
            (OptimizerState::Ga(o), OptimizerConfig::Ga(c)) => o.check(c, dimension),
            (OptimizerState::Cem(o), OptimizerConfig::Cem(c)) => o.check(c, dimension),
            (OptimizerState::Cmaes(o), OptimizerConfig::Cmaes(c)) => o.check(c, dimension),
            (OptimizerState::Spsa(o), OptimizerConfig::Spsa(c)) => o.check(c, dimension),
            (OptimizerState::External(o), OptimizerConfig::External(c)) => o.check(c, dimension),
            _ => anyhow::bail!(
                "it holds a {} optimizer, run.toml asks for {}",
                self.kind().name(),
                config.kind().name()
            ),
        }
    }

    fn inner(&self) -> &dyn Optimizer {
        match self {
            OptimizerState::Ga(o) => o,
            OptimizerState::Cem(o) => o,
            OptimizerState::Cmaes(o) => o,
            OptimizerState::Spsa(o) => o,
            OptimizerState::External(o) => o,
        }
    }
}

impl Optimizer for OptimizerState {
    fn ask(&self) -> &[Vec<f64>] {
        self.inner().ask()
    }

    fn tell(&mut self, fitness: &[f64], rng: &mut ChaCha8Rng) {
        match self {
            OptimizerState::Ga(o) => o.tell(fitness, rng),
            OptimizerState::Cem(o) => o.tell(fitness, rng),
            OptimizerState::Cmaes(o) => o.tell(fitness, rng),
            OptimizerState::Spsa(o) => o.tell(fitness, rng),
            OptimizerState::External(o) => o.tell(fitness, rng),
        }
    }

    fn mean(&self) -> Option<Vec<f64>> {
        self.inner().mean()
    }

    fn sigma(&self) -> f64 {
        self.inner().sigma()
    }
}

/// Checks that a state read back from a checkpoint can be asked and told: every vector of
/// `dimension` finite weights, and a finite step size.
pub(crate) fn check_vectors<'a>(
    vectors: impl IntoIterator<Item = &'a Vec<f64>>,
    dimension: usize,
    sigma: f64,
) -> anyhow::Result<()> {
    for w in vectors {
        if w.len() != dimension {
            anyhow::bail!(
                "a vector has {} weights, the run tunes {dimension} features",
                w.len()
            );
        }
        if w.iter().any(|x| !x.is_finite()) {
            anyhow::bail!("a vector has a weight that is not a finite number");
        }
    }
    if !(sigma.is_finite() && sigma >= 0.0) {
        anyhow::bail!("its step size {sigma} is not a finite number ≥ 0");
    }
    Ok(())
}

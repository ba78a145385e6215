//! The generation loop of a run, apart from what is tuned and what is reported: it asks the
//! optimiser, has the candidates scored, records the generation, tells the optimiser, seals
//! the checkpoint and stops on Ctrl-C, as argmin's executor does. What a generation leaves
//! for people (history, plots, timings, progress) is the observers' job, and what the scores
//! mean is the evaluation's: the executor names no game and no optimiser.

use crate::checkpoint::Checkpoint;
use crate::report::HistoryRow;
use crate::scores::Scores;
use anyhow::{Result, bail};
use stacktune_base::fsutil::write_atomic;
use stacktune_base::progress::Progress;
use stacktune_base::rng::{Purpose, stream};
use stacktune_base::stats::Summary;
use stacktune_tune::{Optimizer, normalise, rank};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use web_time::Instant;

/// What scores a generation: the games, the search and the streams, behind one seam.
pub trait Evaluation {
    /// Scores generation `generation`'s candidates (the optimiser's vectors), telling
    /// `progress` of each game; `None` when the run was stopped before every game was played.
    fn score(
        &mut self,
        generation: u64,
        candidates: &[Vec<f64>],
        history: &[HistoryRow],
        progress: &Progress,
    ) -> Result<Option<Scores>>;

    /// The mean score of `weights` on the held-out games validated during the run.
    fn validate(&mut self, weights: &[f64]) -> Result<f64>;
}

/// One generation, done and recorded, as the observers see it.
pub struct GenerationDone<'a> {
    pub row: &'a HistoryRow,
    /// Every generation so far, this one last.
    pub history: &'a [HistoryRow],
    /// Generations the run asks for.
    pub generations: u64,
    pub seconds: f64,
    pub games: u64,
    pub moves: u64,
}

/// Something a finished generation is shown to: the history file, the plots, the timings,
/// the progress display.
pub trait Observer {
    fn generation(&mut self, done: &GenerationDone) -> Result<()>;
}

/// A host that drives a run from outside (Python's `stacktune.Run`: ask, then evaluate):
/// it sees what the run's optimiser asks each generation and hands in the candidates to
/// play, then hears their fitness. The loop stays this one loop: a driven run writes the
/// folder an undriven one writes.
pub trait Driver: Send {
    /// The run is set up in `dir`: its vectors weigh `features` in this order, over
    /// `generations` generations, the first to play `next`.
    fn begin(&mut self, features: &[String], generations: u64, next: u64, dir: &std::path::Path);
    /// Generation `generation`'s candidates, given what the optimiser asks (an external
    /// optimiser asks nothing); `None` stops the run, checkpointed, for a later resume.
    fn candidates(&mut self, generation: u64, asked: &[Vec<f64>]) -> Result<Option<Vec<Vec<f64>>>>;
    /// The fitness of the candidates just played, in their order.
    fn scored(&mut self, fitness: &[f64]);
}

/// The loop's settings and state.
pub struct Executor<'a> {
    pub checkpoint: Checkpoint,
    /// Where the checkpoint is sealed after every generation; `None` for a run held in
    /// memory, whose host keeps [`Executor::checkpoint`] (a browser has no files).
    pub checkpoint_path: Option<PathBuf>,
    pub generations: u64,
    /// The run's seed: the optimiser's breeding draws come from its streams.
    pub seed: u64,
    /// Validate the incumbent every this many generations, and after the last.
    pub validate_every: u64,
    /// Raised by Ctrl-C: the loop stops once the current generation is sealed.
    pub stop: &'a AtomicBool,
    /// How the user resumes this run, for the message when it stops.
    pub resume_hint: String,
    /// The host that hands in each generation's candidates, when one drives the run.
    pub driver: Option<&'a mut dyn Driver>,
}

impl Executor<'_> {
    /// Runs the generations the checkpoint has not done. `games_progress(g, total)` gives
    /// the progress display of generation g's games.
    pub fn run(
        &mut self,
        evaluation: &mut impl Evaluation,
        observers: &mut [&mut dyn Observer],
        games_progress: impl Fn(u64, u64) -> Progress,
    ) -> Result<()> {
        while self.checkpoint.next_generation < self.generations {
            let g = self.checkpoint.next_generation;
            let started = Instant::now();
            if let Some(driver) = self.driver.as_deref_mut() {
                let asked = self.checkpoint.optimizer.ask();
                let Some(candidates) = driver.candidates(g, asked)? else {
                    bail!(
                        "stopped before generation {g}; resume with: {}",
                        self.resume_hint
                    );
                };
                self.checkpoint.optimizer.propose(candidates)?;
            }
            let candidates = self.checkpoint.optimizer.ask();
            let progress = games_progress(g, candidates.len() as u64);
            let scores = evaluation.score(g, candidates, &self.checkpoint.history, &progress)?;
            progress.finish();
            let Some(scores) = scores else {
                bail!(
                    "stopped during generation {g}; resume with: {}",
                    self.resume_hint
                );
            };
            let seconds = started.elapsed().as_secs_f64();
            let validate = (g + 1).is_multiple_of(self.validate_every) || g + 1 == self.generations;
            let row = self.record(g, &scores, validate, evaluation)?;
            if let Some(driver) = self.driver.as_deref_mut() {
                driver.scored(&scores.fitness);
            }
            let mut rng = stream(self.seed, Purpose::Breeding, g, 0);
            self.checkpoint.optimizer.tell(&scores.fitness, &mut rng);
            self.checkpoint.history.push(row);
            self.checkpoint.next_generation = g + 1;
            // The observers write the history before the checkpoint is sealed: a run killed
            // between the two finds history.csv one row ahead, which resuming rewrites.
            let done = GenerationDone {
                row: self.checkpoint.history.last().expect("just pushed"),
                history: &self.checkpoint.history,
                generations: self.generations,
                seconds,
                games: scores.games,
                moves: scores.moves,
            };
            for observer in observers.iter_mut() {
                observer.generation(&done)?;
            }
            if let Some(path) = &self.checkpoint_path {
                write_atomic(path, self.checkpoint.seal()?.as_bytes())?;
            }
            if self.stop.load(Ordering::SeqCst) {
                bail!(
                    "stopped after generation {g}; resume with: {}",
                    self.resume_hint
                );
            }
        }
        Ok(())
    }

    /// Generation `g`'s history row: its fitness figures and its incumbent (the best candidate,
    /// or the search distribution's mean for optimisers that have one), validated if due.
    fn record(
        &mut self,
        g: u64,
        scores: &Scores,
        validate: bool,
        evaluation: &mut impl Evaluation,
    ) -> Result<HistoryRow> {
        let optimizer = &self.checkpoint.optimizer;
        let summary = Summary::of(&scores.fitness);
        let best = rank(&scores.fitness)[0];
        let best_ci = scores.intervals.get(best).copied();
        let (best_weights, sigma) = match optimizer.mean() {
            Some(mut mean) => {
                // Unit length, as the candidates are.
                normalise(&mut mean);
                (mean, Some(optimizer.sigma()))
            }
            None => (optimizer.ask()[best].clone(), None),
        };
        let validation = match validate {
            true => Some(evaluation.validate(&best_weights)?),
            false => None,
        };
        self.checkpoint.evaluations += scores.games;
        Ok(HistoryRow {
            generation: g,
            evaluations: self.checkpoint.evaluations,
            best: summary.max,
            mean: summary.mean,
            median: summary.median,
            std: summary.std,
            validation,
            best_weights,
            sigma,
            best_ci,
        })
    }
}

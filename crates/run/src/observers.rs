//! What each finished generation leaves for people: `history.csv`, the plots, `timings.csv`
//! and the progress display, each an [`Observer`] of the run's executor.

use super::executor::{GenerationDone, Observer};
use crate::report::{References, Timing, append_timing, plot_fitness, plot_weights, write_history};
use anyhow::Result;
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use stacktune_base::progress::{Mode, Progress};
use std::path::PathBuf;

/// `history.csv`, rewritten whole (atomically) after every generation.
pub struct HistoryFile {
    pub path: PathBuf,
    /// The tuned features: the weight columns.
    pub features: Vec<String>,
}

impl Observer for HistoryFile {
    fn generation(&mut self, done: &GenerationDone) -> Result<()> {
        write_history(&self.path, &self.features, done.history)
    }
}

/// `fitness.png`/`.svg` and `weights.png`/`.svg`, redrawn after every generation.
pub struct Plots {
    pub dir: PathBuf,
    pub title: String,
    /// What a game's score counts ("lines", "score"), for the axis.
    pub measure: &'static str,
    pub features: Vec<String>,
}

impl Plots {
    /// Draws the fitness plot, with the held-out `references` once they are known.
    pub fn fitness(
        &self,
        history: &[crate::report::HistoryRow],
        references: References,
    ) -> Result<()> {
        plot_fitness(&self.dir, &self.title, self.measure, history, references)
    }
}

impl Observer for Plots {
    fn generation(&mut self, done: &GenerationDone) -> Result<()> {
        self.fitness(done.history, References::default())?;
        plot_weights(&self.dir, &self.title, &self.features, done.history)
    }
}

/// `timings.csv`: one row of speed per generation.
pub struct Timings {
    pub path: PathBuf,
}

impl Observer for Timings {
    fn generation(&mut self, done: &GenerationDone) -> Result<()> {
        append_timing(
            &self.path,
            &Timing::new(done.row.generation, done.seconds, done.games, done.moves),
        )
    }
}

/// The progress display: on a terminal a bar of generations done, with a bar of the current
/// generation's games under it; otherwise one plain line per generation; nothing when quiet.
/// Generations are numbered from 0 everywhere, as in history.csv.
pub struct Display {
    mode: Mode,
    bars: MultiProgress,
    generations: Option<ProgressBar>,
}

impl Display {
    /// A display of a run of `generations`, `done` of them already done.
    pub fn new(mode: Mode, generations: u64, done: u64) -> Display {
        let bars = MultiProgress::with_draw_target(ProgressDrawTarget::stderr());
        let bar = (mode == Mode::Bar).then(|| {
            let bar = bars.add(ProgressBar::new(generations));
            bar.set_style(
                ProgressStyle::with_template(
                    "generations done {pos}/{len} [{bar:25}] {msg} eta {eta}",
                )
                .expect("a valid progress template")
                .progress_chars("=> "),
            );
            bar.set_position(done);
            bar
        });
        Display {
            mode,
            bars,
            generations: bar,
        }
    }

    /// The display of generation `g`'s `total` games: a bar under the generations' on a
    /// terminal, nothing otherwise (one line per generation is enough there).
    pub fn games(&self, g: u64, total: u64) -> Progress {
        match self.mode {
            Mode::Bar => Progress::in_multi(&self.bars, total, &format!("generation {g} games")),
            _ => Progress::hidden(),
        }
    }

    /// Clears the bars once the generations are done.
    pub fn finish(&self) {
        if let Some(bar) = &self.generations {
            bar.finish_and_clear();
        }
    }
}

impl Observer for &Display {
    fn generation(&mut self, done: &GenerationDone) -> Result<()> {
        let row = done.row;
        let line = format!(
            "best {:.1} mean {:.1}{} | {:.0} games/s",
            row.best,
            row.mean,
            row.validation
                .map_or(String::new(), |v| format!(" held-out {v:.1}")),
            done.games as f64 / done.seconds.max(1e-9)
        );
        match (&self.generations, self.mode) {
            (Some(bar), _) => {
                bar.set_message(line);
                bar.inc(1);
            }
            (None, Mode::Lines) => eprintln!(
                "generation {} ({} of {} done): {line}",
                row.generation,
                row.generation + 1,
                done.generations
            ),
            _ => {}
        }
        Ok(())
    }
}

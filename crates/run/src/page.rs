//! A run's `report.html`: written by an [`Observer`] at every checkpoint of `evolve`, once
//! more with the final held-out summary, and by `stacktune report DIR` for a folder.

use super::config::{RunConfig, feature_indices};
use super::evaluation::expand_to;
use super::executor::{GenerationDone, Observer};
use crate::report::{HistoryRow, read_timings};
use crate::report_page::{Final, HeldOut, RunPage, write_run};
use anyhow::{Context, Result, bail};
use stacktune_base::progress::Progress;
use stacktune_game::Game;
use stacktune_game::replay::{Replay, Replayable, record_games};
use stacktune_players::eval::LinearPlayer;
use stacktune_players::registry::{Build, adapted};
use stacktune_players::search::{Player, Search};
use stacktune_players::weights::WeightFile;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

/// What the page of the run in `dir` is made of, apart from the history.
pub struct ReportPage<'a, G> {
    pub game: &'a G,
    pub config: &'a RunConfig,
    pub dir: PathBuf,
    /// The tuned features and their indices in the game's list.
    pub features: &'a [String],
    pub indices: &'a [usize],
    pub search: Search,
    /// Moves stored per replayed game.
    pub cap: u64,
    /// The weights replayed last, their replays and text frames: a generation whose best
    /// weights did not change (an elite kept) reuses them instead of playing the games again.
    pub replayed: Option<(Vec<f64>, Vec<Replay>, Vec<String>)>,
    /// Raised by Ctrl-C: the page's games stop where they are and the page is not written.
    pub stop: &'a AtomicBool,
}

impl<G: Replayable> ReportPage<'_, G> {
    /// Writes the page for `history` (the best weights of its kept row, `keep`, replayed on the
    /// held-out games), with the final summary once the run has one; `false` when `stop` was
    /// raised while its games were replayed, and the page was left as it was (or, where there
    /// was none, written without replays).
    pub fn write(&mut self, history: &[HistoryRow], final_summary: Option<Final>) -> Result<bool> {
        let (config, game) = (self.config, self.game);
        let opponents = game.opponents().len() as u64;
        let best_toml = self.dir.join("best.toml");
        let mut stopped = false;
        let play_command = config.play_command(&best_toml, config.final_games / opponents.max(1));
        let (replays, frames) = match self.config.keep.row(history) {
            Some(row)
                if self
                    .replayed
                    .as_ref()
                    .is_some_and(|r| r.0 == row.best_weights) =>
            {
                let (_, replays, frames) = self.replayed.take().expect("just checked");
                (replays, frames)
            }
            Some(row) => match self.replay(history, row, &best_toml)? {
                Some(replayed) => replayed,
                // Stopped before the folder had a page: it gets one all the same, without
                // replays, so that an interrupted run can still be read (and a run of a
                // Python game, which `stacktune report` cannot replay, has one at all).
                None if !self.dir.join("report.html").exists() => {
                    stopped = true;
                    (Vec::new(), Vec::new())
                }
                None => return Ok(false),
            },
            None => (Vec::new(), Vec::new()),
        };
        let timings = read_timings(&self.dir.join("timings.csv"))?;
        let page = RunPage {
            title: format!("{} ({}), run {}", game.name(), game.rules(), config.name),
            config: std::fs::read_to_string(self.dir.join("run.toml"))
                .with_context(|| format!("cannot read {}", self.dir.join("run.toml").display()))?,
            seed: config.seed,
            version: env!("CARGO_PKG_VERSION"),
            evolve_command: format!(
                "stacktune evolve --config {} --out NEW_FOLDER",
                crate::shell_word(&self.dir.join("run.toml").display().to_string())
            ),
            play_command,
            measure: game.score_name(),
            rating: config.matches.as_ref().map(|_| {
                game.opponents()
                    .first()
                    .map_or("the generation's mean".to_string(), |a| format!("`{a}`"))
            }),
            generations: config.generations,
            features: self.features,
            history,
            timings: &timings,
            final_summary,
            replays: &replays,
            frames: &frames,
        };
        write_run(&self.dir, &page)?;
        if stopped {
            return Ok(false);
        }
        if let Some(row) = self.config.keep.row(history) {
            self.replayed = Some((row.best_weights.clone(), replays, frames));
        }
        Ok(true)
    }

    /// The replays and text frames of `row`'s best weights (of `history`, saved as
    /// `best_toml`) on the held-out games; `None` when `stop` was raised meanwhile.
    fn replay(
        &self,
        history: &[HistoryRow],
        row: &HistoryRow,
        best_toml: &Path,
    ) -> Result<Option<(Vec<Replay>, Vec<String>)>> {
        let (config, game) = (self.config, self.game);
        let names = game.feature_names();
        let weights = expand_to(self.indices, names.len(), &row.best_weights);
        let player = Player::new(LinearPlayer::from_vector(names, &weights)?, self.search);
        // A match run's page also shows its best against the best before it: one more game,
        // after those against the anchors.
        let previous = config.matches.as_ref().and_then(|_| {
            history
                .iter()
                .rev()
                .find(|r| r.best_weights != row.best_weights)
        });
        let with_previous = previous.and_then(|r| {
            let rival = expand_to(self.indices, names.len(), &r.best_weights);
            adapted(game, None, &[rival], self.search).ok()
        });
        let replays = record_games(
            with_previous.as_ref().unwrap_or(game),
            &player,
            config.validation_seed,
            config.validation_limits(),
            self.cap,
            &config.replay_command(best_toml, self.cap),
            &Progress::hidden(),
            self.stop,
        );
        let cap = config.validation_limits().max_moves.unwrap_or(self.cap);
        let frames = game.text_frames(&weights, config.validation_seed, cap);
        // A host's frames may be where the interrupt landed.
        match replays {
            Some(mut replays) if !self.stop.load(Ordering::SeqCst) => {
                if let (Some(r), Some(last)) = (previous, replays.last_mut()) {
                    last.versus = Some(format!(
                        "left: the best of generation {}, right: the best before it (generation {})",
                        row.generation, r.generation
                    ));
                }
                Ok(Some((replays, frames)))
            }
            _ => Ok(None),
        }
    }
}

impl<G: Replayable> Observer for ReportPage<'_, G> {
    /// Stopped while replaying, the page stays at the last generation it showed: the
    /// executor stops once this generation's checkpoint is sealed.
    fn generation(&mut self, done: &GenerationDone) -> Result<()> {
        self.write(done.history, None).map(|_| ())
    }
}

/// The final summary a finished run's `best.toml` records, `None` for a run not finished.
pub fn final_of(dir: &Path, config: &RunConfig) -> Result<Option<Final>> {
    let path = dir.join("best.toml");
    if !path.is_file() {
        return Ok(None);
    }
    let file = WeightFile::load(&path)?;
    let number = |key: &str| file.meta.get(key).and_then(|v| v.as_float());
    let games = file
        .meta
        .get("validation_games")
        .and_then(|v| v.as_integer())
        .unwrap_or(config.final_games as i64) as u64;
    let (Some(mean), Some(ci95)) = (number("validation_mean"), number("validation_ci95")) else {
        return Ok(None);
    };
    let baseline = match (
        &config.baseline,
        number("baseline_mean"),
        number("baseline_ci95"),
    ) {
        (Some(path), Some(mean), Some(ci95)) => {
            Some((path.display().to_string(), HeldOut { mean, ci95, games }))
        }
        _ => None,
    };
    Ok(Some(Final {
        best: HeldOut { mean, ci95, games },
        baseline,
    }))
}

/// Writes `report.html` for the run in `dir` (`stacktune report DIR`): its config, history,
/// timings and, when finished, its final summary, with replays of its latest best weights.
/// Returns the page's path. A folder that holds no run is refused with one line.
pub fn write_report(dir: &Path, cap: u64) -> Result<PathBuf> {
    if !dir.is_dir() {
        bail!("{} is not a folder", dir.display());
    }
    let run_toml = dir.join("run.toml");
    if !run_toml.is_file() {
        bail!("{} is not a run folder: it has no run.toml", dir.display());
    }
    let config = RunConfig::load(&run_toml)?;
    if let Some(hosted) = &config.hosted {
        bail!(
            "{} is a run of {}, a game of Python's ({}): its run writes its report.html",
            dir.display(),
            hosted.name,
            hosted.class
        );
    }
    let folder = crate::folder::RunFolder::for_report(dir)?;
    let checkpoint = dir.join("checkpoint.json");
    let text = stacktune_base::fsutil::read_text(&checkpoint).with_context(|| match checkpoint
        .exists()
    {
        true => format!("cannot read the history in {}", checkpoint.display()),
        false => format!(
            "{} is not a run folder: cannot read {}",
            dir.display(),
            checkpoint.display()
        ),
    })?;
    let history = crate::checkpoint::Checkpoint::history_of(&text)
        .with_context(|| format!("cannot read the history in {}", checkpoint.display()))?;
    let final_summary = final_of(dir, &config)?;
    let search = config.game.search()?;
    let any = config.game.build()?;
    let written = stacktune_players::with_game!(&any, g => {
        let all = g.feature_names();
        let indices = feature_indices(all, &config.features, g.name())?;
        let features: Vec<String> = indices.iter().map(|&i| all[i].to_string()).collect();
        if let Some(row) = history.iter().find(|r| r.best_weights.len() != features.len()) {
            bail!(
                "{}: generation {} has {} weights for {} features",
                checkpoint.display(),
                row.generation,
                row.best_weights.len(),
                features.len()
            );
        }
        ReportPage {
            game: g,
            config: &config,
            dir: dir.to_path_buf(),
            features: &features,
            indices: &indices,
            search,
            cap,
            replayed: None,
            stop: stacktune_base::stop::ctrl_c(),
        }
        .write(&history, final_summary)?
    });
    if !written {
        bail!(
            "stopped while the page's games were replayed; {} is left as it was",
            dir.join(crate::report_page::FILE_NAME).display()
        );
    }
    folder.finish()?;
    Ok(dir.join(crate::report_page::FILE_NAME))
}

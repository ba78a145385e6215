//! An evolution run: its config, its folder, its checkpoint, the loop that owns them, where
//! its games are played, and what it leaves for people; and the work of the commands that a
//! host embedding stacktune shares with the command line (`evolve`, `play`).
//!
//! A run is a function of its config (which holds the seed): the loop draws every random
//! number from streams keyed by (seed, purpose, generation, index), scores candidates on
//! common games, and after each generation writes the history, the plots and a checkpoint
//! atomically, so a run stopped at any point resumes to the very same result.
//!
//! This file assembles a run from its parts, step by step ([`evolve`]): the config
//! (`config.rs`), the generation loop (`executor.rs`) and what it scores with
//! (`evaluation.rs`, `match_fitness.rs`), what it leaves for people (`observers.rs`,
//! `page.rs`, [`report`], [`report_page`]), its folder ([`folder`]) and checkpoint
//! ([`checkpoint`]), and where its games are played ([`backend`]).

pub mod backend;
pub mod checkpoint;
pub mod compare;
pub mod evolution;
#[cfg(feature = "clap")]
pub mod flags;
pub mod folder;
pub mod play;
pub mod report;
pub mod report_page;
pub mod versus;
pub mod versus_record;

mod config;
mod evaluation;
mod executor;
mod files;
pub mod hosted;
pub mod match_fitness;
mod observers;
pub mod page;
pub mod scores;
mod stepped;

use config::feature_indices;
pub use config::{HostedSpec, RunConfig};
pub use evaluation::held_out_batch;
pub use executor::Driver;
use files::Files;
use stacktune_game::Playable;
use stacktune_players::registry::Build;
pub use stepped::{Finish, SteppedRun};

use crate::backend::{Backend, GameData, vector};
use crate::checkpoint::{Checkpoint, Expected};
use crate::folder::RunFolder;
use crate::report::{HistoryRow, References};
use crate::report_page::{Final, HeldOut};
use anyhow::{Context, Result, bail};
use evaluation::{GameEvaluation, expand_to, held_out};
use executor::Executor;
use match_fitness::generation_games;
use observers::{Display, HistoryFile, Plots, Timings};
use page::ReportPage;
use stacktune_base::fsutil::write_atomic;
use stacktune_base::limits::check_memory;
use stacktune_base::progress::{Mode, Progress};
use stacktune_base::stats::Summary;
use stacktune_game::replay::{DEFAULT_MOVE_CAP, Replayable};
use stacktune_players::eval::LinearPlayer;
use stacktune_players::search::Search;
use stacktune_players::weights::WeightFile;
use stacktune_tune::OptimizerKind;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

/// The final figures of a run.
#[derive(Clone, Debug)]
pub struct RunResult {
    pub dir: PathBuf,
    pub best: Summary,
    pub baseline: Option<(PathBuf, Summary)>,
}

/// Runs (or resumes) the evolution described by `config` in the folder `open` gives. The
/// folder is opened only once the config, its features and its weight files are found good,
/// so a refused run leaves nothing behind.
/// `driver`, when a host drives the run (Python's ask/tell), hands in each generation's
/// candidates: the same loop and the same folder, whichever optimiser proposes.
pub fn evolve<G: Replayable>(
    game: &G,
    config: &RunConfig,
    open: impl FnOnce() -> Result<RunFolder>,
    resume: bool,
    mode: Mode,
    backend: &dyn Backend,
    driver: Option<&mut dyn Driver>,
) -> Result<RunResult> {
    refuse_undriven_external(config, driver.is_some())?;
    let setup = Setup::new(game, config, resume, backend, Files::Disk)?;
    let folder = open()?;
    let dir = folder.path().to_path_buf();
    let checkpoint = first_checkpoint(&setup, &dir, resume)?;
    if mode != Mode::Quiet {
        eprintln!("run folder: {}", dir.display());
    }
    let hint = resume_hint(config, &dir, driver.is_some());
    let mut driver = driver;
    if let Some(d) = driver.as_deref_mut() {
        d.begin(
            &setup.names,
            config.generations,
            checkpoint.next_generation,
            &dir,
        );
    }
    let mut reports = Reports::new(&setup, &dir);
    let checkpoint = run_generations(&setup, &mut reports, checkpoint, &dir, mode, &hint, driver)?;
    let last = config
        .keep
        .row(&checkpoint.history)
        .expect("at least one generation ran");
    let (best, baseline) = score_final(&setup, last, mode)?
        .with_context(|| format!("stopped during the held-out games; resume with: {hint}"))?;
    reports.plots.fitness(
        &checkpoint.history,
        References {
            baseline: baseline.as_ref().map(|(_, b)| b.mean),
            final_best: Some(best.mean),
        },
    )?;
    let file = best_file(&setup, last, &best, baseline.as_ref().map(|(_, b)| b));
    file.save(&dir.join("best.toml"), game.feature_names())?;
    let held_out = |s: &Summary| HeldOut {
        mean: s.mean,
        ci95: s.ci95,
        games: s.games as u64,
    };
    let written = reports.page.write(
        &checkpoint.history,
        Some(Final {
            best: held_out(&best),
            baseline: baseline
                .as_ref()
                .map(|(path, b)| (path.display().to_string(), held_out(b))),
        }),
    )?;
    if !written {
        bail!(
            "stopped while report.html was written; the run is finished (best.toml is written) and its page shows the last generation"
        );
    }
    folder.finish()?;
    Ok(RunResult {
        dir,
        best,
        baseline,
    })
}

/// An external optimiser's run has no candidates of its own: one nobody drives is refused.
fn refuse_undriven_external(config: &RunConfig, driven: bool) -> Result<()> {
    if config.optimizer.kind == OptimizerKind::External && !driven {
        bail!(
            "[optimizer] kind = \"external\" takes its candidates from an optimiser of your own: drive it from Python with stacktune.Run (docs/python.md)"
        );
    }
    Ok(())
}

/// A run's parts once its config, features and weights files are found good: what every
/// later step reads.
struct Setup<'a, G> {
    game: &'a G,
    config: &'a RunConfig,
    search: Search,
    /// The tuned features' indices in the game's feature list, and their names.
    indices: Vec<usize>,
    names: Vec<String>,
    /// The baseline's path and its weights over all the game's features.
    baseline: Option<(PathBuf, Vec<f64>)>,
    data: GameData,
    /// The `init` weights over the tuned features, for a run that starts (not one resumed).
    start: Option<Vec<f64>>,
    backend: &'a dyn Backend,
    /// Raised by Ctrl-C (or the host): the games under way stop and are dropped.
    stop: &'static AtomicBool,
}

impl<'a, G: Playable> Setup<'a, G> {
    /// Checks everything a run needs before its folder is opened: the config, the search,
    /// the features, the memory, and the weights files it names (read from `files`).
    fn new(
        game: &'a G,
        config: &'a RunConfig,
        resume: bool,
        backend: &'a dyn Backend,
        files: Files,
    ) -> Result<Self> {
        config.validate()?;
        // A bad search setting is refused before the folder is opened.
        let search = config.game.search()?;
        let all = game.feature_names();
        let indices = feature_indices(all, &config.features, game.name())?;
        check_memory(
            config.memory_needed(indices.len()),
            &format!(
                "a run of {} candidates × {} games over {} generations",
                config.population(indices.len()),
                config.games,
                config.generations
            ),
        )?;
        let names: Vec<String> = indices.iter().map(|&i| all[i].to_string()).collect();
        for (asked, setting) in [
            (config.hall_of_fame > 0, "hall_of_fame"),
            (config.matches.is_some(), "[matches]"),
        ] {
            if asked && game.with_rivals(&[]).is_none() {
                bail!(
                    "{setting} needs a two-player game; {} ({}) is played alone",
                    game.name(),
                    game.rules()
                );
            }
        }
        let baseline = match &config.baseline {
            Some(path) => {
                let file = files.baseline(path)?;
                let player = LinearPlayer::from_file(game, &file)
                    .map_err(|e| anyhow::anyhow!("baseline weights {}: {e}", path.display()))?;
                Some((path.clone(), vector(&player, all.len())))
            }
            None => None,
        };
        let data = files.game_data(&config.game)?;
        let start = match &config.init {
            Some(path) if !resume => Some(init_weights(game, &files.weights(path)?, path, &names)?),
            _ => None,
        };
        Ok(Setup {
            game,
            config,
            search,
            indices,
            names,
            baseline,
            data,
            start,
            backend,
            stop: stacktune_base::stop::ctrl_c(),
        })
    }

    /// The checkpoint of a run that starts in `dir` (none for a run held in memory): its
    /// optimiser's first state, nothing played, and the settings it starts with.
    fn fresh_checkpoint(&self, dir: Option<&Path>) -> Result<Checkpoint> {
        let optimizer = self
            .config
            .new_optimizer(self.names.len(), self.start.as_deref());
        Ok(Checkpoint {
            next_generation: 0,
            optimizer,
            history: Vec::new(),
            evaluations: 0,
            settings: Some(self.config.settings_in(dir)?),
        })
    }

    /// Plays `games` of the held-out games with `weights` over all the game's features.
    fn held_out(
        &self,
        weights: &[f64],
        games: u64,
        progress: &Progress,
    ) -> Result<Option<Summary>> {
        held_out(
            self.backend,
            &self.data,
            weights,
            games,
            self.config,
            self.stop,
            progress,
        )
    }
}

/// How the user resumes the run in `dir`: from the command line, from Python's ask/tell
/// (`driven`), or with the Python class of a hosted game.
fn resume_hint(config: &RunConfig, dir: &Path, driven: bool) -> String {
    let dir = dir.display().to_string();
    match &config.hosted {
        Some(hosted) => {
            let class = hosted.class.rsplit(':').next().unwrap_or(&hosted.class);
            format!("stacktune.custom.evolve({class}, resume={dir:?})")
        }
        None if driven => format!("stacktune.Run.resume({dir:?})"),
        None => format!("stacktune evolve --resume {}", shell_word(&dir)),
    }
}

/// `text` as one word of a shell command a user copies (`'my runs/r'`); unchanged when it needs
/// no quotes.
pub(crate) fn shell_word(text: &str) -> String {
    shlex::try_quote(text).map_or_else(|_| text.to_string(), |q| q.into_owned())
}

/// The weights of `file` (read from `path`) over the tuned features `names` (0 for a feature
/// it does not weigh), the file checked against the game.
fn init_weights<G: Playable>(
    game: &G,
    file: &WeightFile,
    path: &Path,
    names: &[String],
) -> Result<Vec<f64>> {
    file.check_against(game.name(), game.feature_names())
        .map_err(|e| anyhow::anyhow!("initial weights {}: {e}", path.display()))?;
    Ok(names
        .iter()
        .map(|n| file.weights.get(n).copied().unwrap_or(0.0))
        .collect())
}

/// run.toml as the run wrote it when it started, beside the run.toml a user may edit, in run
/// folders from before checkpoints kept the run's settings: a resume of such a folder still
/// compares run.toml with it (and its checkpoint keeps these settings from then on).
const STARTED: &str = ".run.toml";

/// The first change of `config` from the settings the run `started` with that a resume may
/// not make (anything but raising `generations` and changing `threads`): how it changes the
/// setting (`lowers`, `changes`), the setting's dotted name, its value now and then.
fn forbidden_change(
    config: &RunConfig,
    started: &RunConfig,
) -> Option<(&'static str, String, String, String)> {
    if config.generations < started.generations {
        let (now, then) = (config.generations, started.generations);
        return Some((
            "lowers",
            "generations".into(),
            now.to_string(),
            then.to_string(),
        ));
    }
    let (field, now, then) = config.changed_since(started)?;
    Some(("changes", field, now, then))
}

/// Refuses to resume the run in `dir` when its run.toml (read as `config`) changes what the
/// run `started` with in anything a resume may not change, naming the setting.
fn check_unchanged(dir: &Path, config: &RunConfig, started: &RunConfig) -> Result<()> {
    if let Some((how, field, now, then)) = forbidden_change(config, started) {
        bail!(
            "cannot resume {}: its run.toml {how} `{field}` ({now}, the run started with {then}); a resume may only raise `generations`: put `{field}` back, or start a new run from this run.toml with --config and --out; the folder is left as it is",
            dir.display()
        );
    }
    Ok(())
}

/// The checkpoint the run continues from: the one in `dir` when resumed, else the first one,
/// written with run.toml.
fn first_checkpoint<G: Playable>(setup: &Setup<G>, dir: &Path, resume: bool) -> Result<Checkpoint> {
    let config = setup.config;
    if resume {
        let (mut checkpoint, started) = resume_from(dir, config, &setup.names)?;
        let started = match started {
            Some(started) => Some(started),
            None if dir.join(STARTED).is_file() => Some(RunConfig::load(&dir.join(STARTED))?),
            // A run from before runs kept their first run.toml: nothing to compare with.
            None => None,
        };
        if let Some(started) = &started {
            check_unchanged(dir, config, started)?;
        }
        // From here on the checkpoint keeps run.toml's settings: those it started with, but
        // for `generations` raised (or kept) and `threads`, so that a run extended ends with
        // the bytes of the run asked for as long from the start.
        checkpoint.settings = Some(config.settings_in(Some(dir))?);
        return Ok(checkpoint);
    }
    let text = config.to_toml_in(dir)?;
    write_atomic(&dir.join("run.toml"), text.as_bytes())?;
    let checkpoint = setup.fresh_checkpoint(Some(dir))?;
    write_atomic(&dir.join("checkpoint.json"), checkpoint.seal()?.as_bytes())?;
    Ok(checkpoint)
}

/// What a run leaves in its folder as it goes, for people: the history, the plots, the
/// timings and the page.
struct Reports<'a, G> {
    history: HistoryFile,
    plots: Plots,
    timings: Timings,
    page: ReportPage<'a, G>,
}

impl<'a, G: Playable> Reports<'a, G> {
    fn new(setup: &'a Setup<'a, G>, dir: &Path) -> Self {
        let (game, config) = (setup.game, setup.config);
        Reports {
            history: HistoryFile {
                path: dir.join("history.csv"),
                features: setup.names.clone(),
            },
            plots: Plots {
                dir: dir.to_path_buf(),
                title: format!("{} ({}), seed {}", game.name(), game.rules(), config.seed),
                measure: game.score_name(),
                features: setup.names.clone(),
            },
            timings: Timings {
                path: dir.join("timings.csv"),
            },
            page: ReportPage {
                game,
                config,
                dir: dir.to_path_buf(),
                features: &setup.names,
                indices: &setup.indices,
                search: setup.search,
                cap: DEFAULT_MOVE_CAP,
                replayed: None,
                stop: setup.stop,
            },
        }
    }
}

/// Runs the generations `checkpoint` has not done, showing each to the reports and the
/// display, until the last or a raised `stop`; returns the last checkpoint.
fn run_generations<G: Replayable>(
    setup: &Setup<G>,
    reports: &mut Reports<G>,
    checkpoint: Checkpoint,
    dir: &Path,
    mode: Mode,
    resume_hint: &str,
    driver: Option<&mut dyn Driver>,
) -> Result<Checkpoint> {
    let stop = setup.stop;
    let config = setup.config;
    let mut evaluation = GameEvaluation {
        game: setup.game,
        data: &setup.data,
        config,
        indices: &setup.indices,
        stop,
        backend: setup.backend,
        resume_hint,
    };
    let display = Display::new(mode, config.generations, checkpoint.next_generation);
    let mut executor = Executor {
        checkpoint,
        checkpoint_path: Some(dir.join("checkpoint.json")),
        generations: config.generations,
        seed: config.seed,
        validate_every: config.validate_every,
        stop,
        resume_hint: resume_hint.to_string(),
        // Reborrowed for the loop's lifetime.
        driver: driver.map(|d| d as &mut dyn Driver),
    };
    let anchors = setup.game.opponents().len();
    let games_progress = |g: u64, candidates: u64| {
        display.games(g, generation_games(config, anchors, g, candidates))
    };
    executor.run(
        &mut evaluation,
        &mut [
            &mut reports.history,
            &mut reports.plots,
            &mut reports.timings,
            &mut reports.page,
            &mut &display,
        ],
        games_progress,
    )?;
    display.finish();
    Ok(executor.checkpoint)
}

/// The best's figure on the final held-out games, and the baseline's with its path.
type FinalScores = (Summary, Option<(PathBuf, Summary)>);

/// The kept generation's best (`keep`), and the baseline if any, on all the final held-out games;
/// `None` when the run was stopped before they were all played.
fn score_final<G: Playable>(
    setup: &Setup<G>,
    last: &HistoryRow,
    mode: Mode,
) -> Result<Option<FinalScores>> {
    let games = setup.config.final_games;
    if mode != Mode::Quiet {
        eprintln!("scoring the best weights on {games} held-out games");
    }
    let progress = |label: &str| Progress::new(mode, games, label);
    let best_full = expand_to(
        &setup.indices,
        setup.game.feature_names().len(),
        &last.best_weights,
    );
    let Some(best) = setup.held_out(&best_full, games, &progress("held-out games"))? else {
        return Ok(None);
    };
    let baseline = match &setup.baseline {
        Some((path, weights)) => {
            let progress = progress("baseline's held-out games");
            let Some(summary) = setup.held_out(weights, games, &progress)? else {
                return Ok(None);
            };
            Some((path.clone(), summary))
        }
        None => None,
    };
    Ok(Some((best, baseline)))
}

/// `best.toml`: the kept generation's best weights (`keep`), with what the run measured of them (and
/// of the baseline) for `stacktune report` and for people.
fn best_file<G: Playable>(
    setup: &Setup<G>,
    last: &HistoryRow,
    best: &Summary,
    baseline: Option<&Summary>,
) -> WeightFile {
    let (game, config, names) = (setup.game, setup.config, &setup.names);
    let weights: BTreeMap<String, f64> = names
        .iter()
        .cloned()
        .zip(last.best_weights.iter().copied())
        .collect();
    let mut meta = toml::Table::new();
    let mut put = |k: &str, v: toml::Value| {
        meta.insert(k.to_string(), v);
    };
    put(
        "source",
        format!("stacktune evolve, run {}", config.name).into(),
    );
    put("rules", game.rules().into());
    put(
        "features",
        toml::Value::Array(names.iter().map(|n| n.clone().into()).collect()),
    );
    put("fitness", last.best.into());
    put("generation", (last.generation as i64).into());
    put("seed", (config.seed as i64).into());
    put("validation_mean", best.mean.into());
    put("validation_ci95", best.ci95.into());
    put("validation_games", (config.final_games as i64).into());
    put("validation_seed", (config.validation_seed as i64).into());
    put("max_pieces", (config.validation_max_pieces as i64).into());
    if let Some(b) = baseline {
        // Kept so that `stacktune report` can show the baseline next to the best.
        put("baseline_mean", b.mean.into());
        put("baseline_ci95", b.ci95.into());
    }
    put("stacktune_version", env!("CARGO_PKG_VERSION").into());
    WeightFile {
        game: game.name().to_string(),
        rules: config.game.rules.clone(),
        width: config.game.width,
        height: config.game.height,
        pairs_shown: config.game.pairs_shown,
        // The search a file plays under is set when it is shipped, by measurement: tuning
        // runs under a narrow beam, and a file played wider plays better.
        search: None,
        weights,
        meta,
    }
}

/// Every run folder shipped under reports/: the reference runs, and the runs of the shipped
/// comparisons (`<comparison>/<config>/repeat-<r>`).
#[cfg(test)]
pub(crate) fn reference_runs() -> Vec<PathBuf> {
    fn runs_in(dir: &Path, depth: u32, out: &mut Vec<PathBuf>) {
        if dir.join("run.toml").is_file() {
            out.push(dir.to_path_buf());
        } else if depth > 0 {
            let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.is_dir())
                .collect();
            entries.sort();
            for entry in entries {
                runs_in(&entry, depth - 1, out);
            }
        }
    }
    let mut runs = Vec::new();
    runs_in(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../../reports"),
        3,
        &mut runs,
    );
    assert!(runs.len() >= 5, "reference runs: {runs:?}");
    runs
}

/// For a finished run in `dir` (its best.toml is written and its history holds the
/// generations its run.toml asks for; raising `generations` makes it resumable), how to run it
/// again: the command or call that runs its config, which depends on who proposes and plays;
/// `None` for a run not finished.
pub fn rerun_of_finished(dir: &Path) -> Option<String> {
    let generations_done = std::fs::read_to_string(dir.join("history.csv"))
        .map_or(0, |text| text.lines().count().saturating_sub(1) as u64);
    let run_toml = dir.join("run.toml");
    let config = RunConfig::load(&run_toml).ok()?;
    if !dir.join("best.toml").is_file() || generations_done < config.generations {
        return None;
    }
    let run_toml = run_toml.display();
    Some(match (&config.hosted, config.optimizer.kind) {
        (Some(hosted), _) => {
            let class = hosted.class.rsplit(':').next().unwrap_or(&hosted.class);
            format!("stacktune.custom.evolve({class}, \"{run_toml}\")")
        }
        (None, OptimizerKind::External) => format!("stacktune.Run(\"{run_toml}\")"),
        (None, _) => format!(
            "stacktune evolve --config {}",
            shell_word(&run_toml.to_string())
        ),
    })
}

/// The checkpoint of the run in `dir`, checked against its config and history, and the
/// settings it says the run started with.
fn resume_from(
    dir: &Path,
    config: &RunConfig,
    features: &[String],
) -> Result<(Checkpoint, Option<RunConfig>)> {
    let path = dir.join("checkpoint.json");
    let history = match std::fs::read(dir.join("history.csv")) {
        Ok(bytes) => Some(bytes),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => bail!("cannot read {}: {e}", dir.join("history.csv").display()),
    };
    let text = stacktune_base::fsutil::read_text(&path)
        .with_context(|| format!("cannot resume from {}", path.display()))?;
    open_checkpoint(&text, history.as_deref(), config, features, dir).map_err(|e| {
        anyhow::anyhow!(
            "cannot resume from {}: {e:#}; the folder is left as it is",
            path.display()
        )
    })
}

/// The checkpoint `text` of a run of `config` tuning `features`, checked against it and
/// against the run's history.csv (`None` before the first generation ended), and the settings
/// it says the run started with, their paths read from `base`.
fn open_checkpoint(
    text: &str,
    history_csv: Option<&[u8]>,
    config: &RunConfig,
    features: &[String],
    base: &Path,
) -> Result<(Checkpoint, Option<RunConfig>)> {
    let expected = Expected {
        optimizer: &config.optimizer_config(),
        features,
        generations: config.generations,
        history_csv,
    };
    let checkpoint = Checkpoint::open(text, &expected)?;
    let started = checkpoint.started(base)?;
    Ok((checkpoint, started))
}

#[cfg(test)]
mod tests {
    use super::*;
    use stacktune_game::Game;

    /// The writer gives the shipped runs' best.toml files byte for byte, in their order.
    #[test]
    fn shipped_best_files_are_written_as_they_are() {
        for dir in reference_runs() {
            let text = std::fs::read_to_string(dir.join("best.toml")).unwrap();
            let order: Vec<&str> = text
                .split("[weights]\n")
                .nth(1)
                .unwrap()
                .lines()
                .take_while(|l| !l.is_empty())
                .map(|l| l.split(' ').next().unwrap())
                .collect();
            let file = WeightFile::parse(&text).unwrap();
            assert_eq!(file.to_toml(&order), text);
        }
    }

    /// The shipped reference runs' checkpoints are sealed, fit their run.toml and history (and
    /// the settings they keep), and are what the run loop writes.
    #[test]
    fn shipped_checkpoints_fit_their_runs() {
        for dir in reference_runs() {
            let config = RunConfig::load(&dir.join("run.toml")).unwrap();
            let game = config.game.build().unwrap();
            let all = stacktune_players::with_game!(&game, g => g.feature_names());
            let indices = feature_indices(all, &config.features, "").unwrap();
            let names: Vec<String> = indices.iter().map(|&i| all[i].to_string()).collect();
            let (checkpoint, started) = resume_from(&dir, &config, &names)
                .unwrap_or_else(|e| panic!("{}: {e:#}", dir.display()));
            // Runs shipped before checkpoints kept the run's settings have none (read and sealed
            // as they are); later ones keep run.toml's, `threads` left out.
            if let Some(started) = started {
                let threads = config.threads;
                assert_eq!(
                    RunConfig { threads, ..started },
                    config,
                    "{}",
                    dir.display()
                );
            }
            assert_eq!(checkpoint.next_generation, config.generations);
            // Byte for byte what the run loop writes.
            let text = std::fs::read_to_string(dir.join("checkpoint.json")).unwrap();
            assert_eq!(checkpoint.seal().unwrap(), text, "{}", dir.display());
        }
    }
}

//! Comparing run configs (optimisers, settings) on equal budgets: each config evolves `repeats`
//! times on the same number of training games, and their held-out curves are set side by side.
//!
//! Repeat r of every config uses the config's seed + r, so the configs of one repeat train on
//! the same games (common random numbers) and differ only in how they search.

use crate::backend::Backend;
use crate::folder::RunFolder;
use crate::match_fitness::generation_games;
use crate::report::{CurvePoint, HistoryRow, plot_comparison};
use crate::{RunConfig, evolve, shell_word};
use anyhow::{Context, Result, bail};
use serde::Serialize;
use stacktune_base::fsutil::write_atomic;
use stacktune_base::progress::Mode;
use stacktune_base::stats::quantile;
use stacktune_game::{Episodes, Game};
use stacktune_players::registry::Build;
use stacktune_players::weights::WeightFile;
use stacktune_players::with_game;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

/// Held-out measurements each run makes: enough points for a curve, few enough that
/// validating costs little next to training.
const POINTS_PER_RUN: u64 = 10;

/// One config of a comparison, by the name its runs and rows carry.
pub struct Entrant {
    pub label: String,
    pub config: RunConfig,
    /// The file it was read from, for the command that continues a stopped comparison.
    pub path: PathBuf,
}

impl Entrant {
    /// The configs `paths` name, labelled by file stem (`-2`, `-3`, ... when stems repeat).
    pub fn load_all(paths: &[PathBuf]) -> Result<Vec<Entrant>> {
        let mut entrants: Vec<Entrant> = Vec::new();
        for path in paths {
            let config = RunConfig::load(path)?;
            config
                .validate()
                .map_err(|e| anyhow::anyhow!("config file {}: {e}", path.display()))?;
            let stem = path
                .file_stem()
                .map_or("config".into(), |s| s.to_string_lossy().into_owned());
            let taken = |l: &str| entrants.iter().any(|e| e.label == l);
            let label = (1..)
                .map(|n| match n {
                    1 => stem.clone(),
                    n => format!("{stem}-{n}"),
                })
                .find(|l| !taken(l))
                .expect("some label is free");
            entrants.push(Entrant {
                label,
                config,
                path: path.clone(),
            });
        }
        Ok(entrants)
    }
}

/// One held-out measurement of one run: what `points.csv` lists.
#[derive(Clone, Debug, Serialize)]
pub struct Point {
    pub config: String,
    pub optimizer: String,
    pub repeat: u64,
    pub generation: u64,
    /// Training games played by then.
    pub games: u64,
    pub held_out: f64,
}

/// One config's outcome over its repeats: a row of `summary.csv`.
#[derive(Clone, Debug, Serialize)]
pub struct SummaryRow {
    pub config: String,
    pub optimizer: String,
    pub repeats: u64,
    /// Training games each run played (at most the budget: whole generations only).
    pub games: u64,
    pub generations: u64,
    /// The final best weights' held-out means over the repeats.
    pub final_median: f64,
    pub final_q1: f64,
    pub final_q3: f64,
    pub final_best: f64,
}

/// The config as one repeat of a comparison runs it: its seed moved by `repeat`, as many whole
/// generations as fit in `budget` training games, and held-out points along the way.
pub fn repeat_config(config: &RunConfig, repeat: u64, budget: u64) -> Result<RunConfig> {
    let (generations, _) = generations_within(config, budget)?;
    Ok(RunConfig {
        name: format!("{}-r{repeat}", config.name),
        seed: config.seed + repeat,
        generations,
        validate_every: (generations / POINTS_PER_RUN).max(1),
        ..config.clone()
    })
}

/// Whole generations of `config` that fit in `budget` training games, and the games they play:
/// every candidate plays its games, a match run's against every opponent of its schedule (the
/// hall of fame fills over the first generations), as history.csv's `evaluations` counts them.
fn generations_within(config: &RunConfig, budget: u64) -> Result<(u64, u64)> {
    let game = config.game.build()?;
    let features = if config.features.is_empty() {
        with_game!(&game, g => g.feature_names().len())
    } else {
        config.features.len()
    };
    let anchors = with_game!(&game, g => g.opponents().len());
    let candidates = config.population(features) as u64;
    let (mut generations, mut games) = (0, 0);
    loop {
        let next = generation_games(config, anchors, generations, candidates).max(1);
        if games + next > budget {
            if generations == 0 {
                bail!(
                    "config {}: one generation plays {next} games, more than the budget of {budget}",
                    config.name
                );
            }
            return Ok((generations, games));
        }
        (generations, games) = (generations + 1, games + next);
    }
}

/// What a comparison is asked for: its configs, repeats, budget and threads.
pub struct Plan<'a> {
    pub entrants: &'a [Entrant],
    pub repeats: u64,
    pub budget: u64,
    pub threads: Option<usize>,
}

/// The file in a comparison's folder that records what it compares, so that the same command
/// run again continues a comparison that was stopped rather than refusing its folder.
pub const RECORD: &str = "comparison.toml";

impl Plan<'_> {
    /// The text of [`RECORD`] for this comparison: the configs by label, the repeats and the
    /// budget (each repeat's run.toml holds its config in full, and is checked on its own).
    pub fn record(&self) -> String {
        let labels: Vec<String> = self
            .entrants
            .iter()
            .map(|e| format!("{:?}", e.label))
            .collect();
        format!(
            "# `stacktune compare` with these configs, repeats and budget continues this comparison\nconfigs = [{}]\nrepeats = {}\nbudget = {}\n",
            labels.join(", "),
            self.repeats,
            self.budget
        )
    }

    /// The command that runs this comparison in `dir`, and continues it there once stopped.
    pub fn command(&self, dir: &Path) -> String {
        let mut words = vec!["stacktune".to_string(), "compare".into()];
        for e in self.entrants {
            words.extend(["--config".into(), shell_word(&e.path.to_string_lossy())]);
        }
        words.extend([
            "--repeats".into(),
            self.repeats.to_string(),
            "--budget".into(),
            self.budget.to_string(),
            "--out".into(),
            shell_word(&dir.to_string_lossy()),
        ]);
        if let Some(t) = self.threads {
            words.extend(["--threads".into(), t.to_string()]);
        }
        words.join(" ")
    }
}

/// Runs every entrant `repeats` times on `budget` training games each inside `dir`, then
/// writes `points.csv`, `summary.csv` and the comparison plot there. A repeat that `dir`
/// already holds (a comparison stopped and run again) is taken as it is when finished, and
/// resumed otherwise; a stopped comparison says how to continue it: the same command.
pub fn compare(
    dir: &Path,
    plan: &Plan,
    mode: Mode,
    backend: &dyn Backend,
) -> Result<Vec<SummaryRow>> {
    let (entrants, repeats) = (plan.entrants, plan.repeats);
    // Every config is checked before the first game is played.
    let plans: Vec<Vec<RunConfig>> = entrants
        .iter()
        .map(|e| repeat_configs(&e.config, repeats, plan.budget, plan.threads))
        .collect::<Result<_>>()?;
    let record = dir.join(RECORD);
    if !record.is_file() {
        write_atomic(&record, plan.record().as_bytes())?;
    }
    let mut points = Vec::new();
    let mut summary = Vec::new();
    for (entrant, configs) in entrants.iter().zip(&plans) {
        let optimizer = entrant.config.optimizer.kind.name().to_string();
        let mut finals = Vec::new();
        for (r, config) in configs.iter().enumerate() {
            let (history, final_mean) = run_repeat(dir, entrant, r, config, repeats, mode, backend)
                .map_err(
                    |e| match stacktune_base::stop::ctrl_c().load(Ordering::Relaxed) {
                        true => anyhow::anyhow!(
                            "stopped in {}/repeat-{r}; continue the comparison with: {}",
                            entrant.label,
                            plan.command(dir)
                        ),
                        false => e,
                    },
                )?;
            points.extend(history.iter().filter_map(|row| {
                row.validation.map(|held_out| Point {
                    config: entrant.label.clone(),
                    optimizer: optimizer.clone(),
                    repeat: r as u64,
                    generation: row.generation,
                    games: row.evaluations,
                    held_out,
                })
            }));
            finals.push(final_mean);
        }
        let (_, games) = generations_within(&configs[0], plan.budget)?;
        summary.push(SummaryRow {
            config: entrant.label.clone(),
            optimizer,
            repeats,
            games,
            generations: configs[0].generations,
            final_median: quantile(&finals, 0.5),
            final_q1: quantile(&finals, 0.25),
            final_q3: quantile(&finals, 0.75),
            final_best: finals.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        });
    }
    write_csv(&dir.join("points.csv"), &points)?;
    write_csv(&dir.join("summary.csv"), &summary)?;
    plot(dir, entrants, &points, repeats, plan.budget)?;
    Ok(summary)
}

/// The configs of `config`'s `repeats` runs on `budget` training games each
/// ([`repeat_config`]), on `threads` threads when given, each checked.
fn repeat_configs(
    config: &RunConfig,
    repeats: u64,
    budget: u64,
    threads: Option<usize>,
) -> Result<Vec<RunConfig>> {
    (0..repeats)
        .map(|r| {
            let mut c = repeat_config(config, r, budget)?;
            if let Some(t) = threads {
                c.threads = t;
            }
            c.validate()?;
            Ok(c)
        })
        .collect()
}

/// Runs repeat `r` of `entrant` (`config`, one of `repeats`) in its folder under `dir`, saying
/// so first unless quiet: its history and its final best weights' held-out mean.
fn run_repeat(
    dir: &Path,
    entrant: &Entrant,
    r: usize,
    config: &RunConfig,
    repeats: u64,
    mode: Mode,
    backend: &dyn Backend,
) -> Result<(Vec<HistoryRow>, f64)> {
    // Named as its folder is, so the line and the folder agree (repeat r plays the config's
    // seed + r).
    let repeat = format!("repeat-{r}");
    if mode != Mode::Quiet {
        let plural = if config.generations == 1 { "" } else { "s" };
        eprintln!(
            "{}/{repeat}: {} generation{plural} (run {} of {repeats})",
            entrant.label,
            config.generations,
            r + 1
        );
    }
    let run_dir = dir.join(&entrant.label).join(&repeat);
    let run_toml = run_dir.join("run.toml");
    let resume = run_toml.is_file();
    if resume && !RunConfig::load(&run_toml)?.same_run(config) {
        bail!(
            "{} holds a run of another config than {}'s repeat {r}; choose another --out",
            run_dir.display(),
            entrant.label
        );
    }
    if resume && crate::rerun_of_finished(&run_dir).is_some() {
        return Ok((read_history(&run_dir)?, final_mean(&run_dir)?));
    }
    let game = config.game.build()?;
    let open = || match resume {
        true => RunFolder::resume(&run_dir, |_| None),
        false => RunFolder::claim(&run_dir, false, |_| false),
    };
    let result = with_game!(&game, g => evolve(g, config, open, resume, mode, backend, None)?);
    Ok((read_history(&result.dir)?, result.best.mean))
}

/// The held-out mean a finished run in `dir` recorded for its best weights.
fn final_mean(dir: &Path) -> Result<f64> {
    let path = dir.join("best.toml");
    WeightFile::load(&path)?
        .meta
        .get("validation_mean")
        .and_then(|v| v.as_float())
        .with_context(|| format!("{} records no validation_mean", path.display()))
}

/// Draws the comparison plot of `entrants`' held-out `points` in `dir`.
fn plot(
    dir: &Path,
    entrants: &[Entrant],
    points: &[Point],
    repeats: u64,
    budget: u64,
) -> Result<()> {
    let curves: Vec<(String, Vec<CurvePoint>)> = entrants
        .iter()
        .map(|e| (e.label.clone(), curve(points, &e.label)))
        .collect();
    let measure = {
        let game = entrants[0].config.game.build()?;
        with_game!(&game, g => g.score_name())
    };
    plot_comparison(
        dir,
        &format!("{repeats} repeats of {budget} training games each"),
        measure,
        &curves,
    )
}

/// The median and interquartile range over repeats at each point where a config's runs
/// measure (all repeats of a config measure at the same numbers of games).
fn curve(points: &[Point], label: &str) -> Vec<CurvePoint> {
    let mine: Vec<&Point> = points.iter().filter(|p| p.config == label).collect();
    let mut games: Vec<u64> = mine.iter().map(|p| p.games).collect();
    games.sort_unstable();
    games.dedup();
    games
        .into_iter()
        .map(|x| {
            let ys: Vec<f64> = mine
                .iter()
                .filter(|p| p.games == x)
                .map(|p| p.held_out)
                .collect();
            CurvePoint {
                games: x,
                median: quantile(&ys, 0.5),
                q1: quantile(&ys, 0.25),
                q3: quantile(&ys, 0.75),
            }
        })
        .collect()
}

fn read_history(dir: &Path) -> Result<Vec<HistoryRow>> {
    let path = dir.join("checkpoint.json");
    let text = stacktune_base::fsutil::read_text(&path)
        .with_context(|| format!("cannot read {}", path.display()))?;
    crate::checkpoint::Checkpoint::history_of(&text)
        .with_context(|| format!("cannot read the history in {}", path.display()))
}

fn write_csv<T: Serialize>(path: &Path, rows: &[T]) -> Result<()> {
    let mut w = csv::Writer::from_writer(Vec::new());
    for row in rows {
        w.serialize(row)?;
    }
    let bytes = w
        .into_inner()
        .with_context(|| format!("cannot build {}", path.display()))?;
    write_atomic(path, &bytes)
}

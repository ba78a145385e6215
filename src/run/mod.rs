//! An evolution run: its config, its folder, its checkpoint, and the loop that owns them.
//!
//! A run is a function of its config (which holds the seed): the loop draws every random
//! number from streams keyed by (seed, purpose, generation, index), scores candidates on
//! common games, and after each generation writes the history, the plots and a checkpoint
//! atomically, so a run stopped at any point resumes to the very same result.

mod executor;
mod observers;
pub mod page;

use crate::backend::{Backend, Batch, GameData, Streams, vector};
use crate::checkpoint::{Checkpoint, Expected};
use crate::eval::LinearPlayer;
use crate::folder::RunFolder;
use crate::fsutil::{clean, write_atomic};
use crate::game::{EpisodeLimits, Game};
use crate::games::GameSpec;
use crate::games::connect::agents::Opponent;
use crate::limits::{self, GAMES, GENERATIONS, HELD_OUT_GAMES, THREADS, check_memory};
use crate::progress::{Mode, Progress};
use crate::replay::{DEFAULT_MOVE_CAP, Replayable};
use crate::report::{HistoryRow, References};
use crate::report_page::{Final, HeldOut};
use crate::rng::{Purpose, stream};
use crate::stats::Summary;
use crate::toml_error::toml_error;
use crate::tune::cem::{CemConfig, CrossEntropy};
use crate::tune::cmaes::{Cmaes, CmaesConfig};
use crate::tune::fitness::Scores;
use crate::tune::ga::{GaConfig, GeneticAlgorithm};
use crate::tune::{OptimizerKind, OptimizerSpec, OptimizerState};
use crate::weights::WeightFile;
use anyhow::{Context, Result, bail};
use executor::{Evaluation, Executor};
use observers::{Display, HistoryFile, Plots, Timings};
use page::ReportPage;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

/// Everything that defines a run. Every field has a default; `run.toml` in a run folder holds
/// the fully resolved config, so `evolve --config run.toml` reproduces the run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RunConfig {
    /// Name of the run: the default folder is `runs/<game>-<name>`.
    pub name: String,
    /// The seed every random draw of the run derives from.
    pub seed: u64,
    /// Generations to evolve.
    pub generations: u64,
    /// Games each candidate plays per generation (the same games for all candidates).
    pub games: u64,
    /// Stop each game after this many pieces (0 = play every game to its end).
    pub max_pieces: u64,
    /// Features to tune, by name (empty = all of the game's features).
    pub features: Vec<String>,
    /// A weights file to start from instead of random weights.
    pub init: Option<PathBuf>,
    /// Held-out games for the best candidate's validation during the run.
    pub validation_games: u64,
    /// Validate every this many generations (and always after the last).
    pub validate_every: u64,
    /// Held-out games of the final validation (the first `validation_games` of them are the
    /// ones validated during the run).
    pub final_games: u64,
    /// Stop each held-out game after this many pieces (0 = play it to its end). Kept apart
    /// from `max_pieces` so that training can be capped for speed while the reported figure
    /// is not.
    pub validation_max_pieces: u64,
    /// Seed of the held-out games: `play --seed <validation_seed>` plays the same games.
    pub validation_seed: u64,
    /// A weights file played on the final held-out games for comparison.
    pub baseline: Option<PathBuf>,
    /// Two-player games: the best weights of the last this many generations join the
    /// opponents of the next (a hall of fame), so that the population is not tuned against
    /// the fixed pool alone (0 = none).
    #[serde(skip_serializing_if = "is_zero")]
    pub hall_of_fame: u64,
    /// Worker threads (0 = one per core). Results never depend on it.
    pub threads: usize,
    /// The game, its size and rules.
    pub game: GameSpec,
    /// Which optimiser tunes the weights.
    pub optimizer: OptimizerSpec,
    /// The genetic algorithm's settings (its defaults when another optimiser runs).
    pub ga: GaConfig,
    /// The cross-entropy method's settings, when it runs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cem: Option<CemConfig>,
    /// CMA-ES's settings, when it runs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cmaes: Option<CmaesConfig>,
}

impl Default for RunConfig {
    /// What a config file leaves unsaid.
    fn default() -> Self {
        RunConfig {
            name: "run".into(),
            seed: 1,
            generations: 20,
            games: 16,
            max_pieces: 0,
            features: Vec::new(),
            init: None,
            validation_games: 100,
            validate_every: 5,
            final_games: 1_000,
            validation_max_pieces: 0,
            validation_seed: 1_000_001,
            baseline: None,
            hall_of_fame: 0,
            threads: 0,
            game: GameSpec::default(),
            optimizer: OptimizerSpec::default(),
            ga: GaConfig::default(),
            cem: None,
            cmaes: None,
        }
    }
}

/// The built-in run's baseline: Dellacherie's weights, the repository's file, with a copy built
/// in so that `evolve` with no arguments works from any directory (an installed binary too).
const BUILTIN_BASELINE: (&str, &str) = (
    "weights/tetris/dellacherie.toml",
    include_str!("../../weights/tetris/dellacherie.toml"),
);

/// A run's baseline weights: the file, or the built-in copy when a path ending in the built-in
/// baseline's is not there (a run.toml names it relative to its own folder).
fn load_baseline(path: &Path) -> Result<WeightFile> {
    if path.ends_with(BUILTIN_BASELINE.0) && !path.exists() {
        return WeightFile::parse(BUILTIN_BASELINE.1);
    }
    WeightFile::load(path)
}

impl RunConfig {
    /// The built-in run of `evolve` with no arguments: Tetris on 10 × 10 from random weights,
    /// sized to finish in a few minutes on two cores, compared with Dellacherie's weights on
    /// 2,000 held-out games.
    pub fn builtin() -> RunConfig {
        RunConfig {
            name: "default".into(),
            max_pieces: 20_000,
            final_games: 2_000,
            baseline: Some(PathBuf::from(BUILTIN_BASELINE.0)),
            game: GameSpec {
                game: Some("tetris".into()),
                width: Some(10),
                height: Some(10),
                ..GameSpec::default()
            },
            ..RunConfig::default()
        }
    }
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl RunConfig {
    /// Reads a config file; unknown keys and bad values are errors naming the file and line.
    /// Relative paths in it name files relative to the file's folder, wherever it is read from.
    pub fn load(path: &Path) -> Result<RunConfig> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read config file {}", path.display()))?;
        if text.parse::<toml::Table>().is_ok_and(|t| t.is_empty()) {
            // A file that says nothing asks for nothing special: the built-in run, not a
            // 10 × 20 run with no piece cap that takes hours.
            return Ok(RunConfig::builtin());
        }
        let mut config = Self::parse(&text)
            .map_err(|e| anyhow::anyhow!("config file {}: {e}", path.display()))?;
        let base = path.parent().unwrap_or(Path::new(""));
        config.map_paths(|p| clean(&base.join(p)));
        Ok(config)
    }

    /// Parses a config's text; an error gives the line and column.
    pub fn parse(text: &str) -> Result<RunConfig> {
        toml::from_str(text).map_err(|e| anyhow::anyhow!("{}", toml_error(text, &e)))
    }

    /// Applies `f` to the file paths the config holds: `init`, `baseline`, and the opponents
    /// that are weights files rather than reference agents.
    fn map_paths(&mut self, f: impl Fn(&Path) -> PathBuf) {
        for path in [&mut self.init, &mut self.baseline].into_iter().flatten() {
            *path = f(path);
        }
        for opponent in &mut self.game.opponents {
            if !Opponent::NAMES.contains(&opponent.as_str()) {
                *opponent = f(Path::new(opponent)).to_string_lossy().into_owned();
            }
        }
    }

    /// The config as `dir/run.toml` stores it: its files named relative to `dir`, so that the
    /// folder can move with the repository and `evolve --config dir/run.toml` still finds them.
    /// A path that names no file (the built-in baseline's) is kept as it is.
    fn to_toml_in(&self, dir: &Path) -> Result<String> {
        let dir = dir
            .canonicalize()
            .with_context(|| format!("cannot read run folder {}", dir.display()))?;
        let mut stored = self.clone();
        stored.map_paths(|p| {
            p.canonicalize()
                .ok()
                .and_then(|p| pathdiff::diff_paths(p, &dir))
                .unwrap_or_else(|| p.to_path_buf())
        });
        Ok(stored.to_toml())
    }

    /// Whether `other` describes the same run: the same settings and files, whatever the
    /// thread count and however the paths are spelled.
    pub fn same_run(&self, other: &RunConfig) -> bool {
        let comparable = |c: &RunConfig| {
            let mut c = RunConfig {
                threads: 0,
                ..c.clone()
            };
            c.map_paths(|p| p.canonicalize().unwrap_or_else(|_| p.to_path_buf()));
            c
        };
        comparable(self) == comparable(other)
    }

    /// Rejects values that cannot run, naming the field.
    pub fn validate(&self) -> Result<()> {
        let name_ok = self.name.starts_with(|c: char| c.is_ascii_alphanumeric())
            && self
                .name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c));
        if !name_ok {
            bail!(
                "name `{}` must be letters, digits, `.`, `_` and `-`, starting with a letter or digit: it names the folder runs/<game>-<name>",
                self.name
            );
        }
        let kind = self.optimizer.kind;
        for (given, table) in [
            (self.cem.is_some() && kind != OptimizerKind::Cem, "cem"),
            (
                self.cmaes.is_some() && kind != OptimizerKind::Cmaes,
                "cmaes",
            ),
        ] {
            if given {
                bail!(
                    "[{table}] settings are given but the optimizer is {}; set [optimizer] kind = \"{table}\" or remove them",
                    kind.name()
                );
            }
        }
        match kind {
            OptimizerKind::Ga => self.ga.validate()?,
            OptimizerKind::Cem => self.cem_config().validate()?,
            OptimizerKind::Cmaes => self.cmaes_config().validate()?,
        }
        limits::check("generations", self.generations, &GENERATIONS)?;
        limits::check("games (per candidate)", self.games, &GAMES)?;
        limits::check("validation_games", self.validation_games, &HELD_OUT_GAMES)?;
        limits::check("final_games", self.final_games, &HELD_OUT_GAMES)?;
        limits::check("threads", self.threads, &THREADS)?;
        if self.game.splitting.is_some() && (self.max_pieces > 0 || self.validation_max_pieces > 0)
        {
            bail!(
                "max_pieces (--max-pieces) and validation_max_pieces cap games, and splitting estimates uncapped ones: set them to 0 or remove splitting"
            );
        }
        if self.validate_every == 0 {
            bail!("validate_every must be at least 1");
        }
        if self.final_games < self.validation_games {
            bail!(
                "final_games ({}) must be at least validation_games ({})",
                self.final_games,
                self.validation_games
            );
        }
        Ok(())
    }

    /// The name of the run's folder, `<game>-<name>`; without `--out` it goes under `runs/`
    /// (with `-2`, `-3`, ... when taken).
    pub fn folder_name(&self) -> String {
        format!("{}-{}", self.game.name(), self.name)
    }

    /// The cross-entropy settings in force (the defaults where the config gives none).
    pub fn cem_config(&self) -> CemConfig {
        self.cem.clone().unwrap_or_default()
    }

    /// CMA-ES's settings in force (the defaults where the config gives none).
    pub fn cmaes_config(&self) -> CmaesConfig {
        self.cmaes.clone().unwrap_or_default()
    }

    /// The chosen optimiser's table filled in, so that run.toml states every setting the run
    /// used.
    pub fn resolved(mut self) -> RunConfig {
        match self.optimizer.kind {
            OptimizerKind::Ga => {}
            OptimizerKind::Cem => self.cem = Some(self.cem_config()),
            OptimizerKind::Cmaes => self.cmaes = Some(self.cmaes_config()),
        }
        self
    }

    /// Candidates per generation for `features` tuned features (CMA-ES with restarts: the
    /// largest population a restart may reach).
    pub fn population(&self, features: usize) -> usize {
        match self.optimizer.kind {
            OptimizerKind::Ga => self.ga.population,
            OptimizerKind::Cem => self.cem_config().population,
            OptimizerKind::Cmaes => {
                let c = self.cmaes_config();
                if c.restarts {
                    crate::tune::cmaes::MAX_POPULATION
                } else {
                    c.lambda(features)
                }
            }
        }
    }

    /// A first state of the chosen optimiser for `dimension` features, from `start` if given.
    fn new_optimizer(&self, dimension: usize, start: Option<&[f64]>) -> OptimizerState {
        let mut rng = stream(self.seed, Purpose::Population, 0, 0);
        match self.optimizer.kind {
            OptimizerKind::Ga => OptimizerState::Ga(GeneticAlgorithm::new(
                self.ga.clone(),
                dimension,
                start,
                &mut rng,
            )),
            OptimizerKind::Cem => OptimizerState::Cem(CrossEntropy::new(
                self.cem_config(),
                dimension,
                start,
                true,
                &mut rng,
            )),
            OptimizerKind::Cmaes => OptimizerState::Cmaes(Cmaes::new(
                self.cmaes_config(),
                dimension,
                start,
                true,
                &mut rng,
            )),
        }
    }

    /// About the memory the run will hold at its largest, in bytes, for `features` tuned
    /// features: every (candidate, game) result of a generation at once (gathered, then
    /// collected), the held-out results, and the population and history with their JSON.
    fn memory_needed(&self, features: usize) -> u64 {
        const RESULT: u64 = 40;
        let candidates = self.population(features) as u64;
        let weights = features as u64 * 8 * 4;
        candidates * self.games * RESULT
            + 2 * self.final_games * RESULT
            + candidates * weights * 2
            + self.generations * (weights + 200)
    }

    fn limits(&self) -> EpisodeLimits {
        EpisodeLimits::capped(self.max_pieces)
    }

    /// The limits of the held-out games.
    pub fn validation_limits(&self) -> EpisodeLimits {
        EpisodeLimits::capped(self.validation_max_pieces)
    }

    /// The `play` command that plays the run's first `games` held-out games with `weights`
    /// (a two-player game: `games` against each opponent).
    pub fn play_command(&self, weights: &Path, games: u64) -> String {
        self.game.play_command(
            weights,
            self.validation_seed,
            games,
            self.validation_max_pieces,
        )
    }

    /// The `play` command of the game a replay of `weights` shows (game 0 of the held-out
    /// games): the run's, or when the run scores splitting estimates, that game played out
    /// and stopped after the `cap` moves the replay stores.
    pub fn replay_command(&self, weights: &Path, cap: u64) -> String {
        if self.game.splitting.is_none() {
            return self.play_command(weights, 1);
        }
        let whole = GameSpec {
            splitting: None,
            ..self.game.clone()
        };
        whole.play_command(weights, self.validation_seed, 1, cap)
    }

    /// The config as TOML, the way `run.toml` stores it.
    pub fn to_toml(&self) -> String {
        toml::to_string(self).expect("a run config serialises")
    }
}

/// The final figures of a run.
#[derive(Clone, Debug)]
pub struct RunResult {
    pub dir: PathBuf,
    pub best: Summary,
    pub baseline: Option<(PathBuf, Summary)>,
}

/// The flag that stops a run after its generation: Ctrl-C's, or a host's ([`host_stop_flag`]).
static STOP: OnceLock<&'static AtomicBool> = OnceLock::new();

/// Raised by Ctrl-C: the loop stops after the current generation's checkpoint is written.
fn stop_flag() -> &'static AtomicBool {
    STOP.get_or_init(|| {
        let flag: &'static AtomicBool = Box::leak(Box::new(AtomicBool::new(false)));
        // Without a handler (another one is installed) Ctrl-C simply ends the process; the
        // last checkpoint is still valid.
        let _ = ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst));
        flag
    })
}

/// The stop flag for a host that handles interrupts itself (the Python package turns
/// KeyboardInterrupt into it): taken before any run, it keeps runs in this process from
/// installing a Ctrl-C handler, which would take SIGINT from the host for good.
pub fn host_stop_flag() -> &'static AtomicBool {
    STOP.get_or_init(|| Box::leak(Box::new(AtomicBool::new(false))))
}

/// Resolves the tuned features' indices in the game's feature list.
fn feature_indices(all: &[&str], wanted: &[String], game: &str) -> Result<Vec<usize>> {
    if wanted.is_empty() {
        return Ok((0..all.len()).collect());
    }
    let mut indices = Vec::new();
    for name in wanted {
        match all.iter().position(|n| n == name) {
            Some(i) if !indices.contains(&i) => indices.push(i),
            Some(_) => bail!("feature `{name}` is named twice"),
            None => bail!(
                "unknown feature `{name}` for game {game}; valid names: {}",
                all.join(", ")
            ),
        }
    }
    Ok(indices)
}

/// Runs (or resumes) the evolution described by `config` in the folder `open` gives. The
/// folder is opened only once the config, its features and its weight files are found good,
/// so a refused run leaves nothing behind.
pub fn evolve<G: Replayable>(
    game: &G,
    config: &RunConfig,
    open: impl FnOnce() -> Result<RunFolder>,
    resume: bool,
    mode: Mode,
    backend: &dyn Backend,
) -> Result<RunResult> {
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
    let expand = |w: &[f64]| expand_to(&indices, all.len(), w);
    if config.hall_of_fame > 0 && game.with_rivals(&[]).is_none() {
        bail!(
            "hall_of_fame needs a two-player game; {} is played alone",
            game.name()
        );
    }
    let baseline = match &config.baseline {
        Some(path) => {
            let file = load_baseline(path)?;
            let player = LinearPlayer::from_file(game, &file)
                .map_err(|e| anyhow::anyhow!("baseline weights {}: {e}", path.display()))?;
            Some((path.clone(), vector(&player, all.len())))
        }
        None => None,
    };
    let data = GameData::new(&config.game)?;

    let start = match &config.init {
        Some(path) if !resume => {
            let file = WeightFile::load(path)?;
            file.check_against(game.name(), all)
                .map_err(|e| anyhow::anyhow!("initial weights {}: {e}", path.display()))?;
            Some(
                names
                    .iter()
                    .map(|n| file.weights.get(n).copied().unwrap_or(0.0))
                    .collect::<Vec<f64>>(),
            )
        }
        _ => None,
    };

    let folder = open()?;
    let dir = &folder.path().to_path_buf();
    let checkpoint_path = dir.join("checkpoint.json");
    let checkpoint = if resume {
        resume_from(dir, config, &names)?
    } else {
        let optimizer = config.new_optimizer(names.len(), start.as_deref());
        write_atomic(&dir.join("run.toml"), config.to_toml_in(dir)?.as_bytes())?;
        let checkpoint = Checkpoint {
            next_generation: 0,
            optimizer,
            history: Vec::new(),
            evaluations: 0,
        };
        write_atomic(&checkpoint_path, checkpoint.seal()?.as_bytes())?;
        checkpoint
    };
    if mode != Mode::Quiet {
        eprintln!("run folder: {}", dir.display());
    }

    let stop = stop_flag();
    let mut evaluation = GameEvaluation {
        game,
        data: &data,
        config,
        indices: &indices,
        stop,
        backend,
    };
    let mut history_file = HistoryFile {
        path: dir.join("history.csv"),
        features: names.clone(),
    };
    let mut plots = Plots {
        dir: dir.clone(),
        title: format!("{} ({}), seed {}", game.name(), game.rules(), config.seed),
        measure: game.score_name(),
        features: names.clone(),
    };
    let mut timings = Timings {
        path: dir.join("timings.csv"),
    };
    let mut page = ReportPage {
        game,
        config,
        dir: dir.clone(),
        features: &names,
        indices: &indices,
        search,
        cap: DEFAULT_MOVE_CAP,
        replayed: None,
    };
    let display = Display::new(mode, config.generations, checkpoint.next_generation);
    let mut executor = Executor {
        checkpoint,
        checkpoint_path,
        generations: config.generations,
        seed: config.seed,
        validate_every: config.validate_every,
        stop,
        resume_hint: format!("stacktune evolve --resume {}", dir.display()),
    };
    let games_progress = |g, candidates| display.games(g, candidates * config.games);
    executor.run(
        &mut evaluation,
        &mut [
            &mut history_file,
            &mut plots,
            &mut timings,
            &mut page,
            &mut &display,
        ],
        games_progress,
    )?;
    display.finish();
    let checkpoint = executor.checkpoint;
    // The final generation's best, on all held-out games, next to the baseline.
    let last = checkpoint
        .history
        .last()
        .expect("at least one generation ran");
    let best_full = expand(&last.best_weights);
    if mode != Mode::Quiet {
        eprintln!(
            "scoring the best weights on {} held-out games",
            config.final_games
        );
    }
    let final_progress = |label: &str| Progress::new(mode, config.final_games, label);
    let held_out = |weights: &[f64], games: u64, progress: &Progress| {
        held_out(backend, &data, weights, games, config, stop, progress)
    };
    let best = held_out(
        &best_full,
        config.final_games,
        &final_progress("held-out games"),
    )?;
    let baseline = match &baseline {
        Some((path, weights)) => Some((
            path.clone(),
            held_out(
                weights,
                config.final_games,
                &final_progress("baseline's held-out games"),
            )?,
        )),
        None => None,
    };
    plots.fitness(
        &checkpoint.history,
        References {
            baseline: baseline.as_ref().map(|(_, b)| b.mean),
            final_best: Some(best.mean),
        },
    )?;
    let mut weights = BTreeMap::new();
    for (name, &w) in names.iter().zip(&last.best_weights) {
        weights.insert(name.clone(), w);
    }
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
    if let Some((_, b)) = &baseline {
        // Kept so that `stacktune report` can show the baseline next to the best.
        put("baseline_mean", b.mean.into());
        put("baseline_ci95", b.ci95.into());
    }
    put("stacktune_version", env!("CARGO_PKG_VERSION").into());
    let file = WeightFile {
        game: game.name().to_string(),
        rules: config.game.rules.clone(),
        width: config.game.width,
        height: config.game.height,
        // The search a file plays under is set when it is shipped, by measurement: tuning
        // runs under a narrow beam, and a file played wider plays better.
        search: None,
        weights,
        meta,
    };
    file.save(&dir.join("best.toml"), all)?;
    let held_out = |s: &Summary| HeldOut {
        mean: s.mean,
        ci95: s.ci95,
        games: s.games as u64,
    };
    page.write(
        &checkpoint.history,
        Some(Final {
            best: held_out(&best),
            baseline: baseline
                .as_ref()
                .map(|(path, b)| (path.display().to_string(), held_out(b))),
        }),
    )?;
    folder.finish()?;
    Ok(RunResult {
        dir: dir.to_path_buf(),
        best,
        baseline,
    })
}

/// Scores generations for the executor: candidates expanded from the tuned features to the
/// game's, handed to the backend as batches of the game's data and the run's streams.
struct GameEvaluation<'a, G> {
    game: &'a G,
    data: &'a GameData,
    config: &'a RunConfig,
    /// The tuned features' indices in the game's feature list.
    indices: &'a [usize],
    stop: &'a AtomicBool,
    backend: &'a dyn Backend,
}

impl<G: Game> Evaluation for GameEvaluation<'_, G> {
    fn score(
        &mut self,
        generation: u64,
        candidates: &[Vec<f64>],
        history: &[HistoryRow],
        progress: &Progress,
    ) -> Result<Option<Scores>> {
        let (config, all) = (self.config, self.game.feature_names().len());
        let expand = |w: &[f64]| expand_to(self.indices, all, w);
        // Two-player games: the last generations' champions join the opponents.
        let champions = &history[history.len().saturating_sub(config.hall_of_fame as usize)..];
        let batch = Batch {
            game: GameData {
                rivals: champions.iter().map(|r| expand(&r.best_weights)).collect(),
                ..self.data.clone()
            },
            players: candidates.iter().map(|w| expand(w)).collect(),
            games: config.games,
            streams: Streams {
                seed: config.seed,
                purpose: Purpose::TrainingGames,
                generation,
            },
            limits: config.limits(),
            threads: config.threads,
        };
        let results = self.backend.play(&batch, self.stop, progress)?;
        Ok(results.map(|results| Scores::of(&results, config.games)))
    }

    fn validate(&mut self, weights: &[f64]) -> Result<f64> {
        let full = expand_to(self.indices, self.game.feature_names().len(), weights);
        let games = self.config.validation_games;
        let summary = held_out(
            self.backend,
            self.data,
            &full,
            games,
            self.config,
            self.stop,
            &Progress::hidden(),
        )?;
        Ok(summary.mean)
    }
}

/// A vector over the tuned features spread over all `len` of the game's (zeros elsewhere).
fn expand_to(indices: &[usize], len: usize, w: &[f64]) -> Vec<f64> {
    let mut full = vec![0.0; len];
    for (&i, &x) in indices.iter().zip(w) {
        full[i] = x;
    }
    full
}

/// Plays `games` held-out games with `weights` (over all the game's features): the same ones
/// `play --seed <validation_seed>` plays.
fn held_out(
    backend: &dyn Backend,
    data: &GameData,
    weights: &[f64],
    games: u64,
    config: &RunConfig,
    stop: &AtomicBool,
    progress: &Progress,
) -> Result<Summary> {
    let batch = Batch {
        game: data.numbered_from(config.validation_seed),
        players: vec![weights.to_vec()],
        games,
        streams: Streams::held_out(config.validation_seed),
        limits: config.validation_limits(),
        threads: config.threads,
    };
    let results = backend
        .play(&batch, stop, progress)?
        .context("stopped during validation; resume with --resume")?;
    Ok(Summary::of_results(&results))
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
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("reports"),
        3,
        &mut runs,
    );
    assert!(runs.len() >= 5, "reference runs: {runs:?}");
    runs
}

/// Whether the run in `dir` is finished: its best.toml is written and its history holds the
/// generations its run.toml asks for (raising `generations` in run.toml makes it resumable).
pub fn is_finished(dir: &Path) -> bool {
    let generations_done = std::fs::read_to_string(dir.join("history.csv"))
        .map_or(0, |text| text.lines().count().saturating_sub(1) as u64);
    dir.join("best.toml").is_file()
        && RunConfig::load(&dir.join("run.toml")).is_ok_and(|c| generations_done >= c.generations)
}

/// The checkpoint of the run in `dir`, checked against its config and history.
fn resume_from(dir: &Path, config: &RunConfig, features: &[String]) -> Result<Checkpoint> {
    let path = dir.join("checkpoint.json");
    let history = match std::fs::read(dir.join("history.csv")) {
        Ok(bytes) => Some(bytes),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => bail!("cannot read {}: {e}", dir.join("history.csv").display()),
    };
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("cannot resume from {}", path.display()))?;
    let expected = Expected {
        config,
        features,
        generations: config.generations,
        history_csv: history.as_deref(),
    };
    Checkpoint::open(&text, &expected).map_err(|e| {
        anyhow::anyhow!(
            "cannot resume from {}: {e:#}; the folder is left as it is",
            path.display()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_key_is_located() {
        let text = "seed = 3\npopulaton = 4\n";
        let e = toml::from_str::<RunConfig>(text).unwrap_err();
        let line = toml_error(text, &e);
        assert!(
            line.starts_with("line 2, column 1: unknown field `populaton`"),
            "{line}"
        );
    }

    #[test]
    fn an_empty_config_is_the_builtin_run() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("empty.toml");
        std::fs::write(&path, "# nothing to say\n\n").unwrap();
        assert_eq!(RunConfig::load(&path).unwrap(), RunConfig::builtin());
        std::fs::write(&path, "seed = 3\n").unwrap();
        assert_eq!(RunConfig::load(&path).unwrap().game.height, None);
    }

    #[test]
    fn configs_round_trip() {
        for c in [RunConfig::default(), RunConfig::builtin()] {
            assert_eq!(toml::from_str::<RunConfig>(&c.to_toml()).unwrap(), c);
        }
    }

    /// The shipped reference runs' checkpoints are sealed, fit their run.toml and history, and
    /// are what the run loop writes.
    #[test]
    fn shipped_checkpoints_fit_their_runs() {
        for dir in reference_runs() {
            let config = RunConfig::load(&dir.join("run.toml")).unwrap();
            let game = config.game.build().unwrap();
            let all = crate::with_game!(&game, g => g.feature_names());
            let indices = feature_indices(all, &config.features, "").unwrap();
            let names: Vec<String> = indices.iter().map(|&i| all[i].to_string()).collect();
            let checkpoint = resume_from(&dir, &config, &names)
                .unwrap_or_else(|e| panic!("{}: {e:#}", dir.display()));
            assert_eq!(checkpoint.next_generation, config.generations);
            // Byte for byte what the run loop writes.
            let text = std::fs::read_to_string(dir.join("checkpoint.json")).unwrap();
            assert_eq!(checkpoint.seal().unwrap(), text, "{}", dir.display());
        }
    }

    #[test]
    fn feature_names_are_checked() {
        let all = ["a", "b", "c"];
        assert_eq!(feature_indices(&all, &[], "g").unwrap(), vec![0, 1, 2]);
        assert_eq!(
            feature_indices(&all, &["c".into(), "a".into()], "g").unwrap(),
            vec![2, 0]
        );
        assert_eq!(
            feature_indices(&all, &["d".into()], "g")
                .unwrap_err()
                .to_string(),
            "unknown feature `d` for game g; valid names: a, b, c"
        );
    }
}

//! A run's config: everything that defines a run, read from and written to `run.toml`.
//!
//! A run is a function of its config (which holds the seed), so this is the one place that
//! says what a run may ask for, which values are refused, and how the file names its files.

use super::match_fitness::MatchSettings;
use crate::report::HistoryRow;
use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};
use stacktune_base::fsutil::clean;
use stacktune_base::limits::{self, GAMES, GENERATIONS, HELD_OUT_GAMES, THREADS};
use stacktune_base::rng::{Purpose, stream};
use stacktune_base::toml_error::toml_error;
use stacktune_game::EpisodeLimits;
use stacktune_games::settings::GameSpec;
use stacktune_players::registry::Build;
use stacktune_tune::cem::CemConfig;
use stacktune_tune::cmaes::CmaesConfig;
use stacktune_tune::external::ExternalConfig;
use stacktune_tune::ga::GaConfig;
use stacktune_tune::spsa::SpsaConfig;
use stacktune_tune::{OptimizerConfig, OptimizerKind, OptimizerSpec, OptimizerState};
use std::path::{Path, PathBuf};

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
    /// Which generation's weights the run keeps as its best (best.toml, the page's replays).
    #[serde(skip_serializing_if = "Keep::is_last")]
    pub keep: Keep,
    /// Two-player games: the best weights of the last this many generations join the
    /// opponents of the next (a hall of fame), so that the population is not tuned against
    /// the fixed pool alone (0 = none).
    #[serde(skip_serializing_if = "is_zero")]
    pub hall_of_fame: u64,
    /// Two-player games: fitness from matches (against the generation's peers, the hall of
    /// fame and the game's opponents as anchors), a rating fitted to them, instead of the mean
    /// score against the opponents; `games` is then the games of each pairing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matches: Option<MatchSettings>,
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
    /// SPSA's settings, when it runs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spsa: Option<SpsaConfig>,
    /// The outside optimiser's name and population, when one drives the run from Python.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub external: Option<ExternalConfig>,
    /// A game a host plays (a Python class): its games are the host's, `[game]` is unused.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hosted: Option<HostedSpec>,
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
            keep: Keep::Last,
            hall_of_fame: 0,
            matches: None,
            threads: 0,
            game: GameSpec::default(),
            optimizer: OptimizerSpec::default(),
            ga: GaConfig::default(),
            cem: None,
            cmaes: None,
            spsa: None,
            external: None,
            hosted: None,
        }
    }
}

/// A run's `keep`: which generation's weights become best.toml.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Keep {
    /// The last generation's: where the optimiser ended.
    #[default]
    Last,
    /// The validated generation whose held-out score was highest (the last on a tie): a noisy
    /// fitness (matches, self-play, a few games a candidate) can carry the search past its
    /// best, and the held-out games are what the run reports anyway.
    Validated,
}

impl Keep {
    fn is_last(&self) -> bool {
        *self == Keep::Last
    }

    /// The row of `history` whose best weights the run keeps; `None` for an empty history.
    pub fn row(self, history: &[HistoryRow]) -> Option<&HistoryRow> {
        let last = history.last()?;
        Some(match self {
            Keep::Last => last,
            Keep::Validated => history
                .iter()
                .filter_map(|r| Some((r.validation?, r)))
                .max_by(|a, b| a.0.total_cmp(&b.0))
                .map_or(last, |(_, r)| r),
        })
    }
}

/// The built-in run's baseline: Dellacherie's weights, the repository's file, with a copy built
/// in so that `evolve` with no arguments works from any directory (an installed binary too).
pub(super) const BUILTIN_BASELINE: (&str, &str) = (
    "weights/tetris/dellacherie.toml",
    include_str!("../data/dellacherie.toml"),
);

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

/// `[hosted]` in run.toml: the game a host plays, so that a resumed run is given the same one.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HostedSpec {
    /// The game's short name (best.toml's `game`, the folder's `runs/<name>-<run>`).
    pub name: String,
    /// Where the host finds it (a Python class as `module:QualName`).
    pub class: String,
}

impl HostedSpec {
    pub fn validate(&self) -> Result<()> {
        if !folder_word(&self.name) {
            bail!(
                "hosted game name `{}` must be letters, digits, `.`, `_` and `-`, starting with a letter or digit: it names the folder runs/<game>-<name>",
                self.name
            );
        }
        if self.class.trim().is_empty() {
            bail!("[hosted] class must say where the game is (module:Class)");
        }
        Ok(())
    }
}

/// Whether `name` may be part of a run folder's name (`runs/<game>-<name>`): letters, digits,
/// `.`, `_` and `-`, starting with a letter or digit, so that it is one plain path component.
fn folder_word(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_alphanumeric())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl RunConfig {
    /// Reads a config file; unknown keys and bad values are errors naming the file and line.
    /// Relative paths in it name files relative to the file's folder, wherever it is read from.
    pub fn load(path: &Path) -> Result<RunConfig> {
        let text = stacktune_base::fsutil::read_text(path)
            .with_context(|| format!("cannot read config file {}", path.display()))?;
        if sets_nothing(&text) {
            // An empty file is a slip (a file not saved, the wrong path), not a request: the
            // defaults of every field make a 10 × 20 run with no piece cap that takes hours.
            bail!(
                "config file {} sets nothing: give a run's settings (reports/tetris-default/run.toml holds the built-in run's), or leave out --config for the built-in run",
                path.display()
            );
        }
        let base = path.parent().unwrap_or(Path::new(""));
        Self::parse_in(&text, base)
            .map_err(|e| anyhow::anyhow!("config file {}: {e}", path.display()))
    }

    /// Parses a config's text whose relative paths name files relative to `base` (the folder
    /// of the file it was read from): how run.toml and the settings a checkpoint keeps are read.
    pub(crate) fn parse_in(text: &str, base: &Path) -> Result<RunConfig> {
        let mut config = Self::parse(text)?;
        config.map_paths(|p| clean(&base.join(p)));
        Ok(config)
    }

    /// The config `evolve --config` runs for a file of `text` and no flags, its paths as
    /// written (a host holds the files they name: a browser).
    pub fn from_text(text: &str) -> Result<RunConfig> {
        if sets_nothing(text) {
            bail!("the run config sets nothing: give a run's settings");
        }
        let config = Self::parse(text)?;
        if config.optimizer.kind == OptimizerKind::External && config.external.is_none() {
            bail!("[optimizer] kind = \"external\" needs an [external] table");
        }
        Ok(config.resolved())
    }

    /// A config held in memory (a host's dict, as a TOML table), read as [`load`] reads a
    /// file, relative paths in it being the working folder's: nothing is written anywhere, and
    /// an error names the key (`ga.population`), since there is no file whose line to give.
    pub fn from_table(table: toml::Table) -> Result<RunConfig> {
        if table.is_empty() {
            return Ok(RunConfig::builtin());
        }
        let mut config: RunConfig = serde_path_to_error::deserialize(toml::Value::Table(table))
            .map_err(|e| {
                // toml adds a line naming the key, which the path names already.
                let inner = e.inner().to_string();
                let what = inner.lines().next().unwrap_or_default();
                match e.path().to_string().as_str() {
                    "." => anyhow::anyhow!("run config: {what}"),
                    key => anyhow::anyhow!("run config key `{key}`: {what}"),
                }
            })?;
        config.map_paths(clean);
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
        let files = self.game.weight_files();
        for opponent in &mut self.game.opponents {
            if files.contains(opponent) {
                *opponent = f(Path::new(opponent)).to_string_lossy().into_owned();
            }
        }
    }

    /// The config as `dir/run.toml` stores it: its files named relative to `dir`, so that the
    /// folder can move with the repository and `evolve --config dir/run.toml` still finds them.
    /// A path that names no file (the built-in baseline's) is kept as it is.
    pub(super) fn to_toml_in(&self, dir: &Path) -> Result<String> {
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

    /// The run's settings as its checkpoint keeps them, to compare a resumed run's run.toml
    /// with: the config as `dir/run.toml` stores it (as given when the run has no folder), with
    /// the thread count left out, so that the checkpoint's bytes do not depend on it.
    pub(super) fn settings_in(&self, dir: Option<&Path>) -> Result<String> {
        let canonical = RunConfig {
            threads: 0,
            ..self.clone()
        };
        match dir {
            Some(dir) => canonical.to_toml_in(dir),
            None => Ok(canonical.to_toml()),
        }
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

    /// The first setting in which this config differs from `started` other than what a resume
    /// may change (`generations`, `threads`), with both values: the field's dotted name, its
    /// value here and in `started` (paths compared as the files they name).
    pub fn changed_since(&self, started: &RunConfig) -> Option<(String, String, String)> {
        let comparable = |c: &RunConfig| {
            let mut c = RunConfig {
                threads: 0,
                generations: 0,
                ..c.clone()
            };
            c.map_paths(|p| p.canonicalize().unwrap_or_else(|_| p.to_path_buf()));
            toml::Value::try_from(c).expect("a run config serialises")
        };
        first_difference("", &comparable(self), &comparable(started))
    }

    /// Rejects values that cannot run, naming the field.
    pub fn validate(&self) -> Result<()> {
        if !folder_word(&self.name) {
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
            (self.spsa.is_some() && kind != OptimizerKind::Spsa, "spsa"),
            (
                self.external.is_some() && kind != OptimizerKind::External,
                "external",
            ),
        ] {
            if given {
                bail!(
                    "[{table}] settings are given but the optimizer is {}; set [optimizer] kind = \"{table}\" or remove them",
                    kind.name()
                );
            }
        }
        self.optimizer_config().validate()?;
        if let Some(hosted) = &self.hosted {
            hosted.validate()?;
            if self.game != GameSpec::default() {
                bail!(
                    "[game] settings are for the built-in games; the hosted game {} takes none",
                    hosted.name
                );
            }
            if self.max_pieces == 0 || self.validation_max_pieces == 0 {
                bail!(
                    "the hosted game {} is played with a move cap: set max_pieces and validation_max_pieces above 0",
                    hosted.name
                );
            }
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
        if let Some(m) = &self.matches {
            if m.peers == Some(0) {
                bail!("[matches] peers must be at least 1 (leave it out for a round robin)");
            }
            if !(m.prior.is_finite() && m.prior > 0.0) {
                bail!(
                    "[matches] prior must be a positive number of virtual games, not {}",
                    m.prior
                );
            }
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
        if let Some(hosted) = &self.hosted {
            return format!("{}-{}", hosted.name, self.name);
        }
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

    /// SPSA's settings in force (the defaults where the config gives none).
    pub fn spsa_config(&self) -> SpsaConfig {
        self.spsa.clone().unwrap_or_default()
    }

    /// `p` candidates a generation for the chosen optimiser (`--population`): its table's
    /// population (SPSA's pairs, half of it).
    pub fn set_population(&mut self, p: usize) -> Result<()> {
        match self.optimizer.kind {
            OptimizerKind::Ga => self.ga.population = p,
            OptimizerKind::Cem => {
                self.cem = Some(CemConfig {
                    population: p,
                    ..self.cem_config()
                })
            }
            OptimizerKind::Cmaes => {
                self.cmaes = Some(CmaesConfig {
                    population: p,
                    ..self.cmaes_config()
                })
            }
            OptimizerKind::Spsa if p % 2 == 1 => {
                bail!("--population {p}: SPSA plays its candidates in pairs; give an even number")
            }
            OptimizerKind::Spsa => {
                self.spsa = Some(SpsaConfig {
                    pairs: p / 2,
                    ..self.spsa_config()
                })
            }
            OptimizerKind::External => {
                self.external = Some(ExternalConfig {
                    population: p,
                    ..self.external.clone().unwrap_or_default()
                })
            }
        }
        Ok(())
    }

    /// The chosen optimiser's table filled in, so that run.toml states every setting the run
    /// used, and the GA's elitism and tournament brought within its population.
    pub fn resolved(mut self) -> RunConfig {
        if self.ga.elitism >= self.ga.population {
            self.ga.elitism = self.ga.population.saturating_sub(1).min(self.ga.elitism);
        }
        self.ga.tournament = self.ga.tournament.min(self.ga.population.max(1));
        match self.optimizer.kind {
            OptimizerKind::Ga => {}
            OptimizerKind::Cem => self.cem = Some(self.cem_config()),
            OptimizerKind::Cmaes => self.cmaes = Some(self.cmaes_config()),
            OptimizerKind::Spsa => self.spsa = Some(self.spsa_config()),
            OptimizerKind::External => {
                self.external = Some(self.external.clone().unwrap_or_default())
            }
        }
        self
    }

    /// The chosen optimiser with its settings (the defaults where the config gives none).
    pub fn optimizer_config(&self) -> OptimizerConfig {
        match self.optimizer.kind {
            OptimizerKind::Ga => OptimizerConfig::Ga(self.ga.clone()),
            OptimizerKind::Cem => OptimizerConfig::Cem(self.cem_config()),
            OptimizerKind::Cmaes => OptimizerConfig::Cmaes(self.cmaes_config()),
            OptimizerKind::Spsa => OptimizerConfig::Spsa(self.spsa_config()),
            OptimizerKind::External => {
                OptimizerConfig::External(self.external.clone().unwrap_or_default())
            }
        }
    }

    /// Candidates per generation for `features` tuned features (CMA-ES with restarts: the
    /// largest population a restart may reach).
    pub fn population(&self, features: usize) -> usize {
        self.optimizer_config().population(features)
    }

    /// A first state of the chosen optimiser for `dimension` features, from `start` if given.
    pub(super) fn new_optimizer(&self, dimension: usize, start: Option<&[f64]>) -> OptimizerState {
        let mut rng = stream(self.seed, Purpose::Population, 0, 0);
        self.optimizer_config().start(dimension, start, &mut rng)
    }

    /// About the memory the run will hold at its largest, in bytes, for `features` tuned
    /// features: every (candidate, game) result of a generation at once (gathered, then
    /// collected), the held-out results, and the population and history with their JSON.
    pub(super) fn memory_needed(&self, features: usize) -> u64 {
        const RESULT: u64 = 40;
        let candidates = self.population(features) as u64;
        let weights = features as u64 * 8 * 4;
        candidates * self.games * RESULT
            + 2 * self.final_games * RESULT
            + candidates * weights * 2
            + self.generations * (weights + 200)
    }

    /// The limits of the training games.
    pub(super) fn limits(&self) -> EpisodeLimits {
        EpisodeLimits::capped(self.max_pieces)
    }

    /// The limits of the held-out games.
    pub fn validation_limits(&self) -> EpisodeLimits {
        EpisodeLimits::capped(self.validation_max_pieces)
    }

    /// The `play` command that plays the run's first `games` held-out games with `weights`
    /// (a two-player game: `games` against each opponent).
    pub fn play_command(&self, weights: &Path, games: u64) -> String {
        if let Some(hosted) = &self.hosted {
            // The host plays the game: the Python call that plays these games.
            return format!(
                "stacktune.custom.play_games({}, <weights of {}>, range({}, {}), max_moves={})",
                hosted.class,
                weights.display(),
                self.validation_seed,
                self.validation_seed + games,
                self.validation_max_pieces
            );
        }
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

/// Whether a config's text sets nothing (a slip, not a request for every field's default).
fn sets_nothing(text: &str) -> bool {
    text.parse::<toml::Table>().is_ok_and(|t| t.is_empty())
}

/// The first key (dotted, under `prefix`) whose value differs between `now` and `then`, with
/// the two values (`absent` where a key is missing).
fn first_difference(
    prefix: &str,
    now: &toml::Value,
    then: &toml::Value,
) -> Option<(String, String, String)> {
    if let (toml::Value::Table(a), toml::Value::Table(b)) = (now, then) {
        let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
        keys.sort();
        keys.dedup();
        return keys.into_iter().find_map(|key| {
            let name = match prefix {
                "" => key.clone(),
                _ => format!("{prefix}.{key}"),
            };
            match (a.get(key), b.get(key)) {
                (Some(x), Some(y)) => first_difference(&name, x, y),
                (x, y) if x == y => None,
                (x, y) => {
                    let shown =
                        |v: Option<&toml::Value>| v.map_or("absent".into(), |v| v.to_string());
                    Some((name, shown(x), shown(y)))
                }
            }
        });
    }
    (now != then).then(|| (prefix.to_string(), now.to_string(), then.to_string()))
}

/// Resolves the tuned features' indices in the game's feature list.
pub(super) fn feature_indices(all: &[&str], wanted: &[String], game: &str) -> Result<Vec<usize>> {
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
    fn an_empty_config_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("empty.toml");
        std::fs::write(&path, "# nothing to say\n\n").unwrap();
        assert_eq!(
            RunConfig::load(&path).unwrap_err().to_string(),
            format!(
                "config file {} sets nothing: give a run's settings (reports/tetris-default/run.toml holds the built-in run's), or leave out --config for the built-in run",
                path.display()
            )
        );
        std::fs::write(&path, "seed = 3\n").unwrap();
        assert_eq!(RunConfig::load(&path).unwrap().game.height, None);
    }

    #[test]
    fn configs_round_trip() {
        for c in [RunConfig::default(), RunConfig::builtin()] {
            assert_eq!(toml::from_str::<RunConfig>(&c.to_toml()).unwrap(), c);
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

//! `evolve`'s work as a library: the run its flags and config ask for, or the one it resumes,
//! for the command line (which prints its summary) and the Python package (which returns it).

use crate::HostedSpec;
use crate::backend::Backend;
use crate::folder::RunFolder;
use crate::hosted::{HostBackend, HostedGame};
use crate::{Driver, RunConfig, RunResult, evolve, rerun_of_finished};
use anyhow::{Result, bail};
use stacktune_base::progress::Mode;
use stacktune_game::Game;
use stacktune_games::settings::GameSpec;
use stacktune_players::registry::Build;
use stacktune_players::with_game;
use stacktune_tune::OptimizerKind;
use stacktune_tune::cem::CemConfig;
use stacktune_tune::cmaes::CmaesConfig;
use stacktune_tune::external::ExternalConfig;
use stacktune_tune::spsa::SpsaConfig;
use std::path::{Path, PathBuf};

/// Where runs go without `--out`: a folder of the user's, listed in .gitignore in the
/// repository, apart from the shipped reference runs in reports/.
pub const RUNS: &str = "runs";

#[derive(Debug, Default)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct EvolveArgs {
    /// Run config (TOML); flags below override its fields. Without it, the built-in default.
    #[cfg_attr(feature = "clap", arg(long))]
    pub config: Option<PathBuf>,
    /// A run config held in memory (a host's dict), read as `--config` reads a file.
    #[cfg_attr(feature = "clap", arg(skip))]
    pub given: Option<Box<RunConfig>>,
    #[cfg_attr(feature = "clap", command(flatten))]
    pub game: GameSpec,
    /// Features to tune, comma-separated (default: all of the game's).
    #[cfg_attr(feature = "clap", arg(long, value_delimiter = ','))]
    pub features: Option<Vec<String>>,
    /// Optimiser: ga (genetic algorithm, the default), cem (noisy cross-entropy), cmaes
    /// (CMA-ES) or spsa (perturbation pairs, for noisy match results); its settings are the
    /// config's [ga], [cem], [cmaes] or [spsa] table.
    #[cfg_attr(feature = "clap", arg(long, value_enum))]
    pub optimizer: Option<OptimizerKind>,
    /// Candidates per generation (2 to 10,000) of the chosen optimiser.
    #[cfg_attr(feature = "clap", arg(long))]
    pub population: Option<usize>,
    /// Generations to evolve (1 to 1,000,000).
    #[cfg_attr(feature = "clap", arg(long))]
    pub generations: Option<u64>,
    /// Games per candidate per generation (1 to 100,000).
    #[cfg_attr(feature = "clap", arg(long))]
    pub games: Option<u64>,
    /// Stop each game after this many pieces (0 = never).
    #[cfg_attr(feature = "clap", arg(long))]
    pub max_pieces: Option<u64>,
    /// Seed of the run.
    #[cfg_attr(feature = "clap", arg(long))]
    pub seed: Option<u64>,
    /// Name of the run: letters, digits, `.`, `_`, `-` (folder runs/<game>-<name>).
    #[cfg_attr(feature = "clap", arg(long))]
    pub name: Option<String>,
    /// Two-player games: the best weights of the last N generations join the opponents.
    #[cfg_attr(feature = "clap", arg(long, value_name = "N"))]
    pub hall_of_fame: Option<u64>,
    /// Worker threads (0 = one per core, at most 256); results do not depend on it.
    #[cfg_attr(feature = "clap", arg(long))]
    pub threads: Option<usize>,
    /// Run folder: new or empty (default: a new folder runs/<game>-<name>, or -2, -3, ...).
    #[cfg_attr(feature = "clap", arg(long))]
    pub out: Option<PathBuf>,
    /// With --out: move what the folder holds aside to <folder>.old-<date> first (never
    /// deletes it).
    #[cfg_attr(feature = "clap", arg(long, requires = "out"))]
    pub force: bool,
    /// Continue the interrupted run in this folder.
    #[cfg_attr(feature = "clap", arg(long, conflicts_with = "config"))]
    pub resume: Option<PathBuf>,
    /// No progress display.
    #[cfg_attr(feature = "clap", arg(long))]
    pub quiet: bool,
    /// Turn off what the config turns on.
    #[cfg_attr(feature = "clap", command(flatten))]
    pub off: Off,
}

/// Flags that turn off a setting a config file turned on (`bag7 = true` and `--no-bag7`).
#[derive(Debug, Default)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct Off {
    /// Draw tetris pieces independently even if the config says bag7.
    #[cfg_attr(feature = "clap", arg(long, conflicts_with = "bag7"))]
    pub no_bag7: bool,
    /// Do not offer top-outs even if the config allows them.
    #[cfg_attr(feature = "clap", arg(long, conflicts_with = "allow_topout"))]
    pub no_allow_topout: bool,
    /// Hide the next piece even if the config shows it.
    #[cfg_attr(feature = "clap", arg(long, conflicts_with = "preview"))]
    pub no_preview: bool,
    /// No contest all-clear bonus even if the config scores it.
    #[cfg_attr(feature = "clap", arg(long, conflicts_with = "all_clear"))]
    pub no_all_clear: bool,
}

impl EvolveArgs {
    /// The config file (or the default) with the flags applied.
    fn resolve(&self) -> Result<RunConfig> {
        let mut c = match (&self.config, &self.given) {
            (Some(path), _) => RunConfig::load(path)?,
            (None, Some(given)) => (**given).clone(),
            (None, None) => RunConfig::builtin(),
        };
        let g = &self.game;
        let other_rules = g.rules.is_some() && g.rules != c.game.rules;
        if (g.game.is_some() && g.game != c.game.game) || other_rules {
            // Another game or ruleset: its own defaults, not the default run's Tetris size
            // and baseline.
            let game = g.game.clone().or(c.game.game.clone());
            c.game = GameSpec::default();
            c.baseline = None;
            c.game.game = game;
        }
        macro_rules! set {
            ($field:expr, $flag:expr) => {
                if let Some(v) = $flag.clone() {
                    $field = v;
                }
            };
        }
        overlay(&mut c.game, g);
        for (setting, on, off) in [
            (&mut c.game.bag7, g.bag7, self.off.no_bag7),
            (
                &mut c.game.allow_topout,
                g.allow_topout,
                self.off.no_allow_topout,
            ),
            (&mut c.game.preview, g.preview, self.off.no_preview),
            (&mut c.game.all_clear, g.all_clear, self.off.no_all_clear),
        ] {
            *setting = (*setting || on) && !off;
        }
        set!(c.features, self.features);
        if let Some(kind) = self.optimizer {
            c.optimizer.kind = kind;
        }
        if let Some(p) = self.population {
            match c.optimizer.kind {
                OptimizerKind::Ga => c.ga.population = p,
                OptimizerKind::Cem => {
                    c.cem = Some(CemConfig {
                        population: p,
                        ..c.cem_config()
                    })
                }
                OptimizerKind::Cmaes => {
                    c.cmaes = Some(CmaesConfig {
                        population: p,
                        ..c.cmaes_config()
                    })
                }
                OptimizerKind::Spsa if p % 2 == 1 => {
                    bail!(
                        "--population {p}: SPSA plays its candidates in pairs; give an even number"
                    )
                }
                OptimizerKind::Spsa => {
                    c.spsa = Some(SpsaConfig {
                        pairs: p / 2,
                        ..c.spsa_config()
                    })
                }
                OptimizerKind::External => {
                    c.external = Some(ExternalConfig {
                        population: p,
                        ..c.external.clone().unwrap_or_default()
                    })
                }
            }
        }
        set!(c.generations, self.generations);
        set!(c.games, self.games);
        set!(c.max_pieces, self.max_pieces);
        set!(c.seed, self.seed);
        set!(c.name, self.name);
        set!(c.hall_of_fame, self.hall_of_fame);
        set!(c.threads, self.threads);
        if c.optimizer.kind == OptimizerKind::External && c.external.is_none() {
            bail!(
                "[optimizer] kind = \"external\" needs an [external] table: name = \"...\" (the optimiser, as run.toml records it) and population = N (candidates a generation)"
            );
        }
        Ok(c.resolved())
    }
}

/// The game flags given on the command line over the config's game settings: a flag given
/// wins, one not given leaves the config's value.
fn overlay(spec: &mut GameSpec, flags: &GameSpec) {
    spec.width = flags.width.or(spec.width);
    spec.height = flags.height.or(spec.height);
    spec.rules = flags.rules.clone().or(spec.rules.clone());
    spec.fitness = flags.fitness.clone().or(spec.fitness.clone());
    spec.colours = flags.colours.or(spec.colours);
    spec.inarow = flags.inarow.or(spec.inarow);
    spec.depth = flags.depth.or(spec.depth);
    spec.endgame = flags.endgame.or(spec.endgame);
    spec.opponent_depth = flags.opponent_depth.or(spec.opponent_depth);
    spec.beam_width = flags.beam_width.or(spec.beam_width);
    spec.samples = flags.samples.or(spec.samples);
    spec.unseen = flags.unseen.or(spec.unseen);
    spec.fired = flags.fired.or(spec.fired);
    spec.nodes = flags.nodes.or(spec.nodes);
    spec.pairs_shown = flags.pairs_shown.or(spec.pairs_shown);
    spec.level = flags.level.or(spec.level);
    spec.turns = flags.turns.or(spec.turns);
    spec.splitting = flags.splitting.or(spec.splitting);
    spec.mode = flags.mode.clone().or(spec.mode.clone());
    spec.previews = flags.previews.or(spec.previews);
    spec.attack = flags.attack.clone().or(spec.attack.clone());
    spec.garbage_delay = flags.garbage_delay.or(spec.garbage_delay);
    spec.garbage_cap = flags.garbage_cap.or(spec.garbage_cap);
    spec.messiness = flags.messiness.or(spec.messiness);
    spec.margin = flags.margin.or(spec.margin);
    spec.margin_increase = flags.margin_increase.or(spec.margin_increase);
    spec.think_ms = flags.think_ms.or(spec.think_ms);
    spec.timeout_ms = flags.timeout_ms.or(spec.timeout_ms);
    spec.no_hold |= flags.no_hold;
    spec.no_lock_out |= flags.no_lock_out;
    if !flags.opponents.is_empty() {
        spec.opponents = flags.opponents.clone();
    }
}

/// Runs (or resumes) the evolution `args` asks for and returns its config, its result and how
/// many opponents its held-out games met (0 for a one-player game): what `run` prints, and what
/// the Python package's `evolve` returns.
pub fn execute(args: EvolveArgs, backend: &dyn Backend) -> Result<(RunConfig, RunResult, u64)> {
    execute_driven(args, backend, None)
}

/// A run's folder opener and config, with the hosted game a host plays (which a resumed run's
/// run.toml must name): read from `--resume`'s folder, or resolved from the flags.
fn config_and_folder(
    args: &EvolveArgs,
    hosted: Option<&HostedSpec>,
) -> Result<(RunConfig, Opener)> {
    Ok(match &args.resume {
        Some(dir) => {
            let overrides = args.config.is_some()
                || args.given.is_some()
                || args.game != GameSpec::default()
                || args.features.is_some()
                || args.population.is_some()
                || args.optimizer.is_some()
                || args.generations.is_some()
                || args.games.is_some()
                || args.max_pieces.is_some()
                || args.seed.is_some()
                || args.hall_of_fame.is_some()
                || args.name.is_some()
                || args.out.is_some()
                || args.off.no_bag7
                || args.off.no_allow_topout
                || args.off.no_preview
                || args.off.no_all_clear;
            if overrides {
                bail!(
                    "--resume continues the run as its run.toml says; only --threads and --quiet may be given with it"
                );
            }
            // Locked before reading: no other process may change the folder while it is checked.
            let folder = RunFolder::resume(dir, rerun_of_finished)?;
            let mut config = RunConfig::load(&folder.path().join("run.toml"))?;
            if hosted.is_some() && config.hosted.as_ref() != hosted {
                let was = config
                    .hosted
                    .as_ref()
                    .map_or("a built-in game".into(), |h| h.class.clone());
                bail!(
                    "{} is a run of {was}; it resumes with that game",
                    dir.display()
                );
            }
            if let Some(t) = args.threads {
                config.threads = t;
            }
            (config, Box::new(move || Ok(folder)))
        }
        None => {
            let mut config = args.resolve()?;
            if let Some(spec) = hosted {
                config.hosted = Some(spec.clone());
                config.validate()?;
            }
            let open: Box<dyn FnOnce() -> Result<RunFolder>> = match &args.out {
                Some(dir) => {
                    let (dir, force, config) = (dir.clone(), args.force, config.clone());
                    Box::new(move || {
                        RunFolder::claim(&dir, force, |run_toml: &Path| {
                            RunConfig::load(run_toml).is_ok_and(|old| old.same_run(&config))
                        })
                    })
                }
                None => {
                    let name = config.folder_name();
                    Box::new(move || RunFolder::create_new(Path::new(RUNS), &name))
                }
            };
            (config, open)
        }
    })
}

/// Opens (claims, creates or locks) a run's folder once the run is found good.
type Opener = Box<dyn FnOnce() -> Result<RunFolder>>;

/// [`execute`] for a game a host plays (a Python class): its games go to the host through
/// `backend`, and everything else is a run's as ever.
pub fn execute_hosted(args: EvolveArgs, game: &HostedGame) -> Result<(RunConfig, RunResult)> {
    let mode = Mode::detect(args.quiet);
    let (config, open) = config_and_folder(&args, Some(&game.spec))?;
    let backend = HostBackend {
        player: game.player(),
    };
    let result = evolve(
        game,
        &config,
        open,
        args.resume.is_some(),
        mode,
        &backend,
        None,
    )?;
    Ok((config, result))
}

/// [`execute`] with a host handing in each generation's candidates (Python's
/// `stacktune.Run`), so that a driven run claims, resumes and writes its folder as `evolve`
/// does.
pub fn execute_driven(
    args: EvolveArgs,
    backend: &dyn Backend,
    driver: Option<&mut dyn Driver>,
) -> Result<(RunConfig, RunResult, u64)> {
    let mode = Mode::detect(args.quiet);
    let (config, open) = config_and_folder(&args, None)?;
    if let Some(hosted) = &config.hosted {
        bail!(
            "this run plays {}, a game of Python's ({}): run it with stacktune.custom.evolve",
            hosted.name,
            hosted.class
        );
    }
    let any = config.game.build()?;
    let (result, opponents) = with_game!(&any, g => (
        evolve(g, &config, open, args.resume.is_some(), mode, backend, driver)?,
        g.opponents().len() as u64
    ));
    Ok((config, result, opponents))
}

//! `evolve`'s work as a library: the run its flags and config ask for, or the one it resumes,
//! for the command line (which prints its summary) and the Python package (which returns it).

use crate::HostedSpec;
use crate::backend::Backend;
use crate::folder::RunFolder;
use crate::hosted::{HostBackend, HostedGame};
use crate::{Driver, RunConfig, RunResult, evolve, rerun_of_finished};
use anyhow::{Result, bail};
use stacktune_base::progress::Mode;
use stacktune_game::Episodes;
use stacktune_games::settings::{GameSpec, Off};
use stacktune_players::registry::Build;
use stacktune_players::with_game;
use stacktune_tune::OptimizerKind;
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
    #[cfg_attr(feature = "clap", command(flatten))]
    pub run: RunFlags,
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

/// Declares `evolve`'s flags for a run's own settings once: each `flag: Type` with its help,
/// and `=> key` where the flag sets run.toml's `key` as it is (the others are read by
/// [`EvolveArgs::resolve`]).
macro_rules! run_flags {
    ($(
        $(#[$attr:meta])*
        $flag:ident: $ty:ty $(=> $key:ident)?;
    )*) => {
        /// The flags that set a run's own settings (the game's are [`GameSpec`]'s).
        #[derive(Debug, Default, PartialEq)]
        #[cfg_attr(feature = "clap", derive(clap::Args))]
        pub struct RunFlags {
            $(
                $(#[$attr])*
                #[cfg_attr(feature = "clap", arg(long))]
                pub $flag: Option<$ty>,
            )*
        }

        impl RunFlags {
            /// Whether any was given.
            pub fn any(&self) -> bool {
                false $(|| self.$flag.is_some())*
            }

            /// The flags that set a run.toml key as it is, over `config`'s.
            fn set(&self, config: &mut RunConfig) {
                $($(
                    if let Some(value) = &self.$flag {
                        config.$key = value.clone();
                    }
                )?)*
            }
        }
    };
}

run_flags! {
    /// Features to tune, comma-separated (default: all of the game's).
    #[cfg_attr(feature = "clap", arg(value_delimiter = ','))]
    features: Vec<String> => features;
    /// Optimiser: ga (genetic algorithm, the default), cem (noisy cross-entropy), cmaes
    /// (CMA-ES) or spsa (perturbation pairs, for noisy match results); its settings are the
    /// config's [ga], [cem], [cmaes] or [spsa] table.
    #[cfg_attr(feature = "clap", arg(value_enum))]
    optimizer: OptimizerKind;
    /// Candidates per generation (2 to 10,000) of the chosen optimiser.
    population: usize;
    /// Generations to evolve (1 to 1,000,000).
    generations: u64 => generations;
    /// Games per candidate per generation (1 to 100,000).
    games: u64 => games;
    /// Stop each game after this many pieces (0 = never).
    max_pieces: u64 => max_pieces;
    /// Seed of the run.
    seed: u64 => seed;
    /// Name of the run: letters, digits, `.`, `_`, `-` (folder runs/<game>-<name>).
    name: String => name;
    /// Two-player games: the best weights of the last N generations join the opponents.
    #[cfg_attr(feature = "clap", arg(value_name = "N"))]
    hall_of_fame: u64 => hall_of_fame;
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
        c.game.overlay(g);
        c.game.switch_off(&self.off);
        let run = &self.run;
        run.set(&mut c);
        if let Some(kind) = run.optimizer {
            c.optimizer.kind = kind;
        }
        if let Some(p) = run.population {
            c.set_population(p)?;
        }
        if let Some(threads) = self.threads {
            c.threads = threads;
        }
        if c.optimizer.kind == OptimizerKind::External && c.external.is_none() {
            bail!(
                "[optimizer] kind = \"external\" needs an [external] table: name = \"...\" (the optimiser, as run.toml records it) and population = N (candidates a generation)"
            );
        }
        Ok(c.resolved())
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
                || args.run.any()
                || args.out.is_some()
                || args.off != Off::default();
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

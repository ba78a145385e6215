//! `compare`: run configs side by side on equal training budgets.

use anyhow::{Result, bail};
use stacktune_base::limits::{self, GAMES_BUDGET, REPEATS};
use stacktune_base::progress::Mode;
use stacktune_run::backend::Backend;
use stacktune_run::compare::{Entrant, Plan, RECORD, compare};
use stacktune_run::folder::RunFolder;
use std::path::{Path, PathBuf};

#[derive(clap::Args, Debug)]
pub struct CompareArgs {
    /// A run config to compare; give two or more (the runs are labelled by file name).
    #[arg(long = "config", value_name = "FILE", required = true)]
    pub configs: Vec<PathBuf>,
    /// Runs of each config, with seeds seed, seed + 1, ... (1 to 100).
    #[arg(long, default_value_t = 3)]
    pub repeats: u64,
    /// Training games each run plays (whole generations: as many as fit).
    #[arg(long)]
    pub budget: u64,
    /// Folder for the runs, points.csv, summary.csv and compare.png (default: a new folder
    /// runs/compare, -2, -3, ...).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Worker threads for every run (0 = one per core); results do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// No progress display.
    #[arg(long)]
    pub quiet: bool,
}

pub fn run(args: CompareArgs, backend: &dyn Backend) -> Result<()> {
    if args.configs.len() < 2 {
        bail!("compare needs at least two --config files");
    }
    limits::check("--repeats", args.repeats, &REPEATS)?;
    limits::check("--budget", args.budget, &GAMES_BUDGET)?;
    let entrants = Entrant::load_all(&args.configs)?;
    let plan = Plan {
        entrants: &entrants,
        repeats: args.repeats,
        budget: args.budget,
        threads: args.threads,
    };
    let folder = match &args.out {
        Some(dir) => RunFolder::for_comparison(dir, RECORD, &plan.record())?,
        None => RunFolder::create_new(Path::new(stacktune_run::evolution::RUNS), "compare")?,
    };
    let mode = Mode::detect(args.quiet);
    let summary = compare(folder.path(), &plan, mode, backend)?;
    println!("comparison: {}", folder.path().display());
    println!(
        "{:<20} {:>9} {:>8} {:>12} {:>12} {:>12}",
        "config", "optimizer", "games", "final median", "quartiles", "best"
    );
    for s in &summary {
        println!(
            "{:<20} {:>9} {:>8} {:>12.1} {:>5.0}–{:<6.0} {:>12.1}",
            s.config, s.optimizer, s.games, s.final_median, s.final_q1, s.final_q3, s.final_best
        );
    }
    // Done: the folder holds its files alone, like a finished run's.
    folder.finish()
}

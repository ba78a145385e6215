//! `report DIR`: (re)writes a run folder's `report.html`, for a folder `evolve` left before
//! report pages existed, or after a change to the page.

use anyhow::Result;
use stacktune_game::replay::DEFAULT_MOVE_CAP;
use stacktune_run::page::write_report;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct ReportArgs {
    /// The run folder (holding run.toml and checkpoint.json).
    pub dir: PathBuf,
    /// Moves stored per replayed game; the page says when a game goes on longer.
    #[arg(long, default_value_t = DEFAULT_MOVE_CAP)]
    pub max_moves: u64,
}

pub fn run(args: ReportArgs) -> Result<()> {
    let path = write_report(&args.dir, args.max_moves)?;
    println!("report: {}", path.display());
    Ok(())
}

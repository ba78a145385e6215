//! `tbp`: a guideline weights file as a bot for any Tetris Bot Protocol front end.

use anyhow::{Context, Result};
use stacktune_players::registry::{shipped_tbp_brain, tbp_brain};
use stacktune_players::weights::WeightFile;
use stacktune_tbp::bot::serve;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct TbpArgs {
    /// A guideline weights file; the bot plays under its [search] (one ply without one).
    /// Without it, the shipped versus player (weights/versus/tuned.toml, compiled in).
    #[arg(long)]
    pub weights: Option<PathBuf>,
}

/// Serves the player on standard input and output until `quit` or the end of input; notes on
/// what it ignored go to standard error.
pub fn run(args: TbpArgs) -> Result<()> {
    let mut brain = match &args.weights {
        Some(path) => tbp_brain(&WeightFile::load(path)?, path.display().to_string())
            .with_context(|| format!("weights file {}", path.display()))?,
        None => shipped_tbp_brain(),
    };
    let stdin = std::io::stdin().lock();
    let stdout = std::io::stdout().lock();
    serve(stdin, stdout, &mut brain).context("the front end's pipe")
}

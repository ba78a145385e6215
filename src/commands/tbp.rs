//! `tbp`: a guideline weights file as a bot for any Tetris Bot Protocol front end.

use crate::search::Search;
use crate::weights::WeightFile;
use anyhow::{Context, Result};
use stacktune_games::tetris::guideline::rules::Rules;
use stacktune_games::tetris::guideline::tbp::brain::PlayerBrain;
use stacktune_games::tetris::guideline::{Guideline, Mode};
use stacktune_tbp::bot::serve;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct TbpArgs {
    /// A guideline weights file; the bot plays under its [search] (one ply without one).
    #[arg(long)]
    pub weights: PathBuf,
}

/// Serves the player on standard input and output until `quit` or the end of input; notes on
/// what it ignored go to standard error.
pub fn run(args: TbpArgs) -> Result<()> {
    stacktune_tbp::client::survive_closed_pipes();
    let game = Guideline::new(Rules::default(), Mode::Versus);
    let file = WeightFile::load(&args.weights)?;
    let player = crate::registry::guideline_player(&game, &file, Search::OnePly)
        .with_context(|| format!("weights file {}", args.weights.display()))?;
    let search = format!("{:?}", player.search);
    let mut brain = PlayerBrain::new(game, player, args.weights.display().to_string(), search);
    let stdin = std::io::stdin().lock();
    let stdout = std::io::stdout().lock();
    serve(stdin, stdout, &mut brain).context("the front end's pipe")
}

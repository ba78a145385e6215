//! `pbp`: a puyo weights file as a bot for any Puyo Bot Protocol front end.

use super::versus::puyo_side;
use anyhow::{Context, Result};
use stacktune_games::puyo::pbp::brain::serve;
use stacktune_games::puyo::pbp::{Info, VERSION};
use stacktune_games::settings::GameSpec;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct PbpArgs {
    /// A puyo weights file, solo or reading the match; the bot plays under its [search] and
    /// pairs shown, as it would in `versus`.
    #[arg(long)]
    pub weights: PathBuf,
}

/// Serves the player on standard input and output until `quit` or the end of input; notes on
/// what it ignored go to standard error.
pub fn run(args: PbpArgs) -> Result<()> {
    let name = args.weights.display().to_string();
    let (battle, side) = puyo_side(&name, &GameSpec::default())?;
    let info = Info {
        name: format!("stacktune {name}"),
        version: env!("CARGO_PKG_VERSION").to_string(),
        author: "stacktune".to_string(),
        protocol: VERSION,
    };
    let (stdin, stdout) = (std::io::stdin().lock(), std::io::stdout().lock());
    serve(
        stdin,
        stdout,
        &mut std::io::stderr(),
        &battle.game,
        info,
        &mut &side,
    )
    .context("the front end's pipe")
}

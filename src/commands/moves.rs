//! `moves`: every placement of a piece on a board, with every feature: how users debug weights.

use anyhow::{Context, Result};
use stacktune_games::listing::{MovesArgs, listing};

pub fn run(args: MovesArgs) -> Result<()> {
    let text = stacktune_base::fsutil::read_text(&args.board)
        .with_context(|| format!("cannot read board file {}", args.board.display()))?;
    print!("{}", listing(&args, &text)?);
    Ok(())
}

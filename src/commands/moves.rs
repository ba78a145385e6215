//! `moves`: every placement of a piece on a board, with every feature: how users debug weights.

use crate::games::GAME_NAMES;
use crate::games::tetris::listing;
use anyhow::{Context, Result, bail};
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct MovesArgs {
    /// Game whose rules apply.
    #[arg(long, default_value = "tetris")]
    pub game: String,
    /// Board file: rows top first, `.` empty, any other character filled.
    #[arg(long)]
    pub board: PathBuf,
    /// Piece to place (tetris: one of IOTSZLJ).
    #[arg(long)]
    pub piece: String,
    /// Print a JSON array instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: MovesArgs) -> Result<()> {
    let text = std::fs::read_to_string(&args.board)
        .with_context(|| format!("cannot read board file {}", args.board.display()))?;
    let source = args.board.display().to_string();
    match args.game.as_str() {
        "tetris" => {
            let board = listing::parse_board(&text, &source)?;
            let moves = listing::list_moves(board, &args.piece)?;
            if args.json {
                println!("{}", serde_json::to_string(&moves)?);
            } else {
                print!("{}", listing::format_moves(&moves));
            }
        }
        "puyo" => print!(
            "{}",
            crate::games::puyo::listing::moves(&text, &source, &args.piece, args.json)?
        ),
        other => bail!(
            "unknown game `{other}`; valid games: {}",
            GAME_NAMES.join(", ")
        ),
    }
    Ok(())
}

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
    /// Tetris rules: `research` (default) or `guideline` (SRS, spins and soft drop; the board
    /// file is the bottom rows of the 40).
    #[arg(long)]
    pub rules: Option<String>,
    /// Board file: rows top first, `.` empty; tetris: any other character filled; puyo: colour
    /// digits; connect: `X` first player, `O` second (the side to move follows from the counts).
    #[arg(long)]
    pub board: PathBuf,
    /// Piece to place (tetris: one of IOTSZLJ; puyo: a pair such as 41); connect has none.
    #[arg(long)]
    pub piece: Option<String>,
    /// Connect: discs in a row to win (default 4); the board file gives the size.
    #[arg(long)]
    pub inarow: Option<usize>,
    /// Print a JSON array instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: MovesArgs) -> Result<()> {
    let text = std::fs::read_to_string(&args.board)
        .with_context(|| format!("cannot read board file {}", args.board.display()))?;
    print!("{}", listing(&args, &text)?);
    Ok(())
}

/// What `moves` prints for the board file `text` (read from `args.board`, which names it in
/// errors): also what a host without files (a browser) lists for a board.
pub fn listing(args: &MovesArgs, text: &str) -> Result<String> {
    let source = args.board.display().to_string();
    let game = args.game.as_str();
    if game != "connect" && args.inarow.is_some() {
        bail!("--inarow is a connect setting; {game} does not use it");
    }
    let piece = || {
        args.piece
            .as_deref()
            .with_context(|| format!("{game} needs --piece"))
    };
    if game != "tetris" && args.rules.is_some() {
        bail!("--rules is a tetris setting for moves; {game} does not use it");
    }
    match game {
        "tetris" if args.rules.as_deref() == Some("guideline") => {
            use crate::games::guideline::listing;
            let moves = listing::list(listing::parse(text, &source)?, piece()?)?;
            Ok(match args.json {
                true => format!("{}\n", serde_json::to_string(&moves)?),
                false => listing::format(&moves),
            })
        }
        "tetris" => {
            if let Some(r) = args.rules.as_deref().filter(|r| *r != "research") {
                bail!("moves lists research or guideline tetris, not `{r}`");
            }
            let board = listing::parse_board(text, &source)?;
            let moves = listing::list_moves(board, piece()?)?;
            Ok(match args.json {
                true => format!("{}\n", serde_json::to_string(&moves)?),
                false => listing::format_moves(&moves),
            })
        }
        "puyo" => crate::games::puyo::listing::moves(text, &source, piece()?, args.json),
        "connect" => {
            if args.piece.is_some() {
                bail!("connect has no pieces: drop --piece");
            }
            crate::games::connect::listing::moves(
                text,
                &source,
                args.inarow.unwrap_or(4),
                args.json,
            )
        }
        other => bail!(
            "unknown game `{other}`; valid games: {}",
            GAME_NAMES.join(", ")
        ),
    }
}

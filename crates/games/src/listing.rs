//! `moves`: every placement of a piece on a board, with every feature, for any game: how users
//! debug weights, on the command line and in the browser.

use crate::GAME_NAMES;
use crate::tetris::listing;
use anyhow::{Context, Result, bail};
use std::path::PathBuf;

#[derive(Debug)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct MovesArgs {
    /// Game whose rules apply.
    #[cfg_attr(feature = "clap", arg(long, default_value = "tetris"))]
    pub game: String,
    /// Tetris rules: `research` (default), `guideline` (SRS, spins and soft drop; the board
    /// file is the bottom rows of the 40) or `tetrio` (SRS+, 180° turns, all-mini+ spins).
    #[cfg_attr(feature = "clap", arg(long))]
    pub rules: Option<String>,
    /// Board file: rows top first, `.` empty; tetris: any other character filled; puyo: colour
    /// digits; connect: `X` first player, `O` second (the side to move follows from the counts).
    #[cfg_attr(feature = "clap", arg(long))]
    pub board: PathBuf,
    /// Piece to place (tetris: one of IOTSZLJ; puyo: a pair such as 41); connect has none.
    #[cfg_attr(feature = "clap", arg(long))]
    pub piece: Option<String>,
    /// Connect: discs in a row to win (default 4); the board file gives the size.
    #[cfg_attr(feature = "clap", arg(long))]
    pub inarow: Option<usize>,
    /// Print a JSON array instead of text.
    #[cfg_attr(feature = "clap", arg(long))]
    pub json: bool,
}

/// What `moves` prints for the board file `text` (read from `args.board`, which names it in
/// errors).
pub fn listing(args: &MovesArgs, text: &str) -> Result<String> {
    use crate::tetris::guideline::{listing, rules::Rules};
    let Some(rules) = args.rules.as_deref().and_then(Rules::named) else {
        return placements_listing(args, text);
    };
    if args.game != "tetris" {
        return placements_listing(args, text);
    }
    check(args)?;
    let moves = listing::list(listing::parse(text, &source(args))?, piece(args)?, &rules)?;
    Ok(match args.json {
        true => format!("{}\n", serde_json::to_string(&moves)?),
        false => listing::format(&moves),
    })
}

/// [`listing`] for every game but guideline Tetris: what a host without files lists for a
/// board (the browser's module, which plays no guideline Tetris and so carries none of its
/// move generation).
pub fn placements_listing(args: &MovesArgs, text: &str) -> Result<String> {
    check(args)?;
    let source = source(args);
    match args.game.as_str() {
        "tetris" => {
            if let Some(r) = args.rules.as_deref().filter(|r| *r != "research") {
                bail!("moves lists research, guideline or tetrio tetris, not `{r}`");
            }
            let board = listing::parse_board(text, &source)?;
            let moves = listing::list_moves(board, piece(args)?)?;
            Ok(match args.json {
                true => format!("{}\n", serde_json::to_string(&moves)?),
                false => listing::format_moves(&moves),
            })
        }
        "puyo" => crate::puyo::listing::moves(text, &source, piece(args)?, args.json),
        "connect" => {
            if args.piece.is_some() {
                bail!("connect has no pieces: drop --piece");
            }
            crate::connect::listing::moves(text, &source, args.inarow.unwrap_or(4), args.json)
        }
        other => bail!(
            "unknown game `{other}`; valid games: {}",
            GAME_NAMES.join(", ")
        ),
    }
}

/// The flags that belong to another game than `--game`'s, refused.
fn check(args: &MovesArgs) -> Result<()> {
    let game = args.game.as_str();
    if game != "connect" && args.inarow.is_some() {
        bail!("--inarow is a connect setting; {game} does not use it");
    }
    if game != "tetris" && args.rules.is_some() {
        bail!("--rules is a tetris setting for moves; {game} does not use it");
    }
    Ok(())
}

/// The board file's name, for errors.
fn source(args: &MovesArgs) -> String {
    args.board.display().to_string()
}

/// `--piece`, which every game but connect needs.
fn piece(args: &MovesArgs) -> Result<&str> {
    let game = &args.game;
    args.piece
        .as_deref()
        .with_context(|| format!("{game} needs --piece"))
}

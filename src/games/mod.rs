//! The registry of games: one name per game, one place that builds a game from its settings.
//!
//! Code that must call generic functions on "whatever game the user named" goes through
//! [`AnyGame`] and the [`with_game!`](crate::with_game) macro; nothing else names a game.

pub mod connect;
pub mod panel;
pub mod puyo;
pub mod tetris;

use anyhow::{Result, bail};
use serde::{Deserialize, Serialize};

/// Names accepted by `--game`.
pub const GAME_NAMES: [&str; 3] = ["tetris", "puyo", "connect"];

/// Which game, at what size and under which rules: the part of a run's config and of the
/// CLI that picks the game. Every field but `game` has a per-game default.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, clap::Args)]
#[serde(deny_unknown_fields)]
pub struct GameSpec {
    /// Game to play: tetris, puyo or connect (default: the game a weights file names, else
    /// tetris).
    #[arg(long)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    /// Board width (tetris: 4 to 16, default 10; connect: columns, default 7, with
    /// (rows + 1) × columns at most 64).
    #[arg(long)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub width: Option<usize>,
    /// Board height (tetris: 4 to 64, default 20; connect: rows, default 6, with
    /// (rows + 1) × columns at most 64).
    #[arg(long)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub height: Option<usize>,
    /// Ruleset: tetris `research`; puyo `programming` or `tsu`.
    #[arg(long)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<String>,
    /// Puyo colours (3 to 5, default 4).
    #[arg(long)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub colours: Option<u8>,
    /// Connect-N: discs in a row to win (default 4).
    #[arg(long)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inarow: Option<usize>,
    /// Connect-N: plies the tuned player searches with alpha-beta (default 1: one ply).
    #[arg(long)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// Connect-N: an opponent, repeat for a pool: random, tutorial, negamax4 or a connect
    /// weights file (default: tutorial and negamax4).
    #[arg(long = "opponent", value_name = "NAME|FILE")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub opponents: Vec<String>,
    /// Draw tetris pieces from shuffled bags of seven instead of independently.
    #[arg(long)]
    #[serde(default)]
    pub bag7: bool,
    /// Offer placements that top out (they end the game when chosen).
    #[arg(long)]
    #[serde(default)]
    pub allow_topout: bool,
    /// Show the next piece; the player then places both before scoring.
    #[arg(long)]
    #[serde(default)]
    pub preview: bool,
    /// Puyo: what an episode scores, `score` (default) or `max_chain` (largest chain fired).
    #[arg(long)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fitness: Option<String>,
}

/// A configured game of any kind.
#[derive(Clone, Debug)]
pub enum AnyGame {
    Tetris(tetris::Tetris),
    Puyo(puyo::Puyo),
    Connect(connect::Connect),
}

impl GameSpec {
    /// The game's name, `tetris` when none was given.
    pub fn name(&self) -> &str {
        self.game.as_deref().unwrap_or("tetris")
    }

    /// Builds the game, rejecting unknown names and impossible sizes with one clear line.
    pub fn build(&self) -> Result<AnyGame> {
        let name = self.name();
        if name != "connect" {
            for (given, flag) in [
                (self.inarow.is_some(), "--inarow"),
                (self.depth.is_some(), "--depth"),
                (!self.opponents.is_empty(), "--opponent"),
            ] {
                if given {
                    bail!("{flag} is a connect setting; {name} does not use it");
                }
            }
        }
        match name {
            "tetris" => {
                if let Some(r) = self.rules.as_deref().filter(|r| *r != "research") {
                    bail!("unknown tetris rules `{r}`; valid rules: research");
                }
                let game =
                    tetris::Tetris::new(self.width.unwrap_or(10), self.height.unwrap_or(20))?
                        .with_randomizer(if self.bag7 {
                            tetris::Randomizer::Bag7
                        } else {
                            tetris::Randomizer::Uniform
                        })
                        .with_topout_allowed(self.allow_topout)
                        .with_preview(self.preview);
                Ok(AnyGame::Tetris(game))
            }
            "puyo" => Ok(AnyGame::Puyo(puyo::Puyo::from_spec(self)?)),
            "connect" => Ok(AnyGame::Connect(connect::Connect::from_spec(self)?)),
            other => bail!(
                "unknown game `{other}`; valid games: {}",
                GAME_NAMES.join(", ")
            ),
        }
    }
}

/// Runs `$body` with `$g` bound to the concrete game inside an [`AnyGame`].
#[macro_export]
macro_rules! with_game {
    ($any:expr, $g:ident => $body:expr) => {
        match $any {
            $crate::games::AnyGame::Tetris($g) => $body,
            $crate::games::AnyGame::Puyo($g) => $body,
            $crate::games::AnyGame::Connect($g) => $body,
        }
    };
}

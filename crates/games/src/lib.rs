//! stacktune's games, each a module behind the `Game` trait (stacktune-game): its rules, move
//! generation, features, the listing `moves` prints and what its replays draw. A ruleset of a
//! game lives under it (contest and guideline Tetris under [`tetris`]). A game plays its
//! opponents as policies it is handed, so nothing here names a player or a search.

pub mod connect;
pub mod listing;
pub mod panel;
pub mod puyo;
pub mod settings;
pub mod tetris;
pub mod versus;

/// The names `--game` takes: the games a registry builds from settings alone (Panel de Pon
/// puzzles are solved, not tuned).
pub const GAME_NAMES: [&str; 3] = ["tetris", "puyo", "connect"];

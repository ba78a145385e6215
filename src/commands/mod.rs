//! One module per CLI command: its flags (clap) and what it does. `main.rs` only dispatches.

pub mod evolve;
pub mod moves;
pub mod play;
mod play_pieces;
pub mod solve;
pub mod solve_connect;
pub mod watch;

use crate::eval::LinearPlayer;
use crate::game::Game;
use crate::games::GameSpec;
use crate::weights::WeightFile;
use anyhow::Result;
use std::path::Path;

/// Loads a weights file and fills in the game it names when the user gave none.
pub(crate) fn load_weights(path: &Path, spec: &mut GameSpec) -> Result<WeightFile> {
    let file = WeightFile::load(path)?;
    if spec.game.is_none() {
        spec.game = Some(file.game.clone());
    }
    Ok(file)
}

/// The player a weights file describes for `game`; errors name the file.
pub(crate) fn player_for<G: Game>(
    game: &G,
    file: &WeightFile,
    path: &Path,
) -> Result<LinearPlayer> {
    LinearPlayer::from_file(game, file)
        .map_err(|e| anyhow::anyhow!("weights file {}: {e}", path.display()))
}

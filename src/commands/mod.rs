//! One module per CLI command: its flags (clap) and what it does. `main.rs` only dispatches.

pub mod compare;
pub mod connect_book;
pub mod evolve;
pub mod export;
pub mod moves;
pub mod play;
mod play_pieces;
mod play_report;
pub mod replay;
pub mod report;
pub mod search_flags;
pub mod solve;
pub mod solve_connect;
pub mod tbp;
pub mod versus;
pub mod watch;

use crate::eval::LinearPlayer;
use crate::registry::{Build, unnamed_rules};
use crate::search::Player;
use crate::weights::WeightFile;
use anyhow::Result;
use stacktune_game::Game;
use stacktune_games::settings::GameSpec;
use std::path::Path;

/// Loads a weights file and fills in the game, rules, pairs shown and search it names when the
/// user gave none (a search flag, `--beam-width` or `--depth`, replaces the file's whole
/// `[search]`; `--preview` or `--pairs-shown` replaces its pairs shown).
pub(crate) fn load_weights(path: &Path, spec: &mut GameSpec) -> Result<WeightFile> {
    let file = WeightFile::load(path)?;
    fill_spec(&file, path, spec)?;
    Ok(file)
}

/// Fills in what `file` (read from `path`, or held in memory under that name) says of the
/// game when the user said nothing, as [`load_weights`] describes.
pub(crate) fn fill_spec(file: &WeightFile, path: &Path, spec: &mut GameSpec) -> Result<()> {
    if spec.game.is_none() {
        spec.game = Some(file.game.clone());
    }
    if spec.game.as_ref() == Some(&file.game) {
        spec.width = spec.width.or(file.width);
        spec.height = spec.height.or(file.height);
        if !spec.preview {
            spec.pairs_shown = spec.pairs_shown.or(file.pairs_shown);
        }
        if let Some(search) = file.search.filter(|_| {
            spec.beam_width.is_none()
                && spec.depth.is_none()
                && spec.samples.is_none()
                && spec.unseen.is_none()
                && spec.fired.is_none()
                && spec.nodes.is_none()
        }) {
            if file.game == "connect" {
                anyhow::bail!(
                    "weights file {}: a [search] beam is for games that show pieces ahead, not connect (it searches with --depth)",
                    path.display()
                );
            }
            spec.beam_width = Some(search.beam_width);
            spec.depth = search.depth;
            spec.samples = search.samples;
            spec.unseen = search.unseen;
            spec.fired = search.fired;
            spec.nodes = search.nodes;
        }
    }
    match &spec.rules {
        None => spec.rules = file.rules.clone(),
        // Weights of another game are refused by the game, naming both games.
        Some(_) if spec.game.as_ref() != Some(&file.game) => {}
        Some(given) => file
            .check_rules(given, unnamed_rules(&file.game))
            .map_err(|e| anyhow::anyhow!("weights file {}: {e}", path.display()))?,
    }
    Ok(())
}

/// The player a weights file describes for `game`, under the search `spec` asks for; errors
/// name the file.
pub(crate) fn player_for<G: Game>(
    game: &G,
    spec: &GameSpec,
    file: &WeightFile,
    path: &Path,
) -> Result<Player> {
    let eval = LinearPlayer::from_file(game, file)
        .map_err(|e| anyhow::anyhow!("weights file {}: {e}", path.display()))?;
    Ok(Player::new(eval, spec.search()?))
}

//! What a host embedding stacktune (the Python package in `python/`) needs of the commands
//! beyond their printing: `play --json`'s report as data, and the player a weights file
//! describes, built exactly as `play` builds them so that both give the same numbers.

use crate::backend::Backend;
use crate::commands::play::{PlayArgs, PlayReport, play, prepare_with};
use crate::registry::{AnyGame, Build, GAME_NAMES};
use crate::search::Player;
use crate::weights::WeightFile;
use crate::with_game;
use anyhow::{Result, bail};
use stacktune_game::Game;
use stacktune_games::settings::GameSpec;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::AtomicBool;

/// The report `stacktune play --json` prints for `args`: the same games, the same figures.
/// What writes files or plays a piece sequence (`--replay-html`, `--pieces`, `--trace`) is
/// the command's alone and refused here. Raising `stop` ends it with an error within a move
/// of each game under way: the host's interrupt (Python's KeyboardInterrupt).
pub fn play_report(args: PlayArgs, backend: &dyn Backend, stop: &AtomicBool) -> Result<PlayReport> {
    let file = WeightFile::load(&args.weights)?;
    play_report_of(args, &file, backend, stop)
}

/// The report `stacktune play --json` prints for `args` with the weights `file` (read from
/// `args.weights`, or held in memory: a host's dict, see [`weights_in_memory`]), so that
/// weights from memory play the very games a file of the same weights plays, with no file
/// written. `args.weights` only names the weights in messages.
pub fn play_report_of(
    mut args: PlayArgs,
    file: &WeightFile,
    backend: &dyn Backend,
    stop: &AtomicBool,
) -> Result<PlayReport> {
    for (given, flag) in [
        (args.pieces.is_some(), "--pieces"),
        (args.trace.is_some(), "--trace"),
        (args.replay_html.is_some(), "--replay-html"),
    ] {
        if given {
            bail!("{flag} is for the command line: run `stacktune play {flag} ...` for it");
        }
    }
    let any = prepare_with(&mut args, file)?;
    with_game!(&any, g => {
        let player = player_for(g, &args.game, file, &args.weights)?;
        play(backend, &g.numbered_from(args.seed), &player, &args, stop)
    })
}

/// Weights held in memory (a host's dict of feature name to weight) for the game `spec`
/// names, as the weight file they would be, with a file's checks (finite, every name one of
/// the game's features): a bad weight is refused in one line before anything is played.
pub fn weights_in_memory(spec: &GameSpec, weights: BTreeMap<String, f64>) -> Result<WeightFile> {
    let Some(game) = &spec.game else {
        bail!(
            "weights in memory need the game they play: game= one of {}",
            GAME_NAMES.join(", ")
        );
    };
    // Weights in memory are for the rules they are played by: they name no others.
    let file = WeightFile {
        rules: spec.rules.clone(),
        ..WeightFile::in_memory(game, weights)?
    };
    let any = spec.build()?;
    with_game!(&any, g => file.check_against(g.name(), g.feature_names()))?;
    Ok(file)
}

/// Loads the weights file at `path` and builds the game it names, completed from `spec` (the
/// flags of `play`, which the file fills in where they are not given).
pub fn game_and_weights(path: &Path, spec: &mut GameSpec) -> Result<(AnyGame, WeightFile)> {
    let file = WeightFile::load(path)?;
    Ok((game_for(&file, path, spec)?, file))
}

/// The game `file` (read from `path`, or held in memory under that name) plays, completed
/// from `spec` as [`game_and_weights`] completes it.
pub fn game_for(file: &WeightFile, path: &Path, spec: &mut GameSpec) -> Result<AnyGame> {
    crate::commands::fill_spec(file, path, spec)?;
    spec.build()
}

/// The player `play` plays `file` (read from `path`) with on `game`, under the search `spec`
/// gives.
pub fn player_for<G: Game>(
    game: &G,
    spec: &GameSpec,
    file: &WeightFile,
    path: &Path,
) -> Result<Player> {
    crate::commands::player_for(game, spec, file, path)
}

/// Clap's error for bad arguments in one line, as `stacktune` prints it: what is wrong, then
/// any tip, before the usage block and clap's pointer to --help, one paragraph each (a list,
/// the missing arguments, joins into its paragraph).
pub fn bad_arguments(e: &clap::Error) -> String {
    if let Some(line) = negative_count(e) {
        return line;
    }
    let text = e.render().to_string();
    let before_usage = text.split("\nUsage:").next().unwrap_or_default();
    let what: Vec<String> = before_usage
        .split("\n\n")
        .map(|p| p.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|p| !p.is_empty() && !p.starts_with("For more information"))
        .collect();
    what.join("; ")
}

/// A negative number given to a flag that counts (`--games -5`): clap says it found no digit
/// in it, where the user needs to hear that the value is out of range.
fn negative_count(e: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if e.kind() != ErrorKind::ValueValidation {
        return None;
    }
    let (Some(ContextValue::String(arg)), Some(ContextValue::String(value))) = (
        e.get(ContextKind::InvalidArg),
        e.get(ContextKind::InvalidValue),
    ) else {
        return None;
    };
    let negative = value
        .strip_prefix('-')
        .is_some_and(|digits| digits.parse::<f64>().is_ok());
    let flag = arg.split_whitespace().next()?;
    negative.then(|| format!("error: {flag} {value} is out of range: it cannot be negative"))
}

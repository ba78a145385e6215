//! `play`'s work as a library: the games a weights file plays and what they measure, for the
//! command line (which prints it), the Python package (which returns it) and a program of its
//! own. A weights file completes the game's settings where they say nothing.

use crate::backend::{Backend, Batch, GameData, Streams, vector};
use crate::report_page::{ReplayPage, render_replays};
use anyhow::{Result, bail};
use serde::Serialize;
use stacktune_base::progress::{Mode, Progress};
use stacktune_base::stats::Summary;
use stacktune_game::Episodes;
use stacktune_game::Playable;
use stacktune_game::replay::{Replayable, record_games};
use stacktune_game::{EpisodeLimits, Game};
use stacktune_games::GAME_NAMES;
use stacktune_games::settings::GameSpec;
use stacktune_players::eval::LinearPlayer;
use stacktune_players::registry::{AnyGame, Build, unnamed_rules};
use stacktune_players::search::Player;
use stacktune_players::weights::WeightFile;
use stacktune_players::with_game;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use web_time::Instant;

#[derive(Debug)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct PlayArgs {
    /// Weights file (TOML) to play.
    #[cfg_attr(feature = "clap", arg(long))]
    pub weights: PathBuf,
    #[cfg_attr(feature = "clap", command(flatten))]
    pub game: GameSpec,
    /// Number of games, 1 to 1,000,000 (two-player games: against each opponent).
    #[cfg_attr(feature = "clap", arg(long, default_value_t = 100))]
    pub games: u64,
    /// Seed: game i's pieces depend only on (seed, i).
    #[cfg_attr(feature = "clap", arg(long, default_value_t = 0))]
    pub seed: u64,
    /// Stop each game after this many pieces (0 = never, as in evolve).
    #[cfg_attr(feature = "clap", arg(long))]
    pub max_pieces: Option<u64>,
    /// Worker threads (0 = one per core, at most 256).
    #[cfg_attr(feature = "clap", arg(long, default_value_t = 0))]
    pub threads: usize,
    /// Print one JSON object instead of a table.
    #[cfg_attr(feature = "clap", arg(long))]
    pub json: bool,
    /// No progress display.
    #[cfg_attr(feature = "clap", arg(long))]
    pub quiet: bool,
    /// Tetris: play one game on this piece sequence instead of drawn pieces (a file of the
    /// letters IOTZSJL, whitespace ignored); it ends when the sequence runs out or no
    /// placement avoids topping out.
    #[cfg_attr(feature = "clap", arg(long, value_name = "FILE", conflicts_with_all = ["games", "seed", "threads", "bag7"]))]
    pub pieces: Option<PathBuf>,
    /// With --pieces: write every move to this new file, one JSON object a line (piece,
    /// orientation, column from 0, lines); an existing file is never overwritten.
    #[cfg_attr(feature = "clap", arg(long, value_name = "OUT", requires = "pieces"))]
    pub trace: Option<PathBuf>,
    /// Also write a web page replaying game 0 of --seed (a two-player game: game i against
    /// each opponent i) to this new file; an existing file is never overwritten.
    #[cfg_attr(
        feature = "clap",
        arg(long, value_name = "FILE", conflicts_with = "pieces")
    )]
    pub replay_html: Option<PathBuf>,
    /// With --replay-html: moves the page stores per game (it says when a game goes on).
    #[cfg_attr(feature = "clap", arg(long, default_value_t = stacktune_game::replay::DEFAULT_MOVE_CAP, requires = "replay_html"))]
    pub replay_moves: u64,
}

impl PlayArgs {
    /// `play --weights weights` with every other flag at its default, clap's own (so that the
    /// two never drift): a program that plays a game of its own through [`play`] sets what it
    /// needs over these (`examples/trominoes.rs`).
    #[cfg(feature = "clap")]
    pub fn defaults(weights: &std::path::Path) -> PlayArgs {
        #[derive(clap::Parser)]
        #[command(no_binary_name = true)]
        struct Cli {
            #[command(flatten)]
            args: PlayArgs,
        }
        let argv = [std::ffi::OsStr::new("--weights"), weights.as_os_str()];
        <Cli as clap::Parser>::try_parse_from(argv)
            .expect("--weights alone is a valid play command line")
            .args
    }
}

/// The game and the weights file `args` names (the file completing the flags), refusing what
/// a splitting estimate cannot do: the command and the Python package's `play` start here.
pub fn prepare(args: &mut PlayArgs) -> Result<(AnyGame, WeightFile)> {
    let file = WeightFile::load(&args.weights)?;
    let any = prepare_with(args, &file)?;
    Ok((any, file))
}

/// The game `args` and the weights `file` describe (the file completing the flags, whether
/// it was read from `args.weights` or is held in memory), refusing what a splitting estimate
/// cannot do.
pub fn prepare_with(args: &mut PlayArgs, file: &WeightFile) -> Result<AnyGame> {
    fill_spec(file, &args.weights, &mut args.game)?;
    let any = args.game.build()?;
    if args.game.splitting.is_some() {
        for (given, flag) in [
            (args.max_pieces.is_some_and(|m| m > 0), "--max-pieces"),
            (args.replay_html.is_some(), "--replay-html"),
            (args.pieces.is_some(), "--pieces"),
        ] {
            if given {
                bail!(
                    "{flag} needs games played out; --splitting estimates them without playing them out"
                );
            }
        }
    }
    Ok(any)
}

/// The replay page of game 0 of `--seed` (one game against each opponent of a two-player
/// game), as `play --seed S --games 1` plays it.
pub fn replay_page<G: Replayable>(
    game: &G,
    player: &Player,
    args: &PlayArgs,
    stop: &AtomicBool,
) -> Result<String> {
    let max_pieces = args.max_pieces.unwrap_or(0);
    let command = args
        .game
        .play_command(&args.weights, args.seed, 1, max_pieces);
    let limits = EpisodeLimits::capped(max_pieces);
    let games = stacktune_game::replay::replayed_games(game);
    let progress = Progress::new(Mode::detect(args.quiet), games, "replay page");
    let replays = record_games(
        game,
        player,
        args.seed,
        limits,
        args.replay_moves,
        &command,
        &progress,
        stop,
    );
    progress.finish();
    let Some(replays) = replays else {
        bail!("stopped before the replay page's games were played; no page is written");
    };
    render_replays(&ReplayPage {
        title: format!(
            "{} ({}): {} playing",
            game.name(),
            game.rules(),
            args.weights.display()
        ),
        version: env!("CARGO_PKG_VERSION"),
        replays: &replays,
    })
}

/// Plays the games `args` asks for on `backend` and measures them. `game` is the one
/// `args.game` describes, numbered from `args.seed`; `player` plays it under the search
/// `args.game` gives. A two-player game plays `--games` against each opponent: game i meets
/// opponent i mod n, so each opponent sees the game's schedule (openings, colours) from its
/// start. Raising `stop` (Ctrl-C, or a host's interrupt) ends it with an error within a move
/// of each game under way, without a report.
pub fn play<G: Playable>(
    backend: &dyn Backend,
    game: &G,
    player: &Player,
    args: &PlayArgs,
    stop: &AtomicBool,
) -> Result<PlayReport> {
    stacktune_base::limits::check(
        "--games",
        args.games,
        &stacktune_base::limits::HELD_OUT_GAMES,
    )?;
    let limits = EpisodeLimits::capped(args.max_pieces.unwrap_or(0));
    let opponents = game.opponents();
    let games = args.games * opponents.len().max(1) as u64;
    let progress = Progress::new(Mode::detect(args.quiet), games, "games");
    let start = Instant::now();
    let batch = Batch {
        game: GameData::new(&args.game)?.numbered_from(args.seed),
        players: vec![vector(&player.eval, game.feature_names().len())],
        games,
        streams: Streams::held_out(args.seed),
        limits,
        threads: args.threads,
    };
    let Some(results) = backend.play(&batch, stop, &progress)? else {
        progress.finish();
        bail!("stopped before its {games} games were played (Ctrl-C); nothing is reported");
    };
    let seconds = start.elapsed().as_secs_f64();
    progress.finish();
    let scores: Vec<f64> = results.iter().map(|r| r.score).collect();
    let total_pieces: u64 = results.iter().map(|r| r.moves).sum();
    let n = opponents.len();
    let opponents = opponents
        .into_iter()
        .enumerate()
        .map(|(o, name)| Versus::tally(name, scores.iter().skip(o).step_by(n).copied()))
        .collect();
    let names = game.detail_names();
    let per_game = results
        .iter()
        .enumerate()
        .map(|(i, r)| GameRow {
            game: game
                .describe_episode(i as u64)
                .unwrap_or_else(|| i.to_string()),
            score: r.score,
            counts: names.iter().copied().zip(r.details).collect(),
        })
        .collect();
    Ok(PlayReport {
        summary: stacktune_game::EpisodeResult::summary(&results),
        total_pieces,
        pieces_per_second: total_pieces as f64 / seconds.max(1e-9),
        opponents,
        per_game,
        capped: Capped::count(
            results.iter().map(|r| r.moves),
            args.max_pieces.unwrap_or(0),
        ),
    })
}

/// What `play --json` prints.
#[derive(Debug, Serialize)]
pub struct PlayReport {
    #[serde(flatten)]
    pub summary: Summary,
    pub total_pieces: u64,
    pub pieces_per_second: f64,
    /// Two-player games: the results against each opponent.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub opponents: Vec<Versus>,
    /// One row per game: its score and the counts its game reports beside it (contest Tetris);
    /// empty only for `--pieces`, which plays one sequence.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub per_game: Vec<GameRow>,
    /// The games `--max-pieces` stopped: the table says so, since its figures are then those
    /// of capped games, not of whole ones.
    #[serde(skip)]
    pub capped: Capped,
}

/// How many of the games reached `--max-pieces`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Capped {
    pub games: u64,
    /// The cap (0: none).
    pub max_pieces: u64,
}

impl Capped {
    /// The games of `moves` (each game's moves) that reached `max_pieces` (0: no cap).
    pub fn count(moves: impl Iterator<Item = u64>, max_pieces: u64) -> Capped {
        let games = if max_pieces == 0 {
            0
        } else {
            moves.filter(|&m| m >= max_pieces).count() as u64
        };
        Capped { games, max_pieces }
    }

    /// The table's line for `of` games, when any reached the cap.
    pub fn line(&self, of: u64) -> Option<String> {
        let Capped { games, max_pieces } = *self;
        match games {
            0 => None,
            _ if games == of => Some(format!("all {of} games reached --max-pieces {max_pieces}")),
            _ => Some(format!(
                "{games} of {of} games reached --max-pieces {max_pieces}"
            )),
        }
    }
}

/// One game's score and the counts its game reports.
#[derive(Debug, Serialize)]
pub struct GameRow {
    /// Which game: its description (contest Tetris: the contest seed), else its index.
    pub game: String,
    pub score: f64,
    #[serde(flatten)]
    pub counts: BTreeMap<&'static str, u64>,
}

/// A two-player game's results against one opponent, from the weights' side.
#[derive(Debug, Serialize)]
pub struct Versus {
    pub opponent: String,
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Mean game score: win 1, draw ½, loss 0.
    pub score: f64,
}

impl Versus {
    /// Tallies games whose scores are 1 (win), ½ (draw) or 0 (loss).
    pub fn tally(opponent: String, scores: impl Iterator<Item = f64>) -> Versus {
        let mut v = Versus {
            opponent,
            games: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            score: 0.0,
        };
        for s in scores {
            v.games += 1;
            v.score += s;
            match s {
                1.0 => v.wins += 1,
                0.0 => v.losses += 1,
                _ => v.draws += 1,
            }
        }
        v.score /= v.games as f64;
        v
    }
}

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
    fill_spec(file, path, spec)?;
    spec.build()
}

/// Loads a weights file and fills in the game, rules, pairs shown and search it names when the
/// user gave none (a search flag, `--beam-width` or `--depth`, replaces the file's whole
/// `[search]`; `--preview` or `--pairs-shown` replaces its pairs shown).
pub fn load_weights(path: &Path, spec: &mut GameSpec) -> Result<WeightFile> {
    let file = WeightFile::load(path)?;
    fill_spec(&file, path, spec)?;
    Ok(file)
}

/// Fills in what `file` (read from `path`, or held in memory under that name) says of the
/// game when the user said nothing, as [`load_weights`] describes.
pub fn fill_spec(file: &WeightFile, path: &Path, spec: &mut GameSpec) -> Result<()> {
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

/// The player `play` plays `file` (read from `path`) with on `game`, under the search `spec`
/// asks for; errors name the file.
pub fn player_for<G: Playable>(
    game: &G,
    spec: &GameSpec,
    file: &WeightFile,
    path: &Path,
) -> Result<Player> {
    let eval = LinearPlayer::from_file(game, file)
        .map_err(|e| anyhow::anyhow!("weights file {}: {e}", path.display()))?;
    Ok(Player::new(eval, spec.search()?))
}

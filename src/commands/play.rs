//! `play`: many seeded games of one weight set, in parallel, summarised.

pub use super::play_report::{Capped, GameRow, PlayReport, Versus};
use super::play_report::{print_per_game, print_report, print_versus};
use crate::backend::{Backend, Batch, GameData, Streams, vector};
use crate::registry::AnyGame;
use crate::registry::Build;
use crate::report_page::{ReplayPage, render_replays};
use crate::search::Player;
use crate::weights::WeightFile;
use crate::with_game;
use anyhow::{Result, bail};
use stacktune_base::progress::{Mode, Progress};
use stacktune_game::replay::{Replayable, record_games};
use stacktune_game::{EpisodeLimits, Game};
use stacktune_games::settings::GameSpec;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    /// Weights file (TOML) to play.
    #[arg(long)]
    pub weights: PathBuf,
    #[command(flatten)]
    pub game: GameSpec,
    /// Number of games, 1 to 1,000,000 (two-player games: against each opponent).
    #[arg(long, default_value_t = 100)]
    pub games: u64,
    /// Seed: game i's pieces depend only on (seed, i).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Stop each game after this many pieces (0 = never, as in evolve).
    #[arg(long)]
    pub max_pieces: Option<u64>,
    /// Worker threads (0 = one per core, at most 256).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
    /// No progress display.
    #[arg(long)]
    pub quiet: bool,
    /// Tetris: play one game on this piece sequence instead of drawn pieces (a file of the
    /// letters IOTZSJL, whitespace ignored); it ends when the sequence runs out or no
    /// placement avoids topping out.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["games", "seed", "threads", "bag7"])]
    pub pieces: Option<PathBuf>,
    /// With --pieces: write every move to this new file, one JSON object a line (piece,
    /// orientation, column from 0, lines); an existing file is never overwritten.
    #[arg(long, value_name = "OUT", requires = "pieces")]
    pub trace: Option<PathBuf>,
    /// Also write a web page replaying game 0 of --seed (a two-player game: game i against
    /// each opponent i) to this new file; an existing file is never overwritten.
    #[arg(long, value_name = "FILE", conflicts_with = "pieces")]
    pub replay_html: Option<PathBuf>,
    /// With --replay-html: moves the page stores per game (it says when a game goes on).
    #[arg(long, default_value_t = stacktune_game::replay::DEFAULT_MOVE_CAP, requires = "replay_html")]
    pub replay_moves: u64,
}

impl PlayArgs {
    /// `play --weights weights` with every other flag at its default, clap's own (so that the
    /// two never drift): a program that plays a game of its own through [`play`] sets what it
    /// needs over these (`examples/trominoes.rs`).
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
    super::fill_spec(file, &args.weights, &mut args.game)?;
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

pub fn run(mut args: PlayArgs, backend: &dyn Backend) -> Result<()> {
    let (any, file) = prepare(&mut args)?;
    if let Some(pieces) = &args.pieces {
        let AnyGame::Tetris(game) = &any else {
            bail!(
                "--pieces plays a tetris piece sequence; weights file {} is for {}",
                args.weights.display(),
                file.game
            );
        };
        let player = super::player_for(game, &args.game, &file, &args.weights)?;
        let trace = args.trace.as_deref();
        let (report, games) =
            super::play_pieces::run(game, &player, pieces, args.max_pieces, trace)?;
        if args.json {
            println!("{}", serde_json::to_string(&report)?);
        } else {
            print_report(&report, game.score_name(), &args.weights, &games);
        }
        return Ok(());
    }
    if let Some(out) = &args.replay_html {
        // Checked before playing too, so the games are not played for nothing.
        stacktune_base::fsutil::refuse_existing(out)?;
    }
    // Ctrl-C stops the games under way and the command with them.
    let stop = stacktune_base::stop::ctrl_c();
    with_game!(&any, g => {
        let player = super::player_for(g, &args.game, &file, &args.weights)?;
        if let Some(out) = &args.replay_html {
            stacktune_base::fsutil::write_new(out, replay_page(g, &player, &args, stop)?.as_bytes())?;
        }
        let g = &g.numbered_from(args.seed);
        let report = play(backend, g, &player, &args, stop)?;
        if args.json {
            println!("{}", serde_json::to_string(&report)?);
        } else if report.opponents.is_empty() {
            print_per_game(&report, g.detail_names());
            let games = format!("{} (seed {})", report.summary.games, args.seed);
            print_report(&report, g.score_name(), &args.weights, &games);
        } else {
            let pairing = g.pairing().unwrap_or_default();
            print_versus(&report, &args.weights, args.games, args.seed, pairing);
        }
    });
    Ok(())
}

/// The replay page of game 0 of `--seed` (one game against each opponent of a two-player
/// game), as `play --seed S --games 1` plays it.
fn replay_page<G: Replayable>(
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
pub fn play<G: Game>(
    backend: &dyn Backend,
    game: &G,
    player: &crate::search::Player,
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

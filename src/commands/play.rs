//! `play`: many seeded games of one weight set, in parallel, summarised.

use crate::episode::{play_all, with_threads};
use crate::game::{EpisodeLimits, Game};
use crate::games::GameSpec;
use crate::progress::{Mode, Progress};
use crate::rng::game_stream;
use crate::stats::Summary;
use crate::with_game;
use anyhow::Result;
use serde::Serialize;
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
    /// Number of games.
    #[arg(long, default_value_t = 100)]
    pub games: u64,
    /// Seed: game i's pieces depend only on (seed, i).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Stop each game after this many pieces.
    #[arg(long)]
    pub max_pieces: Option<u64>,
    /// Worker threads (0 = one per core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
    /// No progress display.
    #[arg(long)]
    pub quiet: bool,
}

/// What `play --json` prints.
#[derive(Debug, Serialize)]
pub struct PlayReport {
    #[serde(flatten)]
    pub summary: Summary,
    pub total_pieces: u64,
    pub pieces_per_second: f64,
}

pub fn run(mut args: PlayArgs) -> Result<()> {
    let file = super::load_weights(&args.weights, &mut args.game)?;
    let any = args.game.build()?;
    with_game!(&any, g => {
        let player = super::player_for(g, &file, &args.weights)?;
        let report = play(g, &player, &args)?;
        if args.json {
            println!("{}", serde_json::to_string(&report)?);
        } else {
            print_report(&report, g.score_name(), &args);
        }
    });
    Ok(())
}

/// Plays the games `args` asks for and measures them.
pub fn play<G: Game>(
    game: &G,
    player: &crate::eval::LinearPlayer,
    args: &PlayArgs,
) -> Result<PlayReport> {
    if args.games == 0 {
        anyhow::bail!("--games must be at least 1");
    }
    let limits = EpisodeLimits {
        max_moves: args.max_pieces,
    };
    let progress = Progress::new(Mode::detect(args.quiet || args.json), args.games, "games");
    let start = Instant::now();
    let results = with_threads(args.threads, || {
        play_all(
            game,
            std::slice::from_ref(player),
            args.games,
            |i| game_stream(args.seed, i),
            limits,
            &AtomicBool::new(false),
            || progress.inc(),
        )
    })?
    .expect("play is never stopped early");
    let seconds = start.elapsed().as_secs_f64();
    progress.finish();
    let scores: Vec<f64> = results.iter().map(|r| r.score).collect();
    let total_pieces: u64 = results.iter().map(|r| r.moves).sum();
    Ok(PlayReport {
        summary: Summary::of(&scores),
        total_pieces,
        pieces_per_second: total_pieces as f64 / seconds.max(1e-9),
    })
}

fn print_report(report: &PlayReport, measure: &str, args: &PlayArgs) {
    let s = &report.summary;
    println!("weights       {}", args.weights.display());
    println!("games         {} (seed {})", s.games, args.seed);
    println!("mean {measure:<8} {:.1} ± {:.1} (95 % CI)", s.mean, s.ci95);
    println!("median        {:.1}", s.median);
    println!("std           {:.1}", s.std);
    println!("min / max     {} / {}", s.min, s.max);
    println!("pieces        {}", report.total_pieces);
    println!("pieces/s      {:.0}", report.pieces_per_second);
}

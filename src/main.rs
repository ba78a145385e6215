//! The `stacktune` command line: parse, then dispatch to `stacktune::commands`.

use clap::{Parser, Subcommand};
use stacktune::commands::{moves, play, watch};

/// Tunes Dellacherie-style heuristic players for grid puzzle games.
#[derive(Parser)]
#[command(name = "stacktune", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play many seeded games with a weights file and summarise them.
    Play(play::PlayArgs),
    /// List every placement of a piece on a board with all features.
    Moves(moves::MovesArgs),
    /// Watch one game in the terminal.
    Watch(watch::WatchArgs),
}

fn main() {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Play(args) => play::run(args),
        Command::Moves(args) => moves::run(args),
        Command::Watch(args) => watch::run(args),
    };
    if let Err(e) = result {
        eprintln!("error: {e:#}");
        std::process::exit(1);
    }
}
